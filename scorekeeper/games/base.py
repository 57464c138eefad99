"""The small helpers every game's rules share, at the bottom of the games' floor.

Refusals (``IllegalAction``), options (``OptionSpec``) and the records an engine answers
with (``Standing``, ``ScoreRow``, ``Accepts``, ``Expected``). It imports no other module
of the app but ``words``, what a ruling or refusal says; the engine base every game
builds on is ``engine``.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scorekeeper.games.words import MINUS as MINUS
from scorekeeper.games.words import Text, phrase
from scorekeeper.games.words import and_list as and_list
from scorekeeper.games.words import or_list as or_list

# A "multi" option's value is the names picked, a list in JSON.
OptionValue = int | str | bool | tuple[str, ...]


class IllegalAction(ValueError):
    """An action the rules refuse, and why: ``said``, a phrase said (a Text), read in each
    reader's language where it is shown and given by the API with its code; ``message``
    is its English words.

    ``field`` names the input that is wrong ("dice", "options.target"), so a
    form or a JSON error can point at it.
    """

    def __init__(self, said: Text, field: str | None = None) -> None:
        super().__init__(str(said))
        self.said = said
        self.message = str(said)
        self.field = field


# Refusals every game's options and names share.
SEAT_RANGE = phrase(
    "option.seat-range", "{label} must be a seat from 0 to {highest} (seats count from 0)."
)
ONE_OF = phrase("option.one-of", "{label} must be one of: {choices}.")
AT_LEAST = phrase("option.at-least", "{label} must be at least {minimum}.")
AT_MOST = phrase("option.at-most", "{label} must be at most {maximum}.")
MULTIPLE_OF = phrase("option.multiple-of", "{label} must be a multiple of {step}.")
LIST_OF_NAMES = phrase("option.list-of-names", "{label} must be a list of names.")
NOT_A_CHOICE = phrase("option.not-a-choice", "{label}: {given} is not one of {choices}.")
MUST_BE_TEXT = phrase("text.not-text", "{label} must be text.")
HOLDS_NOT_TEXT = phrase("text.holds-not-text", "{label} contains {problem}; remove it.")
UNPAIRED_SURROGATE = phrase(
    "text.unpaired-surrogate", "an unpaired surrogate ({character}), which is not text"
)
CONTROL_CHARACTER = phrase("text.control-character", "a control character ({character})")
TOO_LONG = phrase("text.too-long", "{label} is {length} characters long; at most {maximum} fit.")
WHOLE_NUMBER = phrase("number.not-whole", "{label} must be a whole number.")
NO_SUCH_FIELD = phrase("field.unknown", "{label} has no field {name}.")
# A field of a request or a file named as a label ("“version”" must be a whole number).
FIELD_LABEL = phrase("field.label", "“{field}”")
NO_SUCH_SEAT = phrase(
    "option.no-such-seat",
    "{label} must be a seat from 0 to {highest} in a {seats}-player game "
    "(seats count from 0); there is no seat {seat}.",
)
OPTION_NAMES = phrase("option.names", "The option {name} must be a list of names.")
OPTION_WHOLE_NUMBER = phrase("option.whole-number", "The option {name} must be a whole number.")
NO_SUCH_OPTION = phrase("option.unknown", "This game has no option called {name}.")


def signed(number: int) -> str:
    """A number as a score note writes it: "7", or MINUS and "3" for -3."""
    return f"{MINUS}{-number}" if number < 0 else str(number)


def capitalised(text: str) -> str:
    """``text`` with its first letter upper case, as a sentence starts."""
    return text[:1].upper() + text[1:]


def plural(number: int, word: str) -> str:
    """ "1 point", "2 points": a count and its noun (plural by adding an s)."""
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def number_range(low: int, high: int) -> str:
    """ "4" when both ends are one number, else "3 to 5": how many seats a game takes."""
    return str(low) if low == high else f"{low} to {high}"


# The longest text option when a game sets none (a team's name fits a seat's).
TEXT_OPTION_MAX_LENGTH = 40


@dataclass(frozen=True)
class OptionSpec:
    """A per-session setting a game offers, with its default.

    For a "text" option, ``maximum`` is its longest length. A "seat" option names a
    seat by its index, counted from 0 as everywhere in the API, up to ``maximum``
    (the game checks it against the seats of the session). A "multi" option
    picks several of ``choices``; its value is their names joined by commas, in
    the order of ``choices`` ("" when none is picked).

    ``summary`` words the option for the new-session page's one-line summary, "{}"
    standing for its value's text (``blank`` when the value is empty); ``seats``, when
    set, is the fewest and most seats of the sessions the option changes anything in.
    """

    name: str
    label: Text
    kind: Literal["int", "choice", "text", "multi", "seat"]
    default: OptionValue
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    summary: str = ""
    blank: str = "none"
    seats: tuple[int, int] | None = None

    def applies(self, seats: int) -> bool:
        """Whether the option changes anything in a session of ``seats`` seats."""
        return self.seats is None or self.seats[0] <= seats <= self.seats[1]

    def parse(self, raw: object) -> OptionValue:
        """The option's value from JSON or form input, or IllegalAction naming it."""
        field = f"options.{self.name}"
        if self.kind == "text":
            return parse_name(raw, self.label, field, self.maximum or TEXT_OPTION_MAX_LENGTH)
        if self.kind == "multi":
            return self._parse_multi(raw, field)
        if self.kind == "seat":
            seat = parse_whole_number(raw, self.label, field)
            if not 0 <= seat <= (self.maximum or 0):
                raise IllegalAction(SEAT_RANGE(label=self.label, highest=self.maximum), field)
            return seat
        if self.kind == "choice":
            values = [value for value, _ in self.choices]
            if raw not in values:
                raise IllegalAction(ONE_OF(label=self.label, choices=", ".join(values)), field)
            return str(raw)
        number = parse_whole_number(raw, self.label, field)
        if self.minimum is not None and number < self.minimum:
            raise IllegalAction(AT_LEAST(label=self.label, minimum=self.minimum), field)
        if self.maximum is not None and number > self.maximum:
            raise IllegalAction(AT_MOST(label=self.label, maximum=self.maximum), field)
        if self.step and number % self.step:
            raise IllegalAction(MULTIPLE_OF(label=self.label, step=self.step), field)
        return number

    def _parse_multi(self, raw: object, field: str) -> tuple[str, ...]:
        picked = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(picked, list | tuple) or not all(isinstance(p, str) for p in picked):
            raise IllegalAction(LIST_OF_NAMES(label=self.label), field)
        values = [value for value, _ in self.choices]
        chosen = {name.strip().lower() for name in picked if name.strip()}
        unknown = sorted(chosen - set(values))
        if unknown:
            raise IllegalAction(
                NOT_A_CHOICE(label=self.label, given=repr(unknown[0]), choices=", ".join(values)),
                field,
            )
        return tuple(value for value in values if value in chosen)


def text_problem(text: str, allowed: frozenset[str] = frozenset()) -> Text | None:
    """What makes ``text`` unfit to store and show, as a phrase, or None.

    Control characters (but those in ``allowed``) and unpaired surrogates, which
    JSON can write but UTF-8, and so the database, cannot hold.
    """
    found = _not_text(allowed).search(text)
    if found is None:
        return None
    character = found.group()
    if unicodedata.category(character) == "Cs":
        return UNPAIRED_SURROGATE(character=f"U+{ord(character):04X}")
    return CONTROL_CHARACTER(character=f"U+{ord(character):04X}")


# Unicode's control characters (category Cc) and surrogates (Cs): every request's text is
# searched for them, so one regular expression does it rather than a loop per character.
_CONTROLS = (*range(0x20), *range(0x7F, 0xA0))


@functools.cache
def _not_text(allowed: frozenset[str]) -> re.Pattern[str]:
    controls = "".join(re.escape(chr(code)) for code in _CONTROLS if chr(code) not in allowed)
    return re.compile(f"[{controls}\ud800-\udfff]")


def parse_name(raw: object, label: Text, field: str, maximum: int) -> str:
    """A one-line name as typed, with its white space squeezed ("" when blank).

    The length counts the text as sent, as a form's maxlength and the API
    document do.
    """
    if not isinstance(raw, str):
        raise IllegalAction(MUST_BE_TEXT(label=label), field)
    problem = text_problem(raw)
    if problem is not None:
        raise IllegalAction(HOLDS_NOT_TEXT(label=label, problem=problem), field)
    if len(raw) > maximum:
        raise IllegalAction(TOO_LONG(label=label, length=len(raw), maximum=maximum), field)
    return " ".join(raw.split())


def is_digits(text: str) -> bool:
    """Whether ``text`` is written in the digits 0 to 9 only.

    ``str.isdigit`` also accepts "¹", "①" or "٣", which ``int`` then refuses.
    """
    return text.isascii() and text.isdigit()


def is_a_number_too_long(error: ValueError) -> bool:
    """Whether json.loads refused a text for a number longer than Python reads: the text
    is JSON still, unlike for a JSONDecodeError."""
    return not isinstance(error, json.JSONDecodeError) and "digits" in str(error)


def json_error_text(error: ValueError) -> str:
    """Why a text is no JSON, as json.loads says it, but in a person's words for a number
    longer than Python reads (its sentence advises a call of Python's own)."""
    if not is_a_number_too_long(error):
        return str(error)
    return f"a number has more than {sys.get_int_max_str_digits()} digits"


def parse_whole_number(raw: object, label: Text, field: str) -> int:
    """A whole number from JSON (int) or a form (digit string)."""
    if isinstance(raw, bool):
        raise IllegalAction(WHOLE_NUMBER(label=label), field)
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and is_digits(raw.strip().removeprefix("-")) and len(raw.strip()) <= 9:
        return int(raw.strip())
    raise IllegalAction(WHOLE_NUMBER(label=label), field)


def check_known_fields(
    entry: Mapping[str, object], known: frozenset[str], label: Text, field: str
) -> None:
    """Refuse a property of the object ``entry`` (``label``, at ``field``; "" for a whole
    body) that is not ``known``, naming it, as a request body's own unknown fields are
    refused."""
    unknown = sorted(str(key) for key in entry if key not in known)
    if unknown:
        name = unknown[0][:20]
        raise IllegalAction(
            NO_SUCH_FIELD(label=label, name=repr(name)), f"{field}.{name}" if field else name
        )


def check_seat_option(seat: int, seats: int, label: Text, field: str) -> None:
    """A "seat" option names a seat of this session, or IllegalAction."""
    if not 0 <= seat < seats:
        raise IllegalAction(
            NO_SUCH_SEAT(label=label, highest=seats - 1, seats=seats, seat=seat), field
        )


def names_option(options: Mapping[str, OptionValue], name: str) -> tuple[str, ...]:
    """A resolved "multi" option: the names picked (``resolve_options`` parsed them)."""
    value = options[name]
    if not isinstance(value, tuple):
        raise IllegalAction(OPTION_NAMES(name=name), f"options.{name}")
    return value


def int_option(options: Mapping[str, OptionValue], name: str) -> int:
    """A resolved whole-number option (``resolve_options`` parsed it)."""
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(OPTION_WHOLE_NUMBER(name=name), f"options.{name}")
    return value


def resolve_options(
    specs: Sequence[OptionSpec], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Every option of a game: the given value, checked, or the default."""
    known = {spec.name for spec in specs}
    for name in given:
        if name not in known:
            raise IllegalAction(NO_SUCH_OPTION(name=repr(name)), f"options.{name}")
    return {
        spec.name: spec.parse(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }


@dataclass(frozen=True)
class Standing:
    """One seat's place: rank 1 is the lead; tied seats share a rank."""

    seat: int
    name: str
    score: int
    rank: int


def rank_by_score(
    names: Sequence[str], scores: Sequence[int], ranked_by: Sequence[int] | None = None
) -> list[Standing]:
    """Standings, highest score first; equal scores share a rank (1, 1, 3). ``ranked_by``,
    if given, ranks the seats instead of their scores (a score sheet's lowest total first)."""
    keys = scores if ranked_by is None else ranked_by
    order = sorted(range(len(names)), key=lambda seat: (-keys[seat], seat))
    standings: list[Standing] = []
    for position, seat in enumerate(order):
        tied_with_previous = position > 0 and keys[seat] == keys[standings[-1].seat]
        rank = standings[-1].rank if tied_with_previous else position + 1
        standings.append(_standing(seat, names[seat], scores[seat], rank))
    return standings


# Every answer about a session lists its standings, and from one version to the next
# most seats keep theirs: a record already made is shared (they are values) rather than
# made again, which cost more than the ranking itself, and its JSON text is kept with it
# (web.state_json keeps each record's text while the record lives).
_standing = functools.lru_cache(maxsize=4096)(Standing)


@dataclass(frozen=True)
class ScoreRow:
    """One seat's result in one round or turn, for the scoreboard and CSV export."""

    round: int
    seat: int
    name: str
    points: int
    total: int
    note: str


@dataclass(frozen=True, init=False)
class Accepts:
    """One action type an engine accepts now, with its accepted values where they are few.

    Each list, given by keyword (``Accepts("play", cards=...)``) under a name its game
    declares (``engine.Listed``), holds every value that can be accepted now: the
    ``cards`` that may be played, the ``choices`` of a question. A name not given (or
    given None) means "any value the rules allow" (a die, a number of points). The JSON
    and ``lists`` keep the order the lists were given in; ``accepts.cards`` reads one
    (None when not listed), as the templates do.
    """

    type: str
    lists: tuple[tuple[str, tuple[OptionValue, ...]], ...]

    def __init__(self, type: str, **lists: tuple[OptionValue, ...] | None) -> None:
        object.__setattr__(self, "type", type)
        listed = tuple((name, values) for name, values in lists.items() if values is not None)
        object.__setattr__(self, "lists", listed)

    def listed(self, name: str) -> tuple[OptionValue, ...] | None:
        """The values listed under ``name``, or None when any value the rules allow will do."""
        return next((values for listed, values in self.lists if listed == name), None)

    def __getattr__(self, name: str) -> tuple[OptionValue, ...] | None:
        # Only names no attribute has reach here; the fields and Python's own probes
        # (copy's, pickle's) must fail as usual rather than read a list.
        if name.startswith("_") or name in ("type", "lists"):
            raise AttributeError(name)
        return self.listed(name)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"type": self.type}
        for name, values in self.lists:
            data[name] = list(values)
        return data


@dataclass(frozen=True)
class Expected:
    """What an engine accepts now: whose move it is (0-based, None when nobody's in
    particular) and every action type it would accept. A finished game accepts nothing,
    but the settling of a revoke flag still open after the last trick."""

    seat: int | None
    actions: tuple[Accepts, ...]

    @property
    def types(self) -> frozenset[str]:
        return frozenset(action.type for action in self.actions)

    def accepts(self, action_type: str) -> Accepts | None:
        return next((action for action in self.actions if action.type == action_type), None)

    def only_card(self) -> dict[str, object] | None:
        """The action the table has no say in: one action type accepted, listing a single
        card and asking nothing (the last card of a round); None while there is a choice."""
        if len(self.actions) != 1:
            return None
        action = self.actions[0]
        cards = action.listed("cards")
        if cards is None or len(cards) != 1 or action.listed("choices") is not None:
            return None
        return {"type": action.type, "card": cards[0]}

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "actions": [action.to_json() for action in self.actions]}


NOTHING_EXPECTED = Expected(None, ())
