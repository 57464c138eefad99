"""The statistics the database counts are those of ``stats_reference.compute`` (the
rules' reference, tests/stats_reference.py) over the group's results, for seeded random
groups, and a head to head those of ``stats_reference.head_to_head``."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta

import pytest
import stats_reference
from flask import Flask

from scorekeeper import group_figures, group_totals, groups, keys, lifecycle, stats
from scorekeeper.db import write_transaction
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.models import GameSession, Seat

NAMES = ("Ann", "bo", "Cy", "Dee", "Eve", "Fay")
GAMES = ("score-sheet", "yardkle", "yellow-dwarf", "cryptruck")
START = datetime(2025, 12, 30, 22, 0)


def random_group(
    chance: random.Random, count: int = 0, days: int = 6, origin: datetime = START
) -> groups.Group:
    """A group of ``count`` sessions (0: 1 to 39 of them), its finished ones of several
    games (some lowest wins), ended over ``days`` days from ``origin`` (around a new year,
    several on one day), with shared wins, seats of no player or of a player removed since,
    a player renamed, a session in play and one of another group."""
    group = groups.create(f"Club {chance.randrange(10**6)}", list(NAMES))
    original = GameSession.get_by_id(
        lifecycle.create("score-sheet", ["A", "B"], {"target": 100})[0]
    )
    sessions, seats = [], []
    players = [player.id for player in group.players]
    for number in range(count or chance.randrange(1, 40)):
        session_id = keys.new_id()
        finished = number != 0
        ended = origin + timedelta(hours=chance.randrange(0, 24 * days))
        sessions.append(
            {
                **{k: v for k, v in original.__data__.items() if k != "id"},
                "id": session_id,
                "game": chance.choice(GAMES),
                "edit_key": keys.new_key(),
                "group": group.id,
                "finished": finished,
                "updated_at": ended,
                "finished_at": ended if finished else None,
                "lower_is_better": chance.random() < 0.3 if finished else None,
                "rounds_played": 3 if finished else None,
            }
        )
        seated = chance.sample(players, chance.randrange(2, len(players) + 1))
        winners = set(chance.sample(range(len(seated)), chance.choice((1, 1, 2))))
        for position, player in enumerate(seated):
            guest = chance.random() < 0.1
            # A finished game's engine ranks some seats (its first), seldom not all.
            ranked = finished and (position == 0 or chance.random() > 0.05)
            seats.append(
                {
                    "session": session_id,
                    "position": position,
                    "name": f"seat {position}" if guest else NAMES[players.index(player)],
                    "player": None if guest else player,
                    "score": chance.randrange(-20, 200) if ranked else None,
                    "place": 1 if ranked else None,
                    "won": (position in winners) if ranked else None,
                }
            )
    with write_transaction():
        GameSession.insert_many(sessions).execute()
        Seat.insert_many(seats).execute()
        # Counted in the group's totals as the write that ended each would.
        for session in sessions:
            ended = group_totals.counted(session["id"])
            if ended is not None:
                group_totals.put_in(ended)
    groups.change_player(group.id, players[0], "Annabel")
    groups.remove_player(group.id, players[-1])
    other = groups.create("Elsewhere", ["Zed", "Yan"])
    lifecycle.create(
        "score-sheet",
        ["Zed", "Yan"],
        {"target": 100},
        seating=groups.seating(other, [p.id for p in other.players], get_game("score-sheet")),
    )
    return groups.load(group.id)


@pytest.mark.parametrize("seed", range(6))
def test_the_databases_figures_are_those_of_the_rules_over_the_groups_results(
    app: Flask, seed: int
) -> None:
    chance = random.Random(seed)
    with app.app_context():
        group = random_group(chance)
        counted = stats_reference.group_results(group)
        figures = group_figures.compute(group)
        assert figures == stats_reference.compute(counted)
        assert figures.played == sum(1 for result in counted)
        played = [record.player for record in figures.players]
        for first, second in itertools.permutations(played, 2):
            duel = group_figures.duel(group, figures, first, second)
            assert duel == stats_reference.head_to_head(counted, first, second)


@pytest.mark.parametrize(
    ("seed", "days", "step", "origin"),
    [
        (0, 150, "week", START),
        (1, 900, "month", START),
        (2, 3650 * 2, "year", START),
        # A week, a month and a year that begin on the first day of play.
        (3, 400, "week", datetime(2024, 1, 1)),
        (4, 1800, "month", datetime(2024, 1, 1)),
    ],
)
def test_the_wins_chart_steps_by_week_month_or_year_as_the_rules_do(
    app: Flask, seed: int, days: int, step: str, origin: datetime
) -> None:
    chance = random.Random(seed)
    with app.app_context():
        group = random_group(chance, count=200, days=days, origin=origin)
        figures = group_figures.compute(group)
        assert figures == stats_reference.compute(stats_reference.group_results(group))
        assert figures.wins_step == step
        points = {len(line.points) for line in figures.wins_over_time}
        assert len(points) == 1 and 1 < points.pop() <= stats.MOST_WIN_POINTS


def test_a_group_with_no_finished_game_has_empty_figures(app: Flask) -> None:
    with app.app_context():
        group = groups.create("Quiet", ["Ann", "Bo"])
        figures = group_figures.compute(group)
        assert figures == stats.Stats(played=0, players=(), games=(), wins_over_time=())
        with pytest.raises(IllegalAction, match="Ann has played no finished game"):
            group_figures.duel(group, figures, str(group.players[0].id), "x")
