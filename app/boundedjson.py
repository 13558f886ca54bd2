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
from itertools import accumulate, chain
from operator import sub
from typing import Any

from app.text import strings_valid

MAX_DEPTH = 32
_ESCAPE = re.compile(r"\\.", re.S)
_STRING = re.compile(r'"[^"]*"')
# Bytes: brackets to `(` and `)`, everything else deleted (in C, a table per byte).
_TO_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_OPENS = re.compile(rb"\(+")
_CLOSES = re.compile(rb"\)+")


def _brackets(text: str) -> bytes:
    """Only the brackets of `text` that nest (escapes go first, then strings, so no
    pattern backtracks), as `(` and `)`."""
    bare = _STRING.sub("", _ESCAPE.sub("", text)).encode("utf-8", "surrogatepass")
    return bare.translate(_TO_PARENS, _NOT_BRACKETS)


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (0 for a scalar).

    Brackets come in alternating runs of opens and closes; the depth after each run of
    opens is all opens so far less all closes before it. Every step runs in C (regex,
    `map`, `accumulate`): a frame nested thirty thousand deep costs no Python loop.
    """
    brackets = _brackets(text)
    if not brackets:
        return 0
    if brackets[:1] == b")":
        brackets = b"(" + brackets  # unbalanced: counted one level deeper, and refused
    opens = accumulate(map(len, _OPENS.findall(brackets)))
    closes = chain((0,), accumulate(map(len, _CLOSES.findall(brackets))))
    return max(map(sub, opens, closes))


def too_deep(text: str, max_depth: int) -> bool:
    """True when `text` nests deeper than `max_depth`."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    return depth(text) > max_depth


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads`, refusing what nests deeper than `max_depth` or holds a string that is
    not valid Unicode; both raise `json.JSONDecodeError`."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise json.JSONDecodeError("not UTF-8 text", "", 0) from exc
    if too_deep(text, max_depth):
        raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", text[:80], 0)
    value = json.loads(text)
    if not strings_valid(value):
        raise json.JSONDecodeError("a string is not valid Unicode (a lone surrogate)", "", 0)
    return value
