"""Cryptruck on the web: the card form, the picker, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cryptruck import cards, rules
from scorekeeper.web import openapi_parts as doc
from scorekeeper.web.adapters import GameAdapter, TrickJudge, card_swap, read_revoke

if TYPE_CHECKING:
    from scorekeeper import store


def read_form(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("reveal", "dealer-card", "play"):
        return {"type": kind, "card": form.get("card", "")}
    if kind == "bid":
        return {"type": "bid", "want": form.get("want") == "1"}
    if kind == "give":
        card = form.get("card", "")
        return {"type": "give", "card": card} if card else {"type": "give"}
    if kind == "won":
        seats = range(len(view.seats))
        return {"type": "won", "cards": [form.getlist(f"won-{seat}") for seat in seats]}
    if kind == "revoke":
        return read_revoke(form)
    raise IllegalAction("Choose what happened: a card, a bid or the cards won.", "type")


def picker_colours(state: Any) -> tuple[str, ...]:
    """The colours in play: fewer players leave some colours out of the deck."""
    in_play = {card.colour for card in rules.deck_cards(state)}
    return tuple(colour for colour in cards.CRYPTRUCK.colours if colour in in_play)


JUDGE = TrickJudge(
    "Cryptruck",
    cards.CRYPTRUCK,
    (3, 4, 5),
    4,
    cards.CRYPTRUCK.colours,
    cards.cryptruck_trick,
)


# --- In the API document ------------------------------------------------------------


_COLOURS = ["red", "yellow", "green", "blue", "purple"]


def _cryptruck_schemas() -> doc.Schema:
    return {
        "CryptruckOptions": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "colours": {
                    "description": (
                        "The colours in use, as many as players; empty: the first ones of "
                        "red, yellow, green, blue, purple. Sent as a list (a comma-separated "
                        "string is read too), it always comes back as a list."
                    ),
                    "anyOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string", "enum": _COLOURS}},
                    ],
                    "default": [],
                },
                "first_dealer": doc.option_schema(doc.option_spec(rules.GAME, "first_dealer")),
            },
        },
        **doc.game_actions(
            "Cryptruck",
            rules.GAME,
            "One thing that happened at a Cryptruck table (seats are 0-based).",
            {
                "reveal": "Round start: the revealed undealt card (trump).",
                "dealer-card": "The card the dealer reveals from hand.",
                "bid": "The next player from the dealer's left says want (true) or pass.",
                "give": "The taker gives the dealer a card (the card may be left out).",
                "play": "The next card of the trick.",
                "won": "The fast path: each seat's cards won this round (block cards suffice).",
                "revoke": doc.REVOKE.format(penalty="the revoking player loses `penalty` points"),
            },
            {
                "card": doc.CARD,
                "cards": {"description": "Per seat, its cards won, each written like `blue 13`."},
                "penalty": {"maximum": rules.MAX_PENALTY},
            },
        ),
    }


def api_schemas() -> doc.Schema:
    """The game's schemas in the API document."""
    return {
        **_cryptruck_schemas(),
        "CryptruckTrick": doc.trick_request(
            list(JUDGE.trumps), min(JUDGE.players), max(JUDGE.players)
        ),
    }


def api_paths() -> doc.Schema:
    """The game's own endpoints in the API document."""
    return {
        "/judge/cryptruck": doc.judge_path(
            "judgeCryptruck",
            "Who takes a Cryptruck trick",
            "CryptruckTrick",
            "TrickWinner",
            {"trump": "blue", "plays": ["red 4", "white 3", "blue 3", "red 6"]},
            {
                "winner": 2,
                "card": "blue 3",
                "rule": "trump",
                "explanation": "White 3 and blue 3 tie at 3: the later card wins.",
            },
        ),
    }


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    picker_deck=lambda _state: cards.CRYPTRUCK,
    picker_colours=picker_colours,
    # The first lead of a round is recorded as the card the dealer reveals.
    correction=card_swap(rules.played_cards, frozenset({"play", "dealer-card"})),
    judge=JUDGE,
    forced=lambda state: rules.expected_actions(state).only_card(),
    api_schemas=api_schemas,
    api_paths=api_paths,
)
