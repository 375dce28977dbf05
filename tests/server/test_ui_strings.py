"""GET /i18n/<lang>.js: the browser's catalogue of a language, made from its ui.po."""

from __future__ import annotations

from fastapi.testclient import TestClient

from preferans.i18n import ui_catalogue


def test_the_catalogue_module_of_each_language(client: TestClient):
    for lang in ("ru", "en"):
        response = client.get(f"/i18n/{lang}.js")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/javascript")
        assert response.headers["content-language"] == lang
        assert response.text == ui_catalogue.javascript(lang)
    ru = client.get("/i18n/ru.js").text
    assert "export const plural = (n) =>" in ru and '"call.PASS": "Пас"' in ru
    assert '"plate.tricks": ["{count} взятка", "{count} взятки", "{count} взяток"]' in ru


def test_it_is_revalidated_by_its_etag(client: TestClient):
    first = client.get("/i18n/ru.js")
    assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
    again = client.get("/i18n/ru.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.get("/i18n/ru.js", headers={"If-None-Match": '"other"'}).status_code == 200


def test_an_unknown_language_has_no_catalogue(client: TestClient):
    for path in ("/i18n/de.js", "/i18n/..%2Fen.js", "/i18n/RU.js"):
        assert client.get(path).status_code == 404
