"""Every HTTP error leaves as `{"error": {"code", "message"}}`, as the protocol says;
but at a page's address (`is_page`) a person reads the answer in a browser: there it is
an HTML page in their language (not found, something went wrong, try again in a moment),
with the same status and `Retry-After` as the JSON would have had."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from app.rooms.errors import RoomError, brief, unavailable
from app.rooms.ratelimit import RateLimited
from app.store.repository import Unavailable
from app.web import pages

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
# Addresses that answer machines (scripts, sockets, probes): their errors stay JSON.
MACHINE_PATHS = ("/api", "/ws", "/static", "/healthz", "/metrics")


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
    body = {"code": code, "message": brief(message), **(extra or {})}
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def is_page(request: Request) -> bool:
    """Whether the address is a page a person opens (`/r/...`, `/replay/...`, an unknown
    one typed by hand) rather than one of `MACHINE_PATHS`."""
    path = request.url.path
    return not any(path == prefix or path.startswith(prefix + "/") for prefix in MACHINE_PATHS)


def page_or_json(
    request: Request, status: int, code: str, message: str, extra: dict[str, Any] | None = None
) -> Response:
    """The error page for a page's address and a status that has one (404, 500, 503),
    else the protocol's JSON. Should the page itself fail to render, the JSON still
    answers: the error handler of a server in trouble must not fail in turn."""
    if is_page(request) and status in (404, 500, 503):
        try:
            return pages.error_page(request, status, RETRY_AFTER.get(status))
        except Exception:
            log.exception("the %s page failed to render", status)
    return error_response(status, code, message, extra)


def install(app: FastAPI) -> None:
    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> Response:
        if isinstance(exc, RateLimited):
            return error_response(exc.status, exc.code, exc.message, exc.extra, exc.retry_after)
        # A page whose service call failed (`unavailable`) says so, not "no such room".
        return page_or_json(request, exc.status, exc.code, exc.message, exc.extra)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            reason = (first.get("ctx") or {}).get("error", "")
            return error_response(422, "bad_request", f"the body is not valid JSON: {reason}")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "")
        return error_response(422, "bad_request", message or "the body does not fit")

    async def database_error(request: Request, exc: Exception) -> Response:
        """A query that failed outside the room service (lists, records, the replay
        page): the same retryable `unavailable` as the service answers, not a plain-text
        500; at a page's address, the page that says to try again in a moment."""
        log.warning("database unavailable: %s", exc)
        error = unavailable()
        return page_or_json(request, error.status, error.code, error.message)

    app.add_exception_handler(SQLAlchemyError, database_error)
    app.add_exception_handler(Unavailable, database_error)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        # Starlette still logs the exception; the client gets the protocol's shape (a
        # browser at a page, the page that says something went wrong).
        return page_or_json(request, 500, "internal", "the server failed to answer this request")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = STATUS_CODES.get(exc.status_code, "error")
        if exc.status_code == 404:
            # an unknown address typed by hand: the not-found page, in the chosen language
            return page_or_json(request, 404, code, str(exc.detail))
        response = error_response(exc.status_code, code, str(exc.detail))
        # Starlette's own headers ride along: a 405's `Allow` (HTTP requires it) says
        # which methods the address takes
        response.headers.update(exc.headers or {})
        return response
