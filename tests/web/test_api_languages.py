"""The API speaks the client's language, and says what it said as a code and its values."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import groups, store
from scorekeeper.games import GAMES, cards
from scorekeeper.games.engine import GAME_OVER, UNKNOWN_ACTION
from scorekeeper.games.words import one_of
from scorekeeper.web import api, language, state_json
from scorekeeper.web.openapi_parts import declared_phrases
from scorekeeper.web.sessions import NOT_FOUND
from tests.conftest import API, ApiSession, api_session

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
JAPANESE = {"Accept-Language": "ja"}
ENGLISH = {"Accept-Language": "en-GB"}
YARDKLE_TYPES = ["roll", "keep", "bank", "total"]
NOT_A_GROUP_FILE = "Ce n\u2019est pas un fichier de groupe exporté par Tabletop Scorekeeper."
JAPANESE_RULING = "不明なアクションです。typeはroll、keep、bank、またはtotalのいずれかです。"


def body_of(response: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(response.get_data())
    return answer


def finished_yardkle(client: FlaskClient) -> ApiSession:
    table = api_session(client)
    table.ok({"type": "total", "points": 10_000})
    table.ok({"type": "total", "points": 0})
    return table


def test_an_illegal_append_asked_in_french_is_refused_in_french_with_its_code(
    client: FlaskClient,
) -> None:
    table = finished_yardkle(client)
    action = {"version": 2, "action": {"type": "total", "points": 50}}
    refused = table.post("/events", action, headers=FRENCH)
    assert refused.status_code == 422
    assert refused.headers["Content-Language"] == "fr"
    assert "Accept-Language" in refused.vary.as_set(preserve_casing=True)
    assert body_of(refused) == {
        "error": "La partie est terminée.",
        "field": "action",
        "code": "game.over",
        "values": {},
    }
    # The same refusal in English: the words of today, the code and values beside them.
    english = table.post("/events", action, headers=ENGLISH)
    assert english.headers["Content-Language"] == "en"
    said = GAME_OVER()
    assert body_of(english) == {"error": said, "field": "action", **said.to_json()}
    # And to a client that names no language, as it always was.
    plain = table.post("/events", action)
    assert plain.headers["Content-Language"] == "en"
    assert body_of(plain) == {"error": said, "field": "action"}
    # Nothing was recorded.
    assert table.read()["version"] == 2


def test_a_refusal_with_values_is_read_with_them_and_gives_them(client: FlaskClient) -> None:
    body = {"game": "yardkle", "seats": ["Ann", "Bo"], "options": {"winning_score": 5}}
    refused = client.post(f"{API}/sessions", json=body, headers=FRENCH)
    assert refused.status_code == 422
    french = body_of(refused)
    assert french["error"].endswith("doit valoir au moins 500.")
    english = body_of(client.post(f"{API}/sessions", json=body, headers=ENGLISH))
    assert english["error"].endswith("must be at least 500.")
    for answer in (french, english):
        assert answer["code"] == "option.at-least"
        assert answer["values"]["minimum"] == 500
        assert answer["field"] == "options.winning_score"


def test_a_refusal_of_the_api_itself_is_a_phrase_of_its_own(client: FlaskClient) -> None:
    table = api_session(client)
    response = table.post("/events", {"version": 0, "action": []}, headers=JAPANESE)
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "ja"
    body = body_of(response)
    assert (body["code"], body["values"], body["field"]) == (
        "api.action-not-an-object",
        {},
        "action",
    )
    assert body["error"] != str(api.ACTION_NOT_AN_OBJECT())
    # A page past the last, in English: today's words, with the code and the page count.
    past = client.get(f"{table.url}/history?page=9", headers=ENGLISH)
    assert past.status_code == 404
    assert body_of(past) == {
        "error": "This history has pages 1 to 1.",
        "field": "page",
        "code": "api.history-pages",
        "values": {"pages": 1},
    }
    missing = client.get(f"{API}/sessions/{'x' * 22}/version", headers=FRENCH)
    assert missing.status_code == 404
    assert body_of(missing)["code"] == "api.no-such-session"
    assert missing.headers["Content-Language"] == "fr"


def test_the_api_s_words_of_a_missing_session_or_group_are_the_pages_words() -> None:
    assert api.NO_SUCH_SESSION() == NOT_FOUND
    assert api.NO_SUCH_GROUP() == groups.NO_SUCH_GROUP
    assert api.STALE_VERSION(version=3) == str(store.StaleVersion(3))


def test_a_file_that_is_no_group_file_is_refused_in_french_with_its_code(
    client: FlaskClient,
) -> None:
    response = client.post(f"{API}/groups/import", json={"format": "x"}, headers=FRENCH)
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "fr"
    body = body_of(response)
    assert (body["code"], body["values"]) == ("export.group.not-a-group-file", {})
    assert body["error"] == NOT_A_GROUP_FILE
    # An abort of an endpoint, to a client naming no language: its two fields, as ever.
    gone = client.get(f"{API}/sessions/{'x' * 22}/rounds")
    assert gone.status_code == 404
    assert set(body_of(gone)) == {"error", "field"}
    named = body_of(client.get(f"{API}/sessions/{'x' * 22}/rounds", headers=ENGLISH))
    assert {"code", "values"} <= set(named)


@pytest.fixture
def ruling_said(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Yardkle's ruling as a phrase with values: the engines' own are theirs to say."""
    yardkle = type(GAMES["yardkle"])
    monkeypatch.setattr(
        yardkle, "ruling", lambda _game, _state: UNKNOWN_ACTION(types=one_of(YARDKLE_TYPES))
    )
    yield


def test_the_state_s_ruling_is_read_in_the_asked_language_with_its_code(
    client: FlaskClient, ruling_said: None
) -> None:
    table = api_session(client)
    french = client.get(table.url, headers=FRENCH)
    assert french.headers["Content-Language"] == "fr"
    assert {"Accept-Language"} <= french.vary.as_set(preserve_casing=True)
    body = body_of(french)
    assert body["ruling"] == "Action inconnue\u202f: le type est roll, keep, bank ou total."
    assert body["ruling_code"] == {"code": "action.unknown", "values": {"types": YARDKLE_TYPES}}
    # A write's answer, lean or whole, says it so too.
    lean = table.post(
        "/events",
        {"version": 0, "action": {"type": "total", "points": 500}},
        headers={**JAPANESE, "Prefer": "return=minimal"},
    )
    assert lean.status_code == 201
    assert lean.headers["Content-Language"] == "ja"
    assert lean.headers.getlist("Vary") == ["Prefer, Accept-Language, Accept-Encoding"]
    assert (
        body_of(lean)["ruling"]
        == "不明なアクションです。typeはroll、keep、bank、またはtotalのいずれかです。"
    )
    assert body_of(lean)["ruling_code"]["code"] == "action.unknown"


def test_a_cached_answer_asked_in_two_languages_in_a_row_gives_each_its_language(
    client: FlaskClient, ruling_said: None
) -> None:
    table = api_session(client)
    rulings = {}
    for asked in (FRENCH, ENGLISH, JAPANESE, FRENCH, {}, ENGLISH, JAPANESE):
        response = client.get(table.url, headers=asked)
        rulings.setdefault(response.headers["Content-Language"], set()).add(
            body_of(response)["ruling"]
        )
    assert rulings == {
        "fr": {"Action inconnue\u202f: le type est roll, keep, bank ou total."},
        "en": {"Unknown action: the type is roll, keep, bank or total."},
        "ja": {JAPANESE_RULING},
    }
    # English named and English not: each its own kept answer, the code in the first only.
    assert "ruling_code" in body_of(client.get(table.url, headers=ENGLISH))
    assert "ruling_code" not in body_of(client.get(table.url))


def test_the_language_cookie_of_the_switch_chooses_as_on_pages(
    client: FlaskClient, ruling_said: None
) -> None:
    table = api_session(client)
    client.get("/language/fr?next=/")
    answer = client.get(table.url, headers=JAPANESE)
    assert answer.headers["Content-Language"] == "fr"
    assert {"Accept-Language", "Cookie"} <= answer.vary.as_set(preserve_casing=True)
    assert body_of(answer)["ruling"].startswith("Action inconnue")


def test_english_answers_are_today_s_bytes_apart_from_the_added_fields(
    client: FlaskClient,
) -> None:
    table = api_session(client)
    table.ok({"type": "roll", "dice": [1, 1, 1, 5, 2, 3]})
    plain = client.get(table.url)
    assert plain.headers["Content-Language"] == "en"
    # No language named: nothing read of the request, nothing varies but what did before.
    assert plain.vary.as_set() <= {"accept-encoding"}
    text = plain.get_data()
    ruling = b',"ruling":"Ann rolled 1 1 1 5 2 3: three 1s (1000) and single 5 (50) can score'
    assert ruling in text and b"ruling_code" not in text
    # Named: the same bytes, with the ruling's code after the ruling.
    asked = client.get(table.url, headers=ENGLISH)
    assert asked.headers["Content-Language"] == "en"
    code = b',"ruling_code":' + state_json.compact(body_of(asked)["ruling_code"]).encode()
    assert code + b',"standings":' in asked.get_data()
    assert asked.get_data().replace(code, b"", 1) == text
    # A judge answers the contract's fields alone to a client naming no language, and the
    # explanation's code beside them to one that names English.
    trick = {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]}
    judged = client.post(f"{API}/judge/yokai-septet", json=trick)
    assert judged.headers["Content-Language"] == "en"
    contract = {
        "winner": 3,
        "card": "green 1",
        "rule": "green-one",
        "explanation": "The green 1 takes every trick it is in, whatever the trump.",
    }
    assert body_of(judged) == contract
    named = body_of(client.post(f"{API}/judge/yokai-septet", json=trick, headers=ENGLISH))
    assert {name: value for name, value in named.items() if name != "explanation_code"} == contract
    assert "explanation_code" in named


def test_the_yadokarick_judge_explains_in_japanese_with_the_explanation_s_code(
    client: FlaskClient,
) -> None:
    plays = [
        {"card": "green 25", "size": 3},
        {"card": "pink 8", "size": 2},
        {"card": "green 17", "size": 1},
        {"card": "pink 29", "size": 4},
    ]
    english = body_of(client.post(f"{API}/judge/yadokarick", json={"plays": plays}))
    judged = client.post(f"{API}/judge/yadokarick", json={"plays": plays}, headers=JAPANESE)
    assert judged.status_code == 200
    assert judged.headers["Content-Language"] == "ja"
    answer = body_of(judged)
    # The contract's fields as in English, the explanation in Japanese, its code beside it
    # (sentences chained deeper than the document describes part by part: checked too).
    said = answer.pop("explanation_code")
    assert {**answer, "explanation": english["explanation"]} == english
    assert answer["explanation"].startswith("ピンクの8")
    # Its sentences one after another, the first Yadokarick's own.
    assert said["code"] == "sentence.then"
    assert said["values"]["first"]["code"].startswith("yadokarick.")


def test_a_judge_explains_in_japanese_with_the_explanation_s_code(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    trick = {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]}
    english = body_of(client.post(f"{API}/judge/yokai-septet", json=trick, headers=ENGLISH))
    said = english["explanation_code"]
    assert said is None or said["code"].startswith(("yokai-septet.", "trick."))
    # The API's part, whatever the engine's words are yet: a ruling whose explanation is a
    # phrase is read in the asked language, its code and values beside it.
    ruled = cards.TrickWinner.to_json
    monkeypatch.setattr(
        cards.TrickWinner, "to_json", lambda winner: {**ruled(winner), "explanation": GAME_OVER()}
    )
    judged = client.post(f"{API}/judge/yokai-septet", json=trick, headers=JAPANESE)
    assert judged.status_code == 200
    assert judged.headers["Content-Language"] == "ja"
    answer = body_of(judged)
    assert (answer["winner"], answer["card"], answer["rule"]) == (3, "green 1", "green-one")
    assert answer["explanation"] == "ゲームは終了しています。"
    assert answer["explanation_code"] == {"code": "game.over", "values": {}}


def test_a_game_endpoint_answering_data_has_its_words_read_and_a_name_stays_english(
    app: Flask,
) -> None:
    said = UNKNOWN_ACTION(types=one_of(["a", "b"]))
    answer = {"combos": [{"name": said, "points": 50}], "explanation": said, "points": 50}
    with app.test_request_context(headers=FRENCH):
        worded = api.worded(answer, api.asked_reader(), api.language_named())
    with app.test_request_context():
        assert api.worded(answer, api.asked_reader(), api.language_named()) == {
            "combos": [{"name": "Unknown action: the type is a or b.", "points": 50}],
            "explanation": "Unknown action: the type is a or b.",
            "points": 50,
        }
    assert worded == {
        "combos": [
            {
                "name": "Unknown action: the type is a or b.",
                "label": "Action inconnue\u202f: le type est a ou b.",
                "label_code": said.to_json(),
                "points": 50,
            }
        ],
        "explanation": "Action inconnue\u202f: le type est a ou b.",
        "explanation_code": said.to_json(),
        "points": 50,
    }


def test_a_state_record_s_words_are_kept_for_each_language_apart(app: Flask) -> None:
    record = cards.TrickWinner(3, cards.Card("green", 1), "green-one", GAME_OVER())
    records = (record,)
    with app.test_request_context(headers=JAPANESE), state_json.read_by(language.reader()):
        japanese = state_json.text(records)
    english = state_json.text(records)
    assert json.loads(japanese)[0]["explanation"] == "ゲームは終了しています。"
    assert json.loads(english)[0]["explanation"] == "The game is over."
    with app.test_request_context(headers=JAPANESE), state_json.read_by(language.reader()):
        assert state_json.text(records) == japanese


def test_the_document_lists_every_phrase_s_code_and_the_language_headers(
    client: FlaskClient,
) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    codes = document["components"]["schemas"]["PhraseCode"]["enum"]
    assert codes == sorted(declared_phrases())
    assert {"action.unknown", "game.over", "colour.green", "api.history-pages"} <= set(codes)
    # Each is a phrase the catalogs hold (its code the message's context).
    with open("scorekeeper/translations/messages.pot", encoding="utf-8") as template:
        contexts = {line.split('"')[1] for line in template if line.startswith("msgctxt ")}
    assert set(codes) <= contexts
    session = document["components"]["schemas"]["SessionState"]
    assert "ruling_code" in session["properties"]
    read = document["paths"]["/sessions/{session_id}"]["get"]
    assert {"$ref": "#/components/parameters/AcceptLanguage"} in read["parameters"]
    assert "Content-Language" in read["responses"]["200"]["headers"]
    error = document["components"]["schemas"]["Error"]["properties"]
    assert {"code", "values"} <= set(error)
    judged = document["components"]["schemas"]["TrickWinner"]["properties"]
    assert "explanation_code" in judged
    combo = document["components"]["schemas"]["YardkleScore"]["properties"]["combos"]["items"]
    assert {"label", "label_code"} <= set(combo["properties"])
    settled = document["components"]["schemas"]["YellowDwarfSettlement"]["properties"]
    assert "explanation_code" in settled
    # The codes of an import's refusals, a deck profile's and the app's own errors.
    assert {
        "export.not-a-session-file",
        "export.group.session-refused",
        "deck.no-such-profile",
        "game.unknown",
        "field.label",
        "web.error.no-such-address",
        "web.upload.request-of-size",
    } <= set(codes)
    # An error's code: one of them, or refused (werkzeug's own words) alone beside them.
    error_code = document["components"]["schemas"]["Error"]["properties"]["code"]
    assert error_code["anyOf"] == [
        {"const": "refused"},
        {"$ref": "#/components/schemas/PhraseCode"},
    ]


def test_an_abort_whose_words_are_said_once_is_read_and_coded(client: FlaskClient) -> None:
    # A phrase said once at the top of a module (the errors of no endpoint, read and coded
    # too: test_api_app_errors_in_languages.py).
    bad = client.post(f"{API}/judge/cryptruck", data="plays", headers=FRENCH)
    assert bad.status_code == 400
    assert bad.headers["Content-Language"] == "fr"
    assert body_of(bad)["code"] == "web.body.not-an-object"


def test_a_stale_write_asked_in_french_says_so_in_french_with_its_code(
    client: FlaskClient,
) -> None:
    table = api_session(client)
    table.ok({"type": "total", "points": 500})
    stale = table.post(
        "/events", {"version": 0, "action": {"type": "total", "points": 0}}, headers=FRENCH
    )
    assert stale.status_code == 409
    assert stale.headers["Content-Language"] == "fr"
    body = body_of(stale)
    assert body["error"].startswith("La partie a changé")
    assert (body["code"], body["values"], body["field"]) == (
        "api.stale-version",
        {"version": 1},
        "version",
    )
