"""Helpers to build exact Team Edition positions in tests: `calm` gives a fresh turn with
no face-down tile and every movable tile walled in (openings 0), so that `carve` lays
exactly the paths a test needs.
"""

from __future__ import annotations

from typing import Any

from app.rules import Game
from app.rules.board import FIXED_CELLS, parse_cell, parse_open
from app.rules.team import TILE_NAMED, TeamState, Turn, parse_action
from tests.rules.helpers import put_tile

JSON = dict[str, Any]


def new(players: int = 2, mode: str = "standard", seed: str = "team-test", **opts: str) -> Game:
    return Game.new("team", [f"P{i}" for i in range(players)], seed, {"mode": mode, **opts})


def st(game: Game) -> TeamState:
    return game.state


def c(name: str) -> int:
    return parse_cell(name)


def calm(game: Game, seat: int = 0, spells: tuple[str, ...] | None = None) -> TeamState:
    """A fresh turn for `seat`: nothing face down, pawns home, every movable tile walled."""
    state = st(game)
    state.turn = Turn(seat)
    state.down.clear()
    for player in state.players:
        player.pos = player.home
    if spells is not None:
        state.players[seat].spells = spells
    board = state.board
    for cell in range(49):
        if cell not in FIXED_CELLS:
            board.opens[cell] = 0
    board.refresh()
    return state


def carve(state: TeamState, **cells: str) -> None:
    """Set the openings of cells by name (shapes are not checked: paths only)."""
    for name, opens in cells.items():
        state.board.opens[c(name)] = parse_open(opens) if opens else 0
    state.board.refresh()


def place(state: TeamState, name: str, at: str, opens: str) -> None:
    """Put the tile showing treasure or symbol `name` at cell `at` with `opens`."""
    put_tile(state.board, TILE_NAMED[name], c(at), parse_open(opens))


def face_down(state: TeamState, *names: str) -> None:
    for name in names:
        state.down.add(state.board.tiles[c(name)])


def play(game: Game, *notations: str) -> list[JSON]:
    events: list[JSON] = []
    for text in notations:
        events += game.apply(game.to_move, parse_action(text).to_dict())
    return events
