"""How the app answers a request it refuses before any route runs: a body that does not
validate (422, in the reader's words) and an HTTP error (404: the "nothing here" page or
JSON; others as JSON)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..lang.language import request_language, say
from ..lang.request_errors import validation_message
from .responses import not_found


async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
    message = validation_message(exc.errors(), request_language(request))
    return JSONResponse({"detail": message, "message": message,
                         "errors": _jsonable(exc.errors())}, status_code=422)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404:
        return not_found(request, say("error.nothing_here", request_language(request)))
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)


def install(app: FastAPI) -> None:
    """Answer ``app``'s refused requests with :func:`invalid_request` and :func:`http_error`."""
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]


def _jsonable(errors: Any) -> Any:
    """Pydantic errors with their context made printable."""
    out = []
    for error in errors:
        item = {k: v for k, v in error.items() if k in ("loc", "msg", "type")}
        item["loc"] = list(item.get("loc", ()))
        out.append(item)
    return out
