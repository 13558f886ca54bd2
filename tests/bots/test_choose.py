"""The one door through which the server's computer seats decide."""

from __future__ import annotations

import random

import pytest

from app.bots import LEVELS, choose
from app.rules import Game


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
