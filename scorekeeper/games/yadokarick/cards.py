"""Yadokarick's cards: its deck of two colours, 1 to 36, and what a trick does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from scorekeeper.games.base import IllegalAction, check_known_fields, parse_whole_number
from scorekeeper.games.cards import (
    Card,
    check_copies,
    colour_words,
    coloured_deck,
    play_list,
    seat_names,
)
from scorekeeper.games.house_sizes import SIZE_PRINTED_ON
from scorekeeper.games.words import Text, all_of, phrase
from scorekeeper.games.yadokarick.said import (
    CARD_OF,
    TITLE,
    OneOrSeveral,
    capital,
    card_first,
    discarded_text,
    sentences,
)

YADOKARICK = coloured_deck(TITLE, {"green": range(1, 37), "pink": range(1, 37)})

# What the trick judge says and refuses.
NOT_A_SIZED_PLAY = phrase(
    "yadokarick.judge-not-a-sized-play",
    'Play {index} must be a card with its size, like {{"card": "green 25", "size": 3}}.',
)
PLAY_LABEL = phrase("yadokarick.judge-play", "Play {index}")
ENTER_CARD_OF_PLAY = phrase("yadokarick.judge-enter-card", "Enter the card of play {index}.")
SIZE_MISSING = phrase("yadokarick.judge-size-missing", "The size printed on {card} is missing.")
SIZE_BELOW_ONE = phrase(
    "yadokarick.judge-size-below-one",
    "The size printed on {card} must be at least 1; you entered {size}.",
)
IS_LOWEST = phrase(
    "yadokarick.is-lowest", "{card} is the lowest: it moves the size marker and leads next."
)
TIE_FOR_LOWEST = phrase(
    "yadokarick.tie-for-lowest",
    "{cards} tie for lowest: each moves the size marker, in play order, "
    "and {last}, the last, leads next.",
)
MIXED_COLOURS = phrase(
    "yadokarick.judge-mixed-colours",
    "The 3-player game uses one colour; this trick mixes {colours}.",
)
HIGHEST_TAKES_ALL = phrase(
    "yadokarick.highest-takes-all", "{card} is the highest and takes all {number} cards."
)
ONLY_OF_COLOUR = phrase(
    "yadokarick.only-of-colour",
    "{colour_first}: {card} is the only {colour}, so its player takes it.",
)
ONLY_OF_COLOUR_LOWEST = phrase(
    "yadokarick.only-of-colour-lowest",
    "{colour_first}: {card} is the only {colour}, so its player takes it"
    " and, as the lowest, also moves the size marker.",
)
TAKES_LARGEST_ONE = phrase(
    "yadokarick.takes-largest-one",
    "{colour_first}: {card} is highest and takes {cards}, the largest {colour} (size {size}).",
)
TAKES_LARGEST_SEVERAL = phrase(
    "yadokarick.takes-largest-several",
    "{colour_first}: {card} is highest and takes {cards}, the largest {colour}s (size {size}).",
)
TAKES_LARGEST = OneOrSeveral(TAKES_LARGEST_ONE, TAKES_LARGEST_SEVERAL)


@dataclass(frozen=True)
class YadokarickTrick:
    """A Yadokarick trick's outcome: who moves the size marker, who leads, who takes what."""

    movers: tuple[int, ...]
    next_lead: int
    takes: Mapping[int, tuple[Card, ...]]
    discarded: tuple[Card, ...]
    explanation: str

    def to_json(self) -> dict[str, object]:
        return {
            "movers": list(self.movers),
            "next_lead": self.next_lead,
            "takes": {
                str(taker): [str(card) for card in cards] for taker, cards in self.takes.items()
            },
            "discarded": [str(card) for card in self.discarded],
            "explanation": self.explanation,
        }


# The properties of a play the Yadokarick judge rules on: a card and its printed size.
HOUSE_PLAY_FIELDS = frozenset({"card", "size"})


def _house_card(raw: object, index: int) -> tuple[Card, object]:
    if not isinstance(raw, Mapping):
        raise IllegalAction(NOT_A_SIZED_PLAY(index=index), f"plays.{index}")
    check_known_fields(raw, HOUSE_PLAY_FIELDS, PLAY_LABEL(index=index), f"plays.{index}")
    if raw.get("card") in (None, ""):
        raise IllegalAction(ENTER_CARD_OF_PLAY(index=index), f"plays.{index}.card")
    return YADOKARICK.parse(raw["card"], f"plays.{index}.card"), raw.get("size")


def _blank(raw: object) -> bool:
    """No size given: absent, null, or an empty form field."""
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _house_size(card: Card, raw: object, index: int) -> int:
    field = f"plays.{index}.size"
    if _blank(raw):
        raise IllegalAction(SIZE_MISSING(card=card), field)
    size = parse_whole_number(raw, SIZE_PRINTED_ON(card=card), field)
    if size < 1:
        raise IllegalAction(SIZE_BELOW_ONE(card=card, size=size), field)
    return size


class _Labels:
    """How the explanation names a played card: "pink 8", or "pink 8 (Bo)" with seat
    names; "Pink 8" where it starts a sentence."""

    def __init__(self, cards: Sequence[Card], names: tuple[str, ...] | None) -> None:
        self.cards = cards
        self.names = names

    def __call__(self, index: int, *, first: bool = False) -> Card | Text:
        card = self.cards[index]
        shown: Card | Text = card_first(card) if first else card
        return CARD_OF(card=shown, name=self.names[index]) if self.names else shown

    def all(self, indexes: Sequence[int]) -> object:
        """The cards as a list, starting a sentence."""
        return all_of(self(index, first=not at) for at, index in enumerate(indexes))


def _lowest_text(movers: Sequence[int], label: _Labels) -> Text:
    if len(movers) == 1:
        return IS_LOWEST(card=label(movers[0], first=True))
    return TIE_FOR_LOWEST(cards=label.all(movers), last=label(movers[-1]))


def yadokarick_trick(
    plays: Sequence[object], names: Sequence[str] | None = None
) -> YadokarickTrick:
    """Who moves the size marker, who leads next and who takes which cards of a trick.

    Three plays are the one-colour game (the highest takes every card, sizes
    optional); four to seven use both colours and the printed sizes.
    """
    deck = YADOKARICK
    raw_plays = play_list(plays, deck.title, 3, 7)
    one_colour = len(raw_plays) == 3
    parsed = [_house_card(raw, index) for index, raw in enumerate(raw_plays)]
    cards = tuple(card for card, _ in parsed)
    sizes = [
        None if one_colour and _blank(raw_size) else _house_size(card, raw_size, index)
        for index, (card, raw_size) in enumerate(parsed)
    ]
    check_copies(deck, cards, ".card")
    label = _Labels(cards, seat_names(names, len(cards)))
    colours = [colour for colour in deck.colours if any(card.colour == colour for card in cards)]
    lowest = min(card.number for card in cards)
    movers = tuple(i for i, card in enumerate(cards) if card.number == lowest)
    if one_colour:
        if len(colours) > 1:
            raise IllegalAction(
                MIXED_COLOURS(colours=all_of(colour_words(colour) for colour in colours)), "plays"
            )
        highest = max(range(len(cards)), key=lambda i: cards[i].number)
        return YadokarickTrick(
            movers,
            movers[-1],
            MappingProxyType({highest: cards}),
            (),
            sentences(
                _lowest_text(movers, label),
                HIGHEST_TAKES_ALL(card=label(highest, first=True), number=len(cards)),
            ),
        )
    takes: dict[int, tuple[Card, ...]] = {}
    taken_plays: set[int] = set()
    said: list[str] = [_lowest_text(movers, label)]
    for colour in colours:
        own = [i for i, card in enumerate(cards) if card.colour == colour]
        highest = max(own, key=lambda i: cards[i].number)
        largest = max(sizes[i] or 0 for i in own)
        taken = [i for i in own if sizes[i] == largest]
        takes[highest] = tuple(cards[i] for i in taken)
        taken_plays.update(taken)
        words = {"colour_first": capital(colour), "colour": colour_words(colour)}
        if len(own) == 1:
            only = ONLY_OF_COLOUR_LOWEST if highest in movers else ONLY_OF_COLOUR
            said.append(only(card=label(highest), **words))
        else:
            said.append(
                TAKES_LARGEST(
                    card=label(highest),
                    cards=all_of(cards[i] for i in taken),
                    size=largest,
                    count=len(taken),
                    **words,
                )
            )
    discarded = tuple(card for i, card in enumerate(cards) if i not in taken_plays)
    said.append(discarded_text(discarded))
    return YadokarickTrick(
        movers,
        movers[-1],
        MappingProxyType(dict(sorted(takes.items()))),
        discarded,
        sentences(*said),
    )
