"""GrowingTuple: an immutable sequence whose growth copies nothing, and whose older
versions never see what a newer one added."""

from __future__ import annotations

import pickle
import threading
from dataclasses import dataclass

import pytest
from pydantic import TypeAdapter

from scorekeeper.games.growing import GrowingTuple


def test_growing_the_newest_sequence_shares_its_items_and_leaves_it_as_it_was() -> None:
    first = GrowingTuple(["a", "b"])
    second = first.plus("c")
    third = second.plus("d", "e")
    assert list(first) == ["a", "b"] and len(first) == 2
    assert list(second) == ["a", "b", "c"] and len(second) == 3
    assert list(third) == ["a", "b", "c", "d", "e"]
    # One list for all three: an append is constant time however long the sequence.
    assert first._items is second._items is third._items


def test_growing_an_older_sequence_again_gives_it_items_of_its_own() -> None:
    base = GrowingTuple([1, 2])
    newer = base.plus(3)
    branch = base.plus(30)
    assert list(newer) == [1, 2, 3] and list(branch) == [1, 2, 30] and list(base) == [1, 2]
    assert branch._items is not base._items
    # The branch is the newest of its own list now: it grows without a copy.
    assert branch.plus(40)._items is branch._items


def test_a_sequence_reads_like_a_tuple_of_its_own_items() -> None:
    base = GrowingTuple("abcdef")
    shorter = GrowingTuple("abc")
    shared = GrowingTuple("ab").plus("c")
    shared.plus("z")  # in the list, not in ``shared``
    for sequence, as_tuple in ((base, tuple("abcdef")), (shared, ("a", "b", "c"))):
        assert sequence[0] == as_tuple[0] and sequence[-1] == as_tuple[-1]
        assert sequence[1:] == as_tuple[1:] and sequence[::-2] == as_tuple[::-2]
        assert sequence[-2:10] == as_tuple[-2:10] and sequence[5:1] == ()
        assert list(reversed(sequence)) == list(reversed(as_tuple))
        assert sequence.index("b") == 1 and "z" not in sequence
    with pytest.raises(IndexError):
        shared[3]
    with pytest.raises(IndexError):
        shared[-4]
    assert not GrowingTuple() and shorter == shared and shorter != base


def test_equal_to_a_tuple_of_the_same_items_and_hashed_alike() -> None:
    grown = GrowingTuple([1]).plus(2)
    # The tuple on the left asks the GrowingTuple (tuple.__eq__ answers NotImplemented).
    assert tuple.__eq__((1, 2), grown) is NotImplemented and (1, 2) in {grown}
    assert grown == (1, 2) and grown != (1, 2, 3) and grown != [1, 2]
    assert hash(grown) == hash((1, 2)) and {grown: "x"}[(1, 2)] == "x"
    assert repr(grown) == "GrowingTuple([1, 2])"


def test_threads_growing_one_sequence_each_get_their_own_item() -> None:
    base = GrowingTuple(range(100))
    grown: dict[int, GrowingTuple[int]] = {}

    def grow(item: int) -> None:
        grown[item] = base.plus(item)

    threads = [threading.Thread(target=grow, args=(1000 + n,)) for n in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(base) == 100
    for item, sequence in grown.items():
        assert len(sequence) == 101 and sequence[-1] == item and sequence[:100] == base[:]


@dataclass(frozen=True)
class Record:
    turns: GrowingTuple[int]


def test_pydantic_describes_and_reads_it_as_the_tuple_of_its_items() -> None:
    adapter = TypeAdapter(Record)
    assert adapter.json_schema(mode="serialization")["properties"]["turns"] == {
        "items": {"type": "integer"},
        "title": "Turns",
        "type": "array",
    }
    read = adapter.validate_python({"turns": [1, 2]})
    assert isinstance(read.turns, GrowingTuple) and read.turns == (1, 2)
    assert adapter.dump_python(read) == {"turns": (1, 2)}


def test_a_pickled_sequence_reads_back_equal_and_unpickles_its_older_items_only_when_read() -> None:
    grown = GrowingTuple(range(100)).plus(100)
    grown.plus(101)  # in the list, not in ``grown``
    copy = pickle.loads(pickle.dumps(grown))
    assert len(copy) == 101 and copy[-1] == 100 and copy[70:] == tuple(range(70, 101))
    longer = copy.plus(101, 102)
    again = pickle.loads(pickle.dumps(longer))
    # Its newest items and its growth came without reading the older ones.
    assert copy._unread is not None and copy._unread._read is None
    assert again[-3:] == (100, 101, 102) and again._unread is not None
    assert again._unread._read is None
    assert copy == grown and again == tuple(range(103)) and list(reversed(again))[-1] == 0
