"""What the sliding-maze players (classic, master, team) share: the board rebuilt from a
view, distances, and where a piece or a tile ends up after a push.

Everything here reads the view only. Tile ids are positions in the view (cells 0-48, the
spare 49), so a player can follow "the tile with my treasure" through trial pushes
without knowing the engine's own catalogue.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.rules.board import (
    CELL_COUNT,
    SIZE,
    Board,
    Slot,
    TileInfo,
    carried,
    cell_of,
    parse_open,
    row_col,
    shape_of,
)

Action = dict[str, Any]
SPARE_ID = CELL_COUNT

# Manhattan distance between two cells, computed once.
DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        abs(row_col(a)[0] - row_col(b)[0]) + abs(row_col(a)[1] - row_col(b)[1])
        for b in range(CELL_COUNT)
    )
    for a in range(CELL_COUNT)
)
FAR = 2 * SIZE


def _tile_info(tile: dict[str, Any]) -> tuple[TileInfo, int]:
    """A view tile as (what it shows, its openings). A face-down tile (team) shows no
    openings: to a player it is a wall until turned up, which is what the rules say too."""
    if tile.get("face_down"):
        return TileInfo("I", bool(tile.get("fixed")), None), 0
    mask = parse_open(tile["open"])
    return TileInfo(shape_of(mask), bool(tile.get("fixed")), tile.get("treasure")), mask


def board_from_view(view: dict[str, Any]) -> Board:
    """A board with one catalogue entry per cell (ids 0-48) and the spare as id 49."""
    catalogue: list[TileInfo] = []
    opens: list[int] = []
    for row in view["board"]["tiles"]:
        for tile in row:
            info, mask = _tile_info(tile)
            catalogue.append(info)
            opens.append(mask)
    spare_info, spare_mask = _tile_info(view["board"]["spare"])
    catalogue.append(spare_info)
    return Board(tuple(catalogue), list(range(CELL_COUNT)), opens, SPARE_ID, spare_mask)


def face_down_mask(view: dict[str, Any]) -> int:
    """Cells whose tile is face down (team); 0 for the other games."""
    mask = 0
    for r, row in enumerate(view["board"]["tiles"]):
        for c, tile in enumerate(row):
            if tile.get("face_down"):
                mask |= 1 << cell_of(r, c)
    return mask


def tile_with(board: Board, treasure: str) -> int | None:
    """The tile id showing `treasure`, if any."""
    for tile_id, info in enumerate(board.catalogue):
        if info.treasure == treasure:
            return tile_id
    return None


def after_push(slot: Slot, cell: int | None) -> int | None:
    """Where the tile now on `cell` stands after a push at `slot`; None once ejected (it is
    the spare then) or when it was the spare already."""
    if cell is None or cell == slot.line[-1]:
        return None
    return carried(slot, cell)


def nearest(mask: int, goal: int | None) -> int:
    """The fewest steps (ignoring walls) from any cell of `mask` to `goal`."""
    if goal is None:
        return FAR
    if mask >> goal & 1:
        return 0
    row = DIST[goal]
    best = FAR
    cell = 0
    while mask:
        if mask & 1 and row[cell] < best:
            best = row[cell]
        mask >>= 1
        cell += 1
    return best


def slot_of(action: Action) -> Slot:
    return Slot(action["side"], action["index"])


def by_type(legal: Iterable[Action]) -> dict[str, list[Action]]:
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    return kinds


def best_of(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    """The top-scored action, ties broken by `rng` (so a fixed rng gives a fixed choice)."""
    top = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == top])


# Action types that give something up; unknown types the players do not know are taken
# as opportunities unless their name says they decline one.
DECLINING = ("decline", "skip", "pass", "no_", "end", "refuse", "keep")


def declines(action: Action) -> bool:
    """Whether an action's type reads as giving an opportunity up."""
    return any(word in action["type"] for word in DECLINING)


def fallback(legal: list[Action], rng: random.Random) -> Action:
    """An action of a type the player does not know: prefer one that takes an opportunity
    (a bonus turn, an event) over one that declines it, so new rules are not wasted."""
    taking = [a for a in legal if not declines(a)]
    return rng.choice(taking or legal)
