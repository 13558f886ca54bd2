"""Structural patches (app/patches.py): whatever two JSON values, the patch turns one into
the other, leaves the original alone, and stays small where little changed."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.patches import apply, diff, same

scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "a", "b"])
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), inner, max_size=4)
    ),
    max_leaves=20,
)


def as_json(value: Any) -> str:
    """What the browser receives: `True` and `1` differ here, as they do in JSON."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(values, values)
def test_a_patch_turns_one_value_into_the_other(old: Any, new: Any) -> None:
    before = copy.deepcopy(old)
    ops = diff(old, new)
    assert as_json(apply(old, ops)) == as_json(new)
    assert as_json(old) == as_json(before)  # the original is not modified
    # the patch travels as JSON: decoded, it means the same
    assert as_json(apply(old, json.loads(json.dumps(ops)))) == as_json(new)


@settings(deadline=None)  # no timing asserted: a loaded machine's stall is no failure
@given(values)
def test_equal_values_need_no_patch(value: Any) -> None:
    assert diff(value, copy.deepcopy(value)) == []


def test_true_and_one_are_different_values() -> None:
    assert not same(True, 1) and not same([True], [1]) and not same({"a": 0}, {"a": False})
    assert same({"a": [1, None]}, {"a": [1, None]})
    assert diff({"found": [1]}, {"found": [True]}) == [[["found", 0], True]]


def test_a_pushed_column_changes_one_tile_per_row() -> None:
    rows = [[{"open": "NS", "treasure": None, "fixed": False} for _ in range(7)] for _ in range(7)]
    pushed = copy.deepcopy(rows)
    for r in range(7):
        pushed[r][3] = {"open": "EW", "treasure": f"t{r}", "fixed": False}
    ops = diff({"tiles": rows}, {"tiles": pushed})
    # one operation per tile, not the whole board
    assert [op[0] for op in ops] == [["tiles", r, 3] for r in range(7)]


def test_a_pushed_row_is_sent_whole() -> None:
    rows = [[{"open": "NS", "treasure": None, "fixed": False} for _ in range(7)] for _ in range(7)]
    pushed = copy.deepcopy(rows)
    pushed[2] = [{"open": "ES", "treasure": str(c), "fixed": False} for c in range(7)]
    assert diff({"tiles": rows}, {"tiles": pushed}) == [[["tiles", 2], pushed[2]]]


def test_removed_keys_and_the_root() -> None:
    assert diff({"a": 1, "b": 2}, {"a": 1}) == [[["b"]]]
    assert apply({"a": 1, "b": 2}, [[["b"]]]) == {"a": 1}
    assert apply([1, 2], [[[], {"x": 1}]]) == {"x": 1}
    assert diff([1, 2], [1, 2, 3]) == [[[], [1, 2, 3]]]
