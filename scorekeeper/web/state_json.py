"""A game state as JSON, each record of its history converted once.

The API answers a session with ``answer_text(state)``: the state's fields but those its
game declares history, and in their place the fields of its ``now()`` record (see
games.history). ``plain`` and ``text`` write a whole value, history included (the
records a client pages through).

A state is immutable and keeps the records of the states before it (a Yardkle
game's turns, a trick game's tricks): the next state holds the same record
objects plus its new one. So the JSON data and text of each record are made the
first time an answer carries it and reused by every later answer: what a write's
answer converts does not grow with the session, only the joining of the texts.

The text is what ``json.dumps(plain(state), sort_keys=True)`` writes, compact.

What an engine said (a ``Text``: a round's explanation, a last ruling) is written in the
words of the reader ``read_by`` gives while the answer is made, English without one: the
records converted for each other language are kept apart from the English ones.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from json.encoder import encode_basestring_ascii as _string_text  # what json.dumps uses
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeGuard

from scorekeeper.games import cards
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.history import history_names, now_class
from scorekeeper.games.words import Reader, Text

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# Compact JSON with sorted keys, by one encoder (json.dumps builds one for each call).
compact = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode

# Records converted lately, by id: (the record, its data, its text). An entry holds its
# record, so no other object can have that id while the entry is kept. Dropped whole when
# full, which costs one conversion of the records still in use (no lock needed, as a
# least-recently-used order would).
_RECORDS: dict[int, tuple[object, Any, str]] = {}
RECORDS_KEPT = 65536
# The same, of the records converted in the words of another language, by its code.
_RECORDS_IN: dict[str, dict[int, tuple[object, Any, str]]] = {}
# The reader whose words a Text is written in (None: English, the Text's own words).
_READER: ContextVar[Reader | None] = ContextVar("state_json_reader", default=None)
_DATA, _TEXT = itemgetter(1), itemgetter(2)
_SCALARS = frozenset((int, str, bool, float, type(None)))

# Whether instances of a type are records (dataclasses but cards), and their field names.
_RECORD_TYPES: dict[type, bool] = {}
_SORTED_NAMES: dict[type, tuple[str, ...]] = {}
# By state class: the names of its answer's fields, sorted, each with whether it is its
# now record's (rather than the state's own).
_ANSWER_NAMES: dict[type, tuple[tuple[str, bool], ...]] = {}


@contextlib.contextmanager
def _reading(reader: Reader) -> Iterator[None]:
    token = _READER.set(reader)
    try:
        yield
    finally:
        _READER.reset(token)


_AS_IT_IS = contextlib.nullcontext()


def read_by(reader: Reader | None) -> contextlib.AbstractContextManager[None]:
    """While in it, what an engine said is written in ``reader``'s words (None: English)."""
    return _AS_IT_IS if reader is None else _reading(reader)


def _words(said: Text) -> str:
    reader = _READER.get()
    return str.__str__(said) if reader is None else reader.read(said)


def answer_plain(state: Any) -> dict[str, Any]:
    """A game state as the API's answer carries it: its fields but its history, and its
    now record's."""
    return {name: plain(value) for name, value in _answer_items(state)}


def answer_text(state: Any) -> str:
    """``answer_plain(state)`` as compact JSON text with sorted keys."""
    return "{" + ",".join(f'"{name}":{text(value)}' for name, value in _answer_items(state)) + "}"


def _answer_items(state: Any) -> list[tuple[str, Any]]:
    kind = type(state)
    names = _ANSWER_NAMES.get(kind)
    if names is None:
        names = _ANSWER_NAMES[kind] = _answer_names(kind)
    now = state.now() if now_class(kind) is not None else None
    return [(name, getattr(now if of_now else state, name)) for name, of_now in names]


def _answer_names(kind: type) -> tuple[tuple[str, bool], ...]:
    history = history_names(kind)
    own = [(f.name, False) for f in dataclasses.fields(kind) if f.name not in history]
    now = now_class(kind)
    added = [] if now is None else [(f.name, True) for f in dataclasses.fields(now)]
    return tuple(sorted(own + added))


def plain(value: Any) -> Any:
    """A game state as JSON data: cards as written ("blue 9"), sets as sorted lists."""
    if type(value) in _SCALARS:
        return value  # most of a state: answered before the slower checks below
    if isinstance(value, Text):
        return _words(value)
    if isinstance(value, cards.Card | cards.PlayingCard):
        return str(value)
    if is_record(value):
        return {name: plain(getattr(value, name)) for name in _names(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=str)
    if isinstance(value, list | tuple | GrowingTuple):
        if value and is_record(value[0]):
            return list(map(_DATA, _kept(value)))
        return [plain(item) for item in value]
    return value


def text(value: Any) -> str:
    """``plain(value)`` as compact JSON text with sorted keys."""
    # The scalars a state is mostly made of, written as json.dumps writes them, without
    # its call (a state's answer has a few dozen of them).
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return _string_text(value)
    if kind is Text:
        return _string_text(_words(value))
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if is_record(value):
        return "{" + ",".join(f'"{n}":{text(getattr(value, n))}' for n in _names(value)) + "}"
    if kind is tuple or kind is list or kind is GrowingTuple:
        if value and is_record(value[0]):
            return "[" + ",".join(map(_TEXT, _kept(value))) + "]"
        return "[" + ",".join(map(text, value)) + "]"
    return compact(plain(value))


def is_record(value: object) -> TypeGuard[DataclassInstance]:
    """A dataclass instance but a card (a card is written as text)."""
    kind = type(value)
    known = _RECORD_TYPES.get(kind)
    if known is None:
        known = _RECORD_TYPES[kind] = dataclasses.is_dataclass(kind) and not issubclass(
            kind, cards.Card | cards.PlayingCard
        )
    return known


def _names(record: DataclassInstance) -> tuple[str, ...]:
    """A record's field names, sorted (as ``sort_keys`` writes them: ``plain`` builds its
    dicts in that order too), by type."""
    kind = type(record)
    names = _SORTED_NAMES.get(kind)
    if names is None:
        names = _SORTED_NAMES[kind] = tuple(sorted(f.name for f in dataclasses.fields(kind)))
    return names


def _kept(records: Sequence[object]) -> list[tuple[object, Any, str]]:
    """The kept entry of each record of a sequence, those not kept yet converted now."""
    reader = _READER.get()
    converted = _RECORDS if reader is None else _RECORDS_IN.setdefault(reader.locale.language, {})
    # Looked up by the C loops of map: at 5,000 records this is the answer's main cost.
    kept = list(map(converted.get, map(id, records)))
    if None not in kept:
        return kept  # type: ignore[return-value]
    return [
        entry or _converted(record, converted) for entry, record in zip(kept, records, strict=True)
    ]


def _converted(
    record: object, converted: dict[int, tuple[object, Any, str]]
) -> tuple[object, Any, str]:
    data = plain(record)
    entry = (record, data, compact(data))
    if len(converted) >= RECORDS_KEPT:
        converted.clear()
    converted[id(record)] = entry
    return entry
