"""Cryptruck on the web: the card form, the picker, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cryptruck import cards, rules
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

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import SessionView

CHOOSE_WHAT = phrase(
    "cryptruck.choose-what", "Choose what happened: a card, a bid or the cards won."
)


def read_form(form: MultiDict[str, str], view: SessionView) -> dict[str, object]:
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
    raise IllegalAction(CHOOSE_WHAT(), "type")


def picker_colours(state: Any) -> tuple[str, ...]:
    """The colours in play: fewer players leave some colours out of the deck."""
    in_play = {card.colour for card in rules.deck_cards(state)}
    return tuple(colour for colour in cards.CRYPTRUCK.colours if colour in in_play)


JUDGE = TrickJudge(
    cards.TITLE(),
    cards.CRYPTRUCK,
    (3, 4, 5),
    4,
    cards.CRYPTRUCK.colours,
    cards.cryptruck_trick,
)


CryptruckTrick = trick_request("CryptruckTrick", JUDGE)


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_actions=ActionsDoc(
        "One thing that happened at a Cryptruck table (seats are 0-based).",
        {
            "reveal": "Round start: the revealed undealt card (trump).",
            "dealer-card": "The card the dealer reveals from hand.",
            "bid": "The next player from the dealer's left says want (true) or pass.",
            "give": "The taker gives the dealer a card (the card may be left out).",
            "play": "The next card of the trick.",
            "won": "The fast path: each seat's cards won this round (block cards suffice).",
            "revoke": REVOKE.format(penalty="the revoking player loses `penalty` points"),
        },
        {
            "card": CARD,
            "cards": FieldNote("Per seat, its cards won, each written like `blue 13`."),
            "penalty": FieldNote(maximum=rules.MAX_PENALTY),
        },
    ),
    picker_deck=lambda _state: cards.CRYPTRUCK,
    picker_colours=picker_colours,
    # The first lead of a round is recorded as the card the dealer reveals.
    correction=card_swap(rules.played_cards, frozenset({"play", "dealer-card"})),
    judge=JUDGE,
    forced=lambda state: rules.expected_actions(state).only_card(),
    api_operations=(
        judge_operation(
            "/judge/cryptruck",
            "judgeCryptruck",
            "Who takes a Cryptruck trick",
            CryptruckTrick,
            TrickWinner,
            (
                {"trump": "blue", "plays": ["red 4", "white 3", "blue 3", "red 6"]},
                {
                    "winner": 2,
                    "card": "blue 3",
                    "rule": "trump",
                    "explanation": "White 3 and blue 3 tie at 3: the later card wins.",
                },
            ),
        ),
    ),
)
