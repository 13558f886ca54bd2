"""The refusal order of docs/protocol.md, as a property of `RoomService.act`'s first
check: after a game ends (or at a stale seq), an action that does not parse is refused
with `bad_message`, before `stale` and `finished`; one that parses passes on to them.
(The whole order over a WebSocket: tests/server/test_ws.py, after a game played out.)"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rooms.errors import RoomError
from app.rooms.live import LiveGame
from app.rooms.play import _refuse_unparsed
from app.rules import Game, IllegalAction
from app.rules.classic import action_from_dict
from app.store.repository import GameRecord

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1"


def finished(name: str) -> LiveGame:
    record = json.loads((FIXTURES / name).read_text("utf-8"))
    game = Game.from_record(record)
    row = GameRecord(
        "g", None, game.variant, game.options, game.players, game.seed, "", "finished",
        game.seq, game.result, datetime.now(UTC), datetime.now(UTC), False,
    )  # fmt: skip
    return LiveGame(record=row, game=game)


def parses(action: Any) -> bool:
    """The classic engine's own parser (the wire form, no redacted `pick`)."""
    try:
        action_from_dict(action)
    except IllegalAction:
        return False
    return True


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(["N", "b", "move", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["push", "move", "pick", "swap", "open_pile", "decline", "fly"])},
    optional={"side": JSONISH, "index": JSONISH, "rotation": JSONISH, "to": JSONISH,
              "treasure": JSONISH, "with": JSONISH, "extra": JSONISH},
)  # fmt: skip


@pytest.mark.parametrize("name", ["classic-events-2p.json", "team-expert-4p.json"])
def test_a_known_bad_action_after_the_end_is_bad_message(name: str) -> None:
    live = finished(name)
    with pytest.raises(RoomError) as refused:
        _refuse_unparsed(live, 0, {"type": "fly"})
    assert refused.value.code == "bad_message"
    _refuse_unparsed(live, 0, {"type": "end"} if "team" in name else {"type": "move", "to": [0, 0]})


@settings(max_examples=150, deadline=None)
@given(action=ACTIONS)
def test_property_bad_message_exactly_when_the_action_does_not_parse(action: Any) -> None:
    live = finished("classic-events-2p.json")
    try:
        _refuse_unparsed(live, 0, action)
    except RoomError as exc:
        assert exc.code == "bad_message" and not parses(action)
    else:
        assert parses(action)
