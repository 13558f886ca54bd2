"""Every HTTP error leaves as `{"error": {"code", "message"}}`, as the protocol says."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from app.rooms.errors import RoomError, unavailable
from app.rooms.ratelimit import RateLimited
from app.store.repository import Unavailable

log = logging.getLogger("app.web")

STATUS_CODES = {
    404: "not_found",
    401: "unauthorized",
    405: "method_not_allowed",
    413: "too_large",
    422: "bad_request",
    429: "rate_limited",
    503: "unavailable",
}
# Seconds a client is asked to wait before retrying a refusal that is only about timing,
# when the refusal does not know better (a rate limit says its own wait: `RateLimited`).
RETRY_AFTER = {429: 10, 503: 2}


def error_response(
    status: int,
    code: str,
    message: str,
    extra: dict[str, Any] | None = None,
    retry_after: int | None = None,
) -> JSONResponse:
    """The protocol's error shape; `Retry-After` on the statuses that are about timing,
    `retry_after` when the refusal knows the real wait (the message says the same)."""
    wait = retry_after if retry_after is not None else RETRY_AFTER.get(status)
    headers = {"Retry-After": str(wait)} if wait is not None else None
    body = {"code": code, "message": message, **(extra or {})}
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def install(app: FastAPI) -> None:
    @app.exception_handler(RoomError)
    async def room_error(_request: Request, exc: RoomError) -> JSONResponse:
        retry_after = exc.retry_after if isinstance(exc, RateLimited) else None
        return error_response(exc.status, exc.code, exc.message, exc.extra, retry_after)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            reason = (first.get("ctx") or {}).get("error", "")
            return error_response(422, "bad_request", f"the body is not valid JSON: {reason}")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "")
        return error_response(422, "bad_request", message or "the body does not fit")

    async def database_error(_request: Request, exc: Exception) -> JSONResponse:
        """A query that failed outside the room service (lists, records): the same
        retryable `unavailable` as the service answers, not a plain-text 500."""
        log.warning("database unavailable: %s", exc)
        error = unavailable()
        return error_response(error.status, error.code, error.message)

    app.add_exception_handler(SQLAlchemyError, database_error)
    app.add_exception_handler(Unavailable, database_error)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
        # Starlette still logs the exception; the client gets the protocol's shape.
        return error_response(500, "internal", "the server failed to answer this request")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = STATUS_CODES.get(exc.status_code, "error")
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            templates = request.app.state.templates
            return templates.TemplateResponse(
                request, "not_found.html", {"request": request}, status_code=404
            )
        return error_response(exc.status_code, code, str(exc.detail))
