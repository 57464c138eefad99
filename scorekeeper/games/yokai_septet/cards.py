"""Yokai Septet's cards: its deck of seven colours and who takes a trick."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.cards import (
    Card,
    TrickWinner,
    coloured_deck,
    parse_plays,
    parse_trump,
    play_list,
    seat_names,
)
from scorekeeper.games.trickplay import (
    PlayLabels,
    highest_trump_text,
    lead_suit_win,
    only_trump_text,
)
from scorekeeper.games.words import phrase

TITLE = phrase("yokai-septet.title", "Yokai Septet")

YOKAI_SEPTET = coloured_deck(
    TITLE(),
    {
        "green": range(1, 8),
        "purple": range(2, 9),
        "pink": range(3, 10),
        "yellow": range(4, 11),
        "black": range(5, 12),
        "red": range(6, 13),
        "blue": range(7, 14),
    },
    aliases={"a": 1, "ace": 1},
)

_GREEN_ONE = Card("green", 1)

GREEN_ONE_WINS = phrase(
    "yokai-septet.green-one-wins", "The {play} takes every trick it is in, whatever the trump."
)


def yokai_septet_trick(
    trump: object, plays: Sequence[object], names: Sequence[str] | None = None
) -> TrickWinner:
    """Who takes a Yokai Septet trick: the green 1, else the highest trump, else the led suit."""
    deck = YOKAI_SEPTET
    trump_colour = parse_trump(deck, trump, deck.colours)
    cards = parse_plays(deck, play_list(plays, deck.title, 3, 4))
    label = PlayLabels(cards, seat_names(names, len(cards)))
    if _GREEN_ONE in cards:
        winner = cards.index(_GREEN_ONE)
        return TrickWinner(
            winner,
            _GREEN_ONE,
            "green-one",
            GREEN_ONE_WINS(play=label(winner)),
        )
    trumps = [i for i, card in enumerate(cards) if card.colour == trump_colour]
    if not trumps:
        return lead_suit_win(cards, label, "suit")
    winner = max(trumps, key=lambda i: cards[i].number)
    if len(trumps) == 1:
        why = only_trump_text(winner, label, "suit")
    else:
        why = highest_trump_text(winner, [i for i in trumps if i != winner], label)
    return TrickWinner(winner, cards[winner], "trump", why)
