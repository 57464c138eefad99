"""Yokai Septet on the web: the card form, the picker, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

from scorekeeper.games import cards
from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.yokai_septet import rules
from scorekeeper.web.adapters import GameAdapter, TrickJudge, card_swap, read_revoke

if TYPE_CHECKING:
    from scorekeeper import store


def read_form(form: MultiDict[str, str], _view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("trump", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "first-lead":
        return {"type": kind, "seat": parse_whole_number(form.get("seat", ""), "The seat", "seat")}
    if kind == "pass":
        return {"type": "pass"}
    if kind == "result":
        team = form.get("team", "")
        if not team:
            raise IllegalAction("Choose the team that won the round.", "team")
        return {
            "type": "result",
            "team": parse_whole_number(team, "The team", "team"),
            "how": form.get("how", ""),
            "boss": form.getlist("boss"),
        }
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction("Choose what happened: a card, the trump card or a round result.", "type")


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    picker_deck=lambda _state: cards.YOKAI_SEPTET,
    correction=card_swap(rules.played_cards),
    judge=TrickJudge(
        "Yokai Septet",
        cards.YOKAI_SEPTET,
        (3, 4),
        4,
        cards.YOKAI_SEPTET.colours,
        cards.yokai_septet_trick,
    ),
)
