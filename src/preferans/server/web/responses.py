"""The answers every router gives alike: a page in the request's language, "nothing here",
a refusal in the reader's words, "the database cannot do it now"."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from ..lang.language import page_context, remember_language, request_language, say, store_message
from ..store.faults import StoreError
from ..store.games import GameStore


def page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    """A page in the request's language (a ``?lang=`` choice is kept in the cookie), with
    the server's public address if it has one (its links are shown at it: ``links.js``)."""
    links = getattr(request.app.state, "links", None)
    context = {**page_context(request),
               "public_url": None if links is None else links.origin, **context}
    templates = request.app.state.templates
    response = templates.TemplateResponse(request, name, context, status_code=status_code)
    return remember_language(request, response)


def not_found(request: Request, what: str) -> Response:
    """404: JSON under ``/api/``, else the "nothing here" page saying ``what``."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": what}, status_code=404)
    return page(request, "notfound.html", status_code=404, message=what)


def refused(request: Request, key: str, status: int, **fields: Any) -> JSONResponse:
    """A refusal in the reader's words, with its code (the key's last part)."""
    said = say(key, request_language(request), **fields)
    return JSONResponse({"detail": said, "message": said, "code": key.split(".")[-1]},
                        status_code=status)


def store_problem(store: GameStore, lang: str) -> str | None:
    """The banner of the settings page when the database failed on opening."""
    fault = store.fault or store.last_error
    if fault is None:
        return None
    return say("error.cannot_save", lang, problem=store_message(fault, lang))


def store_unavailable(exc: StoreError, doing: str, request: Request) -> Response:
    """A 503 naming what could not be done (``doing``: a ``page`` key) and why."""
    lang = request_language(request)
    detail = f"{say(doing, lang)}: {store_message(exc, lang)}"
    return JSONResponse({"detail": detail, "problem": exc.problem}, status_code=503)

