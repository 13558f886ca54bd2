"""JSON from strangers: nesting bounded before parsing, every string valid Unicode.

`json.loads` recurses once per level: a small frame nested thirty thousand deep raises
`RecursionError` (not `ValueError`) and takes down whoever called it. Its strings may also
hold lone surrogates (`"\\ud800"`), which parse but can never be encoded again. Every
body and frame a client sends is read through `loads`, which refuses both with
`ValueError` (a `json.JSONDecodeError`, so FastAPI answers it like any bad JSON).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from app.text import strings_valid

MAX_DEPTH = 32
_ESCAPE = re.compile(r"\\.", re.S)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (0 for a scalar). Linear time
    whatever the text (escapes go first, then strings, so no pattern backtracks)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    return max(accumulate(_STEP[ch] for ch in brackets), default=0)


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads`, refusing what nests deeper than `max_depth` or holds a string that is
    not valid Unicode; both raise `json.JSONDecodeError`."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise json.JSONDecodeError("not UTF-8 text", "", 0) from exc
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", text[:80], 0)
    value = json.loads(text)
    if not strings_valid(value):
        raise json.JSONDecodeError("a string is not valid Unicode (a lone surrogate)", "", 0)
    return value
