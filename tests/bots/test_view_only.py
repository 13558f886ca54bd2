"""A computer player decides from its seat's view only (what a human there sees).

Three checks: the decision is a function of (view, legal, rng state); the player never
writes to the view it is handed (a deep read-only copy works the same); and a property
test changes the engine's hidden state (other hands and piles, deck orders, unrevealed
events, face-down tiles) without changing the seat's view, and finds the same decision.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.bots import LEVELS, Level, choose
from app.rules import Game
from tests.bots.helpers import VARIANTS, freeze, position_after, positions, thaw, variant_id


@pytest.mark.parametrize("case", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_decision(case: tuple[str, dict[str, Any]], level: Level) -> None:
    variant, options = case
    for k, game in enumerate(positions(variant, options, f"same-{level}", steps=120)):
        if k % 4:
            continue
        seat = game.to_move
        view, legal = game.view(seat), game.legal_actions(seat)
        first = choose(variant, level, copy.deepcopy(view), copy.deepcopy(legal), random.Random(k))
        again = choose(variant, level, copy.deepcopy(view), copy.deepcopy(legal), random.Random(k))
        frozen = choose(variant, level, freeze(view), copy.deepcopy(legal), random.Random(k))
        assert first == again == thaw(frozen)
        assert view == game.view(seat)  # nothing written to the view


# -- hidden state changed, view unchanged ----------------------------------------------------


def _shuffle_hidden(game: Game, seat: int, rng: random.Random) -> None:
    """Change what `seat` cannot see, in place."""
    state = game.state
    variant = game.variant
    if variant == "classic":
        for i, player in enumerate(state.players):
            keep = 1 if i == seat else 0  # one's own target is seen
            rest = player.pile[keep:]
            rng.shuffle(rest)
            player.pile[keep:] = rest
        hidden = [t for t in state.tile_events if t not in state.revealed]
        events = [state.tile_events[t] for t in hidden]
        rng.shuffle(events)
        state.tile_events = {**state.tile_events, **dict(zip(hidden, events, strict=True))}
    elif variant == "master":
        rng.shuffle(state.reserve)
        for i, player in enumerate(state.players):
            if i != seat:  # same count of 1-6 and 7-12 cards, other values
                player.hand[:] = sorted(
                    rng.randint(1, 6) if v <= 6 else rng.randint(7, 12) for v in player.hand
                )
    elif variant == "cards":
        pool = list(state.pile)
        for i, player in enumerate(state.players):
            if i != seat:
                pool += player.hand
        rng.shuffle(pool)
        for i, player in enumerate(state.players):
            if i != seat:
                player.hand[:] = [pool.pop() for _ in player.hand]
        state.pile[:] = pool
    elif variant == "team":
        rng.shuffle(state.treasure_deck)
        rng.shuffle(state.daedalus_deck)
        board = state.board
        down_cells = [c for c, t in enumerate(board.tiles) if t in state.down]
        tiles = [(board.tiles[c], board.opens[c]) for c in down_cells]
        rng.shuffle(tiles)
        for cell, (tile, opens) in zip(down_cells, tiles, strict=True):
            board.tiles[cell], board.opens[cell] = tile, opens
        board.refresh()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    case=st.sampled_from(VARIANTS),
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
    players=st.integers(2, 4),
)
def test_decision_does_not_depend_on_hidden_state(
    case: tuple[str, dict[str, Any]], level: Level, seed: int, steps: int, players: int
) -> None:
    variant, options = case
    if variant == "cards":
        players += 2  # up to 6
    game = position_after(variant, options, f"hidden-{seed}", players, steps)
    seat = game.to_move
    assume(seat is not None)
    twin = game.clone()
    _shuffle_hidden(twin, seat, random.Random(seed))
    view = game.view(seat)
    assume(view == twin.view(seat))  # e.g. an exchange shows the whole pile: not hidden
    legal = game.legal_actions(seat)
    assume(legal == twin.legal_actions(seat))
    mine = choose(variant, level, view, legal, random.Random(seed))
    theirs = choose(variant, level, twin.view(seat), twin.legal_actions(seat), random.Random(seed))
    assert mine == theirs
