"""Sizes printed on cards, as a session learns them (Yadokarick's house sizes).

The rule sheet lists no sizes, so the table enters a card's size the first
time the session meets it (the app pre-fills it from a deck profile). After
that the session knows it: the size may be left out, and a different size is
refused, so a card never carries two sizes within one session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, ValidationInfo

from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.cards import Card, Deck
from scorekeeper.games.words import phrase

Sizes = Mapping[Card, int]

NO_SIZES: Sizes = MappingProxyType({})
LARGEST_SIZE = 99

SIZE_PRINTED_ON = phrase("house-sizes.size-printed-on", "The size printed on {card}")
SIZE_OUT_OF_RANGE = phrase(
    "house-sizes.out-of-range",
    "The size printed on {card} must be 1 to {largest}; you entered {size}.",
)
ENTER_SIZE = phrase("house-sizes.enter-size", "Enter the size printed on {card}.")
OTHER_SIZE = phrase(
    "house-sizes.other-size",
    "{card} has size {known} in this session; you entered {size}. "
    "Correct the event where it was first entered to change it.",
)


@dataclass(frozen=True)
class SizedCards:
    """A game whose cards carry a printed size the table tells once.

    Its sessions keep the sizes in a deck profile that later sessions with the
    same physical deck start from: ``deck`` is what such a profile describes,
    ``actions`` the action types whose card comes with its size, and ``known``
    reads the sizes a state of the game knows.
    """

    deck: Deck
    actions: frozenset[str]
    known: Callable[[Any], Sizes]


def parse_size(raw: object, card: Card, field: str = "size") -> int | None:
    """A size as typed (None when left blank), checked to be 1 to 99."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    size = parse_whole_number(raw, SIZE_PRINTED_ON(card=card), field)
    if not 1 <= size <= LARGEST_SIZE:
        raise IllegalAction(SIZE_OUT_OF_RANGE(card=card, largest=LARGEST_SIZE, size=size), field)
    return size


def _size_of_card(raw: object, info: ValidationInfo) -> int | None:
    card = info.data.get("card")
    # A card refused is the error to show; the size waits for a card.
    return None if card is None else parse_size(raw, card, "size")


# An action's optional ``size`` of its ``card`` (a field declared before it).
PrintedSize = Annotated[
    Annotated[int, Field(ge=1, le=LARGEST_SIZE)] | None, BeforeValidator(_size_of_card)
]


def learn_size(sizes: Sizes, card: Card, size: int | None, field: str = "size") -> Sizes:
    """``sizes`` knowing ``card``'s size, or IllegalAction if it is missing or contradicts."""
    known = sizes.get(card)
    if size is None:
        if known is None:
            raise IllegalAction(ENTER_SIZE(card=card), field)
        return sizes
    if known is None:
        return MappingProxyType({**sizes, card: size})
    if known != size:
        raise IllegalAction(OTHER_SIZE(card=card, known=known, size=size), field)
    return sizes
