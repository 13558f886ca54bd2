"""A greedy player for the sliding games: push so that the target becomes reachable.

It rebuilds a board from its own view (never from hidden state), tries every push it is
allowed, and prefers the one that lets it walk onto its target, else the one that brings
it nearest. Good enough to finish games quickly in tests and load runs.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.maze import board_from_view
from app.rules.board import SIZE, Board, Slot, carried, cell_of, cells_of, row_col

__all__ = ["board_from_view", "choose"]

Action = dict[str, Any]


def _goal_tile(board: Board, me: dict[str, Any]) -> int | None:
    """The tile id the player wants to stand on: its target's tile, or its home corner."""
    target = me.get("target")
    if target is None:
        return board.tiles[cell_of(*me["home"])]
    for tile_id, info in enumerate(board.catalogue):
        if info.treasure == target:
            return tile_id
    return None


def _distance(a: int, b: int) -> int:
    (ar, ac), (br, bc) = row_col(a), row_col(b)
    return abs(ar - br) + abs(ac - bc)


def _score(reach: int, goal_cell: int | None) -> int:
    if goal_cell is None:
        return -2 * SIZE
    if reach >> goal_cell & 1:
        return 100
    return -min(_distance(c, goal_cell) for c in cells_of(reach))


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """One of `legal`: the best push or move for this view, ties broken by `rng`."""
    me = view["players"][view["you"]]
    board = board_from_view(view)
    goal = _goal_tile(board, me)
    here = cell_of(*me["pos"])
    pushes = [a for a in legal if a["type"] == "push"]
    moves = [a for a in legal if a["type"] == "move"]
    if moves:
        goal_cell = board.cell_of_tile(goal) if goal is not None else None
        if goal_cell is not None and any(cell_of(*m["to"]) == goal_cell for m in moves):
            return {"type": "move", "to": list(row_col(goal_cell))}
        if goal_cell is None:
            return rng.choice(moves)
        best = min(_distance(cell_of(*m["to"]), goal_cell) for m in moves)
        return rng.choice([m for m in moves if _distance(cell_of(*m["to"]), goal_cell) == best])
    if pushes:
        scored: list[tuple[int, Action]] = []
        for action in pushes:
            slot = Slot(action["side"], action["index"])
            trial = board.clone()
            trial.push(slot, action["rotation"])
            goal_cell = trial.cell_of_tile(goal) if goal is not None else None
            scored.append((_score(trial.reach_mask(carried(slot, here)), goal_cell), action))
        top = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score == top])
    return rng.choice(legal)
