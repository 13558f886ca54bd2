"""JSON request bodies read through `app/boundedjson.py`: nesting bounded before parsing,
strings valid Unicode. A refused body answers 422 `bad_request` like any body that is not
JSON, never 400 or 500.

FastAPI parses a body with `request.json()`; the routers of the JSON API use this route
class, whose requests parse theirs with `boundedjson.loads` instead.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from app import boundedjson


class BoundedRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            settings = self.app.state.settings
            self._json = loads(await self.body(), settings.max_json_depth)
        return self._json


def loads(body: bytes, max_depth: int) -> Any:
    """`boundedjson.loads`, with every refusal a `JSONDecodeError` (which FastAPI answers
    422 `bad_request`). CPython refuses an integer literal of more digits than
    `sys.get_int_max_str_digits()` with a plain `ValueError` that FastAPI answered 400
    with the code `error` and no reason; it is said in the protocol's words instead."""
    try:
        return boundedjson.loads(body, max_depth)
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        limit = sys.get_int_max_str_digits()
        raise json.JSONDecodeError(f"a number has more than {limit} digits", "", 0) from exc


class BoundedJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            return await handler(BoundedRequest(request.scope, request.receive))

        return bounded
