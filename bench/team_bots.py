"""Team Edition computer team-mates: how often a table of one level wins, per mode, level
and number of seats. Prints figures, never asserts, never fails.

Team Edition is cooperative: the table wins only by collecting all 24 treasures before
the 24 Daedalus cards run out, so a level's worth to a person is whether a table of it
can get there at all. Every game is played by `app.bots.arena.play` (each seat decides
from its own view and legal list; the hard level's memory is fed as on the server), with
seeds `team-strength-<mode>-<seats>-<level>-<i>`, so a run is reproducible.

Printed per mode, seats and level: games, wins with a 95 % Wilson interval, mean turns;
then per mode and level over all seat counts; then the slowest decision per level (CPU
and wall clock; wall clock includes whatever else the machine runs).

Run from the repository root:
    .venv/bin/python bench/team_bots.py                    # 24 games a cell (~3 min)
    .venv/bin/python bench/team_bots.py --games 8 --modes introductory --levels medium
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import LEVELS, Level
from app.bots.arena import play
from bench.bots import wilson  # the 95 % interval the bots' tournaments print

MODES = ("introductory", "standard", "expert")
Job = tuple[str, int, Level, int, str]  # mode, seats, level, index, seed prefix


def run(job: Job) -> tuple[Job, bool, int, dict[str, float], dict[str, float]]:
    """One game: (job, won, turns, slowest CPU decision per level, slowest wall one)."""
    mode, seats, level, i, prefix = job
    outcome = play(
        "team",
        (level,) * seats,
        seed=f"{prefix}-{mode}-{seats}-{level}-{i}",
        options={"mode": mode, "rules_version": 2},
        max_actions=6000,
    )
    cpu = {lv: max(v) for lv, v in outcome.seconds.items()}
    wall = {lv: max(v) for lv, v in outcome.wall.items()}
    return job, bool(outcome.winners), outcome.turns, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="per mode x seats x level")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="team-strength", help="seed prefix")
    args = parser.parse_args()
    modes = args.modes.split(",")
    seats = [int(s) for s in args.seats.split(",")]
    levels: list[Level] = [lv for lv in LEVELS if lv in args.levels.split(",")]
    jobs: list[Job] = [
        (mode, k, level, i, args.seed)
        for mode in modes
        for k in seats
        for level in levels
        for i in range(args.games)
    ]
    games: dict[tuple[str, int, str], list[tuple[bool, int]]] = defaultdict(list)
    cpu: dict[str, float] = defaultdict(float)
    wall: dict[str, float] = defaultdict(float)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for (mode, k, level, _, _), won, turns, c, w in pool.map(run, jobs, chunksize=2):
            games[mode, k, level].append((won, turns))
            for lv, s in c.items():
                cpu[lv] = max(cpu[lv], s)
            for lv, s in w.items():
                wall[lv] = max(wall[lv], s)

    def line(label: str, results: list[tuple[bool, int]]) -> str:
        n, wins = len(results), sum(won for won, _ in results)
        lo, hi = wilson(wins, n)
        turns = sum(t for _, t in results) / n
        return (
            f"  {label:<28} {wins:3d}/{n:<3d} {wins / n:6.1%} [{lo:5.1%}, {hi:5.1%}]"
            f"  mean {turns:4.1f} turns"
        )

    print("== team: every seat a computer player of one level; the table wins or loses")
    for mode in modes:
        for k in seats:
            for level in levels:
                print(line(f"{mode} {k} seats {level}", games[mode, k, level]))
    print("== per mode and level, all seat counts")
    for mode in modes:
        for level in levels:
            every: list[Any] = [g for k in seats for g in games[mode, k, level]]
            print(line(f"{mode} {level}", every))
    for level in levels:
        print(
            f"  slowest decision {level:>6}: CPU {cpu[level] * 1000:6.1f} ms, "
            f"wall {wall[level] * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
