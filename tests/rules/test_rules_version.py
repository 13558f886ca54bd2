"""Rules versions: the option `rules_version`, and the clockwise seat order of version 2.

A game's options say which rules it is played by; their absence means version 1, so
records stored before version 2 re-play as played (tests/rules/test_records_v1.py), while
new rooms are stamped with the current version (`new_options`).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import RULES_VERSION, Game, InvalidOptions, get_engine, new_options
from app.rules.base import rules_version

VARIANTS = ("classic", "master", "team", "cards")
V2 = {"rules_version": 2}


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_absent_version_means_1_and_adds_nothing(variant: str) -> None:
    options = get_engine(variant).parse_options({})
    assert "rules_version" not in options and rules_version(options) == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_new_rooms_are_stamped_with_the_current_version(variant: str) -> None:
    assert RULES_VERSION == 2
    assert new_options(variant, None)["rules_version"] == RULES_VERSION
    assert new_options(variant, {})["rules_version"] == RULES_VERSION
    assert new_options(variant, {"rules_version": 1})["rules_version"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bad", [0, 3, -1, True, "2", 2.0, None, [2]])
def test_a_bad_version_is_refused(variant: str, bad: Any) -> None:
    with pytest.raises(InvalidOptions, match="rules_version"):
        get_engine(variant).parse_options({"rules_version": bad})


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_version_round_trips_through_a_record(variant: str) -> None:
    game = Game.new(variant, names(2), "rv", new_options(variant, {}))
    record = game.record()
    assert record["options"]["rules_version"] == 2
    assert Game.from_record(record).options == game.options
    assert game.view(None)["options"]["rules_version"] == 2


@pytest.mark.parametrize("variant", ["classic", "team"])
def test_classic_and_team_seats_go_clockwise_round_the_corners(variant: str) -> None:
    game = Game.new(variant, names(4), "order", V2)
    view = game.view(None)
    assert [p["home"] for p in view["players"]] == [[0, 0], [0, 6], [6, 6], [6, 0]]
    assert [p["pos"] for p in view["players"]] == [[0, 0], [0, 6], [6, 6], [6, 0]]
    assert [p["color"] for p in view["players"]] == ["red", "yellow", "blue", "green"]
    old = Game.new(variant, names(4), "order", None).view(None)
    assert [p["home"] for p in old["players"]] == [[0, 0], [0, 6], [6, 0], [6, 6]]
    assert [p["color"] for p in old["players"]] == ["red", "yellow", "green", "blue"]


def test_master_seats_go_clockwise_round_the_inner_fields() -> None:
    view = Game.new("master", names(4), "order", V2).view(None)
    assert [p["pos"] for p in view["players"]] == [[2, 2], [2, 4], [4, 4], [4, 2]]
    assert [p["color"] for p in view["players"]] == ["red", "yellow", "blue", "green"]
    old = Game.new("master", names(4), "order", None).view(None)
    assert [p["pos"] for p in old["players"]] == [[2, 2], [2, 4], [4, 2], [4, 4]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_consecutive_seats_take_clockwise_adjacent_corners(players: int) -> None:
    """Property: walking the seats in play order, each next home is the next corner
    clockwise (a1 -> g1 -> g7 -> a7), whatever the number of players."""
    clockwise = [[0, 0], [0, 6], [6, 6], [6, 0]]
    for variant in ("classic", "team"):
        homes = [p["home"] for p in Game.new(variant, names(players), "p", V2).view(0)["players"]]
        assert homes == clockwise[:players]


def test_team_teleport_sends_the_named_colours_pawns() -> None:
    """Version 2 seats 2 and 3 are blue and green: a teleport card naming green and blue
    moves seats 3 and 2, to red's corner a1."""
    game = Game.new("team", names(4), "tp", V2)
    engine = game.engine
    for player in game.state.players:
        player.pos = 24
    event = engine._daedalus_teleport(game.state, ["green", "blue"], "red")
    assert sorted(event["seats"]) == [2, 3] and event["to"] == [0, 0]
    assert [p.pos for p in game.state.players] == [24, 24, 0, 0]


def test_team_standard_spells_follow_the_seat_colours() -> None:
    options = {"mode": "standard", "spell_blue": "escape", "spell_green": "traverse", **V2}
    game = Game.new("team", names(4), "sp", options)
    assert game.view(None)["players"][2]["spells"][1] == "escape"
    assert game.view(None)["players"][3]["spells"][1] == "traverse"
