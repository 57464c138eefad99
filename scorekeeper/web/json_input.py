"""Reading a JSON request body: one object, with only the fields an endpoint takes."""

from __future__ import annotations

from typing import Any

from flask import abort, request

from scorekeeper.games.base import IllegalAction


def json_body() -> dict[str, Any]:
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        body = None
    if not isinstance(body, dict):
        abort(400, "The request body must be a JSON object (Content-Type: application/json).")
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
