"""No link names a host the server was not set up for: PUBLIC_URL names every absolute
link whatever the Host header says, and TRUSTED_HOSTS refuses a request for any other
host with a 400 sentence. With neither set, links name the address the page was opened
at, so phones on a home network open the laptop at its LAN address."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import make_app
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.web.hosts import NO_HOST_NAME, UNTRUSTED_HOST

EVIL = {"Host": "evil.example"}
PUBLIC_URL = "https://scores.example/club"


def new_session(client: FlaskClient, **request: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/sessions", json={"game": "yardkle", "seats": ["Ann", "Bo"]}, **request
    )
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def absolute_links(text: str) -> list[str]:
    """Every http(s) address in a page or an answer, but the OpenAPI examples' own."""
    return re.findall(r"https?://[^\s\"'<>]+", text)


def scorer_pages(client: FlaskClient, **request: Any) -> dict[str, str]:
    """The pages that name absolute links, each opened by the device that may hand its
    right on: a session's and a group's share pages and a deck profile's page."""
    started = client.post(
        "/new/score-sheet", data={"seats-0": "Ann", "seats-1": "Bo", "form_key": "k"}, **request
    )
    assert started.status_code == 303
    group = client.post("/groups/new", data={"name": "Friday", "player": ["Ann", "Bo"]}, **request)
    assert group.status_code == 303
    deck = client.post("/decks", data={"name": "Blue box", "form_key": "d"}, **request)
    assert deck.status_code == 303
    pages = {
        "session share": f"{started.location}/share",
        "group share": f"{group.location}/share",
        "deck": deck.location,
    }
    opened = {name: client.get(path, **request) for name, path in pages.items()}
    assert all(page.status_code == 200 for page in opened.values())
    return {name: page.get_data(as_text=True) for name, page in opened.items()}


def test_with_public_url_set_every_api_link_names_it_whatever_the_host(database_url: str) -> None:
    client = make_app(database_url, PUBLIC_URL=PUBLIC_URL + "/").test_client()
    created = new_session(client, headers=EVIL)
    session_id = created["id"]
    assert created["links"] == {
        "view": f"{PUBLIC_URL}/s/{session_id}",
        "export": f"{PUBLIC_URL}/api/v1/sessions/{session_id}/export",
        "history": f"{PUBLIC_URL}/api/v1/sessions/{session_id}/history",
        "rounds": f"{PUBLIC_URL}/api/v1/sessions/{session_id}/rounds",
        "join": f"{PUBLIC_URL}/s/{session_id}/join/{created['edit_key']}",
    }
    read = client.get(f"/api/v1/sessions/{session_id}", headers=EVIL).get_json()
    assert read["links"]["view"] == f"{PUBLIC_URL}/s/{session_id}"
    group = client.post("/api/v1/groups", json={"name": "Friday"}, headers=EVIL).get_json()
    assert group["links"]["join"] == f"{PUBLIC_URL}/g/{group['id']}/join/{group['edit_key']}"
    stats = client.get(f"/api/v1/groups/{group['id']}/stats", headers=EVIL).get_json()
    assert stats["links"]["view"].startswith(f"{PUBLIC_URL}/g/{group['id']}/stats")


def test_with_public_url_set_share_pages_and_qr_codes_name_it_whatever_the_host(
    database_url: str,
) -> None:
    client = make_app(database_url, PUBLIC_URL=PUBLIC_URL).test_client()
    pages = scorer_pages(client, headers=EVIL)
    for name, page in pages.items():
        links = absolute_links(page)
        assert any("/join/" in link for link in links), name
        assert all(link.startswith(PUBLIC_URL + "/") for link in links), (name, links)
        assert "evil.example" not in page, name


@pytest.fixture
def trusting_app(database_url: str) -> Flask:
    # localhost too: the test client's own requests (the OpenAPI document) are sent to it.
    return make_app(database_url, TRUSTED_HOSTS="scores.example, 192.168.1.20 localhost")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/"),
        ("post", "/new/score-sheet"),
        ("get", "/static/app.css"),
        ("get", "/no/such/page"),
    ],
)
def test_with_trusted_hosts_set_a_page_for_another_host_is_refused_with_a_sentence(
    trusting_app: Flask, method: str, path: str
) -> None:
    response = trusting_app.test_client().open(path, method=method, headers=EVIL)
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert UNTRUSTED_HOST in page
    assert "Traceback" not in page
    assert 'href="/static/app.css' in page  # the app's own error page, styled


def test_with_trusted_hosts_set_the_api_refuses_another_host_with_json(trusting_app: Flask) -> None:
    client = trusting_app.test_client()
    created = new_session(client, headers={"Host": "scores.example"})
    session_id = created["id"]
    assert created["links"]["join"].startswith(f"http://scores.example/s/{session_id}/join/")
    for method, path in [
        ("post", "/api/v1/sessions"),
        ("get", f"/api/v1/sessions/{session_id}"),
        ("get", f"/api/v1/sessions/{session_id}/version"),  # answered before Flask otherwise
    ]:
        response = client.open(path, method=method, headers=EVIL)
        assert response.status_code == 400, path
        assert response.get_json() == {"error": UNTRUSTED_HOST, "field": None}
    assert client.get(f"/api/v1/sessions/{session_id}/version").status_code == 200


def test_with_trusted_hosts_set_share_pages_for_another_host_are_refused(
    trusting_app: Flask,
) -> None:
    client = trusting_app.test_client()
    pages = scorer_pages(client, base_url="http://192.168.1.20:5000")
    join = re.search(r"http://192\.168\.1\.20:5000/s/[^/]+/join/[\w-]+", pages["session share"])
    assert join, "the share page at a trusted address names its join link"
    share_path = join.group(0).removeprefix("http://192.168.1.20:5000").split("/join/")[0]
    refused = client.get(f"{share_path}/share", headers=EVIL)
    assert refused.status_code == 400
    assert UNTRUSTED_HOST in refused.get_data(as_text=True)


def test_trusted_hosts_from_the_environment_are_a_list_of_names(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "hosts-test")
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "Scores.Example, .club.example 10.0.0.5")
    app = create_app()
    assert app.config["TRUSTED_HOSTS"] == ["scores.example", ".club.example", "10.0.0.5"]
    client = app.test_client()
    assert client.get("/", headers={"Host": "bridge.club.example"}).status_code == 200
    assert client.get("/", headers={"Host": "10.0.0.5:8000"}).status_code == 200
    assert client.get("/", headers=EVIL).status_code == 400


@pytest.mark.parametrize(
    "trusted", ["https://scores.example", "scores.example/club", ["scores.example", 5], 7]
)
def test_a_trusted_hosts_entry_that_is_no_host_name_stops_the_start(
    database_url: str, trusted: object
) -> None:
    with pytest.raises(ValueError, match=r"^TRUSTED_HOSTS (must )?lists? "):
        make_app(database_url, TRUSTED_HOSTS=trusted)


def test_behind_a_proxy_the_forwarded_host_is_the_one_checked(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "hosts-test")
    monkeypatch.setenv("SCOREKEEPER_PROXY_COUNT", "1")
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example localhost")
    client = create_app().test_client()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}
    created = new_session(client, headers={"Host": "127.0.0.1:8000", **forwarded})
    assert created["links"]["view"] == f"https://scores.example/s/{created['id']}"
    version = f"/api/v1/sessions/{created['id']}/version"
    faked = {"Host": "scores.example", "X-Forwarded-Host": "evil.example"}
    assert client.get(version, headers=faked).status_code == 400
    assert client.get(version, headers=forwarded).status_code == 200


def test_with_neither_set_links_name_the_lan_address_the_phone_opened(app: Flask) -> None:
    created = new_session(app.test_client(), base_url="http://192.168.1.7:5000")
    assert created["links"]["join"].startswith(f"http://192.168.1.7:5000/s/{created['id']}/join/")


@pytest.mark.parametrize("host", [".", "a..b", "a" * 64, "x." + "a" * 64 + ".example"])
@pytest.mark.parametrize("trusted", [None, ["localhost"]])
def test_a_host_header_that_is_no_host_name_is_refused_with_a_sentence(
    database_url: str, host: str, trusted: list[str] | None
) -> None:
    client = make_app(database_url, TRUSTED_HOSTS=trusted).test_client()
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "Traceback" not in text
    assert 'href="/static/app.css' in text  # the app's own error page, styled
    assert NO_HOST_NAME in text or UNTRUSTED_HOST in text
    if trusted is None:
        assert NO_HOST_NAME in text
    api = client.post("/api/v1/sessions", json={}, headers={"Host": host})
    assert api.status_code == 400
    assert api.get_json()["error"] in (NO_HOST_NAME, UNTRUSTED_HOST)
