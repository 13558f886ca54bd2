"""What `LiveGame` sends each viewer of one move: a secret part of the move stays hidden
from the others whatever order the viewers are served in (the mover's notation is written
once and shared only with those who see the move whole)."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

from app.rooms.live import LiveGame, for_history, in_history
from app.rules import Game
from app.rules.classic import parse_action
from app.store.repository import ActionRecord
from tests.rules.helpers import arm_event, new_game


def _picked() -> tuple[LiveGame, str]:
    """A game whose last move is seat 0's secret pick of its second card (a peek)."""
    game = new_game(events=True)
    arm_event(game, "peek", "Sf")
    live = LiveGame(record=cast(Any, None), game=game)
    card = game.state.players[0].pile[1]
    for text in ("Sf", f"pick:{card}"):
        action = parse_action(text).to_dict()
        successor, events = live.tentative(0, action)
        live.commit(successor, 0, action, events)
    return live, card


@pytest.mark.parametrize("order", [(0, 1, None), (None, 1, 0), (1, 0, None)])
def test_a_pick_is_hidden_from_the_others_in_any_order(order: tuple[int | None, ...]) -> None:
    live, card = _picked()
    last = {viewer: json.loads(live.state_message(viewer))["last"] for viewer in order}
    assert last[0]["notation"] == f"pick:{card}"
    assert last[0]["action"] == {"type": "pick", "treasure": card}
    for viewer in (1, None):
        assert last[viewer]["notation"] == "pick"
        assert card not in json.dumps(last[viewer])


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_each_view_is_sent_whole_move_after_move(variant: str) -> None:
    """The board's grid is written once for all viewers of a move: every message still
    holds exactly its viewer's view, after pushes that change the board and after moves
    that leave it as it was."""
    game = Game.new(variant, ["Ann", "Bob"], "grid-seed")
    live = LiveGame(record=cast(Any, None), game=game)
    chooser = random.Random(2)
    for _ in range(12):
        for viewer in (0, None, 1):
            sent = json.loads(live.state_message(viewer))
            assert sent["view"] == json.loads(json.dumps(live.game.view(viewer)))
        seat = live.game.to_move
        if seat is None:
            break
        action = chooser.choice(live.game.legal_actions(seat))
        successor, events = live.tentative(seat, action)
        live.commit(successor, seat, action, events)


@pytest.mark.parametrize("variant", ["classic", "master", "team", "cards"])
def test_a_history_words_each_move_as_it_was_told_live(variant: str) -> None:
    """A page that reloads gets the move list with the events it puts into words (what a
    move found, took, lost or ended, the Daedalus card it turned, Master's dice and whom
    they made duel), each redacted for its viewer as the live `last` was, from the game
    played here and from the same game rebuilt from the log; the events that only repeat
    the move (pushed, moved, turn) stay out of it."""
    players = ["Ann", "Bob", "Cy"] if variant == "cards" else ["Ann", "Bob"]
    viewers: tuple[int | None, ...] = (0, 1, None)
    live = LiveGame(record=cast(Any, None), game=Game.new(variant, players, "told-seed"))
    chooser = random.Random(5)
    told: dict[int | None, list[list[dict[str, Any]]]] = {v: [] for v in viewers}
    records: list[ActionRecord] = []
    for _ in range(400):
        seat = live.game.to_move
        if seat is None:
            break
        action = chooser.choice(live.game.legal_actions(seat))
        successor, events = live.tentative(seat, action)
        if successor.result is not None:
            break  # the end reveals what was secret: compare while it is still running
        live.commit(successor, seat, action, events)
        records.append(ActionRecord(successor.seq, seat, action))
        for viewer in viewers:
            last = json.loads(live.state_message(viewer))["last"]
            told[viewer].append([for_history(e) for e in last["events"] if in_history(e)])
    rebuilt = LiveGame(record=cast(Any, None), game=Game.new(variant, players, "told-seed"))
    rebuilt.extend(records)
    assert any(told[0]), "the game found, took or placed nothing: a test of nothing"
    if variant == "team":  # the Book of Daedalus's pages, which the panel shows one at a time
        assert any(e["type"] == "daedalus" for events in told[None] for e in events)
    if variant == "master":  # the dice, and who the dragon made duel, without its reach
        kept = [e for events in told[None] for e in events]
        assert {"dragon_die", "duel_roll", "threat"} <= {e["type"] for e in kept}
        threats = [e for e in kept if e["type"] == "threat"]
        assert all(e["duellists"] and "cells" not in e for e in threats)
    if variant != "cards":  # a pawn that stayed put: its notation alone says "moved to"
        assert any(e["type"] == "moved" for events in told[None] for e in events)
    for viewer in viewers:
        for source in (live, rebuilt):
            history = json.loads(source.state_message(viewer, with_history=True))["history"]
            assert [entry.get("events", []) for entry in history] == told[viewer]
