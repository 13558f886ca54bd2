"""Classic Labyrinth: could the player reach their target this turn, and did they?

- **missed**: some push x rotation left a walk to the current goal (the target card's
  tile, or home once every card is found), and the turn did not end there. The mark
  carries the best such push (the shortest walk) and that walk, for the board.
- **gift**: the push let the next player reach *their* target on their turn when another
  push, as good for the player (it too reached their own goal, when the push made did),
  would not have. Judged in hindsight: the giver could not see that target (the
  page says so); only plain turns (one push, no swap) are judged, since an extra push or
  a swap changes what the next player finds.

The search is the one the `hard` computer player makes (every push x rotation, reach as
bitmasks), from the seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.analysis.maze import after, can_reach_next_turn, goal_after, path, reaching_pushes
from app.analysis.turns import JSON, Played, Turn, of_type, played_turns, preview
from app.bots.classic import Known, read
from app.bots.maze import slot_of, tile_with
from app.rules.board import carried, cell_of


def starts(action: JSON, previous: JSON | None) -> bool:
    """A push opens a turn, unless it is an `extra_push` (a push right after a push)."""
    return action.get("type") == "push" and (previous is None or previous.get("type") != "push")


def judge(record: Mapping[str, Any]) -> list[Turn]:
    played, game = played_turns(record, starts)
    winners = set((game.result or {}).get("winners", []))
    turns = []
    for k, turn in enumerate(played):
        judged = Turn(turn.seq, turn.seat)
        known = read(turn.view)
        pushes = [a for a in turn.legal if a["type"] == "push"]
        missed = _missed(known, turn, pushes, won=turn is played[-1] and turn.seat in winners)
        if missed is not None:
            missed["frame"] = preview(game, turn, missed["best"])
            judged.marks.append(missed)
        nxt = played[k + 1] if k + 1 < len(played) else None
        if nxt is not None and nxt.seat != turn.seat and _plain(turn):
            gift = _gift(known, turn, pushes, nxt)
            if gift is not None:
                judged.marks.append(gift)
        turns.append(judged)
    return turns


def _missed(known: Known, turn: Played, pushes: list[JSON], won: bool) -> JSON | None:
    if known.goal is None and not known.goal_on_spare:
        return None
    reaching = reaching_pushes(known.board, known.here, known.goal, known.goal_on_spare, pushes)
    if not reaching or won or of_type(turn.events, "found", turn.seat):
        return None
    best: tuple[int, JSON, list[list[int]]] | None = None
    for push in reaching:
        slot = slot_of(push)
        goal = goal_after(slot, known.goal, known.goal_on_spare)
        assert goal is not None  # reaching_pushes checked it
        walk = path(after(known.board, push), carried(slot, known.here), goal)
        if best is None or len(walk) < len(best[2]):
            best = (len(walk), push, walk)
    assert best is not None
    return {
        "kind": "missed",
        "goal": "home" if turn.view["players"][turn.seat].get("target") is None else "target",
        "best": best[1],
        "path": best[2],
        "options": len(reaching),
    }


def _plain(turn: Played) -> bool:
    """One push, no swap: the board and pawns the next player finds follow from the push."""
    kinds = [a.get("type") for a in turn.actions]
    return kinds.count("push") == 1 and "swap" not in kinds


def _gift(known: Known, turn: Played, pushes: list[JSON], nxt: Played) -> JSON | None:
    """Whether the push made put the next player's goal within their reach when another
    would not (within reach: they may still not take it, and the page says so)."""
    theirs = read(nxt.view)
    if not _reaches(theirs, nxt.legal):
        return None
    me = turn.view["players"][nxt.seat]
    pos = cell_of(*me["pos"])
    target = nxt.view["players"][nxt.seat].get("target")
    goal_tile: int | None = None
    goal_cell: int | None
    if target is None:
        goal_cell = cell_of(*me["home"])
    else:
        goal_tile = tile_with(known.board, target)
        goal_cell = None
    made = turn.actions[0]
    own = reaching_pushes(known.board, known.here, known.goal, known.goal_on_spare, pushes)
    for push in own if made in own else pushes:
        if push == made:
            continue
        slot = slot_of(push)
        trial = after(known.board, push)
        cell = goal_cell if goal_tile is None else trial.cell_of_tile(goal_tile)
        on_spare = goal_tile is not None and cell is None
        if not can_reach_next_turn(trial, carried(slot, pos), cell, on_spare, slot.opposite):
            return {
                "kind": "gift",
                "to": nxt.seat,
                "goal": "target" if target is not None else "home",
                "instead": push,
                "hindsight": True,
            }
    return None


def _reaches(known: Known, legal: list[JSON]) -> bool:
    pushes = [a for a in legal if a["type"] == "push"]
    return bool(reaching_pushes(known.board, known.here, known.goal, known.goal_on_spare, pushes))
