"""The one door through which the server's computer seats decide."""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, SPENDING, choose, keeping
from app.rules import Game
from tests.bots.helpers import V2, positions


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
@pytest.mark.parametrize("level", LEVELS)
def test_choose_returns_a_legal_action_for_the_seat_to_move(variant: str, level: str) -> None:
    players = ["Ann", "Bob"]
    game = Game.new(variant, players, seed="door")
    for _ in range(12):
        seat = game.to_move
        if seat is None:
            break
        legal = game.legal_actions(seat)
        action = choose(variant, level, game.view(seat), legal, random.Random(7))  # type: ignore[arg-type]
        assert action in legal
        game.apply(seat, action)


def test_choose_refuses_unknown_levels_and_empty_lists() -> None:
    game = Game.new("classic", ["Ann", "Bob"], seed="door")
    with pytest.raises(ValueError):
        choose("classic", "grandmaster", game.view(0), game.legal_actions(0), random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        choose("classic", "easy", game.view(0), [], random.Random(1))


def test_a_stand_in_keeps_what_the_seat_holds() -> None:
    """A computer standing in for a person out of time or away (`keep`) never plays a
    Master card (coin, re-roll, double turn) nor challenges the dragon when a choice that
    keeps them is legal; the same computer for itself does, now and then."""
    spent = {"kept": 0, "free": 0}
    decisions = 0
    for seed in ("stand-in-1", "stand-in-2", "stand-in-3"):
        for game in positions("master", V2, seed, players=3, steps=1500):
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions(seat)
            if not {a["type"] for a in legal} & SPENDING["master"]:
                continue
            decisions += 1
            view = game.view(seat)
            for level in LEVELS:
                kept = choose("master", level, view, legal, random.Random(decisions), keep=True)
                assert kept in legal
                spent["kept"] += kept["type"] in SPENDING["master"]
                free = choose("master", level, view, legal, random.Random(decisions))
                spent["free"] += free["type"] in SPENDING["master"]
    assert decisions >= 20, decisions
    assert spent["kept"] == 0
    assert spent["free"] > 0  # the choice the filter takes away is one the players make
    # a variant that holds nothing of the kind plays as before
    game = Game.new("classic", ["Ann", "Bob"], seed="door")
    legal = game.legal_actions(0)
    assert keeping("classic", legal) == legal
