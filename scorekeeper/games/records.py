"""A frozen dataclass copied with some fields changed, without running its ``__init__``.

``dataclasses.replace`` reads every field, then calls the class's ``__init__``, which
stores each field through ``object.__setattr__`` (the way round a frozen class's own
``__setattr__``), field by field, where copying the instance's attributes does the same
in one step; and every event a session logs makes such copies: the writing worker's and
each worker catching up on it.

``evolve`` copies the attributes instead: every engine makes its next state with it. It
serves the classes whose ``__init__`` only stores its fields (no ``__post_init__``, no
init-only or non-init fields), which it checks once per class, and a type checker reads
it as ``dataclasses.replace``, which it equals.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import TYPE_CHECKING, Any, TypeVar

R = TypeVar("R")

__all__ = ["evolve"]

# The field names of each class evolve has copied, found plain the first time.
_FIELDS: dict[type, frozenset[str]] = {}


def _evolve(record: R, **changes: Any) -> R:
    """``dataclasses.replace(record, **changes)`` for a frozen dataclass whose ``__init__``
    only stores its fields: a TypeError for any other class, or a field it does not have.

    What a ``functools.cached_property`` worked out of the record is not copied: it may
    not hold for the changed fields.
    """
    kind = type(record)
    names = _FIELDS.get(kind) or _plain_fields(kind)
    if not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{kind.__name__} has no field {unknown}")
    copy: R = object.__new__(kind)
    held = copy.__dict__
    held.update(record.__dict__)
    held.update(changes)
    if len(held) != len(names):
        for worked_out in held.keys() - names:
            del held[worked_out]
    return copy


if TYPE_CHECKING:
    # Checked as what it equals: the type checker knows replace's fields and their types.
    from dataclasses import replace as evolve
else:
    evolve = _evolve


def _plain_fields(kind: type) -> frozenset[str]:
    """The field names of ``kind``, once it is known to be a dataclass evolve can copy."""
    if not dataclasses.is_dataclass(kind) or not hasattr(object.__new__(kind), "__dict__"):
        raise TypeError(f"{kind.__name__} is not a dataclass whose instances have a __dict__")
    names = frozenset(field.name for field in dataclasses.fields(kind))
    # Its __init__ takes exactly its fields (an init-only pseudo-field would be one more,
    # a field left out of __init__ one less) and nothing runs after storing them.
    taken = set(inspect.signature(kind.__init__).parameters) - {"self"}
    if taken != names or hasattr(kind, "__post_init__"):
        raise TypeError(f"{kind.__name__}'s __init__ does more than store its fields")
    _FIELDS[kind] = names
    return names
