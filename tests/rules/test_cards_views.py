"""Wire parsing, notation, views, secrets and replays of the card game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules import Game, IllegalAction
from app.rules.cards import DECK, ENGINE, Discard, Place, Take, action_from_dict, parse_action
from tests.rules.cards_helpers import lay, new_game, play, set_hand, state

# --- actions and notation -------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["h0@2,-1+1", "h1@0,0", "h0@-3,12+3", "take:0,-1/3,1", "take:-", "discard:h1"]
)
def test_notation_round_trips(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert action_from_dict(action.to_dict()) == action
    assert ENGINE.notation(action.to_dict()) == text


def test_take_cells_are_kept_in_reading_order() -> None:
    assert str(Take.of([(3, 1), (0, -1), (1, 1)])) == "take:0,-1/1,1/3,1"
    wire = {"type": "take", "cards": [[3, 1], [0, -1]]}
    assert action_from_dict(wire) == Take(((0, -1), (3, 1)))


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {"type": "push"},
        {"type": "place", "card": 0, "pos": [0, 1]},
        {"type": "place", "card": 0, "pos": [0, 1], "rotation": 0, "x": 1},
        {"type": "place", "card": 2, "pos": [0, 1], "rotation": 0},
        {"type": "place", "card": True, "pos": [0, 1], "rotation": 0},
        {"type": "place", "card": 0, "pos": [0], "rotation": 0},
        {"type": "place", "card": 0, "pos": [0, 1.0], "rotation": 0},
        {"type": "place", "card": 0, "pos": [0, 10**6], "rotation": 0},
        {"type": "place", "card": 0, "pos": [0, 1], "rotation": 4},
        {"type": "take", "cards": [[0, 0], [0, 0]]},
        {"type": "take", "cards": "0,0"},
        {"type": "take", "cards": [[0, 0, 0]]},
        {"type": "discard", "card": -1},
        {"type": "discard"},
    ],
)
def test_malformed_actions_are_bad_messages(action: Any) -> None:
    game = new_game()
    before = ENGINE.reveal(game.state)
    with pytest.raises(IllegalAction) as info:
        game.apply(0, action)
    assert info.value.code == "bad_message"
    assert ENGINE.reveal(game.state) == before and game.seq == 0


def test_bad_notation_is_a_value_error() -> None:
    for text in ["h2@0,0", "h0@0,0+4", "take:", "take:a,b", "discard:h2", "place"]:
        with pytest.raises(ValueError):
            parse_action(text)


def test_typed_actions_apply_through_game() -> None:
    game = new_game()
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    set_hand(game, 0, [("owl", "I"), ("map", "T")])
    game.apply(0, Place(0, (0, 1)))
    assert (0, 1) in state(game).layout.cards
    assert Discard(1).to_dict() == {"type": "discard", "card": 1}


# --- views ----------------------------------------------------------------------------


def test_views_show_the_protocol_fields_and_only_ones_own_hand() -> None:
    game = new_game(3)
    st = state(game)
    for viewer in [None, 0, 1, 2]:
        view = game.view(viewer)
        json.dumps(view)
        assert view["variant"] == "cards" and view["you"] == viewer
        assert view["seq"] == 0 and view["status"] == "playing" and view["result"] is None
        assert view["turn"] == {"seat": 0, "phase": "place", "placed": None, "takeable": []}
        assert view["pile"] == len(st.pile) == 38
        assert {tuple(c["pos"]) for c in view["layout"]} == set(st.layout.cards)
        assert all(set(c) == {"pos", "open", "motif"} for c in view["layout"])
        assert "pile_cards" not in view
        for seat, player in enumerate(view["players"]):
            assert player["hand_count"] == 2 and player["taken"] == []
            assert player["color"] == ["red", "yellow", "green"][seat]
            if seat == viewer:
                assert player["hand"] == [DECK[c].to_dict() for c in st.players[seat].hand]
            else:
                assert "hand" not in player


def test_six_seats_take_six_colours() -> None:
    colours = [p["color"] for p in new_game(6).view(None)["players"]]
    assert colours == ["red", "yellow", "green", "blue", "purple", "orange"]


def test_reveal_shows_every_hand_and_the_pile_in_order() -> None:
    game = new_game(2)
    st = state(game)
    shown = ENGINE.reveal(st)
    assert shown["you"] is None and shown["status"] == "playing"
    assert [p["hand"] for p in shown["players"]] == [
        [DECK[c].to_dict() for c in p.hand] for p in st.players
    ]
    assert shown["pile_cards"] == [DECK[c].to_dict() for c in st.pile]
    assert shown["pile"] == len(st.pile)
    json.dumps(shown)


def test_a_finished_game_shows_everything_to_everyone() -> None:
    game = new_game(2)
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    st = state(game)
    st.pile = []
    set_hand(game, 0, [("owl", "I")])
    st.players[1].hand = []
    play(game, "h0@0,1")
    for viewer in [None, 0, 1]:
        view = game.view(viewer)
        assert view["status"] == "finished" and view["pile_cards"] == []
        assert all("hand" in p for p in view["players"])


def test_drawn_cards_go_to_the_drawer_alone() -> None:
    game = new_game(2)
    lay(game, {(0, 0): ("ghost", "I", "NS")})
    set_hand(game, 0, [("owl", "I"), ("map", "T")])
    events = play(game, "h0@0,1")
    drew = next(e for e in events if e["type"] == "drew")
    assert drew["cards"] == [DECK[state(game).players[0].hand[-1]].to_dict()]
    own = ENGINE.redact_events(game.state, events, 0)
    other = ENGINE.redact_events(game.state, events, 1)
    spectator = ENGINE.redact_events(game.state, events, None)
    assert next(e for e in own if e["type"] == "drew") == drew
    for shown in (other, spectator):
        assert next(e for e in shown if e["type"] == "drew") == {
            "type": "drew", "seat": 0, "count": 1
        }  # fmt: skip
    placed = {"type": "place", "card": 0, "pos": [0, 1], "rotation": 0}
    assert ENGINE.redact_action(game.state, 0, placed, 1) == placed


def test_a_replay_reproduces_the_game() -> None:
    game = Game.new("cards", ["A", "B", "C"], "replay-seed")
    for _ in range(20):
        game.apply(game.to_move, game.legal_actions(game.to_move)[0])
    replay = Game.from_record(game.record())
    assert replay.view(None) == game.view(None)
    assert ENGINE.reveal(replay.state) == ENGINE.reveal(game.state)
    halfway = Game.from_record(game.record(), upto=10)
    assert halfway.seq == 10


def test_clone_is_independent() -> None:
    game = new_game()
    twin = game.clone()
    twin.apply(0, twin.legal_actions(0)[0])
    assert game.seq == 0 and twin.seq == 1
    assert ENGINE.reveal(game.state) != ENGINE.reveal(twin.state)
