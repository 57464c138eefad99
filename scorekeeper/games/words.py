"""What a ruling or a refusal says, as data: a phrase's code and its values, not its words.

An engine never writes a finished sentence. It declares its phrases once, each a stable
code and its English words (``phrase``, or ``counted`` for words that change with a
number), and says one by calling it with its values::

    REVEALS = phrase("cryptruck.reveals", "{dealer} reveals {card}.")
    ruling = REVEALS(dealer="Ann", card=card)

A value is a name or other text given by the players (kept as it is), a whole number, a
card or anything else that ``said()`` gives a ``Text`` of, a list (``all_of``,
``one_of``), a signed number (``Signed``) or another ``Text``. ``str()`` of a text is its
English words, the same in the log, the exports and the tests; a ``Reader`` gives the
words of another language from its catalog (gettext, the phrase's code as the context)
and its locale's data (lists and numbers by CLDR, through Babel). ``to_json`` is what
the API carries beside the words: the code and the values, so no client parses prose.

The catalogs find the phrases where they are declared: ``phrase`` and ``counted`` are
the keywords the extraction looks for (babel.cfg). ``compiled_catalogs`` gives each
language's catalog to what reads the players' own words back (a card typed "vert 7").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Literal, Protocol, cast, runtime_checkable

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import Translations

# The minus sign (not a hyphen), as score notes and rulings write negative numbers.
MINUS = "\u2212"


@runtime_checkable
class Sayable(Protocol):
    """A value with words of its own, such as a card ("green 7", "vert 7", "緑の7")."""

    def said(self) -> Text: ...


@dataclass(frozen=True)
class Phrase:
    """One thing an engine can say: its stable code and its English words, with
    ``{name}`` where each value goes (str.format). A counted phrase has the words for
    one and for more than one, chosen by its value ``count`` (other languages have their
    own plural rules, CLDR's)."""

    code: str
    english: str
    english_plural: str | None = None

    def __call__(self, **values: object) -> Text:
        if self.english_plural is not None and not isinstance(values.get("count"), int):
            raise TypeError(f"{self.code} is counted: it needs a whole number as count")
        return Text(self, tuple(values.items()))


def phrase(code: str, english: str) -> Phrase:
    """A phrase an engine says: ``code`` names it for good (the API's ``code``), the
    words are its English."""
    return Phrase(code, english)


def counted(code: str, one: str, other: str) -> Phrase:
    """A phrase whose words depend on its value ``count``: "{count} point", "{count} points"."""
    return Phrase(code, one, other)


class Text(str):
    """A phrase said with its values: a ruling, a refusal or a part of one.

    It is a string, its English words, so the log, the exports and every comparison read
    it as they always have; what makes it a Text is that it keeps the phrase and the
    values, for a Reader to say it again in another language.
    """

    phrase: Phrase
    values: tuple[tuple[str, object], ...]

    def __new__(cls, phrase: Phrase, values: tuple[tuple[str, object], ...]) -> Text:
        said = super().__new__(cls, _english_words(phrase, values))
        said.phrase = phrase
        said.values = values
        return said

    def __reduce__(self) -> tuple[type[Text], tuple[Phrase, tuple[tuple[str, object], ...]]]:
        # Kept (a snapshot's state) as what was said, not as its English words alone.
        return (Text, (self.phrase, self.values))

    @property
    def code(self) -> str:
        return self.phrase.code

    def to_json(self) -> dict[str, object]:
        """The code and the values, each as JSON: a card as written ("green 7"), a list
        as a list, a part of the sentence as its own code and values."""
        return {"code": self.code, "values": {name: _json(value) for name, value in self.values}}


@dataclass(frozen=True)
class Listing:
    """Values said as one list: "a, b and c" (all of them), "a, b or c" (one of them) or
    "a, b, c" (each of them, as a list in brackets names them)."""

    items: tuple[object, ...]
    joined_by: Literal["and", "or", "comma"]


def all_of(items: Iterable[object]) -> Listing:
    return Listing(tuple(items), "and")


def one_of(items: Iterable[object]) -> Listing:
    return Listing(tuple(items), "or")


def each_of(items: Iterable[object]) -> Listing:
    return Listing(tuple(items), "comma")


@dataclass(frozen=True)
class Signed:
    """A number as a score note writes it: "7", or the minus sign and "3" for -3."""

    number: int


@dataclass(frozen=True)
class Grouped:
    """A number written with its thousands grouped ("12,500") from ``grouped_from`` on,
    as the game's score sheet writes it; smaller ones stay plain ("9500")."""

    number: int
    grouped_from: int = 10_000


@dataclass(frozen=True)
class Decimal:
    """A number with up to ``places`` decimals, none written when they are zeros: "9.2",
    "8" ("9,2" in French)."""

    number: float
    places: int = 1


def _json(value: object) -> object:
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, Listing):
        return [_json(item) for item in value.items]
    if isinstance(value, Signed | Grouped | Decimal):
        return value.number
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return value
    return str(value)


class Catalog(Protocol):
    """What a Reader reads of a language's catalog (gettext's Translations, whose type
    Babel gives as object)."""

    def pgettext(self, context: str, message: str) -> object: ...

    def npgettext(self, context: str, singular: str, plural: str, num: int) -> object: ...


class _EnglishCatalog:
    """The phrases' own words."""

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, num: int) -> str:
        return singular if num == 1 else plural


class Reader:
    """The words of one language: ``read`` gives a text's sentence for its readers."""

    def __init__(self, locale: Locale, catalog: Catalog) -> None:
        self.locale = locale
        self.catalog = catalog
        self._english = locale.language == "en"

    def read(self, text: Text) -> str:
        if self._english:
            return str.__str__(text)
        return self.words(text.phrase, text.values)

    def words(self, phrase: Phrase, said_values: tuple[tuple[str, object], ...]) -> str:
        """The words of ``phrase`` with its values in this language."""
        values = dict(said_values)
        if phrase.english_plural is None:
            words = str(self.catalog.pgettext(phrase.code, phrase.english))
        else:
            count = values["count"]
            assert isinstance(count, int)
            words = str(
                self.catalog.npgettext(phrase.code, phrase.english, phrase.english_plural, count)
            )
        return words.format_map({name: self.value(value) for name, value in values.items()})

    def value(self, value: object) -> object:
        """A value as this language writes it inside a sentence; a whole number stays a
        number, so a phrase may give it a format ("{points:,}")."""
        kind = type(value)
        if kind is str or kind is int:
            return value
        if isinstance(value, Text):
            return self.read(value)
        if _is_sayable(kind):
            return self.read(cast(Sayable, value).said())
        if isinstance(value, Listing):
            return self.listing(value)
        if isinstance(value, Signed):
            magnitude = self.number(abs(value.number))
            return f"{MINUS}{magnitude}" if value.number < 0 else magnitude
        if isinstance(value, Decimal):
            if self._english:
                return f"{value.number:.{value.places}f}".rstrip("0").rstrip(".")
            return format_decimal(value.number, "0." + "#" * value.places, locale=self.locale)
        if isinstance(value, Grouped):
            if abs(value.number) < value.grouped_from:
                return str(value.number)
            return self.number(value.number)
        return value

    def listing(self, listing: Listing) -> str:
        words = [str(self.value(item)) for item in listing.items]
        if not words:
            return ""
        if listing.joined_by == "comma":
            # The locale's pattern between two items in the middle of a list (CLDR).
            middle = self.locale.list_patterns["standard"]["middle"]
            return functools.reduce(lambda done, word: middle.format(done, word), words)
        if self._english:
            return and_list(words) if listing.joined_by == "and" else or_list(words)
        if listing.joined_by == "and":
            return format_list(words, style="standard", locale=self.locale)
        return format_list(words, style="or", locale=self.locale)

    def number(self, number: int) -> str:
        """A number with its thousands grouped as this language does ("12,500", "12 500")."""
        if self._english:
            return f"{number:,}"
        return format_decimal(number, locale=self.locale)


# Whether a type's values are Sayable, asked once a type: a runtime-checkable protocol's
# own isinstance check walks its members each time, and replaying a long log says
# millions of values.
_SAYABLE_KINDS: dict[type, bool] = {}


def _is_sayable(kind: type) -> bool:
    known = _SAYABLE_KINDS.get(kind)
    if known is None:
        known = _SAYABLE_KINDS[kind] = issubclass(kind, Sayable)
    return known


def and_list(items: Iterable[object]) -> str:
    """ "a", "a and b", "a, b and c": a list (of names, cards…) as an English sentence says it."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def or_list(items: Iterable[object]) -> str:
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


ENGLISH = Reader(Locale("en"), _EnglishCatalog())

# The app's catalogs: a folder per language (its code), as Flask-Babel reads them too.
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


@functools.cache
def compiled_catalogs() -> Mapping[str, Catalog]:
    """Each language's compiled catalog by its code ("fr", "ja"), read once: the languages
    are the folders under ``TRANSLATIONS`` holding a compiled catalog, so a new language's
    catalog is enough. None before the catalogs are compiled (a source tree before
    ``pybabel compile``): English alone is read then."""
    found: dict[str, Catalog] = {}
    folders = sorted(TRANSLATIONS.iterdir()) if TRANSLATIONS.is_dir() else []
    for folder in folders:
        compiled = folder / "LC_MESSAGES" / "messages.mo"
        if compiled.is_file():
            with compiled.open("rb") as file:
                found[folder.name] = Translations(file)
    return MappingProxyType(found)


# Two sentences said one after the other: in English, joined by a space; a language writes
# its own (Japanese with none).
THEN = phrase("sentence.then", "{first} {second}")


def in_turn(first: Text, *others: Text) -> Text:
    """Sentences said one after the other, each joined to all before it by ``THEN``."""
    said = first
    for sentence in others:
        said = THEN(first=said, second=sentence)
    return said


def first_sentence(said: str, written: Callable[[str], str] = str) -> str:
    """What a ruling decided, its first sentence, as a page's one-line headline shows it:
    the first of its sentences (``THEN``) when its English reads so, else the words up to
    their first full stop, as ``written`` writes them (the pages' filters: a card's suit
    symbols). Words already read in their reader's language (not a Text) may be Japanese,
    whose full stop is 。."""
    head = written(_up_to_first_stop(said))
    first: object = said
    while isinstance(first, Text) and first.phrase == THEN:
        first = dict(first.values)["first"]
    if isinstance(first, Text) and first == head:
        return first
    return head


def _up_to_first_stop(said: str) -> str:
    words = str.__str__(said)
    head, stop, _ = words.partition(". ")
    if stop:
        return f"{head}."
    # A Text's words are English: a 。 there is in a value (a name), not a sentence's end.
    if not isinstance(said, Text):
        head, stop, _ = words.partition("。")
        if stop and head:
            return f"{head}。"
    return words


def _english_words(phrase: Phrase, values: tuple[tuple[str, object], ...]) -> str:
    return ENGLISH.words(phrase, values)
