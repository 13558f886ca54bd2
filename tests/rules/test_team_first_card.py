"""Team Edition, rules version 2: the board starts face up in front of everyone and the
first Daedalus card is turned as the first step of the first turn (`daedalus` action),
an event everyone sees, instead of during setup (version 1, kept for its records)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalAction
from app.rules.team import DAEDALUS_CARDS, parse_action

V2 = {"rules_version": 2}


def new(players: int = 2, seed: str = "first-card", mode: str = "introductory") -> Game:
    return Game.new("team", [f"P{i}" for i in range(players)], seed, {"mode": mode, **V2})


def face_down(view: dict) -> int:
    return sum(1 for row in view["board"]["tiles"] for tile in row if tile["face_down"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seq_0_shows_the_whole_board_face_up_and_the_book_shut(players: int) -> None:
    game = new(players)
    for viewer in [None, *range(players)]:
        view = game.view(viewer)
        assert view["seq"] == 0 and face_down(view) == 0
        assert view["daedalus"] == {"left": 24, "card": None, "effect": None}
        assert view["turn"]["seat"] == 0 and view["turn"]["phase"] == "daedalus"
        assert [p["pos"] for p in view["players"]] == [p["home"] for p in view["players"]]
    assert game.legal_actions(0) == [{"type": "daedalus"}]
    assert all(game.legal_actions(s) == [] for s in range(1, players))


def test_turning_the_first_card_is_the_first_event_of_the_first_turn() -> None:
    game = new(4)
    top = game.state.daedalus_deck[0]
    events = game.apply(0, {"type": "daedalus"})
    assert events == [
        {
            "type": "daedalus",
            "card": dict(DAEDALUS_CARDS[top]),
            "left": 23,
            "effect": game.view(None)["daedalus"]["effect"],
        }
    ]
    view = game.view(1)
    assert view["seq"] == 1 and view["turn"]["phase"] == "play" and view["turn"]["seat"] == 0
    assert view["daedalus"]["card"] == DAEDALUS_CARDS[top]
    assert {"type": "daedalus"} not in game.legal_actions(0)
    assert game.engine.notation({"type": "daedalus"}) == "daedalus"
    assert parse_action("daedalus").to_dict() == {"type": "daedalus"}


def test_nothing_else_comes_before_the_first_card_and_it_is_turned_once() -> None:
    game = new()
    before = json.dumps(game.view(None), sort_keys=True)
    for action in ({"type": "end"}, {"type": "move", "to": [0, 0], "spell": False}):
        with pytest.raises(IllegalAction) as refused:
            game.apply(0, action)
        assert refused.value.code == "illegal" and "daedalus-first" in refused.value.message
    with pytest.raises(IllegalAction) as other:
        game.apply(1, {"type": "daedalus"})
    assert other.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as extra:
        game.apply(0, {"type": "daedalus", "x": 1})
    assert extra.value.code == "bad_message"
    assert json.dumps(game.view(None), sort_keys=True) == before
    game.apply(0, {"type": "daedalus"})
    with pytest.raises(IllegalAction) as again:
        game.apply(0, {"type": "daedalus"})
    assert again.value.code == "illegal"


def test_later_cards_are_still_turned_by_the_end_of_the_turn_before() -> None:
    game = new()
    game.apply(0, {"type": "daedalus"})
    events = game.apply(0, {"type": "end"})
    assert [e["type"] for e in events] == ["ended", "turn", "daedalus"]
    assert events[-1]["left"] == 22


def test_version_1_still_turns_the_first_card_during_setup() -> None:
    game = Game.new("team", ["A", "B"], "first-card", {"mode": "introductory"})
    assert game.view(None)["daedalus"]["left"] == 23
    assert game.view(None)["turn"]["phase"] == "play"
    assert {"type": "daedalus"} not in game.legal_actions(0)
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "daedalus"})


@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=12))
def test_the_first_card_does_what_version_1_did_during_setup(seed: str) -> None:
    """Property: same seed, two seats (whose corners are the same in both versions):
    after the `daedalus` action the game is where version 1's setup left it."""
    old = Game.new("team", ["A", "B"], seed, {"mode": "standard"})
    new_game = Game.new("team", ["A", "B"], seed, {"mode": "standard", **V2})
    assert face_down(new_game.view(None)) == 0
    new_game.apply(0, {"type": "daedalus"})
    b = new_game.engine.reveal(new_game.state)
    a = old.engine.reveal(old.state)
    for key in ("board", "players", "daedalus", "treasure_deck_order", "daedalus_deck_order"):
        assert a[key] == b[key], key
