"""evolve: dataclasses.replace for frozen dataclasses, without running their __init__."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import InitVar, dataclass, field

import pytest

from scorekeeper.games import get_game
from scorekeeper.games.base import rank_by_score
from scorekeeper.games.records import evolve


@dataclass(frozen=True)
class Seat:
    name: str
    score: int
    notes: tuple[str, ...] = ()

    @functools.cached_property
    def shout(self) -> str:
        return self.name.upper()


def test_evolve_makes_what_replace_makes_and_leaves_the_record_as_it_was() -> None:
    seat = Seat("Ann", 300, ("entered",))

    moved = evolve(seat, score=350)

    assert moved == dataclasses.replace(seat, score=350) == Seat("Ann", 350, ("entered",))
    assert type(moved) is Seat
    assert seat == Seat("Ann", 300, ("entered",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.score = 0  # type: ignore[misc]


def test_evolve_does_not_copy_what_was_worked_out_of_the_old_fields() -> None:
    seat = Seat("Ann", 300)
    assert seat.shout == "ANN"

    renamed = evolve(seat, name="Bo")

    assert "shout" not in vars(renamed)
    assert renamed.shout == "BO"
    assert vars(renamed) == {"name": "Bo", "score": 300, "notes": (), "shout": "BO"}


def test_evolve_refuses_a_field_the_record_does_not_have() -> None:
    with pytest.raises(TypeError, match="Seat has no field colour, seat"):
        evolve(Seat("Ann", 0), colour="red", seat=2)


@dataclass(frozen=True)
class Checked:
    points: int

    def __post_init__(self) -> None:
        if self.points < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class WithInitOnly:
    points: int
    scale: InitVar[int] = 1


@dataclass(frozen=True)
class WithDerived:
    points: int
    doubled: int = field(init=False, default=0)


@dataclass(frozen=True, slots=True)
class Slotted:
    points: int


@pytest.mark.parametrize(
    ("record", "why"),
    [
        (Checked(1), "does more than store its fields"),
        (WithInitOnly(1), "does more than store its fields"),
        (WithDerived(1), "does more than store its fields"),
        (Slotted(1), "not a dataclass whose instances have a __dict__"),
        (object(), "not a dataclass"),
    ],
)
def test_evolve_refuses_a_class_whose_init_does_more_than_store_fields(
    record: object, why: str
) -> None:
    # Its checks would be skipped, or what it works out left stale: replace() serves it.
    with pytest.raises(TypeError, match=why):
        evolve(record, points=-1)


def test_a_yardkle_turn_entered_as_a_total_evolves_the_state_like_replace() -> None:
    game = get_game("yardkle")
    state = game.start(["Ann", "Bo"], {})

    after = game.apply(state, game.parse_action({"type": "total", "points": 600}))

    assert after == dataclasses.replace(
        state,
        scores=(600, 0),
        entered=(True, False),
        current=1,
        turns=(*state.turns, after.turns[-1]),
        last_ruling="Ann entered a turn of 600: total 600. Bo rolls next.",
    )


def test_equal_standings_are_one_shared_record() -> None:
    first = rank_by_score(["Ann", "Bo", "Cy"], [300, 500, 300])
    again = rank_by_score(["Ann", "Bo", "Cy"], [300, 500, 300])

    assert [(s.name, s.score, s.rank) for s in first] == [
        ("Bo", 500, 1),
        ("Ann", 300, 2),
        ("Cy", 300, 2),
    ]
    assert all(mine is theirs for mine, theirs in zip(first, again, strict=True))
