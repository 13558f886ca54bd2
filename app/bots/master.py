"""A greedy Master Labyrinth player, from its own view and `legal` only.

Random play rarely ends a master game (it ends only when someone wins the final duel), so
tests and load runs use this: push so that the lowest token (or, once the final duel is
open, the cell in front of the dragon's head) becomes reachable, walk there, play every
card for a coin, re-roll failed rolls, always challenge.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots.greedy import board_from_view
from app.rules.board import Board, Slot, carried, cell_of, cells_of, row_col

Action = dict[str, Any]
LAIR_MASK = 1 << cell_of(3, 3)


def _goals(view: dict[str, Any], here: int) -> set[int]:
    """The cells the player wants to walk onto: the lowest tokens' (not its own cell, as
    staying takes nothing), or the cell in front of the dragon's head in the final."""
    if view["stage"] == "final":
        return {cell_of(*view["dragon"]["front"])}
    lowest = view["lowest"]
    return {cell_of(*t["pos"]) for t in view["tokens"] if t["value"] == lowest} - {here}


def _closeness(reach: int, goals: set[int]) -> int:
    if not goals:
        return 0
    if any(reach >> g & 1 for g in goals):
        return 100
    return -min(
        abs(r1 - r2) + abs(c1 - c2)
        for (r1, c1) in map(row_col, cells_of(reach))
        for (r2, c2) in map(row_col, goals)
    )


def _best_push(
    view: dict[str, Any], board: Board, pushes: list[Action], rng: random.Random
) -> Action:
    me = view["players"][view["you"]]
    here = cell_of(*me["pos"])
    final = view["stage"] == "final"
    scored: list[tuple[int, Action]] = []
    for action in pushes:
        slot = Slot(action["side"], action["index"])
        trial = board.clone()
        trial.push(slot, action["rotation"])
        moved = {
            **view,
            "tokens": [
                {"pos": list(row_col(carried(slot, cell_of(*t["pos"])))), "value": t["value"]}
                for t in view["tokens"]
            ],
        }
        start = carried(slot, here)
        goals = _goals(moved, start) if not final else _goals(view, start)
        goals.discard(cell_of(3, 3))
        scored.append((_closeness(trial.reach_mask_blocked(start, LAIR_MASK), goals), action))
    top = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == top])


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """One of `legal` for the seat of `view`."""
    kinds = {a["type"]: a for a in legal}
    for preferred in ("coin", "challenge"):
        if preferred in kinds:
            return kinds[preferred]
    if "reroll" in kinds:
        roll = view["turn"]["roll"]
        if view["turn"]["phase"] == "reroll" or roll <= 3:
            return kinds["reroll"]
        return kinds["accept"]
    if "double_turn" in kinds:
        return kinds["double_turn"] if rng.random() < 0.5 else kinds["end_turn"]
    pushes = [a for a in legal if a["type"] == "push"]
    if pushes:
        return _best_push(view, board_from_view(view), pushes, rng)
    moves = [a for a in legal if a["type"] == "move"]
    if moves:
        here = cell_of(*view["players"][view["you"]]["pos"])
        goals = _goals(view, here)
        hits = [m for m in moves if cell_of(*m["to"]) in goals]
        return hits[0] if hits else rng.choice(moves)
    return rng.choice(legal)
