"""Master Labyrinth (variant id `master`), per `shared/rules/master.md`.

The sliding board of `board.py` with a fixed dragon's lair at d4 whose tile is in no
path, two guardians travelling with their tiles, 24 value tokens taken in increasing
order, secret hands of treasure cards (coin, re-roll, double turn), the dragon die, duels
and the final duel. The wire format is `docs/protocol.md`, section "Master".

Every mid-turn decision is an action of its own with its own phase, so that rooms, bots
and replays need nothing special: `coin` / `no_coin` after a take, `reroll` / `accept`
after a failed duel roll (acted by the duellist, who may not be the player whose turn it
is) or after any final-duel roll, `challenge` / `decline` in front of the dragon's head,
`double_turn` / `end_turn` at the end of a turn. Dice are rolled inside the action that
causes them, with that action's rng, and every roll is a public event.

Decisions taken where master.md leaves room (each noted where it applies):
- Setup draws, in this order: the tiles, the dragon's facing, the 1-6 tokens, the 1-6
  cards, the 7-12 cards. Card deals are consecutive equal slices of each shuffled pile.
- The `coin` phase is entered after every take for which the player still holds a card
  of the token's half (1-6 or 7-12), not only when they hold the matching card: how many
  cards of each half a hand holds is public (deal sizes and played cards are public), so
  entering the phase reveals nothing about which values a hand holds.
- The nearest adventurers are found among all adventurers of the threatened system;
  those without a treasure among them do not duel, and do not pass the duel on.
- When the last 1-6 token is taken, the 7-12 tokens are placed at once (in the same
  action, before the dragon die).
- The challenge is offered at the end of the move step (after any take and duels) of a
  turn in which the final duel is open, wherever the adventurer got to the cell in front
  of the dragon's head. In the final duel a re-roll is offered after every roll, failed
  or not. A lost final duel ends the turn at once (no double turn): "the next player
  plays".
- A double turn cannot be chained: the bonus turn never offers another.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.rules.actions import Move, Push, bad, expect_fields, illegal, int_field, match_notation
from app.rules.base import JSON, IllegalAction, copy_result, no_options, rules_version
from app.rules.board import (
    SLOTS,
    Board,
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

VARIANT = "master"
COLORS = ("red", "yellow", "blue", "green")
STARTS = (cell_of(2, 2), cell_of(2, 4), cell_of(4, 4), cell_of(4, 2))
"""Seat i's colour and start field: clockwise round the board (c3, e3, e5, c5)."""
COLORS_V1 = ("red", "yellow", "green", "blue")
STARTS_V1 = (cell_of(2, 2), cell_of(2, 4), cell_of(4, 2), cell_of(4, 4))
"""Rules version 1's zig-zag (c3, e3, c5, e5), kept so that its records re-play."""


def seat_colors(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The colours seats take in order, by the game's rules version."""
    return COLORS if rules_version(options) >= 2 else COLORS_V1


LAIR = cell_of(3, 3)
LAIR_MASK = 1 << LAIR
FACINGS = "NESW"
FRONT = {"N": cell_of(2, 3), "E": cell_of(3, 4), "S": cell_of(4, 3), "W": cell_of(3, 2)}
GUARDIANS = ("white", "black")
GUARDIAN_STARTS = {"white": cell_of(2, 3), "black": cell_of(4, 3)}
PHASE1_CELLS = tuple(
    cell_of(r, c)
    for r, c in [(1, 1), (1, 3), (1, 5), (3, 1), (3, 5), (5, 1), (5, 3), (5, 5), (0, 3), (3, 0),
                 (3, 6), (6, 3)]
)  # fmt: skip
PHASE2_CELLS = tuple(
    cell_of(r, c)
    for r, c in [(0, 2), (0, 4), (2, 0), (4, 0), (2, 6), (4, 6), (6, 2), (6, 4), (1, 2), (2, 5),
                 (5, 4), (4, 1)]
)  # fmt: skip
LOW_VALUES = tuple(v for v in range(1, 7) for _ in range(2))
HIGH_VALUES = tuple(v for v in range(7, 13) for _ in range(2))
DRAGON_FACES = ("1", "2", "3", "4", "white", "black")  # arrows, then the two guardians
COIN_POINTS = 5
DRAGON_POINTS = 15
FINAL_TARGET = 12
FINAL_ROLLS = 3

CATALOGUE = make_catalogue({}, [TileInfo("I")] * 13 + [TileInfo("L")] * 15 + [TileInfo("T")] * 6)


def is_low(value: int) -> bool:
    """Cards 1-6 carry the re-roll symbol; 7-12 the double turn."""
    return value <= 6


# --- actions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision without arguments: `coin`, `no_coin`, `accept`, `challenge`, `decline`,
    `end_turn`. Notation: the type itself."""

    kind: str
    KINDS: ClassVar[tuple[str, ...]] = (
        "coin", "no_coin", "accept", "challenge", "decline", "end_turn",
    )  # fmt: skip

    @classmethod
    def parse(cls, text: str) -> Choice:
        if text not in cls.KINDS:
            raise ValueError(f"bad choice {text!r}")
        return cls(text)

    def __str__(self) -> str:
        return self.kind

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Choice:
        expect_fields(action, str(action["type"]), ())
        return cls(str(action["type"]))

    def to_dict(self) -> JSON:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A decision that plays a card: `reroll` (a 1-6 card) or `double_turn` (a 7-12 card).
    Notation `reroll:3`, `double_turn:9`."""

    kind: str
    card: int
    KINDS: ClassVar[tuple[str, ...]] = ("reroll", "double_turn")

    @classmethod
    def parse(cls, text: str) -> PlayCard:
        match = match_notation(r"(reroll|double_turn):([1-9]|1[0-2])", text, "card play")
        return cls(match[1], int(match[2]))

    def __str__(self) -> str:
        return f"{self.kind}:{self.card}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> PlayCard:
        kind = str(action["type"])
        expect_fields(action, kind, ("card",))
        allowed = range(1, 7) if kind == "reroll" else range(7, 13)
        return cls(kind, int_field(action["card"], "card", allowed))

    def to_dict(self) -> JSON:
        return {"type": self.kind, "card": self.card}


Action = Push | Move | Choice | PlayCard
_KINDS = ("push", "move", *Choice.KINDS, *PlayCard.KINDS)


def action_from_dict(action: Any) -> Action:
    """The typed action of a wire dict; anything malformed is `bad_message`."""
    if not isinstance(action, Mapping):
        raise bad("an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise bad(f"unknown action type {kind!r}; expected one of {', '.join(_KINDS)}")
    if kind == "push":
        return Push.from_dict(action)
    if kind == "move":
        return Move.from_dict(action)
    if kind in PlayCard.KINDS:
        return PlayCard.from_dict(action)
    return Choice.from_dict(action)


def parse_action(text: str) -> Action:
    """The action of a notation string (`Nb+1`, `c3`, `coin`, `reroll:2`, `double_turn:9`)."""
    if text in Choice.KINDS:
        return Choice.parse(text)
    if ":" in text:
        return PlayCard.parse(text)
    if text[:1] in ("N", "E", "S", "W"):
        return Push.parse(text)
    return Move.parse(text)


# --- state --------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    name: str
    start: int
    pos: int
    hand: list[int]
    treasures: list[int] = field(default_factory=list)
    coins: int = 0
    dragon: bool = False

    def clone(self) -> Player:
        return Player(
            self.name, self.start, self.pos, self.hand.copy(), self.treasures.copy(),
            self.coins, self.dragon,
        )  # fmt: skip

    def has_low(self) -> bool:
        return any(is_low(c) for c in self.hand)

    def has_high(self) -> bool:
        return any(not is_low(c) for c in self.hand)

    def score(self) -> int:
        return sum(self.treasures) + COIN_POINTS * self.coins + DRAGON_POINTS * self.dragon


@dataclass(slots=True)
class Turn:
    """Whose turn and where in it. `duellists` is the queue of seats still to duel (the
    first is duelling now), `roll` the duel roll awaiting `reroll` / `accept`, `taken` the
    value just taken (for `coin`), `final` the committed rolls of the final duel."""

    seat: int
    phase: str = "push"
    bonus: bool = False
    taken: int | None = None
    duellists: list[int] = field(default_factory=list)
    roll: int | None = None
    final: list[int] | None = None

    def clone(self) -> Turn:
        return Turn(
            self.seat, self.phase, self.bonus, self.taken, self.duellists.copy(), self.roll,
            None if self.final is None else self.final.copy(),
        )  # fmt: skip


@dataclass(slots=True)
class MasterState:
    options: JSON
    board: Board
    players: list[Player]
    facing: str
    guardians: dict[str, int]
    tokens: list[tuple[int, int]]  # (cell, value) on the board
    reserve: list[int]  # the 7-12 tokens before the second phase
    turn: Turn | None = field(default_factory=lambda: Turn(0))
    lost: list[int] = field(default_factory=list)
    played: list[JSON] = field(default_factory=list)  # {"seat", "card", "use"}, public
    second_phase: bool = False
    forbidden: Slot | None = None
    last_push: Slot | None = None
    result: JSON | None = None
    seq: int = 0

    def clone(self) -> MasterState:
        return MasterState(
            options=self.options,
            board=self.board.clone(),
            players=[p.clone() for p in self.players],
            facing=self.facing,
            guardians=dict(self.guardians),
            tokens=self.tokens.copy(),
            reserve=self.reserve.copy(),
            turn=None if self.turn is None else self.turn.clone(),
            lost=self.lost.copy(),
            played=[dict(p) for p in self.played],
            second_phase=self.second_phase,
            forbidden=self.forbidden,
            last_push=self.last_push,
            result=copy_result(self.result),
            seq=self.seq,
        )

    # -- derived facts, used by the engine, bots and tests -------------------------------

    @property
    def front(self) -> int:
        """The cell in front of the dragon's head."""
        return FRONT[self.facing]

    @property
    def final_open(self) -> bool:
        """The final duel is open once the second phase's tokens are all gone."""
        return self.second_phase and not self.tokens

    def lowest(self) -> int | None:
        """The lowest token value still on the board (under the lair included)."""
        return min((v for _, v in self.tokens), default=None)

    def stage(self) -> str:
        if self.final_open:
            return "final"
        return "second" if self.second_phase else "first"


# --- the engine ---------------------------------------------------------------------------


class MasterEngine:
    """The `Engine` for `master`. Stateless: everything lives in `MasterState`."""

    variant = VARIANT
    min_players = 2
    max_players = 4
    max_actions = 20_000  # random play ends master games in 2-6 thousand actions

    # -- setup ------------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> JSON:
        """Master has no options: only an empty object (or none) is accepted."""
        return no_options(raw, VARIANT)

    def setup(self, players: Sequence[str], options: JSON, rng: random.Random) -> MasterState:
        """Tiles, dragon facing, 1-6 tokens, 1-6 cards, 7-12 cards (module docstring)."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"master is for 2 to 4 players, got {len(players)}")
        options = self.parse_options(options)
        board = Board.deal(CATALOGUE, rng)
        facing = FACINGS[rng.randrange(4)]
        low_tokens = list(LOW_VALUES)
        rng.shuffle(low_tokens)
        hands = self._deal(len(players), rng)
        starts = STARTS if rules_version(options) >= 2 else STARTS_V1
        seats = [
            Player(str(name), starts[i], starts[i], hands[i]) for i, name in enumerate(players)
        ]
        return MasterState(
            options=options,
            board=board,
            players=seats,
            facing=facing,
            guardians=dict(GUARDIAN_STARTS),
            tokens=list(zip(PHASE1_CELLS, low_tokens, strict=True)),
            reserve=list(HIGH_VALUES),
        )

    @staticmethod
    def _deal(count: int, rng: random.Random) -> list[list[int]]:
        """The 1-6 cards shuffled and dealt evenly, then the 7-12 cards likewise."""
        hands: list[list[int]] = [[] for _ in range(count)]
        each = len(LOW_VALUES) // count
        for pile in (list(LOW_VALUES), list(HIGH_VALUES)):
            rng.shuffle(pile)
            for i in range(count):
                hands[i] += pile[i * each : (i + 1) * each]
        for hand in hands:
            hand.sort()
        return hands

    # -- reading ----------------------------------------------------------------------------

    def to_move(self, state: MasterState) -> int | None:
        """The player whose turn it is, except while a duellist decides on a re-roll."""
        turn = state.turn
        if turn is None:
            return None
        if turn.phase == "reroll":
            return turn.duellists[0]
        return turn.seat

    def result(self, state: MasterState) -> JSON | None:
        return copy_result(state.result)

    def notation(self, action: JSON) -> str:
        return str(action_from_dict(action))

    # -- legal actions ------------------------------------------------------------------------

    def legal_actions(self, state: MasterState, seat: int | None) -> list[JSON]:
        """Exactly what `apply` accepts from `seat` now."""
        turn = state.turn
        if turn is None or seat is None or seat != self.to_move(state):
            return []
        player = state.players[seat]
        phase = turn.phase
        if phase == "push":
            return [
                Push(slot.side, slot.index, r).to_dict()
                for slot in SLOTS
                if slot != state.forbidden
                for r in range(4)
            ]
        if phase == "move":
            reach = state.board.reach_mask_blocked(player.pos, LAIR_MASK)
            return [Move.at(c).to_dict() for c in cells_of(reach)]
        if phase == "coin":
            coin = [Choice("coin").to_dict()] if turn.taken in player.hand else []
            return [*coin, Choice("no_coin").to_dict()]
        if phase in ("reroll", "final"):
            cards = sorted({c for c in player.hand if is_low(c)})
            return [PlayCard("reroll", c).to_dict() for c in cards] + [Choice("accept").to_dict()]
        if phase == "challenge":
            return [Choice("challenge").to_dict(), Choice("decline").to_dict()]
        cards = sorted({c for c in player.hand if not is_low(c)})
        return [PlayCard("double_turn", c).to_dict() for c in cards] + [
            Choice("end_turn").to_dict()
        ]

    # -- applying ---------------------------------------------------------------------------

    def apply(
        self, state: MasterState, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> list[JSON]:
        """Parse, check every rule, and only then change the state (in place)."""
        act = action_from_dict(action)
        turn = state.turn
        if turn is None:
            raise IllegalAction("finished", "finished: the game is over")
        actor = self.to_move(state)
        if seat != actor:
            raise IllegalAction("not_your_turn", f"not_your_turn: seat {actor} is to act")
        self._check(state, turn, act)
        events = self._do(state, turn, act, rng)
        state.seq += 1
        return events

    _PHASE_OF: ClassVar[dict[str, str]] = {
        "push": "push", "move": "move", "coin": "coin", "no_coin": "coin",
        "reroll": "reroll|final", "accept": "reroll|final", "challenge": "challenge",
        "decline": "challenge", "double_turn": "double", "end_turn": "double",
    }  # fmt: skip

    def _check(self, state: MasterState, turn: Turn, act: Action) -> None:
        """Every rule, before any change; each refusal names its rule."""
        kind = "push" if isinstance(act, Push) else "move" if isinstance(act, Move) else act.kind
        if turn.phase not in self._PHASE_OF[kind].split("|"):
            raise illegal(f"phase: {kind} is not allowed in phase {turn.phase}")
        player = state.players[self.to_move(state) or 0]
        if isinstance(act, Push):
            if act.slot == state.forbidden:
                raise illegal(f"no-reverse: {act.slot} undoes {state.last_push}")
        elif isinstance(act, Move):
            if not state.board.reach_mask_blocked(player.pos, LAIR_MASK) >> act.cell & 1:
                there, here = cell_name(act.cell), cell_name(player.pos)
                raise illegal(
                    f"unreachable: {there} is not connected to {here} (the lair is in no path)"
                )
        elif isinstance(act, PlayCard):
            if act.card not in player.hand:
                raise illegal(f"card: you hold no {act.card} card")
        elif act.kind == "coin" and turn.taken not in player.hand:
            raise illegal(f"coin: you hold no {turn.taken} card to match the treasure")

    def _do(self, state: MasterState, turn: Turn, act: Action, rng: random.Random) -> list[JSON]:
        if isinstance(act, Push):
            return self._push(state, turn, act)
        if isinstance(act, Move):
            return self._move(state, turn, act, rng)
        handlers = {
            "coin": self._coin, "no_coin": self._coin, "reroll": self._reroll,
            "accept": self._accept, "challenge": self._challenge, "decline": self._decline,
            "double_turn": self._double, "end_turn": self._end_turn_action,
        }  # fmt: skip
        return handlers[act.kind](state, turn, act, rng)

    # push

    def _push(self, state: MasterState, turn: Turn, act: Push) -> list[JSON]:
        """Adventurers, guardians and tokens move with their tiles; the ejected tile's go
        onto the inserted tile. The lair stays: tiles slide under it."""
        slot = act.slot
        pushed = state.board.push(slot, act.rotation)
        ejected = pushed.ejected_cell
        on_ejected = [i for i, p in enumerate(state.players) if p.pos == ejected]
        guards_ejected = [g for g, c in state.guardians.items() if c == ejected]
        tokens_ejected = [v for c, v in state.tokens if c == ejected]
        for player in state.players:
            player.pos = carried(slot, player.pos)
        state.guardians = {g: carried(slot, c) for g, c in state.guardians.items()}
        state.tokens = [(carried(slot, c), v) for c, v in state.tokens]
        state.forbidden, state.last_push = slot.opposite, slot
        turn.phase = "move"
        board = state.board
        events: list[JSON] = [
            {
                "type": "pushed",
                "slot": str(slot),
                "side": act.side,
                "index": act.index,
                "rotation": act.rotation,
                "ejected_to_spare": self._tile_view(board.spare_open),
            }
        ]
        if on_ejected or guards_ejected or tokens_ejected:
            events.append(
                {
                    "type": "carried",
                    "seats": on_ejected,
                    "guardians": guards_ejected,
                    "tokens": tokens_ejected,
                    "to": pos_of(pushed.inserted_cell),
                }
            )
        return events

    # move and take

    def _move(self, state: MasterState, turn: Turn, act: Move, rng: random.Random) -> list[JSON]:
        """Walk (or stay), then take the lowest token if walked onto it from elsewhere."""
        seat, player = turn.seat, state.players[turn.seat]
        start, dest = player.pos, act.cell
        player.pos = dest
        events: list[JSON] = [
            {"type": "moved", "seat": seat, "from": pos_of(start), "to": pos_of(dest)}
        ]
        value = self._takeable(state, start, dest)
        if value is None:
            return events + self._after_move_step(state, turn)
        state.tokens.remove((dest, value))
        player.treasures.append(value)
        player.treasures.sort()
        events.append({"type": "took", "seat": seat, "value": value, "at": pos_of(dest)})
        events += self._maybe_second_phase(state, rng)
        if player.has_low() if is_low(value) else player.has_high():
            turn.phase, turn.taken = "coin", value
            return events
        return events + self._dragon_die(state, turn, rng)

    @staticmethod
    def _takeable(state: MasterState, start: int, dest: int) -> int | None:
        """The value taken by walking from `start` to `dest`: the lowest on the board, on
        the arrival tile, only if walked there from another cell; never under the lair."""
        lowest = state.lowest()
        if start == dest or dest == LAIR or lowest is None:
            return None
        return lowest if (dest, lowest) in state.tokens else None

    @staticmethod
    def _maybe_second_phase(state: MasterState, rng: random.Random) -> list[JSON]:
        """Once no 1-6 token is left on the board, the 7-12 tokens are shuffled onto the
        phase-2 cells, on whatever tile is there; pieces stay put."""
        if state.second_phase or any(is_low(v) for _, v in state.tokens):
            return []
        values = state.reserve.copy()
        rng.shuffle(values)
        state.reserve = []
        state.second_phase = True
        placed = list(zip(PHASE2_CELLS, values, strict=True))
        state.tokens += placed
        return [
            {
                "type": "second_phase",
                "tokens": [{"pos": pos_of(c), "value": v} for c, v in placed],
            }
        ]

    def _coin(self, state: MasterState, turn: Turn, act: Choice, rng: random.Random) -> list[JSON]:
        """Play the matching card for a coin (or not), then the dragon die."""
        events: list[JSON] = []
        if act.kind == "coin":
            player, value = state.players[turn.seat], turn.taken
            assert value is not None
            player.hand.remove(value)
            player.coins += 1
            state.played.append({"seat": turn.seat, "card": value, "use": "coin"})
            events.append({"type": "coin", "seat": turn.seat, "card": value})
        turn.taken = None
        return events + self._dragon_die(state, turn, rng)

    # the dragon die and duels

    def _dragon_die(self, state: MasterState, turn: Turn, rng: random.Random) -> list[JSON]:
        """Roll the dragon die; arrows turn the dragon and threaten from the cell in front
        of its head (distance 1); a guardian face threatens from the guardian's tile
        (distance 0), unless it is under the lair. Then the duels."""
        face = DRAGON_FACES[rng.randrange(6)]
        event: JSON = {"type": "dragon_die", "seat": turn.seat, "face": face}
        if face in GUARDIANS:
            origin = state.guardians[face]
            layers = [] if origin == LAIR else state.board.distance_layers(origin, LAIR_MASK)
            source = face
        else:
            turns = int(face)
            state.facing = FACINGS[(FACINGS.index(state.facing) + turns) % 4]
            event["facing"] = state.facing
            layers = [0, *state.board.distance_layers(state.front, LAIR_MASK)]
            source = "dragon"
        nearest = self._nearest(state, turn.seat, layers)
        duellists = [s for s in nearest if state.players[s].treasures]
        events: list[JSON] = [
            event,
            {
                "type": "threat",
                "source": source,
                "cells": [pos_of(c) for layer in layers for c in cells_of(layer)],
                "nearest": nearest,
                "duellists": duellists.copy(),
            },
        ]
        turn.duellists = duellists
        return events + self._run_duels(state, turn, rng)

    @staticmethod
    def _nearest(state: MasterState, current: int, layers: list[int]) -> list[int]:
        """The adventurers of the threatened system at the smallest distance, in seat order
        from the current player. `layers[k]` is the mask of cells at distance k."""
        count = len(state.players)
        order = [(current + k) % count for k in range(count)]
        for layer in layers:
            here = [s for s in order if layer >> state.players[s].pos & 1]
            if here:
                return here
        return []

    def _run_duels(self, state: MasterState, turn: Turn, rng: random.Random) -> list[JSON]:
        """Each queued duellist rolls the duel die; a failed roll waits for `reroll` /
        `accept` while the duellist holds a 1-6 card, else loses the lowest treasure."""
        events: list[JSON] = []
        while turn.duellists:
            seat = turn.duellists[0]
            roll = rng.randint(1, 6)
            events.append({"type": "duel_roll", "seat": seat, "roll": roll})
            if roll >= 4:
                events.append({"type": "duel_won", "seat": seat})
                turn.duellists.pop(0)
                continue
            if state.players[seat].has_low():
                turn.phase, turn.roll = "reroll", roll
                return events
            events += self._lose_lowest(state, seat, "duel")
            turn.duellists.pop(0)
        turn.roll = None
        return events + self._after_move_step(state, turn)

    @staticmethod
    def _lose_lowest(state: MasterState, seat: int, why: str) -> list[JSON]:
        """The lowest-value treasure goes out of the game; coins are never lost."""
        player = state.players[seat]
        if not player.treasures:
            return []
        value = player.treasures.pop(0)
        state.lost.append(value)
        return [{"type": "lost", "seat": seat, "value": value, "reason": why}]

    def _reroll(
        self, state: MasterState, turn: Turn, act: PlayCard, rng: random.Random
    ) -> list[JSON]:
        """A 1-6 card redoes the pending roll: a failed duel roll, or a final-duel roll."""
        seat = self.to_move(state)
        assert seat is not None
        state.players[seat].hand.remove(act.card)
        state.played.append({"seat": seat, "card": act.card, "use": "reroll"})
        events: list[JSON] = [{"type": "reroll", "seat": seat, "card": act.card}]
        if turn.phase == "final":
            return events + self._final_roll(state, turn, rng)
        turn.roll = None
        return events + self._run_duels(state, turn, rng)

    def _accept(
        self, state: MasterState, turn: Turn, act: Choice, rng: random.Random
    ) -> list[JSON]:
        """Keep the pending roll: a failed duel loses the lowest treasure; a final-duel roll
        counts and the next is rolled."""
        if turn.phase == "final":
            assert turn.final is not None and turn.roll is not None
            turn.final.append(turn.roll)
            turn.roll = None
            return self._final_continue(state, turn, rng)
        seat = turn.duellists.pop(0)
        turn.roll = None
        return self._lose_lowest(state, seat, "duel") + self._run_duels(state, turn, rng)

    # end of the move step: challenge, double turn, next player

    def _after_move_step(self, state: MasterState, turn: Turn) -> list[JSON]:
        """The move step is over: the challenge if open and in front of the dragon's head,
        else the double-turn step."""
        if state.final_open and state.players[turn.seat].pos == state.front:
            turn.phase = "challenge"
            return []
        return self._double_step(state, turn)

    def _double_step(self, state: MasterState, turn: Turn) -> list[JSON]:
        if not turn.bonus and state.players[turn.seat].has_high():
            turn.phase = "double"
            return []
        return self._next_player(state, turn)

    @staticmethod
    def _next_player(state: MasterState, turn: Turn) -> list[JSON]:
        state.turn = Turn((turn.seat + 1) % len(state.players))
        return [{"type": "turn", "seat": state.turn.seat, "bonus": False}]

    def _decline(
        self, state: MasterState, turn: Turn, act: Choice, rng: random.Random
    ) -> list[JSON]:
        return self._double_step(state, turn)

    def _double(
        self, state: MasterState, turn: Turn, act: PlayCard, rng: random.Random
    ) -> list[JSON]:
        """A 7-12 card: one more complete turn, which never offers another."""
        state.players[turn.seat].hand.remove(act.card)
        state.played.append({"seat": turn.seat, "card": act.card, "use": "double_turn"})
        state.turn = Turn(turn.seat, bonus=True)
        return [
            {"type": "double_turn", "seat": turn.seat, "card": act.card},
            {"type": "turn", "seat": turn.seat, "bonus": True},
        ]

    def _end_turn_action(
        self, state: MasterState, turn: Turn, act: Choice, rng: random.Random
    ) -> list[JSON]:
        return self._next_player(state, turn)

    # the final duel

    def _challenge(
        self, state: MasterState, turn: Turn, act: Choice, rng: random.Random
    ) -> list[JSON]:
        turn.final = []
        events: list[JSON] = [{"type": "challenge", "seat": turn.seat}]
        return events + self._final_roll(state, turn, rng)

    def _final_roll(self, state: MasterState, turn: Turn, rng: random.Random) -> list[JSON]:
        """Roll the next final-duel die; with a 1-6 card in hand the player may redo it."""
        assert turn.final is not None
        roll = rng.randint(1, 6)
        events: list[JSON] = [
            {"type": "final_roll", "seat": turn.seat, "roll": roll, "index": len(turn.final)}
        ]
        if state.players[turn.seat].has_low():
            turn.phase, turn.roll = "final", roll
            return events
        turn.final.append(roll)
        return events + self._final_continue(state, turn, rng)

    def _final_continue(self, state: MasterState, turn: Turn, rng: random.Random) -> list[JSON]:
        assert turn.final is not None
        if len(turn.final) < FINAL_ROLLS:
            return self._final_roll(state, turn, rng)
        total = sum(turn.final)
        won = total >= FINAL_TARGET
        events: list[JSON] = [
            {"type": "final_duel", "seat": turn.seat, "rolls": turn.final.copy(),
             "total": total, "won": won}
        ]  # fmt: skip
        if won:
            state.players[turn.seat].dragon = True
            state.result = self._score(state)
            state.turn = None
            return [*events, {"type": "won", "winners": state.result["winners"]}]
        events += self._lose_lowest(state, turn.seat, "final_duel")
        return events + self._next_player(state, turn)

    @staticmethod
    def _score(state: MasterState) -> JSON:
        """Treasures + 5 per coin + 15 for the dragon; ties go to more treasures, then are
        shared."""
        keys = [(p.score(), len(p.treasures)) for p in state.players]
        best = max(keys)
        return {
            "winners": [s for s, k in enumerate(keys) if k == best],
            "reason": "dragon",
            "scores": [k[0] for k in keys],
        }

    # -- what viewers see ---------------------------------------------------------------------

    def view(self, state: MasterState, viewer: int | None) -> JSON:
        """The state as `viewer` may see it: never another seat's hand until the game is
        finished."""
        return self._view(state, viewer, reveal=state.result is not None)

    def reveal(self, state: MasterState) -> JSON:
        """Everything, at any step: every hand."""
        return self._view(state, None, reveal=True)

    @staticmethod
    def _tile_view(opens: int, fixed: bool = False) -> JSON:
        return {"open": open_str(opens), "treasure": None, "fixed": fixed}

    def _view(self, state: MasterState, viewer: int | None, reveal: bool) -> JSON:
        board = state.board
        tiles = [
            [self._tile_view(board.opens[r * 7 + c], board.info(r * 7 + c).fixed) for c in range(7)]
            for r in range(7)
        ]
        return {
            "variant": VARIANT,
            "seq": state.seq,
            "status": "playing" if state.result is None else "finished",
            "options": dict(state.options),
            "you": viewer,
            "turn": self._turn_view(state),
            "board": {
                "tiles": tiles,
                "spare": self._tile_view(board.spare_open),
                "forbidden": None if state.forbidden is None else state.forbidden.to_dict(),
                "last_push": None if state.last_push is None else state.last_push.to_dict(),
            },
            "lair": pos_of(LAIR),
            "dragon": {"facing": state.facing, "front": pos_of(state.front)},
            "guardians": {g: pos_of(c) for g, c in state.guardians.items()},
            "tokens": [{"pos": pos_of(c), "value": v} for c, v in sorted(state.tokens)],
            "lowest": state.lowest(),
            "stage": state.stage(),
            "reserve": len(state.reserve),
            "lost": state.lost.copy(),
            "played": [dict(p) for p in state.played],
            "players": [
                self._player_view(state, seat, viewer, reveal) for seat in range(len(state.players))
            ],
            "result": self.result(state),
        }

    def _turn_view(self, state: MasterState) -> JSON | None:
        turn = state.turn
        if turn is None:
            return None
        return {
            "seat": turn.seat,
            "phase": turn.phase,
            "bonus": turn.bonus,
            "actor": self.to_move(state),
            "taken": turn.taken,
            "duellists": turn.duellists.copy(),
            "roll": turn.roll,
            "final": None if turn.final is None else turn.final.copy(),
        }

    @staticmethod
    def _player_view(state: MasterState, seat: int, viewer: int | None, reveal: bool) -> JSON:
        player = state.players[seat]
        view: JSON = {
            "seat": seat,
            "name": player.name,
            "color": seat_colors(state.options)[seat],
            "pos": pos_of(player.pos),
            "home": pos_of(player.start),
            "found": player.treasures.copy(),
            # the sliding-game view's count of what is left to take: every player hunts the
            # same tokens, so it is the tokens on the board, the same for all
            "remaining": len(state.tokens),
            "treasures": player.treasures.copy(),
            "coins": player.coins,
            "dragon": player.dragon,
            "score": player.score(),
            "hand_count": len(player.hand),
            "low_count": sum(1 for c in player.hand if is_low(c)),
        }
        if reveal or seat == viewer:
            view["hand"] = player.hand.copy()
        return view

    def redact_action(
        self, state: MasterState, seat: int, action: JSON, viewer: int | None
    ) -> JSON:
        """Every action is public: cards are shown when played."""
        return dict(action)

    def redact_events(
        self, state: MasterState, events: list[JSON], viewer: int | None
    ) -> list[JSON]:
        """Every event is public (dice, takes, played cards); hands never appear in one."""
        return [dict(e) for e in events]


ENGINE = MasterEngine()
