"""Team Edition's memory: only what the seat saw, followed through pushes, rebuilt the same
after a restart, and used by the hard player to fetch treasures under face-down tiles."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import choose
from app.bots.memory import new_memory, observe_step, replay
from app.bots.team_memory import SPARE, TeamMemory
from app.rules import Game
from app.rules.team import CATALOGUE
from tests.bots.helpers import V2, freeze

MODES = ("introductory", "standard", "expert")


def _truth(game: Game, cell: int) -> tuple[int, str]:
    """The tile id on `cell` (49: the spare) and its treasure ("" none): the test's
    own look at the engine's state, which the memory never gets."""
    board = game.state.board
    tile = board.spare if cell == SPARE else board.tiles[cell]
    return tile, CATALOGUE[tile].treasure or ""


def _face_up_tiles(game: Game) -> set[int]:
    board = game.state.board
    return {t for t in [*board.tiles, board.spare] if t not in game.state.down}


def _random_game(mode: str, seed: str, players: int = 3) -> Game:
    return Game.new(
        "team", [f"P{i}" for i in range(players)], seed=seed, options={"mode": mode, **V2}
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("start", [0, 25])
def test_memory_holds_only_tiles_the_seat_saw_face_up_and_holds_them_right(
    mode: str, start: int
) -> None:
    """A memory that starts watching at seq `start` (a seat handed to the computer mid
    game) knows nothing of the tiles face down then; every face-down tile it does name
    is one this seat saw face up in a view it was given, with the treasure really there.
    The views are read-only: the memory cannot write into what it is shown."""
    game = _random_game(mode, f"memory-{mode}-{start}")
    rng = random.Random(start)
    seat = 1
    memory = TeamMemory()
    seen: set[int] = set()  # tile ids this seat was shown face up
    named = 0
    for step in range(300):
        if game.to_move is None:
            break
        if step == start:
            memory.observe(freeze(game.view(seat)))
            seen |= _face_up_tiles(game)
            down_at_start = {c for c in range(49) if game.state.board.tiles[c] in game.state.down}
            assert not any(memory.under(c) is not None for c in down_at_start)
        actor = game.to_move
        events = game.apply(actor, rng.choice(game.legal_actions(actor)))
        if step >= start:
            shown = game.engine.redact_events(game.state, events, seat)
            memory.observe(freeze(game.view(seat)), freeze(shown))
            seen |= _face_up_tiles(game)
            for cell in range(49):
                tile, treasure = _truth(game, cell)
                remembered = memory.under(cell)
                if remembered is None:
                    continue
                assert tile in seen, (step, cell)
                assert remembered == treasure, (step, cell, remembered, treasure)
                named += tile in game.state.down
    assert named > 20  # face-down tiles were remembered, not just face-up ones re-read


def test_a_memory_rebuilt_from_the_log_equals_the_one_kept_live() -> None:
    """After a restart the driver rebuilds the memory from the game's record; it is the
    memory the live seat held, so the computer's next decision does not change."""
    game = _random_game("standard", "rebuild", players=2)
    rng = random.Random(7)
    live = new_memory("team", "hard")
    assert live is not None
    live.observe(game.view(0))
    for _ in range(120):
        if game.to_move is None:
            break
        events = game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
        observe_step(game, 0, live, events)
    rebuilt = replay(game.record(), 0, "hard")
    assert isinstance(rebuilt, TeamMemory) and isinstance(live, TeamMemory)
    assert rebuilt.faces == live.faces and rebuilt.seq == live.seq == game.seq
    assert new_memory("team", "medium") is None and new_memory("cards", "hard") is None


def _walk_turn(game: Game, seat: int, memory: TeamMemory | None) -> int:
    """Play `seat`'s turn to its end with the hard player; the treasures it collected."""
    before = len(game.view(None)["collected"])
    while game.to_move == seat:
        view, legal = game.view(seat), game.legal_actions(seat)
        action = choose("team", "hard", view, legal, random.Random(game.seq), memory)
        if action["type"] == "end":
            break
        events = game.apply(seat, action)
        if memory is not None:
            observe_step(game, seat, memory, events)
    return len(game.view(None)["collected"]) - before


def test_the_hard_player_fetches_a_treasure_it_remembers_under_a_face_down_tile() -> None:
    """Positions where the seat's only collectable treasure lies under a face-down tile
    it can step onto, a tile it saw face up before: with its memory it collects it."""
    found = 0
    for k in range(40):
        game = _random_game("introductory", f"remember-{k}", players=2)
        memories = {s: TeamMemory() for s in range(2)}
        for s, memory in memories.items():
            memory.observe(game.view(s))
        rng = random.Random(k)
        for _ in range(200):
            seat = game.to_move
            if seat is None:
                break
            view = game.view(seat)
            if view["turn"]["phase"] == "play" and not view["turn"]["used"]:
                hits = _remembered_hits(game, seat, view, memories[seat])
                if hits:
                    twin = game.clone()
                    memory = TeamMemory(dict(memories[seat].faces), memories[seat].seq)
                    assert _walk_turn(twin, seat, memory) >= 1
                    found += 1
                    break
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            for s, memory in memories.items():
                observe_step(game, s, memory, events)
        if found >= 5:
            break
    assert found >= 3


def _remembered_hits(game: Game, seat: int, view: dict[str, Any], memory: TeamMemory) -> list[int]:
    """Face-down cells this seat may move onto now whose remembered treasure is on its
    board, when no face-up treasure of its board is within a move."""
    wanted = set(view["players"][seat]["board"])
    moves = [m["to"] for m in game.legal_actions(seat) if m["type"] == "move"]
    tiles = view["board"]["tiles"]
    if any(tiles[r][c].get("treasure") in wanted for r, c in moves):
        return []
    return [
        r * 7 + c
        for r, c in moves
        if tiles[r][c].get("face_down") and memory.under(r * 7 + c) in wanted
    ]
