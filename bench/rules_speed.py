"""Speed of the rules package: prints figures, never asserts (targets: < 1 ms, < 20 ms).

1. A turn's choices: every legal push (slot x rotation, up to 48) each followed by the
   reachable set from the mover's cell, in a mid-game position.
2. Replaying a 300-action game from its record (`Game.from_record`).

Run: `python3 bench/rules_speed.py` from the repository root.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules import Game
from app.rules.board import SLOTS


def play(seed: str, actions: int, options: dict[str, bool]) -> Game:
    """A game driven by random legal actions (bots' stand-in), stopped at `actions`."""
    game = Game.new("classic", ["Ann", "Bob", "Cid", "Dee"], seed, options)
    rng = random.Random(seed)
    while game.seq < actions and game.to_move is not None:
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


def median_ms(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def all_pushes_then_reach(game: Game) -> Callable[[], list[int]]:
    state = game.state
    board, cell = state.board, state.players[state.turn.seat].pos
    pairs = [(s, r) for s in SLOTS if s != state.forbidden for r in range(4)]

    def work() -> list[int]:
        return [board.reach_after_push(slot, rotation, cell) for slot, rotation in pairs]

    return work


def main() -> None:
    midgame = play("bench-midgame", 40, {"events": True, "return_home": True})
    while midgame.state.turn.phase != "push":
        midgame.apply(midgame.to_move, midgame.legal_actions(midgame.to_move)[0])
    pushes = len(all_pushes_then_reach(midgame)())
    turn_ms = median_ms(all_pushes_then_reach(midgame), 2000)
    print(f"all {pushes} legal pushes + reachable after each: {turn_ms:.3f} ms (median of 2000)")

    long_game = play("bench-replay", 300, {"events": True, "return_home": True})
    record = long_game.record()
    replay_ms = median_ms(lambda: Game.from_record(record), 50)
    print(f"replay of a {len(record['actions'])}-action game: {replay_ms:.2f} ms (median of 50)")


if __name__ == "__main__":
    main()
