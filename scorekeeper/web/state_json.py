"""A game state as JSON, each record of its history converted once.

A state is immutable and keeps the records of the states before it (a Yardkle
game's turns, a trick game's tricks): the next state holds the same record
objects plus its new one. So the JSON data and text of each record are made the
first time an answer carries it and reused by every later answer: what a write's
answer converts does not grow with the session, only the joining of the texts.

The text is what ``json.dumps(plain(state), sort_keys=True)`` writes, compact.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from scorekeeper.games import cards

COMPACT = {"separators": (",", ":"), "sort_keys": True}

# Records converted lately, by identity: (the record, its data, its text). An entry holds
# its record, so the id stays its own. Dropped whole when full, which costs one conversion
# of the records still in use (a dict read needs no lock; an LRU's order would).
_RECORDS: dict[int, tuple[object, Any, str]] = {}
RECORDS_KEPT = 65536


def plain(value: Any) -> Any:
    """A game state as JSON data: cards as written ("blue 9"), sets as sorted lists."""
    if isinstance(value, cards.Card | cards.PlayingCard):
        return str(value)
    if is_record(value):
        return {
            field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=str)
    if isinstance(value, list | tuple):
        return [_converted(item)[0] if is_record(item) else plain(item) for item in value]
    return value


def text(value: Any) -> str:
    """``plain(value)`` as compact JSON text with sorted keys."""
    if is_record(value):
        fields = sorted(dataclasses.fields(value), key=lambda field: field.name)
        return "{" + ",".join(f'"{f.name}":{text(getattr(value, f.name))}' for f in fields) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_converted(i)[1] if is_record(i) else text(i) for i in value) + "]"
    return json.dumps(plain(value), **COMPACT)  # type: ignore[arg-type]


def is_record(value: object) -> bool:
    """A dataclass instance but a card (a card is written as text)."""
    return dataclasses.is_dataclass(value) and not isinstance(
        value, type | cards.Card | cards.PlayingCard
    )


def _converted(record: object) -> tuple[Any, str]:
    """The data and text of a record in a sequence, made once."""
    kept = _RECORDS.get(id(record))
    if kept is not None and kept[0] is record:
        return kept[1], kept[2]
    data = plain(record)
    made = json.dumps(data, **COMPACT)  # type: ignore[arg-type]
    if len(_RECORDS) >= RECORDS_KEPT:
        _RECORDS.clear()
    _RECORDS[id(record)] = (record, data, made)
    return data, made
