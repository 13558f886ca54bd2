"""Card game, rules version 2: linking two identical treasures is compulsory when possible
(cards.md, decision). A placement links when, after it, the placed card's treasure is
joined by a path to another card of the same treasure; if any placement of any hand card
links, only the linking ones are legal. Version 1 games keep any fitting placement."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalAction
from app.rules.board import rotate
from app.rules.cards import DECK, ENGINE, Place

from .cards_helpers import lay, set_hand

V2 = {"rules_version": 2}


def new(players: int = 2, seed: str = "link", version: int = 2) -> Game:
    options = V2 if version == 2 else None
    return Game.new("cards", [f"P{i}" for i in range(players)], seed, options)


def chest_row(game: Game) -> None:
    """chest ─ owl in a row; seat 0 holds a chest L and a ghost I."""
    lay(game, {(0, 0): ("chest", "I", "EW"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("chest", "L"), ("ghost", "I")])


def places(game: Game, seat: int = 0) -> set[tuple[int, tuple[int, int], int]]:
    return {
        (a["card"], tuple(a["pos"]), a["rotation"])
        for a in game.legal_actions(seat)
        if a["type"] == "place"
    }


def test_legal_lists_exactly_the_linking_placements() -> None:
    game = new()
    chest_row(game)
    # L printed NE: +2 is SW, +3 WN (meet the owl's E at 2,0); +0 NE, +1 ES meet the chest's W
    assert places(game) == {(0, (2, 0), 2), (0, (2, 0), 3), (0, (-1, 0), 0), (0, (-1, 0), 1)}
    assert game.view(0)["players"][0]["must_link"] is True
    assert "must_link" not in game.view(1)["players"][0]
    assert "must_link" not in game.view(None)["players"][0]


def test_a_non_linking_placement_is_refused_saying_a_linking_one_exists() -> None:
    game = new()
    chest_row(game)
    before = (game.view(0), game.legal_actions(0))
    for action in (Place(1, (2, 0), 1), Place(1, (-1, 0), 1)):  # the ghost fits, links nothing
        assert ENGINE.placements(game.state, 0).count(action) == 1
        with pytest.raises(IllegalAction) as refused:
            game.apply(0, action.to_dict())
        assert refused.value.code == "illegal"
        assert "linking" in refused.value.message and "exists" in refused.value.message
    assert (game.view(0), game.legal_actions(0)) == before
    events = game.apply(0, Place(0, (2, 0), 3).to_dict())
    assert [e["type"] for e in events] == ["placed", "can_take"]
    assert events[1]["cards"] == [[0, 0]]


def test_without_a_linking_placement_every_fitting_one_is_legal() -> None:
    game = new()
    lay(game, {(0, 0): ("chest", "I", "EW"), (1, 0): ("owl", "I", "EW")})
    set_hand(game, 0, [("ghost", "L"), ("ghost", "I")])
    fitting = {(p.card, p.pos, p.rotation) for p in ENGINE.placements(game.state, 0)}
    assert fitting and places(game) == fitting
    assert game.view(0)["players"][0]["must_link"] is False
    game.apply(0, Place(1, (2, 0), 1).to_dict())  # accepted


def test_a_path_over_other_motifs_links_and_a_closed_edge_does_not() -> None:
    game = new()
    # chest ─ owl ─ dragon; a chest laid after the dragon links through two cards
    lay(
        game,
        {
            (0, 0): ("chest", "I", "EW"),
            (1, 0): ("owl", "I", "EW"),
            (2, 0): ("dragon", "I", "NS"),  # closed towards the owl: the path stops
        },
    )
    set_hand(game, 0, [("chest", "T"), ("ghost", "I")])
    linking = places(game)
    assert linking and all(pos == (-1, 0) for _, pos, _ in linking)


def test_version_1_accepts_a_non_linking_placement() -> None:
    game = new(version=1)
    chest_row(game)
    assert (1, (2, 0), 1) in places(game)
    game.apply(0, Place(1, (2, 0), 1).to_dict())
    assert game.seq == 1


def brute_links(game: Game, seat: int, place: Place) -> bool:
    """The definition, tried for real: lay the card on a copy and look for the motif."""
    twin = game.clone()
    card = twin.state.players[seat].hand[place.card]
    twin.state.layout.cards[place.pos] = (card, rotate(DECK[card].opens, place.rotation))
    return bool(ENGINE._candidates(twin.state.layout, place.pos))


@settings(max_examples=12, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), players=st.integers(2, 6))
def test_property_legal_is_the_linking_set_when_one_exists_in_whole_games(
    seed: str, players: int
) -> None:
    """Property over whole random games: at every placement turn, the legal placements
    are the linking ones if any fitting placement links (checked by laying each card for
    real), else every fitting one; every refused fitting placement names the rule."""
    game = new(players, seed)
    rng = random.Random(seed)
    while game.result is None:
        assert game.seq < 400
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions(seat)
        if game.state.turn.phase == "place" and legal[0]["type"] == "place":
            fitting = ENGINE.placements(game.state, seat)
            linking = [p for p in fitting if brute_links(game, seat, p)]
            expected = linking or fitting
            assert [Place.from_dict(a) for a in legal] == expected
            assert game.view(seat)["players"][seat]["must_link"] is bool(linking)
        game.apply(seat, rng.choice(legal))
