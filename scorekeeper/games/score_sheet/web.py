"""The score sheet on the web: a round's form with a minus toggle per seat, and a round
corrected by typing it again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import MINUS, IllegalAction
from scorekeeper.games.score_sheet import rules
from scorekeeper.games.web_interface import ActionsDoc, GameAdapter
from scorekeeper.games.words import phrase

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import SessionView


CHOOSE_WHAT_HAPPENED = phrase(
    "score-sheet.form.choose-what-happened",
    "Choose what happened: a round's points or the end of the game.",
)


def read_form(form: MultiDict[str, str], view: SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "round":
        typed = [signed_points(form, seat) for seat in range(len(view.seats))]
        # Read here, with the players' names, so a refusal names the player.
        return {"type": kind, "points": list(rules.parse_points(typed, view.seats))}
    if kind == "finish":
        return {"type": kind}
    raise IllegalAction(CHOOSE_WHAT_HAPPENED(), "type")


def signed_points(form: MultiDict[str, str], seat: int) -> str:
    """A seat's points as typed, made negative by its minus toggle (a phone's number pad may
    have no minus key); a number typed with its minus sign stays as it is."""
    text = form.get(f"points-{seat}", "").strip()
    if form.get(f"negative-{seat}") and text and not text.startswith(("-", MINUS)):
        return "-" + text
    return text


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_actions=ActionsDoc(
        "One round of a score sheet, or the end of the game (any seat may enter it).",
        {
            "round": (
                "One round's points: a whole number per seat, in seat order (negative "
                "allowed). A refused number names its field as `points.<seat index>`."
            ),
            "finish": (
                "The table stops after at least one round: the best total wins (ties "
                "share). A round reaching the target ends the game without it."
            ),
        },
    ),
    options_description="The score sheet's options; each one left out takes its default.",
    retyped=frozenset({"round"}),
)
