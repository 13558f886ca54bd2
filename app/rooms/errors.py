"""One error type for what the room layer refuses, carrying the protocol's stable code.

HTTP turns it into `{"error": {"code", "message"}}` with `status` (and any `extra`
fields beside them, ext); the WebSocket into an `error` message. Either way nothing was
changed.
"""

from __future__ import annotations

from typing import Any


class RoomError(Exception):
    def __init__(
        self, code: str, message: str, status: int = 400, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra or {}


def not_found(what: str) -> RoomError:
    return RoomError("not_found", f"{what} does not exist", 404)


def unauthorized() -> RoomError:
    return RoomError("unauthorized", "a valid seat token is required", 401)


def unavailable() -> RoomError:
    """A dependency (the database) did not answer: nothing is known to have changed, and
    the same request may be tried again in a moment."""
    return RoomError("unavailable", "the server cannot reach its database; try again", 503)
