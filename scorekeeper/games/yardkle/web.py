"""Yardkle on the web: the roll form, and the API's dice calculator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import jsonify
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.yardkle import rules
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


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_routes=(ApiRoute("/yardkle/score", "yardkle_score", score_dice),),
)
