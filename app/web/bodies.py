"""JSON request bodies read through `app/boundedjson.py`: nesting bounded before parsing,
strings valid Unicode. A refused body answers 422 `bad_request` like any body that is not
JSON, never 400 or 500.

FastAPI parses a body with `request.json()`; the routers of the JSON API use this route
class, whose requests parse theirs with `boundedjson.loads` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from app import boundedjson


class BoundedRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            settings = self.app.state.settings
            self._json = boundedjson.loads(await self.body(), settings.max_json_depth)
        return self._json


class BoundedJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            return await handler(BoundedRequest(request.scope, request.receive))

        return bounded
