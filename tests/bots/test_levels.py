"""Every level of every game plays legal actions only, and games between them end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import LEVELS, Level, choose, label
from app.bots.arena import play
from tests.bots.helpers import V2, VARIANTS, positions, variant_id


@pytest.mark.parametrize("case", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("level", LEVELS)
def test_every_decision_is_legal(case: tuple[str, dict[str, Any]], level: Level) -> None:
    """Over positions of random games (events, duels, take phases, face-down tiles...),
    with 2 and 3 seats, the player's action is one of `legal`."""
    variant, options = case
    checked = 0
    for players in (2, 3):
        for k, game in enumerate(positions(variant, options, f"legal-{level}", players)):
            if k % 3:
                continue
            seat = game.to_move
            legal = game.legal_actions(seat)
            action = choose(variant, level, game.view(seat), legal, random.Random(k))  # type: ignore[arg-type]
            assert action in legal, (k, action)
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("case", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("levels", [("easy", "medium"), ("hard", "medium"), ("hard", "easy")])
def test_a_game_of_computer_players_only_ends(
    case: tuple[str, dict[str, Any]], levels: tuple[Level, Level]
) -> None:
    variant, options = case
    outcome = play(variant, levels, seed=f"ends-{'-'.join(levels)}", options=options)
    assert outcome.result is not None, f"stopped after {outcome.actions} actions"
    if variant == "team":
        assert outcome.result["reason"] in ("all_collected", "daedalus")
    else:
        assert outcome.winners


def test_a_four_player_game_of_hard_players_ends() -> None:
    for variant in ("classic", "master", "team"):
        outcome = play(variant, ("hard",) * 4, seed="four")
        assert outcome.result is not None
    outcome = play("cards", ("hard",) * 6, seed="six")
    assert outcome.result is not None


def test_labels_say_what_plays() -> None:
    assert [label(level) for level in LEVELS] == [
        "Computer (easy)",
        "Computer (medium)",
        "Computer (hard)",
    ]
    with pytest.raises(ValueError):
        label("grandmaster")  # type: ignore[arg-type]


def test_unknown_action_types_are_handled() -> None:
    """A rule added later (an action type the players do not know) gets a sensible legal
    answer: an opportunity taken rather than declined."""
    game = next(positions("classic", V2, "unknown"))
    view = game.view(game.to_move)
    legal = [{"type": "decline_bonus"}, {"type": "bonus_turn"}]
    for level in LEVELS:
        assert choose("classic", level, view, legal, random.Random(1)) == {"type": "bonus_turn"}
