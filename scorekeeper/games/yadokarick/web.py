"""Yadokarick on the web: card and size forms, crab moves, corrections and the trick judge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field
from werkzeug.datastructures import MultiDict

from scorekeeper.games import cards
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.web_interface import (
    ActionsDoc,
    ApiModel,
    AskFirst,
    Card,
    CardCorrection,
    FieldNote,
    GameAdapter,
    TrickJudge,
    WrittenCard,
    card_swap,
    judge_operation,
    may_be_left_out,
)
from scorekeeper.games.words import phrase
from scorekeeper.games.yadokarick import rules
from scorekeeper.games.yadokarick.cards import YADOKARICK, yadokarick_trick
from scorekeeper.games.yadokarick.said import TITLE

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import LoggedEvent, SessionView


def card_size(form: MultiDict[str, str], view: SessionView) -> dict[str, object]:
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


CHOOSE_WHAT_HAPPENED = phrase(
    "yadokarick.choose-what-happened", "Choose what happened: a card, a marker move or a crab move."
)


def read_form(form: MultiDict[str, str], view: SessionView) -> dict[str, object]:
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
    raise IllegalAction(CHOOSE_WHAT_HAPPENED(), "type")


def carries_size(_view: SessionView, event: LoggedEvent) -> bool:
    """Whether the event's card comes with its printed size: a card played or drawn (a solo
    take or bonus names a card of the row, whose size is known already)."""
    return event.action["type"] in rules.SIZED_CARDS.actions


# The card games' own correction, for the cards played or drawn.
_CARD_SWAP = card_swap(rules.played_cards)


def unavailable(view: SessionView, event: LoggedEvent, deck: cards.Deck) -> frozenset[cards.Card]:
    if event.action["type"] in ("take", "bonus"):
        # A solo take or bonus names a card of the row: only cards drawn so far are offered.
        return frozenset(deck.cards()) - rules.played_cards(view.state)
    # The card itself stays on offer: a correction may fix only its size.
    return _CARD_SWAP.unavailable(view, event, deck)


def corrected_size(
    view: SessionView, event: LoggedEvent, card_text: str, typed: str
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
    view: SessionView, event: LoggedEvent, form: MultiDict[str, str]
) -> dict[str, object]:
    card = form.get("card", "")
    corrected = {**event.action, "card": card}
    if carries_size(view, event):
        corrected |= corrected_size(view, event, card, form.get("size", "").strip())
    return corrected


JUDGE = TrickJudge(
    TITLE,
    YADOKARICK,
    (3, 4, 5, 6, 7),
    4,
    (),
    yadokarick_trick,
    sizes_from_players=4,
    one_colour_players=3,
)


# --- In the API document ------------------------------------------------------------


class SizedPlay(ApiModel):
    card: Card
    size: int = may_be_left_out(ge=1)


class YadokarickTrick(ApiModel):
    plays: list[SizedPlay] = Field(
        min_length=min(JUDGE.players),
        max_length=max(JUDGE.players),
        description=(
            "The cards in playing order with the house size printed on each; 3 plays is the "
            "one-colour game, where sizes may be left out."
        ),
    )


class YadokarickRuling(ApiModel):
    movers: list[int] = Field(description="Who may move the size marker, in play order.")
    next_lead: int
    takes: dict[str, list[WrittenCard]] = Field(
        description="Play index (as a string) → the cards that player takes."
    )
    discarded: list[WrittenCard]
    explanation: str


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_actions=ActionsDoc(
        (
            "One thing that happened at a Yadokarick table. Standard and NPC games: play, "
            "marker. Solo: draw, take, bonus, give-up."
        ),
        {
            "play": (
                "The next card of the trick (in the NPC game, on the NPC's turn, the top "
                "card of the draw deck)."
            ),
            "marker": "The lowest card's player moves the size marker (ties: each in play order).",
            "draw": "Solo: a card turned from a deck into the row.",
            "take": "Solo: a row card onto a crab.",
            "bonus": "Solo: a card of the consecutive run just made, scored face up.",
            "give-up": "Solo: a crab's cards go face down as a penalty.",
        },
        {
            "card": FieldNote(
                "A Yadokarick house card, `green 1` to `pink 36`, any case.", ("green 25",)
            ),
            "size": FieldNote(
                "The house size printed on the card: needed the first time the session meets "
                "the card, optional after that (a different size is refused)."
            ),
        },
    ),
    options_description=(
        "1 seat plays the solo game, 2 the game with the NPC crab, 3 to 7 the standard "
        "game. Every option is checked; each mode uses the ones it needs."
    ),
    picker_deck=rules.picker_deck,
    correction=CardCorrection(unavailable, replacement, carries_size),
    judge=JUDGE,
    api_operations=(
        judge_operation(
            "/judge/yadokarick",
            "judgeYadokarick",
            "Who takes what in a Yadokarick trick",
            YadokarickTrick,
            YadokarickRuling,
            (
                {
                    "plays": [
                        {"card": "green 25", "size": 3},
                        {"card": "pink 8", "size": 2},
                        {"card": "green 17", "size": 1},
                        {"card": "pink 29", "size": 4},
                    ]
                },
                {
                    "movers": [1],
                    "next_lead": 1,
                    "takes": {"3": ["pink 29"], "0": ["green 25"]},
                    "discarded": ["pink 8", "green 17"],
                    "explanation": "Pink 8 is the lowest: it moves the size marker and leads next.",
                },
            ),
        ),
    ),
)
