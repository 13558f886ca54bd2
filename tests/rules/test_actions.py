"""Typed actions: notation both ways, the wire format both ways, malformed wire dicts."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import IllegalAction
from app.rules.board import SLOTS, cell_name
from app.rules.classic import (
    ENGINE,
    TREASURES,
    Move,
    Pick,
    Push,
    Swap,
    action_from_dict,
    parse_action,
)

ALL_NOTATIONS = (
    [str(Push(s.side, s.index, r)) for s in SLOTS for r in range(4)]
    + [cell_name(c) for c in range(49)]
    + [f"swap:{s}" for s in range(4)]
    + [f"pick:{t}" for t in TREASURES]
)


def test_notation_examples() -> None:
    assert str(Push("N", 1, 0)) == "Nb"
    assert str(Push("W", 3, 1)) == "W4+1"
    assert str(Push("S", 5, 3)) == "Sf+3"
    assert str(Push("E", 1, 2)) == "E2+2"
    assert str(Move((2, 2))) == "c3"
    assert str(Swap(2)) == "swap:2"
    assert str(Pick("crown")) == "pick:crown"
    assert str(Pick(None)) == "pick"


@pytest.mark.parametrize("text", ALL_NOTATIONS)
def test_notation_round_trip(text: str) -> None:
    action = parse_action(text)
    assert str(action) == text
    assert action_from_dict(action.to_dict()) == action
    assert ENGINE.notation(action.to_dict()) == text


def test_typed_parse_by_class() -> None:
    assert Push.parse("Nb+2") == Push("N", 1, 2)
    assert Move.parse("a7").to == (6, 0)
    assert Swap.parse("swap:1") == Swap(1)
    assert Pick.parse("pick:owl") == Pick("owl")
    assert Pick.parse("pick") == Pick(None)


@pytest.mark.parametrize(
    "text",
    ["Nb+0", "Nb+4", "Na", "E3", "N", "h1", "a8", "swap:", "swap:4", "pick:", "pick:x", "", "Nb1"],
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(ValueError):
        parse_action(text)


def test_wire_format() -> None:
    assert Push("E", 3, 1).to_dict() == {"type": "push", "side": "E", "index": 3, "rotation": 1}
    assert Move((2, 2)).to_dict() == {"type": "move", "to": [2, 2]}
    assert Swap(2).to_dict() == {"type": "swap", "with": 2}
    assert Pick("crown").to_dict() == {"type": "pick", "treasure": "crown"}
    assert Move.from_dict({"type": "move", "to": (1, 2)}) == Move((1, 2))


def test_redacted_pick_notation() -> None:
    assert ENGINE.notation({"type": "pick"}) == "pick"


PUSH = {"type": "push", "side": "N", "index": 1, "rotation": 0}

MALFORMED: list[Any] = [
    None,
    "Nb",
    [],
    {},
    {"type": "jump"},
    {"type": 3},
    {"side": "N", "index": 1, "rotation": 0},
    {**PUSH, "extra": 1},
    {"type": "push", "side": "N", "index": 1},
    {**PUSH, "side": "X"},
    {**PUSH, "side": "n"},
    {**PUSH, "side": None},
    {**PUSH, "index": 2},
    {**PUSH, "index": 0},
    {**PUSH, "index": "1"},
    {**PUSH, "index": 1.0},
    {**PUSH, "index": True},
    {**PUSH, "rotation": 4},
    {**PUSH, "rotation": -1},
    {**PUSH, "rotation": False},
    {"type": "move"},
    {"type": "move", "to": "c3"},
    {"type": "move", "to": [1]},
    {"type": "move", "to": [1, 2, 3]},
    {"type": "move", "to": [7, 0]},
    {"type": "move", "to": [0, -1]},
    {"type": "move", "to": [True, 0]},
    {"type": "move", "to": [0.0, 0]},
    {"type": "move", "to": {"row": 0, "col": 0}},
    {"type": "move", "to": [0, 0], "seat": 0},
    {"type": "swap"},
    {"type": "swap", "with": "1"},
    {"type": "swap", "with": True},
    {"type": "swap", "with": 4},
    {"type": "swap", "with": -1},
    {"type": "swap", "with_seat": 1},
    {"type": "pick"},
    {"type": "pick", "treasure": "unicorn"},
    {"type": "pick", "treasure": None},
    {"type": "pick", "treasure": 3},
    {"type": "pick", "treasure": "Crown"},
]


@pytest.mark.parametrize("action", MALFORMED)
def test_malformed_wire_actions_are_bad_messages(action: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_dict(action)
    assert err.value.code == "bad_message"
