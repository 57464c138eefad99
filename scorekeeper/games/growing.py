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

A pickled ``GrowingTuple`` (a session's snapshot) is read back lazily: its items stay
pickled, behind those it grows by, until something reads one of them. A worker that
starts from a snapshot and applies the events after it reads none of the older turns.
"""

from __future__ import annotations

import itertools
import pickle
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, get_args, overload

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

T = TypeVar("T")

# Two threads growing the same sequence must not both append to its list.
_growing = threading.Lock()
# The newest items a pickled sequence keeps ready to read (a table's current round of
# turns): the others are unpickled only when one of them is read.
READY = 32


class GrowingTuple(Sequence[T]):
    """An immutable sequence with ``plus``, which grows it in constant time.

    Equal to any ``GrowingTuple`` or tuple holding equal items, in the same order, and
    hashed as that tuple; slices are tuples.
    """

    __slots__ = ("_items", "_length", "_unread")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items: list[T] = list(items)
        self._length = len(self._items)
        # The items before those of ``_items``, still pickled (None: there are none).
        self._unread: _Unread[T] | None = None

    def plus(self, *items: T) -> GrowingTuple[T]:
        """This sequence followed by ``items``."""
        with _growing:
            if len(self._items) == self._length:
                self._items.extend(items)
                return _sharing(self._items, self._unread)
        # Another sequence grew from this one already: its items follow ours in the list.
        return _sharing([*self._items[: self._length], *items], self._unread)

    @property
    def _unread_length(self) -> int:
        return 0 if self._unread is None else self._unread.length

    def _read(self) -> list[T]:
        return [] if self._unread is None else self._unread.items()

    def __len__(self) -> int:
        return self._unread_length + self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError("GrowingTuple index out of range")
        unread = self._unread_length
        return self._items[position - unread] if position >= unread else self._read()[position]

    def __iter__(self) -> Iterator[T]:
        return itertools.chain(self._read(), itertools.islice(self._items, self._length))

    def __reversed__(self) -> Iterator[T]:
        items = self._items
        own = (items[i] for i in range(self._length - 1, -1, -1))
        return itertools.chain(own, reversed(self._read()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GrowingTuple | tuple):
            return NotImplemented
        if len(other) != len(self):
            return False
        if (
            isinstance(other, GrowingTuple)
            and other._items is self._items
            and other._unread is self._unread
        ):
            return True  # the same lists, as long: the same items
        return all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"GrowingTuple({list(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[bytes, int, list[T]]]:
        """Pickled (a state's snapshot) as its own items (its list may hold a longer one's):
        the newest READY as they are, the others pickled apart, to be read when asked
        (those still unread as they were pickled, followed by those read since)."""
        own = self._items[: self._length]
        older, newest = own[: max(len(own) - READY, 0)], own[max(len(own) - READY, 0) :]
        unread = None if self._unread is None else self._unread.pickled
        parts = pickle.dumps((unread, self._unread_length, older), protocol=pickle.HIGHEST_PROTOCOL)
        return _unpickled, (parts, self._unread_length + len(older), newest)

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


def _sharing(items: list[T], unread: _Unread[T] | None = None) -> GrowingTuple[T]:
    """A sequence of the items of ``unread`` and every item of ``items``, holding the list
    itself (not a copy)."""
    grown: GrowingTuple[T] = GrowingTuple.__new__(GrowingTuple)
    grown._items = items
    grown._length = len(items)
    grown._unread = unread
    return grown


class _Unread(Generic[T]):
    """Pickled items, unpickled when first read (and kept then)."""

    __slots__ = ("_read", "length", "pickled")

    def __init__(self, pickled: bytes, length: int) -> None:
        self.pickled = pickled
        self.length = length
        self._read: list[T] | None = None

    def items(self) -> list[T]:
        if self._read is None:
            unread, length, items = pickle.loads(self.pickled)
            earlier = [] if unread is None else _Unread[T](unread, length).items()
            self._read = [*earlier, *items]
        return self._read


def _unpickled(pickled: bytes, length: int, newest: list[T]) -> GrowingTuple[T]:
    """A ``GrowingTuple`` read back from its pickle: its items unread yet but the newest."""
    return _sharing(newest, _Unread(pickled, length))
