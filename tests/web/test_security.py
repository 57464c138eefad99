"""Who may do what, CSRF, security headers, double taps, stale pages, limits, page weight."""

from __future__ import annotations

import html
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from conftest import Table, make_app, page_error, start_session
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.models import GameSession

NEW_SESSION_DEFAULTS = {"option_entry_threshold": "500", "option_winning_score": "10000"}


def session_count(app: Flask) -> int:
    with app.app_context(), database.connection_context():
        return int(GameSession.select().count())


def alerts(page: str) -> str:
    """Every sentence the page shows in an alert (page-level or beside a field)."""
    found = re.findall(r'role="alert"[^>]*>(.*?)</(?:div|p)>', page, re.S)
    return html.unescape(" ".join(" ".join(found).split()))


def no_traceback(response: Any) -> str:
    page = response.get_data(as_text=True)
    assert "Traceback" not in page
    assert 'File "' not in page
    return page


def version_of(client: FlaskClient, session_id: str) -> int:
    return int(client.get(f"/api/v1/sessions/{session_id}").get_json()["version"])


def form(version: int | str, **data: str) -> dict[str, Any]:
    return {"version": str(version), "form_key": secrets.token_urlsafe(8), **data}


def csrf_token_of(page: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert match, "the page's form has no csrf_token"
    return match.group(1)


# --- CSRF ------------------------------------------------------------------------


@pytest.fixture
def csrf_app(database_url: str) -> Flask:
    return make_app(database_url, WTF_CSRF_ENABLED=True)


def new_session_data(**extra: str) -> dict[str, str]:
    return {"seats-0": "Ann", "seats-1": "Bo", "form_key": secrets.token_urlsafe(8)} | (
        NEW_SESSION_DEFAULTS | extra
    )


def test_the_new_session_form_without_a_csrf_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    before = session_count(csrf_app)
    response = client.post("/new/yardkle", data=new_session_data())
    assert response.status_code == 400
    page = no_traceback(response)
    assert "This form was not sent from this app's page" in alerts(page)
    assert "reload the page" in alerts(page)
    assert session_count(csrf_app) == before
    # A made-up token is refused the same way.
    response = client.post("/new/yardkle", data=new_session_data(csrf_token="forged"))
    assert response.status_code == 400
    assert session_count(csrf_app) == before


def test_the_new_session_form_with_the_pages_csrf_token_succeeds(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    before = session_count(csrf_app)
    page = client.get("/new/yardkle")
    assert page.status_code == 200
    token = csrf_token_of(page.get_data(as_text=True))
    response = client.post("/new/yardkle", data=new_session_data(csrf_token=token))
    assert response.status_code == 303
    assert re.fullmatch(r"/s/[A-Za-z0-9_-]{22,}", response.location)
    assert session_count(csrf_app) == before + 1


def test_a_session_form_needs_its_csrf_token_too(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    token = csrf_token_of(client.get("/new/yardkle").get_data(as_text=True))
    created = client.post("/new/yardkle", data=new_session_data(csrf_token=token))
    session_id = created.location.rsplit("/", 1)[1]
    action = f"/s/{session_id}/action"
    refused = client.post(action, data=form(0, type="total", points="500"))
    assert refused.status_code == 400
    assert version_of(client, session_id) == 0
    token = csrf_token_of(client.get(f"/s/{session_id}").get_data(as_text=True))
    accepted = client.post(action, data=form(0, type="total", points="500", csrf_token=token))
    assert accepted.status_code == 303
    assert version_of(client, session_id) == 1


def test_the_json_api_is_exempt_from_csrf(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    response = client.post("/api/v1/sessions", json={"game": "yardkle", "seats": ["Ann"]})
    assert response.status_code == 201
    score = client.post("/api/v1/yardkle/score", json={"dice": [5]})
    assert score.get_json()["points"] == 50


# --- Headers and outside references ----------------------------------------------


@pytest.fixture
def played(table: Table) -> Table:
    assert table.roll(1, 1, 1, 5, 2, 3).status_code == 303
    assert table.keep(1, 1, 1, 5, bank=True).status_code == 303
    assert table.act(type="total", points="0").status_code == 303
    return table


def app_pages(table: Table) -> dict[str, str]:
    return {
        "home": "/",
        "choose game": "/new",
        "new": "/new/yardkle",
        "session": table.url,
        "history": f"{table.url}/history",
        "results": f"{table.url}/results",
        "share": f"{table.url}/share",
        "import": "/import",
    }


def csp_directives(header: str) -> dict[str, list[str]]:
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def assert_secure_headers(response: Any, what: str) -> None:
    assert response.mimetype == "text/html", what
    csp = response.headers.get("Content-Security-Policy", "")
    directives = csp_directives(csp)
    assert directives.get("default-src") == ["'self'"], what
    assert directives.get("script-src") == ["'self'"], what
    assert directives.get("style-src") == ["'self'"], what
    assert directives.get("object-src") == ["'none'"], what
    assert directives.get("frame-ancestors") == ["'none'"], what
    for name, sources in directives.items():
        for source in sources:
            assert "unsafe" not in source, (what, name, source)
            assert "://" not in source and source not in ("*", "http:", "https:"), (what, source)
    assert response.headers.get("X-Content-Type-Options") == "nosniff", what
    assert response.headers.get("Referrer-Policy") == "same-origin", what


def test_every_page_carries_the_security_headers(app: Flask, played: Table) -> None:
    for name, url in app_pages(played).items():
        response = played.client.get(url)
        assert response.status_code == 200, name
        assert_secure_headers(response, name)


def test_error_pages_carry_the_security_headers_too(app: Flask, played: Table) -> None:
    watcher = app.test_client()
    stale = played.post("/action", {"type": "total", "points": "500"}, version=0)
    responses = {
        "404": played.client.get("/no/such/page"),
        "405": played.client.get(f"{played.url}/action"),
        "403": watcher.post(f"{played.url}/action", data=form(2, type="bank")),
        "409": stale,
        "422": played.act(type="fly"),
    }
    for status, response in responses.items():
        assert response.status_code == int(status)
        assert_secure_headers(response, status)


def test_no_page_references_anything_outside_the_app(app: Flask, played: Table) -> None:
    pages = app_pages(played)
    for name, url in pages.items():
        page = played.client.get(url).get_data(as_text=True)
        for attribute, target in re.findall(
            r'\b(src|href|action|srcset|poster|data)\s*=\s*["\']?([^"\'\s>]+)', page
        ):
            parsed = urlparse(html.unescape(target))
            assert parsed.scheme in ("", "http", "https", "data"), (name, attribute, target)
            if parsed.scheme in ("http", "https") or target.startswith("//"):
                assert parsed.hostname == "localhost", (name, attribute, target)
        assert not re.search(r"@import|url\(\s*['\"]?(https?:)?//", page), name
    static = Path(played.client.application.static_folder or "")
    stylesheets = sorted(path.relative_to(static) for path in static.rglob("*.css"))
    assert Path("app.css") in stylesheets and Path("games/score-sheet.css") in stylesheets
    for stylesheet in stylesheets:
        css = played.client.get(f"/static/{stylesheet}").get_data(as_text=True)
        assert not re.search(r"@import|url\(\s*['\"]?(https?:)?//", css), stylesheet
    js = played.client.get("/static/app.js").get_data(as_text=True)
    assert not re.search(r"https?://", js)


def test_pages_have_no_inline_code_the_csp_would_block(played: Table) -> None:
    for name, url in app_pages(played).items():
        page = played.client.get(url).get_data(as_text=True)
        for script in re.findall(r"<script\b[^>]*>", page):
            assert "src=" in script, (name, script)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", page), name
        assert "<style" not in page, name
        assert not re.search(r'\sstyle\s*=\s*"', page), name
        assert not re.search(r"\son[a-z]+\s*=", page), name
        assert "javascript:" not in page, name


def test_names_are_escaped_on_every_page(client: FlaskClient) -> None:
    table = start_session(client, ["<script>x()</script>", "Bo"])
    assert table.act(type="total", points="0").status_code == 303
    for url in ("/", table.url, f"{table.url}/history", f"{table.url}/results"):
        page = client.get(url).get_data(as_text=True)
        assert "<script>x()" not in page, url
        assert "&lt;script&gt;x()&lt;/script&gt;" in page, url


# --- Edit rights -----------------------------------------------------------------


def test_a_watcher_sees_the_session_but_cannot_record(app: Flask, played: Table) -> None:
    watcher = app.test_client()
    before = version_of(watcher, played.id)
    response = watcher.get(played.url)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'id="roll-form"' not in page
    assert 'action="/s/' not in page
    assert "You are watching" in page
    assert "Ann" in page and "1,050" in page
    for path, data in (
        ("/action", {"type": "total", "points": "500"}),
        ("/action", {"type": "roll", "dice_count": "6", **{f"die{i}": "5" for i in range(1, 7)}}),
        ("/undo", {}),
        ("/redo", {}),
    ):
        refused = watcher.post(played.url + path, data=form(before, **data))
        assert refused.status_code == 403, path
        text = alerts(no_traceback(refused))
        assert "This device can watch this session but not record in it" in text
    assert version_of(watcher, played.id) == before
    assert played.state()["state"]["scores"] == [1050, 0, 0]


def test_the_share_page_gives_the_join_link_only_to_a_scorer(app: Flask, played: Table) -> None:
    scorer_page = played.client.get(f"{played.url}/share").get_data(as_text=True)
    join = re.search(rf"http://localhost(/s/{played.id}/join/[A-Za-z0-9_-]{{22,}})", scorer_page)
    assert join, "the scorer's share page shows no join link"
    assert f"http://localhost/s/{played.id}" in scorer_page
    watcher = app.test_client()
    watcher.get(played.url)
    watcher_page = watcher.get(f"{played.url}/share").get_data(as_text=True)
    assert "/join/" not in watcher_page
    assert join.group(1).rsplit("/", 1)[1] not in watcher_page
    assert f"http://localhost/s/{played.id}" in watcher_page


def test_the_join_link_lets_a_second_phone_record(app: Flask, played: Table) -> None:
    page = played.client.get(f"{played.url}/share").get_data(as_text=True)
    join = re.search(rf"/s/{played.id}/join/[A-Za-z0-9_-]+", page)
    assert join
    phone = app.test_client()
    response = phone.get(join.group(0))
    assert response.status_code == 303
    assert response.location == played.url
    assert 'id="roll-form"' in phone.get(played.url).get_data(as_text=True)
    before = version_of(phone, played.id)
    recorded = phone.post(f"{played.url}/action", data=form(before, type="total", points="600"))
    assert recorded.status_code == 303
    assert version_of(phone, played.id) == before + 1
    assert played.state()["state"]["scores"] == [1050, 0, 600]
    # Watching the view link afterwards does not take the right away.
    phone.get(played.url)
    assert phone.post(f"{played.url}/undo", data=form(before + 1)).status_code == 303


def test_a_wrong_join_key_is_refused(app: Flask, played: Table) -> None:
    phone = app.test_client()
    for key in ("not-the-key", "A" * 32):
        response = phone.get(f"{played.url}/join/{key}")
        assert response.status_code == 403
        assert "no longer valid" in alerts(no_traceback(response))
    other = start_session(played.client, ["Zed"])
    other_key = re.search(
        r"/join/([A-Za-z0-9_-]+)", played.client.get(f"{other.url}/share").get_data(as_text=True)
    )
    assert other_key
    assert phone.get(f"{played.url}/join/{other_key.group(1)}").status_code == 403
    before = version_of(phone, played.id)
    refused = phone.post(f"{played.url}/action", data=form(before, type="total", points="600"))
    assert refused.status_code == 403
    assert version_of(phone, played.id) == before


def test_the_home_page_lists_only_this_devices_sessions(app: Flask, client: FlaskClient) -> None:
    first = start_session(client, ["Ann", "Bo"])
    second = start_session(client, ["Cy", "Di"])
    mine = client.get("/").get_data(as_text=True)
    assert first.id in mine and second.id in mine

    stranger = app.test_client()
    empty = stranger.get("/").get_data(as_text=True)
    assert first.id not in empty and second.id not in empty
    assert "None yet" in empty

    stranger.get(first.url)
    home = stranger.get("/").get_data(as_text=True)
    assert first.id in home
    assert second.id not in home
    assert "Cy, Di" not in home
    assert "watching" in home


# --- Double taps and stale pages -------------------------------------------------


def test_a_double_tap_records_one_event(table: Table) -> None:
    data = form(0, type="roll", dice_count="6", die1="1", die2="1", die3="1", die4="5",
                die5="2", die6="3")  # fmt: skip
    first = table.client.post(f"{table.url}/action", data=data)
    second = table.client.post(f"{table.url}/action", data=data)
    assert first.status_code == second.status_code == 303
    assert first.location == second.location == table.url
    state = table.state()
    assert state["version"] == 1
    assert state["state"]["turn"]["rolls"] == 1
    # The same for an undo.
    undo = form(1)
    assert table.client.post(f"{table.url}/undo", data=undo).status_code == 303
    assert table.client.post(f"{table.url}/undo", data=undo).status_code == 303
    assert table.state()["version"] == 2
    assert table.state()["can_undo"] is False


def test_a_double_tap_on_the_new_session_form_creates_one_session(
    app: Flask, client: FlaskClient
) -> None:
    before = session_count(app)
    data = new_session_data()
    first = client.post("/new/yardkle", data=data)
    second = client.post("/new/yardkle", data=data)
    assert session_count(app) == before + 1
    assert first.location == second.location
    assert first.status_code == 303
    assert second.status_code == 303


def test_a_stale_page_gets_409_with_the_current_state_and_records_nothing(
    app: Flask, table: Table
) -> None:
    other_phone = app.test_client()
    assert table.act(type="total", points="500").status_code == 303
    join = re.search(
        r"/s/[^/\s<]+/join/[A-Za-z0-9_-]+",
        table.client.get(f"{table.url}/share").get_data(as_text=True),
    )
    assert join
    other_phone.get(join.group(0))
    assert table.act(type="total", points="700").status_code == 303
    # The other phone still shows version 1.
    response = other_phone.post(f"{table.url}/action", data=form(1, type="total", points="800"))
    assert response.status_code == 409
    page = no_traceback(response)
    assert "The session changed on another phone" in page_error(page)
    assert 'name="version" value="2"' in page
    assert "700" in page
    assert table.state()["version"] == 2
    assert table.state()["state"]["scores"] == [500, 700, 0]
    stale_undo = other_phone.post(f"{table.url}/undo", data=form(1))
    assert stale_undo.status_code == 409
    assert table.state()["version"] == 2


# --- Limits and errors -----------------------------------------------------------


def test_a_600_character_seat_name_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient
) -> None:
    before = session_count(app)
    response = client.post("/new/yardkle", data=new_session_data(**{"seats-0": "A" * 600}))
    assert response.status_code == 422
    page = no_traceback(response)
    assert "Seat 1's name is 600 characters long; at most 40 fit." in alerts(page)
    assert session_count(app) == before


def test_a_request_over_the_size_limit_gets_a_413_page_naming_the_limit(
    app: Flask, client: FlaskClient
) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == 512 * 1024
    before = session_count(app)
    big = "x" * (600 * 1024)
    response = client.post("/new/yardkle", data={"seats-0": big, "form_key": "big"})
    assert response.status_code == 413
    page = no_traceback(response)
    assert response.mimetype == "text/html"
    assert "Too large" in page
    assert '<header class="top">' in page
    sentence = "The request is 601 KiB; a request may be at most 512 KiB."
    assert alerts(page) == sentence
    api = client.post("/api/v1/sessions", json={"game": "yardkle", "seats": [big]})
    assert api.status_code == 413
    assert api.get_json() == {"error": sentence, "field": "body"}
    assert session_count(app) == before


def test_an_unknown_url_gets_the_apps_404_page(client: FlaskClient) -> None:
    for url in ("/no/such/page", "/s/AAAAAAAAAAAAAAAAAAAAAA", "/new/chess"):
        response = client.get(url)
        assert response.status_code == 404, url
        page = no_traceback(response)
        assert response.mimetype == "text/html"
        assert "Not found" in page
        assert '<header class="top">' in page
        assert 'href="/static/app.css"' in page
        assert alerts(page)


def test_get_on_a_post_only_url_is_405(table: Table) -> None:
    for url in (f"{table.url}/action", f"{table.url}/undo", f"{table.url}/redo"):
        response = table.client.get(url)
        assert response.status_code == 405, url
        page = no_traceback(response)
        assert "Not allowed here" in page
        assert '<header class="top">' in page


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ({"type": "roll", "dice_count": "abc"}, "The number of dice must be a whole number."),
        (
            {"type": "roll", "dice_count": "6", **{f"die{i}": "9" for i in range(1, 7)}},
            "Die 1 is 9: a die shows 1 to 6.",
        ),
        (
            {"type": "roll", "dice_count": "6", **{f"die{i}": "x" for i in range(1, 7)}},
            "a die shows 1 to 6",
        ),
        ({"type": "roll", "dice_count": "6", "die1": "1"}, "Die 2: tap the number it shows."),
        ({"type": "fly"}, "Choose what happened"),
        ({"type": "total", "points": "1e9"}, "The turn total must be a whole number."),
        ({"type": "total", "points": "12345678901234567890"}, "must be a whole number"),
        ({"type": "total", "points": "-50"}, "cannot be negative"),
        ({"type": "total", "points": ""}, "must be a whole number"),
        ({"type": "keep", "keep": ["abc"]}, "a die shows 1 to 6"),
        ({"type": "bank"}, "Nothing to bank yet"),
    ],
)
def test_garbage_form_values_are_422_with_a_sentence_never_500(
    table: Table, data: dict[str, Any], sentence: str
) -> None:
    response = table.act(**data)
    assert response.status_code == 422
    assert sentence in html.unescape(page_error(no_traceback(response)))
    assert table.state()["version"] == 0


@pytest.mark.parametrize("version", ["x", "", "1.5", "9" * 20])
def test_a_garbage_version_is_422_never_500(table: Table, version: str) -> None:
    data = {"version": version, "form_key": "garbage", "type": "total", "points": "500"}
    response = table.client.post(f"{table.url}/action", data=data)
    assert response.status_code == 422
    assert "The page's version must be a whole number." in html.unescape(
        page_error(no_traceback(response))
    )
    assert table.state()["version"] == 0


def test_an_overlong_form_key_is_422_never_500(table: Table) -> None:
    data = {"version": "0", "form_key": "k" * 500, "type": "total", "points": "500"}
    response = table.client.post(f"{table.url}/action", data=data)
    assert response.status_code == 422
    assert "form key" in page_error(no_traceback(response))
    assert table.state()["version"] == 0


# --- The new-session form --------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "sentence"),
    [
        ({"seats-0": "", "seats-1": "  "}, "needs 1 to 8 seats"),
        (
            {"seats-0": "Ann", "seats-1": "Ann"},
            "Two seats are called Ann; give each seat its own name.",
        ),
        ({"seats-0": "Ann", "seats-1": "ann"}, "Two seats are called ann"),
        ({"option_entry_threshold": "120"}, "Entry threshold must be a multiple of 50."),
        ({"option_entry_threshold": "abc"}, "Entry threshold must be a whole number."),
        ({"option_winning_score": "100"}, "Final-round score must be at least 500."),
    ],
)
def test_a_refused_new_session_form_shows_why_and_creates_nothing(
    app: Flask, client: FlaskClient, extra: dict[str, str], sentence: str
) -> None:
    before = session_count(app)
    response = client.post("/new/yardkle", data=new_session_data(**extra))
    assert response.status_code == 422
    page = no_traceback(response)
    assert sentence in alerts(page)
    assert session_count(app) == before
    # The names typed so far stay in the form.
    if extra.get("seats-1") == "Ann":
        assert page.count('value="Ann"') == 2


def test_the_new_session_form_has_one_input_per_possible_seat(client: FlaskClient) -> None:
    page = client.get("/new/yardkle").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'name="seats-(\d+)"', page)] == list(range(8))
    assert 'maxlength="40"' in page


# --- Page weight -----------------------------------------------------------------


def test_the_session_page_with_its_css_and_js_weighs_under_100_kb(client: FlaskClient) -> None:
    table = start_session(client, [f"Player {n}" for n in range(1, 9)])
    for _ in range(8):
        assert table.act(type="total", points="500").status_code == 303
    assert table.roll(1, 1, 1, 5, 2, 3).status_code == 303
    response = client.get(table.url)
    page = response.get_data()
    text = page.decode()
    assets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', text) + re.findall(
        r'<script src="([^"]+)"', text
    )
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    total = len(page)
    for asset in assets:
        fetched = client.get(asset)
        assert fetched.status_code == 200, asset
        total += len(fetched.get_data())
        fetched.close()
    assert total < 100 * 1024, f"{total} bytes"
