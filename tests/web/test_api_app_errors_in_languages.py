"""The app's own errors under /api/ (no such path, a method a path lacks, a body too large,
a host not served, a form's CSRF check, a crash, text that is no text) speak the asked
language with their code and values, as an endpoint's refusals do; to a request naming no
language they are what they always were."""

# French writes its apostrophe as U+2019, which ruff takes for a backquote: on purpose here.
# ruff: noqa: RUF001

from __future__ import annotations

import json
from typing import Any

from conftest import API, make_app
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import InternalServerError, NotFound

FRENCH = {"Accept-Language": "fr"}
JAPANESE = {"Accept-Language": "ja"}


def body_of(response: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(response.get_data())
    return answer


def test_a_path_no_endpoint_answers_is_refused_in_french_with_its_code(
    client: FlaskClient,
) -> None:
    missing = client.get(f"{API}/no-such-thing", headers=FRENCH)
    assert missing.status_code == 404
    assert missing.headers["Content-Language"] == "fr"
    assert "Accept-Language" in missing.vary.as_set(preserve_casing=True)
    assert body_of(missing) == {
        "error": "L’adresse demandée est introuvable sur le serveur. Si vous l’avez saisie à "
        "la main, vérifiez son orthographe et réessayez.",
        "field": None,
        "code": "web.error.no-such-address",
        "values": {},
    }
    # Naming no language: werkzeug's English words and the two fields, as ever.
    plain = client.get(f"{API}/no-such-thing")
    assert plain.headers["Content-Language"] == "en"
    assert body_of(plain) == {"error": NotFound.description, "field": None}
    assert plain.vary.as_set() <= {"accept-encoding"}


def test_a_method_a_path_lacks_is_refused_in_japanese_naming_the_methods(
    client: FlaskClient,
) -> None:
    refused = client.put(f"{API}/sessions", json={}, headers=JAPANESE)
    assert refused.status_code == 405
    assert refused.headers["Content-Language"] == "ja"
    assert set(refused.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    assert body_of(refused) == {
        "error": "/api/v1/sessionsが受け付けるのはPOSTで、PUTではありません。",
        "field": None,
        "code": "web.error.method-refused",
        "values": {"path": "/api/v1/sessions", "methods": ["POST"], "method": "PUT"},
    }
    plain = client.put(f"{API}/sessions", json={})
    assert body_of(plain) == {"error": "/api/v1/sessions answers POST, not PUT.", "field": None}


def test_a_body_too_large_is_refused_in_french_with_its_size_and_limit(
    client: FlaskClient,
) -> None:
    body = b" " * (600 * 1024) + b"{}"
    refused = client.post(
        f"{API}/sessions", data=body, content_type="application/json", headers=FRENCH
    )
    assert refused.status_code == 413
    assert refused.headers["Content-Language"] == "fr"
    answer = body_of(refused)
    assert answer["error"] == (
        "La requête fait 601 Kio\u202f; une requête ne peut pas dépasser 512 Kio."
    )
    assert answer["field"] == "body"
    assert answer["code"] == "web.upload.request-of-size"
    assert answer["values"] == {
        "size": {"code": "web.upload.kib", "values": {"size": 601}},
        "limit": {"code": "web.upload.kib", "values": {"size": 512}},
    }
    plain = client.post(f"{API}/sessions", data=body, content_type="application/json")
    assert body_of(plain) == {
        "error": "The request is 601 KiB; a request may be at most 512 KiB.",
        "field": "body",
    }


def test_a_host_not_served_is_refused_in_french_with_its_code(database_url: str) -> None:
    client = make_app(database_url, TRUSTED_HOSTS="scores.example localhost").test_client()
    evil = {"Host": "evil.example"}
    refused = client.post(f"{API}/sessions", json={}, headers={**evil, **FRENCH})
    assert refused.status_code == 400
    assert refused.headers["Content-Language"] == "fr"
    assert body_of(refused) == {
        "error": "Ce serveur ne répond pas au nom d’hôte auquel cette requête a été envoyée\u202f: "
        "ouvrez l’application à sa propre adresse (son réglage TRUSTED_HOSTS liste les noms "
        "auxquels il répond).",
        "field": None,
        "code": "web.hosts.untrusted-host",
        "values": {},
    }


def test_a_form_failing_its_csrf_check_under_api_is_refused_in_japanese(
    database_url: str,
) -> None:
    app = make_app(database_url, WTF_CSRF_ENABLED=True)
    # A form of no endpoint of the API (which takes no form): the app's CSRF check refuses it.
    app.add_url_rule("/api/v1/a-form", "a_form", lambda: "recorded", methods=["POST"])
    client = FlaskClient(app, app.response_class)  # a path the document does not list
    refused = client.post(f"{API}/a-form", data={"name": "Ann"}, headers=JAPANESE)
    assert refused.status_code == 400
    assert refused.headers["Content-Language"] == "ja"
    assert body_of(refused) == {
        "error": "このフォームはアプリのページから送られていないか、期限切れです。"
        "前のページに戻り、再読み込みしてもう一度お試しください。",
        "field": "csrf_token",
        "code": "web.error.form-not-from-app",
        "values": {},
    }


def crashing_app(database_url: str) -> Flask:
    app = make_app(database_url)

    def broken() -> str:
        raise RuntimeError("secret internals")

    app.add_url_rule("/api/v1/broken", "api_broken", broken)
    return app


def test_a_crash_is_told_in_french_with_its_code_and_nothing_of_the_crash(
    database_url: str,
) -> None:
    client = crashing_app(database_url).test_client()
    crashed = client.get(f"{API}/broken", headers=FRENCH)
    assert crashed.status_code == 500
    assert crashed.headers["Content-Language"] == "fr"
    assert body_of(crashed) == {
        "error": "Le serveur a rencontré une erreur interne et n’a pas pu traiter votre requête. "
        "Soit le serveur est surchargé, soit l’application comporte une erreur.",
        "field": None,
        "code": "web.error.internal",
        "values": {},
    }
    plain = client.get(f"{API}/broken")
    assert plain.headers["Content-Language"] == "en"
    assert body_of(plain) == {"error": InternalServerError.description, "field": None}


def test_text_that_is_no_text_is_refused_in_french_naming_the_field(
    client: FlaskClient,
) -> None:
    refused = client.get(f"{API}/sessions/{'x' * 22}?v=%01", headers=FRENCH)
    assert refused.status_code == 422
    assert refused.headers["Content-Language"] == "fr"
    assert body_of(refused) == {
        "error": "«\u202fv\u202f» contient un caractère de contrôle (U+0001)\u202f; retirez-le.",
        "field": "v",
        "code": "web.inputs.not-text",
        "values": {
            "field": "v",
            "problem": {"code": "text.control-character", "values": {"character": "U+0001"}},
        },
    }
    plain = client.get(f"{API}/sessions/{'x' * 22}?v=%01")
    assert body_of(plain) == {
        "error": "“v” contains a control character (U+0001); remove it.",
        "field": "v",
    }
