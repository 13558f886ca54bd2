"""What a card-game layout offers the next cards laid on it, for the hard player.

The hard player weighs a placement by what it leaves: the take the next player may expect
from the two cards it holds, and the take its own kept card (with the one it will draw)
may expect a turn later. Both are expectations over the cards nobody has seen, which is
all a seat knows of a rival's hand and of the pile; they need the best take of every
kind of card (motif x shape) on a layout, for every candidate placement, so it is
computed here from the layout's path groups in one sweep rather than by trying each
placement of each card (that would cost a hundred times more, past the time budget).

The sweep counts every card of the motif in the groups a card would join; the engine
may refuse part of such a take when the cards left would fall apart (a "bridge"), so
the figure is an upper bound, exact in nearly every layout. Everything here reads the
view's public facts only: the layout, the taken and discarded motifs, one's own hand.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from app.rules.board import BASE_OPENING, parse_open, rotate
from app.rules.cards import MOTIFS, SHAPES_PER_MOTIF, Layout, neighbours

Cell = tuple[int, int]
Kind = tuple[str, str]  # (motif, shape)
SHAPES = ("I", "L", "T")
# The distinct orientations of each shape (an I turned twice is the same I).
ORIENTATIONS: dict[str, tuple[int, ...]] = {
    shape: tuple(sorted({rotate(BASE_OPENING[shape], r) for r in range(4)})) for shape in SHAPES
}


def shape_of(opens: int) -> str:
    if bin(opens).count("1") == 3:
        return "T"
    return "I" if opens in (5, 10) else "L"


def bridges(cells: Collection[Cell]) -> set[Cell]:
    """The cards whose removal would split the layout in two (articulation points of
    the edge-adjacency graph): a take may never leave the layout split, so these cannot
    be taken, whatever links to them."""
    found: set[Cell] = set()
    if not cells:
        return found
    order: dict[Cell, int] = {}
    low: dict[Cell, int] = {}
    root = next(iter(cells))
    order[root] = low[root] = 0
    stack: list[tuple[Cell, Cell | None, list[Cell]]] = [(root, None, _adjacent(root, cells))]
    children = 0
    while stack:
        cell, parent, todo = stack[-1]
        if todo:
            other = todo.pop()
            if other == parent:
                continue
            if other in order:
                low[cell] = min(low[cell], order[other])
                continue
            order[other] = low[other] = len(order)
            stack.append((other, cell, _adjacent(other, cells)))
            if cell == root:
                children += 1
            continue
        stack.pop()
        if parent is not None:
            low[parent] = min(low[parent], low[cell])
            if parent != root and low[cell] >= order[parent]:
                found.add(parent)
    if children > 1:
        found.add(root)
    return found


def _adjacent(cell: Cell, cells: Collection[Cell]) -> list[Cell]:
    return [other for _, other, _ in neighbours(cell) if other in cells]


def offers(layout: Layout) -> dict[Kind, int]:
    """For each kind of card, the most cards of its motif one card of it could take if
    laid now (0 when it would link to none). Cards that would hold the layout together
    are not counted (see `bridges`); a card laid against two or more may close a loop
    and free some, so the bridges are found again with it there."""
    members: list[list[Cell]] = []
    group: dict[Cell, int] = {}
    for start in layout.cards:
        if start not in group:
            members.append(list(layout.paths_from(start)))
            for cell in members[-1]:
                group[cell] = len(members) - 1

    def tallies(fixed: set[Cell]) -> list[dict[str, int]]:
        counts = []
        for cells in members:
            tally: dict[str, int] = {}
            for cell in cells:
                if cell not in fixed:
                    motif = layout.motif(cell)
                    tally[motif] = tally.get(motif, 0) + 1
            counts.append(tally)
        return counts

    fixed = bridges(layout.cards)
    base = tallies(fixed)
    best: dict[Kind, int] = dict.fromkeys(((m, s) for m in MOTIFS for s in SHAPES), 0)
    for cell in layout.frontier():
        facing: list[tuple[int, int]] = []
        touching: list[Cell] = []
        for bit, other, back in neighbours(cell):
            laid = layout.cards.get(other)
            if laid is not None:
                touching.append(other)
                if laid[1] & back:
                    facing.append((bit, group[other]))
        if not facing:
            continue
        if len(touching) == 1:
            # Every shape turns to face its one neighbour, which then holds the new
            # card to the layout: that neighbour cannot be taken.
            (_, joined), neighbour = facing[0], touching[0]
            held = layout.motif(neighbour) if neighbour not in fixed else None
            for motif in MOTIFS:
                take = base[joined].get(motif, 0) - (motif == held)
                for shape in SHAPES:
                    if take > best[(motif, shape)]:
                        best[(motif, shape)] = take
            continue
        counts = tallies(bridges({*layout.cards, cell}))
        for shape in SHAPES:
            for opens in ORIENTATIONS[shape]:
                groups = {g for bit, g in facing if opens & bit}
                for motif in MOTIFS:
                    take = sum(counts[g].get(motif, 0) for g in groups)
                    if take > best[(motif, shape)]:
                        best[(motif, shape)] = take
    return best


def unseen_kinds(view: Mapping[str, Any]) -> dict[Kind, float]:
    """How many cards of each kind this seat has not seen: the others' hands and the
    pile. A taken card shows only its motif, so its shape is spread over the shapes of
    that motif not yet seen."""
    printed: dict[str, int] = {}
    for shape in SHAPES_PER_MOTIF:
        printed[shape] = printed.get(shape, 0) + 1
    known: dict[Kind, int] = {}
    motif_only: dict[str, int] = dict.fromkeys(MOTIFS, 0)
    me = view["players"][view["you"]]
    for card in [*view["layout"], *me.get("hand", ()), *view.get("discarded", ())]:
        kind = (card["motif"], shape_of(parse_open(card["open"])))
        known[kind] = known.get(kind, 0) + 1
    for player in view["players"]:
        for motif in player["taken"]:
            motif_only[motif] = motif_only.get(motif, 0) + 1
    unseen: dict[Kind, float] = {}
    for motif in MOTIFS:
        left = {s: max(0, n - known.get((motif, s), 0)) for s, n in printed.items()}
        room = sum(left.values())
        total = max(0, room - motif_only.get(motif, 0))
        for shape, n in left.items():
            if n and total:
                unseen[(motif, shape)] = n * total / room
    return unseen


def expected_best(
    values: Mapping[Kind, int], pool: Mapping[Kind, float], draws: int, sure: Sequence[int] = ()
) -> float:
    """The expected best of `draws` cards drawn (without replacement) from `pool`, each
    worth `values[kind]`, together with cards `sure` to be held (worth those values)."""
    floor = max(sure, default=0)
    total = sum(pool.values())
    if draws <= 0 or total <= 0:
        return float(floor)
    by_value: dict[int, float] = {}
    for kind, count in pool.items():
        value = values.get(kind, 0)
        by_value[value] = by_value.get(value, 0.0) + count
    draws = min(draws, int(total)) or 1
    expected, below = 0.0, 0.0
    previous_all_below = 0.0  # P(every draw is worth less than the current value)
    for value in sorted(by_value):
        below += by_value[value]
        all_below = 1.0
        for i in range(draws):
            all_below *= max(0.0, below - i) / (total - i)
        expected += max(value, floor) * (all_below - previous_all_below)
        previous_all_below = all_below
    return expected
