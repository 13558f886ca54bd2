"""Labyrinth, the card game (variant id `cards`), per `shared/rules/cards.md`.

No board: the cards form a growing layout on an unbounded integer grid. A cell is
`(x, y)`, x east and y south; the start square is `(0,0) (1,0) (0,1) (1,1)`. Openings
are the 4-bit masks of `board.py` (N=1 E=2 S=4 W=8), rotated clockwise with `rotate`.

A turn has up to two actions, so that the player sees the linking paths before choosing:
`place` (or `discard` when neither hand card can be placed), then `take` when the placed
card is joined to cards of its motif of which at least one may be taken. Drawing back to
two cards and passing the turn follow automatically.

Decisions taken where the rules file leaves room (each is also noted where it applies):
- The deck: card id `4 * m + k` shows motif `MOTIFS[m]`, shape `I`, `L`, `L`, `T` for
  k = 0..3; a hand card is shown in its printed orientation (`I` NS, `L` NE, `T` ESW) and
  `place.rotation` turns it clockwise from there.
- Setup draws, in this order: one shuffle of the 48 cards; deal two cards to each seat in
  seat order (seat 0 gets the first two); the next four form the start square in the
  order `(0,0) (1,0) (0,1) (1,1)`, each with `rng.randrange(4)` quarter turns; the rest is
  the pile, its top first.
- Taking is optional ("may be taken"): the empty choice is always valid. The take phase
  is entered only when some non-empty choice is valid; otherwise the turn goes on.
- A player whose hand is empty (the pile being empty) is skipped.
- The discard is public (face up), and out of the game.
- Linking is compulsory when possible (rules version 2; booklet: « si possible, il faut
  poser sa carte de telle sorte qu'un chemin continu reliant deux trésors identiques
  apparaisse »): a placement *links* when, after it, the placed card's treasure is joined
  by a path to another card of the same treasure. If any placement of any hand card
  links, only linking placements are legal. Rules version 1 (no `rules_version` option,
  every game made before) accepted any fitting placement; its records re-play so.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.rules.actions import bad, expect_fields, from_wire, illegal, int_field, match_notation
from app.rules.base import JSON, IllegalAction, copy_result, no_options, rules_version
from app.rules.board import BASE_OPENING, open_str, rotate

VARIANT = "cards"
COLORS = ("red", "yellow", "green", "blue", "purple", "orange")


def seat_colors(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The colours seats take in order (the same in every rules version)."""
    return COLORS


MOTIFS = (
    "chest", "unicorn", "ghost", "dagger", "troubadour", "crown",
    "owl", "dragon", "key", "ring", "candle", "map",
)  # fmt: skip
SHAPES_PER_MOTIF = ("I", "L", "L", "T")
DECK_SIZE = len(MOTIFS) * len(SHAPES_PER_MOTIF)
HAND_SIZE = 2
START_CELLS = ((0, 0), (1, 0), (0, 1), (1, 1))
COORD_LIMIT = 1000  # a wire coordinate beyond this can never be next to the layout

# direction bit -> (dx, dy) and the opposite bit
STEPS: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, -1, 4),  # N: y - 1, meets the neighbour's S
    (2, 1, 0, 8),  # E: x + 1, meets W
    (4, 0, 1, 1),  # S: y + 1, meets N
    (8, -1, 0, 2),  # W: x - 1, meets E
)

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Card:
    """What is printed on a card: its motif and path shape (openings as printed)."""

    motif: str
    shape: str

    @property
    def opens(self) -> int:
        return BASE_OPENING[self.shape]

    def to_dict(self, opens: int | None = None) -> JSON:
        return {"open": open_str(self.opens if opens is None else opens), "motif": self.motif}


DECK: tuple[Card, ...] = tuple(Card(m, s) for m in MOTIFS for s in SHAPES_PER_MOTIF)


# --- actions ------------------------------------------------------------------------------


def _cell_field(value: Any, name: str) -> Cell:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise bad(f"{name} must be [x, y], got {value!r}")
    coords = range(-COORD_LIMIT, COORD_LIMIT + 1)
    return (int_field(value[0], f"{name}[0]", coords), int_field(value[1], f"{name}[1]", coords))


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _parse_cell_text(text: str) -> Cell:
    match = match_notation(r"(-?\d+),(-?\d+)", text, "cell")
    return (int(match[1]), int(match[2]))


@dataclass(frozen=True, slots=True)
class Place:
    """Lay hand card `card` (0 or 1) on `pos`, turned `rotation` quarter turns clockwise
    from its printed orientation. Notation `h0@2,-1+1`."""

    card: int
    pos: Cell
    rotation: int = 0
    TYPE: ClassVar[str] = "place"
    _PATTERN: ClassVar[re.Pattern[str]] = re.compile(r"h([01])@(-?\d+,-?\d+)(?:\+([123]))?")

    @classmethod
    def parse(cls, text: str) -> Place:
        match = match_notation(cls._PATTERN, text, "place")
        return cls(int(match[1]), _parse_cell_text(match[2]), int(match[3] or 0))

    def __str__(self) -> str:
        turn = f"+{self.rotation}" if self.rotation else ""
        return f"h{self.card}@{cell_text(self.pos)}{turn}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Place:
        expect_fields(action, "place", ("card", "pos", "rotation"))
        return cls(
            int_field(action["card"], "card", range(HAND_SIZE)),
            _cell_field(action["pos"], "pos"),
            int_field(action["rotation"], "rotation", range(4)),
        )

    def to_dict(self) -> JSON:
        return {
            "type": "place",
            "card": self.card,
            "pos": list(self.pos),
            "rotation": self.rotation,
        }


@dataclass(frozen=True, slots=True)
class Take:
    """Take these cards (cells of the layout) after placing; none at all is a choice.
    Notation `take:0,-1/3,1`, `take:-` for none. Cells are kept sorted (y, then x)."""

    cells: tuple[Cell, ...]
    TYPE: ClassVar[str] = "take"

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Take:
        return cls(tuple(sorted(cells, key=lambda c: (c[1], c[0]))))

    @classmethod
    def parse(cls, text: str) -> Take:
        body = text.removeprefix("take:")
        if body == text:
            raise ValueError(f"bad take {text!r}")
        if body == "-":
            return cls(())
        return cls.of(_parse_cell_text(part) for part in body.split("/"))

    def __str__(self) -> str:
        return "take:" + ("/".join(cell_text(c) for c in self.cells) or "-")

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Take:
        expect_fields(action, "take", ("cards",))
        raw = action["cards"]
        if not isinstance(raw, list | tuple) or len(raw) > DECK_SIZE:
            raise bad(f"cards must be a list of [x, y] cells, got {raw!r}")
        cells = [_cell_field(c, f"cards[{i}]") for i, c in enumerate(raw)]
        if len(set(cells)) != len(cells):
            raise bad("cards must not name a cell twice")
        return cls.of(cells)

    def to_dict(self) -> JSON:
        return {"type": "take", "cards": [list(c) for c in self.cells]}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put hand card `card` out of the game, face up, when neither hand card can be
    placed. Notation `discard:h1`."""

    card: int
    TYPE: ClassVar[str] = "discard"

    @classmethod
    def parse(cls, text: str) -> Discard:
        match = match_notation(r"discard:h([01])", text, "discard")
        return cls(int(match[1]))

    def __str__(self) -> str:
        return f"discard:h{self.card}"

    @classmethod
    def from_dict(cls, action: Mapping[str, Any]) -> Discard:
        expect_fields(action, "discard", ("card",))
        return cls(int_field(action["card"], "card", range(HAND_SIZE)))

    def to_dict(self) -> JSON:
        return {"type": "discard", "card": self.card}


Action = Place | Take | Discard
_ACTION_TYPES: dict[str, type[Place] | type[Take] | type[Discard]] = {
    "place": Place, "take": Take, "discard": Discard,
}  # fmt: skip


def action_from_dict(action: Any) -> Action:
    """The typed action of a wire dict; anything malformed is `bad_message`."""
    return from_wire(action, _ACTION_TYPES)  # type: ignore[no-any-return]


def parse_action(text: str) -> Action:
    """The action of a notation string (`h0@2,-1+1`, `take:0,-1/3,1`, `discard:h1`)."""
    if text.startswith("take"):
        return Take.parse(text)
    if text.startswith("discard"):
        return Discard.parse(text)
    return Place.parse(text)


# --- the layout ---------------------------------------------------------------------------


def neighbours(cell: Cell) -> Iterable[tuple[int, Cell, int]]:
    """(direction bit, neighbouring cell, the neighbour's facing bit) for N, E, S, W."""
    x, y = cell
    for bit, dx, dy, back in STEPS:
        yield bit, (x + dx, y + dy), back


@dataclass(slots=True)
class Layout:
    """The cards on the table: cell -> (card id, openings as laid)."""

    cards: dict[Cell, tuple[int, int]] = field(default_factory=dict)

    def clone(self) -> Layout:
        return Layout(dict(self.cards))

    def opens(self, cell: Cell) -> int:
        return self.cards[cell][1]

    def motif(self, cell: Cell) -> str:
        return DECK[self.cards[cell][0]].motif

    def meets(self, cell: Cell, opens: int) -> bool:
        """Whether a card laid on empty `cell` with `opens` has an opening that meets an
        opening of an adjacent card (the placement rule)."""
        for bit, other, back in neighbours(cell):
            laid = self.cards.get(other)
            if laid is not None and opens & bit and laid[1] & back:
                return True
        return False

    def frontier(self) -> list[Cell]:
        """Empty cells sharing an edge with the layout, sorted (y, then x)."""
        cells = {
            other
            for cell in self.cards
            for _, other, _ in neighbours(cell)
            if other not in self.cards
        }
        return sorted(cells, key=lambda c: (c[1], c[0]))

    def linked(self, cell: Cell) -> Iterable[Cell]:
        """Cards connected to the card on `cell`: both open on the shared edge."""
        opens = self.opens(cell)
        for bit, other, back in neighbours(cell):
            laid = self.cards.get(other)
            if laid is not None and opens & bit and laid[1] & back:
                yield other

    def paths_from(self, start: Cell) -> dict[Cell, Cell | None]:
        """Breadth-first parents of every card joined to `start` by a path (over any
        motifs): a shortest path to each is read back through the parents."""
        parents: dict[Cell, Cell | None] = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for other in self.linked(cell):
                if other not in parents:
                    parents[other] = cell
                    queue.append(other)
        return parents

    def motifs_by_group(self) -> dict[Cell, frozenset[str]]:
        """For each card, the motifs of every card joined to it by a path (its group,
        itself included): what a new card joined to it would be linked with."""
        groups: dict[Cell, frozenset[str]] = {}
        for start in self.cards:
            if start in groups:
                continue
            members = list(self.paths_from(start))
            motifs = frozenset(self.motif(c) for c in members)
            for cell in members:
                groups[cell] = motifs
        return groups

    def would_link(
        self, cell: Cell, opens: int, motif: str, groups: Mapping[Cell, frozenset[str]]
    ) -> bool:
        """Whether a card of `motif` laid on empty `cell` with `opens` would be joined by a
        path to a card of the same motif: through the neighbours it connects to, whose
        groups (`motifs_by_group`) it joins."""
        for bit, other, back in neighbours(cell):
            laid = self.cards.get(other)
            if laid is not None and opens & bit and laid[1] & back and motif in groups[other]:
                return True
        return False

    def joined_by_edges(self, without: frozenset[Cell] = frozenset()) -> bool:
        """Whether the cards, less `without`, form one group joined by edges (openings
        do not matter here; corner contact is not enough)."""
        left = [c for c in self.cards if c not in without]
        if not left:
            return True
        seen = {left[0]}
        queue = deque([left[0]])
        while queue:
            for _, other, _ in neighbours(queue.popleft()):
                if other in self.cards and other not in without and other not in seen:
                    seen.add(other)
                    queue.append(other)
        return len(seen) == len(left)

    def __str__(self) -> str:
        """A small drawing for tests and logs: one letter per card (the shape's openings
        as a box-drawing glyph), `.` for an empty cell."""
        if not self.cards:
            return ""
        xs = [c[0] for c in self.cards]
        ys = [c[1] for c in self.cards]
        rows = []
        for y in range(min(ys), max(ys) + 1):
            row = ""
            for x in range(min(xs), max(xs) + 1):
                laid = self.cards.get((x, y))
                row += "." if laid is None else _GLYPHS[laid[1]]
            rows.append(row)
        return "\n".join(rows)


_GLYPHS = {
    5: "│", 10: "─", 3: "└", 6: "┌", 12: "┐", 9: "┘",
    14: "┬", 13: "┤", 11: "┴", 7: "├",
}  # fmt: skip


def path_to(parents: Mapping[Cell, Cell | None], end: Cell) -> list[Cell]:
    """The cells from the start to `end`, both included, through the BFS parents."""
    path = [end]
    while (parent := parents[path[-1]]) is not None:
        path.append(parent)
    return path[::-1]


# --- state --------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    name: str
    hand: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)

    def clone(self) -> Player:
        return Player(self.name, self.hand.copy(), self.taken.copy())


@dataclass(slots=True)
class Turn:
    """Whose turn and where in it; in phase `take`, the placed card's cell and the cards
    of its motif joined to it (the candidates)."""

    seat: int
    phase: str = "place"
    placed: Cell | None = None
    candidates: tuple[Cell, ...] = ()

    def clone(self) -> Turn:
        return Turn(self.seat, self.phase, self.placed, self.candidates)


@dataclass(slots=True)
class CardsState:
    options: JSON
    layout: Layout
    players: list[Player]
    pile: list[int]  # top first; secret
    discarded: list[int] = field(default_factory=list)
    turn: Turn | None = field(default_factory=lambda: Turn(0))
    result: JSON | None = None
    seq: int = 0

    def clone(self) -> CardsState:
        return CardsState(
            options=self.options,
            layout=self.layout.clone(),
            players=[p.clone() for p in self.players],
            pile=self.pile.copy(),
            discarded=self.discarded.copy(),
            turn=None if self.turn is None else self.turn.clone(),
            result=copy_result(self.result),
            seq=self.seq,
        )


# --- the engine ---------------------------------------------------------------------------


class CardsEngine:
    """The `Engine` for `cards`. Stateless: everything lives in `CardsState`."""

    variant = VARIANT
    min_players = 2
    max_players = 6
    max_actions = 2_000  # 48 cards: random play ends a game in about 60 actions

    # -- setup ------------------------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, Any] | None) -> JSON:
        """The card game has no options: only an empty object (or none) is accepted."""
        return no_options(raw, VARIANT)

    def setup(self, players: Sequence[str], options: JSON, rng: random.Random) -> CardsState:
        """One shuffle, two cards a seat, the 2 x 2 start in random orientations, the pile."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"cards is for 2 to 6 players, got {len(players)}")
        options = self.parse_options(options)
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        seats = [
            Player(str(name), deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])
            for i, name in enumerate(players)
        ]
        rest = deck[len(players) * HAND_SIZE :]
        layout = Layout()
        for cell, card in zip(START_CELLS, rest, strict=False):
            layout.cards[cell] = (card, rotate(DECK[card].opens, rng.randrange(4)))
        return CardsState(options, layout, seats, rest[len(START_CELLS) :])

    # -- reading ----------------------------------------------------------------------------

    def to_move(self, state: CardsState) -> int | None:
        return None if state.turn is None else state.turn.seat

    def result(self, state: CardsState) -> JSON | None:
        return copy_result(state.result)

    def notation(self, action: JSON) -> str:
        return str(action_from_dict(action))

    # -- legal actions ----------------------------------------------------------------------

    def placements(self, state: CardsState, seat: int) -> list[Place]:
        """Every placement of `seat`'s hand cards: all four rotations, even where shapes
        coincide (an `I` turned twice), as the server accepts each."""
        hand = state.players[seat].hand
        layout = state.layout
        return [
            Place(index, cell, rotation)
            for index, card in enumerate(hand)
            for cell in layout.frontier()
            for rotation in range(4)
            if layout.meets(cell, rotate(DECK[card].opens, rotation))
        ]

    def links(self, state: CardsState, seat: int, place: Place) -> bool:
        """Whether `place` (a fitting placement) links two identical treasures."""
        layout, card = state.layout, state.players[seat].hand[place.card]
        opens = rotate(DECK[card].opens, place.rotation)
        return layout.would_link(place.pos, opens, DECK[card].motif, layout.motifs_by_group())

    def allowed_placements(self, state: CardsState, seat: int) -> tuple[list[Place], bool]:
        """The legal placements, and whether linking is compulsory now (version 2: when a
        placement links, only the linking ones are legal)."""
        places = self.placements(state, seat)
        if rules_version(state.options) < 2 or not places:
            return places, False
        groups = state.layout.motifs_by_group()
        hand = state.players[seat].hand
        linking = [
            p
            for p in places
            if state.layout.would_link(
                p.pos,
                rotate(DECK[hand[p.card]].opens, p.rotation),
                DECK[hand[p.card]].motif,
                groups,
            )
        ]
        return (linking, True) if linking else (places, False)

    def take_choices(self, layout: Layout, candidates: Sequence[Cell]) -> list[Take]:
        """Every subset of the candidates whose removal leaves one edge-joined layout,
        the largest first (a one-click default), the empty choice last."""
        choices = []
        for size in range(len(candidates), -1, -1):
            for subset in itertools.combinations(candidates, size):
                if layout.joined_by_edges(frozenset(subset)):
                    choices.append(Take.of(subset))
        return choices

    def legal_actions(self, state: CardsState, seat: int | None) -> list[JSON]:
        """Exhaustive and exact for the seat to move; empty for anyone else."""
        turn = state.turn
        if turn is None or seat != turn.seat:
            return []
        if turn.phase == "take":
            return [t.to_dict() for t in self.take_choices(state.layout, turn.candidates)]
        places, _ = self.allowed_placements(state, seat)
        if places:
            return [p.to_dict() for p in places]
        return [Discard(i).to_dict() for i in range(len(state.players[seat].hand))]

    # -- applying ---------------------------------------------------------------------------

    def apply(
        self, state: CardsState, seat: int, action: Mapping[str, Any], rng: random.Random
    ) -> list[JSON]:
        """Parse, check every rule, and only then change the state (in place). The card
        game draws nothing at random after setup, so `rng` is unused."""
        act = action_from_dict(action)
        turn = state.turn
        if turn is None:
            raise IllegalAction("finished", "finished: the game is over")
        if seat != turn.seat:
            raise IllegalAction("not_your_turn", f"not_your_turn: it is seat {turn.seat}'s turn")
        if isinstance(act, Place):
            self._check_place(state, turn, act)
            events = self._place(state, turn, act)
        elif isinstance(act, Take):
            self._check_take(state, turn, act)
            events = self._take(state, turn, act)
        else:
            self._check_discard(state, turn, act)
            events = self._discard(state, turn, act)
        state.seq += 1
        return events

    # place

    def _check_place(self, state: CardsState, turn: Turn, act: Place) -> None:
        if turn.phase != "place":
            raise illegal("take-first: choose which cards to take before anything else")
        hand = state.players[turn.seat].hand
        if act.card >= len(hand):
            raise illegal(f"no-card: your hand holds {len(hand)} card(s), no h{act.card}")
        layout = state.layout
        where = cell_text(act.pos)
        if act.pos in layout.cards:
            raise illegal(f"empty-cell: {where} already holds a card")
        if not any(other in layout.cards for _, other, _ in neighbours(act.pos)):
            raise illegal(f"adjacent: {where} shares no edge with the layout")
        if not layout.meets(act.pos, rotate(DECK[hand[act.card]].opens, act.rotation)):
            raise illegal(f"meeting-opening: no opening of the card meets one at {where}")
        if rules_version(state.options) >= 2 and not self.links(state, turn.seat, act):
            linking, compulsory = self.allowed_placements(state, turn.seat)
            if compulsory:
                raise illegal(
                    f"linking: {act} links no two identical treasures, but a placement that "
                    f"does exists (e.g. {linking[0]}); linking is compulsory when possible"
                )

    def _place(self, state: CardsState, turn: Turn, act: Place) -> list[JSON]:
        """Lay the card; enter the take phase only if some non-empty take is valid."""
        player = state.players[turn.seat]
        card = player.hand.pop(act.card)
        opens = rotate(DECK[card].opens, act.rotation)
        state.layout.cards[act.pos] = (card, opens)
        events: list[JSON] = [
            {
                "type": "placed",
                "seat": turn.seat,
                "hand": act.card,
                "pos": list(act.pos),
                "rotation": act.rotation,
                "card": DECK[card].to_dict(opens),
            }
        ]
        candidates = self._candidates(state.layout, act.pos)
        choices = self.take_choices(state.layout, candidates)
        if any(choice.cells for choice in choices):
            turn.phase, turn.placed, turn.candidates = "take", act.pos, candidates
            events.append(
                {"type": "can_take", "seat": turn.seat, "cards": [list(c) for c in candidates]}
            )
            return events
        if candidates and rules_version(state.options) >= 2:
            # Joined to cards of its motif, none of which may go (the layout would come
            # apart): the turn passes with nothing taken, which players are told, not left
            # to guess from a take step that never came. (A game of rules version 1
            # re-plays with the events it was played with.)
            events.append(
                {"type": "no_take", "seat": turn.seat, "cards": [list(c) for c in candidates]}
            )
        return events + self._end_turn(state, turn)

    @staticmethod
    def _candidates(layout: Layout, placed: Cell) -> tuple[Cell, ...]:
        """Other cards of the placed card's motif joined to it by a path, sorted."""
        motif = layout.motif(placed)
        joined = layout.paths_from(placed)
        found = [c for c in joined if c != placed and layout.motif(c) == motif]
        return tuple(sorted(found, key=lambda c: (c[1], c[0])))

    # take

    def _check_take(self, state: CardsState, turn: Turn, act: Take) -> None:
        if turn.phase != "take":
            raise illegal("place-first: nothing may be taken before placing a card")
        for cell in act.cells:
            if cell not in turn.candidates:
                raise illegal(
                    f"same-motif-joined: {cell_text(cell)} is not a card of the placed "
                    "motif joined to it by a path"
                )
        if not state.layout.joined_by_edges(frozenset(act.cells)):
            raise illegal("one-layout: the cards left would not all be joined by edges")

    def _take(self, state: CardsState, turn: Turn, act: Take) -> list[JSON]:
        player = state.players[turn.seat]
        taken = []
        for cell in act.cells:
            card, _ = state.layout.cards.pop(cell)
            player.taken.append(card)
            taken.append({"pos": list(cell), "motif": DECK[card].motif})
        event = {"type": "took", "seat": turn.seat, "cards": taken}
        return [event, *self._end_turn(state, turn)]

    # discard

    def _check_discard(self, state: CardsState, turn: Turn, act: Discard) -> None:
        if turn.phase != "place":
            raise illegal("take-first: choose which cards to take before anything else")
        hand = state.players[turn.seat].hand
        if act.card >= len(hand):
            raise illegal(f"no-card: your hand holds {len(hand)} card(s), no h{act.card}")
        if self.placements(state, turn.seat):
            raise illegal("discard: a hand card can be placed, so one must be placed")

    def _discard(self, state: CardsState, turn: Turn, act: Discard) -> list[JSON]:
        card = state.players[turn.seat].hand.pop(act.card)
        state.discarded.append(card)
        event = {"type": "discarded", "seat": turn.seat, "hand": act.card}
        event["card"] = DECK[card].to_dict()
        return [event, *self._end_turn(state, turn)]

    # the end of a turn

    def _end_turn(self, state: CardsState, turn: Turn) -> list[JSON]:
        """Draw back up to two while the pile lasts, then pass to the next seat holding
        cards (an empty hand is skipped); the game ends when no hand holds any."""
        seat = turn.seat
        hand = state.players[seat].hand
        drawn = []
        while len(hand) < HAND_SIZE and state.pile:
            drawn.append(state.pile.pop(0))
            hand.append(drawn[-1])
        events: list[JSON] = []
        if drawn:
            events.append(
                {"type": "drew", "seat": seat, "count": len(drawn),
                 "cards": [DECK[c].to_dict() for c in drawn]}
            )  # fmt: skip
        count = len(state.players)
        for step in range(1, count + 1):
            nxt = (seat + step) % count
            if state.players[nxt].hand:
                state.turn = Turn(nxt)
                return [*events, {"type": "turn", "seat": nxt}]
        state.turn = None
        scores = [len(p.taken) for p in state.players]
        best = max(scores)
        state.result = {"winners": [s for s, n in enumerate(scores) if n == best], "scores": scores}
        return [*events, {"type": "finished", **copy_result(state.result)}]

    # -- what viewers see -------------------------------------------------------------------

    def view(self, state: CardsState, viewer: int | None) -> JSON:
        """The layout, taken cards, hand sizes and pile size for all; one's own hand;
        everything once the game is finished."""
        return self._view(state, viewer, reveal=state.result is not None)

    def reveal(self, state: CardsState) -> JSON:
        """Every hand and the pile in order (top first), at any step."""
        return self._view(state, None, reveal=True)

    def _view(self, state: CardsState, viewer: int | None, reveal: bool) -> JSON:
        layout = state.layout
        cells = sorted(layout.cards, key=lambda c: (c[1], c[0]))
        view: JSON = {
            "variant": VARIANT,
            "seq": state.seq,
            "status": "playing" if state.result is None else "finished",
            "options": dict(state.options),
            "you": viewer,
            "turn": self._turn_view(state),
            "layout": [
                {"pos": list(c), **DECK[layout.cards[c][0]].to_dict(layout.cards[c][1])}
                for c in cells
            ],
            "pile": len(state.pile),
            "discarded": [DECK[c].to_dict() for c in state.discarded],
            "players": [
                self._player_view(state, seat, viewer, reveal) for seat in range(len(state.players))
            ],
            "result": self.result(state),
        }
        if reveal:
            view["pile_cards"] = [DECK[c].to_dict() for c in state.pile]
        return view

    @staticmethod
    def _turn_view(state: CardsState) -> JSON | None:
        """In phase `take`: the placed cell and, for each candidate, a shortest linking
        path (cells from the placed card to it), for the client to highlight."""
        turn = state.turn
        if turn is None:
            return None
        view: JSON = {"seat": turn.seat, "phase": turn.phase, "placed": None, "takeable": []}
        if turn.placed is not None:
            parents = state.layout.paths_from(turn.placed)
            view["placed"] = list(turn.placed)
            view["takeable"] = [
                {"pos": list(c), "path": [list(p) for p in path_to(parents, c)]}
                for c in turn.candidates
            ]
        return view

    def _player_view(self, state: CardsState, seat: int, viewer: int | None, reveal: bool) -> JSON:
        player = state.players[seat]
        view: JSON = {
            "seat": seat,
            "name": player.name,
            "color": COLORS[seat],
            "taken": [DECK[c].motif for c in player.taken],
            "hand_count": len(player.hand),
        }
        if reveal or seat == viewer:
            view["hand"] = [DECK[c].to_dict() for c in player.hand]
        turn = state.turn
        if seat == viewer and turn is not None and turn.seat == seat and turn.phase == "place":
            # own view only (it depends on the secret hand): the legal placements are
            # exactly the linking ones, for the client to highlight them as such
            view["must_link"] = self.allowed_placements(state, seat)[1]
        return view

    def redact_action(self, state: CardsState, seat: int, action: JSON, viewer: int | None) -> JSON:
        """Every action is public: a placed or discarded card is shown face up."""
        return dict(action)

    def redact_events(
        self, state: CardsState, events: list[JSON], viewer: int | None
    ) -> list[JSON]:
        """The only filter of events: a `drew` event's cards go to its seat alone (the
        others see the count), until the game is finished."""
        shown = []
        for event in events:
            if event.get("type") == "drew" and event.get("seat") != viewer and state.result is None:
                event = {k: v for k, v in event.items() if k != "cards"}
            shown.append(dict(event))
        return shown


ENGINE = CardsEngine()
