"""The shapes the API accepts: a value of the wrong kind, a property it does not know (at
any depth) or a method a path does not serve is refused with the field named, and nothing
is recorded."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import API, api_session, assert_error
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.models import DeckProfile, GameSession


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
            assert_error(refused, 405, None)
            assert set(refused.allow) == allowed, (method, template)
