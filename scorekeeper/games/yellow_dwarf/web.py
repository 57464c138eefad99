"""Yellow Dwarf on the web: the card form with its "Called?" step, the end of a round,
and the API's stateless settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import jsonify
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import parse_playing_card
from scorekeeper.games.yellow_dwarf import rules, settlement
from scorekeeper.web.adapters import ApiRoute, AskFirst, GameAdapter
from scorekeeper.web.json_input import json_body, only_fields

if TYPE_CHECKING:
    from scorekeeper import store


def read_form(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "play":
        text = form.get("card", "")
        if form.get("called") in ("1", "0"):
            return {"type": kind, "card": text, "called": form.get("called") == "1"}
        play = view.expected.accepts("play")
        if play is not None and play.choices is not None:
            # "Called?" is asked only of a taker card the engine accepts now: any other
            # card goes on as it is, for the engine to record or refuse with its reason.
            card = parse_playing_card(text, "card")
            accepted = play.cards is None or str(card) in play.cards  # None: any card
            if card in settlement.TAKER_CARDS and accepted:
                raise AskFirst(called_for=str(card))
        return {"type": kind, "card": text}
    if kind == "without":
        return {"type": kind, "rank": form.get("rank", "")} if form.get("rank") else {"type": kind}
    seats = range(len(view.seats))
    if kind == "reveal":
        action: dict[str, object] = {"type": kind, "kept": taker_fates(form)["kept"]}
        if view.state.options.payout == "points":
            action["left"] = [form.get(f"left-{seat}", "").strip() or "0" for seat in seats]
        return action
    if kind == "round":
        winner = form.get("winner", "")
        if not winner:
            raise IllegalAction("Choose the player who went out.", "winner")
        return {
            "type": kind,
            "winner": winner,
            "left": [form.get(f"left-{seat}", "").strip() or "0" for seat in seats],
            **taker_fates(form),
            "grand_opera": form.get("grand_opera") == "1",
        }
    raise IllegalAction(
        "Choose what happened: a card, “without”, the hands or the round's result.", "type"
    )


def taker_fates(form: MultiDict[str, str]) -> dict[str, list[dict[str, object]]]:
    """Each taker card's fate as the form's select says: "kept:2", "called:0", "forgot:1"."""
    fates: dict[str, list[dict[str, object]]] = {"kept": [], "played": []}
    for card in settlement.TAKER_CARDS:
        how, _, seat = form.get(f"taker-{card}", "").partition(":")
        if how == "kept":
            fates["kept"].append({"player": seat, "card": str(card)})
        elif how in ("called", "forgot"):
            fates["played"].append({"player": seat, "card": str(card), "called": how == "called"})
    return fates


def settle() -> Response:
    """Who pays whom at the end of a round, from the hands as they were (no session)."""
    body = json_body()
    only_fields(body, "winner", "trays", "hands", "forgot", "grand_opera", "payout")
    return jsonify(
        settlement.settle(
            body.get("winner"),
            body.get("trays"),
            body.get("hands"),
            body.get("forgot", []),
            body.get("grand_opera", False),
            body.get("payout", "cards"),
        ).to_json()
    )


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    no_correction=(
        "A Yellow Dwarf card cannot be swapped on its own: each card sets the rank due "
        "next and may take a tray. Tap Undo until the mistyped card is gone, then lay it "
        "and the cards after it again."
    ),
    api_routes=(ApiRoute("/judge/yellow-dwarf/settle", "judge_yellow_dwarf_settle", settle),),
)
