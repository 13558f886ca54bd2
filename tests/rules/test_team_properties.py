"""Random Team Edition games (hypothesis) in each mode, checking the invariants and,
above all, secrecy.

Secrecy is tested two ways at every step:
- indistinguishability: a twin state with the same public facts but other secrets (the
  face-down tiles' identities and orientations permuted among themselves, both decks
  reshuffled) must give every viewer the same view, the player the same legal list, the
  same refusal messages, and the same events for actions that turn nothing face up;
- scanning: every event and redacted action sent to any viewer names no card still in
  the Book of Daedalus and shows no tile face that is face down after the action.
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
from app.rules.board import BASE_OPENING, FIXED_CELLS, FIXED_OPENINGS, SLOTS, rotate, shape_of
from app.rules.team import CATALOGUE, DAEDALUS_CARDS, ENGINE, TREASURES, TeamState

MAX_ACTIONS = 300
OPENS = ["NE", "ES", "SW", "NW", "NS", "EW", "NES", "ESW", "NSW", "NEW"]


def action_universe() -> list[dict[str, Any]]:
    """Every well-formed action of the variant, listed or not."""
    cells = [[r, c] for r in range(7) for c in range(7)]
    pushes = [
        {"type": "push", "side": s.side, "index": s.index, "rotation": r}
        for s in SLOTS
        for r in range(4)
    ]
    rotates = [{"type": "rotate", "at": cell, "open": o} for cell in cells for o in OPENS]
    switches = [
        {"type": "switch", "cells": [[r, c], [r + dr, c + dc]]}
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1))
        if 0 <= r + dr < 7 and 0 <= c + dc < 7
    ]
    moves = [{"type": "move", "to": cell, "spell": s} for cell in cells for s in (False, True)]
    orients = [{"type": "orient", "open": o} for o in OPENS]
    return [*pushes, *rotates, *switches, *moves, *orients, {"type": "end"}]


UNIVERSE = action_universe()


def viewers(game: Game) -> list[int | None]:
    return [None, *range(len(game.players))]


# --- invariants ----------------------------------------------------------------------------


def check_invariants(game: Game) -> None:
    state: TeamState = game.state
    board = state.board
    assert sorted([*board.tiles, board.spare]) == list(range(50))
    for cell in FIXED_CELLS:
        assert board.opens[cell] == FIXED_OPENINGS[cell]
        assert board.tiles[cell] not in state.down
    movable = [(t, board.opens[c]) for c, t in enumerate(board.tiles) if c not in FIXED_CELLS]
    assert all(
        shape_of(m) == CATALOGUE[t].shape for t, m in [*movable, (board.spare, board.spare_open)]
    )
    assert board.spare not in state.down  # the spare always lies face up
    down_cells = {board.tiles.index(t) for t in state.down}
    assert not any(p.pos in down_cells for p in state.players)  # no pawn on a back
    cards = [*state.treasure_deck, *state.portal, *(t for p in state.players for t in p.board)]
    assert Counter(cards) == Counter(TREASURES)
    assert all(len(p.board) <= 2 for p in state.players)
    turned = 24 - len(state.daedalus_deck)
    assert len(set(state.daedalus_deck)) == len(state.daedalus_deck) and turned >= 1
    if len(state.portal) == 24:
        assert game.result == {
            "winners": list(range(len(state.players))),
            "reason": "all_collected",
        }


def check_views(game: Game) -> None:
    state: TeamState = game.state
    finished = state.result is not None
    for viewer in viewers(game):
        view = game.view(viewer)
        json.dumps(view)
        tiles = [*(t for row in view["board"]["tiles"] for t in row), view["board"]["spare"]]
        backs = [t for t in tiles if t.get("face_down")]
        if finished:
            assert "daedalus_deck_order" in view
            continue
        assert "daedalus_deck_order" not in view and "treasure_deck_order" not in view
        assert len(backs) == len(state.down)
        assert all(t == {"face_down": True, "fixed": False} for t in backs)


# --- secrecy ---------------------------------------------------------------------------------


def twin(state: TeamState, rng: random.Random) -> TeamState:
    """The same public position with other secrets."""
    other = state.clone()
    rng.shuffle(other.treasure_deck)
    rng.shuffle(other.daedalus_deck)
    board = other.board
    cells = [board.tiles.index(t) for t in sorted(other.down)]
    ids = [board.tiles[c] for c in cells]
    rng.shuffle(ids)
    for cell, tile in zip(cells, ids, strict=True):
        board.tiles[cell] = tile
        board.opens[cell] = rotate(BASE_OPENING[CATALOGUE[tile].shape], rng.randrange(4))
    board.refresh()
    return other


def outcome(state: TeamState, seat: int, action: dict[str, Any]) -> tuple[str, Any]:
    """What a client could learn from sending `action` on a copy of `state`."""
    trial = state.clone()
    try:
        events = ENGINE.apply(trial, seat, action, random.Random(0))
    except IllegalAction as err:
        return ("refused", [err.code, err.message])
    return ("accepted", events)


def reveals(state: TeamState, action: dict[str, Any]) -> bool:
    """Whether the action may legitimately show something new: a move onto a face-down
    tile (it turns face up) or the end of the turn (cards drawn, next Daedalus card)."""
    if action["type"] == "end":
        return True
    if action["type"] == "move":
        cell = action["to"][0] * 7 + action["to"][1]
        return state.board.tiles[cell] in state.down
    return False


def check_indistinguishable(game: Game, rng: random.Random) -> None:
    state: TeamState = game.state
    other = twin(state, rng)
    for viewer in viewers(game):
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
        assert ENGINE.legal_actions(other, viewer) == ENGINE.legal_actions(state, viewer)
    seat = state.turn.seat if state.turn is not None else 0
    for action in rng.sample(UNIVERSE, 40):
        mine, theirs = outcome(state, seat, action), outcome(other, seat, action)
        assert mine[0] == theirs[0], action
        if mine[0] == "refused":
            assert mine == theirs, action
        elif not reveals(state, action):  # the same, up to the end of the turn
            assert _this_turn(mine[1]) == _this_turn(theirs[1]), action


def _this_turn(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events before an `ended` one (after it: cards drawn, a new Daedalus card)."""
    kinds = [e["type"] for e in events]
    return events[: kinds.index("ended")] if "ended" in kinds else events


def check_messages(
    game: Game, seat: int, action: dict[str, Any], events: list[Any], down_before: set[int]
) -> None:
    """Scan what every viewer is sent after an action: no card still in the book, no face
    of a tile that was face down before the action and still is (a tile flipped by this
    action was face up, hence public, before)."""
    state: TeamState = game.state
    hidden_cards = [json.dumps(DAEDALUS_CARDS[i], sort_keys=True) for i in state.daedalus_deck]
    faces = {json.dumps(t, sort_keys=True) for t in _face_down_faces(state, down_before)}
    for viewer in viewers(game):
        sent = {
            "action": ENGINE.redact_action(state, seat, action, viewer),
            "events": ENGINE.redact_events(state, events, viewer),
            "notation": ENGINE.notation(action),
        }
        text = json.dumps(sent, sort_keys=True)
        if state.result is None:
            assert not any(card in text for card in hidden_cards)
        for tile in _tile_dicts(sent):
            assert tile.get("face_down") is not True or tile == {"face_down": True, "fixed": False}
            unique = tile.get("treasure") or tile.get("symbol")  # plain tiles look alike
            if state.result is None and tile.get("face_down") is False and unique:
                assert json.dumps({**tile, "face_down": True}, sort_keys=True) not in faces


def _face_down_faces(state: TeamState, down_before: set[int]) -> list[dict[str, Any]]:
    """The faces of the tiles face down before and after, in their reveal form."""
    board = state.board
    return [
        ENGINE._tile_view(state, t, board.opens[board.tiles.index(t)], True)
        for t in state.down & down_before
    ]


def _tile_dicts(value: Any) -> list[dict[str, Any]]:
    """Every dict in a JSON value that looks like a tile view."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if "face_down" in value or ("open" in value and "fixed" in value):
            found.append(value)
        for item in value.values():
            found += _tile_dicts(item)
    elif isinstance(value, list):
        for item in value:
            found += _tile_dicts(item)
    return found


def check_exact_legality(game: Game, legal: list[dict[str, Any]]) -> None:
    seat = game.to_move
    listed = {json.dumps(a, sort_keys=True) for a in legal}
    assert len(listed) == len(legal)
    for action in UNIVERSE:
        kind, _ = outcome(game.state, seat, action)  # type: ignore[arg-type]
        assert (kind == "accepted") == (json.dumps(action, sort_keys=True) in listed), action


# --- a player --------------------------------------------------------------------------------


def choose(game: Game, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Mostly: a move that stops on a collectable treasure, else anything but `end`."""
    state: TeamState = game.state
    seat = game.to_move
    wanted = ENGINE.collectable(state, seat)  # type: ignore[arg-type]
    good = [
        a
        for a in legal
        if a["type"] == "move"
        and state.board.treasure_at(a["to"][0] * 7 + a["to"][1]) in wanted
        and state.board.tiles[a["to"][0] * 7 + a["to"][1]] not in state.down
    ]
    if good and rng.random() < 0.9:
        return rng.choice(good)
    busy = [a for a in legal if a["type"] != "end"]
    if busy and rng.random() < 0.85:
        return rng.choice(busy)
    return rng.choice(legal)


# --- the property ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["introductory", "standard", "expert"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(alphabet="abcdef0123456789", min_size=1, max_size=12),
    players=st.integers(2, 4),
    chooser=st.integers(0, 2**32),
)
def test_random_games_keep_invariants_and_secrets(
    mode: str, seed: str, players: int, chooser: int
) -> None:
    game = Game.new("team", [f"p{i}" for i in range(players)], seed, {"mode": mode})
    rng = random.Random(chooser)
    for step in range(MAX_ACTIONS):
        check_invariants(game)
        check_views(game)
        seat = game.to_move
        if seat is None:
            assert game.result is not None
            assert all(game.legal_actions(s) == [] for s in viewers(game))
            with pytest.raises(IllegalAction) as err:
                game.apply(0, {"type": "end"})
            assert err.value.code == "finished"
            break
        legal = game.legal_actions(seat)
        assert legal and all(game.legal_actions(s) == [] for s in viewers(game) if s != seat)
        check_indistinguishable(game, rng)
        if step % 12 == 0:
            check_exact_legality(game, legal)
        action = choose(game, legal, rng)
        down_before = set(game.state.down)
        events = game.apply(seat, action)
        json.dumps(events)
        check_messages(game, seat, action, events, down_before)
    else:
        pytest.fail("a game lasts at most 24 turns")

    replay = Game.from_record(game.record())
    assert [replay.view(v) for v in viewers(game)] == [game.view(v) for v in viewers(game)]
    assert ENGINE.reveal(replay.state) == ENGINE.reveal(game.state)


def test_refused_actions_leave_the_state_untouched() -> None:
    game = Game.new("team", ["a", "b"], "untouched", {"mode": "standard"})
    before = json.dumps([game.view(v) for v in viewers(game)]) + json.dumps(
        ENGINE.reveal(game.state)
    )
    for action in UNIVERSE:
        if outcome(game.state, 0, action)[0] == "refused":
            with pytest.raises(IllegalAction):
                game.apply(0, action)
    after = json.dumps([game.view(v) for v in viewers(game)]) + json.dumps(
        ENGINE.reveal(game.state)
    )
    assert after == before
