"""The API document describes the values an engine lists in what it expects as the games
declare them (``games.listed_values``)."""

from __future__ import annotations

from scorekeeper.games import listed_values
from scorekeeper.web.openapi import openapi_document


def test_the_api_document_says_of_each_listed_value_what_its_game_declares() -> None:
    schema = openapi_document()["components"]["schemas"]["ExpectedAction"]["properties"]
    listed = listed_values()
    assert set(schema) == {"type", *listed}
    for name, kind in listed.items():
        assert schema[name]["description"] == kind.description, name
