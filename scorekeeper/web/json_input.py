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
    body = None
    if request.is_json:
        try:
            body = json.loads(request.get_data(cache=True))
        except RecursionError:
            abort(400, "The request body nests lists or objects too deeply to be read.")
        except ValueError as error:
            # An object whose number is too long to read is JSON still: say what is wrong.
            if not isinstance(error, json.JSONDecodeError) and "digits" in str(error):
                abort(400, f"The request body is JSON, but {json_error_text(error)}.")
    if not isinstance(body, dict):
        abort(400, NOT_AN_OBJECT)
    return body


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
