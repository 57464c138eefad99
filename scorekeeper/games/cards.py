"""Cards and tricks, as the card games share them: reading and writing cards, and the
checks and sentences of a trick.

Cards are written ``<colour> <number>`` ("blue 13") in the coloured decks and
``<rank><suit>`` ("10D", "QS") in the 52-card deck. They are also read as the players of
each language the app has a catalog for type them ("vert 7", "緑の7", "D♠", "♠Q"): the
words are that language's catalog's own, so a new language's catalog is enough.

A coloured deck and the trick rule of a game live in that game's own ``cards`` module
(Yokai Septet, Cryptruck, Yadokarick): each trick rule checks the trick with the helpers
here (known cards, no card played more often than the deck holds it) and says in a
sentence why the winner wins. Rule sheets: shared/rules/ and NOTES.md.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, TypeVar

from scorekeeper.games.base import IllegalAction, is_digits
from scorekeeper.games.words import (
    Phrase,
    Text,
    all_of,
    compiled_catalogs,
    each_of,
    one_of,
    phrase,
)

_LONGEST_SHOWN = 30

# How often a card is played, and how many of it a deck holds, in words up to a few.
_TIMES = {
    2: phrase("card.played-twice", "twice"),
    3: phrase("card.played-three-times", "three times"),
    4: phrase("card.played-four-times", "four times"),
    5: phrase("card.played-five-times", "five times"),
    6: phrase("card.played-six-times", "six times"),
}
PLAYED_TIMES = phrase("card.played-times", "{count} times")
_ONLY = {
    1: phrase("card.only-one", "there is only one"),
    2: phrase("card.only-two", "there are only two"),
    3: phrase("card.only-three", "there are only three"),
    4: phrase("card.only-four", "there are only four"),
    5: phrase("card.only-five", "there are only five"),
    6: phrase("card.only-six", "there are only six"),
    7: phrase("card.only-seven", "there are only seven"),
}
ONLY_SO_MANY = phrase("card.only-so-many", "there are only {count}")
PLAYED_TOO_OFTEN = phrase(
    "card.played-too-often", "“{card}” is played {times} (plays {plays}); {only}."
)
NOT_A_CARD_TEXT = phrase(
    "card.not-text", "{given} is not a card: write a card as text, like “{example}”."
)
ENTER_A_CARD = phrase("card.enter", "Enter a card, like “{example}”.")
NOT_A_CARD = phrase(
    "card.not-a-card", "“{typed}”: not a card; write it like “{example}” (colour, then number)."
)
NO_SUCH_COLOUR = phrase(
    "card.no-such-colour", "“{typed}”: {deck} has no {colour} cards (its colours: {colours})."
)
NOT_A_NUMBER = phrase(
    "card.not-a-number", "“{typed}”: {number} is not a number; write the number in digits."
)
NOT_A_NUMBER_OR_WORDS = phrase(
    "card.not-a-number-or-words",
    "“{typed}”: {number} is not a number; write the number in digits ({words}).",
)
NUMBER_WORDS = phrase("card.number-words", "{words} for the {value}")
ONLY_CARD_OF_COLOUR = phrase(
    "card.only-card-of-colour", "“{typed}”: the only {colour} card in {deck} is the {number}."
)
COLOUR_RUNS = phrase(
    "card.colour-runs", "“{typed}”: {colour} runs from {lowest} to {highest} in {deck}."
)
PLAYS_AS_LIST = phrase(
    "trick.plays-as-list",
    "Enter the plays as a list of cards in the order they were played, lead first.",
)
TRICK_SIZE_OR = phrase(
    "trick.size-or",
    "A {game} trick has {smallest} or {largest} cards, one per player; this one has {count}.",
)
TRICK_SIZE_TO = phrase(
    "trick.size-to",
    "A {game} trick has {smallest} to {largest} cards, one per player; this one has {count}.",
)
SEAT_NAMES_LIST = phrase("trick.seat-names-list", "Seat names are a list, one name per play.")
SEAT_NAME_PER_PLAY = phrase(
    "trick.seat-name-per-play", "Give one seat name per play: {plays} plays, {names} names."
)
SEAT_NAME_TEXT = phrase("trick.seat-name-text", "Each seat name must be text.")
CHOOSE_TRUMP = phrase("trick.choose-trump", "Choose the trump colour: {colours}.")
NOT_A_TRUMP = phrase("trick.not-a-trump", "“{typed}”: the trump in {deck} is {colours}.")


def _times(number: int) -> Text:
    return _TIMES[number]() if number in _TIMES else PLAYED_TIMES(count=number)


def _only(number: int) -> Text:
    return _ONLY[number]() if number in _ONLY else ONLY_SO_MANY(count=number)


def _typed(text: str) -> str:
    """A typed card as it will be quoted back: spaces tidied, long input cut."""
    tidy = " ".join(text.split())
    return tidy if len(tidy) <= _LONGEST_SHOWN else tidy[: _LONGEST_SHOWN - 1] + "…"


def _not_text(raw: object) -> str:
    return repr(raw)[:_LONGEST_SHOWN]


# A Japanese keyboard's full-width letters, digits and signs are the plain ones; other
# digits ("¹", "①", "٣") stay what they are, no digits of a number.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def _folded(text: str) -> str:
    """Typed words as they are compared: full-width forms made plain, lower case, spaces
    tidied."""
    return " ".join(text.translate(_FULL_WIDTH).lower().split())


_Key = TypeVar("_Key", str, int)


def _other_languages_words(
    phrases: Mapping[_Key, Phrase], english: Container[str], written: Callable[[str], str]
) -> Mapping[str, _Key]:
    """What each compiled catalog says for each of ``phrases``, as it is compared
    (``written``), to that phrase's key. A word English has already stays English's; a
    word two languages give to different keys is no one's (refused as an unknown word)."""
    keys_of: dict[str, set[_Key]] = {}
    for catalog in compiled_catalogs().values():
        for key, said in phrases.items():
            word = written(str(catalog.pgettext(said.code, said.english)))
            if word and word not in english:
                keys_of.setdefault(word, set()).add(key)
    return MappingProxyType(
        {word: next(iter(keys)) for word, keys in keys_of.items() if len(keys) == 1}
    )


# --- The coloured decks ------------------------------------------------------


# The colours of the coloured decks as the table says them; a card is its colour and
# number ("green 7", "vert 7", "緑の7").
COLOUR_WORDS = {
    "black": phrase("colour.black", "black"),
    "blue": phrase("colour.blue", "blue"),
    "green": phrase("colour.green", "green"),
    "pink": phrase("colour.pink", "pink"),
    "purple": phrase("colour.purple", "purple"),
    "red": phrase("colour.red", "red"),
    "white": phrase("colour.white", "white"),
    "yellow": phrase("colour.yellow", "yellow"),
}
COLOURED_CARD = phrase("card.coloured", "{colour} {number}")


def colour_words(colour: str) -> Text | str:
    """A colour as the table says it (a colour no deck has stays as written)."""
    words = COLOUR_WORDS.get(colour)
    return colour if words is None else words()


@functools.cache
def other_languages_colours() -> Mapping[str, str]:
    """Each colour word of the other languages, lower case ("vert", "緑"), to the colour
    it names ("green"): what their catalogs say for the ``colour.*`` phrases."""
    return _other_languages_words(COLOUR_WORDS, COLOUR_WORDS, _folded)


@functools.cache
def _colour_number_separators() -> tuple[str, ...]:
    """What the other languages write between a card's colour and its number beside a
    space ("の": "緑の7"), as their ``card.coloured`` says; the longest first. (A language
    writing the number first adds none: its players type the colour first, as here.)"""
    found = set()
    for catalog in compiled_catalogs().values():
        words = str(catalog.pgettext(COLOURED_CARD.code, COLOURED_CARD.english))
        _, colour, after = words.partition("{colour}")
        between, number, _ = after.partition("{number}")
        if colour and number and between.strip():
            found.add(_folded(between))
    return tuple(sorted(found, key=len, reverse=True))


def _colour_named(word: str) -> str:
    """The colour a typed word names in any language ("green", "vert", "緑", "緑の"), its
    English name; English first. A word naming none stays as typed, less a separator
    ending a word of another alphabet ("茶色の")."""
    if word in COLOUR_WORDS:
        return word
    known = other_languages_colours()
    if word in known:
        return known[word]
    for separator in _colour_number_separators():
        bare = word.removesuffix(separator)
        if bare in known:
            return known[bare]
        if bare and bare != word and not word.isascii():
            return bare
    return word


def _after_separator(rest: str) -> tuple[str, bool]:
    """What follows a typed card's colour word without the separator it starts with (a
    space, a hyphen, a language's own "の"), and whether there was one."""
    bare = rest.lstrip(" -")
    for separator in _colour_number_separators():
        if bare.startswith(separator):
            bare = bare.removeprefix(separator).lstrip(" -")
            break
    return bare, bare != rest


@dataclass(frozen=True, order=True)
class Card:
    """A card of a coloured deck: its colour (lower case) and number."""

    colour: str
    number: int

    def __str__(self) -> str:
        return f"{self.colour} {self.number}"

    def said(self) -> Text:
        return COLOURED_CARD(colour=colour_words(self.colour), number=self.number)


# A colour word, then its number in digits or in words; a word is letters of any alphabet.
_NUMBERED = re.compile(r"([^\W\d_]+)[\s\-]*([0-9]+)")
_WORDED = re.compile(r"([^\W\d_]+)[\s\-]+([^\W\d_]+)")
_LETTERS = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Deck:
    """A coloured deck: each colour's numbers, extra copies and number words."""

    title: str
    numbers: Mapping[str, tuple[int, ...]]
    copies: Mapping[Card, int]
    aliases: Mapping[str, int]

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(self.numbers)

    def cards(self) -> tuple[Card, ...]:
        """Every distinct card once, colour by colour, low to high."""
        return tuple(
            Card(colour, number) for colour, numbers in self.numbers.items() for number in numbers
        )

    def in_order(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """``cards`` sorted as ``cards()`` lists them (a card not in the deck goes last)."""
        order = {card: index for index, card in enumerate(self.cards())}
        return tuple(sorted(cards, key=lambda card: order.get(card, len(order))))

    def copies_of(self, card: Card) -> int:
        """How many of this card the deck holds (0 for a card it does not have)."""
        if card.number not in self.numbers.get(card.colour, ()):
            return 0
        return self.copies.get(card, 1)

    @property
    def _example(self) -> Card:
        colour = self.colours[0]
        return Card(colour, self.numbers[colour][-1])

    def _split(self, folded: str) -> tuple[str, str] | None:
        """The colour (its English name when a word of any language names one) and the
        number of a typed card, or None if it has no such shape."""
        for pattern in (_NUMBERED, _WORDED):
            match = pattern.fullmatch(folded)
            if match:
                return _colour_named(match.group(1)), match.group(2)
        # Number words written straight after the colour ("greenace").
        for colour in self.colours:
            rest = folded.removeprefix(colour).strip(" -")
            if folded.startswith(colour) and rest in self.aliases:
                return colour, rest
        return self._split_other_language(folded)

    def _split_other_language(self, folded: str) -> tuple[str, str] | None:
        """A card whose number follows another language's colour word with no space, or
        only that language's separator ("緑のA", "vertA", "緑の七"), or None."""
        words = sorted(other_languages_colours().items(), key=lambda known: -len(known[0]))
        for word, colour in words:
            if not folded.startswith(word):
                continue
            number, separated = _after_separator(folded.removeprefix(word))
            said = is_digits(number) or number in self.aliases
            if said or (separated and _LETTERS.fullmatch(number)):
                return colour, number
        return None

    def _words_for(self, value: int) -> Text:
        words = sorted(word for word, number in self.aliases.items() if number == value)
        said = one_of([word.upper() if len(word) == 1 else word for word in words])
        return NUMBER_WORDS(words=said, value=value)

    def parse(self, text: object, field: str) -> Card:
        """The card written in text ("Blue 13", "blue-13"), or IllegalAction naming field.

        Its colour may be any language's word for it and written as that language writes
        a card ("vert 7", "Vert-7", "緑の7", "緑7"); the card is the same ("green 7")."""
        if not isinstance(text, str):
            raise IllegalAction(
                NOT_A_CARD_TEXT(given=_not_text(text), example=self._example), field
            )
        typed = _typed(text)
        if not typed:
            raise IllegalAction(ENTER_A_CARD(example=self._example), field)
        parts = self._split(_folded(text))
        if parts is None:
            raise IllegalAction(NOT_A_CARD(typed=typed, example=self._example), field)
        colour, number_text = parts
        if colour not in self.numbers:
            raise IllegalAction(
                NO_SUCH_COLOUR(
                    typed=typed,
                    deck=self.title,
                    colour=colour_words(colour),
                    colours=each_of(colour_words(known) for known in self.colours),
                ),
                field,
            )
        if is_digits(number_text):
            number: int | None = _card_number(number_text)
        else:
            number = self.aliases.get(number_text)
        if number is None:
            if not self.aliases:
                raise IllegalAction(NOT_A_NUMBER(typed=typed, number=number_text), field)
            words = all_of(self._words_for(value) for value in sorted(set(self.aliases.values())))
            raise IllegalAction(
                NOT_A_NUMBER_OR_WORDS(typed=typed, number=number_text, words=words), field
            )
        numbers = self.numbers[colour]
        if number not in numbers:
            said_colour = colour_words(colour)
            if len(numbers) == 1:
                reason = ONLY_CARD_OF_COLOUR(
                    typed=typed, colour=said_colour, deck=self.title, number=numbers[0]
                )
            else:
                reason = COLOUR_RUNS(
                    typed=typed,
                    colour=said_colour,
                    lowest=numbers[0],
                    highest=numbers[-1],
                    deck=self.title,
                )
            raise IllegalAction(reason, field)
        return Card(colour, number)


def _card_number(digits: str) -> int:
    # No card has a long number: one too long to convert is simply not in the deck.
    return int(digits) if len(digits) <= 9 else -1


def coloured_deck(
    title: str,
    numbers: Mapping[str, range],
    copies: Mapping[Card, int] | None = None,
    aliases: Mapping[str, int] | None = None,
) -> Deck:
    return Deck(
        title,
        MappingProxyType({colour: tuple(numbers[colour]) for colour in numbers}),
        MappingProxyType(dict(copies or {})),
        MappingProxyType(dict(aliases or {})),
    )


# --- The 52-card deck --------------------------------------------------------

SUITS = ("S", "H", "D", "C")
_SUIT_SYMBOLS = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}
# The symbols alone may also come before the rank ("♠Q"); a letter there is a rank.
_SUIT_FIRST = {symbol: suit for symbol, suit in _SUIT_SYMBOLS.items() if symbol not in SUITS}
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANKS = {
    **{str(rank): rank for rank in range(1, 11)},
    **{name: rank for rank, name in _RANK_NAMES.items()},
}

# A 52-card card as each table writes it: "QS" in English (the API's and the exports'
# letters), "D♠" in French (Dame de pique), "♠Q" in Japanese.
PLAYING_CARD = phrase("card.playing", "{rank}{suit}")
RANK_WORDS = {
    1: phrase("card.rank-ace", "A"),
    11: phrase("card.rank-jack", "J"),
    12: phrase("card.rank-queen", "Q"),
    13: phrase("card.rank-king", "K"),
}
SUIT_WORDS = {
    "S": phrase("card.suit-spades", "S"),
    "H": phrase("card.suit-hearts", "H"),
    "D": phrase("card.suit-diamonds", "D"),
    "C": phrase("card.suit-clubs", "C"),
}
WRITE_IT = phrase("card.playing-write-it", "write it like 10D, QS or 7♦")
PLAYING_NOT_TEXT = phrase("card.playing-not-text", "{given} is not a card: {write_it}.")
ENTER_A_PLAYING_CARD = phrase("card.playing-enter", "Enter a card: {write_it}.")
NOT_A_RANK = phrase("card.playing-not-a-rank", "{rank} is not a rank (A, 2 to 10, J, Q, K)")
NOT_A_SUIT = phrase("card.playing-not-a-suit", "{suit} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)")
NOT_A_PLAYING_CARD = phrase("card.playing-not-a-card", "not a card")
PLAYING_REFUSED = phrase("card.playing-refused", "“{typed}”: {reason}; {write_it}.")


@functools.cache
def other_languages_ranks() -> Mapping[str, int]:
    """Each other language's letters for the ace and the faces, upper case, to their rank
    ("V", "D", "R" in French: Valet, Dame, Roi): what its catalog says for the
    ``card.rank-*`` phrases."""
    return _other_languages_words(RANK_WORDS, _RANKS, lambda word: _folded(word).upper())


def _rank_of(text: str) -> int | None:
    """The rank written in ``text``, in English or in another language's letters."""
    rank = _RANKS.get(text)
    return other_languages_ranks().get(text) if rank is None else rank


def rank_words(rank: int) -> Text | str:
    """A rank as the table writes it: "Q" ("D" in French), a number as its digits."""
    words = RANK_WORDS.get(rank)
    return str(rank) if words is None else words()


@dataclass(frozen=True)
class PlayingCard:
    """A card of the 52-card deck; ace low (1), king 13."""

    rank: int
    suit: str

    def __str__(self) -> str:
        return f"{_RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}"

    def said(self) -> Text:
        """The card in a sentence: "QS" as the API writes it, "D♠" in French, "♠Q" in
        Japanese."""
        return PLAYING_CARD(rank=rank_words(self.rank), suit=SUIT_WORDS[self.suit]())


STANDARD_52 = tuple(PlayingCard(rank, suit) for suit in SUITS for rank in range(1, 14))


_CARD_IN_TEXT = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
_SYMBOL_OF = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class _Drawn(Text):
    """A text whose English words draw the cards with their suit symbols; read in another
    language it is the phrase said again (that language's cards carry their symbols)."""

    def __new__(cls, text: Text) -> _Drawn:
        drawn = str.__new__(cls, _CARD_IN_TEXT.sub(_drawn, str.__str__(text)))
        drawn.phrase = text.phrase
        drawn.values = text.values
        return drawn


def _drawn(found: re.Match[str]) -> str:
    return found[1] + _SYMBOL_OF[found[2]]


def with_suit_symbols(text: str) -> str:
    """``text`` with every 52-card card written with its suit symbol ("9D" → "9♦"), as the
    pages draw the cards; the rulings keep the letters the API and exports use.

    A ``Text`` stays one: its English words are drawn so, and a reader of another
    language reads its phrase as ever (the French "D♠" and the Japanese "♠Q" have their
    symbols already)."""
    if isinstance(text, Text):
        return _Drawn(text)
    return _CARD_IN_TEXT.sub(_drawn, text)


def parse_playing_card(text: object, field: str) -> PlayingCard:
    """A card written like 10D, qs, 7♦, A♠ or ♠Q, or IllegalAction naming field.

    The last character is the suit (a letter S, H, D, C or a symbol ♠ ♥ ♦ ♣), all before
    it the rank: A, 2 to 10, J, Q, K, or another language's letters for the ace and the
    faces, as its catalog writes them (the French table's V, D, R: Valet, Dame, Roi).
    So "D" is a rank only before a suit ("D♠", "DS": the queen of spades, "DD": the
    queen of diamonds) and a suit only at the end ("10D", "VD": the jack of diamonds).
    A suit symbol may come first instead, as Japanese writes a card ("♠Q", "♥10", "♦V");
    a suit letter may not (in "DS" the D is the queen).
    """
    if not isinstance(text, str):
        raise IllegalAction(PLAYING_NOT_TEXT(given=_not_text(text), write_it=WRITE_IT()), field)
    typed = _typed(text)
    # Phones add an emoji variation selector after suit symbols (♥️).
    compact = "".join(text.replace("\ufe0f", "").translate(_FULL_WIDTH).split()).upper()
    if not compact:
        raise IllegalAction(ENTER_A_PLAYING_CARD(write_it=WRITE_IT()), field)
    rank_text, suit_text = compact[:-1], compact[-1]
    rank, suit = _rank_of(rank_text), _SUIT_SYMBOLS.get(suit_text)
    if rank is not None and suit is not None:
        return PlayingCard(rank, suit)
    if compact[0] in _SUIT_FIRST:
        suit, rank_text = _SUIT_FIRST[compact[0]], compact[1:]
        rank = _rank_of(rank_text)
        if rank is not None:
            return PlayingCard(rank, suit)
        reason = NOT_A_RANK(rank=rank_text) if rank_text else NOT_A_PLAYING_CARD()
    elif suit is not None and rank_text:
        reason = NOT_A_RANK(rank=rank_text)
    elif rank is not None and not is_digits(suit_text):
        reason = NOT_A_SUIT(suit=suit_text)
    else:
        reason = NOT_A_PLAYING_CARD()
    raise IllegalAction(PLAYING_REFUSED(typed=typed, reason=reason, write_it=WRITE_IT()), field)


# --- Checking a trick: the helpers of each game's trick rule -----------------


def play_list(plays: object, title: str, smallest: int, largest: int) -> list[object]:
    if isinstance(plays, (str, bytes, Mapping)) or not isinstance(plays, Sequence):
        raise IllegalAction(PLAYS_AS_LIST(), "plays")
    items = list(plays)
    if not smallest <= len(items) <= largest:
        size = TRICK_SIZE_OR if largest == smallest + 1 else TRICK_SIZE_TO
        raise IllegalAction(
            size(game=title, smallest=smallest, largest=largest, count=len(items)), "plays"
        )
    return items


def seat_names(names: object, count: int) -> tuple[str, ...] | None:
    if names is None:
        return None
    if isinstance(names, (str, bytes, Mapping)) or not isinstance(names, Sequence):
        raise IllegalAction(SEAT_NAMES_LIST(), "names")
    listed = tuple(names)
    if len(listed) != count:
        raise IllegalAction(SEAT_NAME_PER_PLAY(plays=count, names=len(listed)), "names")
    if not all(isinstance(name, str) for name in listed):
        raise IllegalAction(SEAT_NAME_TEXT(), "names")
    return tuple(str(name) for name in listed)


def check_copies(deck: Deck, cards: Sequence[Card], field_suffix: str = "") -> None:
    """Refuse a card played more often than the deck holds it, at the first extra play."""
    for index, card in enumerate(cards):
        earlier = [i for i in range(index) if cards[i] == card]
        allowed = deck.copies_of(card)
        if len(earlier) >= allowed:
            at = [i for i, other in enumerate(cards) if other == card]
            raise IllegalAction(
                PLAYED_TOO_OFTEN(
                    card=card, times=_times(len(at)), plays=all_of(at), only=_only(allowed)
                ),
                f"plays.{index}{field_suffix}",
            )


def parse_trump(deck: Deck, raw: object, choices: Sequence[str]) -> str:
    """The trump colour of ``choices`` named in ``raw``, in any language ("red", "Rouge",
    "赤"), as its English name; or IllegalAction naming the field trump."""
    listed = one_of(colour_words(choice) for choice in choices)
    if not isinstance(raw, str) or not raw.strip():
        raise IllegalAction(CHOOSE_TRUMP(colours=listed), "trump")
    colour = _colour_named(_folded(raw))
    if colour not in choices:
        raise IllegalAction(
            NOT_A_TRUMP(typed=_typed(raw), deck=deck.title, colours=listed), "trump"
        )
    return colour


# --- Who takes a trick where a trump or the led colour wins (Yokai Septet, Cryptruck)

Rule = Literal["green-one", "trump", "lead-suit"]


@dataclass(frozen=True)
class TrickWinner:
    """Who takes a trick: the play index (0 = the lead), the card and the deciding rule."""

    winner: int
    card: Card
    rule: Rule
    explanation: str

    def to_json(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "card": str(self.card),
            "rule": self.rule,
            "explanation": self.explanation,
        }


def parse_plays(deck: Deck, raw: list[object]) -> tuple[Card, ...]:
    cards = tuple(deck.parse(play, f"plays.{index}") for index, play in enumerate(raw))
    check_copies(deck, cards)
    return cards
