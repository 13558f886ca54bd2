"""The registry, options, and the Game wrapper: records, replays, clones."""

from __future__ import annotations

import random

import pytest

from app.rules import ENGINES, Game, IllegalAction, InvalidOptions, get_engine, seed_hash
from app.rules.classic import ENGINE, Push

from .helpers import new_game, play


def random_game(actions: int, seed: str = "g", **options: bool) -> Game:
    game = new_game(3, seed, **options)
    rng = random.Random(seed)
    while game.seq < actions and game.to_move is not None:
        game.apply(game.to_move, rng.choice(game.legal_actions(game.to_move)))
    return game


# --- registry and options -----------------------------------------------------------------


def test_registry() -> None:
    assert set(ENGINES) == {"classic", "master", "team", "cards"}
    assert all(get_engine(variant).variant == variant for variant in ENGINES)
    assert get_engine("classic") is ENGINE
    with pytest.raises(ValueError, match="unknown variant 'chess'; known variants: cards, classic"):
        get_engine("chess")
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    assert len(seed_hash("x")) == 64


def test_options_defaults_and_values() -> None:
    defaults = {"events": False, "return_home": True}
    assert ENGINE.parse_options(None) == defaults
    assert ENGINE.parse_options({}) == defaults
    assert ENGINE.parse_options({"events": True}) == {"events": True, "return_home": True}
    assert ENGINE.parse_options({"return_home": False, "events": True}) == {
        "events": True,
        "return_home": False,
    }


@pytest.mark.parametrize(
    "raw",
    [
        {"events": 1},
        {"events": "true"},
        {"events": None},
        {"return_home": 0},
        {"colour": True},
        {"events": True, "speed": 2},
        [("events", True)],
        "events",
    ],
)
def test_invalid_options(raw: object) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.parse_options(raw)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions):
        Game.new("classic", ["a", "b"], "s", raw)  # type: ignore[arg-type]


# --- the Game wrapper ----------------------------------------------------------------------


def test_game_reads_like_the_game() -> None:
    game = Game.new("classic", ["Ann", "Bob"], "seed")
    assert (game.to_move, game.seq, game.status, game.result) == (0, 0, "playing", None)
    events = game.apply(0, Push.parse("Nb+1"))
    assert events[0]["slot"] == "Nb"
    assert game.actions == [(1, 0, {"type": "push", "side": "N", "index": 1, "rotation": 1})]
    assert game.seq == 1
    assert "Game classic seq=1" in repr(game)


def test_record_and_replay() -> None:
    game = random_game(120, events=True)
    record = game.record()
    assert set(record) == {"variant", "options", "players", "seed", "actions"}
    assert record["options"] == {"events": True, "return_home": True}
    assert [a["seq"] for a in record["actions"]] == list(range(1, game.seq + 1))
    replay = Game.from_record(record)
    for viewer in (None, 0, 1, 2):
        assert replay.view(viewer) == game.view(viewer)
    assert replay.record() == record


def test_replay_upto() -> None:
    game = random_game(60)
    record = game.record()
    partial = Game.from_record(record, upto=25)
    assert partial.seq == 25
    again = Game.from_record({**record, "actions": record["actions"][:25]})
    assert partial.view(None) == again.view(None)
    assert Game.from_record(record, upto=0).view(None) == new_game(3, "g").view(None)


def test_bad_record_names_the_first_bad_action() -> None:
    record = random_game(30).record()
    bad = [dict(a) for a in record["actions"]]
    bad[11] = {**bad[11], "seat": (bad[11]["seat"] + 1) % 3}
    with pytest.raises(IllegalAction) as err:
        Game.from_record({**record, "actions": bad})
    assert err.value.code == "not_your_turn"
    assert err.value.message.startswith("record action seq 12:")
    gap = record["actions"][:5] + record["actions"][6:]
    with pytest.raises(IllegalAction, match="record action seq 7"):
        Game.from_record({**record, "actions": gap})
    broken = [*record["actions"][:3], {"seq": 4, "seat": 0}]
    with pytest.raises(IllegalAction, match="record action seq 4"):
        Game.from_record({**record, "actions": broken})


def test_record_does_not_alias_the_callers_dict() -> None:
    game = new_game()
    action = {"type": "push", "side": "N", "index": 1, "rotation": 0}
    game.apply(0, action)
    action["index"] = 5
    assert game.record()["actions"][0]["action"]["index"] == 1


def test_clone_is_independent() -> None:
    game = random_game(20, events=True)
    copy = game.clone()
    before = game.view(0)
    copy.apply(copy.to_move, copy.legal_actions(copy.to_move)[-1])
    assert game.view(0) == before
    assert len(copy.actions) == len(game.actions) + 1


def test_same_record_same_game_across_runs() -> None:
    a, b = random_game(80, seed="same"), random_game(80, seed="same")
    assert a.record() == b.record() and a.view(None) == b.view(None)


def test_typed_actions_print() -> None:
    game = new_game()
    play(game, "Nb+3")
    [(seq, seat, action)] = game.actions
    assert (seq, seat, ENGINE.notation(action)) == (1, 0, "Nb+3")
