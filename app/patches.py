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
    _diff(old, new, [], ops)
    return ops


def same(a: Any, b: Any) -> bool:
    """JSON equality. Python's `==` says `True == 1` (and `[True] == [1]`), which JSON and
    the browser do not; `marshal` tells them apart, at C speed, once `==` agrees."""
    return bool(a == b) and marshal.dumps(a) == marshal.dumps(b)


def _diff(old: Any, new: Any, path: Path, ops: list[Op]) -> None:
    kind = type(old)
    if kind is not type(new) or kind not in (dict, list):
        if kind is not type(new) or old != new:  # scalars: `type` tells `True` from `1`
            ops.append([path, new])
        return
    if same(old, new):
        return
    inner: list[Op] = []
    if kind is dict:
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], inner)
            else:
                inner.append([[*path, key], value])
        inner.extend([[*path, key]] for key in old if key not in new)
    elif len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(a, b, [*path, index], inner)
    else:
        ops.append([path, new])
        return
    size = len(new)
    # Setting the whole container is shorter once most of its entries were replaced (a
    # tile that slid away, a pushed line): one operation instead of one per entry. Only
    # the entries set whole count: a column push changes one tile in each row, and the
    # rows stay patched index by index.
    depth = len(path) + 1
    replaced = sum(1 for op in inner if len(op[0]) == depth)
    if replaced > 1 and 2 * replaced > size:
        ops.append([path, new])
    else:
        ops.extend(inner)


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
