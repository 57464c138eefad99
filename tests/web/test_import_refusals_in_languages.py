"""What an import (a session file, a group file) and a deck profile refuse is said as a
phrase: read in the asked language with its code and values, its English words what they
always were; none is left to the code ``refused`` of words no phrase says."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import API, make_app
from flask import abort
from flask.testing import FlaskClient

from scorekeeper.games import GAMES
from scorekeeper.groups import MAX_PLAYERS

FRENCH = {"Accept-Language": "fr"}
JAPANESE = {"Accept-Language": "ja"}
TOTAL = {"type": "total", "points": 500}
TIME = "2026-11-24T20:15:00Z"


def body_of(response: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(response.get_data())
    return answer


def session_file(**fields: Any) -> dict[str, Any]:
    return {
        "format": "tabletop-scorekeeper/session",
        "format_version": 3,
        "game": "yardkle",
        "options": {},
        "seats": [{"position": 1, "name": "Ann"}, {"position": 2, "name": "Bo"}],
        "events": [{"seq": 1, "action": TOTAL}],
        **fields,
    }


def corrected(**correction: Any) -> dict[str, Any]:
    """A session file whose one event holds one correction."""
    return session_file(events=[{"seq": 1, "action": TOTAL, "corrections": [correction]}])


def seated(*players: int | None, **fields: Any) -> dict[str, Any]:
    """A session of a group file, its seats taken by the file's players."""
    seats = [
        {"position": place, "name": name, "player": player}
        for place, (name, player) in enumerate(zip(("Ann", "Bo"), players, strict=True), 1)
    ]
    return {**session_file(seats=seats), **fields}


def group_file(**fields: Any) -> dict[str, Any]:
    return {
        "format": "tabletop-scorekeeper/group",
        "format_version": 1,
        "name": "Friday",
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "decks": [],
        "sessions": [],
        **fields,
    }


def player(**fields: Any) -> list[dict[str, Any]]:
    """The group file's players, Ann with ``fields``."""
    return [{"name": "Ann", **fields}, {"name": "Bo"}]


SESSION_FILES = {
    "export.not-a-session-file": (
        {"format": "other/app"},
        "This is not a session file exported by Tabletop Scorekeeper.",
    ),
    "export.format-versions": (
        session_file(format_version=4),
        "This file has format version 4; this app reads versions 1, 2 and 3.",
    ),
    "export.not-an-object": (session_file(options=[]), "“options” must be an object."),
    "export.list-of": (
        session_file(seats=["Ann"]),
        "“seats” must be a list of {position, name}.",
    ),
    "export.not-a-list": (session_file(events={}), "“events” must be a list."),
    "export.deck-profile-not-an-object": (
        session_file(deck_profile=[]),
        "“deck_profile” must be an object: a name and sizes.",
    ),
    "export.ends-before-start": (
        session_file(started_at=TIME, finished_at="2026-11-24T19:00:00Z"),
        "“finished_at” is before “started_at”: a session ends after it starts.",
    ),
    "export.not-a-time": (
        session_file(started_at="yesterday"),
        f"“started_at” must be a date and time such as {TIME}, or null.",
    ),
    "export.event-without-action": (session_file(events=[{"seq": 1}]), "Event 1 has no action."),
    "export.event-seq": (
        session_file(events=[{"seq": 0, "action": TOTAL}]),
        "Event 1: “seq” must be a rising whole number up to 2147483647.",
    ),
    "export.event-undone-redoable": (
        session_file(events=[{"seq": 1, "action": TOTAL, "redoable": True}]),
        "Event 1: “undone”/“redoable” are not valid.",
    ),
    "export.live-after-redoable": (
        session_file(
            events=[
                {"seq": 1, "action": TOTAL, "undone": True, "redoable": True},
                {"seq": 2, "action": TOTAL},
            ]
        ),
        "Event 2 is live after a redoable event; only the newest undone events can be redoable.",
    ),
    "export.corrections-not-a-list": (
        session_file(events=[{"seq": 1, "action": TOTAL, "corrections": {}}]),
        "Event 1: “corrections” must be a list.",
    ),
    "export.correction-without-action": (corrected(), "Event 1: correction 1 has no action."),
    "export.correction-time": (
        corrected(action=TOTAL, corrected_at="later"),
        f"Event 1: correction 1's “corrected_at” must be a date and time such as {TIME}.",
    ),
    "game.unknown": (
        session_file(game="chess"),
        f"Unknown game 'chess': choose one of {', '.join(GAMES)}.",
    ),
}

# Unknown fields, each refused naming the object that has it by a label of its own.
UNKNOWN_FIELDS = {
    "export.label-session-file": (session_file(colour=1), "A session file has no field 'colour'."),
    "export.label-entry": (
        session_file(seats=[{"position": 1, "name": "Ann", "hat": 1}]),
        "Entry 0 of “seats” has no field 'hat'.",
    ),
    "field.label": (
        session_file(deck_profile={"name": "Blue box", "sizes": {}, "hat": 1}),
        "“deck_profile” has no field 'hat'.",
    ),
    "export.label-correction": (
        corrected(action=TOTAL, corrected_at=TIME, hat=1),
        "Event 1: correction 1 has no field 'hat'.",
    ),
}

GROUP_FILES = {
    "export.group.not-a-group-file": (
        {"format": "x"},
        "This is not a group file exported by Tabletop Scorekeeper.",
    ),
    "export.group.format-version": (
        group_file(format_version=9),
        "This file has format version 9; this app reads version 1.",
    ),
    "export.group.sessions-not-a-list": (
        group_file(sessions={}),
        "“sessions” must be a list of session exports.",
    ),
    "export.list-of": (group_file(decks={}), "“decks” must be a list of {game, name, sizes}."),
    "export.group.deck-refused": (
        group_file(decks=[{"game": "yardkle", "name": "Dice", "sizes": {}}]),
        "Deck 1: Yardkle is not played with a deck profile.",
    ),
    "export.group.too-many-players": (
        group_file(players=[{"name": f"P{n}"} for n in range(MAX_PLAYERS + 1)]),
        f"A group has at most {MAX_PLAYERS} players.",
    ),
    "export.group.same-name": (
        group_file(players=[{"name": "Ann"}, {"name": "ann"}]),
        "Two players are called ann; each player has their own name.",
    ),
    "export.not-a-list": (
        group_file(players=player(game_ratings={})),
        "“players.0.game_ratings” must be a list.",
    ),
    "export.not-an-object": (
        group_file(players=player(game_ratings=[1])),
        "“players.0.game_ratings.0” must be an object.",
    ),
    "export.group.not-numbers": (
        group_file(players=player(rating=[])),
        "“players.0.rating” must be an object of numbers.",
    ),
    "export.group.not-a-number": (
        group_file(players=player(rating={"mu": "high"})),
        "“players.0.rating.mu” must be a number.",
    ),
    "export.group.label-file": (group_file(hat=1), "A group file has no field 'hat'."),
    "export.group.session-refused": (
        group_file(sessions=[{"format": "x"}]),
        "Session 1: This is not a session file exported by Tabletop Scorekeeper.",
    ),
    "export.group.not-a-deck": (
        group_file(sessions=[seated(0, 1, deck=5)]),
        "Session 1: “deck” must be the number of one of the file's yardkle decks, or null.",
    ),
    "export.group.not-a-player": (
        group_file(sessions=[seated(0, 9)]),
        "Session 1, seat 2: “player” must be the number of one of the file's 2 players "
        "(0 to 1), or null.",
    ),
    "export.group.seated-twice": (
        group_file(sessions=[seated(0, 0)]),
        "Session 1, seat 2: player 0 already sits in this session; each player takes one seat.",
    ),
}


def refused_in_french_and_in_english(
    client: FlaskClient, path: str, sent: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The French and the plain answers (each a 422 saying its language) to ``sent``."""
    french = client.post(f"{API}/{path}", json=sent, headers=FRENCH)
    plain = client.post(f"{API}/{path}", json=sent)
    assert (french.status_code, plain.status_code) == (422, 422)
    assert (french.headers["Content-Language"], plain.headers["Content-Language"]) == ("fr", "en")
    return body_of(french), body_of(plain)


@pytest.mark.parametrize("code", [*SESSION_FILES, *UNKNOWN_FIELDS])
def test_a_session_file_refused_in_french_is_coded_and_its_english_unchanged(
    client: FlaskClient, code: str
) -> None:
    sent, english = {**SESSION_FILES, **UNKNOWN_FIELDS}[code]
    french, plain = refused_in_french_and_in_english(client, "sessions/import", sent)
    assert plain["error"] == english
    assert set(plain) == {"error", "field"}
    said = french["code"] if code in SESSION_FILES else french["values"]["label"]["code"]
    assert said == code
    assert french["error"] != english
    assert french["field"] == plain["field"]


@pytest.mark.parametrize("code", GROUP_FILES)
def test_a_group_file_refused_in_french_is_coded_and_its_english_unchanged(
    client: FlaskClient, code: str
) -> None:
    sent, english = GROUP_FILES[code]
    french, plain = refused_in_french_and_in_english(client, "groups/import", sent)
    assert plain["error"] == english
    said = french["values"]["label"] if french["code"] == "field.unknown" else french
    assert said["code"] == code
    assert french["error"] != english
    assert french["field"] == plain["field"]


def test_a_session_s_refusal_in_a_group_file_reads_in_japanese_all_through(
    client: FlaskClient,
) -> None:
    sent = group_file(sessions=[seated(0, 1, format_version=4)])
    refused = client.post(f"{API}/groups/import", json=sent, headers=JAPANESE)
    assert refused.status_code == 422
    assert body_of(refused) == {
        "error": "セッション1：このファイルの形式バージョンは4です。"  # noqa: RUF001
        "このアプリが読めるのはバージョン1、2、3です。",
        "field": "sessions.0.format_version",
        "code": "export.group.session-refused",
        "values": {
            "session": {"code": "export.group.session", "values": {"number": 1}},
            "refusal": {
                "code": "export.format-versions",
                "values": {"version": "4", "versions": [1, 2, 3]},
            },
        },
    }


def test_a_session_file_s_version_refused_in_french_reads_french_words(
    client: FlaskClient,
) -> None:
    refused = client.post(
        f"{API}/sessions/import", json=session_file(format_version=4), headers=FRENCH
    )
    assert body_of(refused)["error"] == (
        "Ce fichier est au format version 4\u202f; cette application lit les versions 1, 2 et 3."
    )


def test_a_deck_profile_refused_in_french_says_so_with_its_code(client: FlaskClient) -> None:
    seats = {"game": "yadokarick", "seats": ["Ann", "Bo", "Cy"]}
    missing = client.post(
        f"{API}/sessions", json={**seats, "deck_profile": "x" * 22}, headers=FRENCH
    )
    assert missing.status_code == 422
    assert body_of(missing) == {
        "error": "Ce profil de paquet n\u2019existe pas\u202f; choisissez-en un autre.",
        "field": "deck_profile",
        "code": "deck.no-such-profile",
        "values": {},
    }
    made = client.post(f"{API}/sessions", json={**seats, "new_deck_name": "Blue box"})
    profile = body_of(made)["deck_profile"]["id"]
    keyless = client.post(f"{API}/sessions", json={**seats, "deck_profile": profile})
    assert body_of(keyless)["error"].startswith("To play with a deck profile, send its key")
    asked = client.post(
        f"{API}/sessions", json={**seats, "deck_profile": profile}, headers=JAPANESE
    )
    assert (body_of(asked)["code"], body_of(asked)["field"]) == ("deck.key-needed", "deck_key")
    assert body_of(asked)["error"].startswith("デッキプロファイルを使うには")
    unnamed = client.post(f"{API}/sessions", json={**seats, "new_deck_name": " "}, headers=FRENCH)
    assert body_of(unnamed)["error"] == "Donnez un nom au paquet, comme «\u202fBoîte bleue\u202f»."
    assert body_of(unnamed)["code"] == "deck.name-needed"


def test_only_werkzeug_s_own_words_are_still_refused_as_english(database_url: str) -> None:
    app = make_app(database_url)

    def unsupported() -> str:
        abort(415)

    # An error the app never raises, with werkzeug's sentence no phrase says.
    app.add_url_rule("/api/v1/unsupported", "unsupported", unsupported, methods=["POST"])
    answer = FlaskClient(app, app.response_class).post(f"{API}/unsupported", headers=FRENCH)
    assert answer.status_code == 415
    assert answer.headers["Content-Language"] == "en"
    assert (body_of(answer)["code"], body_of(answer)["values"]) == ("refused", {})
