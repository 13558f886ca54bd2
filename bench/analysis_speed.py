"""How long analysing a finished game takes, per variant (issue: a 300-action classic game
under 2 s on this machine). Prints; never fails.

    python bench/analysis_speed.py [--repeat 3]

Games are played by the computer players (`easy`, the level that leaves most to find,
and `hard`), seeded, so every run times the same records.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.analysis import analyse
from app.bots import choose
from app.rules import Game

CASES: list[tuple[str, int, dict[str, Any], str]] = [
    ("classic", 2, {}, "easy"),
    ("classic", 4, {"events": True}, "easy"),
    ("classic", 2, {}, "hard"),
    ("master", 3, {}, "easy"),
    ("cards", 4, {}, "easy"),
    ("team", 3, {"mode": "standard"}, "easy"),
]


def play(variant: str, players: int, options: dict[str, Any], level: str, seed: str) -> Any:
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = random.Random(seed)
    while game.to_move is not None and game.seq < 5000:
        seat = game.to_move
        game.apply(seat, choose(variant, level, game.view(seat), game.legal_actions(seat), rng))  # type: ignore[arg-type]
    return game.record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'case':34} {'actions':>7} {'turns':>5} {'marks':>5} {'median ms':>9} {'ms/100 act':>10}"
    )
    for variant, players, options, level in CASES:
        record = play(variant, players, options, level, f"bench-{variant}-{players}-{level}")
        times = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            result = analyse(record)
            times.append((time.perf_counter() - began) * 1000)
        marks = sum(len(t["marks"]) for t in result["turns"])
        median = statistics.median(times)
        n = len(record["actions"])
        name = f"{variant} {players}p {level} {options or ''}".strip()
        turns = len(result["turns"])
        per100 = median * 100 / n
        print(f"{name:34} {n:7} {turns:5} {marks:5} {median:9.0f} {per100:10.0f}")


if __name__ == "__main__":
    main()
