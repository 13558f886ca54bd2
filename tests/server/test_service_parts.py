"""The room service is one class made of parts (app/rooms/service.py); what a part asks
of another is named in `RoomsCore` by a stub that only raises. A part renamed or dropped
would leave the stub to answer at run time, in whichever rare path called it."""

from __future__ import annotations

import ast
import inspect
import textwrap

from app.rooms.core import RoomsCore
from app.rooms.service import RoomService


def _stubs() -> list[str]:
    """RoomsCore's methods whose whole body is `raise NotImplementedError`."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(RoomsCore)))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if len(body) == 1 and isinstance(body[0], ast.Raise):
                names.append(node.name)
    return names


def test_every_stub_of_the_core_is_defined_by_a_part() -> None:
    stubs = _stubs()
    assert "settle_rematch" in stubs and "_deliver" in stubs  # the stubs are found
    for name in stubs:
        defined = getattr(RoomService, name)
        assert defined is not getattr(RoomsCore, name), f"{name}: only the core's stub"
        owner = next(c for c in RoomService.__mro__ if name in vars(c))
        assert owner.__module__.startswith("app.rooms."), owner
