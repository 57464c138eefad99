"""Yadokarick on the web: card and size forms, crab moves, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from werkzeug.datastructures import MultiDict

from scorekeeper.games import cards
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import YADOKARICK
from scorekeeper.games.yadokarick import rules
from scorekeeper.web.adapters import AskFirst, CardCorrection, GameAdapter, TrickJudge, card_swap

if TYPE_CHECKING:
    from scorekeeper import store


def card_size(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    """The card tapped and, when the session meets it for the first time, its size.

    The size comes from the form (the size step). The engine lists the cards
    whose size the session does not know (the accepted action's ``sizes``) and
    the store adds the one the deck profile knows: the page asks only when
    neither knows it.
    """
    text = form.get("card", "")
    typed = next((size.strip() for size in form.getlist("size") if size.strip()), "")
    if typed:
        return {"card": text, "size": typed}
    kind = form.get("type", "")
    accepted = view.expected.accepts(kind)
    card = YADOKARICK.parse(text, "card")
    unknown = accepted is not None and str(card) in (accepted.sizes or ())
    if not unknown or (view.deck is not None and view.deck.size_of(card)):
        # Known already, or a move the engine refuses now: it records it or says why not.
        return {"card": text}
    raise AskFirst(size_for=str(card), size_type=kind)


def read_form(form: MultiDict[str, str], view: store.SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind in ("play", "draw"):
        return {"type": kind, **card_size(form, view)}
    if kind == "marker":
        return {"type": kind, "move": form.get("move", "")}
    if kind == "take":
        return {"type": kind, "card": form.get("card", ""), "crab": form.get("crab", "")}
    if kind == "bonus":
        return {"type": kind, "card": form.get("card", "")}
    if kind == "give-up":
        return {"type": kind, "crab": form.get("crab", "")}
    raise IllegalAction("Choose what happened: a card, a marker move or a crab move.", "type")


def carries_size(_view: store.SessionView, event: store.LoggedEvent) -> bool:
    """Whether the event's card comes with its printed size: a card played or drawn (a solo
    take or bonus names a card of the row, whose size is known already)."""
    return event.action["type"] in ("play", "draw")


def unavailable(
    view: store.SessionView, event: store.LoggedEvent, deck: cards.Deck
) -> frozenset[cards.Card]:
    if event.action["type"] in ("take", "bonus"):
        # A solo take or bonus names a card of the row: only cards drawn so far are offered.
        return frozenset(deck.cards()) - rules.played_cards(view.state)
    # The card itself stays on offer: a correction may fix only its size.
    return card_swap(rules.played_cards).unavailable(view, event, deck)


def corrected_size(
    view: store.SessionView, event: store.LoggedEvent, card_text: str, typed: str
) -> dict[str, object]:
    """The size a corrected card carries: typed, kept, or from the deck profile.

    A size belongs to its card, so a different card never inherits the old one.
    """
    if typed:
        return {"size": typed}
    if card_text == event.action.get("card") and "size" in event.action:
        return {"size": event.action["size"]}
    card = YADOKARICK.parse(card_text, "card")
    if card in view.state.sizes:
        # Given again: the corrected event may come before the one that entered it.
        return {"size": view.state.sizes[card]}
    return {"size": view.deck.size_of(card) if view.deck is not None else None}


def replacement(
    view: store.SessionView, event: store.LoggedEvent, form: MultiDict[str, str]
) -> dict[str, object]:
    card = form.get("card", "")
    corrected = {**event.action, "card": card}
    if carries_size(view, event):
        corrected |= corrected_size(view, event, card, form.get("size", "").strip())
    return corrected


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    picker_deck=rules.picker_deck,
    correction=CardCorrection(unavailable, replacement, carries_size),
    judge=TrickJudge(
        "Yadokarick",
        cards.YADOKARICK,
        (3, 4, 5, 6, 7),
        4,
        (),
        cards.yadokarick_trick,
        sizes_from_players=4,
        one_colour_players=3,
    ),
)
