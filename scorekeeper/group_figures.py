"""A group's statistics counted by the database, by the rules of scorekeeper/stats.py:
aggregates over the seats the write that ended each session kept
(scorekeeper/read_model.py). tests/stats_reference.py counts the same in plain Python over
each session's record: the reference these queries are tested against.

Each query answers a few rows per player and game, per game, or per day (and player): what
a request costs in Python grows with the players, games and days of a group, not with its
sessions. Sorting and naming are done here over those rows, as ``stats`` does them: a
player is named as the player is now (a removed player's seats count for no one). The
queries are compiled once per back end (``db.Statement``): building them cost more than
the database took to run them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from peewee import Cast, ColumnBase, fn

from scorekeeper import charts, groups, stats
from scorekeeper.db import Statement, from_column, is_sqlite
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.models import GameSession, Seat

# finished_at is backfilled for every finished session; updated_at is a safe bound.
_ENDED = fn.COALESCE(GameSession.finished_at, GameSession.updated_at)


def _count_of(condition: Any) -> ColumnBase:
    """How many rows ``condition`` holds for (PostgreSQL sums no boolean)."""
    return fn.SUM(Cast(condition, "integer"))


def _day(moment: Any) -> ColumnBase:
    """The day of a stored (naive UTC) time, as each database writes it."""
    return fn.date(moment) if is_sqlite() else moment.cast("date")


def _as_date(stored: object) -> date:
    # SQLite's date() answers text, PostgreSQL's cast a date.
    return stored if isinstance(stored, date) else date.fromisoformat(str(stored))


def _as_time(stored: object) -> datetime:
    return from_column(GameSession.updated_at, stored)


def _counted() -> Any:
    """The ranked seats of a group's finished sessions (the group's id the one value):
    what the statistics count."""
    return (GameSession.group == "") & GameSession.finished & Seat.score.is_null(False)


@dataclass(frozen=True)
class SessionCounts:
    """How many sessions a group played, and how many of them are finished."""

    played: int
    finished: int


_SESSION_COUNTS = Statement(
    lambda: GameSession.select(fn.COUNT(GameSession.id), _count_of(GameSession.finished)).where(
        GameSession.group == ""
    )
)


def session_counts(group_id: str) -> SessionCounts:
    """The group's sessions counted, in one query (what its lists page by)."""
    [(played, finished)] = _SESSION_COUNTS.execute(group_id).fetchall()
    # SUM over no row is NULL.
    return SessionCounts(played, int(finished or 0))


# Every finished session has seats its engine ranks: the session rows alone say which
# games were played on which days (no seat is read).
_GAMES_BY_DAY = Statement(
    lambda: (
        GameSession.select(
            GameSession.game,
            GameSession.lower_is_better,
            _day(_ENDED),
            fn.COUNT(GameSession.id),
            fn.MAX(_ENDED),
        )
        .where((GameSession.group == "") & GameSession.finished)
        .group_by(GameSession.game, GameSession.lower_is_better, _day(_ENDED))
    )
)
_BY_PLAYER_AND_GAME = Statement(
    lambda: (
        Seat.select(
            Seat.player,
            GameSession.game,
            GameSession.lower_is_better,
            fn.COUNT(Seat.id),
            _count_of(Seat.won),
            fn.MAX(_ENDED),
            fn.SUM(Seat.score),
            fn.MIN(Seat.score),
            fn.MAX(Seat.score),
        )
        .join(GameSession)
        .where(_counted() & Seat.player.is_null(False))
        .group_by(Seat.player, GameSession.game, GameSession.lower_is_better)
    )
)
# Only the days a player won on: on the others their wins so far stay as they were.
_WINS_BY_DAY = Statement(
    lambda: (
        Seat.select(Seat.player, _day(_ENDED), fn.COUNT(Seat.id))
        .join(GameSession)
        .where(_counted() & Seat.player.is_null(False) & Seat.won)
        .group_by(Seat.player, _day(_ENDED))
    )
)


def compute(group: groups.Group) -> stats.Stats:
    """Every figure of the group's statistics."""
    names = {str(player.id): player.name for player in group.players}
    by_game: dict[tuple[str, bool], tuple[int, Any]] = {}
    days = set()
    for slug, lower, day, played, last in _GAMES_BY_DAY.execute(group.id):
        key = (str(slug), bool(lower))
        # The stored times compare as they are (ISO text on SQLite): one made a datetime.
        so_far, latest = by_game.get(key, (0, last))
        by_game[key] = (so_far + played, max(latest, last))
        days.add(_as_date(day))
    games = {key: (played, _as_time(last)) for key, (played, last) in by_game.items()}
    game_players: dict[tuple[str, bool], list[stats.GamePlayerRecord]] = {}
    totals: dict[str, tuple[int, int, datetime]] = {}
    for (
        player_id,
        slug,
        lower,
        played,
        won,
        last,
        total,
        lowest,
        highest,
    ) in _BY_PLAYER_AND_GAME.execute(group.id):
        player, ended = str(player_id), _as_time(last)
        game_players.setdefault((str(slug), bool(lower)), []).append(
            stats.GamePlayerRecord(
                player=player,
                name=names[player],
                played=played,
                won=int(won),
                last_played=ended,
                average=int(total) / played,
                best=lowest if lower else highest,
            )
        )
        all_played, all_won, latest = totals.get(player, (0, 0, ended))
        totals[player] = (all_played + played, all_won + int(won), max(latest, ended))
    game_records = [
        stats.GameRecord(
            game=slug,
            title=get_game(slug).title + (" (lowest wins)" if lower else ""),
            lower_is_better=lower,
            played=played,
            last_played=last,
            players=stats.ranked(game_players.get((slug, lower), ())),
        )
        for (slug, lower), (played, last) in games.items()
    ]
    return stats.Stats(
        played=sum(played for played, _ in games.values()),
        players=stats.ranked(
            stats.PlayerRecord(player, names[player], played, won, last)
            for player, (played, won, last) in totals.items()
        ),
        games=tuple(sorted(game_records, key=lambda g: (-g.played, g.title))),
        wins_over_time=_wins_over_time(
            group.id, {player: names[player] for player in totals}, sorted(days)
        ),
    )


def _wins_over_time(
    group_id: str, players: dict[str, str], days: list[date]
) -> tuple[charts.Series, ...]:
    """Each player's (by key, with their name) wins so far on each of ``days``, the days a
    game of the group ended."""
    won: dict[str, dict[date, int]] = {player: {} for player in players}
    for player_id, day, wins in _WINS_BY_DAY.execute(group_id):
        won[str(player_id)][_as_date(day)] = wins
    lines = []
    for player, mine in won.items():
        total = 0
        points = []
        for day in days:
            total += mine.get(day, 0)
            points.append((float(day.toordinal()), float(total)))
        lines.append(charts.Series(players[player], tuple(points)))
    # Names are unique in a group, whatever their case: no two lines tie.
    return tuple(sorted(lines, key=lambda s: (-s.points[-1][1], s.name.casefold())))


def duel(
    group: groups.Group, counted: stats.Stats, first: str | None, second: str | None
) -> stats.HeadToHead | None:
    """The head to head asked for by ``first`` and ``second`` (player ids as sent; None for
    both: none asked for), or IllegalAction naming the field that is wrong."""
    if first is None and second is None:
        return None
    played = {record.player for record in counted.players}
    chosen: list[groups.Player] = []
    for field, raw in (("first", first), ("second", second)):
        if not raw:
            raise IllegalAction(f"Choose the {field} player to compare.", field)
        try:
            player = groups.player_of(group, groups.player_id_as_sent(raw), field)
        except IllegalAction as refused:
            # The form's labels say "First player" and "Second player".
            raise IllegalAction(f"{field.title()} player: {refused.message}", field) from None
        if chosen and chosen[0].id == player.id:
            raise IllegalAction("Choose two different players to compare.", field)
        if str(player.id) not in played:
            raise IllegalAction(
                f"{player.name} has played no finished game in this group yet.", field
            )
        chosen.append(player)
    return _head_to_head(group.id, *chosen)


def _both_played() -> Any:
    # The seats of two players (the group's id, then the players' ids) in one session.
    other = Seat.alias()
    return (
        Seat.select(
            fn.COUNT(Seat.id),
            _count_of(Seat.won & other.won),
            _count_of(Seat.won & ~other.won),
            _count_of(~Seat.won & other.won),
        )
        .join(GameSession)
        .switch(Seat)
        .join(other, on=(other.session == Seat.session))
        .where(_counted() & (Seat.player == 0) & (other.player == 0) & other.score.is_null(False))
    )


_BOTH_PLAYED = Statement(_both_played)


def _head_to_head(group_id: str, first: groups.Player, second: groups.Player) -> stats.HeadToHead:
    """The two players over the group's finished sessions where both had a ranked seat."""
    [(played, shared, first_won, second_won)] = _BOTH_PLAYED.execute(
        group_id, first.id, second.id
    ).fetchall()
    # SUM over no row is NULL.
    shared, first_won, second_won = (int(count or 0) for count in (shared, first_won, second_won))
    return stats.HeadToHead(
        first=str(first.id),
        second=str(second.id),
        first_name=first.name,
        second_name=second.name,
        played=played,
        first_won=first_won,
        second_won=second_won,
        shared=shared,
        neither=played - shared - first_won - second_won,
    )
