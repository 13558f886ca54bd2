"""Every HTTP error leaves as `{"error": {"code", "message"}}`, as the protocol says."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.rooms.errors import RoomError

STATUS_CODES = {
    404: "not_found",
    401: "unauthorized",
    405: "method_not_allowed",
    422: "bad_request",
}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def install(app: FastAPI) -> None:
    @app.exception_handler(RoomError)
    async def room_error(_request: Request, exc: RoomError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":
            reason = (first.get("ctx") or {}).get("error", "")
            return error_response(422, "bad_request", f"the body is not valid JSON: {reason}")
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "")
        return error_response(422, "bad_request", message or "the body does not fit")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = STATUS_CODES.get(exc.status_code, "error")
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            templates = request.app.state.templates
            return templates.TemplateResponse(
                request, "not_found.html", {"request": request}, status_code=404
            )
        return error_response(exc.status_code, code, str(exc.detail))
