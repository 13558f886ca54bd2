"""One error type for what the room layer refuses, carrying the protocol's stable code.

HTTP turns it into `{"error": {"code", "message"}}` with `status`; the WebSocket into an
`error` message. Either way nothing was changed.
"""

from __future__ import annotations


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def not_found(what: str) -> RoomError:
    return RoomError("not_found", f"{what} does not exist", 404)


def unauthorized() -> RoomError:
    return RoomError("unauthorized", "a valid seat token is required", 401)


def unavailable() -> RoomError:
    """A dependency (the database) did not answer: nothing is known to have changed, and
    the same request may be tried again in a moment."""
    return RoomError("unavailable", "the server cannot reach its database; try again", 503)
