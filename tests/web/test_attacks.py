"""What an attack run found: each defect's regression test, on SQLite and PostgreSQL.

Nothing anyone sends may break a session, leak a key or lose a write.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import flask
import pytest
from conftest import (
    API,
    ApiSession,
    Table,
    api_session,
    assert_error,
    page_error,
    start,
    start_session,
)
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import keys
from scorekeeper.db import database
from scorekeeper.games.engine import Game
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.models import DeckProfile, GameSession
from scorekeeper.web import access, forms, judge, sessions

# The roll (a Yardkle: the turn passes) and one to set dice aside from.
ROLL = {"type": "roll", "dice": [2, 3, 4, 6, 2, 3]}
SCORING_ROLL = {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}
KEEP = {"type": "keep", "dice": [1, 1, 1]}


def count(app: Flask, model: Any) -> int:
    with app.app_context(), database.connection_context():
        return int(model.select().count())


def keyed(session: ApiSession, body: dict[str, Any], path: str = "/events") -> Any:
    return session.post(path, body)


# --- 1. request keys are scoped to their session ------------------------------------


def test_a_request_key_used_on_another_session_records_there_too(client: FlaskClient) -> None:
    first, second = api_session(client), api_session(client)
    body = {"version": 0, "request_key": "roll-1", "action": ROLL}
    assert keyed(first, body).status_code == 201
    response = keyed(second, body)
    assert response.status_code == 201
    assert response.get_json()["version"] == 1
    assert second.read()["version"] == 1
    events = client.get(f"{second.url}/export").get_json()["events"]
    assert [event["action"] for event in events] == [ROLL]


def test_a_retry_of_the_identical_request_gets_the_first_answer_and_records_once(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    body = {"version": 0, "request_key": "roll-1", "action": SCORING_ROLL}
    first = keyed(session, body)
    assert first.status_code == 201
    # Another phone writes in between; the retry still answers what the first answer said.
    session.ok(KEEP)
    retry = keyed(session, body)
    assert retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert retry.get_json()["version"] == 1
    assert session.version == 2


def test_the_same_request_key_with_another_action_is_refused_and_records_nothing(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    first = {"version": 0, "request_key": "k1", "action": SCORING_ROLL}
    assert keyed(session, first).status_code == 201
    other = {"version": 1, "request_key": "k1", "action": KEEP}
    sentence = assert_error(keyed(session, other), 422, "request_key")
    assert "already used" in sentence and "new key" in sentence
    assert session.version == 1
    undo = keyed(session, {"version": 1, "request_key": "k1"}, "/undo")
    assert "already used" in assert_error(undo, 422, "request_key")
    assert session.version == 1


def test_a_retry_sent_with_the_refreshed_version_answers_the_first_answer_and_records_once(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    first = keyed(session, {"version": 0, "request_key": "roll-1", "action": SCORING_ROLL})
    assert first.status_code == 201
    # The client timed out, read the state (which holds its roll) and sends the roll again.
    retry = keyed(session, {"version": 1, "request_key": "roll-1", "action": SCORING_ROLL})
    assert retry.status_code == 201
    assert retry.get_json() == first.get_json()
    assert session.version == 1
    assert session.read()["state"]["turn"]["pending_roll"] == [1, 1, 1, 5, 2, 3]


@pytest.mark.parametrize("path", ["/undo", "/redo"])
def test_an_undo_or_redo_retried_with_the_refreshed_version_is_made_once(
    client: FlaskClient, path: str
) -> None:
    session = api_session(client)
    session.ok(SCORING_ROLL)
    session.ok(KEEP)
    if path == "/redo":
        assert keyed(session, {"version": 2}, "/undo").status_code == 200
    version = session.version
    first = keyed(session, {"version": version, "request_key": "change-1"}, path)
    assert first.status_code == 200
    retry = keyed(session, {"version": version + 1, "request_key": "change-1"}, path)
    assert retry.status_code == 200
    assert retry.get_json() == first.get_json()
    assert session.version == version + 1
    # One undo, or one redo: the keep is undone, or recorded again, once.
    assert session.read()["can_redo"] is (path == "/undo")
    assert session.read()["can_undo"] is True


def test_the_same_request_key_with_another_action_and_the_refreshed_version_is_refused(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    assert keyed(session, {"version": 0, "request_key": "k1", "action": ROLL}).status_code == 201
    other = {"version": 1, "request_key": "k1", "action": SCORING_ROLL}
    sentence = assert_error(keyed(session, other), 422, "request_key")
    assert "already used" in sentence and "send a new key" in sentence
    assert session.version == 1
    assert session.read()["state"]["turn"]["pending_roll"] is None


def test_an_undo_retried_under_its_key_undoes_once(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok(SCORING_ROLL)
    session.ok(KEEP)
    body = {"version": 2, "request_key": "undo-1"}
    first = keyed(session, body, "/undo")
    assert first.status_code == 200
    again = keyed(session, body, "/undo")
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert session.read()["can_redo"] is True
    assert session.version == 3
    assert session.read()["state"]["turn"]["pending_roll"] == [1, 1, 1, 5, 2, 3]


def test_the_request_key_rule_is_written_in_the_api_document(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    described = json.dumps(document)
    assert "scoped to this session" in described
    assert "whatever `version` it carries" in described
    assert "roll-1" not in described


# --- 2. a watcher cannot change a deck profile ---------------------------------------


def start_yadokarick(client: FlaskClient, names: list[str]) -> Table:
    return start(client, "yadokarick", names, deck="new", new_deck_name="Tin")


def sizes_form(**sizes: str) -> dict[str, str]:
    return {"name": "Tin", "form_key": secrets.token_urlsafe(8)} | {
        f"size-{card}": size for card, size in sizes.items()
    }


def test_a_watcher_sees_a_deck_but_cannot_change_what_the_scorer_records(
    client: FlaskClient, app: Flask
) -> None:
    table = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    assert table.act(type="play", card="green 5", size="2").status_code == 303
    watcher = app.test_client()
    watcher.get(table.url)
    profile = watcher.get(f"{API}/sessions/{table.id}").get_json()["deck_profile"]
    assert set(profile) == {"id", "name", "sizes"}
    assert profile["sizes"] == {"green 5": 2}
    page = watcher.get(f"/decks/{profile['id']}").get_data(as_text=True)
    assert "can see them but not change them" in page and "<form" not in page
    response = watcher.post(f"/decks/{profile['id']}", data=sizes_form(**{"green 25": "9"}))
    assert response.status_code == 403
    assert "not change them" in response.get_data(as_text=True)
    with app.app_context(), database.connection_context():
        assert DeckProfile.get_by_id(profile["id"]).sizes == {"green 5": 2}


def test_a_watcher_cannot_play_with_someone_elses_deck_through_the_api(
    client: FlaskClient, app: Flask
) -> None:
    table = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    profile_id = table.state()["deck_profile"]["id"]
    before = count(app, GameSession)
    body = {"game": "yadokarick", "seats": ["A", "B", "C", "D"], "deck_profile": profile_id}
    assert "deck_key" in assert_error(client.post(f"{API}/sessions", json=body), 422, "deck_key")
    wrong = body | {"deck_key": "k" * 32}
    assert_error(client.post(f"{API}/sessions", json=wrong), 422, "deck_key")
    assert count(app, GameSession) == before


def test_the_edit_this_deck_link_hands_on_the_right_to_change_it(
    client: FlaskClient, app: Flask
) -> None:
    table = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    profile_id = table.state()["deck_profile"]["id"]
    page = client.get(f"/decks/{profile_id}")
    assert page.headers["Cache-Control"] == "no-store"
    join = re.search(r"(http://localhost/decks/[^<\s]+/join/[^<\s]+)", page.get_data(as_text=True))
    assert join, "the deck's page shows no edit link to its scorer"
    friend = app.test_client()
    assert friend.get(f"/decks/{profile_id}/join/{'x' * 32}").status_code == 403
    response = friend.get(join.group(1))
    assert response.status_code == 303 and response.headers["Cache-Control"] == "no-store"
    saved = friend.post(f"/decks/{profile_id}", data=sizes_form(**{"pink 7": "3"}))
    assert saved.status_code == 303
    assert client.get(f"{API}/sessions/{table.id}").get_json()["deck_profile"]["sizes"] == {
        "pink 7": 3
    }


def test_a_phone_that_joins_a_session_may_change_its_deck(client: FlaskClient, app: Flask) -> None:
    table = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    profile_id = table.state()["deck_profile"]["id"]
    share = client.get(f"{table.url}/share").get_data(as_text=True)
    join = re.search(r"http://localhost(/s/[^<\s]+/join/[^<\s]+)", share)
    assert join
    scorer = app.test_client()
    scorer.get(join.group(1))
    assert scorer.post(f"/decks/{profile_id}", data=sizes_form(green_1="2")).status_code == 303


# --- 3. opening other sessions never costs a phone its right to record ------------------


def test_opening_many_watch_links_never_costs_a_scorer_its_session(
    client: FlaskClient, app: Flask
) -> None:
    others = [api_session(app.test_client()).id for _ in range(45)]
    table = start_session(client, ["Ann", "Bo"])
    for session_id in others:
        client.get(f"/s/{session_id}")
    assert table.roll(2, 3, 4, 6, 2, 3).status_code == 303
    assert table.state()["version"] == 1
    page = client.get(table.url).get_data(as_text=True)
    assert "You are watching" not in page


def test_the_home_list_is_newest_first(client: FlaskClient, app: Flask) -> None:
    names = ["Xena", "Yuri", "Zoe"]
    for name in names:
        start_session(client, [name, "Bo"])
    watched = api_session(app.test_client(), ["Wes", "Bo"])
    client.get(f"/s/{watched.id}")
    home = client.get("/").get_data(as_text=True)
    positions = [home.index(name) for name in ["Wes", "Zoe", "Yuri", "Xena"]]
    assert positions == sorted(positions)


def test_a_cookie_written_before_keeps_its_sessions_but_not_decks_it_only_watched(
    client: FlaskClient, app: Flask
) -> None:
    table = start_yadokarick(app.test_client(), ["Ann", "Bo", "Cy", "Di"])
    watched_deck = table.state()["deck_profile"]["id"]
    mine = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    my_deck = mine.state()["deck_profile"]["id"]
    with client.session_transaction() as cookie:
        cookie.clear()
        cookie["sessions"] = {mine.id: "edit", table.id: "view"}
        cookie["decks"] = [watched_deck, my_deck]
    assert mine.act(type="play", card="green 5", size="2").status_code == 303
    assert client.post(f"/decks/{my_deck}", data=sizes_form(green_5="2")).status_code == 303
    assert client.post(f"/decks/{watched_deck}", data=sizes_form(green_5="2")).status_code == 403


# --- 4. the API plays with the session's deck profile -----------------------------------


def test_a_later_api_session_with_the_deck_needs_no_sizes_and_refuses_a_different_one(
    client: FlaskClient,
) -> None:
    seats = ["Ann", "Bo", "Cy", "Di"]
    made = client.post(f"{API}/sessions", json={"game": "yadokarick", "seats": seats})
    first = ApiSession(client, made.get_json())
    deck = made.get_json()["deck_profile"]
    first.ok({"type": "play", "card": "green 5", "size": 2})
    first.ok({"type": "play", "card": "pink 7", "size": 3})
    body = {"game": "yadokarick", "seats": seats, "deck_profile": deck["id"]}
    response = client.post(f"{API}/sessions", json=body | {"deck_key": deck["edit_key"]})
    assert response.status_code == 201, response.get_json()
    second = ApiSession(client, response.get_json())
    assert second.read()["deck_profile"]["sizes"] == {"green 5": 2, "pink 7": 3}
    played = second.ok({"type": "play", "card": "green 5"})
    assert played["state"]["sizes"] == {"green 5": 2}
    sentence = assert_error(second.act({"type": "play", "card": "pink 7", "size": 1}), 422, "size")
    assert "pink 7 has size 3 in the deck profile" in sentence
    assert second.version == 1
    assert second.read()["deck_profile"]["sizes"]["pink 7"] == 3


# --- 5. digits that are not 0-9 ----------------------------------------------------------


@pytest.mark.parametrize("digit", ["¹", "①", "٣", "߃"])
def test_unicode_digits_are_refused_by_field_never_a_500(
    client: FlaskClient, table: Table, digit: str
) -> None:
    session = api_session(client)
    assert_error(session.post("/undo", {"version": digit}), 422, "version")
    assert_error(session.act(ROLL, version=digit), 422, "version")  # type: ignore[arg-type]
    assert_error(
        client.post(
            f"{API}/judge/yellow-dwarf/settle",
            json={"winner": digit, "trays": {}, "hands": [[], [], []]},
        ),
        422,
        "winner",
    )
    play = {"plays": [{"card": "green 5", "size": digit}] + [{"card": "green 6", "size": 1}] * 3}
    assert client.post(f"{API}/judge/yadokarick", json=play).status_code == 422
    assert client.get(f"/judge/yadokarick?players=4&play=green+5&size={digit}").status_code < 500
    response = table.post("/action", {"type": "total", "points": "500"}, version=digit)  # type: ignore[arg-type]
    assert response.status_code == 422 and "version" in page_error(response.get_data(as_text=True))
    data = {"seats-0": "Ann", "option_entry_threshold": digit, "form_key": "f" + digit}
    assert client.post("/new/yardkle", data=data).status_code == 422
    bad_card = {"version": 0, "action": {"type": "trump", "card": f"red {digit}"}}
    yokai = client.post(f"{API}/sessions", json={"game": "yokai-septet", "seats": list("ABCD")})
    assert_error(ApiSession(client, yokai.get_json()).post("/events", bad_card), 422, "card")


def test_a_card_number_too_long_to_read_is_refused(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/judge/yokai-septet", json={"trump": "red", "plays": ["red " + "9" * 5000] * 4}
    )
    assert "red runs from" in assert_error(response, 422, "plays.0")


def test_a_deck_size_in_other_digits_is_refused_on_the_deck_page(client: FlaskClient) -> None:
    table = start_yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    profile_id = table.state()["deck_profile"]["id"]
    response = client.post(f"/decks/{profile_id}", data=sizes_form(**{"green 5": "①"}))
    assert response.status_code == 422
    assert "whole number" in response.get_data(as_text=True)


# --- 6. NUL, control characters and lone surrogates ---------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/sessions/a%00b", "/s/a%00b", "/decks/a%00b"])
def test_an_id_of_the_wrong_shape_is_404_before_any_query(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "has this link" in response.get_data(as_text=True)


@pytest.mark.parametrize("name", ["A\x00B", "A\ud800", "Ann\x07", "Tab\tName"])
def test_a_seat_name_that_is_not_plain_text_is_refused_naming_the_seat(
    client: FlaskClient, app: Flask, name: str
) -> None:
    before = count(app, GameSession)
    body = json.dumps({"game": "yardkle", "seats": ["Bo", name]}).encode()
    response = client.post(f"{API}/sessions", data=body, content_type="application/json")
    sentence = assert_error(response, 422, "seats.1")
    assert "control character" in sentence or "surrogate" in sentence
    assert count(app, GameSession) == before


@pytest.mark.parametrize("name", ["Ann\x85", "Bo\x9f", "Cy\x7f"])
def test_a_control_character_json_leaves_unescaped_is_refused_naming_the_seat(
    client: FlaskClient, app: Flask, name: str
) -> None:
    # C1 controls and DEL need no escape in JSON: the body holds no backslash at all.
    body = json.dumps({"game": "yardkle", "seats": ["Åsa", name]}, ensure_ascii=False).encode()
    assert b"\\" not in body
    before = count(app, GameSession)
    response = client.post(f"{API}/sessions", data=body, content_type="application/json")
    assert "control character" in assert_error(response, 422, "seats.1")
    assert count(app, GameSession) == before


def test_plain_unicode_json_without_escapes_is_accepted(client: FlaskClient) -> None:
    body = json.dumps({"game": "yardkle", "seats": ["Åsa", "Zoë 🎲"]}, ensure_ascii=False)
    response = client.post(f"{API}/sessions", data=body.encode(), content_type="application/json")
    assert response.status_code == 201
    assert response.get_json()["seats"] == ["Åsa", "Zoë 🎲"]


def test_text_with_nul_is_refused_in_every_form_and_key(client: FlaskClient, app: Flask) -> None:
    before = count(app, GameSession)
    page = client.post("/new/yardkle", data={"seats-0": "A\x00B", "form_key": "k1"})
    assert page.status_code == 422 and "seats-0" in page.get_data(as_text=True)
    deck = client.post("/decks", data={"name": "Tin\x00", "form_key": "k2"})
    assert deck.status_code == 422
    table = start_session(client, ["Ann", "Bo"])
    tap = client.post(
        f"{table.url}/action", data={"version": "0", "form_key": "a\x00", "type": "bank"}
    )
    assert tap.status_code == 422
    session = api_session(client)
    keyed_body = {"version": 0, "request_key": "r\x00", "action": ROLL}
    assert_error(session.post("/events", keyed_body), 422, "request_key")
    assert count(app, GameSession) == before + 2


@pytest.mark.parametrize("key", ["a\x00b", "é" * 32, "\ud800"])
def test_an_odd_bearer_key_or_join_key_is_refused_never_a_500(
    client: FlaskClient, key: str
) -> None:
    session = api_session(client)
    header = {"Authorization": f"Bearer {key}".encode("utf-8", "surrogatepass").decode("latin-1")}
    response = client.post(f"{session.url}/undo", json={"version": 0}, headers=header)
    assert response.status_code == 403
    if "\ud800" not in key:
        assert client.get(f"/s/{session.id}/join/{key}").status_code in (403, 404)


def test_an_import_carrying_a_lone_surrogate_is_refused_on_the_page_and_the_api(
    client: FlaskClient, app: Flask
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    exported["seats"][1]["name"] = "A\ud800"
    raw = json.dumps(exported)
    before = count(app, GameSession)
    api = client.post(f"{API}/sessions/import", data=raw, content_type="application/json")
    assert "surrogate" in assert_error(api, 422, "seats.1.name")
    page = client.post("/import", data={"text": raw, "form_key": "imp"})
    assert page.status_code == 422 and "surrogate" in page.get_data(as_text=True)
    assert count(app, GameSession) == before


# --- 11. a 405 says what is allowed ---------------------------------------------------------


def test_a_405_answer_carries_the_allow_header(client: FlaskClient) -> None:
    response = client.delete("/new/yardkle")
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    assert "/new/yardkle answers GET and POST, not DELETE." in response.get_data(as_text=True)
    api = client.get(f"{API}/judge/cryptruck")
    assert api.status_code == 405 and "POST" in api.headers["Allow"]
    assert api.get_json()["error"] == "/api/v1/judge/cryptruck answers POST, not GET."


# --- 13. inputs beyond a game's largest table ------------------------------------------------


def test_a_new_session_form_with_thousands_of_seats_is_refused_before_the_form_reads_them(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Building the form is where WTForms reads every seat input it is sent (thousands
    # cost the worker seconds): the refusal must come before it.
    built: list[str] = []

    def recorded_form(game: Game, deck_choices: list[tuple[str, str]] | None = None) -> Any:
        built.append(game.slug)
        return forms.new_session_form(game, deck_choices)

    monkeypatch.setattr(sessions, "new_session_form", recorded_form)
    data = {f"seats-{index}": f"P{index}" for index in range(20_000)}
    data |= {"form_key": "many", "option_entry_threshold": "500", "option_winning_score": "10000"}
    response = client.post("/new/yardkle", data=data)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "seats at most 8 players" in body and len(body) < 20_000
    assert built == []
    assert count(app, GameSession) == 0
    # The spy sees the form when it is built: the empty form of a GET.
    assert client.get("/new/yardkle").status_code == 200
    assert built == ["yardkle"]


# --- 14. an import is held to the rules of a new session -------------------------------------


def test_importing_a_yardkle_file_with_a_deck_profile_is_refused(
    client: FlaskClient, app: Flask
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    exported["deck_profile"] = {"name": "Box", "sizes": {"green 5": 2}}
    before = (count(app, GameSession), count(app, DeckProfile))
    response = client.post(f"{API}/sessions/import", json=exported)
    assert "not played with a deck profile" in assert_error(response, 422, "deck_profile")
    assert (count(app, GameSession), count(app, DeckProfile)) == before


# --- 15. the document and the app agree ---------------------------------------------------------


@pytest.mark.parametrize("path", ["", "/events", "/undo", "/redo"])
def test_an_unknown_property_of_a_request_body_is_refused(client: FlaskClient, path: str) -> None:
    session = api_session(client)
    if path:
        body: dict[str, Any] = {"version": 0, "surprise": 1}
        if path == "/events":
            body["action"] = ROLL
        assert_error(session.post(path, body), 422, "surprise")
    else:
        body = {"game": "yardkle", "seats": ["Ann"], "surprise": 1}
        assert_error(client.post(f"{API}/sessions", json=body), 422, "surprise")
    assert session.version == 0


def test_a_seat_name_counts_its_characters_as_sent(client: FlaskClient) -> None:
    body = {"game": "yardkle", "seats": ["A" * 40 + " ", "Bo"]}
    assert "41 characters" in assert_error(
        client.post(f"{API}/sessions", json=body), 422, "seats.0"
    )
    document = client.get(f"{API}/openapi.json").get_json()
    seat = document["components"]["schemas"]["NewSession"]["properties"]["seats"]["items"]
    assert seat["maxLength"] == 40


def test_a_full_cookie_stays_under_the_4_kb_browsers_keep(app: Flask) -> None:
    with app.test_request_context("/"):
        flask.session[access.DEVICE_COOKIE] = keys.new_key()
        flask.session["csrf_token"] = secrets.token_hex(20)
        flask.session[judge.sizes_cookie_key("yadokarick")] = {
            str(card): "3" for card in YADOKARICK.cards()
        }
        cookie = app.session_interface.get_signing_serializer(app).dumps(dict(flask.session))
    assert len(cookie) < 4000


@pytest.mark.parametrize("kind", [["draw"], {"a": 1}, 5, None])
def test_an_action_type_that_is_no_text_is_refused_in_a_deck_game(
    client: FlaskClient, kind: object
) -> None:
    made = client.post(f"{API}/sessions", json={"game": "yadokarick", "seats": ["Ann"]})
    session = ApiSession(client, made.get_json())
    assert_error(session.act({"type": kind, "card": "green 5", "size": 2}), 422, "type")
    assert session.version == 0
