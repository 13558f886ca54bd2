"""Random legal games of the card game (hypothesis), checking the invariants at each step:
48 cards conserved, one edge-joined layout, shapes kept, `legal` exact, no secret in any
view, and an end with the right winners."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalAction
from app.rules.board import shape_of
from app.rules.cards import DECK, ENGINE, CardsState

MAX_ACTIONS = 200  # 48 cards: at most 44 placements or discards plus as many takes


def all_cards(state: CardsState) -> list[int]:
    cards = [c for c, _ in state.layout.cards.values()]
    cards += state.pile + state.discarded
    for player in state.players:
        cards += player.hand + player.taken
    return cards


def check_state(state: CardsState) -> None:
    assert sorted(all_cards(state)) == list(range(48))
    assert state.layout.joined_by_edges()
    for card, opens in state.layout.cards.values():
        assert shape_of(opens) == DECK[card].shape
    turn = state.turn
    for seat, player in enumerate(state.players):
        assert len(player.hand) <= 2
        if state.pile:  # everyone holds two, but the player choosing a take holds one
            taking = turn is not None and turn.phase == "take" and turn.seat == seat
            assert len(player.hand) == (1 if taking else 2)
    if turn is not None and turn.phase == "place":
        assert state.players[turn.seat].hand


def check_views(game: Game) -> None:
    state = game.state
    finished = state.result is not None
    for viewer in [None, *range(len(state.players))]:
        view = game.view(viewer)
        text = json.dumps(view)
        assert view["pile"] == len(state.pile)
        assert len(view["layout"]) == len(state.layout.cards)
        if not finished:
            assert "pile_cards" not in text
        for seat, player in enumerate(view["players"]):
            assert player["hand_count"] == len(state.players[seat].hand)
            assert ("hand" in player) == (finished or seat == viewer)


def universe(game: Game) -> list[dict[str, Any]]:
    """Well-formed actions near the layout, listed or not."""
    state = game.state
    cells = [*state.layout.frontier(), *state.layout.cards]
    actions: list[dict[str, Any]] = [
        {"type": "place", "card": k, "pos": list(c), "rotation": r}
        for c in cells
        for k in range(2)
        for r in range(4)
    ]
    actions += [{"type": "discard", "card": k} for k in range(2)]
    turn = state.turn
    near = list(turn.candidates) if turn is not None else []
    near += list(itertools.islice(state.layout.cards, 3))
    for size in range(3):
        for subset in itertools.combinations(dict.fromkeys(near), size):
            actions.append({"type": "take", "cards": [list(c) for c in subset]})
    return actions


def accepted(game: Game, seat: int, action: dict[str, Any]) -> bool:
    try:
        game.clone().apply(seat, action)
    except IllegalAction:
        return False
    return True


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.text(min_size=1, max_size=8),
    choices=st.randoms(use_true_random=False),
)
def test_random_games_keep_the_invariants(players: int, seed: str, choices: random.Random) -> None:
    game = Game.new("cards", [f"P{i}" for i in range(players)], seed)
    for _ in range(MAX_ACTIONS):
        check_state(game.state)
        check_views(game)
        seat = game.to_move
        if seat is None:
            break
        listed = game.legal_actions(seat)
        assert listed, "the seat to move always has an action"
        assert all(game.legal_actions(s) == [] for s in range(players) if s != seat)
        if listed[0]["type"] == "take":
            sizes = [len(a["cards"]) for a in listed]
            assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 0
        for action in choices.sample(universe(game), 12):
            assert accepted(game, seat, action) == (action in listed), action
        game.apply(seat, choices.choice(listed))
    result = game.result
    assert result is not None, "the game ends"
    state = game.state
    assert not state.pile and all(not p.hand for p in state.players)
    scores = [len(p.taken) for p in state.players]
    assert result["scores"] == scores
    assert result["winners"] == [s for s, n in enumerate(scores) if n == max(scores)]
    assert Game.from_record(game.record()).view(None) == game.view(None)
    assert ENGINE.reveal(state) == game.view(None) | {"you": None}
