"""One error type for what the room layer refuses, carrying the protocol's stable code.

HTTP turns it into `{"error": {"code", "message"}}` with `status` (and any `extra`
fields beside them, ext); the WebSocket into an `error` message. Either way nothing was
changed.
"""

from __future__ import annotations

from typing import Any

# The longest error message sent: the longest the server words is about 300 characters.
MAX_MESSAGE = 400


def brief(message: str) -> str:
    """`message` cut to `MAX_MESSAGE` characters. A refusal quotes what it refused (an
    unknown variant, an action's bad field, an option's value), and a client's 60 KB
    string came back whole in it."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


class RoomError(Exception):
    def __init__(
        self, code: str, message: str, status: int = 400, extra: dict[str, Any] | None = None
    ) -> None:
        message = brief(message)
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
