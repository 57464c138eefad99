"""Which parts of a game's state are its history, and what the table needs now instead.

A state keeps everything its game has seen: a Yardkle game every turn, a trick game
every scored round. The rules and the pages read those records; the API's answer about
a session leaves them out, so its size stays the same from the first move to the
20,000th, and a client pages through them (``/sessions/<id>/rounds``).

A game says so in its state class: a field declared ``field(metadata=HISTORY)`` is
history, and a ``now()`` method, where a state has one, returns a record whose fields the
answer carries in their place: what a client needs to show the table now that only the
history held (the round's turns so far, the last round's result).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

# The metadata of a state field that is history.
HISTORY = MappingProxyType({"history": True})

# By state class: its history fields' names, and the class of its now record.
_NAMES: dict[type, tuple[str, ...]] = {}
_NOW: dict[type, type | None] = {}


def is_history(field: dataclasses.Field[Any]) -> bool:
    return bool(field.metadata.get("history"))


def history_names(state_class: type) -> tuple[str, ...]:
    """The names of the history fields of a state class, in declaration order."""
    names = _NAMES.get(state_class)
    if names is None:
        fields = dataclasses.fields(state_class)
        names = _NAMES[state_class] = tuple(f.name for f in fields if is_history(f))
    return names


def now_class(state_class: type) -> type | None:
    """The class of the record a state's ``now()`` returns (None: the state has no now)."""
    if state_class not in _NOW:
        _NOW[state_class] = _now_class(state_class)
    return _NOW[state_class]


def _now_class(state_class: type) -> type | None:
    now = getattr(state_class, "now", None)
    if now is None:
        return None
    returned: Any = typing.get_type_hints(now)["return"]
    if not (isinstance(returned, type) and dataclasses.is_dataclass(returned)):
        raise TypeError(f"{state_class.__qualname__}.now must return a dataclass")
    clash = {f.name for f in dataclasses.fields(returned)} & {
        f.name for f in dataclasses.fields(state_class)
    }
    if clash:
        raise TypeError(f"{returned.__qualname__} repeats fields of its state: {sorted(clash)}")
    return returned


def history_of(state: Any) -> dict[str, Sequence[Any]]:
    """Each history field of a state, by name."""
    return {name: getattr(state, name) for name in history_names(type(state))}
