"""The card game's "took nothing, and why" in a reloaded move list."""

from __future__ import annotations

import json
import random
from typing import Any, cast

from app.rooms.live import LiveGame
from app.rules import Game


def test_a_reloaded_history_keeps_why_nothing_was_taken() -> None:
    """A placed card joined to cards of its motif, none of which may go: the move list
    says why nothing was taken live, and said nothing of it after a reload (the history
    left the `no_take` event out)."""
    for seed in range(40):
        game = Game.new("cards", ["Ann", "Bob"], f"no-take-{seed}", {"rules_version": 2})
        live = LiveGame(record=cast(Any, None), game=game)
        chooser = random.Random(seed)
        while live.game.to_move is not None:
            seat = live.game.to_move
            action = chooser.choice(live.game.legal_actions(seat))
            successor, events = live.tentative(seat, action)
            if successor.result is not None:
                break
            live.commit(successor, seat, action, events)
            if any(e["type"] == "no_take" for e in events):
                history = json.loads(live.state_message(None, with_history=True))["history"]
                kept = [e for e in history[-1].get("events", []) if e["type"] == "no_take"]
                assert kept and kept[0]["cards"], history[-1]
                return
    raise AssertionError("no game of 40 had a card that took nothing: a test of nothing")
