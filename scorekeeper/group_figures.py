"""A group's statistics counted by the database, by the rules of scorekeeper/stats.py:
read from the totals the writes keep (scorekeeper/group_totals.py), a few rows per player
and game, per game, and per step of the wins chart; a head to head from the seats the write
that ended each session kept (scorekeeper/read_model.py). tests/stats_reference.py counts
the same in plain Python over each session's record: the reference these figures are
tested against.

What a request reads and costs grows with the players, games and days of a group, not
with its sessions; the wins chart's points are at most ``stats.MOST_WIN_POINTS`` per
player. Sorting and naming are done here over those rows, as ``stats`` does them: a player
is named as the player is now (a removed player's seats count for no one). The queries
are compiled once per back end (``db.Statement``): building them cost more than the
database took to run them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from peewee import Cast, ColumnBase, fn

from scorekeeper import charts, groups, stats
from scorekeeper.db import Statement, from_column
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.words import phrase
from scorekeeper.models import (
    GameSession,
    GroupDay,
    GroupGame,
    GroupPlayerDay,
    GroupPlayerGame,
    Seat,
)


def _count_of(condition: Any) -> ColumnBase:
    """How many rows ``condition`` holds for (PostgreSQL sums no boolean)."""
    return fn.SUM(Cast(condition, "integer"))


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


_GAMES = Statement(
    lambda: GroupGame.select(
        GroupGame.game, GroupGame.lower_is_better, GroupGame.played, GroupGame.last_ended
    ).where(GroupGame.group == "")
)
_BY_PLAYER_AND_GAME = Statement(
    lambda: GroupPlayerGame.select(
        GroupPlayerGame.player,
        GroupPlayerGame.game,
        GroupPlayerGame.lower_is_better,
        GroupPlayerGame.played,
        GroupPlayerGame.won,
        GroupPlayerGame.last_ended,
        GroupPlayerGame.score_sum,
        GroupPlayerGame.score_min,
        GroupPlayerGame.score_max,
    ).where(GroupPlayerGame.group == "")
)


def compute(group: groups.Group) -> stats.Stats:
    """Every figure of the group's statistics, read from its totals (group_totals.py)."""
    names = {str(player.id): player.name for player in group.players}
    games = {
        (str(slug), bool(lower)): (played, _as_time(last))
        for slug, lower, played, last in _GAMES.execute(group.id)
    }
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
                won=won,
                last_played=ended,
                average=int(total) / played,
                best=lowest if lower else highest,
            )
        )
        all_played, all_won, latest = totals.get(player, (0, 0, ended))
        totals[player] = (all_played + played, all_won + won, max(latest, ended))
    game_records = [
        stats.GameRecord(
            game=slug,
            title=LOWEST_WINS(game=get_game(slug).title) if lower else get_game(slug).title,
            lower_is_better=lower,
            played=played,
            last_played=last,
            players=stats.ranked(game_players.get((slug, lower), ())),
        )
        for (slug, lower), (played, last) in games.items()
    ]
    step, lines = _wins_over_time(group.id, {player: names[player] for player in totals})
    return stats.Stats(
        played=sum(played for played, _ in games.values()),
        players=stats.ranked(
            stats.PlayerRecord(player, names[player], played, won, last)
            for player, (played, won, last) in totals.items()
        ),
        games=tuple(sorted(game_records, key=lambda g: (-g.played, g.title))),
        wins_over_time=lines,
        wins_step=step,
    )


# How many days, weeks, months and years games of the group ended in.
_SPANS = Statement(
    lambda: GroupDay.select(
        *(fn.COUNT(fn.DISTINCT(getattr(GroupDay, step))) for step in stats.WIN_STEPS)
    ).where(GroupDay.group == "")
)


def _by_step(build: Callable[[str], Any]) -> dict[str, Statement]:
    """A statement for each step of the wins chart (``build`` of the step's column name)."""
    return {step: Statement(functools.partial(build, step)) for step in stats.WIN_STEPS}


# The last day of each step (day, week, month or year) a game of the group ended in.
_LAST_DAYS = _by_step(
    lambda step: (
        GroupDay.select(getattr(GroupDay, step), fn.MAX(GroupDay.day))
        .where(GroupDay.group == "")
        .group_by(getattr(GroupDay, step))
    )
)
# Only the steps a player won in: on the others their wins so far stay as they were.
_WINS = _by_step(
    lambda step: (
        GroupPlayerDay.select(
            GroupPlayerDay.player, getattr(GroupPlayerDay, step), fn.SUM(GroupPlayerDay.won)
        )
        .where(GroupPlayerDay.group == "")
        .group_by(GroupPlayerDay.player, getattr(GroupPlayerDay, step))
    )
)


def _wins_over_time(
    group_id: str, players: dict[str, str]
) -> tuple[stats.WinStep, tuple[charts.Series, ...]]:
    """The step of the wins chart, and each player's (by key, with their name) wins so far
    at the last day a game ended in each step: the finest step that has at most
    ``stats.MOST_WIN_POINTS`` (the chart draws no more), a day if it can."""
    [spans] = _SPANS.execute(group_id).fetchall()
    step = next(
        (
            step
            for step, count in zip(stats.WIN_STEPS, spans, strict=True)
            if count <= stats.MOST_WIN_POINTS
        ),
        stats.WIN_STEPS[-1],
    )
    last_days = sorted(_LAST_DAYS[step].execute(group_id).fetchall())
    won: dict[str, dict[int, int]] = {player: {} for player in players}
    for player_id, at, wins in _WINS[step].execute(group_id):
        won[str(player_id)][at] = int(wins)
    lines = []
    for player, mine in won.items():
        total = 0
        points = []
        for at, day in last_days:
            total += mine.get(at, 0)
            points.append((float(day), float(total)))
        lines.append(charts.Series(players[player], tuple(points)))
    # Names are unique in a group, whatever their case: no two lines tie.
    return step, tuple(sorted(lines, key=lambda s: (-s.points[-1][1], s.name.casefold())))


# A score sheet's games where the lowest score wins, counted apart.
LOWEST_WINS = phrase("stats.lowest-wins", "{game} (lowest wins)")
# The head to head's refusals; the form's labels say "First player" and "Second player".
CHOOSE_PLAYER = {
    "first": phrase("web.stats.choose-first-player", "Choose the first player to compare."),
    "second": phrase("web.stats.choose-second-player", "Choose the second player to compare."),
}
PLAYER_REFUSED = {
    "first": phrase("web.stats.first-player-refused", "First player: {refusal}"),
    "second": phrase("web.stats.second-player-refused", "Second player: {refusal}"),
}
TWO_DIFFERENT = phrase(
    "web.stats.two-different-players", "Choose two different players to compare."
)
NO_FINISHED_GAME = phrase(
    "web.stats.no-finished-game", "{player} has played no finished game in this group yet."
)


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
            raise IllegalAction(CHOOSE_PLAYER[field](), field)
        try:
            player = groups.player_of(group, groups.player_id_as_sent(raw), field)
        except IllegalAction as refused:
            raise IllegalAction(PLAYER_REFUSED[field](refusal=refused.said), field) from None
        if chosen and chosen[0].id == player.id:
            raise IllegalAction(TWO_DIFFERENT(), field)
        if str(player.id) not in played:
            raise IllegalAction(NO_FINISHED_GAME(player=player.name), field)
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
