"""Yardkle on the web: the roll form, and the API's dice calculator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field
from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.web_interface import (
    ActionsDoc,
    ApiModel,
    ApiOperation,
    ApiRoute,
    GameAdapter,
    Refusal,
    json_body,
    only_fields,
)
from scorekeeper.games.words import phrase
from scorekeeper.games.yardkle import rules

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import SessionView


DICE_COUNT_LABEL = phrase("yardkle.form.number-of-dice", "The number of dice")
TAP_THE_DIE = phrase("yardkle.form.tap-the-die", "Die {position}: tap the number it shows.")
CHOOSE_WHAT_HAPPENED = phrase(
    "yardkle.form.choose-what-happened",
    "Choose what happened: a roll, a set-aside, a bank or a turn total.",
)
DICE_NOT_A_LIST = phrase("yardkle.api.dice-not-a-list", "“dice” must be a list of 1 to 6 dice.")
KEEP_NOT_A_LIST = phrase(
    "yardkle.api.keep-not-a-list", "“keep” must be a list of dice from the roll."
)


def read_form(form: MultiDict[str, str], _view: SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "roll":
        count = parse_whole_number(form.get("dice_count", ""), DICE_COUNT_LABEL(), "dice")
        dice: list[object] = []
        for index in range(1, min(count, 6) + 1):
            value = form.get(f"die{index}")
            if not value:
                raise IllegalAction(TAP_THE_DIE(position=index), f"die{index}")
            dice.append(value)
        return {"type": "roll", "dice": dice}
    if kind == "keep":
        return {"type": "keep", "dice": form.getlist("keep"), "bank": form.get("then") == "bank"}
    if kind == "bank":
        return {"type": "bank"}
    if kind == "total":
        return {"type": "total", "points": form.get("points", "").strip()}
    raise IllegalAction(CHOOSE_WHAT_HAPPENED(), "type")


def refill(action: Mapping[str, Any]) -> dict[str, str]:
    """A roll's dice as its form posts them (``die1``…): an undone roll comes back as it
    was, so a wrong die costs one tap. Only a roll: the set-aside form marks its dice."""
    if action["type"] != "roll":
        return {}
    dice = {f"die{index}": str(face) for index, face in enumerate(action["dice"], start=1)}
    return {"type": "roll", **dice}


def score_dice() -> dict[str, object]:
    """What a roll scores, or what the dice set aside from it score (no session): the
    answer as data, its combos' names phrases (the API writes them in the asked
    language)."""
    body = json_body()
    only_fields(body, "dice", "keep")
    dice = body.get("dice")
    if not isinstance(dice, list):
        raise IllegalAction(DICE_NOT_A_LIST(), "dice")
    roll = rules.score_roll(dice)
    if "keep" not in body:
        return roll.to_json()
    keep = body["keep"]
    if not isinstance(keep, list):
        raise IllegalAction(KEEP_NOT_A_LIST(), "keep")
    return rules.score_keep([int(d) for d in dice], keep).to_json()


# --- In the API document ------------------------------------------------------------


Die = Annotated[int, Field(ge=1, le=6)]


class YardkleScoreRequest(ApiModel):
    dice: list[Die] = Field(min_length=1, max_length=6, description="One roll of 1 to 6 dice.")
    keep: list[Die] = Field(
        default_factory=list,
        min_length=1,
        max_length=6,
        description=(
            "Dice set aside from the roll: the answer scores exactly these, and every one of "
            "them must be in the roll and score."
        ),
    )


class Combo(ApiModel):
    name: str
    dice: list[Die]
    points: int


class YardkleScore(ApiModel):
    points: int = Field(ge=0)
    combos: list[Combo] = Field(description="The combos of the best split, highest points first.")
    yardkle: bool = Field(description="True when no die scores: the turn is lost.")


SCORE = ApiOperation(
    path="/yardkle/score",
    operation_id="scoreYardkle",
    summary="Score a Yardkle roll",
    description=(
        "Stateless, no key. With `dice` only: the best score of the roll (dice that score "
        "nothing may be left). With `keep`: the points of exactly those dice, 422 if a kept "
        "die is not in the roll or scores nothing."
    ),
    request=YardkleScoreRequest,
    request_description="The roll and, optionally, the dice kept.",
    request_example={"dice": [1, 1, 1, 5, 2, 3]},
    answer=YardkleScore,
    answer_description="The points and the combos that make them.",
    answer_example={
        "points": 1050,
        "combos": [
            {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
            {"name": "single 5", "dice": [5], "points": 50},
        ],
        "yardkle": False,
    },
    refusal=Refusal(
        "Bad dice, an unknown field, or kept dice that do not all score.",
        "A 2 on its own scores nothing.",
        "keep",
    ),
)


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    refill=refill,
    api_actions=ActionsDoc(
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
    ),
    options_description="Yardkle's options; each one left out takes its default.",
    api_routes=(ApiRoute(SCORE.path, "yardkle_score", score_dice),),
    api_operations=(SCORE,),
)
