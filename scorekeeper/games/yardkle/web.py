"""Yardkle on the web: the roll form, and the API's dice calculator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import jsonify
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.yardkle import rules
from scorekeeper.web import openapi_parts as doc
from scorekeeper.web.adapters import ApiRoute, GameAdapter
from scorekeeper.web.json_input import json_body, only_fields

if TYPE_CHECKING:
    from scorekeeper import store


def read_form(form: MultiDict[str, str], _view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "roll":
        count = parse_whole_number(form.get("dice_count", ""), "The number of dice", "dice")
        dice: list[object] = []
        for index in range(1, min(count, 6) + 1):
            value = form.get(f"die{index}")
            if not value:
                raise IllegalAction(f"Die {index}: tap the number it shows.", f"die{index}")
            dice.append(value)
        return {"type": "roll", "dice": dice}
    if kind == "keep":
        return {"type": "keep", "dice": form.getlist("keep"), "bank": form.get("then") == "bank"}
    if kind == "bank":
        return {"type": "bank"}
    if kind == "total":
        return {"type": "total", "points": form.get("points", "").strip()}
    raise IllegalAction(
        "Choose what happened: a roll, a set-aside, a bank or a turn total.", "type"
    )


def score_dice() -> Response:
    """What a roll scores, or what the dice set aside from it score (no session)."""
    body = json_body()
    only_fields(body, "dice", "keep")
    dice = body.get("dice")
    if not isinstance(dice, list):
        raise IllegalAction("“dice” must be a list of 1 to 6 dice.", "dice")
    roll = rules.score_roll(dice)
    if "keep" not in body:
        return jsonify(roll.to_json())
    keep = body["keep"]
    if not isinstance(keep, list):
        raise IllegalAction("“keep” must be a list of dice from the roll.", "keep")
    return jsonify(rules.score_keep([int(d) for d in dice], keep).to_json())


# --- In the API document ------------------------------------------------------------


_DIE: doc.Schema = {"type": "integer", "minimum": 1, "maximum": 6}


_SCORE_REQUEST_EXAMPLE: doc.Schema = {"dice": [1, 1, 1, 5, 2, 3]}


_SCORE_EXAMPLE: doc.Schema = {
    "points": 1050,
    "combos": [
        {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
        {"name": "single 5", "dice": [5], "points": 50},
    ],
    "yardkle": False,
}


def _yardkle_schemas() -> doc.Schema:
    return doc.game_actions(
        "Yardkle",
        rules.GAME,
        "One thing that happened at the table, told by its `type`.",
        {
            "roll": "The dice the current player rolled, as they fell.",
            "keep": (
                "Scoring dice set aside from the waiting roll; `bank: true` stops right after "
                "and records the turn."
            ),
            "bank": "Stop and record the turn total.",
            "total": "A whole turn entered as its total (0 for a scoreless turn).",
        },
    )


def api_schemas() -> doc.Schema:
    """The game's schemas in the API document."""
    return {
        **_yardkle_schemas(),
        "YardkleOptions": doc.game_options(
            rules.GAME, "Yardkle's options; each one left out takes its default."
        ),
        "YardkleScoreRequest": {
            "type": "object",
            "required": ["dice"],
            "additionalProperties": False,
            "properties": {
                "dice": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": _DIE,
                    "description": "One roll of 1 to 6 dice.",
                },
                "keep": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": _DIE,
                    "description": (
                        "Dice set aside from the roll: the answer scores exactly these, and "
                        "every one of them must be in the roll and score."
                    ),
                },
            },
        },
        "YardkleScore": {
            "type": "object",
            "required": ["points", "combos", "yardkle"],
            "additionalProperties": False,
            "properties": {
                "points": {"type": "integer", "minimum": 0},
                "combos": {
                    "type": "array",
                    "description": "The combos of the best split, highest points first.",
                    "items": {
                        "type": "object",
                        "required": ["name", "dice", "points"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string"},
                            "dice": {"type": "array", "items": _DIE},
                            "points": {"type": "integer"},
                        },
                    },
                },
                "yardkle": {
                    "type": "boolean",
                    "description": "True when no die scores: the turn is lost.",
                },
            },
        },
    }


def api_paths() -> doc.Schema:
    """The game's own endpoints in the API document."""
    return {
        "/yardkle/score": {
            "post": {
                "operationId": "scoreYardkle",
                "tags": ["judge"],
                "summary": "Score a Yardkle roll",
                "description": (
                    "Stateless, no key. With `dice` only: the best score of the roll (dice "
                    "that score nothing may be left). With `keep`: the points of exactly those "
                    "dice, 422 if a kept die is not in the roll or scores nothing."
                ),
                "requestBody": doc.body(
                    "The roll and, optionally, the dice kept.",
                    "YardkleScoreRequest",
                    _SCORE_REQUEST_EXAMPLE,
                ),
                "responses": {
                    "200": doc.ok(
                        "The points and the combos that make them.", "YardkleScore", _SCORE_EXAMPLE
                    ),
                    **doc.standard_errors(400, 413),
                    "422": doc.error_response(
                        "Bad dice, an unknown field, or kept dice that do not all score.",
                        "A 2 on its own scores nothing.",
                        "keep",
                    ),
                },
            }
        },
    }


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_routes=(ApiRoute("/yardkle/score", "yardkle_score", score_dice),),
    api_schemas=api_schemas,
    api_paths=api_paths,
)
