"""Cryptruck's cards: its deck, with two white 3s, and who takes a trick."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import (
    Card,
    TrickWinner,
    colour_words,
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
from scorekeeper.games.words import Listing, Text, all_of, phrase

TITLE = phrase("cryptruck.title", "Cryptruck")
TOO_MANY_COLOURS = phrase(
    "cryptruck.too-many-colours",
    "A {count}-player game uses {count} colours; this trick shows {shown}: {colours}.",
)
BOTH_COPIES = phrase("cryptruck.both-copies", "the two {card}s")
TIE_LATER = phrase(
    "cryptruck.tie-later",
    "The highest trump wins, and {tied} tie at {number}: the later card wins.",
)
TIE_LAST = phrase(
    "cryptruck.tie-last",
    "The highest trump wins, and {tied} tie at {number}: the last of them wins.",
)

CRYPTRUCK = coloured_deck(
    TITLE(),
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
        shown_colours = all_of(colour_words(colour) for colour in colours)
        raise IllegalAction(
            TOO_MANY_COLOURS(count=len(cards), shown=len(colours), colours=shown_colours), "plays"
        )


def _tie_text(cards: Sequence[Card], tied: Sequence[int], label: PlayLabels) -> Text | Listing:
    # The same card twice: only the white 3 has two copies.
    if label.names is None and len({cards[i] for i in tied}) == 1 and len(tied) == 2:
        return BOTH_COPIES(card=cards[tied[0]])
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
        why = only_trump_text(winner, label, "colour")
    elif len(tied) > 1:
        later = TIE_LATER if len(tied) == 2 else TIE_LAST
        why = later(tied=_tie_text(cards, tied, label), number=top)
    else:
        why = highest_trump_text(winner, [i for i in trumps if i != winner], label)
    return TrickWinner(winner, cards[winner], "trump", why)
