"""An immutable sequence that grows by appending without copying what it holds.

A session's log and a Yardkle game's turns grow by one item with every event, and
each version keeps its own: with tuples, every event copied the whole history, so
an append cost more the longer the game (at a thousand events, copying and freeing
the copies touched every event's memory, several times per write and again in every
worker catching up).

A ``GrowingTuple`` shares one list with the sequences it grew from: each holds the
list and how many of its items are its own. Growing the newest one appends to the
list; growing an older one (an undo's branch, a write that lost the race) copies its
items first, so no sequence ever sees another's items.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar, get_args, overload

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

T = TypeVar("T")

# Two threads growing the same sequence must not both append to its list.
_growing = threading.Lock()


class GrowingTuple(Sequence[T]):
    """An immutable sequence with ``plus``, which grows it in constant time.

    Equal to any ``GrowingTuple`` or tuple holding equal items, in the same order, and
    hashed as that tuple; slices are tuples.
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._length = len(self._items)

    def plus(self, *items: T) -> GrowingTuple[T]:
        """This sequence followed by ``items``."""
        with _growing:
            if len(self._items) == self._length:
                self._items.extend(items)
                return _sharing(self._items)
        # Another sequence grew from this one already: its items follow ours in the list.
        return GrowingTuple(itertools.chain(self, items))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[i] for i in range(*index.indices(self._length)))
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("GrowingTuple index out of range")
        return self._items[position]

    def __iter__(self) -> Iterator[T]:
        return itertools.islice(self._items, self._length)

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        return (items[i] for i in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GrowingTuple | tuple):
            return NotImplemented
        if len(other) != self._length:
            return False
        if isinstance(other, GrowingTuple) and other._items is self._items:
            return True  # the same list, as long: the same items
        return all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"GrowingTuple({list(self)!r})"

    def __reduce__(self) -> tuple[type[GrowingTuple[T]], tuple[list[T]]]:
        """Pickled (a state's snapshot) as its own items: its list may hold a longer one's."""
        return GrowingTuple, (list(self),)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """Described as the tuple of its items: a state's schema (the API's) is pydantic's."""
        item = get_args(source)[0] if get_args(source) else Any
        items = handler(tuple[item, ...])  # type: ignore[valid-type]
        return core_schema.no_info_after_validator_function(
            cls,
            items,
            serialization=core_schema.plain_serializer_function_ser_schema(
                tuple, return_schema=items
            ),
        )


def _sharing(items: list[T]) -> GrowingTuple[T]:
    """A sequence of every item of ``items``, holding the list itself (not a copy)."""
    grown: GrowingTuple[T] = GrowingTuple.__new__(GrowingTuple)
    grown._items = items
    grown._length = len(items)
    return grown
