"""How long analysing a finished game takes, per variant (issue: a 300-action classic game
under 2 s on this machine). Prints; never fails.

    python bench/analysis_speed.py [--repeat 3]

Games are played by the computer players (`easy`, the level that leaves most to find,
`medium` and `hard`), seeded, so every run times the same records. Besides the whole
analysis, the two searches of issue #16's second round are timed on their own: the
master double-turn search (`unused_double`, at every `end_turn` that could have bought
one) and the team spell search (`spells.Search`, at every judged turn), with the number of
positions the team search looked at.
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

from app.analysis import analyse, master, team
from app.analysis.spells import Search
from app.analysis.turns import played_turns
from app.bots import choose
from app.rules import Game

CASES: list[tuple[str, int, dict[str, Any], str]] = [
    ("classic", 2, {}, "easy"),
    ("classic", 4, {"events": True}, "easy"),
    ("classic", 2, {}, "hard"),
    ("master", 3, {}, "easy"),
    ("master", 4, {}, "medium"),
    ("master", 2, {}, "hard"),
    ("cards", 4, {}, "easy"),
    ("team", 3, {"mode": "standard", "rules_version": 2}, "easy"),
    ("team", 4, {"mode": "introductory", "rules_version": 2}, "easy"),
    ("team", 3, {"mode": "standard", "rules_version": 2}, "hard"),
]


def play(variant: str, players: int, options: dict[str, Any], level: str, seed: str) -> Any:
    game = Game.new(variant, [f"P{i}" for i in range(players)], seed=seed, options=options)
    rng = random.Random(seed)
    while game.to_move is not None and game.seq < 5000:
        seat = game.to_move
        game.apply(seat, choose(variant, level, game.view(seat), game.legal_actions(seat), rng))  # type: ignore[arg-type]
    return game.record()


def master_doubles(record: Any) -> tuple[int, float]:
    """(end_turn choices searched, total ms) of the double-turn search alone."""
    played, game = played_turns(record, master.starts, decides=master.decides)
    choices = [d for t in played for d in t.decisions if d.action["type"] == "end_turn"]
    began = time.perf_counter()
    for decision in choices:
        master.unused_double(game, decision)
    return len(choices), (time.perf_counter() - began) * 1000


def team_spells(record: Any) -> tuple[int, int, float, float]:
    """(turns searched, positions looked at, total ms, worst turn ms) of the spell search."""
    played, _ = played_turns(record, team.starts, by_seat=True)
    turns = tried = 0
    worst = total = 0.0
    for turn in played:
        view = turn.view
        if not view.get("turn") or view["turn"].get("phase") != "play":
            continue
        wanted = team.collectable(view)
        if not wanted:
            continue
        began = time.perf_counter()
        search = Search(view, wanted)
        search.best()
        spent = (time.perf_counter() - began) * 1000
        turns, tried = turns + 1, tried + search.tried
        total, worst = total + spent, max(worst, spent)
    return turns, tried, total, worst


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
        shown = " ".join(f"{k}={v}" for k, v in options.items() if k != "rules_version")
        name = f"{variant} {players}p {level} {shown}".strip()
        turns = len(result["turns"])
        per100 = median * 100 / n
        print(f"{name:34} {n:7} {turns:5} {marks:5} {median:9.0f} {per100:10.0f}")
        kinds: dict[str, int] = {}
        for turn in result["turns"]:
            for mark in turn["marks"]:
                kinds[mark["kind"]] = kinds.get(mark["kind"], 0) + 1
        told = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "no marks"
        print(f"{'':34} marks: {told}")
        if variant == "master":
            count, spent = master_doubles(record)
            print(f"{'':34} double-turn search: {count} end_turn choices, {spent:.0f} ms")
        if variant == "team":
            searched, tried, spent, worst = team_spells(record)
            print(
                f"{'':34} spell search: {searched} turns, {tried} positions, "
                f"{spent:.0f} ms (worst turn {worst:.0f} ms)"
            )


if __name__ == "__main__":
    main()
