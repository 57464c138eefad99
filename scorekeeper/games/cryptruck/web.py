"""Cryptruck on the web: the card form, the picker, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import MultiDict

from scorekeeper.games import cards
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cryptruck import rules
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


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    picker_deck=lambda _state: cards.CRYPTRUCK,
    picker_colours=picker_colours,
    # The first lead of a round is recorded as the card the dealer reveals.
    correction=card_swap(rules.played_cards, frozenset({"play", "dealer-card"})),
    judge=TrickJudge(
        "Cryptruck",
        cards.CRYPTRUCK,
        (3, 4, 5),
        4,
        cards.CRYPTRUCK.colours,
        cards.cryptruck_trick,
    ),
)
