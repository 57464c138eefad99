"""A group's running totals, kept by the writes that count a session in them or take it out:
what its statistics read (scorekeeper/group_figures.py), a few rows per player and game
and per day, instead of every seat of every session the group played.

A session counts once it is finished with its end recorded (scorekeeper/read_model.py) and
belongs to a group. The write that ends it puts it in (``put_in``); a write that reopens it
(an undo of the last action) or changes it once ended (a correction) takes its old end out
and puts its new one in; linking a finished session to a group (a group's import) puts it
in. A removed player's rows go with the player (ON DELETE CASCADE): their seats count for
no one, as the statistics say.

Putting in adds to the rows: its cost does not grow with the group's past. Taking out
subtracts, then counts a row's lowest and highest score and latest end again from the
seats of that player and game (or the sessions of that game): what a subtraction cannot
undo. That is an undo or a correction after the end, rare beside the ends themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from peewee import EXCLUDED, JOIN, Case, fn

from scorekeeper.db import Statement, database, from_column, is_sqlite
from scorekeeper.models import (
    GameSession,
    GroupDay,
    GroupGame,
    GroupPlayerDay,
    GroupPlayerGame,
    Seat,
)

# finished_at is backfilled for every finished session; updated_at is a safe bound.
ENDED = fn.COALESCE(GameSession.finished_at, GameSession.updated_at)


@dataclass(frozen=True)
class PlayerSeats:
    """A player's ranked seats in one session (one, unless a file seated them twice)."""

    player: int
    played: int
    won: int
    score_sum: int
    score_min: int
    score_max: int


@dataclass(frozen=True)
class Counted:
    """What a finished session of a group adds to its totals."""

    group: str
    game: str
    lower_is_better: bool
    ended: datetime
    # Each group player's ranked seats, by player id (the order rows are locked in).
    players: tuple[PlayerSeats, ...]


def buckets(day: date) -> dict[str, int]:
    """The day's columns in the day tables: its ordinal, week, month and year."""
    ordinal = day.toordinal()
    # Ordinal 1 (1 January of year 1) is a Monday: weeks run from Monday.
    return {
        "day": ordinal,
        "week": (ordinal - 1) // 7,
        "month": day.year * 12 + day.month - 1,
        "year": day.year,
    }


_COUNTED = Statement(
    lambda: (
        GameSession.select(
            GameSession.group,
            GameSession.game,
            GameSession.lower_is_better,
            ENDED,
            Seat.player,
            Seat.score,
            Seat.won,
        )
        .join(
            Seat,
            JOIN.LEFT_OUTER,
            on=(Seat.session == GameSession.id)
            & Seat.player.is_null(False)
            & Seat.score.is_null(False),
        )
        .where(
            (GameSession.id == "")
            & GameSession.finished
            & GameSession.group.is_null(False)
            & GameSession.lower_is_better.is_null(False)
        )
        .order_by(Seat.player)
    )
)


def counted(session_id: str) -> Counted | None:
    """What the session adds to its group's totals as its rows are now (None: nothing, being
    in play, of no group or without a recorded end)."""
    rows = _COUNTED.execute(session_id).fetchall()
    if not rows:
        return None
    group, game, lower, ended = rows[0][:4]
    seats: dict[int, list[tuple[int, bool]]] = {}
    for *_, player, score, won in rows:
        if player is not None:  # the LEFT JOIN's row of a session without a player's seat
            seats.setdefault(int(player), []).append((int(score), bool(won)))
    return Counted(
        group=str(group),
        game=str(game),
        lower_is_better=bool(lower),
        ended=from_column(GameSession.updated_at, ended),
        players=tuple(
            PlayerSeats(
                player=player,
                played=len(mine),
                won=sum(won for _, won in mine),
                score_sum=sum(score for score, _ in mine),
                score_min=min(score for score, _ in mine),
                score_max=max(score for score, _ in mine),
            )
            for player, mine in sorted(seats.items())
        ),
    )


def lock(group_id: str) -> None:
    """Queue the writes to a group's totals (PostgreSQL; SQLite's writes queue already),
    taken before the write changes its seats: a write that takes out a player locks the
    group first too, so neither waits for a row the other holds while holding one it needs."""
    if not is_sqlite():
        database.execute_sql(
            'SELECT 1 FROM "player_group" WHERE "id" = %s FOR NO KEY UPDATE', (group_id,)
        )


def _excluded(field: Any) -> Any:
    """The value an insert brought for ``field``, in its ON CONFLICT update."""
    return getattr(EXCLUDED, field.column_name)


def _added(field: Any) -> Any:
    return field + _excluded(field)


def _kept_if(beats: Any, field: Any) -> Any:
    """The value an insert brought for ``field`` where it ``beats`` the kept one, else the
    kept one (stored times compare as they are: ISO text on SQLite)."""
    return Case(None, [(beats, _excluded(field))], field)


def put_in(session: Counted) -> None:
    """Add a finished session to its group's totals (inside the write's transaction); each
    row is added to if it exists, made if not (an upsert)."""
    days = buckets(session.ended.date())
    game = {
        "group": session.group,
        "game": session.game,
        "lower_is_better": session.lower_is_better,
    }
    GroupGame.insert(**game, played=1, last_ended=session.ended).on_conflict(
        conflict_target=[GroupGame.group, GroupGame.game, GroupGame.lower_is_better],
        update={
            GroupGame.played: _added(GroupGame.played),
            GroupGame.last_ended: _kept_if(
                _excluded(GroupGame.last_ended) > GroupGame.last_ended, GroupGame.last_ended
            ),
        },
    ).execute()
    GroupDay.insert(group=session.group, played=1, **days).on_conflict(
        conflict_target=[GroupDay.group, GroupDay.day],
        update={GroupDay.played: _added(GroupDay.played)},
    ).execute()
    if session.players:
        totals = GroupPlayerGame
        totals.insert_many(
            [{**game, **vars(seats), "last_ended": session.ended} for seats in session.players]
        ).on_conflict(
            conflict_target=[totals.player, totals.game, totals.lower_is_better],
            update={
                totals.played: _added(totals.played),
                totals.won: _added(totals.won),
                totals.score_sum: _added(totals.score_sum),
                totals.score_min: _kept_if(
                    _excluded(totals.score_min) < totals.score_min, totals.score_min
                ),
                totals.score_max: _kept_if(
                    _excluded(totals.score_max) > totals.score_max, totals.score_max
                ),
                totals.last_ended: _kept_if(
                    _excluded(totals.last_ended) > totals.last_ended, totals.last_ended
                ),
            },
        ).execute()
    winners = [seats for seats in session.players if seats.won]
    if winners:
        GroupPlayerDay.insert_many(
            [
                {"group": session.group, "player": seats.player, "won": seats.won, **days}
                for seats in winners
            ]
        ).on_conflict(
            conflict_target=[GroupPlayerDay.player, GroupPlayerDay.day],
            update={GroupPlayerDay.won: _added(GroupPlayerDay.won)},
        ).execute()


def _subtract(model: Any, where: Any, counter: Any, amounts: dict[Any, int]) -> None:
    """Take ``amounts`` off the row ``where`` finds; a row whose ``counter`` comes to 0
    (no session, no win left) goes."""
    model.delete().where(where & (counter <= amounts[counter])).execute()
    model.update({field: field - amount for field, amount in amounts.items()}).where(
        where
    ).execute()


def _over_seats(figure: Any, where: Any) -> Any:
    """``figure`` over the seats ``where`` finds, with their sessions: a recount's subquery."""
    return Seat.select(figure).join(GameSession).where(where)


def take_out(session: Counted) -> None:
    """Take a session's end, as ``counted`` read it before the write, out of its group's
    totals (inside the write's transaction, once the write has changed the session's rows:
    the recounts read them as they are now)."""
    ended = buckets(session.ended.date())
    of_game = (GameSession.game == session.game) & (
        GameSession.lower_is_better == session.lower_is_better
    )
    finished = (GameSession.group == session.group) & GameSession.finished & of_game
    game_key = (
        (GroupGame.group == session.group)
        & (GroupGame.game == session.game)
        & (GroupGame.lower_is_better == session.lower_is_better)
    )
    _subtract(GroupGame, game_key, GroupGame.played, {GroupGame.played: 1})
    GroupGame.update(last_ended=GameSession.select(fn.MAX(ENDED)).where(finished)).where(
        game_key
    ).execute()
    _subtract(
        GroupDay,
        (GroupDay.group == session.group) & (GroupDay.day == ended["day"]),
        GroupDay.played,
        {GroupDay.played: 1},
    )
    totals = GroupPlayerGame
    for seats in session.players:
        key = (
            (totals.player == seats.player)
            & (totals.game == session.game)
            & (totals.lower_is_better == session.lower_is_better)
        )
        _subtract(
            totals,
            key,
            totals.played,
            {totals.played: seats.played, totals.won: seats.won, totals.score_sum: seats.score_sum},
        )

        left = finished & (Seat.player == seats.player) & Seat.score.is_null(False)
        totals.update(
            {
                totals.score_min: _over_seats(fn.MIN(Seat.score), left),
                totals.score_max: _over_seats(fn.MAX(Seat.score), left),
                totals.last_ended: _over_seats(fn.MAX(ENDED), left),
            }
        ).where(key).execute()
        if seats.won:
            _subtract(
                GroupPlayerDay,
                (GroupPlayerDay.player == seats.player) & (GroupPlayerDay.day == ended["day"]),
                GroupPlayerDay.won,
                {GroupPlayerDay.won: seats.won},
            )


def rewrite(session_id: str, before: Counted | None) -> None:
    """Bring the group's totals to a session's new end, once its write has changed its rows:
    ``before`` out (its end as ``counted`` read it before the write, if it had one), its
    end now in (if it has one)."""
    if before is not None:
        take_out(before)
    after = counted(session_id)
    if after is not None:
        put_in(after)
