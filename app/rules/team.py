"""Labyrinth Team Edition (variant id `team`), per `shared/rules/team.md`.

Cooperative: 2 to 4 players collect the 24 treasures together before the Book of
Daedalus (24 cards, one turned at the start of every turn) runs out. Modes (option
`mode`): `introductory`, `standard`, `expert`. The wire format of actions, views and
events is `docs/protocol.md`, section "Team".

The heart of the game is secrecy: a face-down tile's face (shape, openings, treasure,
symbol) and the order of both decks never leave the engine while the game runs. Views
show a face-down tile as exactly `{"face_down": true, "fixed": false}`; paths treat it
as a wall-less block whose own openings never matter (stepping onto it needs only the
neighbour's opening), so no legal list, refusal or event depends on its face.

Decisions taken where the rules are silent (also in the rules page):
- A turn's spells and moves are actions; `end` ends the turn. The turn also ends by
  itself once no move is left and the player's push/rotate/switch spells are all used.
- Stepping onto a face-down tile turns it face up at once (everyone sees its face, as
  the player picks it up); the player then sends `orient` with the openings of their
  choice before anything else, and only then is its treasure collected.
- A move with a modifier spell (traverse, teleport, escape) says so (`"spell": true`)
  and is allowed only to a cell the plain move cannot reach; the spell is then spent.
- Staying (a move to one's own cell) is a stop, as in the classic decision.
- Standard-mode spells: option `spell_<colour>` names a seat's spell or `random`; the
  random seats are dealt from the tiles nobody chose. The same spell twice is refused.
- Setup draws, in this order: the tiles (as classic), the treasure deck, the Daedalus
  deck, the random spells; then each seat draws 2 cards. The game starts with the whole
  board face up; seat 0's first action is `daedalus`, turning the first Daedalus card in
  front of everyone (rules version 2; version 1 turned it at the end of setup, and its
  records re-play so). Later cards are turned by the `end` of the turn before.
- Seats take the home corners clockwise (version 2; `classic.seat_homes`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.rules.actions import Push, bad, expect_fields, from_wire, illegal, match_notation
from app.rules.base import (
    JSON,
    IllegalAction,
    InvalidOptions,
    copy_result,
    rules_version,
    take_version,
)
from app.rules.board import (
    BASE_OPENING,
    CELL_COUNT,
    FIXED_CELLS,
    FULL,
    SIZE,
    SLOTS,
    Board,
    Slot,
    TileInfo,
    carried,
    cell_name,
    cell_of,
    cells_of,
    make_catalogue,
    mask_of,
    open_str,
    parse_cell,
    parse_open,
    pos_of,
    rotate,
)
from app.rules.classic import (
    COLORS,
    FIXED_TREASURES,
    HOMES,
    L_CREATURES,
    T_CREATURES,
    TREASURES,
    seat_colors,
    seat_homes,
)

VARIANT = "team"
MODES = ("introductory", "standard", "expert")
STANDARD_SPELLS = ("rotate", "switch", "traverse", "teleport", "escape")
BOARD_SPELLS = ("push", "rotate", "switch")  # used as actions of their own
MOVE_SPELLS = ("traverse", "teleport", "escape")  # modifiers of a move
I_SYMBOLS = ("sun", "moon", "star", "comet")
L_SYMBOLS = ("rune", "eye", "hourglass", "compass")
SYMBOLS = I_SYMBOLS + L_SYMBOLS
BOARD_SIZE = 2  # cards on a player's treasure board
HOMES_MASK = mask_of(HOMES)
EDGE_MASK = mask_of(c for c in range(CELL_COUNT) if c // SIZE in (0, 6) or c % SIZE in (0, 6))

# Catalogue order: 13 I (4 with symbols), 15 L (6 creatures, 4 symbols, 5 plain), 6 T.
_MOVABLE = (
    [TileInfo("I")] * 13
    + [TileInfo("L", treasure=t) for t in L_CREATURES]
    + [TileInfo("L")] * 9
    + [TileInfo("T", treasure=t) for t in T_CREATURES]
)
CATALOGUE = make_catalogue(FIXED_TREASURES, _MOVABLE)
_FIRST = len(FIXED_CELLS)
SYMBOL_OF: dict[int, str] = {
    **{_FIRST + k: s for k, s in enumerate(I_SYMBOLS)},
    **{_FIRST + 13 + 6 + k: s for k, s in enumerate(L_SYMBOLS)},
}
TILE_NAMED: dict[str, int] = {
    **{info.treasure: i for i, info in enumerate(CATALOGUE) if info.treasure},
    **{s: i for i, s in SYMBOL_OF.items()},
}

# --- the Book of Daedalus -------------------------------------------------------------------

_PUSH_SLOTS = ("Nb", "Nf", "E2", "E6", "Sb", "Sf", "W2", "W6")
_FLIPS = (
    ("bat", "sun"), ("dragon", "moon"), ("genie", "star"), ("ghost", "comet"),
    ("troll", "rune"), ("sorceress", "eye"), ("lizard", "hourglass"), ("moth", "compass"),
    ("owl", "scarab"), ("rat", "spider"),
)  # fmt: skip
_TELEPORTS = (
    (("red", "yellow"), "green"), (("red", "green"), "yellow"), (("red", "blue"), "yellow"),
    (("yellow", "green"), "red"), (("yellow", "blue"), "red"), (("green", "blue"), "red"),
)  # fmt: skip
DAEDALUS_CARDS: tuple[JSON, ...] = (
    *({"kind": "push", "slot": s} for s in _PUSH_SLOTS),
    *({"kind": "flip", "tiles": list(pair)} for pair in _FLIPS),
    *({"kind": "teleport", "pawns": list(p), "to": to} for p, to in _TELEPORTS),
)
"""The 24 cards; a deck is a list of indexes into this tuple (never mutate the cards)."""

OPTION_DEFAULTS: dict[str, str] = {
    "mode": "introductory",
    **{f"spell_{color}": "random" for color in COLORS},
}


def _cell_field(value: Any, name: str) -> int:
    """A `[row, col]` pair on the board, as a flat cell; anything else is bad_message."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(type(v) is not int or not 0 <= v < SIZE for v in value)
    ):
        raise bad(f"{name} must be [row, col] with both in 0-6, got {value!r}")
    return cell_of(value[0], value[1])


def _open_field(value: Any) -> int:
    """Openings like `"ES"`: 2 or 3 distinct directions of a real tile."""
    try:
        mask = parse_open(value) if isinstance(value, str) else -1
    except ValueError:
        mask = -1
    if mask < 0 or bin(mask).count("1") not in (2, 3):
        raise bad(f"open must be the openings of a tile, like 'ES' or 'NEW', got {value!r}")
    return mask


# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rotate:
    """The Rotate spell: turn the face-up movable tile at `cell` to openings `opens`.
    Notation `rotate:c3=ES`."""

    cell: int
    opens: int
    TYPE: ClassVar[str] = "rotate"

    @classmethod
    def parse(cls, text: str) -> Rotate:
        match = match_notation(r"rotate:([a-g][1-7])=([NESW]{2,3})", text, "rotate")
        return cls(parse_cell(match[1]), parse_open(match[2]))

    def __str__(self) -> str:
        return f"rotate:{cell_name(self.cell)}={open_str(self.opens)}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Rotate:
        expect_fields(action, "rotate", ("at", "open"))
        return cls(_cell_field(action["at"], "at"), _open_field(action["open"]))

    def to_dict(self) -> JSON:
        return {"type": "rotate", "at": pos_of(self.cell), "open": open_str(self.opens)}


@dataclass(frozen=True, slots=True)
class Switch:
    """The Switch spell: swap the tiles of two adjacent cells. Notation `switch:c2-c3`."""

    a: int
    b: int
    TYPE: ClassVar[str] = "switch"

    @classmethod
    def parse(cls, text: str) -> Switch:
        match = match_notation(r"switch:([a-g][1-7])-([a-g][1-7])", text, "switch")
        return cls(parse_cell(match[1]), parse_cell(match[2]))

    def __str__(self) -> str:
        return f"switch:{cell_name(self.a)}-{cell_name(self.b)}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Switch:
        expect_fields(action, "switch", ("cells",))
        cells = action["cells"]
        if not isinstance(cells, list | tuple) or len(cells) != 2:
            raise bad(f"cells must be two [row, col] pairs, got {cells!r}")
        return cls(_cell_field(cells[0], "cells[0]"), _cell_field(cells[1], "cells[1]"))

    def to_dict(self) -> JSON:
        return {"type": "switch", "cells": [pos_of(self.a), pos_of(self.b)]}


@dataclass(frozen=True, slots=True)
class Move:
    """Walk to `cell`; with `spell` the player's modifier spell (traverse, teleport,
    escape) is spent on this move. Notation `c3`, `c3*` with the spell."""

    cell: int
    spell: bool = False
    TYPE: ClassVar[str] = "move"

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls(parse_cell(text.removesuffix("*")), text.endswith("*"))

    def __str__(self) -> str:
        return cell_name(self.cell) + ("*" if self.spell else "")

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Move:
        expect_fields(action, "move", ("to", "spell"))
        if type(action["spell"]) is not bool:
            raise bad(f"spell must be true or false, got {action['spell']!r}")
        return cls(_cell_field(action["to"], "to"), action["spell"])

    def to_dict(self) -> JSON:
        return {"type": "move", "to": pos_of(self.cell), "spell": self.spell}


@dataclass(frozen=True, slots=True)
class Orient:
    """Lay the tile just turned face up under one's pawn with openings `opens`.
    Notation `orient:NES`."""

    opens: int
    TYPE: ClassVar[str] = "orient"

    @classmethod
    def parse(cls, text: str) -> Orient:
        match = match_notation(r"orient:([NESW]{2,3})", text, "orient")
        return cls(parse_open(match[1]))

    def __str__(self) -> str:
        return f"orient:{open_str(self.opens)}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Orient:
        expect_fields(action, "orient", ("open",))
        return cls(_open_field(action["open"]))

    def to_dict(self) -> JSON:
        return {"type": "orient", "open": open_str(self.opens)}


@dataclass(frozen=True, slots=True)
class End:
    """End the turn (unused spells and moves are forfeited). Notation `end`."""

    TYPE: ClassVar[str] = "end"

    @classmethod
    def parse(cls, text: str) -> End:
        if text != "end":
            raise ValueError(f"bad end {text!r}")
        return cls()

    def __str__(self) -> str:
        return "end"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> End:
        expect_fields(action, "end", ())
        return cls()

    def to_dict(self) -> JSON:
        return {"type": "end"}


@dataclass(frozen=True, slots=True)
class TurnCard:
    """Turn the game's first Daedalus card, in front of everyone, as the first turn's
    first step (rules version 2; later cards are turned by the `end` before each turn).
    Notation `daedalus`."""

    TYPE: ClassVar[str] = "daedalus"

    @classmethod
    def parse(cls, text: str) -> TurnCard:
        if text != "daedalus":
            raise ValueError(f"bad daedalus {text!r}")
        return cls()

    def __str__(self) -> str:
        return "daedalus"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> TurnCard:
        expect_fields(action, "daedalus", ())
        return cls()

    def to_dict(self) -> JSON:
        return {"type": "daedalus"}


Action = Push | Rotate | Switch | Move | Orient | End | TurnCard
_ACTION_TYPES: dict[str, Any] = {
    "push": Push, "rotate": Rotate, "switch": Switch, "move": Move, "orient": Orient, "end": End,
    "daedalus": TurnCard,
}  # fmt: skip


def action_from_dict(action: Any) -> Action:
    """The typed action of a wire dict; anything malformed is `bad_message`."""
    return from_wire(action, _ACTION_TYPES)  # type: ignore[no-any-return]


def parse_action(text: str) -> Action:
    """The action of a notation string (`Nb+1`, `rotate:c3=ES`, `switch:c2-c3`, `c3*`,
    `orient:NES`, `end`)."""
    for prefix, kind in (("rotate:", Rotate), ("switch:", Switch), ("orient:", Orient)):
        if text.startswith(prefix):
            return kind.parse(text)  # type: ignore[no-any-return]
    if text == "end":
        return End()
    if text == "daedalus":
        return TurnCard()
    if text[:1] in ("N", "E", "S", "W"):
        return Push.parse(text)
    return Move.parse(text)


# --- state ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    name: str
    home: int
    pos: int
    spells: tuple[str, ...]
    board: list[str] = field(default_factory=list)  # treasure cards, left first; public

    def clone(self) -> Player:
        return Player(self.name, self.home, self.pos, self.spells, self.board.copy())


@dataclass(slots=True)
class Turn:
    """Whose turn and what is spent of it. `orient_at` is the cell whose tile the player
    just turned face up and must lay (phase `orient`)."""

    seat: int
    used: list[str] = field(default_factory=list)
    moves: int = 0
    collected: int = 0
    orient_at: int | None = None
    daedalus_push: Slot | None = None
    card_pending: bool = False  # the game's first Daedalus card is still to turn (v2)

    @property
    def moves_allowed(self) -> int:
        """One move, plus the bonus move once the turn's first treasure is collected."""
        return 1 + min(self.collected, 1)

    def clone(self) -> Turn:
        return Turn(
            self.seat,
            self.used.copy(),
            self.moves,
            self.collected,
            self.orient_at,
            self.daedalus_push,
            self.card_pending,
        )


@dataclass(slots=True)
class TeamState:
    options: JSON
    board: Board
    down: set[int]  # tile ids lying face down in the maze; their faces are secret
    players: list[Player]
    treasure_deck: list[str]  # secret order
    daedalus_deck: list[int]  # indexes into DAEDALUS_CARDS; secret order
    portal: list[str] = field(default_factory=list)  # collected treasures, in order
    card: int | None = None  # the Daedalus card turned this turn
    effect: JSON | None = None  # what it did (public)
    turn: Turn | None = None
    result: JSON | None = None
    seq: int = 0

    def clone(self) -> TeamState:
        return TeamState(
            options=self.options,
            board=self.board.clone(),
            down=self.down.copy(),
            players=[p.clone() for p in self.players],
            treasure_deck=self.treasure_deck.copy(),
            daedalus_deck=self.daedalus_deck.copy(),
            portal=self.portal.copy(),
            card=self.card,
            effect=self.effect,
            turn=None if self.turn is None else self.turn.clone(),
            result=copy_result(self.result),
            seq=self.seq,
        )

    def down_mask(self) -> int:
        """The cells holding face-down tiles (the spare is always face up)."""
        board = self.board
        return mask_of(board.tiles.index(t) for t in self.down)

    def pawns_on(self, cell: int) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if p.pos == cell]


def orientations(shape: str) -> list[int]:
    """The distinct openings of a shape, in rotation order (2 for I, 4 for L and T)."""
    masks: list[int] = []
    for k in range(4):
        mask = rotate(BASE_OPENING[shape], k)
        if mask not in masks:
            masks.append(mask)
    return masks


def destinations(board: Board, down: int, start: int, spell: str | None) -> int:
    """Where a move from `start` may end: the face-up cells its paths reach, and the
    face-down tiles (cells of `down`) one step beyond them (stepped onto through the
    reached cell's opening, whatever theirs). With a modifier spell, what it adds.

    A face-down tile's own openings are never read, so a board rebuilt from a player's
    view (face-down tiles as walls) gives the engine's answer: the replay analysis asks
    this of the positions a player could have made."""
    reach = board.flood_blocked(1 << start, down)
    extra = 0
    if spell == "traverse":
        beyond = board.openers_toward(board.stepping_mask(reach, down)) & ~down
        reach = board.flood_blocked(reach | beyond, down)
    elif spell == "teleport" and reach & HOMES_MASK:
        reach = board.flood_blocked(reach | HOMES_MASK, down)
    elif spell == "escape" and board.edge_exits(reach):
        entries = board.edge_exits(FULL & ~down)
        reach = board.flood_blocked(reach | entries, down)
        extra = EDGE_MASK & down
    return reach | board.stepping_mask(reach, down) | extra


# --- the engine -----------------------------------------------------------------------------


class TeamEngine:
    """The `Engine` for `team`. Stateless: everything lives in `TeamState`."""

    variant = VARIANT
    min_players = 2
    max_players = 4
    max_actions = 2_000  # Daedalus's end: random play ends a game in about 75 actions

    # -- setup ------------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> JSON:
        """`mode` and `spell_<colour>` (a standard spell or `random`); each spell tile
        exists once, so two seats may not choose the same one."""
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise InvalidOptions("options must be an object")
        raw, version = take_version(raw)
        unknown = sorted(set(raw) - set(OPTION_DEFAULTS))
        if unknown:
            raise InvalidOptions(f"unknown team option(s): {', '.join(map(str, unknown))}")
        options = {**OPTION_DEFAULTS, **raw}
        if options["mode"] not in MODES:
            raise InvalidOptions(f"option mode must be one of {', '.join(MODES)}")
        chosen = []
        for color in COLORS:
            spell = options[f"spell_{color}"]
            if spell != "random" and spell not in STANDARD_SPELLS:
                raise InvalidOptions(
                    f"option spell_{color} must be random or one of {', '.join(STANDARD_SPELLS)}"
                )
            if spell != "random":
                chosen.append(spell)
        if len(set(chosen)) != len(chosen):
            raise InvalidOptions("each spell tile exists once: two seats chose the same spell")
        return options | version

    def setup(self, players: Sequence[str], options: JSON, rng: random.Random) -> TeamState:
        """See the module docstring for the order of the random draws."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"team is for 2 to 4 players, got {len(players)}")
        options = self.parse_options(options)
        board = Board.deal(CATALOGUE, rng)
        treasures = list(TREASURES)
        rng.shuffle(treasures)
        daedalus = list(range(len(DAEDALUS_CARDS)))
        rng.shuffle(daedalus)
        spells = self._deal_spells(options, len(players), rng)
        homes = seat_homes(options)
        seats = [
            Player(str(name), homes[i], homes[i], ("push", spells[i]))
            for i, name in enumerate(players)
        ]
        for player in seats:
            player.board = [treasures.pop(0) for _ in range(BOARD_SIZE)]
        state = TeamState(options, board, set(), seats, treasures, daedalus)
        if rules_version(options) >= 2:
            state.turn = Turn(0, card_pending=True)  # the board face up, the book shut
        else:
            self._begin_turn(state, 0)  # version 1 turned it during setup, unseen
        return state

    @staticmethod
    def _deal_spells(options: JSON, count: int, rng: random.Random) -> list[str]:
        """Introductory: Rotate for all. Otherwise the chosen spells of the seats in play,
        the others dealt at random from the spell tiles left."""
        if options["mode"] == "introductory":
            return ["rotate"] * count
        colors = seat_colors(options)
        wanted = [options[f"spell_{colors[i]}"] for i in range(count)]
        pool = [s for s in STANDARD_SPELLS if s not in wanted]
        dealt = iter(rng.sample(pool, wanted.count("random")))
        return [next(dealt) if s == "random" else s for s in wanted]

    # -- reading ----------------------------------------------------------------------------

    def to_move(self, state: TeamState) -> int | None:
        return None if state.turn is None else state.turn.seat

    def result(self, state: TeamState) -> JSON | None:
        return copy_result(state.result)

    def notation(self, action: JSON) -> str:
        return str(action_from_dict(action))

    # -- paths ------------------------------------------------------------------------------

    @staticmethod
    def _destinations(state: TeamState, start: int, spell: str | None) -> int:
        """Where a move from `start` may end now (see `destinations`)."""
        return destinations(state.board, state.down_mask(), start, spell)

    @staticmethod
    def _move_spell(state: TeamState, turn: Turn) -> str | None:
        """The player's unused modifier spell, if any."""
        spell = state.players[turn.seat].spells[1]
        return spell if spell in MOVE_SPELLS and spell not in turn.used else None

    def _move_targets(self, state: TeamState, turn: Turn) -> tuple[int, int]:
        """(plain destinations, destinations only the modifier spell reaches)."""
        start = state.players[turn.seat].pos
        plain = self._destinations(state, start, None)
        spell = self._move_spell(state, turn)
        with_spell = self._destinations(state, start, spell) if spell else plain
        return plain, with_spell & ~plain

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, state: TeamState, seat: int | None) -> list[JSON]:
        """Exhaustive and exact: every accepted action is listed, and only those."""
        turn = state.turn
        if turn is None or seat != turn.seat:
            return []
        if turn.card_pending:
            return [TurnCard().to_dict()]
        if turn.orient_at is not None:
            shape = state.board.info(turn.orient_at).shape
            return [Orient(m).to_dict() for m in orientations(shape)]
        actions: list[JSON] = []
        if self._has(state, turn, "push"):
            actions += [
                Push(slot.side, slot.index, r).to_dict()
                for slot in SLOTS
                if self._push_refusal(state, turn, slot) is None
                for r in range(4)
            ]
        if self._has(state, turn, "rotate"):
            actions += [Rotate(c, m).to_dict() for c, m in self._rotations(state)]
        if self._has(state, turn, "switch"):
            actions += [Switch(a, b).to_dict() for a, b in self._switches()]
        if turn.moves < turn.moves_allowed:
            plain, spelled = self._move_targets(state, turn)
            actions += [Move(c).to_dict() for c in cells_of(plain)]
            actions += [Move(c, True).to_dict() for c in cells_of(spelled)]
        actions.append(End().to_dict())
        return actions

    @staticmethod
    def _has(state: TeamState, turn: Turn, spell: str) -> bool:
        """Whether the player holds `spell` and has not used it this turn."""
        return spell in state.players[turn.seat].spells and spell not in turn.used

    @staticmethod
    def _rotations(state: TeamState) -> list[tuple[int, int]]:
        board = state.board
        return [
            (cell, mask)
            for cell in range(CELL_COUNT)
            if not board.info(cell).fixed and board.tiles[cell] not in state.down
            for mask in orientations(board.info(cell).shape)
            if mask != board.opens[cell]
        ]

    @staticmethod
    def _switches() -> list[tuple[int, int]]:
        """Every ordered pair of orthogonally adjacent movable cells (both orders are
        accepted, so both are listed)."""
        fixed = set(FIXED_CELLS)
        pairs = []
        for a in range(CELL_COUNT):
            for b in (a + 1, a + SIZE):
                if b >= CELL_COUNT or (b == a + 1 and a % SIZE == SIZE - 1):
                    continue
                if a not in fixed and b not in fixed:
                    pairs += [(a, b), (b, a)]
        return sorted(pairs)

    # -- applying ---------------------------------------------------------------------------

    def apply(
        self, state: TeamState, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> list[JSON]:
        """Parse, check every rule, and only then change the state (in place). The rng is
        unused: every draw after setup comes from the decks shuffled then."""
        act = action_from_dict(action)
        turn = state.turn
        if turn is None:
            raise IllegalAction("finished", "finished: the game is over")
        if seat != turn.seat:
            raise IllegalAction("not_your_turn", f"not_your_turn: it is seat {turn.seat}'s turn")
        if turn.card_pending != isinstance(act, TurnCard):
            raise illegal(
                "daedalus-first: the first turn begins by turning the first Daedalus card"
                if turn.card_pending
                else "daedalus: only the game's first Daedalus card is turned by an action"
            )
        if turn.orient_at is not None and not isinstance(act, Orient):
            raise illegal("orient-first: lay the tile you turned face up (orient) first")
        handlers = {
            Push: (self._check_push, self._push),
            Rotate: (self._check_rotate, self._rotate),
            Switch: (self._check_switch, self._switch),
            Move: (self._check_move, self._move),
            Orient: (self._check_orient, self._orient),
            End: (lambda s, t, a: None, self._end),
            TurnCard: (lambda s, t, a: None, self._turn_first_card),
        }
        check, run = handlers[type(act)]  # type: ignore[index]
        check(state, turn, act)
        events = run(state, turn, act)
        if state.turn is turn and self._spent(state, turn):
            events += self._end(state, turn, End())
        state.seq += 1
        return events

    def _spent(self, state: TeamState, turn: Turn) -> bool:
        """Nothing left to do: no move left and every board spell held is used."""
        if turn.orient_at is not None or turn.moves < turn.moves_allowed:
            return False
        return not any(self._has(state, turn, s) for s in BOARD_SPELLS)

    # push spell

    def _push_refusal(self, state: TeamState, turn: Turn, slot: Slot) -> str | None:
        """Why the push spell may not use `slot` now, or None."""
        if turn.daedalus_push is not None and slot == turn.daedalus_push.opposite:
            return f"no-reverse: {slot} undoes Daedalus's push {turn.daedalus_push} this turn"
        ejected = slot.line[-1]
        if state.board.tiles[ejected] in state.down:
            where = cell_name(ejected)
            return f"face-down: the push spell may not push out the face-down tile at {where}"
        return None

    def _check_push(self, state: TeamState, turn: Turn, act: Push) -> None:
        if not self._has(state, turn, "push"):
            raise illegal("push-spell: your push spell is used this turn")
        refusal = self._push_refusal(state, turn, act.slot)
        if refusal is not None:
            raise illegal(refusal)

    def _push(self, state: TeamState, turn: Turn, act: Push) -> list[JSON]:
        """The spare goes in face up; pawns ride along, the ejected tile's onto the
        inserted one."""
        slot = act.slot
        pushed = state.board.push(slot, act.rotation)
        riders = state.pawns_on(pushed.ejected_cell)
        for player in state.players:
            player.pos = carried(slot, player.pos)
        turn.used.append("push")
        event: JSON = {
            "type": "pushed",
            "seat": turn.seat,
            "slot": str(slot),
            "side": slot.side,
            "index": slot.index,
            "rotation": act.rotation,
            "carried": riders,
            "spare": self._tile_view(state, state.board.spare, state.board.spare_open, False),
        }
        return [event]

    # rotate spell

    def _check_rotate(self, state: TeamState, turn: Turn, act: Rotate) -> None:
        """Checked in an order that never names a face-down tile's shape."""
        if not self._has(state, turn, "rotate"):
            raise illegal("rotate-spell: you hold no unused rotate spell")
        board, where = state.board, cell_name(act.cell)
        if board.info(act.cell).fixed:
            raise illegal(f"rotate-spell: {where} is a fixed tile")
        if board.tiles[act.cell] in state.down:
            raise illegal(f"rotate-spell: {where} is face down")
        if act.opens not in orientations(board.info(act.cell).shape):
            raise illegal(f"rotate-spell: {open_str(act.opens)} does not fit the tile at {where}")
        if act.opens == board.opens[act.cell]:
            raise illegal(f"rotate-spell: turn {where} to another orientation than it has")

    def _rotate(self, state: TeamState, turn: Turn, act: Rotate) -> list[JSON]:
        state.board.opens[act.cell] = act.opens
        state.board.refresh()
        turn.used.append("rotate")
        return [
            {
                "type": "rotated",
                "seat": turn.seat,
                "at": pos_of(act.cell),
                "open": open_str(act.opens),
            }
        ]

    # switch spell

    def _check_switch(self, state: TeamState, turn: Turn, act: Switch) -> None:
        if not self._has(state, turn, "switch"):
            raise illegal("switch-spell: you hold no unused switch spell")
        if (act.a, act.b) not in self._switches():
            pair = f"{cell_name(act.a)}-{cell_name(act.b)}"
            raise illegal(f"switch-spell: {pair} are not two adjacent movable tiles")

    def _switch(self, state: TeamState, turn: Turn, act: Switch) -> list[JSON]:
        """Tiles swap without turning, face-down ones too; pawns go with their tiles."""
        board, a, b = state.board, act.a, act.b
        board.tiles[a], board.tiles[b] = board.tiles[b], board.tiles[a]
        board.opens[a], board.opens[b] = board.opens[b], board.opens[a]
        board.refresh()
        for player in state.players:
            if player.pos in (a, b):
                player.pos = b if player.pos == a else a
        turn.used.append("switch")
        return [{"type": "switched", "seat": turn.seat, "cells": [pos_of(a), pos_of(b)]}]

    # move

    def _check_move(self, state: TeamState, turn: Turn, act: Move) -> None:
        if turn.moves >= turn.moves_allowed:
            extra = "" if turn.collected else " (a bonus move comes with the first treasure)"
            raise illegal(f"one-move: no move left this turn{extra}")
        plain, spelled = self._move_targets(state, turn)
        here, there = cell_name(state.players[turn.seat].pos), cell_name(act.cell)
        if act.spell:
            spell = self._move_spell(state, turn)
            if spell is None:
                raise illegal("move-spell: you hold no unused traverse, teleport or escape spell")
            if plain >> act.cell & 1:
                raise illegal(f"move-spell: {there} is reachable from {here} without {spell}")
            if not spelled >> act.cell & 1:
                raise illegal(f"unreachable: {there} is out of reach from {here} even with {spell}")
        elif not plain >> act.cell & 1:
            raise illegal(f"unreachable: {there} is not reachable from {here}")

    def _move(self, state: TeamState, turn: Turn, act: Move) -> list[JSON]:
        """Walk; onto a face-down tile, turn it face up (phase orient); else collect."""
        seat, player = turn.seat, state.players[turn.seat]
        spell = self._move_spell(state, turn) if act.spell else None
        if spell is not None:
            turn.used.append(spell)
        start, dest = player.pos, act.cell
        player.pos = dest
        turn.moves += 1
        events: list[JSON] = [
            {
                "type": "moved",
                "seat": seat,
                "from": pos_of(start),
                "to": pos_of(dest),
                "spell": spell,
            }
        ]
        tile = state.board.tiles[dest]
        if tile in state.down:
            state.down.discard(tile)
            turn.orient_at = dest
            revealed = self._tile_view(state, tile, state.board.opens[dest], False)
            events.append({"type": "turned_up", "seat": seat, "at": pos_of(dest), "tile": revealed})
            return events
        return events + self._collect(state, turn)

    # orient

    def _check_orient(self, state: TeamState, turn: Turn, act: Orient) -> None:
        if turn.orient_at is None:
            raise illegal("orient: no tile is waiting to be laid face up")
        shape = state.board.info(turn.orient_at).shape
        if act.opens not in orientations(shape):
            raise illegal(f"orient: {open_str(act.opens)} is not a way to lay this {shape} tile")

    def _orient(self, state: TeamState, turn: Turn, act: Orient) -> list[JSON]:
        cell = turn.orient_at
        assert cell is not None
        state.board.opens[cell] = act.opens
        state.board.refresh()
        turn.orient_at = None
        event = {
            "type": "oriented",
            "seat": turn.seat,
            "at": pos_of(cell),
            "open": open_str(act.opens),
        }
        return [event, *self._collect(state, turn)]

    # collecting

    def collectable(self, state: TeamState, seat: int) -> dict[str, int]:
        """Treasure -> the seat whose board shows it, for what `seat` may collect now:
        its own cards (expert: the left one); with the deck and its board empty, the
        others' (expert: their left ones)."""
        expert = state.options["mode"] == "expert"
        own = state.players[seat].board
        if own:
            return {t: seat for t in (own[:1] if expert else own)}
        if state.treasure_deck:
            return {}
        return {
            t: s
            for s, p in enumerate(state.players)
            if s != seat
            for t in (p.board[:1] if expert else p.board)
        }

    def _collect(self, state: TeamState, turn: Turn) -> list[JSON]:
        """A stop on a face-up tile showing a collectable treasure collects it; the
        turn's first gives the bonus move; all 24 win at once."""
        cell = state.players[turn.seat].pos
        treasure = state.board.treasure_at(cell)
        owner = self.collectable(state, turn.seat).get(treasure or "")
        if treasure is None or owner is None or turn.collected >= 2:
            return []
        state.players[owner].board.remove(treasure)
        state.portal.append(treasure)
        turn.collected += 1
        events: list[JSON] = [
            {
                "type": "collected",
                "seat": turn.seat,
                "treasure": treasure,
                "from": owner,
                "bonus": turn.collected == 1,
                "portal": len(state.portal),
            }
        ]
        if len(state.portal) == len(TREASURES):
            state.result = {"winners": list(range(len(state.players))), "reason": "all_collected"}
            state.turn = None
            events.append({"type": "won", "reason": "all_collected"})
        return events

    # end of turn and Daedalus

    def _end(self, state: TeamState, turn: Turn, act: End) -> list[JSON]:
        """Refill the board to 2 while the deck lasts; the next seat's turn begins."""
        player = state.players[turn.seat]
        wanted = max(0, BOARD_SIZE - len(player.board))
        drawn = state.treasure_deck[:wanted]
        del state.treasure_deck[:wanted]
        player.board += drawn
        events: list[JSON] = [{"type": "ended", "seat": turn.seat, "drew": drawn}]
        return events + self._begin_turn(state, (turn.seat + 1) % len(state.players))

    def _turn_first_card(self, state: TeamState, turn: Turn, act: TurnCard) -> list[JSON]:
        """The first turn's Daedalus card, turned with everyone looking (version 2)."""
        turn.card_pending = False
        return self._turn_card(state)

    def _begin_turn(self, state: TeamState, seat: int) -> list[JSON]:
        """Turn the next Daedalus card and carry it out; an empty book loses the game."""
        if not state.daedalus_deck:
            state.turn, state.card, state.effect = None, None, None
            state.result = {"winners": [], "reason": "daedalus"}
            return [{"type": "lost", "reason": "daedalus"}]
        state.turn = Turn(seat)
        return [{"type": "turn", "seat": seat}, *self._turn_card(state)]

    def _turn_card(self, state: TeamState) -> list[JSON]:
        """Turn the book's next card (there is one) and carry it out for `state.turn`."""
        state.card = state.daedalus_deck.pop(0)
        card = DAEDALUS_CARDS[state.card]
        if card["kind"] == "push":
            effect = self._daedalus_push(state, Slot.parse(card["slot"]))
        elif card["kind"] == "flip":
            effect = self._daedalus_flip(state, card["tiles"])
        else:
            effect = self._daedalus_teleport(state, card["pawns"], card["to"])
        state.effect = effect
        return [
            {
                "type": "daedalus",
                "card": dict(card),
                "left": len(state.daedalus_deck),
                "effect": effect,
            }
        ]

    def _send_home(self, state: TeamState, seats: list[int]) -> None:
        for seat in seats:
            state.players[seat].pos = state.players[seat].home

    def _daedalus_push(self, state: TeamState, slot: Slot) -> JSON:
        """The spare goes in face down; the ejected tile comes out face up as the new
        spare; a pawn on it goes home, the others ride along the line."""
        assert state.turn is not None
        board = state.board
        inserted = board.spare
        ejected_cell = slot.line[-1]
        home = state.pawns_on(ejected_cell)
        board.push(slot, 0)
        state.down.add(inserted)
        state.down.discard(board.spare)
        for seat, player in enumerate(state.players):
            if seat not in home:
                player.pos = carried(slot, player.pos)
        self._send_home(state, home)
        state.turn.daedalus_push = slot
        return {
            "kind": "push",
            "slot": str(slot),
            "side": slot.side,
            "index": slot.index,
            "sent_home": home,
            "spare": self._tile_view(state, board.spare, board.spare_open, False),
        }

    def _daedalus_flip(self, state: TeamState, names: list[str]) -> JSON:
        """Named tiles face up in the maze turn face down in place; pawns on them go home."""
        flipped, home = [], []
        for name in names:
            tile = TILE_NAMED[name]
            cell = state.board.cell_of_tile(tile)
            if cell is None or tile in state.down:
                continue
            state.down.add(tile)
            flipped.append(pos_of(cell))
            home += state.pawns_on(cell)
        self._send_home(state, home)
        return {"kind": "flip", "cells": flipped, "sent_home": home}

    def _daedalus_teleport(self, state: TeamState, colors: list[str], to: str) -> JSON:
        """Both pawns in play go to the named colour's home corner."""
        order = seat_colors(state.options)
        seats = [order.index(c) for c in colors if order.index(c) < len(state.players)]
        corner = HOMES[COLORS.index(to)]  # a colour's corner is the same in every version
        for seat in seats:
            state.players[seat].pos = corner
        return {"kind": "teleport", "seats": seats, "to": pos_of(corner)}

    # -- what viewers see -------------------------------------------------------------------

    def view(self, state: TeamState, viewer: int | None) -> JSON:
        """Everything but face-down faces and deck orders; a finished game shows all."""
        return self._view(state, viewer, reveal=state.result is not None)

    def reveal(self, state: TeamState) -> JSON:
        """Every face-down tile's face and both decks in order, at any step (replays)."""
        return self._view(state, None, reveal=True)

    def _view(self, state: TeamState, viewer: int | None, reveal: bool) -> JSON:
        board, turn = state.board, state.turn
        tiles = [
            [
                self._tile_view(state, board.tiles[r * SIZE + c], board.opens[r * SIZE + c], reveal)
                for c in range(SIZE)
            ]
            for r in range(SIZE)
        ]
        forbidden = None
        if turn is not None and turn.daedalus_push is not None:
            forbidden = turn.daedalus_push.opposite.to_dict()
        view: JSON = {
            "variant": VARIANT,
            "seq": state.seq,
            "status": "playing" if state.result is None else "finished",
            "options": dict(state.options),
            "you": viewer,
            "turn": None if turn is None else self._turn_view(state, turn),
            "board": {
                "tiles": tiles,
                "spare": self._tile_view(state, board.spare, board.spare_open, reveal),
                "forbidden": forbidden,
            },
            "players": [
                {
                    "seat": seat,
                    "name": p.name,
                    "color": seat_colors(state.options)[seat],
                    "pos": pos_of(p.pos),
                    "home": pos_of(p.home),
                    "board": p.board.copy(),
                    # the contract's name for the same public cards (`board` came first
                    # and stays for the clients that read it)
                    "cards": p.board.copy(),
                    # what a stop may collect for this player now (`collectable`): in
                    # expert only the left card, which the board alone does not say
                    "collectable": list(self.collectable(state, seat)),
                    "spells": list(p.spells),
                }
                for seat, p in enumerate(state.players)
            ],
            "treasure_deck": len(state.treasure_deck),
            "portal": len(state.portal),
            "collected": state.portal.copy(),
            "daedalus": {
                "left": len(state.daedalus_deck),
                "card": None if state.card is None else dict(DAEDALUS_CARDS[state.card]),
                "effect": state.effect,
            },
            "result": self.result(state),
        }
        if reveal:
            view["treasure_deck_order"] = state.treasure_deck.copy()
            view["daedalus_deck_order"] = [dict(DAEDALUS_CARDS[i]) for i in state.daedalus_deck]
        return view

    def _turn_view(self, state: TeamState, turn: Turn) -> JSON:
        return {
            "seat": turn.seat,
            "phase": "daedalus"
            if turn.card_pending
            else "play"
            if turn.orient_at is None
            else "orient",
            "orient_at": None if turn.orient_at is None else pos_of(turn.orient_at),
            "moves": turn.moves,
            "moves_allowed": turn.moves_allowed,
            "collected": turn.collected,
            "used": turn.used.copy(),
            "daedalus_push": None if turn.daedalus_push is None else str(turn.daedalus_push),
        }

    @staticmethod
    def _tile_view(state: TeamState, tile_id: int, opens: int, reveal: bool) -> JSON:
        """A face-down tile is exactly its back unless `reveal`."""
        info = CATALOGUE[tile_id]
        down = tile_id in state.down
        if down and not reveal:
            return {"face_down": True, "fixed": False}
        return {
            "open": open_str(opens),
            "treasure": info.treasure,
            "symbol": SYMBOL_OF.get(tile_id),
            "fixed": info.fixed,
            "face_down": down,
        }

    def redact_action(self, state: TeamState, seat: int, action: JSON, viewer: int | None) -> JSON:
        """Every action is public (cooperative, and actions carry no secret)."""
        return dict(action)

    def redact_events(self, state: TeamState, events: list[JSON], viewer: int | None) -> list[JSON]:
        """Events are built from public facts only (a face appears in `turned_up` and
        `spare` once it is face up), so nothing is filtered."""
        return [dict(e) for e in events]


ENGINE = TeamEngine()
