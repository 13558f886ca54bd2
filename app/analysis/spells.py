"""Team Edition: the spell combinations that could have collected a treasure this turn.

A treasure is collected by a stop, and a turn's first move is its only move until one is
collected, so what matters is the board spells cast before that move and the move
itself, with or without the player's modifier spell. A player holds Push and one other
spell (Rotate or Switch, which change the board; Traverse, Teleport or Escape, which
change a move). The lines tried, from the position the player faced:

- nothing, then the move;
- the push alone; the other board spell alone;
- the push, then the other board spell; for Switch also the switch, then the push (a
  switch across the pushed line is another switch once the line has moved, and a switch
  may move a face-down tile off the cell a push ejects, which bars it). Rotate then push
  is push then rotate of the carried tile, so it is not tried twice;
- each of them with the modifier spell on the move, when the player holds one.

The search is bounded: lines are tried by the number of spells they cast, and it stops at
the first count that collects (a line with fewer spells is the one shown). A turn that
can collect nothing costs the whole search: some 47 pushes times the turns or switches
of the tiles near the pawn. "Near" is a cut that loses nothing: a tile that is neither
reachable nor next to a reachable cell changes no path the pawn could take, except as an
Escape entry, so with Escape every edge tile is near too. Before a push, "near" is read
where the switched tiles stand once pushed, on the board after the push (read before
it, it lost the lines whose push carries the switched tile next to the pawn).

Everything is read from the seat's view. A face-down tile is a wall here as in the rules
(its face is unknown to the player), and `destinations` is the engine's own function,
which never reads a face-down tile's openings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.analysis.maze import path
from app.analysis.turns import JSON
from app.bots.maze import board_from_view, face_down_mask
from app.rules.actions import Push
from app.rules.board import (
    FIXED_CELLS,
    FULL,
    NOT_FIRST_COL,
    NOT_LAST_COL,
    SIZE,
    SLOTS,
    Board,
    Slot,
    carried,
    cell_of,
    cells_of,
    pos_of,
    rotate,
)
from app.rules.team import EDGE_MASK, MOVE_SPELLS, Rotate, Switch, destinations, orientations

_FIXED = frozenset(FIXED_CELLS)
SWITCH_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b)
    for a in range(SIZE * SIZE)
    for b in (a + 1, a + SIZE)
    if b < SIZE * SIZE
    and not (b == a + 1 and a % SIZE == SIZE - 1)
    and a not in _FIXED
    and b not in _FIXED
)
"""Every unordered pair of orthogonally adjacent movable cells (the engine accepts both
orders of each)."""


@dataclass(slots=True)
class Maze:
    """The board as the player sees it, the face-down tiles (by tile id, so they follow
    their tiles) and the player's pawn."""

    board: Board
    down: frozenset[int]
    here: int

    def down_mask(self) -> int:
        tiles = self.board.tiles
        return sum(1 << tiles.index(t) for t in self.down if t != self.board.spare)

    def pushed(self, push: JSON) -> Maze:
        slot = Slot(push["side"], push["index"])
        board = self.board.clone()
        board.push(slot, push["rotation"])
        return Maze(board, self.down, carried(slot, self.here))

    def switched(self, a: int, b: int) -> Maze:
        board = self.board.clone()
        board.tiles[a], board.tiles[b] = board.tiles[b], board.tiles[a]
        open_a, open_b = board.opens[a], board.opens[b]
        board.set_open(a, open_b)
        board.set_open(b, open_a)
        here = b if self.here == a else a if self.here == b else self.here
        return Maze(board, self.down, here)


@dataclass(slots=True)
class Line:
    """A way to collect: the board spells cast (engine actions, in order), then the move."""

    spells: list[JSON]
    modifier: str | None  # the move spell the move needs, if any
    start: int
    to: int
    treasure: str
    walk: list[list[int]]  # the plain walk; empty when the move needs its spell

    @property
    def cost(self) -> int:
        return len(self.spells) + (self.modifier is not None)

    def to_mark(self) -> JSON:
        pushes = [s for s in self.spells if s["type"] == "push"]
        return {
            "kind": "missed",
            "goal": "treasure",
            "treasure": self.treasure,
            "spells": self.spells,
            "modifier": self.modifier,
            "best": pushes[0] if pushes else None,
            "move": {"type": "move", "to": pos_of(self.to), "spell": self.modifier is not None},
            "to": pos_of(self.to),
            "path": self.walk,
        }


def _around(mask: int) -> int:
    """`mask` and its orthogonal neighbours."""
    return (
        mask
        | ((mask << 1) & NOT_FIRST_COL)
        | ((mask >> 1) & NOT_LAST_COL)
        | ((mask << SIZE) & FULL)
        | (mask >> SIZE)
    )


class Search:
    """The lines open to one seat at the start of its turn (`best` finds the cheapest)."""

    def __init__(self, view: JSON, wanted: set[str]) -> None:
        me = view["players"][view["you"]]
        used = view["turn"]["used"]
        spells = [s for s in me["spells"] if s not in used]
        self.has_push = "push" in spells
        other = next((s for s in spells if s != "push"), None)
        self.modifier = other if other in MOVE_SPELLS else None
        self.board_spell = other if other in ("rotate", "switch") else None
        forbidden = view["board"].get("forbidden")
        self.forbidden = None if forbidden is None else Slot(forbidden["side"], forbidden["index"])
        board = board_from_view(view)
        self.wanted_tiles = [t for t, info in enumerate(board.catalogue) if info.treasure in wanted]
        down = frozenset(cells_of(face_down_mask(view)))  # tile id = cell in a view board
        self.start = Maze(board, down, cell_of(*me["pos"]))
        self.tried = 0  # positions looked at (the bench reports it)

    def best(self) -> Line | None:
        if not [t for t in self.wanted_tiles if t not in self.start.down]:
            return None  # nothing wanted shows a face: no spell can make it collectable
        best: Line | None = None
        for count in range(3):
            for spells, maze in self._lines(count):
                line = self._collect(spells, maze)
                if line is not None and (best is None or line.cost < best.cost):
                    best = line
                    if best.cost == count:
                        return best
            if best is not None and best.cost <= count + 1:
                return best
        return best

    # -- the lines --------------------------------------------------------------------------

    def _lines(self, count: int) -> Iterator[tuple[list[JSON], Maze]]:
        """Every position reachable by casting `count` board spells."""
        start = self.start
        if count == 0:
            yield [], start
        elif count == 1:
            if self.has_push:
                for push in self.pushes(start):
                    yield [push], start.pushed(push)
            yield from self._second([], start)
        elif count == 2 and self.has_push and self.board_spell:
            for push in self.pushes(start):
                pushed = start.pushed(push)
                near = self._near(pushed)
                yield from self._second([push], pushed, near)
                if self.board_spell == "switch":
                    yield from self._switch_then(push, near)
            if self.board_spell == "switch":
                yield from self._switch_frees_push()

    def _switch_then(self, push: JSON, near: int) -> Iterator[tuple[list[JSON], Maze]]:
        """A switch, then `push`: the switches whose tiles stand near the pawn once pushed
        (`near`, read on the board after `push` alone). A tile on the pushed line moves one
        cell along it, so a switch across the line is no switch after the push; reading
        "near" before the push lost such lines (the switched tile carried next to the pawn
        by the push). A switch that puts a face-down tile where `push` ejects bars it."""
        line = Slot(push["side"], push["index"]).line
        end = line[-1]
        image = {cell: line[i + 1] for i, cell in enumerate(line[:-1])}
        for a, b in SWITCH_PAIRS:
            # The tile switched into the ejected cell leaves: its change is the other's.
            if not any(near >> image.get(x, x) & 1 for x in (a, b) if x != end):
                continue
            maze = self.start.switched(a, b)
            if maze.board.tiles[end] in maze.down:
                continue
            yield [Switch(a, b).to_dict(), push], maze.pushed(push)

    def _switch_frees_push(self) -> Iterator[tuple[list[JSON], Maze]]:
        """A switch that moves a face-down tile off the cell a push would eject (which
        bars the push), then that push."""
        start = self.start
        for slot in SLOTS:
            end = slot.line[-1]
            if slot == self.forbidden or start.board.tiles[end] not in start.down:
                continue
            for a, b in SWITCH_PAIRS:
                if end not in (a, b):
                    continue
                maze = start.switched(a, b)
                for push in self.pushes(maze):
                    if (push["side"], push["index"]) == (slot.side, slot.index):
                        yield [Switch(a, b).to_dict(), push], maze.pushed(push)

    def pushes(self, maze: Maze) -> Iterator[JSON]:
        """The push spell's choices: not undoing Daedalus's push, not pushing out a
        face-down tile; one rotation per distinct look of the spare."""
        board = maze.board
        looks = {rotate(board.spare_open, r): r for r in (3, 2, 1, 0)}
        for slot in SLOTS:
            if slot == self.forbidden or board.tiles[slot.line[-1]] in maze.down:
                continue
            for r in sorted(looks.values()):
                yield Push(slot.side, slot.index, r).to_dict()

    def _near(self, maze: Maze) -> int:
        down = maze.down_mask()
        reach = destinations(maze.board, down, maze.here, self.modifier)
        near = _around(reach)
        return near | EDGE_MASK if self.modifier == "escape" else near

    def _second(
        self, before: list[JSON], maze: Maze, near: int | None = None
    ) -> Iterator[tuple[list[JSON], Maze]]:
        """`before`, then the Rotate or Switch spell, on the tiles near the pawn (`near`,
        when the caller has it)."""
        if self.board_spell is None:
            return
        if near is None:
            near = self._near(maze)
        board = maze.board
        if self.board_spell == "rotate":
            for cell in cells_of(near):
                if cell in _FIXED or board.tiles[cell] in maze.down:
                    continue
                was = board.opens[cell]
                for mask in orientations(board.info(cell).shape):
                    if mask == was:
                        continue
                    turned = Maze(board.clone(), maze.down, maze.here)
                    turned.board.set_open(cell, mask)
                    yield [*before, Rotate(cell, mask).to_dict()], turned
            return
        for a, b in SWITCH_PAIRS:
            if near >> a & 1 or near >> b & 1:
                yield [*before, Switch(a, b).to_dict()], maze.switched(a, b)

    # -- collecting -------------------------------------------------------------------------

    def _collect(self, spells: list[JSON], maze: Maze) -> Line | None:
        """The line's move onto a face-up wanted treasure: a plain one if any, else one
        with the modifier spell."""
        self.tried += 1
        board = maze.board
        down = maze.down_mask()
        targets = 0
        for tile in self.wanted_tiles:
            if tile != board.spare and tile not in maze.down:
                targets |= 1 << board.tiles.index(tile)
        if not targets:
            return None
        plain = destinations(board, down, maze.here, None) & targets
        if plain:
            to = cells_of(plain)[0]
            walk = path(board, maze.here, to, down)
            return Line(spells, None, maze.here, to, _treasure(board, to), walk)
        if self.modifier is None:
            return None
        spelled = destinations(board, down, maze.here, self.modifier) & targets
        if not spelled:
            return None
        to = cells_of(spelled)[0]
        return Line(spells, self.modifier, maze.here, to, _treasure(board, to), [])


def _treasure(board: Board, cell: int) -> str:
    treasure = board.treasure_at(cell)
    assert treasure is not None
    return treasure
