"""Small structural patches between two JSON values, for replays sent as changes.

A replay's frames are whole views, one per step, and consecutive frames differ in a few
places (a pushed line, a pawn, the turn). Sending the first frame and then only what
changed cuts a 300-move classic replay from about 1 MB of JSON to a tenth of it, and the
browser parses it in a few milliseconds instead of tens.

A patch is a list of operations, applied in order:

- `[path, value]` sets the value at `path` (adding the key when it is new);
- `[path]` removes the key at the end of `path` from its object.

`path` is a list of object keys (strings) and array indexes (integers) from the root;
`[]` is the root itself. Arrays are patched index by index only when their length is
unchanged; otherwise the whole array is set. The client (`static/js/patches.js`) applies
the same format, copying only the containers on each path so frames share the rest.
"""

from __future__ import annotations

import marshal
from typing import Any, TypeAlias

Path: TypeAlias = list[str | int]
Op: TypeAlias = list[Any]


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn `old` into `new` (none when they are equal)."""
    ops: list[Op] = []
    _diff_value(old, new, [], ops, False)
    # Python's `==` says `True == 1`, and `[True] == [1]`, which JSON and the browser do
    # not: the quick pass above trusts `==` on whole containers; when its result is not
    # exactly `new` (`marshal` tells `True` from `1`), a strict pass looks inside them.
    if _exact(apply(old, ops)) != _exact(new):
        ops = []
        _diff_value(old, new, [], ops, True)
    return ops


def same(a: Any, b: Any) -> bool:
    """JSON equality: `==`, and `marshal` to tell `True` from `1` once `==` agrees."""
    return bool(a == b) and _exact(a) == _exact(b)


def _exact(value: Any) -> bytes:
    """Bytes that differ whenever two JSON values do (or their keys' order does). Format 2,
    because later ones refer back to objects already written, so equal values that share
    objects differently would not compare equal."""
    return marshal.dumps(value, 2)


def _diff_value(old: Any, new: Any, path: Path, ops: list[Op], strict: bool) -> None:
    kind = type(old)
    if kind is not type(new):
        ops.append([path, new])
    elif kind is dict or kind is list:
        if not (same(old, new) if strict else old == new):
            _diff_container(old, new, path, ops, strict)
    elif old != new:
        ops.append([path, new])


def _diff_container(old: Any, new: Any, path: Path, ops: list[Op], strict: bool) -> None:
    if type(old) is list and len(old) != len(new):
        ops.append([path, new])
        return
    inner: list[Op] = []
    pairs = (
        ((key, old.get(key, _ABSENT), value) for key, value in new.items())
        if type(old) is dict
        else zip(range(len(new)), old, new, strict=True)
    )
    for key, a, b in pairs:
        kind = type(a)
        if kind is not type(b):  # a new key lands here too
            inner.append([[*path, key], b])
        elif kind is dict or kind is list:
            if not (same(a, b) if strict else a == b):
                _diff_container(a, b, [*path, key], inner, strict)
        elif a != b:
            inner.append([[*path, key], b])
    if type(old) is dict:
        inner.extend([[*path, key]] for key in old if key not in new)
    # Setting the whole container is shorter once most of its entries were replaced (a
    # tile that slid away, a pushed line): one operation instead of one per entry. Only
    # the entries set whole count: a column push changes one tile in each row, and the
    # rows stay patched index by index.
    depth = len(path) + 1
    replaced = sum(1 for op in inner if len(op[0]) == depth)
    if replaced > 1 and 2 * replaced > len(new):
        ops.append([path, new])
    else:
        ops.extend(inner)


class _Absent:
    """A key missing from the old object: a type no JSON value has."""


_ABSENT = _Absent()


def apply(doc: Any, ops: list[Op]) -> Any:
    """`doc` with the operations applied; `doc` itself is left unchanged."""
    root = doc
    copied: set[int] = set()

    def fresh(value: Any) -> Any:
        if id(value) in copied:
            return value
        value = dict(value) if type(value) is dict else list(value)
        copied.add(id(value))
        return value

    for op in ops:
        path = op[0]
        if not path:
            root = op[1]
            copied.clear()
            continue
        root = fresh(root)
        node = root
        for key in path[:-1]:
            child = fresh(node[key])
            node[key] = child
            node = child
        if len(op) > 1:
            node[path[-1]] = op[1]
        else:
            del node[path[-1]]
    return root
