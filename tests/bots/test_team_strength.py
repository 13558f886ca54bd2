"""Team Edition's computer team-mates can win: every level, not only hard.

A table of easy or medium team-mates used to lose every game (the book ran out with
about 1 or 13 of the 24 treasures collected): they did not plan their turns' collections.
These games are fixed seeds played by the arena, so each assertion is deterministic; the
thresholds are well above the old players' 0 wins (the same seeds, checked by running
this file against the old `app/bots/team.py`). `bench/team_bots.py` measures the rates
over many more games.
"""

from __future__ import annotations

import random
import time

from app.bots import choose
from app.bots.arena import play
from app.bots.team import choose_easy, choose_medium
from app.rules import Game
from app.rules.board import cell_of

INTRO = {"mode": "introductory", "rules_version": 2}
STANDARD = {"mode": "standard", "rules_version": 2}


def _wins(level: str, seats: int, options: dict[str, str | int], seeds: range) -> int:
    return sum(
        bool(play("team", (level,) * seats, seed=f"strength-{i}", options=options).winners)
        for i in seeds
    )


def test_a_table_of_medium_team_mates_wins_introductory_games() -> None:
    assert _wins("medium", 3, INTRO, range(10)) >= 2


def test_a_table_of_easy_team_mates_can_win_an_introductory_game() -> None:
    assert _wins("easy", 3, INTRO, range(10)) >= 1


def test_two_hard_team_mates_win_standard_games() -> None:
    """Two seats in standard hold push and one of switch, traverse, teleport, escape or
    rotate each: hard plans all of them (it used to plan push and rotate only)."""
    assert _wins("hard", 2, STANDARD, range(6)) >= 3


def _collected(game: Game) -> int:
    return len(game.view(0)["collected"])


def test_easy_and_medium_take_a_treasure_that_one_spell_brings_in_reach() -> None:
    """In positions where a single push or rotate lets the seat walk onto one of its
    treasures, medium always collects this turn and easy (which plans single spells)
    does too: before, easy ended its turn and medium never rotated."""
    checked = 0
    for level, chooser in (("easy", choose_easy), ("medium", choose_medium)):
        for seed in range(6):
            game = Game.new("team", ["A", "B", "C"], seed=f"reach-{seed}", options=INTRO)
            game.apply(0, {"type": "daedalus"})
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions(seat)
            reachable = False
            for action in legal:
                if action["type"] not in ("push", "rotate"):
                    continue
                trial = game.clone()
                trial.apply(seat, action)
                wanted = set(trial.view(seat)["players"][seat]["collectable"])
                for move in trial.legal_actions(seat):
                    if move["type"] == "move":
                        cell = cell_of(*move["to"])
                        if trial.state.board.treasure_at(cell) in wanted:
                            reachable = True
            if not reachable:
                continue
            before = _collected(game)
            for step in range(4):
                if game.to_move != seat:
                    break
                view = game.view(seat)
                action = chooser(view, game.legal_actions(seat), random.Random(step))
                game.apply(seat, action)
                if _collected(game) > before:
                    break
            assert _collected(game) > before, (level, seed)
            checked += 1
    assert checked >= 2


def test_team_decisions_are_deterministic_and_fast() -> None:
    """The same view, legal list and rng state give the same action, in well under a
    second even for the chained searches."""
    slowest = 0.0
    for level in ("easy", "medium", "hard"):
        game = Game.new("team", ["A", "B"], seed=f"fast-{level}", options=STANDARD)
        for step in range(60):
            seat = game.to_move
            if seat is None:
                break
            view, legal = game.view(seat), game.legal_actions(seat)
            start = time.process_time()
            first = choose("team", level, view, legal, random.Random(step))  # type: ignore[arg-type]
            slowest = max(slowest, time.process_time() - start)
            assert choose("team", level, view, legal, random.Random(step)) == first  # type: ignore[arg-type]
            game.apply(seat, first)
    assert slowest < 1.0
