"""Random legal games (hypothesis) checking the invariants of the rules and of the views.

Games are driven by `legal_actions`, mostly by a greedy player (push so that the goal is
reachable, then walk to it) so that many games reach their end, sometimes at random. They
are played by either rules version: version 2's own actions (`decline`, `open_pile`) are
in the universe of actions, so that their listing is held exact as every other one.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import Game, IllegalAction
from app.rules.board import FIXED_CELLS, FIXED_OPENINGS, SLOTS, Slot, carried, shape_of
from app.rules.classic import CATALOGUE, TREASURES

MAX_ACTIONS = 400
TILE_OF = {t.treasure: i for i, t in enumerate(CATALOGUE) if t.treasure}


def action_universe(players: int) -> list[dict[str, Any]]:
    """Every well-formed action of the variant, listed or not."""
    pushes = [
        {"type": "push", "side": s.side, "index": s.index, "rotation": r}
        for s in SLOTS
        for r in range(4)
    ]
    moves = [{"type": "move", "to": [r, c]} for r in range(7) for c in range(7)]
    swaps = [{"type": "swap", "with": s} for s in range(players)]
    picks = [{"type": "pick", "treasure": t} for t in TREASURES]
    return pushes + moves + swaps + picks + [{"type": "open_pile"}, {"type": "decline"}]


def snapshot(game: Game) -> str:
    views = [game.view(v) for v in [None, *range(len(game.players))]]
    st_ = game.state
    return json.dumps(
        [views, st_.board.tiles, st_.board.opens, [[p.pos, p.pile] for p in st_.players]],
        sort_keys=True,
    )


# --- invariants ------------------------------------------------------------------------


def check_tiles(game: Game) -> None:
    board = game.state.board
    assert sorted([*board.tiles, board.spare]) == list(range(50))
    for cell in FIXED_CELLS:
        assert board.info(cell).fixed and board.opens[cell] == FIXED_OPENINGS[cell]
    movable = [(t, board.opens[c]) for c, t in enumerate(board.tiles) if c not in FIXED_CELLS]
    movable.append((board.spare, board.spare_open))
    assert len(movable) == 34
    assert all(shape_of(mask) == CATALOGUE[t].shape for t, mask in movable)
    assert Counter(CATALOGUE[t].shape for t, _ in movable) == {"I": 13, "L": 15, "T": 6}
    shown = [CATALOGUE[t].treasure for t in [*board.tiles, board.spare]]
    assert sorted(t for t in shown if t) == sorted(TREASURES)


def check_cards(game: Game) -> None:
    cards = [t for p in game.state.players for t in [*p.pile, *p.found]]
    assert sorted(cards) == sorted(TREASURES)


def check_views(game: Game) -> None:
    state = game.state
    finished = state.result is not None
    for viewer in [None, *range(len(state.players))]:
        view = game.view(viewer)
        json.dumps(view)
        for seat, player in enumerate(view["players"]):
            if finished:
                assert "target" in player and "pile" in player
            elif seat != viewer:
                assert not {"target", "peek", "pile"} & set(player)
        if not state.options["events"]:
            continue
        for r, row in enumerate(view["board"]["tiles"]):
            for c, tile in enumerate(row):
                check_event_field(game, state.board.tiles[r * 7 + c], tile, finished)
        check_event_field(game, state.board.spare, view["board"]["spare"], finished)


def check_event_field(game: Game, tile_id: int, tile: dict[str, Any], finished: bool) -> None:
    secret = game.state.tile_events.get(tile_id)
    if finished or tile_id in game.state.revealed:
        assert tile["event"] == secret
    else:
        assert tile["event"] is None


def check_exact_legality(game: Game, legal: list[dict[str, Any]], rng: random.Random) -> None:
    """Each listed action is accepted, every accepted one is listed; a few refused ones are
    tried on the game itself and must leave it untouched."""
    seat = game.to_move
    listed = {json.dumps(a, sort_keys=True) for a in legal}
    assert len(listed) == len(legal)
    refused = []
    for action in action_universe(len(game.players)):
        try:
            game.clone().apply(seat, action)
            accepted = True
        except IllegalAction as err:
            assert err.code in ("illegal", "bad_message")
            accepted = False
            refused.append(action)
        assert accepted == (json.dumps(action, sort_keys=True) in listed), action
    before = snapshot(game)
    tries = [*rng.sample(refused, min(3, len(refused))), {"type": "push", "side": "Q"}]
    for action in tries:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
    assert snapshot(game) == before


# --- a player ---------------------------------------------------------------------------


def goal_cell(game: Game, seat: int) -> int | None:
    """Where the player wants to be: its target's tile, or home with an empty pile."""
    player, board = game.state.players[seat], game.state.board
    if player.target is None:
        return player.home
    return board.cell_of_tile(TILE_OF[player.target])


def choose(
    game: Game, legal: list[dict[str, Any]], rng: random.Random, greed: float = 0.75
) -> dict[str, Any]:
    if rng.random() >= greed:
        return rng.choice(legal)
    seat = game.to_move
    assert seat is not None
    state, goal = game.state, goal_cell(game, seat)
    pos = state.players[seat].pos
    if state.turn.phase == "push":
        # a bonus turn (version 2) lists `decline` among its pushes
        good = [a for a in legal if a["type"] == "push" and goal_after_push(game, a, pos)]
        return rng.choice(good or legal)
    if goal is not None and {"type": "move", "to": [goal // 7, goal % 7]} in legal:
        return {"type": "move", "to": [goal // 7, goal % 7]}
    return rng.choice(legal)


def goal_after_push(game: Game, action: dict[str, Any], pos: int) -> bool:
    board, seat = game.state.board, game.to_move
    slot = Slot(action["side"], action["index"])
    player = game.state.players[seat]  # type: ignore[index]
    if player.target is None:
        goal = player.home
    else:
        cell = board.cell_of_tile(TILE_OF[player.target])
        goal = slot.line[0] if cell is None else carried(slot, cell)
    return bool(board.reach_after_push(slot, action["rotation"], pos) >> goal & 1)


# --- the property -----------------------------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(alphabet="abcdef0123456789", min_size=1, max_size=12),
    players=st.integers(2, 4),
    events=st.booleans(),
    return_home=st.booleans(),
    chooser=st.integers(0, 2**32),
    greed=st.sampled_from([0.0, 0.5, 0.9]),
    version=st.sampled_from([1, 2]),
)
def test_random_legal_games(
    seed: str,
    players: int,
    events: bool,
    return_home: bool,
    chooser: int,
    greed: float,
    version: int,
) -> None:
    options = {"events": events, "return_home": return_home, "rules_version": version}
    game = Game.new("classic", [f"p{i}" for i in range(players)], seed, options)
    rng = random.Random(chooser)
    checkpoint = rng.randrange(1, MAX_ACTIONS)
    saved: list[dict[str, Any]] | None = None
    for step in range(MAX_ACTIONS):
        check_tiles(game)
        check_cards(game)
        check_views(game)
        if game.seq == checkpoint:
            saved = [game.view(v) for v in [None, *range(players)]]
        seat = game.to_move
        if seat is None:
            assert game.status == "finished" and game.result is not None
            assert all(game.legal_actions(s) == [] for s in [None, *range(players)])
            with pytest.raises(IllegalAction) as err:
                game.apply(0, {"type": "move", "to": [0, 0]})
            assert err.value.code == "finished"
            break
        legal = game.legal_actions(seat)
        assert legal
        assert all(game.legal_actions(s) == [] for s in [None, *range(players)] if s != seat)
        turn = game.state.turn
        if step % 15 == 0 or (turn.event is not None and not turn.used):
            check_exact_legality(game, legal, rng)
        else:
            for action in rng.sample(legal, min(4, len(legal))):
                game.clone().apply(seat, action)
        game.apply(seat, choose(game, legal, rng, greed))

    replay = Game.from_record(game.record())
    for viewer in [None, *range(players)]:
        assert replay.view(viewer) == game.view(viewer)
    if saved is not None:
        partial = Game.from_record(game.record(), upto=checkpoint)
        assert [partial.view(v) for v in [None, *range(players)]] == saved
