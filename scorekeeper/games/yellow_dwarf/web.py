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
from scorekeeper.web import openapi_parts as doc
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


# --- In the API document ------------------------------------------------------------


_PLAYING_CARD = {
    "type": "string",
    "description": "A card of the 52-card deck as `<rank><suit>`: `10D`, `QS`, `7♦`, `A♠`.",
    "examples": ["10D"],
}


_SEAT = {"description": "A seat index (0 is the first seat)."}


_COUNTS = {
    "description": "Per seat: cards left (payout by cards) or points left (payout by points).",
}


def _yellow_dwarf_schemas() -> doc.Schema:
    return {
        "YellowDwarfOptions": doc.game_options(
            rules.GAME, "Yellow Dwarf's options; each one left out takes its default."
        ),
        **doc.game_actions(
            "YellowDwarf",
            rules.GAME,
            (
                "One thing that happened at a Yellow Dwarf table. Card by card: play, without, "
                "then reveal once someone goes out. Or a whole round at once: round."
            ),
            {
                "play": "The player whose turn it is lays a card.",
                "without": "The player says “without N” and play passes on.",
                "reveal": "After a player went out: the hands, to settle.",
                "round": "A whole round's result, before any card of it was laid.",
            },
            {
                "card": _PLAYING_CARD,
                "called": {
                    "description": (
                        "Taker cards only (and required for them in play): whether the player "
                        "called “who takes” and so collects the tray."
                    )
                },
                "rank": {"description": "The rank said (checked against the one due)."},
                "winner": _SEAT,
                "player": _SEAT,
                "left": _COUNTS,
                "kept": {
                    "description": "Taker cards still in a hand: each pays its tray what it holds."
                },
                "played": {"description": "Taker cards laid: by whom, and whether called."},
            },
        ),
    }


def _settle_schemas() -> doc.Schema:
    taker = {"type": "string", "enum": ["10D", "JC", "QS", "KH", "7D"]}
    playing_card = {
        "type": "string",
        "description": "A card as `<rank><suit>`: `10D`, `QS`, `7♦`, `ac` (ace low).",
    }
    trays = {
        "type": "object",
        "required": ["10D", "JC", "QS", "KH", "7D"],
        "additionalProperties": False,
        "properties": {name: {"type": "integer", "minimum": 0} for name in taker["enum"]},
    }
    return {
        "YellowDwarfSettleRequest": {
            "type": "object",
            "required": ["winner", "trays", "hands"],
            "additionalProperties": False,
            "properties": {
                "winner": {"type": "integer", "minimum": 0, "description": "Who went out."},
                "trays": trays,
                "hands": {
                    "type": "array",
                    "minItems": 3,
                    "maxItems": 8,
                    "description": "Each player's cards left, in seat order; the winner's is [].",
                    "items": {"type": "array", "items": playing_card},
                },
                "forgot": {
                    "type": "array",
                    "default": [],
                    "description": "Taker cards played without calling “who takes”.",
                    "items": {
                        "type": "object",
                        "required": ["player", "card"],
                        "additionalProperties": False,
                        "properties": {"player": {"type": "integer", "minimum": 0}, "card": taker},
                    },
                },
                "grand_opera": {"type": "boolean", "default": False},
                "payout": {"type": "string", "enum": ["cards", "points"], "default": "cards"},
            },
        },
        "YellowDwarfSettlement": {
            "type": "object",
            "required": ["chips", "trays", "explanation"],
            "additionalProperties": False,
            "properties": {
                "chips": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "Each player's change in chips (with the trays' gain: 0).",
                },
                "trays": trays,
                "explanation": {"type": "string"},
            },
        },
    }


def api_schemas() -> doc.Schema:
    """The game's schemas in the API document."""
    return {
        **_yellow_dwarf_schemas(),
        **_settle_schemas(),
    }


def api_paths() -> doc.Schema:
    """The game's own endpoints in the API document."""
    return {
        "/judge/yellow-dwarf/settle": doc.judge_path(
            "settleYellowDwarf",
            "Who pays whom at the end of a Yellow Dwarf round",
            "YellowDwarfSettleRequest",
            "YellowDwarfSettlement",
            {
                "winner": 0,
                "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
                "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
                "forgot": [{"player": 1, "card": "JC"}],
                "grand_opera": False,
                "payout": "cards",
            },
            {
                "chips": [5, -26, -14, -1],
                "trays": {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20},
                "explanation": "Player 0 went out: player 1 pays 2 (2 cards), …",
            },
        ),
    }


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    no_correction=(
        "A Yellow Dwarf card cannot be swapped on its own: each card sets the rank due "
        "next and may take a tray. Tap Undo until the mistyped card is gone, then lay it "
        "and the cards after it again."
    ),
    forced=rules.forced_action,
    api_routes=(ApiRoute("/judge/yellow-dwarf/settle", "judge_yellow_dwarf_settle", settle),),
    api_schemas=api_schemas,
    api_paths=api_paths,
)
