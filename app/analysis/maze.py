"""Board questions the sliding-game judges ask: can a pawn reach a cell after some push,
and by which path."""

from __future__ import annotations

from app.bots.maze import slot_of
from app.rules.board import SIZE, SLOTS, Board, Slot, carried, cell_of, row_col

JSON = dict

ROTATIONS = range(4)


def goal_after(slot: Slot, goal: int | None, on_spare: bool) -> int | None:
    """A goal cell after a push at `slot`: carried along its line, None once ejected; a
    goal on the spare comes in at the slot."""
    if goal is None:
        return slot.line[0] if on_spare else None
    if goal == slot.line[-1]:
        return None
    return carried(slot, goal)


def reaching_pushes(
    board: Board, here: int, goal: int | None, on_spare: bool, pushes: list[JSON]
) -> list[JSON]:
    """The pushes of `pushes` after which a pawn now on `here` can walk to the goal."""
    found = []
    for push in pushes:
        slot = slot_of(push)
        g = goal_after(slot, goal, on_spare)
        if g is not None and board.reach_after_push(slot, push["rotation"], here) >> g & 1:
            found.append(push)
    return found


def can_reach_next_turn(
    board: Board, here: int, goal: int | None, on_spare: bool, banned: Slot | None
) -> bool:
    """Whether some push (any slot but `banned`, any rotation) lets `here` reach the goal."""
    for slot in SLOTS:
        if slot == banned:
            continue
        g = goal_after(slot, goal, on_spare)
        if g is None:
            continue
        for rotation in ROTATIONS:
            if board.reach_after_push(slot, rotation, here) >> g & 1:
                return True
    return False


def path(board: Board, start: int, goal: int, blocked: int = 0) -> list[list[int]]:
    """A shortest walk from `start` to `goal` as [row, col] cells, both ends included
    (empty when the goal is out of reach)."""
    layers = board.distance_layers(start, blocked)
    depth = next((k for k, layer in enumerate(layers) if layer >> goal & 1), None)
    if depth is None:
        return []
    cells = [goal]
    for k in range(depth - 1, -1, -1):
        here = cells[-1]
        r, c = row_col(here)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if not (0 <= nr < SIZE and 0 <= nc < SIZE):
                continue
            step = cell_of(nr, nc)
            if layers[k] >> step & 1 and board.linked(step, here):
                cells.append(step)
                break
    return [list(row_col(cell)) for cell in reversed(cells)]


def after(board: Board, push: JSON) -> Board:
    """A copy of `board` with `push` made."""
    trial = board.clone()
    trial.push(slot_of(push), push["rotation"])
    return trial
