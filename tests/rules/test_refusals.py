"""Every refusal has its protocol code and leaves the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import IllegalAction

from .helpers import arm_event, new_game, place, play, set_pile, snapshot
from .test_actions import MALFORMED


def refused(game, seat: int, action: Any) -> IllegalAction:  # type: ignore[no-untyped-def]
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, action)
    assert snapshot(game) == before
    return err.value


@pytest.mark.parametrize("action", MALFORMED)
def test_bad_message_leaves_the_state(action: Any) -> None:
    game = new_game(events=True)
    assert refused(game, 0, action).code == "bad_message"
    play(game, "Nb")
    assert refused(game, 0, action).code == "bad_message"


def test_not_your_turn() -> None:
    game = new_game(3)
    for seat in (1, 2, 7, -1):
        err = refused(game, seat, {"type": "push", "side": "N", "index": 1, "rotation": 0})
        assert err.code == "not_your_turn"
    play(game, "Nb")
    assert refused(game, 1, {"type": "move", "to": [0, 6]}).code == "not_your_turn"


def test_finished() -> None:
    game = new_game(return_home=False)
    set_pile(game, 0, ["crown"])
    place(game, 0, "c3")
    play(game, "Sf", "c3")
    for seat in (0, 1):
        err = refused(game, seat, {"type": "push", "side": "N", "index": 1, "rotation": 0})
        assert err.code == "finished"


ILLEGAL_CASES = [
    # (events option, actions played first, refused action, message start)
    (False, [], {"type": "move", "to": [0, 0]}, "push-first:"),
    (False, ["Nb"], {"type": "push", "side": "N", "index": 3, "rotation": 0}, "one-push:"),
    (False, ["Nb", "a1"], {"type": "push", "side": "S", "index": 1, "rotation": 2}, "no-reverse:"),
    (False, ["Nb"], {"type": "swap", "with": 1}, "swap:"),
    (False, [], {"type": "swap", "with": 1}, "push-first:"),
    (False, ["Nb"], {"type": "pick", "treasure": "crown"}, "pick:"),
    (False, [], {"type": "pick", "treasure": "crown"}, "push-first:"),
]


@pytest.mark.parametrize(("events", "before", "action", "rule"), ILLEGAL_CASES)
def test_illegal_names_the_rule_and_leaves_the_state(
    events: bool, before: list[str], action: dict[str, Any], rule: str
) -> None:
    game = new_game(events=events)
    play(game, *before)
    err = refused(game, game.to_move, action)
    assert err.code == "illegal" and err.message.startswith(rule)


def test_illegal_moves_leave_the_state() -> None:
    game = new_game()
    play(game, "Nb")
    unreachable = [c for c in range(49) if c not in game.state.board.reachable(0)]
    for cell in unreachable[:5]:
        err = refused(game, 0, {"type": "move", "to": [cell // 7, cell % 7]})
        assert err.code == "illegal" and err.message.startswith("unreachable:")


def test_illegal_event_actions_leave_the_state() -> None:
    game = new_game(3, events=True)
    arm_event(game, "peek", "Nb")
    pile = game.state.players[0].pile
    play(game, "Nb")
    assert refused(game, 0, {"type": "pick", "treasure": pile[5]}).code == "illegal"
    assert refused(game, 0, {"type": "swap", "with": 1}).code == "illegal"
    push = {"type": "push", "side": "N", "index": 3, "rotation": 0}
    assert refused(game, 0, push).code == "illegal"
    assert refused(game, 0, {"type": "swap", "with": 3}).code == "bad_message"


def test_a_refused_record_entry_is_not_recorded() -> None:
    game = new_game()
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "move", "to": [0, 0]})
    assert game.actions == [] and game.seq == 0
