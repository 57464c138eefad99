"""The OpenAPI document describes every answer, and the suite's hook holds the API to it."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SQLITE_ONLY, api_session
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_check import ApiDocument, CheckedClient, served_document

from scorekeeper.games import GAMES
from scorekeeper.games.history import history_names, now_class
from scorekeeper.web import api
from scorekeeper.web.state_schemas import component_name, state_type

API = "/api/v1"


@pytest.fixture
def document(client: FlaskClient) -> ApiDocument:
    return served_document(client)


def created(client: FlaskClient, game: str, seats: list[str]) -> dict[str, Any]:
    response = client.post(f"{API}/sessions", json={"game": game, "seats": seats})
    assert response.status_code == 201
    return response.get_json()


def test_every_client_of_the_suite_is_the_checked_one(client: FlaskClient) -> None:
    assert isinstance(client, CheckedClient)


def test_the_hook_fails_a_state_field_the_document_does_not_describe(
    client: FlaskClient, document: ApiDocument
) -> None:
    body = created(client, "yadokarick", ["Ann"])
    assert document.problems("POST", "/sessions", 201, "application/json", body) == []
    body["state"]["secret"] = 1
    assert document.problems("POST", "/sessions", 201, "application/json", body) == [
        "POST /sessions 201: $.state: Additional properties are not allowed "
        "('secret' was unexpected)"
    ]


def test_the_hook_fails_a_field_added_anywhere_in_an_answer(
    client: FlaskClient, document: ApiDocument
) -> None:
    session = api_session(client, ["Ann", "Bo"])
    body = session.read()
    body["links"]["admin"] = "https://scores.example/admin"
    body["standings"][1]["bonus"] = 0
    assert document.problems("GET", f"/sessions/{session.id}", 200, "application/json", body) == [
        "GET /sessions/{session_id} 200: $.links: Additional properties are not allowed "
        "('admin' was unexpected)",
        "GET /sessions/{session_id} 200: $.standings[1]: Additional properties are not allowed "
        "('bonus' was unexpected)",
    ]


def test_the_hook_checks_a_state_against_the_schema_of_its_own_game(
    client: FlaskClient, document: ApiDocument
) -> None:
    body = created(client, "yardkle", ["Ann", "Bo"])
    body["game"] = "cryptruck"
    problems = document.problems("POST", "/sessions", 201, "application/json", body)
    assert problems == ["POST /sessions 201: $.game: 'yardkle' was expected"]


def test_the_hook_fails_a_missing_field_and_a_wrong_type(
    client: FlaskClient, document: ApiDocument
) -> None:
    body = created(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    del body["state"]["round"]
    body["state"]["scores"] = ["0", 0]
    assert document.problems("POST", "/sessions", 201, "application/json", body) == [
        "POST /sessions 201: $.state.scores[0]: '0' is not of type 'integer'; "
        "$.state: 'round' is a required property"
    ]


def test_the_hook_fails_an_answer_the_document_does_not_list(document: ApiDocument) -> None:
    error = {"error": "No.", "field": None}
    assert document.problems("GET", "/sessions/abc", 418, "application/json", error) == [
        "GET /sessions/{session_id} documents no 418 answer"
    ]
    assert document.problems("GET", "/sessions/abc", 200, "text/html", "") == [
        "GET /sessions/{session_id} 200: text/html is not among ['application/json']"
    ]
    assert document.problems("GET", "/nowhere", 200, "application/json", {}) == [
        "GET /nowhere is not documented, yet answered 200 application/json"
    ]
    assert document.problems("GET", "/nowhere", 404, "application/json", error) == []
    # The router squeezes "//" with a redirect: no answer of the API; any other is one.
    assert document.problems("GET", "/sessions//export.csv", 308, "text/html", None) == []
    assert document.problems("GET", "/sessions/abc/export.csv", 308, "text/html", None) == [
        "GET /sessions/{session_id}/export.csv documents no 308 answer"
    ]
    assert document.problems("PUT", "/sessions", 405, "application/json", {"error": 1}) == [
        "PUT /sessions 405: $: 'field' is a required property",
        "PUT /sessions 405: $.error: 1 is not of type 'string'",
    ]


def test_the_hook_fails_the_test_that_receives_an_undescribed_answer(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = api_session(client, ["Ann", "Bo"])
    real = api.session_fields_text
    monkeypatch.setattr(api, "session_fields_text", lambda view: real(view)[:-1] + ',"secret":1}')
    with pytest.raises(AssertionError, match="'secret' was unexpected"):
        client.get(f"{API}/sessions/{session.id}")


def schemas(value: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object below ``value``, with where it is."""
    if isinstance(value, dict):
        yield where, value
        for key, item in value.items():
            yield from schemas(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from schemas(item, f"{where}/{index}")


def test_every_object_the_document_describes_is_closed(document: ApiDocument) -> None:
    served = document.document
    described = {
        "components/schemas": served["components"]["schemas"],
        "components/responses": served["components"]["responses"],
        **{
            f"paths{path}/{method}": operation
            for path, item in served["paths"].items()
            for method, operation in item.items()
            # This document's own schema is OpenAPI's (checked in test_api).
            if path != "/openapi.json"
        },
    }
    objects = 0
    for where, part in described.items():
        for place, schema in schemas(part, where):
            if place.endswith(("/example", "/examples")) or "/example/" in place:
                continue
            assert schema.get("additionalProperties") is not True, place
            if schema.get("type") == "object":
                objects += 1
                assert "additionalProperties" in schema, f"{place} is an open object"
    assert objects > 100


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_game_state_schema_lists_every_field_its_answer_carries_and_its_history_the_rest(
    document: ApiDocument, slug: str
) -> None:
    components = document.document["components"]["schemas"]
    classes = typing.get_args(state_type(slug)) or (state_type(slug),)
    for cls in classes:
        schema = components[component_name(cls)]
        history = history_names(cls)
        now = now_class(cls)
        # Every field as answer_plain() writes them: the state's but its history, and its
        # now record's; the served document sorts its keys.
        fields = sorted(
            [field.name for field in dataclasses.fields(cls) if field.name not in history]
            + ([] if now is None else [field.name for field in dataclasses.fields(now)])
        )
        assert sorted(schema["properties"]) == fields
        assert sorted(schema["required"]) == fields
        assert schema["additionalProperties"] is False
        past = components[component_name(cls) + "History"]
        assert sorted(past["properties"]) == sorted(past["required"]) == sorted(history)
        assert past["additionalProperties"] is False


def example_answers(document: ApiDocument) -> Iterator[tuple[str, str, Any]]:
    """Each JSON answer of the document that has an example: where it is said ("get
    /sessions 200"), the pointer to its schema, and the example."""
    for path, item in document.document["paths"].items():
        for method, operation in item.items():
            for code, answer in operation["responses"].items():
                pointer = answer.get("$ref", f"#/paths/{path.replace('/', '~1')}/{method}")
                if "$ref" not in answer:
                    pointer += f"/responses/{code}"
                media = document.lookup(pointer).get("content", {}).get("application/json")
                if media is not None and "example" in media:
                    schema = pointer + "/content/application~1json/schema"
                    yield f"{method} {path} {code}", schema, media["example"]


def test_every_example_of_an_answer_is_one_the_hook_accepts(document: ApiDocument) -> None:
    checked = 0
    for answer, schema, example in example_answers(document):
        checked += 1
        assert document.invalid(answer, schema, example) == []
    assert checked > 20


def altered(value: Any) -> Iterator[Any]:
    """Copies of a JSON value, each with one thing changed: a value of another type in one
    place, one property left out, or an unknown one added."""
    others = {str: 1, bool: 0, int: "1", float: None, type(None): "", list: {}, dict: []}
    yield others[type(value)]
    if isinstance(value, dict):
        yield {**value, "unknown": 1}
        for key, item in value.items():
            yield {name: kept for name, kept in value.items() if name != key}
            for changed in altered(item):
                yield {**value, key: changed}
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for changed in altered(item):
                yield [*value[:index], changed, *value[index + 1 :]]


# The document is the same on either back end.
@SQLITE_ONLY
def test_the_quick_check_judges_each_example_and_its_altered_copies_as_jsonschema_does(
    document: ApiDocument,
) -> None:
    judged = {True: 0, False: 0}
    for answer, schema, example in example_answers(document):
        quick = document.quick_validator(schema)
        validator = Draft202012Validator(document.inlined(schema))
        for body in [example, *altered(example)]:
            valid = validator.is_valid(body)
            assert quick.is_valid(body) == valid, (answer, body)
            judged[valid] += 1
    assert judged[True] > 20 and judged[False] > 500, judged
