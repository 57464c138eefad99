"""A session's results beyond the scoreboard: the score chart of its results page, and
the record of a finished session the statistics are counted from (scorekeeper/stats.py).

Both read only what every engine gives (``score_rows``, ``standings``, ``winners``), so
no game is named here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import datetime

from peewee import fn

from scorekeeper import charts, groups, read_model, session_views, stats
from scorekeeper.db import database, from_column
from scorekeeper.games import get_game
from scorekeeper.games.base import ScoreRow, and_list
from scorekeeper.models import GameSession, Seat


def score_series(rows: Sequence[ScoreRow]) -> tuple[charts.Series, ...]:
    """Each seat's total after every round, from the start (round 0) to the last round.

    A seat with no row in a round (a Yardkle player the game ended before) keeps its
    total. Seats whose totals are the same all along share one line named after all of
    them: the two partners of a Yokai Septet team score together.
    """
    if not rows:
        return ()
    rounds = sorted({row.round for row in rows})
    by_seat: dict[int, dict[int, ScoreRow]] = {}
    for row in rows:
        by_seat.setdefault(row.seat, {})[row.round] = row
    lines: dict[tuple[tuple[float, float], ...], list[str]] = {}
    for seat in sorted(by_seat):
        played = by_seat[seat]
        first = played[min(played)]
        # Before its first round a seat holds what it started with (Yellow Dwarf's chips).
        total = first.total - first.points
        points = [(0.0, float(total))]
        for number in rounds:
            if number in played:
                total = played[number].total
            points.append((float(number), float(total)))
        lines.setdefault(tuple(points), []).append(first.name)
    return tuple(charts.Series(and_list(names), points) for points, names in lines.items())


def score_chart(game_title: str, rows: Sequence[ScoreRow]) -> charts.LineChart:
    """The results page's chart: every player's score after each round or turn."""
    return charts.LineChart(
        ident="score-chart",
        title=f"{game_title}: score after each round",
        x_label="Round",
        y_label="Score",
        series=score_series(rows),
    )


def result_of(
    view: session_views.SessionView, players: Sequence[str], ended_at: datetime
) -> stats.Result:
    """What the statistics count of a finished session; ``players`` names the group player
    of each seat ("" for a seat without one). Each seat's score, whether it won and whether
    lower is better are those ``read_model.outcome_of`` works out (and the write that ends
    the session stores)."""
    if not view.finished:
        raise ValueError(f"session {view.id} is not finished: only finished sessions count")
    outcome = read_model.outcome_of(view.game, view.state)
    seats = [
        (players[seat], view.seats[seat], ended.score, ended.won)
        for seat, ended in sorted(outcome.seats.items())
    ]
    return _result(view.id, view.game.slug, outcome.lower_is_better, ended_at, seats)


def _result(
    session_id: str,
    slug: str,
    lower_is_better: bool,
    ended_at: datetime,
    seats: Sequence[tuple[str, str, int, bool]],
) -> stats.Result:
    """A finished session's record from its ranked seats in order: each seat's group
    player, name, final score and whether it won."""
    return stats.Result(
        session_id=session_id,
        game=slug,
        game_title=get_game(slug).title,
        lower_is_better=lower_is_better,
        ended_at=ended_at,
        players=tuple(player for player, _, _, _ in seats),
        names=tuple(name for _, name, _, _ in seats),
        scores=tuple(score for _, _, score, _ in seats),
        winners=frozenset(index for index, (_, _, _, won) in enumerate(seats) if won),
    )


def group_results(group: groups.Group) -> list[stats.Result]:
    """What the statistics count of ``group``: its finished sessions, each seat keyed by
    its group player's id ("" for a seat whose player was removed since).

    One query reads every ranked seat of the group's finished sessions as the write that
    ended each recorded it (scorekeeper/read_model.py): no session is replayed. A seat of
    a current player is named as the player is now, so a renamed player is one line
    everywhere.
    """
    rows = (
        Seat.select(
            GameSession.id,
            GameSession.game,
            GameSession.lower_is_better,
            # finished_at is backfilled for every finished session; updated_at is a safe bound.
            fn.COALESCE(GameSession.finished_at, GameSession.updated_at),
            Seat.player,
            Seat.name,
            Seat.score,
            Seat.won,
        )
        .join(GameSession)
        .where((GameSession.group == group.id) & GameSession.finished & Seat.score.is_null(False))
        .order_by(GameSession.id, Seat.position)
    )
    current = {player.id: player.name for player in group.players}
    results = []
    # The raw rows: model instances cost more than the database's answer at 1,000 sessions.
    for (session_id, slug, lower, ended), seats in itertools.groupby(
        database.execute(rows), lambda row: row[:4]
    ):
        ranked = [
            ("" if player is None else str(player), current.get(player, name), score, bool(won))
            for *_, player, name, score, won in seats
        ]
        results.append(
            _result(
                session_id, slug, bool(lower), from_column(GameSession.updated_at, ended), ranked
            )
        )
    return results
