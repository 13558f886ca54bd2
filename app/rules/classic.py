"""Labyrinth, the classic game (variant id `classic`), per `shared/rules/classic.md`.

Includes the event variant (option `events`) and the younger-children variant (option
`return_home: false`); they combine. The wire format of actions, views and events is
`docs/protocol.md`, section "Classic".

Decisions taken where the rulebook is silent (each is also noted where it applies):
- Tiles: the 6 T tiles carry bat, dragon, genie, ghost, troll, sorceress; 6 of the 15 L
  tiles carry lizard, moth, owl, scarab, rat, spider; the 13 I and the other 9 L are plain.
- Setup draws, in this order: the tiles (shuffle, orientations, row-major lay, last is the
  spare), then the 24 cards (shuffled, dealt in equal consecutive piles; top = target),
  then, with events, which tiles carry them. Seat 0 starts; seats take the home corners
  clockwise (a1, g1, g7, a7).
- Every event is a proposal the player may ignore (the rulebook says so): the bonus turn
  of `double_turn` begins on its own and may be declined (`decline`, listed before its
  push); `exchange` shows the pile only once the player opens it (`open_pile`), and then
  a card must be put on top and the rest is reshuffled.
- Rules version 1 (option `rules_version` absent; every game made before version 2, kept
  so their records re-play): seats zig-zag (a1, g1, a7, g7), the bonus turn is forced, the
  exchange shows the pile at once and moving on keeps its order.
- A card is found after any move, staying included, when the pawn's cell shows the top
  card's treasure, however the pawn got there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.rules.actions import (
    Move,
    Push,
    bad,
    expect_fields,
    from_wire,
    illegal,
    int_field,
    match_notation,
)
from app.rules.base import (
    JSON,
    IllegalAction,
    InvalidOptions,
    copy_result,
    rules_version,
    take_version,
)
from app.rules.board import (
    FIXED_CELLS,
    SLOTS,
    Board,
    PushResult,
    Slot,
    TileInfo,
    carried,
    cell_name,
    cell_of,
    cells_of,
    make_catalogue,
    open_str,
    pos_of,
)

VARIANT = "classic"
COLORS = ("red", "yellow", "blue", "green")
HOMES = (cell_of(0, 0), cell_of(0, 6), cell_of(6, 6), cell_of(6, 0))
"""Seat i's colour and home corner: clockwise round the board (a1, g1, g7, a7), so play
goes round the board as it goes round the table."""
COLORS_V1 = ("red", "yellow", "green", "blue")
HOMES_V1 = (cell_of(0, 0), cell_of(0, 6), cell_of(6, 0), cell_of(6, 6))
"""Rules version 1's zig-zag (a1, g1, a7, g7), kept so that its records re-play."""


def seat_colors(options: Mapping[str, Any]) -> tuple[str, ...]:
    return COLORS if rules_version(options) >= 2 else COLORS_V1


def seat_homes(options: Mapping[str, Any]) -> tuple[int, ...]:
    return HOMES if rules_version(options) >= 2 else HOMES_V1


FIXED_TREASURES: dict[int, str] = {
    cell_of(0, 2): "book", cell_of(0, 4): "gold",
    cell_of(2, 0): "map", cell_of(2, 2): "crown", cell_of(2, 4): "keys", cell_of(2, 6): "skull",
    cell_of(4, 0): "ring", cell_of(4, 2): "chest", cell_of(4, 4): "emerald",
    cell_of(4, 6): "sword",
    cell_of(6, 2): "candlestick", cell_of(6, 4): "helmet",
}  # fmt: skip
T_CREATURES = ("bat", "dragon", "genie", "ghost", "troll", "sorceress")
L_CREATURES = ("lizard", "moth", "owl", "scarab", "rat", "spider")
TREASURES: tuple[str, ...] = tuple(FIXED_TREASURES.values()) + T_CREATURES + L_CREATURES

EVENTS = ("extra_push", "double_turn", "swap", "peek", "exchange", "wall")

_MOVABLE = (
    [TileInfo("I")] * 13
    + [TileInfo("L", treasure=t) for t in L_CREATURES]
    + [TileInfo("L")] * 9
    + [TileInfo("T", treasure=t) for t in T_CREATURES]
)
CATALOGUE = make_catalogue(FIXED_TREASURES, _MOVABLE)
_FIRST_MOVABLE = len(FIXED_CELLS)
PLAIN_I = tuple(range(_FIRST_MOVABLE, _FIRST_MOVABLE + 13))
PLAIN_L = tuple(range(_FIRST_MOVABLE + 13 + 6, _FIRST_MOVABLE + 13 + 15))

OPTION_DEFAULTS: dict[str, bool] = {"events": False, "return_home": True}

# Events only their own seat may see, and fields of events hidden from the others; applied
# by `redact_events` alone, until the game is finished.
_PRIVATE_EVENTS = frozenset({"target"})
_PRIVATE_FIELDS = {"picked": ("treasure",)}


# --- actions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Swap:
    """Trade places with another pawn (the `swap` event). Notation `swap:2`."""

    with_seat: int
    TYPE: ClassVar[str] = "swap"

    @classmethod
    def parse(cls, text: str) -> Swap:
        match = match_notation(r"swap:([0-3])", text, "swap")
        return cls(int(match[1]))

    def __str__(self) -> str:
        return f"swap:{self.with_seat}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Swap:
        expect_fields(action, "swap", ("with",))
        return cls(int_field(action["with"], "with", range(4)))

    def to_dict(self) -> JSON:
        return {"type": "swap", "with": self.with_seat}


@dataclass(frozen=True, slots=True)
class Pick:
    """Put a card of one's pile on top (the `peek` or `exchange` event). Notation
    `pick:crown`; `treasure` is None only in the redacted form `pick` others see."""

    treasure: str | None
    TYPE: ClassVar[str] = "pick"

    @classmethod
    def parse(cls, text: str) -> Pick:
        if text == "pick":
            return cls(None)
        name = text.removeprefix("pick:")
        if name == text or name not in TREASURES:
            raise ValueError(f"bad pick {text!r}")
        return cls(name)

    def __str__(self) -> str:
        return "pick" if self.treasure is None else f"pick:{self.treasure}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Pick:
        expect_fields(action, "pick", ("treasure",))
        treasure = action["treasure"]
        if not isinstance(treasure, str) or treasure not in TREASURES:
            raise bad(f"treasure must be one of the 24 treasures, got {treasure!r}")
        return cls(treasure)

    def to_dict(self) -> JSON:
        return (
            {"type": "pick"}
            if self.treasure is None
            else {"type": "pick", "treasure": self.treasure}
        )


@dataclass(frozen=True, slots=True)
class OpenPile:
    """Look through one's own pile to use the `exchange` event (rules version 2): from
    then on a card must be picked, and the rest of the pile is reshuffled. Notation
    `open`."""

    TYPE: ClassVar[str] = "open_pile"

    @classmethod
    def parse(cls, text: str) -> OpenPile:
        if text != "open":
            raise ValueError(f"bad open {text!r}")
        return cls()

    def __str__(self) -> str:
        return "open"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> OpenPile:
        expect_fields(action, "open_pile", ())
        return cls()

    def to_dict(self) -> JSON:
        return {"type": "open_pile"}


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline the bonus turn a `double_turn` event offers (rules version 2): the next
    seat plays. Notation `decline`."""

    TYPE: ClassVar[str] = "decline"

    @classmethod
    def parse(cls, text: str) -> Decline:
        if text != "decline":
            raise ValueError(f"bad decline {text!r}")
        return cls()

    def __str__(self) -> str:
        return "decline"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Decline:
        expect_fields(action, "decline", ())
        return cls()

    def to_dict(self) -> JSON:
        return {"type": "decline"}


Action = Push | Move | Swap | Pick | OpenPile | Decline
_ACTION_TYPES: dict[str, Any] = {
    "push": Push, "move": Move, "swap": Swap, "pick": Pick, "open_pile": OpenPile,
    "decline": Decline,
}  # fmt: skip


def action_from_dict(action: Any) -> Action:
    """The typed action of a wire dict; anything malformed is `bad_message`."""
    return from_wire(action, _ACTION_TYPES)  # type: ignore[no-any-return]


def parse_action(text: str) -> Action:
    """The action of a notation string (`Nb+1`, `c3`, `swap:2`, `pick:crown`, `pick`,
    `open`, `decline`)."""
    if text == "open":
        return OpenPile()
    if text == "decline":
        return Decline()
    if text.startswith("swap"):
        return Swap.parse(text)
    if text.startswith("pick"):
        return Pick.parse(text)
    if text[:1] in ("N", "E", "S", "W"):
        return Push.parse(text)
    return Move.parse(text)


# --- state --------------------------------------------------------------------------------

# A drawn grid: its key (finished, tiles, openings, revealed events), the events it read,
# and the rows of cells.
GridMemo = tuple[tuple[Any, ...], dict[int, str], list[list[JSON]]]


@dataclass(slots=True)
class Player:
    name: str
    home: int
    pos: int
    pile: list[str]
    found: list[str] = field(default_factory=list)

    @property
    def target(self) -> str | None:
        return self.pile[0] if self.pile else None

    def clone(self) -> Player:
        return Player(self.name, self.home, self.pos, self.pile.copy(), self.found.copy())


@dataclass(slots=True)
class Turn:
    """Whose turn, where in it, and the event it revealed (`used` once spent)."""

    seat: int
    phase: str = "push"
    event: str | None = None
    used: bool = False
    bonus: bool = False
    opened: bool = False  # the pile is open for an `exchange` (version 2): pick next

    def offers(self, event: str) -> bool:
        return self.event == event and not self.used


@dataclass(slots=True)
class ClassicState:
    options: JSON
    board: Board
    players: list[Player]
    tile_events: dict[int, str]  # tile id -> event on its back; secret; never mutated
    revealed: set[int] = field(default_factory=set)
    turn: Turn | None = field(default_factory=lambda: Turn(0))
    forbidden: Slot | None = None
    last_push: Slot | None = None
    result: JSON | None = None
    seq: int = 0
    # The board grid last drawn for the views, with what it was drawn from
    # (`ClassicEngine._grid`); a copy keeps it, since a move leaves the board as it was.
    grid_memo: GridMemo | None = field(default=None, compare=False, repr=False)

    def clone(self) -> ClassicState:
        turn = self.turn
        return ClassicState(
            options=self.options,
            board=self.board.clone(),
            players=[p.clone() for p in self.players],
            tile_events=self.tile_events,
            revealed=self.revealed.copy(),
            turn=None
            if turn is None
            else Turn(turn.seat, turn.phase, turn.event, turn.used, turn.bonus, turn.opened),
            forbidden=self.forbidden,
            last_push=self.last_push,
            result=copy_result(self.result),
            seq=self.seq,
            grid_memo=self.grid_memo,
        )


# Every push as the log writes it, slot by slot: the legal pushes of a turn are these less
# the forbidden slot's, copied (a caller may keep or change what it is given). Listing them
# is the larger part of `legal_actions`, asked for on every turn of every room.
PUSHES: tuple[tuple[Slot, JSON], ...] = tuple(
    (slot, Push(slot.side, slot.index, rotation).to_dict())
    for slot in SLOTS
    for rotation in range(4)
)


# The same, less each slot that can be forbidden (or none): a lookup, not 48 comparisons.
_PUSHES_WITHOUT: dict[Slot | None, tuple[JSON, ...]] = {
    forbidden: tuple(push for slot, push in PUSHES if slot != forbidden)
    for forbidden in (None, *SLOTS)
}


def _pushes(forbidden: Slot | None) -> list[JSON]:
    return [push.copy() for push in _PUSHES_WITHOUT[forbidden]]


# Each tile's face as a view shows it, for each of the 16 ways it can be turned: a view
# copies 50 of these on every state sent, rather than building them.
_TILE_FACES: tuple[tuple[JSON, ...], ...] = tuple(
    tuple({"open": open_str(m), "treasure": info.treasure, "fixed": info.fixed} for m in range(16))
    for info in CATALOGUE
)


# --- the engine ---------------------------------------------------------------------------


class ClassicEngine:
    """The `Engine` for `classic`. Everything lives in `ClassicState`, the engine holds
    nothing."""

    variant = VARIANT
    min_players = 2
    max_players = 4
    max_actions = 20_000  # random play ends classic games in 1-5 thousand actions

    # -- setup ------------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> JSON:
        """Exactly `events` and `return_home`, both booleans; missing ones take defaults."""
        if raw is None:
            raw = {}
        if not isinstance(raw, Mapping):
            raise InvalidOptions("options must be an object")
        raw, version = take_version(raw)
        unknown = sorted(set(raw) - set(OPTION_DEFAULTS))
        if unknown:
            raise InvalidOptions(f"unknown classic option(s): {', '.join(map(str, unknown))}")
        options = dict(OPTION_DEFAULTS)
        for key, value in raw.items():
            if type(value) is not bool:
                raise InvalidOptions(f"option {key} must be true or false, got {value!r}")
            options[key] = value
        return options | version

    def setup(self, players: Sequence[str], options: JSON, rng: random.Random) -> ClassicState:
        """Tiles, then cards, then (with events) the event tiles: see the module docstring."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"classic is for 2 to 4 players, got {len(players)}")
        options = self.parse_options(options)
        board = Board.deal(CATALOGUE, rng)
        cards = list(TREASURES)
        rng.shuffle(cards)
        each = len(cards) // len(players)
        homes = seat_homes(options)
        seats = [
            Player(str(name), homes[i], homes[i], cards[i * each : (i + 1) * each])
            for i, name in enumerate(players)
        ]
        return ClassicState(
            options, board, seats, self._hide_events(rng) if options["events"] else {}
        )

    @staticmethod
    def _hide_events(rng: random.Random) -> dict[int, str]:
        """Each event on exactly one plain I and one plain L tile, chosen by the rng."""
        i_tiles = rng.sample(PLAIN_I, len(EVENTS))
        l_tiles = rng.sample(PLAIN_L, len(EVENTS))
        return {tile: EVENTS[k % len(EVENTS)] for k, tile in enumerate(i_tiles + l_tiles)}

    # -- reading ----------------------------------------------------------------------------

    def to_move(self, state: ClassicState) -> int | None:
        return None if state.turn is None else state.turn.seat

    def result(self, state: ClassicState) -> JSON | None:
        return copy_result(state.result)

    def notation(self, action: JSON) -> str:
        """Notation of a wire action, the redacted `{"type": "pick"}` included."""
        if (
            isinstance(action, Mapping)
            and action.get("type") == "pick"
            and "treasure" not in action
        ):
            return "pick"
        return str(action_from_dict(action))

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self, state: ClassicState, seat: int | None) -> list[JSON]:
        """Exhaustive and exact: all four rotations of every open slot (even when shapes
        coincide), every reachable cell including staying, and the turn's event options."""
        turn = state.turn
        if turn is None or seat != turn.seat:
            return []
        v2 = rules_version(state.options) >= 2
        if turn.phase == "push":
            pushes = _pushes(state.forbidden)
            return [*pushes, Decline().to_dict()] if turn.bonus and v2 else pushes
        player = state.players[seat]
        if turn.opened:  # the pile was looked through: a card goes on top, nothing else
            return [Pick(t).to_dict() for t in self._pickable(state, turn, player)]
        actions = [Move.at(c).to_dict() for c in cells_of(self._reach(state, player))]
        if turn.offers("extra_push"):
            actions += _pushes(state.forbidden)
        if turn.offers("swap"):
            actions += [Swap(s).to_dict() for s in range(len(state.players)) if s != seat]
        if v2 and turn.offers("exchange") and player.pile:
            actions.append(OpenPile().to_dict())
        actions += [Pick(t).to_dict() for t in self._pickable(state, turn, player)]
        return actions

    @staticmethod
    def _reach(state: ClassicState, player: Player) -> int:
        """Where the player may move now: the walkable cells, or with an unused `wall`
        event those reachable crossing at most one wall."""
        if state.turn is not None and state.turn.offers("wall"):
            return state.board.reach_mask_with_wall(player.pos)
        return state.board.reach_mask(player.pos)

    @staticmethod
    def _pickable(state: ClassicState, turn: Turn, player: Player) -> list[str]:
        """Cards a `pick` may put on top: the top two with `peek`, any with `exchange`
        (version 2: once the pile is open). Neither is usable with an empty pile."""
        if turn.offers("peek"):
            return player.pile[:2]
        if turn.offers("exchange") and (turn.opened or rules_version(state.options) < 2):
            return player.pile.copy()
        return []

    # -- applying ---------------------------------------------------------------------------

    def apply(
        self, state: ClassicState, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> list[JSON]:
        """Parse, check every rule, and only then change the state (in place)."""
        act = action_from_dict(action)
        turn = state.turn
        if turn is None:
            raise IllegalAction("finished", "finished: the game is over")
        if seat != turn.seat:
            raise IllegalAction("not_your_turn", f"not_your_turn: it is seat {turn.seat}'s turn")
        if isinstance(act, Push):
            self._check_push(state, turn, act)
            events = self._push(state, turn, act)
        elif isinstance(act, Move):
            self._check_move(state, turn, act)
            events = self._move(state, turn, act)
        elif isinstance(act, Swap):
            self._check_swap(state, turn, act)
            events = self._swap(state, turn, act)
        elif isinstance(act, OpenPile):
            self._check_open(state, turn)
            events = self._open(turn)
        elif isinstance(act, Decline):
            self._check_decline(state, turn)
            events = self._decline(state, turn)
        else:
            self._check_pick(state, turn, act)
            events = self._pick(state, turn, act, rng)
        state.seq += 1
        return events

    # push

    def _check_push(self, state: ClassicState, turn: Turn, act: Push) -> None:
        """One push a turn, plus one more while an `extra_push` event is unused (moving
        first forfeits it). No-reverse is always relative to the latest push, so for the
        extra push it is the push just made."""
        self._check_not_open(turn)
        if turn.phase == "move" and not turn.offers("extra_push"):
            raise illegal(
                "one-push: this turn's push is made; only an extra_push event allows another"
            )
        if act.slot == state.forbidden:
            raise illegal(f"no-reverse: {act.slot} undoes {state.last_push}")

    def _push(self, state: ClassicState, turn: Turn, act: Push) -> list[JSON]:
        """A push carries pawns along its line; the turn's first push may reveal an event.
        No trigger on an extra_push's push nor in a double_turn's bonus turn (and at most
        one event a turn), and a push that cannot trigger does not reveal either."""
        can_trigger = turn.phase == "push" and not turn.bonus
        if turn.phase == "move":
            turn.used = True
        slot = act.slot
        pushed = state.board.push(slot, act.rotation)
        on_ejected = [i for i, p in enumerate(state.players) if p.pos == pushed.ejected_cell]
        for player in state.players:
            player.pos = carried(slot, player.pos)
        state.forbidden, state.last_push = slot.opposite, slot
        turn.phase = "move"
        event = state.tile_events.get(pushed.ejected_tile) if can_trigger else None
        if event is not None:
            state.revealed.add(pushed.ejected_tile)
            turn.event, turn.used = event, False
        events = [self._pushed_event(state, act, pushed)]
        if on_ejected:
            events.append(
                {"type": "carried", "seats": on_ejected, "to": pos_of(pushed.inserted_cell)}
            )
        if event is not None:
            events.append({"type": "event", "name": event})
        return events

    def _pushed_event(self, state: ClassicState, act: Push, pushed: PushResult) -> JSON:
        board = state.board
        return {
            "type": "pushed",
            "slot": str(act.slot),
            "side": act.side,
            "index": act.index,
            "rotation": act.rotation,
            "ejected_to_spare": self._tile_view(state, board.spare, board.spare_open, False),
        }

    # move

    def _check_move(self, state: ClassicState, turn: Turn, act: Move) -> None:
        if turn.phase == "push":
            raise illegal("push-first: the push is mandatory before moving")
        self._check_not_open(turn)
        player = state.players[turn.seat]
        if not self._reach(state, player) >> act.cell & 1:
            crossing = " even across one wall" if turn.offers("wall") else ""
            there, here = cell_name(act.cell), cell_name(player.pos)
            raise illegal(f"unreachable: {there} is not connected to {here}{crossing}")

    def _move(self, state: ClassicState, turn: Turn, act: Move) -> list[JSON]:
        """Walk, then look for the target on arrival (staying counts), then end the turn.
        The `wall` event is spent by the move; `wall: true` only if it was needed."""
        seat, player = turn.seat, state.players[turn.seat]
        start, dest = player.pos, act.cell
        crossed = not state.board.reach_mask(start) >> dest & 1
        if turn.offers("wall"):
            turn.used = True
        player.pos = dest
        events = [
            {
                "type": "moved",
                "seat": seat,
                "from": pos_of(start),
                "to": pos_of(dest),
                "wall": crossed,
            }
        ]
        events += self._find(state, seat, player)
        events += self._end_turn(state, turn)
        return events

    def _find(self, state: ClassicState, seat: int, player: Player) -> list[JSON]:
        """At most one card a turn, as there is one move a turn. Then the win checks: the
        last card at once without `return_home`, else ending a move on one's home corner
        with the pile empty (home corners show no treasure, so never the same move)."""
        events: list[JSON] = []
        treasure = player.target
        if treasure is not None and state.board.treasure_at(player.pos) == treasure:
            player.pile.pop(0)
            player.found.append(treasure)
            events.append({"type": "found", "seat": seat, "treasure": treasure})
            events.append({"type": "target", "seat": seat, "treasure": player.target})
            if not player.pile and not state.options["return_home"]:
                return [*events, self._win(state, seat, "all_found")]
        elif treasure is None and state.options["return_home"] and player.pos == player.home:
            events.append(self._win(state, seat, "home"))
        return events

    @staticmethod
    def _win(state: ClassicState, seat: int, reason: str) -> JSON:
        state.result = {"winners": [seat], "reason": reason}
        return {"type": "won", "seat": seat, "reason": reason}

    @staticmethod
    def _end_turn(state: ClassicState, turn: Turn) -> list[JSON]:
        """Next seat, or the same seat again once after a `double_turn`, unless the game
        ended. The bonus turn begins on its own: version 1 forces it, version 2 lets it be
        declined before its push (`decline`), as classic.md makes every event optional."""
        if state.result is not None:
            state.turn = None
            return []
        if turn.event == "double_turn" and not turn.bonus:
            state.turn = Turn(turn.seat, bonus=True)
        else:
            state.turn = Turn((turn.seat + 1) % len(state.players))
        return [{"type": "turn", "seat": state.turn.seat, "bonus": state.turn.bonus}]

    # swap

    @staticmethod
    def _check_not_open(turn: Turn) -> None:
        if turn.opened:
            raise illegal("exchange: your pile is open; put one of its cards on top (pick)")

    def _check_swap(self, state: ClassicState, turn: Turn, act: Swap) -> None:
        if act.with_seat >= len(state.players):
            raise bad(f"with must be a seat 0-{len(state.players) - 1}, got {act.with_seat}")
        if turn.phase == "push":
            raise illegal("push-first: the push is mandatory before swapping")
        if not turn.offers("swap"):
            raise illegal("swap: only an unused swap event allows swapping places")
        if act.with_seat == turn.seat:
            raise illegal("swap: swap places with another pawn, not your own")

    def _swap(self, state: ClassicState, turn: Turn, act: Swap) -> list[JSON]:
        """Once, before moving; the move then starts from the new cell. No card is found
        by swapping: finding happens only after a move."""
        mine, theirs = state.players[turn.seat], state.players[act.with_seat]
        mine.pos, theirs.pos = theirs.pos, mine.pos
        turn.used = True
        return [{"type": "swapped", "seat": turn.seat, "with": act.with_seat}]

    # pick

    def _check_pick(self, state: ClassicState, turn: Turn, act: Pick) -> None:
        if turn.phase == "push":
            raise illegal("push-first: the push is mandatory before picking")
        if not (turn.offers("peek") or turn.offers("exchange")):
            raise illegal("pick: only an unused peek or exchange event allows picking a card")
        if turn.offers("exchange") and not turn.opened and rules_version(state.options) >= 2:
            raise illegal("exchange: open your pile (open_pile) before choosing a card")
        allowed = self._pickable(state, turn, state.players[turn.seat])
        if act.treasure not in allowed:
            which = "of the top two cards" if turn.event == "peek" else "in your pile"
            raise illegal(f"{turn.event}: {act.treasure} is not {which}")

    def _pick(self, state: ClassicState, turn: Turn, act: Pick, rng: random.Random) -> list[JSON]:
        """`peek` puts the chosen card on top, the other staying second; `exchange` puts it
        on top and reshuffles the rest of the pile with the rng."""
        pile = state.players[turn.seat].pile
        assert act.treasure is not None
        pile.remove(act.treasure)
        if turn.event == "exchange":
            rng.shuffle(pile)
        pile.insert(0, act.treasure)
        turn.used, turn.opened = True, False
        return [{"type": "picked", "seat": turn.seat, "treasure": act.treasure}]

    # open the pile (exchange, version 2)

    def _check_open(self, state: ClassicState, turn: Turn) -> None:
        if rules_version(state.options) < 2:
            raise illegal("open_pile: in rules version 1 the exchange shows the pile at once")
        if turn.phase == "push":
            raise illegal("push-first: the push is mandatory before opening your pile")
        if not turn.offers("exchange") or turn.opened:
            raise illegal("open_pile: only an unused exchange event lets you open your pile")
        if not state.players[turn.seat].pile:
            raise illegal("open_pile: your pile is empty")

    @staticmethod
    def _open(turn: Turn) -> list[JSON]:
        """The pile shows in the player's view from now on; a pick must follow, which
        reshuffles the rest (so looking always costs the pile's order)."""
        turn.opened = True
        return [{"type": "opened", "seat": turn.seat}]

    # decline the bonus turn (double_turn, version 2)

    def _check_decline(self, state: ClassicState, turn: Turn) -> None:
        if rules_version(state.options) < 2:
            raise illegal("decline: in rules version 1 the double_turn's bonus turn is forced")
        if not (turn.bonus and turn.phase == "push"):
            raise illegal(
                "decline: only a double_turn's bonus turn, before its push, may be declined"
            )

    @staticmethod
    def _decline(state: ClassicState, turn: Turn) -> list[JSON]:
        state.turn = Turn((turn.seat + 1) % len(state.players))
        return [
            {"type": "declined", "seat": turn.seat},
            {"type": "turn", "seat": state.turn.seat, "bonus": False},
        ]

    # -- what viewers see ---------------------------------------------------------------------

    def view(self, state: ClassicState, viewer: int | None) -> JSON:
        """The state as `viewer` may see it: never another seat's target, peek or pile, nor an
        unrevealed event; once the game is finished, everything (the seed is public then)."""
        return self._view(state, viewer, reveal=state.result is not None)

    def reveal(self, state: ClassicState) -> JSON:
        """Everything, at any step: every pile in order and every tile's event."""
        return self._view(state, None, reveal=True)

    def _view(self, state: ClassicState, viewer: int | None, reveal: bool) -> JSON:
        finished = reveal
        board = state.board
        tiles = self._grid(state, finished)
        turn = state.turn
        return {
            "variant": VARIANT,
            "seq": state.seq,
            "status": "playing" if state.result is None else "finished",
            "options": dict(state.options),
            "you": viewer,
            "turn": None
            if turn is None
            else {
                "seat": turn.seat,
                "phase": turn.phase,
                "event": None
                if turn.event is None
                else {"name": turn.event, "used": turn.used, "opened": turn.opened},
                "bonus": turn.bonus,
            },
            "board": {
                "tiles": tiles,
                "spare": self._tile_view(state, board.spare, board.spare_open, finished),
                "forbidden": None if state.forbidden is None else state.forbidden.to_dict(),
                "last_push": None if state.last_push is None else state.last_push.to_dict(),
            },
            "players": [
                self._player_view(state, seat, viewer, finished)
                for seat in range(len(state.players))
            ],
            "result": self.result(state),
        }

    def _grid(self, state: ClassicState, finished: bool) -> list[list[JSON]]:
        """The 7x7 cells as every viewer sees them (the board is public), remembered with
        the state (and its copies): a move is sent to every seat and spectator of the room
        in a row, and the grid was most of each view's cost; a pawn's move leaves the board
        as the push left it, so its views reuse the push's grid (remembered by the engine,
        it was lost to the other rooms' moves in between). The memo is keyed on everything
        the grid is made of, so a board edited in place is never answered from it. The
        views of one board share the grid: a caller that wants to change a view copies it
        first (nothing in the server does; views go straight to JSON or are only read)."""
        board = state.board
        events = bool(state.options["events"])
        key = (
            finished,
            tuple(board.tiles),
            tuple(board.opens),
            events and frozenset(state.revealed),
        )
        memo = state.grid_memo
        if memo is not None and memo[0] == key and (not events or memo[1] is state.tile_events):
            return memo[2]
        tiles = [
            [
                self._tile_view(state, board.tiles[r * 7 + c], board.opens[r * 7 + c], finished)
                for c in range(7)
            ]
            for r in range(7)
        ]
        state.grid_memo = (key, state.tile_events, tiles)
        return tiles

    def _tile_view(self, state: ClassicState, tile_id: int, opens: int, finished: bool) -> JSON:
        tile: JSON = _TILE_FACES[tile_id][opens & 15].copy()
        if state.options["events"]:
            shown = finished or tile_id in state.revealed
            tile["event"] = state.tile_events.get(tile_id) if shown else None
        return tile

    def _player_view(
        self, state: ClassicState, seat: int, viewer: int | None, finished: bool
    ) -> JSON:
        player = state.players[seat]
        view: JSON = {
            "seat": seat,
            "name": player.name,
            "color": seat_colors(state.options)[seat],
            "pos": pos_of(player.pos),
            "home": pos_of(player.home),
            "found": player.found.copy(),
            "remaining": len(player.pile),
        }
        if finished:
            view["target"] = player.target
            view["pile"] = player.pile.copy()
        elif seat == viewer:
            view["target"] = player.target
            # what peek / exchange show, only while they can be used (a non-empty pile)
            turn = state.turn
            if turn is not None and turn.seat == seat and player.pile:
                if turn.offers("peek"):
                    view["peek"] = player.pile[:2]
                elif turn.offers("exchange") and (turn.opened or rules_version(state.options) < 2):
                    view["pile"] = player.pile.copy()
        return view

    def redact_action(
        self, state: ClassicState, seat: int, action: JSON, viewer: int | None
    ) -> JSON:
        """Others see a pick without its card until the game is finished; the rest is public."""
        if action.get("type") == "pick" and viewer != seat and state.result is None:
            return {"type": "pick"}
        return dict(action)

    def redact_events(
        self, state: ClassicState, events: list[JSON], viewer: int | None
    ) -> list[JSON]:
        """The only filter of events: `target` goes to its seat alone, a `picked` card is
        hidden from the others, until the game is finished."""
        if state.result is not None:
            return [dict(e) for e in events]
        shown = []
        for event in events:
            kind, own = event.get("type"), event.get("seat") == viewer
            if kind in _PRIVATE_EVENTS and not own:
                continue
            hidden = () if own else _PRIVATE_FIELDS.get(kind, ())  # type: ignore[arg-type]
            shown.append({k: v for k, v in event.items() if k not in hidden})
        return shown


ENGINE = ClassicEngine()
