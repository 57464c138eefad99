"""The JSON API v1: sessions, events, undo/redo, errors, the Yardkle scorer, OpenAPI."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from typing import Any

import pytest
from conftest import API, api_session, assert_error
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from scorekeeper import session_views
from scorekeeper.games import GAMES
from scorekeeper.games.base import Accepts, Expected
from scorekeeper.web.adapters import adapters
from scorekeeper.web.openapi_parts import game_actions, ref, schema_name

ROLL = {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}


# --- Sessions --------------------------------------------------------------------


def test_create_session_answers_201_with_id_edit_key_version_zero_seats_and_links(
    client: FlaskClient,
) -> None:
    response = client.post(
        f"{API}/sessions", json={"game": "yardkle", "seats": ["Ann", "Bo", "Cy"]}
    )
    assert response.status_code == 201
    body = response.get_json()
    session_id, key = body["id"], body["edit_key"]
    # ≥ 128 random bits, URL-safe base64: at least 22 characters.
    assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", session_id)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", key)
    assert key != session_id
    assert body["game"] == "yardkle"
    assert body["version"] == 0
    assert body["seats"] == ["Ann", "Bo", "Cy"]
    assert body["options"] == {"entry_threshold": 500, "winning_score": 10000}
    assert body["ruling"] == "Ann rolls first."
    assert body["finished"] is False
    assert body["winners"] == []
    assert body["can_undo"] is False
    assert body["can_redo"] is False
    assert [s["name"] for s in body["standings"]] == ["Ann", "Bo", "Cy"]
    assert {s["rank"] for s in body["standings"]} == {1}
    assert body["links"]["view"] == f"http://localhost/s/{session_id}"
    assert body["links"]["join"] == f"http://localhost/s/{session_id}/join/{key}"
    assert body["links"]["export"] == f"http://localhost{API}/sessions/{session_id}/export"


def test_two_sessions_get_different_ids_and_keys(client: FlaskClient) -> None:
    first, second = api_session(client), api_session(client)
    assert first.id != second.id
    assert first.key != second.key


def test_create_session_with_options(client: FlaskClient) -> None:
    session = api_session(client, ["Ann"], entry_threshold=0, winning_score=2000)
    assert session.created["options"] == {"entry_threshold": 0, "winning_score": 2000}
    assert session.created["state"]["entered"] == [True]


def test_reading_a_session_needs_no_key_and_never_shows_the_edit_key(
    app: Flask, client: FlaskClient
) -> None:
    session = api_session(client)
    stranger = app.test_client()
    response = stranger.get(session.url)
    assert response.status_code == 200
    body = response.get_json()
    assert body["id"] == session.id
    assert body["version"] == 0
    assert body["seats"] == ["Ann", "Bo"]
    assert "edit_key" not in body
    assert "join" not in body["links"]
    assert session.key not in response.get_data(as_text=True)


def test_append_an_event_with_the_bearer_key_and_the_current_version(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    response = session.post("/events", {"version": 0, "action": ROLL})
    assert response.status_code == 201
    body = response.get_json()
    assert body["version"] == 1
    assert body["state"]["turn"]["pending_roll"] == [1, 1, 1, 5, 2, 3]
    assert body["ruling"] == (
        "Ann rolled 1 1 1 5 2 3: three 1s (1000) and single 5 (50) can score up to 1050."
    )
    assert body["can_undo"] is True
    assert session.read()["version"] == 1


def test_a_short_game_step_by_step_roll_keep_bank_and_total(client: FlaskClient) -> None:
    session = api_session(client, ["Ann", "Bo"])
    rolled = session.ok(ROLL)
    assert rolled["version"] == 1

    kept = session.ok({"type": "keep", "dice": [1, 1, 1, 5]})
    assert kept["version"] == 2
    assert kept["state"]["turn"]["total"] == 1050
    assert kept["state"]["turn"]["dice_left"] == 2
    assert (
        kept["ruling"]
        == "Ann set aside three 1s and single 5 for 1050: turn total 1050, 2 dice to roll."
    )

    banked = session.ok({"type": "bank"})
    assert banked["version"] == 3
    assert banked["state"]["scores"] == [1050, 0]
    assert banked["state"]["current"] == 1
    assert banked["ruling"] == "Ann banks 1050 and is on the scorecard: total 1050. Bo rolls next."
    assert banked["standings"] == [
        {"seat": 0, "name": "Ann", "score": 1050, "rank": 1},
        {"seat": 1, "name": "Bo", "score": 0, "rank": 2},
    ]

    total = session.ok({"type": "total", "points": 600})
    assert total["version"] == 4
    assert total["state"]["scores"] == [1050, 600]
    assert total["ruling"] == "Bo entered a turn of 600: total 600. Ann rolls next."
    assert total["finished"] is False
    assert total["winners"] == []

    # A keep that banks at once, then a Yardkle.
    session.ok({"type": "roll", "dice": [5, 5, 5, 5, 2, 3]})
    both = session.ok({"type": "keep", "dice": [5, 5, 5, 5], "bank": True})
    assert both["state"]["scores"] == [1600, 600]
    lost = session.ok({"type": "roll", "dice": [2, 3, 4, 6, 6, 2]})
    assert lost["state"]["scores"] == [1600, 600]
    assert lost["ruling"].startswith("Yardkle! Bo rolled 2 3 4 6 6 2")
    assert lost["version"] == 7
    assert [t["points"] for t in session.records()["turns"]] == [1050, 600, 550, 0]


def test_a_game_played_to_the_end_names_the_winner(client: FlaskClient) -> None:
    session = api_session(client, ["Ann", "Bo"], winning_score=500)
    session.ok({"type": "total", "points": 800})
    end = session.ok({"type": "total", "points": 500})
    assert end["finished"] is True
    assert end["winners"] == [0]
    assert end["ruling"].endswith("Game over: Ann wins with 800.")
    assert end["standings"][0] == {"seat": 0, "name": "Ann", "score": 800, "rank": 1}
    refused = session.act({"type": "total", "points": 50})
    assert assert_error(refused, 422, "action") == "The game is over."
    assert session.version == 2


def test_undo_and_redo_move_the_version_and_the_state(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    session.ok({"type": "total", "points": 700})
    assert session.read()["state"]["scores"] == [500, 700]

    undone = session.post("/undo", {"version": 2})
    assert undone.status_code == 200
    body = undone.get_json()
    assert body["version"] == 3
    assert body["state"]["scores"] == [500, 0]
    assert body["state"]["current"] == 1
    assert body["can_undo"] is True
    assert body["can_redo"] is True

    redone = session.post("/redo", {"version": 3})
    assert redone.status_code == 200
    body = redone.get_json()
    assert body["version"] == 4
    assert body["state"]["scores"] == [500, 700]
    assert body["can_redo"] is False

    session.post("/undo", {"version": 4})
    session.post("/undo", {"version": 5})
    body = session.read()
    assert body["version"] == 6
    assert body["state"]["scores"] == [0, 0]
    assert body["can_undo"] is False
    assert body["can_redo"] is True


def test_a_new_action_after_an_undo_ends_the_redo_trail(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    session.post("/undo", {"version": 1})
    after = session.ok({"type": "total", "points": 600})
    assert after["can_redo"] is False
    assert after["state"]["scores"] == [600, 0]
    assert_error(session.post("/redo", {"version": after["version"]}), 422, "action")


def test_the_join_link_from_the_api_lets_a_browser_record(app: Flask, client: FlaskClient) -> None:
    session = api_session(client)
    phone = app.test_client()
    joined = phone.get(session.created["links"]["join"].removeprefix("http://localhost"))
    assert joined.status_code == 303
    response = phone.post(
        f"/s/{session.id}/action",
        data={"type": "total", "points": "500", "version": "0", "form_key": "phone-1"},
    )
    assert response.status_code == 303
    assert session.read()["state"]["scores"] == [500, 0]


# --- Errors ----------------------------------------------------------------------


def test_a_write_without_a_bearer_key_is_401_and_records_nothing(client: FlaskClient) -> None:
    session = api_session(client)
    for path, body in (
        ("/events", {"version": 0, "action": ROLL}),
        ("/undo", {"version": 0}),
        ("/redo", {"version": 0}),
    ):
        assert "Bearer" in assert_error(session.post(path, body, key=None), 401, None)
        assert_error(session.post(path, body, key=f"Basic {session.key}"), 401, None)
        assert_error(session.post(path, body, key="Bearer "), 401, None)
    assert session.version == 0


def test_a_wrong_key_is_403_and_records_nothing(client: FlaskClient) -> None:
    session = api_session(client)
    other = api_session(client)
    for key in ("Bearer not-the-key", f"Bearer {other.key}", f"Bearer {session.key}x"):
        response = session.post("/events", {"version": 0, "action": ROLL}, key=key)
        assert "edit key" in assert_error(response, 403, None)
    assert session.version == 0
    assert session.read()["state"]["turn"]["pending_roll"] is None
    assert session.ok(ROLL)["version"] == 1


def test_a_stale_version_is_409_with_the_current_state(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    response = session.act({"type": "total", "points": 600}, version=0)
    sentence = assert_error(response, 409, "version")
    assert "changed" in sentence
    # The current state, at the same place as in a 2xx answer.
    state = response.get_json()
    assert set(state) == set(session.read()) | {"error", "field"}
    assert state["version"] == 1
    assert state["id"] == session.id
    assert state["state"]["scores"] == [500, 0]
    assert session.version == 1
    assert session.read()["state"]["scores"] == [500, 0]
    # A version from the future is stale too.
    assert_error(session.act({"type": "total", "points": 600}, version=5), 409, "version")
    assert_error(session.post("/undo", {"version": 0}), 409, "version")
    assert session.version == 1


@pytest.mark.parametrize(
    ("setup", "action", "field", "phrase"),
    [
        ([ROLL], {"type": "keep", "dice": [2]}, "keep", "a 2 on its own scores nothing"),
        ([ROLL], {"type": "keep", "dice": [1, 1, 1, 1]}, "keep", "only three 1s"),
        ([ROLL], {"type": "roll", "dice": [1, 2, 3, 4, 5, 6]}, "dice", "Set aside dice"),
        (
            [{"type": "roll", "dice": [5, 2, 3, 4, 6, 6]}, {"type": "keep", "dice": [5]}],
            {"type": "bank"},
            "action",
            "needs 500 in one turn",
        ),
        ([], {"type": "bank"}, "action", "Nothing to bank yet"),
        ([], {"type": "total", "points": 120}, "points", "multiple of 50"),
        ([], {"type": "total", "points": 250}, "points", "at least 500"),
        ([], {"type": "total", "points": -50}, "points", "negative"),
        ([], {"type": "roll", "dice": [1, 2, 3]}, "dice", "enter 6 dice, not 3"),
        ([], {"type": "roll", "dice": [1, 2, 3, 4, 5, 7]}, "dice", "Die 6 is 7"),
        ([], {"type": "keep", "dice": [1]}, "keep", "roll first"),
        ([], {"type": "fly"}, "type", "roll, keep, bank or total"),
        ([], {"type": "roll"}, "dice", "Enter the dice"),
        ([], {"type": "bank", "dice": [1]}, "dice", "no field"),
    ],
)
def test_an_illegal_action_is_422_with_its_field_and_records_nothing(
    client: FlaskClient,
    setup: list[dict[str, Any]],
    action: dict[str, Any],
    field: str | None,
    phrase: str,
) -> None:
    session = api_session(client)
    for step in setup:
        session.ok(step)
    before = session.read()
    sentence = assert_error(session.act(action), 422, field)
    assert phrase in sentence
    after = session.read()
    assert after["version"] == before["version"] == len(setup)
    assert after["state"] == before["state"]


def test_an_action_that_is_not_an_object_is_422_field_action(client: FlaskClient) -> None:
    session = api_session(client)
    assert_error(session.post("/events", {"version": 0}), 422, "action")
    assert_error(session.post("/events", {"version": 0, "action": "roll"}), 422, "action")
    assert session.version == 0


@pytest.mark.parametrize("body", [{"action": ROLL}, {"version": "x", "action": ROLL}])
def test_a_missing_or_malformed_version_is_422_field_version(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    session = api_session(client)
    assert "version" in assert_error(session.post("/events", body), 422, "version")
    assert_error(
        session.post("/undo", {k: v for k, v in body.items() if k != "action"}), 422, "version"
    )
    assert session.version == 0


@pytest.mark.parametrize("version", [0.0, True, None, [0]])
def test_a_version_that_is_not_a_whole_number_is_422(client: FlaskClient, version: Any) -> None:
    session = api_session(client)
    assert_error(session.post("/events", {"version": version, "action": ROLL}), 422, "version")
    assert session.version == 0


def test_a_body_that_is_not_json_is_400(client: FlaskClient) -> None:
    session = api_session(client)
    auth = {"Authorization": f"Bearer {session.key}"}
    for data, content_type in (
        ("version=0", "application/x-www-form-urlencoded"),
        ("{not json", "application/json"),
        ("[0, 1]", "application/json"),
        ("", "application/json"),
    ):
        response = client.post(
            session.url + "/events", data=data, content_type=content_type, headers=auth
        )
        assert "JSON" in assert_error(response, 400, None)
        response = client.post(f"{API}/sessions", data=data, content_type=content_type)
        assert_error(response, 400, None)
    assert session.version == 0


def test_an_unknown_session_is_a_404_json_error_not_html(client: FlaskClient) -> None:
    missing = f"{API}/sessions/AAAAAAAAAAAAAAAAAAAAAA"
    for response in (
        client.get(missing),
        client.get(missing + "/export"),
        client.get(missing + "/export.csv"),
        client.post(missing + "/events", json={"version": 0, "action": ROLL}),
        client.post(missing + "/undo", json={"version": 0}, headers={"Authorization": "Bearer x"}),
    ):
        assert "No session" in assert_error(response, 404, None)
        assert "<html" not in response.get_data(as_text=True)


def test_an_unknown_api_url_is_a_404_json_error(client: FlaskClient) -> None:
    assert_error(client.get(f"{API}/nothing-here"), 404, None)
    assert_error(client.get(f"{API}/yardkle/score"), 405, None)


def test_an_unknown_url_or_method_is_404_or_405_whatever_its_query_text(
    client: FlaskClient,
) -> None:
    # Nothing of a request no endpoint takes is read, so its text is not checked either.
    assert_error(client.get(f"{API}/nothing-here?q=%01"), 404, None)
    assert_error(client.get(f"{API}/sessions?q=%01"), 405, None)
    assert_error(client.get(f"{API}/yardkle/score?q=%01"), 405, None)


def test_an_unknown_game_is_422_field_game(client: FlaskClient) -> None:
    for game in ("chess", None, 7):
        response = client.post(f"{API}/sessions", json={"game": game, "seats": ["Ann"]})
        assert "yardkle" in assert_error(response, 422, "game")


def test_nine_seats_are_422_and_create_nothing(client: FlaskClient) -> None:
    names = [f"P{i}" for i in range(1, 10)]
    response = client.post(f"{API}/sessions", json={"game": "yardkle", "seats": names})
    assert "1 to 8" in assert_error(response, 422, "seats")
    response = client.post(f"{API}/sessions", json={"game": "yardkle", "seats": []})
    assert_error(response, 422, "seats")


@pytest.mark.parametrize(
    ("body", "field", "phrase"),
    [
        ({"game": "yardkle", "seats": "Ann, Bo"}, "seats", "list of names"),
        ({"game": "yardkle", "seats": ["Ann", "ann"]}, "seats.1", "Two seats are called"),
        ({"game": "yardkle", "seats": ["Ann", "  "]}, "seats.1", "Seat 2 needs a name"),
        ({"game": "yardkle", "seats": ["Ann", 5]}, "seats.1", "Seat 2 needs a name"),
        ({"game": "yardkle", "seats": ["A" * 41]}, "seats.0", "at most 40"),
        (
            {"game": "yardkle", "seats": ["Ann"], "options": {"entry_threshold": 120}},
            "options.entry_threshold",
            "multiple of 50",
        ),
        (
            {"game": "yardkle", "seats": ["Ann"], "options": {"speed": 1}},
            "options.speed",
            "no option",
        ),
        ({"game": "yardkle", "seats": ["Ann"], "options": [1]}, "options", "object"),
    ],
)
def test_bad_seats_or_options_are_422_with_the_field(
    client: FlaskClient, body: dict[str, Any], field: str, phrase: str
) -> None:
    assert phrase in assert_error(client.post(f"{API}/sessions", json=body), 422, field)


def test_nothing_to_undo_or_redo_is_422(client: FlaskClient) -> None:
    session = api_session(client)
    assert "Nothing to undo" in assert_error(session.post("/undo", {"version": 0}), 422, "action")
    assert "Nothing to redo" in assert_error(session.post("/redo", {"version": 0}), 422, "action")
    assert session.version == 0


def test_a_repeated_request_key_records_once(client: FlaskClient) -> None:
    session = api_session(client)
    body = {"version": 0, "action": {"type": "total", "points": 500}, "request_key": "tap-1"}
    first = session.post("/events", body)
    second = session.post("/events", body)
    assert first.status_code == second.status_code == 201
    assert first.get_json()["version"] == second.get_json()["version"] == 1
    state = session.read()
    assert state["version"] == 1
    assert state["state"]["scores"] == [500, 0]
    assert len(session.records()["turns"]) == 1
    # The same for an undo.
    undo = {"version": 1, "request_key": "undo-1"}
    assert session.post("/undo", undo).get_json()["version"] == 2
    assert session.post("/undo", undo).get_json()["version"] == 2
    assert session.read()["can_redo"] is True


MINIMAL = {"Prefer": "return=minimal"}


def test_a_write_preferring_return_minimal_answers_without_the_state_and_says_so(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    response = session.post("/events", {"version": 0, "action": ROLL}, headers=MINIMAL)
    assert response.status_code == 201
    assert response.headers["Preference-Applied"] == "return=minimal"
    assert response.headers.getlist("Vary") == ["Prefer, Accept-Encoding"]
    body = response.get_json()
    assert "state" not in body
    assert set(body) == set(session.read()) - {"state"}
    assert body["version"] == 1
    assert body["ruling"] == (
        "Ann rolled 1 1 1 5 2 3: three 1s (1000) and single 5 (50) can score up to 1050."
    )
    assert body["expected"] == {"seat": 0, "actions": [{"type": "keep", "choices": [False, True]}]}
    assert body["can_undo"] is True
    # Recorded as any other write: the state is there to read.
    assert session.read()["state"]["turn"]["pending_roll"] == [1, 1, 1, 5, 2, 3]
    undone = session.post("/undo", {"version": 1}, headers=MINIMAL)
    assert undone.status_code == 200
    assert "state" not in undone.get_json()
    assert undone.get_json()["can_redo"] is True
    redone = session.post("/redo", {"version": 2}, headers={"Prefer": "RETURN=minimal"})
    assert redone.status_code == 200
    assert "state" not in redone.get_json()
    assert redone.get_json()["version"] == 3


def test_a_minimal_answer_and_the_whole_answer_keep_their_size_as_turns_pile_up(
    client: FlaskClient,
) -> None:
    session = api_session(client, ["Ann", "Bob"])
    whole, minimal = [], []
    for version in range(10, 90, 2):
        while session.version < version:
            session.ok({"type": "total", "points": 0})
        body = {"version": version, "action": {"type": "total", "points": 0}}
        minimal.append(len(session.post("/events", body, headers=MINIMAL).get_data()))
        whole.append(len(session.post("/events", body | {"version": version + 1}).get_data()))
    assert max(minimal) - min(minimal) <= 2  # the version's digits, the time it ended
    # The state holds the round's turns, not the game's: the round numbers' digits and the
    # time it ended (each whole answer is taken at the end of a round of two turns).
    assert max(whole) - min(whole) <= 4
    assert len(session.records()["turns"]) == 90


@pytest.mark.parametrize("prefer", ["return=representation", "respond-async", "wait=5", ""])
def test_any_other_preference_gets_the_whole_answer(client: FlaskClient, prefer: str) -> None:
    session = api_session(client)
    response = session.post("/events", {"version": 0, "action": ROLL}, headers={"Prefer": prefer})
    assert response.status_code == 201
    assert "Preference-Applied" not in response.headers
    assert response.get_json()["state"]["turn"]["pending_roll"] == [1, 1, 1, 5, 2, 3]


def test_a_stale_write_preferring_return_minimal_is_409_without_the_state(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    body = {"version": 0, "action": {"type": "total", "points": 600}}
    response = session.post("/events", body, headers=MINIMAL)
    assert_error(response, 409, "version")
    assert response.headers["Preference-Applied"] == "return=minimal"
    answer = response.get_json()
    assert "state" not in answer
    assert answer["version"] == 1
    assert answer["standings"][0] == {"seat": 0, "name": "Ann", "score": 500, "rank": 1}
    assert session.read()["state"]["scores"] == [500, 0]


def test_a_retried_request_key_answers_the_first_answer_in_the_form_the_retry_prefers(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    body = {"version": 0, "action": {"type": "total", "points": 500}, "request_key": "tap-1"}
    first = session.post("/events", body, headers=MINIMAL)
    again = session.post("/events", body, headers=MINIMAL)
    whole = session.post("/events", body)
    assert first.status_code == again.status_code == whole.status_code == 201
    assert "state" not in first.get_json()
    assert again.get_json() == first.get_json()
    assert again.headers["Preference-Applied"] == "return=minimal"
    assert whole.get_json() == first.get_json() | {"state": session.read()["state"]}
    assert session.records()["turns"] == [
        {"seat": 0, "round": 1, "points": 500, "result": "quick", "lost": 0}
    ]


def test_a_request_key_that_is_not_a_string_is_422(client: FlaskClient) -> None:
    session = api_session(client)
    body = {"version": 0, "action": ROLL, "request_key": 5}
    assert_error(session.post("/events", body), 422, "request_key")
    assert session.version == 0


# --- The stateless Yardkle scorer ------------------------------------------------


def score(client: FlaskClient, body: Any) -> Any:
    return client.post(f"{API}/yardkle/score", json=body)


def test_score_a_roll_exactly_per_the_contract(client: FlaskClient) -> None:
    response = score(client, {"dice": [1, 1, 1, 5, 2, 3]})
    assert response.status_code == 200
    assert response.get_json() == {
        "points": 1050,
        "combos": [
            {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
            {"name": "single 5", "dice": [5], "points": 50},
        ],
        "yardkle": False,
    }


def test_score_a_yardkle_roll(client: FlaskClient) -> None:
    response = score(client, {"dice": [2, 3, 4, 6, 6, 2]})
    assert response.status_code == 200
    assert response.get_json() == {"points": 0, "combos": [], "yardkle": True}


def test_score_the_kept_dice_only(client: FlaskClient) -> None:
    response = score(client, {"dice": [1, 1, 1, 5, 2, 3], "keep": [1, 1, 1]})
    assert response.status_code == 200
    assert response.get_json() == {
        "points": 1000,
        "combos": [{"name": "three 1s", "dice": [1, 1, 1], "points": 1000}],
        "yardkle": False,
    }
    five = score(client, {"dice": [1, 1, 1, 5, 2, 3], "keep": [5]}).get_json()
    assert five["points"] == 50


def test_score_a_six_dice_combo(client: FlaskClient) -> None:
    body = score(client, {"dice": [1, 2, 3, 4, 5, 6]}).get_json()
    assert body["points"] == 1500
    assert body["combos"] == [{"name": "1-2-3-4-5-6", "dice": [1, 2, 3, 4, 5, 6], "points": 1500}]


def test_keeping_a_die_not_in_the_roll_is_422_field_keep(client: FlaskClient) -> None:
    response = score(client, {"dice": [1, 1, 1, 5, 2, 3], "keep": [6]})
    assert "no 6 in the roll" in assert_error(response, 422, "keep")
    response = score(client, {"dice": [1, 1, 1, 5, 2, 3], "keep": [5, 5]})
    assert "only one 5" in assert_error(response, 422, "keep")


def test_keeping_a_non_scoring_die_is_422_field_keep(client: FlaskClient) -> None:
    response = score(client, {"dice": [1, 1, 1, 5, 2, 3], "keep": [1, 2]})
    assert "2 on its own scores nothing" in assert_error(response, 422, "keep")
    assert_error(score(client, {"dice": [1, 2], "keep": []}), 422, "keep")
    assert_error(score(client, {"dice": [1, 2], "keep": "1"}), 422, "keep")
    assert_error(score(client, {"dice": [1, 2], "keep": [0]}), 422, "keep")


@pytest.mark.parametrize(
    "body",
    [
        {"dice": [1, 1, 1, 5, 2, 3, 4]},
        {"dice": [0, 1, 1]},
        {"dice": [1, 7]},
        {"dice": ["one", 1]},
        {"dice": [1.5]},
        {"dice": [True, 1]},
        {"dice": [None]},
        {"dice": [[1]]},
        {"dice": []},
        {"dice": "111523"},
        {"dice": 1},
        {"keep": [1]},
        {},
        {"dice": [10**40]},
    ],
)
def test_bad_dice_are_422_field_dice(client: FlaskClient, body: dict[str, Any]) -> None:
    assert_error(score(client, body), 422, "dice")


def test_an_unknown_field_is_422_naming_it(client: FlaskClient) -> None:
    assert_error(score(client, {"dice": [1], "kept": [1]}), 422, "kept")


@pytest.mark.parametrize(
    "data",
    ["", "not json", "[1, 1, 1]", '"dice"', "null", '{"dice": [1, 1', "\xff"],
)
def test_the_scorer_answers_400_json_to_a_body_that_is_not_an_object(
    client: FlaskClient, data: str
) -> None:
    response = client.post(f"{API}/yardkle/score", data=data, content_type="application/json")
    assert_error(response, 400, None)


def test_the_scorer_never_answers_500_even_to_deeply_nested_json(client: FlaskClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    response = client.post(
        f"{API}/yardkle/score", data=f'{{"dice": {deep}}}', content_type="application/json"
    )
    assert response.status_code in (400, 422), response.status_code
    assert response.get_json()["error"]


# --- OpenAPI ---------------------------------------------------------------------


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def test_the_openapi_document_is_valid(document: dict[str, Any]) -> None:
    validate(document)
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"]


def required_fields(declaration: type) -> list[str]:
    """An action's required keys: its type, then every field without a default."""
    return ["type"] + [
        each.name
        for each in fields(declaration)
        if each.default is MISSING and each.default_factory is MISSING
    ]


def test_the_documented_actions_are_the_games_declarations(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for slug, game in GAMES.items():
        name = "".join(word.title() for word in slug.split("-"))
        documented = schemas[f"{name}Action"]["oneOf"]
        assert [branch["title"] for branch in documented] == list(game.actions.types), slug
        for branch, declaration in zip(documented, game.actions.declarations, strict=True):
            # The document's keys come sorted: the properties are compared as a set.
            assert set(branch["properties"]) == {each.name for each in fields(declaration)}
            assert branch["properties"]["type"] == {"const": branch["title"]}
            assert branch["required"] == required_fields(declaration)
            assert branch["additionalProperties"] is False
    # Declarations nested in an action (an entry of a list) are components of their own.
    kept = schemas["YellowDwarfKept"]
    assert set(kept["properties"]) == {"player", "card"}
    assert kept["required"] == ["player", "card"]
    assert schemas["YellowDwarfAction"]["oneOf"][2]["properties"]["kept"]["items"] == {
        "$ref": "#/components/schemas/YellowDwarfKept"
    }


def test_the_documented_actions_keep_their_descriptions_and_game_bounds(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    yokai = {branch["title"]: branch for branch in schemas["YokaiSeptetAction"]["oneOf"]}
    crypt = {branch["title"]: branch for branch in schemas["CryptruckAction"]["oneOf"]}
    assert yokai["trump"]["description"] == "The face-up card that starts a round."
    assert yokai["trump"]["properties"]["card"]["examples"] == ["blue 13"]
    assert yokai["first-lead"]["properties"]["seat"] | {"title": None} == {
        "type": "integer",
        "minimum": 0,
        "maximum": 3,
        "title": None,
    }
    assert yokai["revoke"]["properties"]["penalty"]["maximum"] == 7
    assert crypt["revoke"]["properties"]["penalty"]["maximum"] == 10
    roll = schemas["YardkleAction"]["oneOf"][0]["properties"]["dice"]
    assert (roll["minItems"], roll["maxItems"], roll["items"]) == (
        1,
        6,
        {"type": "integer", "minimum": 1, "maximum": 6},
    )


def api_routes(app: Flask, prefix: str) -> dict[str, set[str]]:
    """Every /api/v1 rule of the app as an OpenAPI path → its methods (lower case)."""
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule).removeprefix(prefix)
        methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
        routes.setdefault(path, set()).update(methods)
    return routes


def documented_routes(document: dict[str, Any]) -> dict[str, set[str]]:
    http = {"get", "put", "post", "delete", "patch"}
    return {path: set(item) & http for path, item in document["paths"].items()}


def server_prefix(document: dict[str, Any]) -> str:
    servers = document.get("servers") or [{"url": ""}]
    return str(servers[0]["url"]).rstrip("/")


def test_every_api_endpoint_of_the_app_is_documented(app: Flask, document: dict[str, Any]) -> None:
    prefix = server_prefix(document)
    assert prefix in ("", API)
    routes = api_routes(app, prefix)
    documented = documented_routes(document)
    assert len(routes) >= 9
    for path, methods in routes.items():
        assert path in documented, f"{path} is not in the OpenAPI document"
        assert documented[path] == methods, path


def test_every_documented_endpoint_exists_in_the_app(
    app: Flask, client: FlaskClient, document: dict[str, Any]
) -> None:
    prefix = server_prefix(document)
    routes = api_routes(app, prefix)
    for path, methods in documented_routes(document).items():
        assert methods, f"{path} documents no operation"
        assert routes.get(path) == methods, path
        # And the app answers there (a made-up id gives a JSON 404, not a missing route).
        url = prefix + path.replace("{session_id}", "AAAAAAAAAAAAAAAAAAAAAA")
        for method in methods:
            response = client.open(url, method=method.upper(), json={})
            assert response.status_code not in (405, 500), (method, url)
            assert response.mimetype == "application/json", (method, url)


def test_every_documented_operation_lists_its_errors_and_shared_error_shape(
    document: dict[str, Any],
) -> None:
    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["error", "field"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post"):
                continue
            assert operation.get("operationId"), (method, path)
            codes = set(operation["responses"])
            assert any(code.startswith("2") for code in codes), (method, path)
            if "{session_id}" in path:
                assert "404" in codes, (method, path)
            if method == "post" and path.startswith("/sessions/{session_id}/"):
                assert {"401", "403", "422"} <= codes, path
                assert operation["security"] == [{"editKey": []}]
                # A write sent with the version the client saw may find the session changed;
                # a rematch starts a new session and sends no version.
                if path != "/sessions/{session_id}/rematch":
                    assert "409" in codes, path


# --- What comes next -------------------------------------------------------------------


def test_every_state_says_whose_move_it_is_and_what_is_accepted(client: FlaskClient) -> None:
    session = api_session(client, ["Ann", "Bo"], entry_threshold=500)
    assert session.read()["expected"] == {
        "seat": 0,
        "actions": [{"type": "roll"}, {"type": "total"}],
    }
    rolled = session.ok({"type": "roll", "dice": [1, 1, 2, 3, 4, 6]})
    # 200 cannot reach the entry threshold: the set-aside cannot bank.
    assert rolled["expected"] == {"seat": 0, "actions": [{"type": "keep", "choices": [False]}]}
    stale = session.act({"type": "keep", "dice": [1]}, version=0)
    assert stale.status_code == 409
    assert stale.get_json()["expected"] == rolled["expected"]


def test_an_action_whose_type_is_not_expected_is_refused_naming_the_type(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = api_session(client, ["Ann", "Bo"])
    # The engines list every type they accept (their property tests prove it); the store
    # still holds them to it: an engine that listed only rolls would refuse a total.
    only_rolls = Expected(0, (Accepts("roll"),))
    monkeypatch.setattr(type(GAMES["yardkle"]), "expected", lambda _game, _state: only_rolls)
    # A kept view has asked its (pure) engine already: the changed engine is asked anew.
    session_views.forget()
    response = session.act({"type": "total", "points": 500})
    assert "the game expects roll" in assert_error(response, 422, "type")
    assert session.version == 0


def test_a_finished_game_expects_nothing(client: FlaskClient) -> None:
    session = api_session(client, ["Ann"], winning_score=500)
    finished = session.ok({"type": "total", "points": 500})
    assert finished["finished"] is True
    assert finished["expected"] == {"seat": None, "actions": []}


def test_each_games_part_of_the_document_comes_from_its_adapter(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    options = schemas["NewSession"]["properties"]["options"]["anyOf"]
    actions = schemas["EventRequest"]["properties"]["action"]["anyOf"]
    for slug, game in adapters().items():
        own = game_actions(schema_name(slug, ""), GAMES[slug], game.api_actions)
        assert schema_name(slug, "Action") in own, slug
        assert all(schemas[name] == schema for name, schema in own.items()), slug
        assert schema_name(slug, "Options") in schemas, slug
        assert ref(schema_name(slug, "Options")) in options
        assert ref(schema_name(slug, "Action")) in actions
        for operation in game.api_operations:
            assert operation.path in document["paths"], operation.path
            assert {operation.request.__name__, operation.answer.__name__} <= set(schemas)
    assert len(options) == len(actions) == len(GAMES)
