"""The live-refresh check: GET /api/v1/sessions/<id>/version reads the version column
alone, answers 304 to the ETag of an unchanged session, and moves on with every write."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import API, api_session, assert_error
from flask.testing import FlaskClient

from scorekeeper import session_log
from scorekeeper.games.yardkle import rules as yardkle


def forbid_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, any replay of a session's log or any rule applied fails the test."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the refresh check computed the session's state")

    monkeypatch.setattr(session_log, "replay_from", refuse)
    monkeypatch.setattr(type(yardkle.GAME), "apply", refuse)


def test_the_check_answers_the_version_and_its_etag_without_replaying(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    session.ok({"type": "total", "points": 600})
    forbid_replay(monkeypatch)

    response = client.get(f"{session.url}/version")

    assert response.status_code == 200
    assert response.get_json() == {"version": 2}
    assert response.headers["ETag"] == '"2"'
    assert response.headers["Cache-Control"] == "no-cache"


def test_an_unchanged_session_answers_304_with_no_body_to_its_etag(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    etag = client.get(f"{session.url}/version").headers["ETag"]
    forbid_replay(monkeypatch)

    response = client.get(f"{session.url}/version", headers={"If-None-Match": etag})

    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == etag


def test_after_a_write_the_old_etag_gets_the_new_version(client: FlaskClient) -> None:
    session = api_session(client)
    etag = client.get(f"{session.url}/version").headers["ETag"]
    session.ok({"type": "total", "points": 500})
    session.ok({"type": "total", "points": 0})

    response = client.get(f"{session.url}/version", headers={"If-None-Match": etag})

    assert response.status_code == 200
    assert response.get_json() == {"version": 2}
    assert response.headers["ETag"] == '"2"'


def test_an_undo_moves_the_version_on_too(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    undone = session.post("/undo", {"version": 1})
    assert undone.status_code == 200

    assert client.get(f"{session.url}/version").get_json() == {"version": 2}


def test_an_unknown_session_is_a_404_json_error(client: FlaskClient) -> None:
    response = client.get(f"{API}/sessions/AAAAAAAAAAAAAAAAAAAAAA/version")

    assert "No session" in assert_error(response, 404, None)


def test_the_session_page_polls_the_version_check(client: FlaskClient) -> None:
    session = api_session(client)

    page = client.get(f"/s/{session.id}").get_data(as_text=True)

    assert f'data-version-url="{API}/sessions/{session.id}/version"' in page
    assert 'data-version="0"' in page


def test_a_plain_check_is_answered_before_flask_with_the_security_headers(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = api_session(client)
    etag = client.get(f"{session.url}/version").headers["ETag"]

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the check went through Flask's request handling")

    monkeypatch.setattr(type(client.application), "request_context", refuse)

    fresh = client.get(f"{session.url}/version")
    unchanged = client.get(f"{session.url}/version", headers={"If-None-Match": etag})

    assert (fresh.status_code, fresh.get_json()) == (200, {"version": 0})
    assert fresh.mimetype == "application/json"
    assert (unchanged.status_code, unchanged.data) == (304, b"")
    for response in (fresh, unchanged):
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("query", ["?v=1", "?v=%01"])
def test_a_check_with_a_query_string_is_answered_by_the_flask_view(
    client: FlaskClient, query: str
) -> None:
    session = api_session(client)

    response = client.get(f"{session.url}/version{query}")

    if "%01" in query:
        assert "control character" in assert_error(response, 422, "v")
    else:
        assert (response.status_code, response.get_json()) == (200, {"version": 0})
        assert response.headers["ETag"] == '"0"'


# Every If-None-Match a client, a proxy or an attacker may send to a session at version 1,
# and what it answers: a tag naming version 1 (weakly or strongly, alone or in a list)
# or "*" is a 304, anything else the version.
ODD_IF_NONE_MATCH = [
    ('"", "0"', 200),
    ('"", "1"', 304),
    ('""', 200),
    ("", 200),
    ('W/"x"', 200),
    ('W/"1"', 304),
    ("*", 304),
    ("garbage", 200),
    ('"1", "x"', 304),
    ('"1', 200),
    ("W/", 200),
    (",,,", 200),
    ('"²"', 200),
    ('"9' + "9" * 5000 + '"', 200),
    (", ".join(f'"{n}"' for n in range(2, 5000)), 200),
    (", ".join(['""', "garbage", 'W/""', *(f'"{n}"' for n in range(5000))]), 304),
]


@pytest.mark.parametrize(("if_none_match", "status"), ODD_IF_NONE_MATCH)
@pytest.mark.parametrize("query", ["", "?v=1"], ids=["before-flask", "flask-view"])
def test_an_odd_if_none_match_gets_the_version_or_a_304_never_an_error(
    client: FlaskClient, if_none_match: str, status: int, query: str
) -> None:
    session = api_session(client)
    # A write: on PostgreSQL the worker now knows the version without reading it.
    session.ok({"type": "total", "points": 500})

    response = client.get(f"{session.url}/version{query}", headers={"If-None-Match": if_none_match})

    assert response.status_code == status
    assert response.headers["ETag"] == '"1"'
    assert response.get_json(silent=True) == ({"version": 1} if status == 200 else None)


# Accept-Language, the cookies the phone holds, and the language and headers that chose it.
LANGUAGE_ASKED = [
    (None, {}, "en", set()),
    ("fr-CA,fr;q=0.9", {}, "fr", {"Accept-Language"}),
    ("de", {}, "en", {"Accept-Language"}),
    (None, {"other": "1"}, "en", {"Cookie"}),
    ("fr", {"other": "1", "language": "ja"}, "ja", {"Accept-Language", "Cookie"}),
    (None, {"language": "xx"}, "en", {"Cookie"}),
]


@pytest.mark.parametrize(("accepted", "cookies", "language", "chosen_by"), LANGUAGE_ASKED)
def test_the_check_says_its_language_before_flask_as_the_flask_view_does(
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    accepted: str | None,
    cookies: dict[str, str],
    language: str,
    chosen_by: set[str],
) -> None:
    session = api_session(client)
    for name, value in cookies.items():
        client.set_cookie(name, value)
    headers = {} if accepted is None else {"Accept-Language": accepted}
    # The Flask view's answer (a query string goes to it), then the check's before Flask.
    view = client.get(f"{session.url}/version?v=1", headers=headers)
    etag = view.headers["ETag"]

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the check went through Flask's request handling")

    monkeypatch.setattr(type(client.application), "request_context", refuse)
    fresh = client.get(f"{session.url}/version", headers=headers)
    unchanged = client.get(f"{session.url}/version", headers={**headers, "If-None-Match": etag})

    assert (fresh.status_code, unchanged.status_code) == (200, 304)
    for response in (view, fresh, unchanged):
        assert response.headers["Content-Language"] == language
        assert response.vary.as_set(preserve_casing=True) - {"Accept-Encoding"} == chosen_by
