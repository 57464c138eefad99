"""The phone's language: chosen by Accept-Language, switched and remembered by a link."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_a_page_speaks_the_phone_s_accept_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    html = page.get_data(as_text=True)
    assert '<html lang="fr">' in html
    assert "tient les scores et tranche les litiges" in html


def test_a_language_the_app_does_not_speak_reads_in_english(client: FlaskClient) -> None:
    html = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in html
    assert "keeps score and settles disputes" in html


def test_the_switch_is_remembered_over_accept_language_and_goes_back(
    client: FlaskClient,
) -> None:
    switched = client.get("/language/ja", headers={"Referer": "http://localhost/judge/?x=1"})
    assert switched.status_code == 303
    assert switched.headers["Location"] == "/judge/?x=1"
    cookie = switched.headers["Set-Cookie"]
    assert cookie.startswith("language=ja;")
    assert "HttpOnly" in cookie
    html = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="ja">' in html
    assert 'aria-current="true">日本語</a>' in html


def test_every_page_links_to_each_language_without_its_own_address(
    client: FlaskClient,
) -> None:
    html = client.get("/judge/").get_data(as_text=True)
    for code in ("en", "fr", "ja"):
        assert f'href="/language/{code}"' in html


def test_the_switch_never_sends_a_phone_to_another_site(client: FlaskClient) -> None:
    for elsewhere in ("https://evil.example/", "http://localhost.evil/judge/", "judge", ""):
        answer = client.get("/language/fr", headers={"Referer": elsewhere})
        assert answer.headers["Location"] == "/"
    assert client.get("/language/fr").headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    answer = client.get("/language/xx")
    assert answer.status_code == 303
    assert "Set-Cookie" not in answer.headers
