"""Small helpers to build exact positions in tests.

A test starts from a real game (fixed seed) and then edits the board, pawns and piles
directly, so that each test shows only the position it is about.
"""

from __future__ import annotations

import json
from typing import Any

from app.rules import Game
from app.rules.board import Board, Slot, cell_of, parse_cell
from app.rules.classic import ClassicState, parse_action

JSON = dict[str, Any]


def new_game(players: int = 2, seed: str = "test-seed", **options: bool) -> Game:
    names = [f"P{i}" for i in range(players)]
    return Game.new("classic", names, seed, options or None)


def state(game: Game) -> ClassicState:
    return game.state


def cell(name: str) -> int:
    return parse_cell(name)


def play(game: Game, *notations: str) -> list[JSON]:
    """Apply actions in notation for whoever is to move; the events of all of them."""
    events: list[JSON] = []
    for text in notations:
        events += game.apply(game.to_move, parse_action(text).to_dict())
    return events


def put_tile(board: Board, tile_id: int, at: int, opens: int | None = None) -> None:
    """Move tile `tile_id` (from the board or the spare) to cell `at`, trading places with
    the tile there, so the board keeps every tile exactly once."""
    src = board.cell_of_tile(tile_id)
    if src is None:
        board.spare, board.tiles[at] = board.tiles[at], board.spare
        board.spare_open, board.opens[at] = board.opens[at], board.spare_open
    else:
        board.tiles[src], board.tiles[at] = board.tiles[at], board.tiles[src]
        board.opens[src], board.opens[at] = board.opens[at], board.opens[src]
    if opens is not None:
        board.opens[at] = opens
    board.refresh()


def make_spare(board: Board, tile_id: int) -> None:
    """Make `tile_id` the spare, trading places with the current spare."""
    src = board.cell_of_tile(tile_id)
    if src is not None:
        put_tile(board, board.spare, src)


def set_opens(board: Board, openings: dict[str, int]) -> None:
    """Turn tiles in place (test positions only: any openings are allowed here)."""
    for name, mask in openings.items():
        board.opens[parse_cell(name)] = mask
    board.refresh()


def tile_with(game: Game, treasure: str) -> int:
    return next(i for i, t in enumerate(game.state.board.catalogue) if t.treasure == treasure)


def event_tile(game: Game, name: str) -> int:
    """A tile carrying event `name` (one of the two, the lower id)."""
    return min(t for t, e in game.state.tile_events.items() if e == name)


def arm_event(game: Game, name: str, slot: str) -> int:
    """Put a tile carrying `name` where a push at `slot` ejects it; return its id."""
    tile = event_tile(game, name)
    put_tile(game.state.board, tile, Slot.parse(slot).line[-1])
    return tile


def place(game: Game, seat: int, name: str) -> None:
    game.state.players[seat].pos = parse_cell(name)


def set_pile(game: Game, seat: int, cards: list[str]) -> None:
    game.state.players[seat].pile = list(cards)


def snapshot(game: Game) -> str:
    """Everything about a game that an action could change, as one comparable string."""
    st = game.state
    board = st.board
    raw = {
        "views": [game.view(v) for v in [None, *range(len(st.players))]],
        "legal": [game.legal_actions(s) for s in range(len(st.players))],
        "board": [board.tiles, board.opens, board.spare, board.spare_open],
        "players": [[p.pos, p.pile, p.found] for p in st.players],
        "turn": repr(st.turn),
        "slots": [repr(st.forbidden), repr(st.last_push)],
        "revealed": sorted(st.revealed),
        "result": st.result,
        "seq": st.seq,
        "actions": game.actions,
    }
    return json.dumps(raw, sort_keys=True)


A1, G1, A7, G7 = cell_of(0, 0), cell_of(0, 6), cell_of(6, 0), cell_of(6, 6)
