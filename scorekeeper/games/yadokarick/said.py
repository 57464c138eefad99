"""How Yadokarick's rulings put their phrases together: sentences one after another,
lists joined by semicolons, and a card that starts a sentence ("Pink 8").

A ruling is several sentences, as many as the play needs; each is a phrase of the
module that says it, and ``sentences`` chains them, so a reader of another language
reads every one in its words (Japanese sets them side by side, with no space).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.games.cards import Card
from scorekeeper.games.words import THEN, Phrase, Text, each_of, phrase

TITLE = phrase("yadokarick.title", "Yadokarick")()

SEMICOLON = phrase("yadokarick.semicolon-list", "{first}; {second}")

# A card as the first words of a sentence: its colour with a capital letter.
CAPITAL_COLOURS = {
    "green": phrase("yadokarick.colour-green-first", "Green"),
    "pink": phrase("yadokarick.colour-pink-first", "Pink"),
}
CARD_FIRST = phrase("yadokarick.card-first", "{colour} {number}")
# A card and who played it: "green 25 (Ann)".
CARD_OF = phrase("yadokarick.card-of", "{card} ({name})")

TRICK_EXPLAINED = phrase("yadokarick.trick-explained", "Trick {number}: {explanation}")
DISCARDED = phrase("yadokarick.discarded", "Discarded: {cards}.")
NOTHING_DISCARDED = phrase("yadokarick.nothing-discarded", "Nothing is discarded.")


@dataclass(frozen=True)
class OneOrSeveral:
    """Two phrases, for one thing and for several ("collapses", "collapse"), chosen by the
    value ``count``, which neither says: each language words both its own way."""

    one: Phrase
    several: Phrase

    def __call__(self, *, count: int, **values: object) -> Text:
        return (self.one if count == 1 else self.several)(**values)


def chained(parts: Sequence[object], link: Phrase) -> object:
    """The parts said one after another, two at a time by ``link`` ("{first} or {second}")."""
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = link(first=part, second=said)
    return said


def sentences(*parts: str) -> str:
    """The sentences one after another, each a Text or text as given ("" when none)."""
    if not parts:
        return ""
    said = chained(parts, THEN)
    assert isinstance(said, str)
    return said


def semicolon_list(items: Sequence[object]) -> object:
    return chained(items, SEMICOLON) if items else ""


def capital(colour: str) -> Text | str:
    """A colour starting a sentence ("Green")."""
    words = CAPITAL_COLOURS.get(colour)
    return colour.capitalize() if words is None else words()


def card_first(card: Card) -> Text:
    """A card starting a sentence: "Pink 8"."""
    return CARD_FIRST(colour=capital(card.colour), number=card.number)


def discarded_text(cards: Sequence[Card]) -> Text:
    """ "Discarded: green 3, pink 7." (cards listed by commas), or "Nothing is discarded." """
    return DISCARDED(cards=each_of(cards)) if cards else NOTHING_DISCARDED()
