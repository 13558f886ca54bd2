"""Team Edition: a turn that could have collected a treasure and collected none.

What counts as collectable follows the rules: a face-up tile showing a treasure of the
player's own board (expert: the left one only), or, once the deck and their board are
empty, one of the other players' boards. The judge tries a plain walk, and every push the
seat's push spell allowed followed by a walk (face-down tiles block every path), from the
seat's own view: face-down faces stay unknown to it as to the player. The other spells
(rotate, switch, traverse, teleport, escape) are not searched: a turn marked **missed**
surely missed, one not marked may still have had a chance through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.analysis.maze import after, path
from app.analysis.turns import JSON, Turn, of_type, played_turns, preview
from app.bots.maze import board_from_view, slot_of
from app.rules.board import Board, carried, cell_of


def starts(action: JSON, previous: JSON | None) -> bool:
    return previous is None or previous.get("type") == "end"


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts, by_seat=True)
    turns = []
    for turn in played:
        judged = Turn(turn.seq, turn.seat)
        if turn.view.get("turn") and not of_type(turn.events, "collected", turn.seat):
            missed = _missed(turn.view, turn.legal)
            if missed is not None:
                if missed["best"] is not None:
                    missed["frame"] = preview(game, turn, missed["best"])
                judged.marks.append(missed)
        turns.append(judged)
    return turns


def collectable(view: JSON) -> set[str]:
    players = view["players"]
    me = players[view["you"]]
    expert = view["options"].get("mode") == "expert"

    def wanted(board: list[str]) -> list[str]:
        return board[:1] if expert else board

    if me["board"]:
        return set(wanted(me["board"]))
    if view.get("treasure_deck", 0) == 0:
        return {t for p in players for t in wanted(p["board"])}
    return set()


def _targets(board: Board, wanted: set[str]) -> list[int]:
    """Cells showing a wanted treasure (a face-down tile, read from the view, shows none
    and has no openings: it is a wall, as the rules make it for walking)."""
    return [cell for cell in range(49) if board.treasure_at(cell) in wanted]


def _missed(view: JSON, legal: list[JSON]) -> JSON | None:
    wanted = collectable(view)
    if not wanted or view["turn"].get("phase") != "play":
        return None
    board = board_from_view(view)
    here = cell_of(*view["players"][view["you"]]["pos"])
    options: list[tuple[JSON | None, Board, int]] = [(None, board, here)]
    for push in (a for a in legal if a["type"] == "push"):
        options.append((push, after(board, push), carried(slot_of(push), here)))
    for push, trial, start in options:
        reach = trial.reach_mask(start)
        for cell in _targets(trial, wanted):
            if cell != start and reach >> cell & 1:
                return {
                    "kind": "missed",
                    "goal": "treasure",
                    "treasure": trial.treasure_at(cell),
                    "best": push,
                    "path": path(trial, start, cell),
                }
    return None
