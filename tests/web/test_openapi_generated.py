"""The generated API document: every route of the app in it, every game's options schema
made from the game's own option specs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator

from scorekeeper.games import GAMES
from scorekeeper.games.base import TEXT_OPTION_MAX_LENGTH, OptionSpec
from scorekeeper.web.openapi_parts import schema_name

API = "/api/v1"


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    served: dict[str, Any] = client.get(f"{API}/openapi.json").get_json()
    return served


def test_no_route_under_api_is_missing_from_the_document(
    app: Flask, document: dict[str, Any]
) -> None:
    documented = {
        (method.upper(), API + path) for path, item in document["paths"].items() for method in item
    }
    routed = {
        (method, re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }
    assert len(routed) >= 20
    assert sorted(routed - documented) == []


def json_value(value: object) -> object:
    """An option's value as the API sends it: a "multi" option's names as a list."""
    return list(value) if isinstance(value, tuple) else value


def expected_bounds(spec: OptionSpec) -> dict[str, Any]:
    """What the schema of an option must say of the values it takes, from its spec."""
    choices = [value for value, _ in spec.choices]
    if spec.kind == "choice":
        return {"enum": choices}
    if spec.kind == "multi":
        return {"anyOf": [{}, {"items": {"enum": choices}}]}
    if spec.kind == "text":
        return {"maxLength": spec.maximum or TEXT_OPTION_MAX_LENGTH}
    if spec.kind == "seat":
        return {"minimum": 0, "maximum": spec.maximum}
    bounds = {"minimum": spec.minimum, "maximum": spec.maximum, "multipleOf": spec.step}
    return {key: value for key, value in bounds.items() if value is not None}


def without_types(schema: Any) -> Any:
    """The schema with its "type" keywords left out: the bounds alone."""
    if isinstance(schema, list):
        return [without_types(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: without_types(value) for key, value in schema.items() if key != "type"}


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_games_options_schema_takes_its_defaults_and_has_its_specs_bounds(
    slug: str, document: dict[str, Any]
) -> None:
    schema = document["components"]["schemas"][schema_name(slug, "Options")]
    specs = GAMES[slug].options
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {spec.name for spec in specs}
    defaults = {spec.name: json_value(spec.default) for spec in specs}
    assert list(Draft202012Validator(schema).iter_errors(defaults)) == []
    for spec in specs:
        option = schema["properties"][spec.name]
        assert option["default"] == json_value(spec.default), spec.name
        assert spec.help in option["description"], spec.name
        described = without_types(option)
        for keyword, bound in expected_bounds(spec).items():
            assert described.get(keyword) == bound, (spec.name, keyword)
        if spec.kind in ("int", "seat") and spec.maximum is not None:
            too_many = {spec.name: spec.maximum + 1}
            assert list(Draft202012Validator(schema).iter_errors(too_many)), spec.name
