"""Classic events under rules version 2: every event is a proposal (the booklet: « des
propositions que le joueur n'est pas obligé de suivre »).

- `double_turn`: the bonus turn may be declined (`decline`, listed before its push).
- `exchange`: the pile stays hidden until the player opens it (`open_pile`); then a card
  must be put on top (the current top allowed) and the rest is reshuffled with the game's
  seeded rng. Declining without opening shows nothing and changes nothing.
Version 1 games (no `rules_version`) keep the old behaviour: tests/rules/test_classic_events.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalAction, rng_for
from app.rules.classic import parse_action

from .helpers import arm_event, place, play, set_pile

DECLINE, OPEN = {"type": "decline"}, {"type": "open_pile"}


def new(players: int = 2, seed: str = "v2-seed", **options: bool) -> Game:
    return Game.new(
        "classic",
        [f"P{i}" for i in range(players)],
        seed,
        {"events": True, **options, "rules_version": 2},
    )


def secret_free(game: Game, seat: int) -> str:
    """Everything `seat` and the others may see, to prove an action showed nothing."""
    views = [game.view(v) for v in [None, *range(len(game.state.players))]]
    return json.dumps([views, game.legal_actions(seat)], sort_keys=True)


# --- double_turn ------------------------------------------------------------------------------


def test_the_bonus_turn_lists_decline_before_its_push() -> None:
    game = new(3)
    arm_event(game, "double_turn", "Nb")
    play(game, "Nb")
    assert DECLINE not in game.legal_actions(0)  # not before the bonus turn begins
    events = play(game, "a1")
    assert events[-1] == {"type": "turn", "seat": 0, "bonus": True}
    legal = game.legal_actions(0)
    assert DECLINE in legal and {a["type"] for a in legal} == {"push", "decline"}
    events = game.apply(0, DECLINE)
    assert events == [
        {"type": "declined", "seat": 0},
        {"type": "turn", "seat": 1, "bonus": False},
    ]
    assert game.to_move == 1
    assert game.view(None)["turn"] == {"seat": 1, "phase": "push", "event": None, "bonus": False}
    assert (
        game.engine.notation(DECLINE) == "decline" and parse_action("decline").to_dict() == DECLINE
    )


def test_the_bonus_turn_can_still_be_played() -> None:
    game = new(3)
    arm_event(game, "double_turn", "Nb")
    play(game, "Nb", "a1", "Nd")
    assert DECLINE not in game.legal_actions(0)  # after the push it is too late
    with pytest.raises(IllegalAction, match="decline"):
        game.apply(0, DECLINE)
    assert play(game, "a1")[-1] == {"type": "turn", "seat": 1, "bonus": False}


def test_decline_outside_a_bonus_turn_is_refused_and_changes_nothing() -> None:
    game = new()
    before = secret_free(game, 0)
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, DECLINE)
    assert refused.value.code == "illegal" and "bonus turn" in refused.value.message
    with pytest.raises(IllegalAction) as bad:
        game.apply(0, {"type": "decline", "now": True})
    assert bad.value.code == "bad_message"
    assert secret_free(game, 0) == before


def test_version_1_forces_the_bonus_turn() -> None:
    game = Game.new("classic", ["A", "B", "C"], "v2-seed", {"events": True})
    arm_event(game, "double_turn", "Nb")
    play(game, "Nb", "a1")
    assert game.view(None)["turn"]["bonus"] is True
    assert DECLINE not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="version 1"):
        game.apply(0, DECLINE)


# --- exchange --------------------------------------------------------------------------------


def test_the_pile_stays_hidden_until_opened() -> None:
    game = new()
    arm_event(game, "exchange", "Sf")
    play(game, "Sf")
    for viewer in (None, 0, 1):
        assert "pile" not in game.view(viewer)["players"][0]
    legal = game.legal_actions(0)
    assert OPEN in legal and not any(a["type"] == "pick" for a in legal)
    with pytest.raises(IllegalAction, match="open your pile"):
        play(game, f"pick:{game.state.players[0].pile[-1]}")


def test_declining_without_opening_shows_nothing_and_changes_nothing() -> None:
    game = new()
    arm_event(game, "exchange", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    events = play(game, "a1")  # moving on: the exchange is forfeited
    assert game.state.players[0].pile == pile
    assert all("pile" not in e for e in events) and not any(e["type"] == "opened" for e in events)
    assert "pile" not in game.view(0)["players"][0]


def test_opening_shows_the_pile_to_its_owner_only_and_a_pick_must_follow() -> None:
    game = new()
    arm_event(game, "exchange", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    assert game.apply(0, OPEN) == [{"type": "opened", "seat": 0}]
    assert game.view(0)["players"][0]["pile"] == pile
    assert game.view(0)["turn"]["event"] == {"name": "exchange", "used": False, "opened": True}
    for viewer in (None, 1):
        assert "pile" not in game.view(viewer)["players"][0]
    assert game.legal_actions(0) == [{"type": "pick", "treasure": t} for t in pile]
    for refused in ("a1", "open", "Nb"):
        with pytest.raises(IllegalAction):
            play(game, refused)
    assert game.engine.notation(OPEN) == "open" and parse_action("open").to_dict() == OPEN


@pytest.mark.parametrize("which", [0, -1])
def test_the_chosen_card_goes_on_top_and_the_rest_is_reshuffled_by_the_seeded_rng(
    which: int,
) -> None:
    game = new()
    arm_event(game, "exchange", "Sf")
    pile = game.state.players[0].pile.copy()
    play(game, "Sf")
    game.apply(0, OPEN)
    chosen = pile[which]  # keeping the current top is allowed too
    seq = game.seq + 1
    play(game, f"pick:{chosen}")
    rest = [t for t in pile if t != chosen]
    rng_for("v2-seed", seq).shuffle(rest)
    assert game.state.players[0].pile == [chosen, *rest]
    assert "pile" not in game.view(0)["players"][0]
    assert game.view(0)["turn"]["event"] == {"name": "exchange", "used": True, "opened": False}
    assert all(a["type"] == "move" for a in game.legal_actions(0))


def test_open_is_refused_without_an_exchange_with_an_empty_pile_and_in_version_1() -> None:
    game = new()
    with pytest.raises(IllegalAction, match="push-first"):
        game.apply(0, OPEN)
    play(game, "Sf")
    with pytest.raises(IllegalAction, match="only an unused exchange"):
        game.apply(0, OPEN)
    empty = new(seed="empty")
    arm_event(empty, "exchange", "Sf")
    set_pile(empty, 0, [])
    place(empty, 0, "d4")
    play(empty, "Sf")
    assert OPEN not in empty.legal_actions(0)
    with pytest.raises(IllegalAction, match="empty"):
        empty.apply(0, OPEN)
    old = Game.new("classic", ["A", "B"], "v2-seed", {"events": True})
    arm_event(old, "exchange", "Sf")
    play(old, "Sf")
    assert "pile" in old.view(0)["players"][0]  # version 1 showed it at once
    with pytest.raises(IllegalAction, match="version 1"):
        old.apply(0, OPEN)


@settings(max_examples=30, deadline=None)
@given(seed=st.text(min_size=1, max_size=10), pick=st.integers(0, 11))
def test_exchange_property_the_pile_is_a_permutation_hidden_unless_reshuffled(
    seed: str, pick: int
) -> None:
    """Property: whatever the seed, without opening the pile order is unchanged and never
    shown; with opening, the pile keeps its cards, the chosen one on top."""
    for opened in (False, True):
        game = new(seed=seed)
        arm_event(game, "exchange", "Sf")
        pile = game.state.players[0].pile.copy()
        play(game, "Sf")
        if opened:
            game.apply(0, OPEN)
            chosen = pile[pick % len(pile)]
            play(game, f"pick:{chosen}")
            after = game.state.players[0].pile
            assert after[0] == chosen and sorted(after) == sorted(pile)
        else:
            assert "pile" not in game.view(0)["players"][0]
            play(game, "a1")
            assert game.state.players[0].pile == pile
