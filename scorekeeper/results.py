"""A session's results beyond the scoreboard: the score chart of its results page, and
the record of a finished session the statistics are counted from (scorekeeper/stats.py).

Both read only what every engine gives (``score_rows``, ``standings``, ``winners``), so
no game is named here.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from datetime import datetime

from scorekeeper import charts, groups, stats, store
from scorekeeper.games.base import IllegalAction, ScoreRow, and_list
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


def result_of(view: store.SessionView, players: Sequence[str], ended_at: datetime) -> stats.Result:
    """What the statistics count of a finished session; ``players`` names the group player
    of each seat ("" for a seat without one).

    A seat's score is the one its engine ranks it by (a Yokai Septet team's score for each
    partner, a 2-player Yadokarick player's standing against the NPC crab, who has no
    seat). Lower is better where the standings put a lower score first (a score sheet
    set to "lowest wins"); a game where every seat ties says nothing and counts as
    higher is better.
    """
    if not view.finished:
        raise ValueError(f"session {view.id} is not finished: only finished sessions count")
    standings = view.game.standings(view.state)
    score_of = {standing.seat: standing.score for standing in standings}
    seats = sorted(score_of)
    lower_is_better = any(
        ahead.rank < behind.rank and ahead.score < behind.score
        for ahead, behind in itertools.pairwise(standings)
    )
    return stats.Result(
        session_id=view.id,
        game=view.game.slug,
        game_title=view.game.title,
        lower_is_better=lower_is_better,
        ended_at=ended_at,
        players=tuple(players[seat] for seat in seats),
        names=tuple(view.seats[seat] for seat in seats),
        scores=tuple(score_of[seat] for seat in seats),
        winners=frozenset(seats.index(seat) for seat in view.game.winners(view.state)),
    )


def group_results(group: groups.Group) -> list[stats.Result]:
    """What the statistics count of ``group``: its finished sessions, each seat keyed by
    its group player's id ("" for a seat whose player was removed since).

    Two queries find the sessions and all their seats; each session's view comes from
    ``store.load``, which answers a kept view without replaying it. A seat of a current
    player is named as the player is now, so a renamed player is one line everywhere.
    """
    rows = list(
        GameSession.select(GameSession.id, GameSession.finished_at, GameSession.updated_at)
        .where((GameSession.group == group.id) & GameSession.finished)
        .order_by(GameSession.id)
    )
    players: dict[str, list[str]] = {}
    seats = Seat.select(Seat.session, Seat.player).where(Seat.session.in_([r.id for r in rows]))
    for seat in seats.order_by(Seat.position):
        key = "" if seat.player_id is None else str(seat.player_id)
        players.setdefault(str(seat.session_id), []).append(key)
    current = {str(player.id): player.name for player in group.players}
    results = []
    for row in rows:
        view = store.load(row.id)
        if not view.finished:
            continue  # made unfinished by an undo since the query above
        # finished_at is backfilled for every finished session; updated_at is a safe bound.
        counted = result_of(view, players[row.id], row.finished_at or row.updated_at)
        names = tuple(
            current.get(p, n) for p, n in zip(counted.players, counted.names, strict=True)
        )
        results.append(dataclasses.replace(counted, names=names))
    return results


def duel(
    group: groups.Group, results: Sequence[stats.Result], first: str | None, second: str | None
) -> stats.HeadToHead | None:
    """The head to head asked for by ``first`` and ``second`` (player ids as sent; None for
    both: none asked for), or IllegalAction naming the field that is wrong."""
    if first is None and second is None:
        return None
    keys: list[str] = []
    for field, raw in (("first", first), ("second", second)):
        if not raw:
            raise IllegalAction(f"Choose the {field} player to compare.", field)
        try:
            player = groups.player_of(group, groups.player_id_as_sent(raw), field)
        except IllegalAction as refused:
            # The form's labels say "First player" and "Second player".
            raise IllegalAction(f"{field.title()} player: {refused.message}", field) from None
        if keys and keys[0] == str(player.id):
            raise IllegalAction("Choose two different players to compare.", field)
        if not any(str(player.id) in result.players for result in results):
            raise IllegalAction(
                f"{player.name} has played no finished game in this group yet.", field
            )
        keys.append(str(player.id))
    return stats.head_to_head(results, keys[0], keys[1])
