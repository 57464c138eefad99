"""Cryptruck's cards: its deck, with two white 3s, and who takes a trick."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.base import IllegalAction, and_list
from scorekeeper.games.cards import (
    Card,
    PlayLabels,
    TrickWinner,
    coloured_deck,
    count_word,
    lead_suit_win,
    only_trump_text,
    parse_plays,
    parse_trump,
    play_list,
    seat_names,
)

CRYPTRUCK = coloured_deck(
    "Cryptruck",
    {
        "red": range(1, 7),
        "yellow": range(1, 7),
        "green": range(1, 7),
        "blue": range(1, 7),
        "purple": range(1, 7),
        "white": range(3, 4),
    },
    copies={Card("white", 3): 2},
)

_WHITE = "white"


def _cryptruck_colour_count(cards: Sequence[Card], trump: str) -> None:
    # One colour per player is in the game, so more colours than plays means
    # some card comes from a colour this table left in the box.
    shown = {card.colour for card in cards if card.colour != _WHITE}
    if trump != _WHITE:
        shown.add(trump)
    if len(shown) > len(cards):
        colours = [colour for colour in CRYPTRUCK.colours if colour in shown]
        raise IllegalAction(
            f"A {len(cards)}-player game uses {len(cards)} colours; "
            f"this trick shows {len(colours)}: {and_list(colours)}.",
            "plays",
        )


def _tie_text(cards: Sequence[Card], tied: Sequence[int], label: PlayLabels) -> str:
    if label.names is None and len({cards[i] for i in tied}) == 1:
        return f"the {count_word(len(tied))} {cards[tied[0]]}s"
    return label.all(tied)


def cryptruck_trick(
    trump: object, plays: Sequence[object], names: Sequence[str] | None = None
) -> TrickWinner:
    """Who takes a Cryptruck trick: the highest trump (the later of equals), else the led colour."""
    deck = CRYPTRUCK
    trump_colour = parse_trump(deck, trump, deck.colours)
    cards = parse_plays(deck, play_list(plays, deck.title, 3, 5))
    _cryptruck_colour_count(cards, trump_colour)
    label = PlayLabels(cards, seat_names(names, len(cards)))
    trumps = [i for i, card in enumerate(cards) if card.colour in (trump_colour, _WHITE)]
    if not trumps:
        return lead_suit_win(cards, label, "colour")
    top = max(cards[i].number for i in trumps)
    tied = [i for i in trumps if cards[i].number == top]
    winner = tied[-1]
    if len(trumps) == 1:
        why = only_trump_text(cards, winner, label, "colour")
    elif len(tied) > 1:
        later = "the later card wins" if len(tied) == 2 else "the last of them wins"
        why = f"The highest trump wins, and {_tie_text(cards, tied, label)} tie at {top}: {later}."
    else:
        beaten = [i for i in trumps if i != winner]
        why = f"The highest trump wins: {label(winner)} beats {label.all(beaten)}."
    return TrickWinner(winner, cards[winner], "trump", why)
