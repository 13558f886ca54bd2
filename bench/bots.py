"""Computer players' tournaments: prints figures, never asserts, never fails.

Per game, seeded 2-player matches between levels (hard vs medium, medium vs easy, hard
vs easy), each pairing swapping seats every other game; Team Edition, being cooperative,
is a win rate per mode and number of computer players (all seats at one level). Printed:
win rates with a 95 % Wilson interval (a shared win or a game stopped at the action
limit counts half), mean game length, and the time per decision (p50, p99) per level.

Players that keep a memory (Team's hard level) get it as on the server: fed each seat's
views and events after every action (`app.bots.arena`).

Decision times are measured on whatever else the machine runs: on a shared machine the
wall-clock figures (and, less so, the CPU ones) are pessimistic.

Targets (issue 13): each level beats the one below >= 70 % in classic, master and cards;
hard decides in < 200 ms p99; Team: hard wins the introductory mode most of the time.

Run from the repository root:
    python3 bench/bots.py                       # the issue's counts (a few minutes)
    python3 bench/bots.py --games 40 --master-games 20 --team-games 10   # a quick look
    python3 bench/bots.py --only cards --workers 1
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import Level
from app.bots.arena import Outcome, play

PAIRINGS: tuple[tuple[Level, Level], ...] = (
    ("hard", "medium"),
    ("medium", "easy"),
    ("hard", "easy"),
)
V2 = {"rules_version": 2}  # what new rooms play
DUELS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("classic", V2),
    "classic+events": ("classic", {"events": True, **V2}),
    "classic+younger": ("classic", {"events": True, "return_home": False, **V2}),
    "master": ("master", V2),
    "cards": ("cards", V2),
}
TEAM_MODES = ("introductory", "standard", "expert")
TEAM_LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    variant: str
    options: dict[str, Any]
    levels: tuple[Level, ...]
    seed: str
    group: tuple[Any, ...]  # what the figure is printed under


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def run(job: Job) -> tuple[Job, Outcome]:
    return job, play(job.variant, job.levels, job.seed, job.options)


def duel_jobs(
    name: str, games: int, pairings: tuple[tuple[Level, Level], ...] = PAIRINGS
) -> Iterator[Job]:
    variant, options = DUELS[name]
    for a, b in pairings:
        for i in range(games):
            levels = (a, b) if i % 2 == 0 else (b, a)
            yield Job(name, variant, options, levels, f"bench-{name}-{a}-{b}-{i}", (a, b))


def team_jobs(games: int, counts: tuple[int, ...]) -> Iterator[Job]:
    for mode in TEAM_MODES:
        for count in counts:
            for level in TEAM_LEVELS:
                for i in range(games):
                    yield Job(
                        "team",
                        "team",
                        {"mode": mode, **V2},
                        (level,) * count,
                        f"bench-team-{mode}-{count}-{level}-{i}",
                        (mode, count, level),
                    )


def score_for(outcome: Outcome, level: Level) -> float:
    """1 for a win of `level`'s seat, 0.5 for a shared win or an unfinished game."""
    seat = outcome.levels.index(level)
    if outcome.result is None or len(outcome.winners) > 1:
        return 0.5
    return 1.0 if seat in outcome.winners else 0.0


def report_duels(name: str, results: list[tuple[Job, Outcome]]) -> None:
    by_pair: dict[tuple[Any, ...], list[Outcome]] = defaultdict(list)
    for job, outcome in results:
        by_pair[job.group].append(outcome)
    print(f"\n== {name}: 2 players, seats swapped every other game")
    for (a, b), outcomes in by_pair.items():
        n = len(outcomes)
        wins = sum(score_for(o, a) for o in outcomes)
        lo, hi = wilson(wins, n)
        unfinished = sum(1 for o in outcomes if o.result is None)
        turns = statistics.mean(o.turns for o in outcomes)
        actions = statistics.mean(o.actions for o in outcomes)
        flag = "ok" if wins / n >= 0.7 else "BELOW 70 %"
        print(
            f"  {a:>6} vs {b:<6} {n:4d} games: {a} wins {wins / n:6.1%} "
            f"[{lo:.1%}, {hi:.1%}] {flag}; mean {turns:.1f} turns / {actions:.1f} actions"
            + (f"; {unfinished} stopped at the action limit" if unfinished else "")
        )
    report_times(results)


def report_times(results: list[tuple[Job, Outcome]]) -> None:
    """CPU time per decision (what deciding costs), then wall time (what a player waited,
    inflated by whatever else the shared machine runs)."""
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    for _, outcome in results:
        for level, seconds in outcome.seconds.items():
            cpu[level].extend(seconds)
        for level, seconds in outcome.wall.items():
            wall[level].extend(seconds)
    for level in ("easy", "medium", "hard"):
        if cpu[level]:
            print(
                f"  decision {level:>6} ({len(cpu[level])}): "
                f"CPU p50 {percentile(cpu[level], 0.5) * 1000:6.2f} ms "
                f"p99 {percentile(cpu[level], 0.99) * 1000:6.2f} ms "
                f"max {max(cpu[level]) * 1000:6.1f} ms; "
                f"wall p50 {percentile(wall[level], 0.5) * 1000:6.2f} ms "
                f"p99 {percentile(wall[level], 0.99) * 1000:6.2f} ms"
            )


def report_team(results: list[tuple[Job, Outcome]]) -> None:
    by_group: dict[tuple[Any, ...], list[Outcome]] = defaultdict(list)
    for job, outcome in results:
        by_group[job.group].append(outcome)
    print("\n== team: every seat a computer player of one level; the team wins or loses")
    for (mode, count, level), outcomes in by_group.items():
        n = len(outcomes)
        wins = sum(1 for o in outcomes if o.winners)
        lo, hi = wilson(wins, n)
        turns = statistics.mean(o.turns for o in outcomes)
        print(
            f"  {mode:<12} {count} players {level:>6}: {n:3d} games, wins {wins / n:6.1%} "
            f"[{lo:.1%}, {hi:.1%}]; mean {turns:.1f} turns"
        )
    report_times(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="per pairing, classic and cards")
    parser.add_argument("--master-games", type=int, default=100, help="per pairing, master")
    parser.add_argument("--team-games", type=int, default=30, help="per mode x count x level")
    parser.add_argument("--team-counts", default="2,3,4", help="computer players in team")
    parser.add_argument("--workers", type=int, default=2, help="processes (the machine has 2)")
    parser.add_argument(
        "--pairing",
        action="append",
        help="e.g. hard-medium (repeatable; default: the three pairings)",
    )
    parser.add_argument(
        "--only", action="append", help=f"one of {', '.join([*DUELS, 'team'])} (repeatable)"
    )
    args = parser.parse_args()
    wanted = args.only or [*DUELS, "team"]
    counts = tuple(int(c) for c in args.team_counts.split(","))
    pairings = PAIRINGS
    if args.pairing:
        pairings = tuple(tuple(p.split("-")) for p in args.pairing)  # type: ignore[misc]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name in wanted:
            if name == "team":
                jobs = list(team_jobs(args.team_games, counts))
            else:
                games = args.master_games if name == "master" else args.games
                jobs = list(duel_jobs(name, games, pairings))
            results = list(pool.map(run, jobs, chunksize=4))
            if name == "team":
                report_team(results)
            else:
                report_duels(name, results)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
