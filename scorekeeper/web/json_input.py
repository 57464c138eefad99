"""Reading a JSON request body: one object, with only the fields an endpoint takes."""

from __future__ import annotations

import json
from typing import Any

from flask import abort, request

from scorekeeper.export import json_error_text
from scorekeeper.games.base import IllegalAction

NOT_AN_OBJECT = "The request body must be a JSON object (Content-Type: application/json)."


def json_body() -> dict[str, Any]:
    """The body's JSON object; a body that is none is refused with 400 saying why."""
    try:
        # Read through Flask's cache: the text check (inputs.sent_text) may have parsed it.
        body = request.get_json(silent=True)
    except RecursionError:
        abort(400, "The request body nests lists or objects too deeply to be read.")
    if body is None and request.is_json:
        _refuse_a_number_too_long()
    if not isinstance(body, dict):
        abort(400, NOT_AN_OBJECT)
    return body


def _refuse_a_number_too_long() -> None:
    """(A JSON body Flask could not read.) An object whose number is too long to read is
    JSON still: say what is wrong rather than that it is no object."""
    try:
        json.loads(request.get_data(cache=True))
    except ValueError as error:
        if not isinstance(error, json.JSONDecodeError) and "digits" in str(error):
            abort(400, f"The request body is JSON, but {json_error_text(error)}.")


def only_fields(body: dict[str, Any], *allowed: str) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        expected = ", ".join(f"“{name}”" for name in allowed)
        raise IllegalAction(
            f"Unknown field {unknown[0]!r}: this endpoint takes {expected}.", unknown[0]
        )


def plays_of(body: dict[str, Any]) -> list[Any]:
    plays = body.get("plays")
    if not isinstance(plays, list):
        raise IllegalAction("“plays” must be a list of the cards in playing order.", "plays")
    return plays
