"""A game declares which fields of its state are history and what the table needs of them
now; the API's answer leaves the history out and carries the now record's fields."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from scorekeeper.games.history import HISTORY, history_names, history_of, now_class
from scorekeeper.web import state_json


@dataclass(frozen=True)
class Throw:
    seat: int
    points: int


@dataclass(frozen=True)
class Latest:
    last_throw: Throw | None
    throws_made: int


@dataclass(frozen=True)
class Darts:
    players: tuple[str, ...]
    throws: tuple[Throw, ...] = field(metadata=HISTORY)
    totals: tuple[int, ...]

    def now(self) -> Latest:
        return Latest(self.throws[-1] if self.throws else None, len(self.throws))


@dataclass(frozen=True)
class Repeats:
    throws: tuple[Throw, ...] = field(metadata=HISTORY)

    def now(self) -> Darts:
        raise AssertionError("never called")


@dataclass(frozen=True)
class NoRecord:
    throws: tuple[Throw, ...] = field(metadata=HISTORY)

    def now(self) -> int:
        return len(self.throws)


def test_the_answer_leaves_the_history_out_and_carries_the_now_record() -> None:
    state = Darts(("Ann", "Bo"), (Throw(0, 60), Throw(1, 25)), (60, 25))
    assert history_names(Darts) == ("throws",)
    assert history_of(state) == {"throws": (Throw(0, 60), Throw(1, 25))}
    assert state_json.answer_plain(state) == {
        "players": ["Ann", "Bo"],
        "totals": [60, 25],
        "last_throw": {"seat": 1, "points": 25},
        "throws_made": 2,
    }
    assert state_json.answer_text(state) == (
        '{"last_throw":{"points":25,"seat":1},"players":["Ann","Bo"],'
        '"throws_made":2,"totals":[60,25]}'
    )
    assert json.loads(state_json.answer_text(state)) == state_json.answer_plain(state)


def test_a_state_without_history_is_answered_whole() -> None:
    assert history_names(Throw) == ()
    assert now_class(Throw) is None
    assert state_json.answer_plain(Throw(0, 60)) == {"seat": 0, "points": 60}


def test_a_now_record_that_repeats_a_state_field_or_is_no_record_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Darts repeats fields of its state: \['throws'\]"):
        now_class(Repeats)
    with pytest.raises(TypeError, match=r"NoRecord\.now must return a dataclass"):
        now_class(NoRecord)
