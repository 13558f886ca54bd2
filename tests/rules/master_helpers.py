"""Helpers to build exact Master Labyrinth positions in tests: a real game, a maze walled
in (`blank`) with the corridors a test needs carved, pieces placed by hand, and dice
scripted by handing the engine a `Dice` rng.
"""

from __future__ import annotations

import itertools
import random

from app.rules import Game
from app.rules.board import E, N, S, W, parse_cell
from app.rules.master import ENGINE, MasterState, Turn, parse_action

JSON = dict


class Dice(random.Random):
    """An rng whose dice are scripted: `randrange` gives dragon-die face indexes (0-3 are
    1-4 arrows, 4 white, 5 black), `randint` gives duel-die values. Shuffles stay random."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
        return self.values.pop(0)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def c(name: str) -> int:
    return parse_cell(name)


def new_game(players: int = 2, seed: str = "master-test") -> Game:
    return Game.new("master", [f"P{i}" for i in range(players)], seed)


def blank(state: MasterState) -> None:
    """Every tile walled in: nothing connects until `carve` opens a corridor."""
    state.board.opens[:] = [0] * 49
    state.board.refresh()


def carve(state: MasterState, *names: str) -> None:
    """Open a corridor through consecutive orthogonal neighbours."""
    board = state.board
    cells = [c(n) for n in names]
    for a, b in itertools.pairwise(cells):
        step = {1: (E, W), -1: (W, E), 7: (S, N), -7: (N, S)}[b - a]
        board.opens[a] |= step[0]
        board.opens[b] |= step[1]
    board.refresh()


def position(players: int = 2, **where: str) -> Game:
    """A game in seat 0's move phase with a blank maze; `where` puts adventurers
    (`p0="b2"`), guardians (`white="a1"`) anywhere."""
    game = new_game(players)
    st = game.state
    blank(st)
    st.tokens = []
    st.turn = Turn(0, phase="move")
    for key, name in where.items():
        if key.startswith("p"):
            st.players[int(key[1:])].pos = c(name)
        else:
            st.guardians[key] = c(name)
    return game


def act(game: Game, seat: int, text: str, rng: random.Random | None = None) -> list[JSON]:
    """Apply an action in notation with a scripted rng (no dice by default)."""
    return ENGINE.apply(game.state, seat, parse_action(text).to_dict(), rng or Dice())


def kinds(events: list[JSON]) -> list[str]:
    return [e["type"] for e in events]


def take_position(hand: list[int]) -> Game:
    game = position(p0="a1")
    st = game.state
    carve(st, "a1", "b1")
    st.tokens = [(c("b1"), 3), (c("g7"), 4)]
    st.players[0].hand = hand
    return game


def duel_position(players: int = 3) -> Game:
    """Seat 0 about to take token 1 at b1 with the black guardian at f1, on a corridor
    a1-g1; the dragon die will show black."""
    game = position(players, p0="a1", black="f1")
    st = game.state
    carve(st, "a1", "b1", "c1", "d1", "e1", "f1", "g1")
    st.tokens = [(c("b1"), 1), (c("g7"), 1)]
    for player in st.players:
        player.hand = []
    return game


def final_position(hand: list[int] | None = None) -> Game:
    """Second phase done, no token left, the dragon facing N (front d3), seat 0 at d2
    with a corridor to d3."""
    game = position(p0="d2")
    st = game.state
    st.second_phase, st.reserve, st.tokens, st.facing = True, [], [], "N"
    carve(st, "d2", "d3")
    st.players[0].hand = hand or []
    st.players[0].treasures = [2, 9]
    return game
