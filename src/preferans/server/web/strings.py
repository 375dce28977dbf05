"""``GET /i18n/<lang>.js``: the browser's catalogue of a language, made from its ``.po``.

The module is :func:`preferans.i18n.ui_catalogue.javascript` (the strings by key and the
language's ``plural(n)``), made once per change of the ``.po``/``.mo`` and revalidated by
its ETag (``Cache-Control: no-cache``: a browser asks again, a fresh copy costs a 304).
``static/i18n.js`` imports it for the page's ``<html lang>``.
"""

from __future__ import annotations

import hashlib

from fastapi import APIRouter, Request, Response

from ...i18n import LANGUAGES, ui_catalogue

MEDIA_TYPE = "text/javascript; charset=utf-8"


def _etag(body: str) -> str:
    return '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'


router = APIRouter()


@router.get("/i18n/{lang}.js", include_in_schema=False)
def ui_strings(lang: str, request: Request) -> Response:
    if lang not in LANGUAGES:
        return Response(f"// no catalogue for {lang!r}\n", status_code=404,
                        media_type=MEDIA_TYPE)
    body = ui_catalogue.javascript(lang)
    etag = _etag(body)
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Content-Language": lang}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=MEDIA_TYPE, headers=headers)
