"""Yokai Septet on the web: the card form, the picker, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.web_interface import (
    CARD,
    REVOKE,
    ActionsDoc,
    FieldNote,
    GameAdapter,
    TrickJudge,
    TrickWinner,
    card_swap,
    judge_operation,
    read_revoke,
    trick_request,
)
from scorekeeper.games.words import phrase
from scorekeeper.games.yokai_septet import cards, rules

CHOOSE_TEAM = phrase("yokai-septet.choose-team", "Choose the team that won the round.")
CHOOSE_WHAT = phrase(
    "yokai-septet.choose-what", "Choose what happened: a card, the trump card or a round result."
)

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import SessionView


def read_form(form: MultiDict[str, str], _view: SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("trump", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "first-lead":
        return {
            "type": kind,
            "seat": parse_whole_number(form.get("seat", ""), rules.THE_SEAT(), "seat"),
        }
    if kind == "pass":
        return {"type": "pass"}
    if kind == "result":
        team = form.get("team", "")
        if not team:
            raise IllegalAction(CHOOSE_TEAM(), "team")
        return {
            "type": "result",
            "team": parse_whole_number(team, rules.THE_TEAM(), "team"),
            "how": form.get("how", ""),
            "boss": form.getlist("boss"),
        }
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction(CHOOSE_WHAT(), "type")


JUDGE = TrickJudge(
    cards.TITLE(),
    cards.YOKAI_SEPTET,
    (3, 4),
    4,
    cards.YOKAI_SEPTET.colours,
    cards.yokai_septet_trick,
)


YokaiSeptetTrick = trick_request("YokaiSeptetTrick", JUDGE)


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_actions=ActionsDoc(
        "One thing that happened at a Yokai Septet table (4 seats; seats are 0-based).",
        {
            "trump": "The face-up card that starts a round.",
            "first-lead": (
                "Round 1: who holds the green 1 (the blue 13 when the green 1 is the trump "
                "card) and leads."
            ),
            "pass": "Partners passed 3 cards (optional; changes no score).",
            "play": "The next card of the trick, by the seat whose turn it is.",
            "result": "The fast path: a round's winning team, how, and its Boss Yokai at the end.",
            "revoke": REVOKE.format(penalty="penalty points go to the other team"),
        },
        {"card": CARD, "penalty": FieldNote(maximum=rules.MAX_PENALTY)},
    ),
    options_description="Team names; blank shows the partners' names (seats 1 & 3, 2 & 4).",
    picker_deck=lambda _state: cards.YOKAI_SEPTET,
    correction=card_swap(rules.played_cards),
    judge=JUDGE,
    forced=lambda state: rules.expected_actions(state).only_card(),
    api_operations=(
        judge_operation(
            "/judge/yokai-septet",
            "judgeYokaiSeptet",
            "Who takes a Yokai Septet trick",
            YokaiSeptetTrick,
            TrickWinner,
            (
                {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]},
                {
                    "winner": 3,
                    "card": "green 1",
                    "rule": "green-one",
                    "explanation": "The green 1 takes every trick it is in, whatever the trump.",
                },
            ),
        ),
    ),
)
