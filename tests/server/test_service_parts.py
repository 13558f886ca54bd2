"""The room service is one class made of parts (app/rooms/service.py); what a part asks
of another is declared in `RoomsCore` for the reader and the type checker only (under
`TYPE_CHECKING`). A part renamed or dropped would leave such a call to fail at run time,
in whichever rare path made it: each declared name must be a part's, and awaited or not
as declared."""

from __future__ import annotations

import ast
import inspect
import textwrap

from app.rooms.core import RoomsCore
from app.rooms.service import RoomService


def _declared() -> dict[str, bool]:
    """The methods RoomsCore declares under `if TYPE_CHECKING:`, each with whether it is
    declared `async`."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(RoomsCore)))
    declared: dict[str, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    declared[item.name] = isinstance(item, ast.AsyncFunctionDef)
    return declared


def test_every_method_the_core_declares_is_defined_by_a_part() -> None:
    declared = _declared()
    assert {"settle_rematch", "_deliver", "_send_state"} <= set(declared)  # they are found
    for name, is_async in declared.items():
        assert name not in vars(RoomsCore), f"{name}: the core must not define it"
        owner = next((c for c in RoomService.__mro__ if name in vars(c)), None)
        assert owner is not None, f"{name}: declared in the core, defined by no part"
        assert owner is not RoomService and owner.__module__.startswith("app.rooms."), owner
        assert inspect.iscoroutinefunction(getattr(RoomService, name)) == is_async, name
