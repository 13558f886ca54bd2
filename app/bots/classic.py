"""Computer players for classic Labyrinth (events and the younger-children variant too).

- `easy` pushes at random half the time and often wanders instead of walking to its
  target: legal and plausible, but a beginner beats it.
- `medium` is the one-turn greedy player (`greedy.py`): the push and move that get
  closest to its target.
- `hard` searches: every push x rotation, then, when the target is out of reach this
  turn, the cells it could stop on, scored by how many of next turn's pushes would bring
  the target within reach; among equally good pushes it denies the next player (its home
  corner once it has found everything, else the unfound treasures it may be after). It
  uses events: a swap or an extra push that reaches the target, the best card of a peek
  or an exchange.

All of it reads the seat's view and `legal` only: the opponents' targets are unknown to
it as they are to a human in its seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots import greedy
from app.bots.maze import (
    DIST,
    FAR,
    Action,
    best_of,
    board_from_view,
    by_type,
    declines,
    fallback,
    nearest,
    slot_of,
    tile_with,
)
from app.rules.board import SLOTS, Board, Slot, carried, cell_of, cells_of, row_col

VARIANT = "classic"

ROTATIONS = range(4)
HIT = 1000.0
# How much the next player's chances weigh against this player's own progress.
DENY_FIND = 200.0
DENY_WIN = 900.0
SECOND_PLY_PUSHES = 12  # pushes looked at two turns deep (time, see bench/bots.py)
SECOND_PLY_CELLS = 4


@dataclass(slots=True)
class Known:
    """What the seat's view says, in board terms."""

    board: Board
    here: int
    goal: int | None  # the cell to end on (target's tile, or home); None: on the spare
    goal_on_spare: bool
    opponents: list[tuple[int, int, int]]  # next players in turn order: (pos, home, remaining)
    treasure_tiles: frozenset[int]  # tiles of unfound treasures other than the target


def read(view: dict[str, Any]) -> Known:
    board = board_from_view(view)
    you = view["you"]
    players = view["players"]
    me = players[you]
    found = {t for p in players for t in p.get("found", [])}
    target = me.get("target")
    goal: int | None
    on_spare = False
    if target is None:
        goal = cell_of(*me["home"])
    else:
        tile = tile_with(board, target)
        goal = board.cell_of_tile(tile) if tile is not None else None
        on_spare = tile is not None and goal is None
    order = [players[(you + k) % len(players)] for k in range(1, len(players))]
    opponents = [(cell_of(*p["pos"]), cell_of(*p["home"]), p["remaining"]) for p in order]
    tiles = frozenset(
        i
        for i, info in enumerate(board.catalogue)
        if info.treasure is not None and info.treasure not in found and info.treasure != target
    )
    return Known(board, cell_of(*me["pos"]), goal, on_spare, opponents, tiles)


def goal_after(slot: Slot, goal: int | None, on_spare: bool) -> int | None:
    """The goal's cell after a push at `slot`: carried along its line, None once ejected;
    a goal on the spare comes in at the slot."""
    if goal is None:
        return slot.line[0] if on_spare else None
    if goal == slot.line[-1]:
        return None
    return carried(slot, goal)


def _move_to(cell: int) -> Action:
    return {"type": "move", "to": list(row_col(cell))}


def _move_cells(moves: list[Action]) -> list[int]:
    return [cell_of(*m["to"]) for m in moves]


# -- easy -------------------------------------------------------------------------------


def choose_easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """A beginner: pushes at random half the time, and walks to its target when it sees
    it only most of the time, otherwise somewhere near it or anywhere."""
    kinds = by_type(legal)
    if "move" in kinds:
        known = read(view)
        cells = _move_cells(kinds["move"])
        goal = known.goal
        if goal is not None and goal in cells and rng.random() < 0.7:
            return _move_to(goal)
        if goal is not None and rng.random() < 0.4:
            best = min(DIST[c][goal] for c in cells)
            return _move_to(rng.choice([c for c in cells if DIST[c][goal] == best]))
        return _move_to(rng.choice(cells))
    if "push" in kinds:
        if rng.random() < 0.5:
            return rng.choice(kinds["push"])
        return greedy.choose(view, kinds["push"], rng)
    return fallback(legal, rng)


# -- medium -----------------------------------------------------------------------------


def choose_medium(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """One-turn greedy (`greedy.choose`), with unknown action types handled sensibly."""
    kinds = by_type(legal)
    if "move" in kinds or "push" in kinds:
        return greedy.choose(view, [a for a in legal if a["type"] in ("move", "push")], rng)
    return fallback(legal, rng)


# -- hard -------------------------------------------------------------------------------


def _next_turn_hits(board: Board, cell: int, goal: int | None, on_spare: bool) -> int:
    """How many of the next turn's pushes would let a pawn on `cell` reach the goal."""
    hits = 0
    for slot in SLOTS:
        g = goal_after(slot, goal, on_spare)
        if g is None:
            continue
        for rotation in ROTATIONS:
            if board.reach_after_push(slot, rotation, cell) >> g & 1:
                hits += 1
    return hits


def _stop_value(board: Board, cell: int, goal: int | None, on_spare: bool) -> float:
    """How good it is to end the turn on `cell`: next turn's chances, then closeness."""
    closeness = -(DIST[cell][goal] if goal is not None else FAR)
    return _next_turn_hits(board, cell, goal, on_spare) + closeness / 100


def _threat(known: Known, board: Board, forbidden: Slot) -> float:
    """What the next player can do after this board: win (home reachable once they have
    found everything), or the share of the unfound treasures they could reach."""
    if not known.opponents:
        return 0.0
    pos, home, remaining = known.opponents[0]
    if remaining == 0:
        for slot in SLOTS:
            if slot == forbidden:
                continue
            for rotation in ROTATIONS:
                if board.reach_after_push(slot, rotation, pos) >> home & 1:
                    return DENY_WIN
        return 0.0
    tiles = known.treasure_tiles
    if not tiles:
        return 0.0
    cells = [c for c, t in enumerate(board.tiles) if t in tiles]
    spare_has = board.spare in tiles
    best = 0
    for slot in SLOTS:
        if slot == forbidden:
            continue
        moved = [g for g in (goal_after(slot, c, False) for c in cells) if g is not None]
        if spare_has:
            moved.append(slot.line[0])
        for rotation in ROTATIONS:
            reach = board.reach_after_push(slot, rotation, pos)
            count = sum(1 for g in moved if reach >> g & 1)
            best = max(best, count)
    return DENY_FIND * best / len(tiles)


def _best_push(known: Known, pushes: list[Action], rng: random.Random) -> tuple[float, Action]:
    board, here = known.board, known.here
    first: list[tuple[float, Action, int, int | None]] = []
    for action in pushes:
        slot = slot_of(action)
        reach = board.reach_after_push(slot, action["rotation"], here)
        g = goal_after(slot, known.goal, known.goal_on_spare)
        if g is not None and reach >> g & 1:
            first.append((HIT, action, reach, g))
        else:
            first.append((-float(nearest(reach, g)), action, reach, g))
    first.sort(key=lambda item: item[0], reverse=True)
    scored: list[tuple[float, Action]] = []
    hits = [item for item in first if item[0] == HIT]
    if hits:
        # Any of these finds the card: deny the next player among them.
        for _, action, _, _ in hits[:SECOND_PLY_PUSHES]:
            trial = board.clone()
            trial.push(slot_of(action), action["rotation"])
            scored.append((HIT - _threat(known, trial, slot_of(action).opposite), action))
        return max(s for s, _ in scored), best_of(scored, rng)
    for _, action, reach, g in first[:SECOND_PLY_PUSHES]:
        slot = slot_of(action)
        trial = board.clone()
        trial.push(slot, action["rotation"])
        on_spare = g is None and known.goal is not None and slot.line[-1] == known.goal
        cells = sorted(cells_of(reach), key=lambda c: DIST[c][g] if g is not None else 0)
        value = max(_stop_value(trial, c, g, on_spare) for c in cells[:SECOND_PLY_CELLS])
        scored.append((value - _threat(known, trial, slot.opposite) / 40, action))
    return max(s for s, _ in scored), best_of(scored, rng)


def _best_move(known: Known, moves: list[Action], rng: random.Random) -> tuple[float, Action]:
    cells = _move_cells(moves)
    goal = known.goal
    if goal is not None and goal in cells:
        return HIT, _move_to(goal)
    ranked = sorted(cells, key=lambda c: DIST[c][goal] if goal is not None else 0)
    scored = [
        (_stop_value(known.board, c, goal, known.goal_on_spare), _move_to(c))
        for c in ranked[: 2 * SECOND_PLY_CELLS]
    ]
    return max(s for s, _ in scored), best_of(scored, rng)


def _best_swap(view: dict[str, Any], swaps: list[Action], known: Known) -> Action | None:
    """A swap that puts the pawn where its goal is reachable (or much nearer)."""
    board, goal = known.board, known.goal
    if goal is None:
        return None
    current = nearest(board.reach_mask(known.here), goal)
    best: tuple[int, Action] | None = None
    for action in swaps:
        pos = cell_of(*view["players"][action["with"]]["pos"])
        d = nearest(board.reach_mask(pos), goal)
        if d < current and (best is None or d < best[0]):
            best = (d, action)
    return best[1] if best else None


def _best_pick(view: dict[str, Any], picks: list[Action], known: Known) -> Action:
    """The card whose treasure is reachable now, else the nearest one."""
    reach = known.board.reach_mask(known.here)

    def distance(action: Action) -> int:
        tile = tile_with(known.board, action["treasure"])
        cell = known.board.cell_of_tile(tile) if tile is not None else None
        return nearest(reach, cell)

    return min(picks, key=distance)


def choose_hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = by_type(legal)
    known = read(view)
    if "pick" in kinds:
        return _best_pick(view, kinds["pick"], known)
    moves, pushes = kinds.get("move", []), kinds.get("push", [])
    if moves:
        if "swap" in kinds and known.goal not in _move_cells(moves):
            swap = _best_swap(view, kinds["swap"], known)
            if swap is not None:
                return swap
        move_score, move = _best_move(known, moves, rng)
        if pushes and move_score < HIT:  # an extra push: use it if it does better
            push_score, push = _best_push(known, pushes, rng)
            if push_score >= HIT or push_score > move_score:
                return push
        if move_score < HIT:
            others = [a for a in legal if a["type"] not in ("move", "push", "swap")]
            opening = [a for a in others if not declines(a)]
            if opening:  # an event of a kind this player does not know: try it
                return opening[0]
        return move
    if pushes:
        return _best_push(known, pushes, rng)[1]
    return fallback(legal, rng)
