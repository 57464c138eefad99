"""The shapes the API accepts: a value of the wrong kind, a property it does not know (at
any depth) or a method a path does not serve is refused with the field named, and nothing
is recorded."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import API, api_session, assert_error
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.games.base import and_list
from scorekeeper.models import DeckProfile, GameSession, PlayerGroup


def count(app: Flask, model: Any) -> int:
    with app.app_context(), database.connection_context():
        return int(model.select().count())


# --- A new session's deck profile ----------------------------------------------------


@pytest.mark.parametrize("game", ["yardkle", "yadokarick"])
@pytest.mark.parametrize("deck_key", [{}, [], 5, None, "k" * 32])
def test_a_deck_key_without_a_deck_profile_is_422_naming_deck_key(
    app: Flask, client: FlaskClient, game: str, deck_key: Any
) -> None:
    body = {"game": game, "seats": ["Ann", "Bo", "Cy"], "deck_key": deck_key}

    response = client.post(f"{API}/sessions", json=body)

    sentence = assert_error(response, 422, "deck_key")
    assert "“deck_key”" in sentence
    assert (count(app, GameSession), count(app, DeckProfile)) == (0, 0)


def test_a_deck_key_that_is_not_a_string_is_422_naming_deck_key_beside_a_deck_profile(
    app: Flask, client: FlaskClient
) -> None:
    made = client.post(f"{API}/sessions", json={"game": "yadokarick", "seats": ["A", "B", "C"]})
    profile = made.get_json()["deck_profile"]
    body = {"game": "yadokarick", "seats": ["A", "B", "C"], "deck_profile": profile["id"]}

    response = client.post(f"{API}/sessions", json=body | {"deck_key": {}})

    assert assert_error(response, 422, "deck_key") == "“deck_key” must be a string."
    assert count(app, GameSession) == 1
    # The profile's own key still starts a session with it.
    again = client.post(f"{API}/sessions", json=body | {"deck_key": profile["edit_key"]})
    assert again.status_code == 201
    assert again.get_json()["deck_profile"]["id"] == profile["id"]


def test_a_new_deck_name_beside_a_deck_profile_is_422_naming_new_deck_name(
    app: Flask, client: FlaskClient
) -> None:
    made = client.post(f"{API}/sessions", json={"game": "yadokarick", "seats": ["A", "B", "C"]})
    profile = made.get_json()["deck_profile"]
    body = {
        "game": "yadokarick",
        "seats": ["A", "B", "C"],
        "deck_profile": profile["id"],
        "deck_key": profile["edit_key"],
        "new_deck_name": "Tin",
    }

    response = client.post(f"{API}/sessions", json=body)

    assert "send one of the two" in assert_error(response, 422, "new_deck_name")
    assert (count(app, GameSession), count(app, DeckProfile)) == (1, 1)


# --- Objects inside a body -----------------------------------------------------------

SETTLE = {
    "winner": 0,
    "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
    "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
    "forgot": [{"player": 1, "card": "JC"}],
}


def test_an_unknown_property_of_a_forgotten_taker_card_is_422_naming_it(
    client: FlaskClient,
) -> None:
    body = SETTLE | {"forgot": [{"player": 1, "card": "JC", "called": False}]}

    response = client.post(f"{API}/judge/yellow-dwarf/settle", json=body)

    assert assert_error(response, 422, "forgot.0.called") == (
        "Entry 0 of “forgot” has no field 'called'."
    )
    assert client.post(f"{API}/judge/yellow-dwarf/settle", json=SETTLE).status_code == 200


def test_an_unknown_property_of_a_yadokarick_play_is_422_naming_it(client: FlaskClient) -> None:
    plays = [
        {"card": "green 25", "size": 3},
        {"card": "pink 8", "size": 2, "seat": 1},
        {"card": "pink 29", "size": 5},
    ]

    response = client.post(f"{API}/judge/yadokarick", json={"plays": plays})

    assert assert_error(response, 422, "plays.1.seat") == "Play 1 has no field 'seat'."


Place = tuple[str | int, ...]


def objects_in(value: Any, place: Place = ()) -> Iterator[Place]:
    """Where each object inside ``value`` (itself included) is."""
    if isinstance(value, dict):
        yield place
        for name, inner in value.items():
            yield from objects_in(inner, (*place, name))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from objects_in(inner, (*place, index))


def test_an_unknown_property_anywhere_in_a_documented_request_is_422_naming_it(
    app: Flask, client: FlaskClient
) -> None:
    session = api_session(client)
    made = client.post(f"{API}/groups", json={"name": "Friday", "players": ["Ann"]}).get_json()
    values = {
        "session_id": session.id,
        "group_id": made["id"],
        "player_id": str(made["players"][0]["id"]),
    }
    keys = {"session_id": session.key, "group_id": made["edit_key"]}
    document = client.get(f"{API}/openapi.json").get_json()
    before = (count(app, GameSession), count(app, PlayerGroup))
    tried = 0
    for template, item in document["paths"].items():
        path = API + re.sub(r"\{(\w+)\}", lambda name: values[name[1]], template)
        key = next((keys[name] for name in keys if "{" + name + "}" in template), None)
        for method, operation in item.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if media is None or "example" not in media:
                continue
            for place in objects_in(media["example"]):
                sent = copy.deepcopy(media["example"])
                inner = sent
                for step in place:
                    inner = inner[step]
                inner["surplus"] = 1
                if "version" in sent:
                    sent["version"] = 0  # the session's: the refusal is about the property
                headers = {"Authorization": f"Bearer {key}"} if key else {}

                answer = client.open(path, method=method.upper(), json=sent, headers=headers)

                where = (template, method, place)
                assert answer.status_code == 422, where
                assert answer.get_json()["field"].endswith("surplus"), where
                assert "surplus" in answer.get_json()["error"], where
                tried += 1
    assert tried > 30  # every documented body, with the objects inside it
    assert (count(app, GameSession), count(app, PlayerGroup), session.version) == (*before, 0)


# --- The methods of each path --------------------------------------------------------

HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def test_every_api_path_allows_exactly_the_methods_its_document_lists(
    client: FlaskClient,
) -> None:
    session = api_session(client)
    made = client.post(f"{API}/groups", json={"name": "Friday", "players": ["Ann"]}).get_json()
    values = {
        "session_id": session.id,
        "group_id": made["id"],
        "player_id": str(made["players"][0]["id"]),
    }
    document = client.get(f"{API}/openapi.json").get_json()
    for template, item in document["paths"].items():
        path = API + re.sub(r"\{(\w+)\}", lambda name: values[name[1]], template)
        listed = {method.upper() for method in item if method.upper() in HTTP_METHODS}
        allowed = listed | {"OPTIONS"} | ({"HEAD"} if "GET" in listed else set())

        answer = client.options(path)

        assert (answer.status_code, set(answer.allow)) == (200, allowed), template
        for method in set(HTTP_METHODS) - listed:
            refused = client.open(path, method=method)
            assert assert_error(refused, 405, None) == (
                f"{path} answers {and_list(sorted(listed))}, not {method}."
            )
            assert set(refused.allow) == allowed, (method, template)


def exported_session(client: FlaskClient) -> dict[str, Any]:
    """A session's file with one event, corrected once (a correction as a file holds it)."""
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    exported: dict[str, Any] = client.get(f"{session.url}/export").get_json()
    exported["events"][0]["corrections"] = [
        {"action": {"type": "total", "points": 450}, "corrected_at": "2026-11-24T20:15:00Z"}
    ]
    return exported


@pytest.mark.parametrize(
    "place",
    [(), ("seats", 1), ("events", 0), ("events", 0, "corrections", 0), ("rounds", 0)],
    ids=str,
)
def test_an_unknown_property_anywhere_in_a_session_file_is_422_naming_it(
    app: Flask, client: FlaskClient, place: Place
) -> None:
    exported = exported_session(client)
    assert client.post(f"{API}/sessions/import", json=exported).status_code == 201
    inner = exported
    for step in place:
        inner = inner[step]
    inner["surplus"] = 1

    response = client.post(f"{API}/sessions/import", json=exported)

    field = ".".join(str(step) for step in (*place, "surplus"))
    assert "has no field 'surplus'" in assert_error(response, 422, field)
    assert count(app, GameSession) == 2


def test_a_session_file_of_another_format_version_is_refused_for_its_version_not_its_fields(
    client: FlaskClient,
) -> None:
    exported = exported_session(client) | {"format_version": 99, "surplus": 1}

    response = client.post(f"{API}/sessions/import", json=exported)

    assert "format version 99" in assert_error(response, 422, "format_version")


@pytest.mark.parametrize(
    ("place", "field"),
    [
        ((), "surplus"),
        (("players", 0), "players.0.surplus"),
        (("sessions", 0, "seats", 0), "sessions.0.seats.0.surplus"),
        (("sessions", 0), "sessions.0.surplus"),
    ],
    ids=str,
)
def test_an_unknown_property_anywhere_in_a_group_file_is_422_naming_it(
    app: Flask, client: FlaskClient, place: Place, field: str
) -> None:
    made = client.post(f"{API}/groups", json={"name": "Friday", "players": ["Ann", "Bo"]})
    group = made.get_json()
    sent = {"game": "yardkle", "group": group["id"], "players": [1, 2]}
    bearer = {"Authorization": f"Bearer {group['edit_key']}"}
    assert client.post(f"{API}/sessions", json=sent, headers=bearer).status_code == 201
    exported = client.get(f"{API}/groups/{group['id']}/export").get_json()
    inner = exported
    for step in place:
        inner = inner[step]
    inner["surplus"] = 1

    response = client.post(f"{API}/groups/import", json=exported)

    assert "has no field 'surplus'" in assert_error(response, 422, field)
    assert count(app, PlayerGroup) == 1


# --- A body that is JSON no reader takes -----------------------------------------------


def test_a_body_nesting_too_deeply_is_refused_saying_so(client: FlaskClient) -> None:
    deep = b'{"game": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    response = client.post(f"{API}/sessions", data=deep, content_type="application/json")
    assert assert_error(response, 400, None) == (
        "The request body nests lists or objects too deeply to be read."
    )


def test_a_body_with_a_number_too_long_to_read_is_refused_saying_so(client: FlaskClient) -> None:
    long_number = b'{"game": "yardkle", "seats": ["Ann"], "options": {"x": ' + b"9" * 5000 + b"}}"
    response = client.post(f"{API}/sessions", data=long_number, content_type="application/json")
    assert assert_error(response, 400, None) == (
        "The request body is JSON, but a number has more than 4300 digits."
    )


def test_a_body_that_is_no_json_object_is_still_refused_as_before(client: FlaskClient) -> None:
    for body, mimetype in (
        (b"[1, 2]", "application/json"),
        (b"{", "application/json"),
        (b'{"game": "yardkle"}', "text/plain"),
    ):
        response = client.post(f"{API}/sessions", data=body, content_type=mimetype)
        assert assert_error(response, 400, None) == (
            "The request body must be a JSON object (Content-Type: application/json)."
        )
