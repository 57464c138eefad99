"""The cookie holding edit rights is Secure when the request came over HTTPS, behind a proxy too."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import make_app
from flask import Flask

from scorekeeper import create_app

FORWARDED_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}


def create_session(app: Flask, **request: Any) -> dict[str, Any]:
    response = app.test_client().post(
        "/api/v1/sessions", json={"game": "yardkle", "seats": ["Ann", "Bo"]}, **request
    )
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def join_cookie(app: Flask, **request: Any) -> str:
    """The Set-Cookie header a phone gets when it opens a session's "score with me" link."""
    created = create_session(app)
    response = app.test_client().get(f"/s/{created['id']}/join/{created['edit_key']}", **request)
    assert response.status_code == 303
    return str(response.headers["Set-Cookie"])


def cookie_attributes(set_cookie: str) -> list[str]:
    return [part.strip() for part in set_cookie.split(";")[1:]]


def test_the_cookie_is_secure_when_the_request_came_over_https(database_url: str) -> None:
    attributes = cookie_attributes(
        join_cookie(make_app(database_url), base_url="https://localhost")
    )
    assert "Secure" in attributes
    assert "HttpOnly" in attributes


def test_the_cookie_is_not_secure_over_plain_http(database_url: str) -> None:
    assert "Secure" not in cookie_attributes(join_cookie(make_app(database_url)))


@pytest.fixture
def app_behind_a_proxy(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The app configured as the README says: SCOREKEEPER_PROXY_COUNT in the environment."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "proxy-test")
    monkeypatch.setenv("SCOREKEEPER_PROXY_COUNT", "1")
    return create_app()


def test_behind_a_proxy_a_request_forwarded_from_https_gets_a_secure_cookie(
    app_behind_a_proxy: Flask,
) -> None:
    assert app_behind_a_proxy.config["PROXY_COUNT"] == 1
    assert "Secure" in cookie_attributes(join_cookie(app_behind_a_proxy, headers=FORWARDED_HTTPS))
    assert "Secure" not in cookie_attributes(join_cookie(app_behind_a_proxy))


def test_behind_a_proxy_links_name_the_address_the_phones_used(app_behind_a_proxy: Flask) -> None:
    created = create_session(app_behind_a_proxy, headers=FORWARDED_HTTPS)
    assert created["links"]["join"].startswith(f"https://scores.example/s/{created['id']}/join/")


def test_without_proxy_count_forwarded_headers_are_not_trusted(database_url: str) -> None:
    app = make_app(database_url)
    assert "Secure" not in cookie_attributes(join_cookie(app, headers=FORWARDED_HTTPS))
    created = create_session(app, headers=FORWARDED_HTTPS)
    assert created["links"]["join"].startswith("http://localhost/")


@pytest.mark.parametrize("count", ["two", -1, True])
def test_a_proxy_count_that_is_not_a_number_of_proxies_stops_the_start(
    database_url: str, count: Any
) -> None:
    with pytest.raises(ValueError, match=r"^PROXY_COUNT must be the number of proxies in front"):
        make_app(database_url, PROXY_COUNT=count)


@pytest.mark.parametrize(
    "prefix", ["//evil.example", "/\\evil.example", "/\t/evil.example", "/ok//x"]
)
def test_behind_a_proxy_a_forwarded_prefix_that_is_no_plain_path_is_not_used(
    app_behind_a_proxy: Flask, prefix: str
) -> None:
    page = app_behind_a_proxy.test_client().get("/new", headers={"X-Forwarded-Prefix": prefix})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'href="/static/app.css' in text
    assert "evil.example" not in text and "//x" not in text


def test_behind_a_proxy_a_forwarded_prefix_that_is_a_path_starts_every_link(
    app_behind_a_proxy: Flask,
) -> None:
    page = app_behind_a_proxy.test_client().get("/new", headers={"X-Forwarded-Prefix": "/scores/"})
    assert 'href="/scores/static/app.css' in page.get_data(as_text=True)
