"""Random Master Labyrinth games (hypothesis) checking invariants of rules and views.

Games mix the greedy bot (so that many reach the final duel and end) with random legal
choices (so that odd corners are visited): no crash, every listed action accepted and
unlisted ones refused, 24 tokens always accounted for, 24 cards always accounted for, and
no view ever shows another player's hand.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots.master import choose
from app.rules import Game, IllegalAction
from app.rules.board import SLOTS
from app.rules.master import ENGINE, LAIR

MAX_ACTIONS = 600
ALL_VALUES = Counter({v: 2 for v in range(1, 13)})


def action_universe() -> list[dict[str, Any]]:
    """Every well-formed master action, listed or not."""
    pushes = [
        {"type": "push", "side": s.side, "index": s.index, "rotation": r}
        for s in SLOTS
        for r in range(4)
    ]
    moves = [{"type": "move", "to": [r, c]} for r in range(7) for c in range(7)]
    plain = [{"type": k} for k in ("coin", "no_coin", "accept", "challenge", "decline",
                                    "end_turn")]  # fmt: skip
    cards = [{"type": "reroll", "card": v} for v in range(1, 7)]
    cards += [{"type": "double_turn", "card": v} for v in range(7, 13)]
    return pushes + moves + plain + cards


UNIVERSE = action_universe()


def check_tokens(game: Game) -> None:
    """Board + reserve + taken + lost = the 24 tokens, two of each value."""
    state = game.state
    values = [v for _, v in state.tokens] + state.reserve + state.lost
    values += [v for p in state.players for v in p.treasures]
    assert Counter(values) == ALL_VALUES


def check_cards(game: Game) -> None:
    state = game.state
    cards = [v for p in state.players for v in p.hand] + [p["card"] for p in state.played]
    assert Counter(cards) == ALL_VALUES
    assert sum(p.coins for p in state.players) == sum(1 for p in state.played if p["use"] == "coin")


def check_views(game: Game) -> None:
    state = game.state
    finished = state.result is not None
    for viewer in [None, *range(len(state.players))]:
        view = game.view(viewer)
        json.dumps(view)
        for seat, player in enumerate(view["players"]):
            shown = "hand" in player
            assert shown == (finished or seat == viewer)
            assert player["hand_count"] == len(state.players[seat].hand)
        text = json.dumps(view)
        assert ('"hand"' in text) == (finished or viewer is not None)
    assert all("hand" in p for p in ENGINE.reveal(state)["players"])


def check_pieces(game: Game) -> None:
    state = game.state
    assert len(state.guardians) == 2
    assert len({c for c, _ in state.tokens}) == len(state.tokens)  # one token a tile
    if state.turn is not None and state.turn.phase == "move":
        me = state.players[state.turn.seat]
        reach = state.board.reach_mask_blocked(me.pos, 1 << LAIR)
        assert me.pos == LAIR or not reach >> LAIR & 1


def check_legal(game: Game, rng: random.Random) -> None:
    """A sample of listed actions is accepted; a sample of unlisted ones is refused."""
    actor = game.to_move
    assert actor is not None
    legal = game.legal_actions(actor)
    assert legal
    for other in range(len(game.players)):
        if other != actor:
            assert game.legal_actions(other) == []
    for action in rng.sample(legal, min(3, len(legal))):
        game.clone().apply(actor, action)
    unlisted = [a for a in UNIVERSE if a not in legal]
    for action in rng.sample(unlisted, min(3, len(unlisted))):
        twin = game.clone()
        try:
            twin.apply(actor, action)
        except IllegalAction as exc:
            assert exc.code in ("illegal", "bad_message")
        else:
            raise AssertionError(f"unlisted {action} accepted")


def play(players: int, seed: str, greed: float, rng: random.Random, version: int = 1) -> Game:
    """A game by either rules version (they differ only in the seats' start fields)."""
    options = {"rules_version": version}
    game = Game.new("master", [f"P{i}" for i in range(players)], seed, options)
    for step in range(MAX_ACTIONS):
        if game.result is not None:
            break
        actor = game.to_move
        assert actor is not None
        if step % 7 == 0:
            check_legal(game, rng)
        legal = game.legal_actions(actor)
        greedy = rng.random() < greed
        action = choose(game.view(actor), legal, rng) if greedy else rng.choice(legal)
        assert action in legal
        game.apply(actor, action)
        check_tokens(game)
        check_cards(game)
        check_pieces(game)
        if step % 5 == 0:
            check_views(game)
    check_views(game)
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.text(min_size=1, max_size=8),
    greed=st.sampled_from([0.0, 0.8, 1.0]),
    choice_seed=st.integers(0, 2**16),
    version=st.sampled_from([1, 2]),
)
def test_random_games_keep_every_invariant(
    players: int, seed: str, greed: float, choice_seed: int, version: int
) -> None:
    game = play(players, seed, greed, random.Random(choice_seed), version)
    if game.result is not None:
        result = game.result
        assert game.to_move is None and result["reason"] == "dragon"
        assert sum(p.dragon for p in game.state.players) == 1
        scores = [p.score() for p in game.state.players]
        assert result["scores"] == scores
        assert all(scores[w] == max(scores) for w in result["winners"])
    replayed = Game.from_record(game.record())
    assert replayed.view(None) == game.view(None)


def test_bot_games_end_with_a_won_final_duel() -> None:
    for k in range(6):
        game = play(2 + k % 3, f"bot-{k}", 1.0, random.Random(k))
        assert game.result is not None, k
