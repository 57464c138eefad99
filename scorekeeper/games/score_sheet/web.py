"""The score sheet on the web: a round's form with a minus toggle per seat, and a round
corrected by typing it again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import MINUS, IllegalAction
from scorekeeper.games.score_sheet import rules
from scorekeeper.web.adapters import GameAdapter

if TYPE_CHECKING:
    from scorekeeper import store


def read_form(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "round":
        typed = [signed_points(form, seat) for seat in range(len(view.seats))]
        # Read here, with the players' names, so a refusal names the player.
        return {"type": kind, "points": list(rules.parse_points(typed, view.seats))}
    if kind == "finish":
        return {"type": kind}
    raise IllegalAction("Choose what happened: a round's points or the end of the game.", "type")


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
    retyped=frozenset({"round"}),
)
