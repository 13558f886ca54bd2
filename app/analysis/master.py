"""Master Labyrinth: a lowest-value token within reach that the turn did not take.

A token may be taken when the adventurer walks onto it from another cell and it is of
the lowest value still on the board (never under the lair). For every push x rotation
the seat could make, the judge walks the board from the pawn (the lair blocks every
path) and asks whether such a token lies within reach; a turn that could take one and
took none is marked **missed**, with the push and the walk. All of it comes from the
seat's view: tokens, the lair and the board are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.analysis.maze import after, path
from app.analysis.turns import JSON, Turn, of_type, played_turns, preview
from app.bots.maze import board_from_view, slot_of
from app.rules.board import carried, cell_of


def starts(action: JSON, previous: JSON | None) -> bool:
    return action.get("type") == "push"


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts)
    turns = []
    for turn in played:
        judged = Turn(turn.seq, turn.seat)
        if not of_type(turn.events, "took", turn.seat):
            missed = _missed(turn.view, [a for a in turn.legal if a["type"] == "push"])
            if missed is not None:
                missed["frame"] = preview(game, turn, missed["best"])
                judged.marks.append(missed)
        turns.append(judged)
    return turns


def _missed(view: JSON, pushes: list[JSON]) -> JSON | None:
    lowest = view.get("lowest")
    if lowest is None:
        return None
    board = board_from_view(view)
    here = cell_of(*view["players"][view["you"]]["pos"])
    lair = cell_of(*view["lair"])
    tokens = [cell_of(*t["pos"]) for t in view["tokens"] if t["value"] == lowest]
    best: tuple[int, JSON, list[list[int]]] | None = None
    for push in pushes:
        slot = slot_of(push)
        trial = after(board, push)
        start = carried(slot, here)
        reach = trial.reach_mask_blocked(start, 1 << lair)
        for token in tokens:
            cell = carried(slot, token)
            if cell != start and cell != lair and reach >> cell & 1:
                walk = path(trial, start, cell, 1 << lair)
                if best is None or len(walk) < best[0]:
                    best = (len(walk), push, walk)
    if best is None:
        return None
    return {"kind": "missed", "goal": "token", "value": lowest, "best": best[1], "path": best[2]}
