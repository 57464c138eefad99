"""What lists and statistics read of a finished session, kept in its rows by the write
that changes it: the rounds played, whether lower is better, and each seat's final score,
place and win (the session's status and end time are its ``finished`` and ``finished_at``).

A session in play has none of them (NULL): the write that ends it fills them, a write
that reopens it clears them, a write to a finished session (a correction, a revoke
settled after the last trick) rewrites them. Reads take them as they are and never replay
a session's log.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from peewee import Case

from scorekeeper.db import Statement, any_of, as_list, database, from_column
from scorekeeper.games import get_game
from scorekeeper.games.engine import Game
from scorekeeper.models import GameSession, Seat


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's end of a finished game, as its engine ranks it."""

    score: int
    place: int
    won: bool


@dataclass(frozen=True)
class Outcome:
    """A finished game's end: what the statistics count and the lists show."""

    # The distinct rounds (or turns) of the score sheet: those its rows name.
    rounds_played: int
    lower_is_better: bool
    # By seat position, the seats the engine ranks (a Yadokarick NPC game ranks the two
    # players against the crab, who has no seat).
    seats: dict[int, SeatOutcome]


def outcome_of(game: Game, state: Any) -> Outcome:
    """The end of a finished game, from its state alone.

    A seat's score is the one its engine ranks it by (a Yokai Septet team's score for
    each partner, a 2-player Yadokarick player's standing against the NPC crab). Lower is
    better where the standings put a lower score first (a score sheet set to "lowest
    wins"); a game where every seat ties says nothing and counts as higher is better.
    """
    standings = game.standings(state)
    winners = set(game.winners(state))
    return Outcome(
        rounds_played=len({row.round for row in game.score_rows(state)}),
        lower_is_better=any(
            ahead.rank < behind.rank and ahead.score < behind.score
            for ahead, behind in itertools.pairwise(standings)
        ),
        seats={
            standing.seat: SeatOutcome(standing.score, standing.rank, standing.seat in winners)
            for standing in standings
        },
    )


# The session row's columns of the read model (its seats' are in ``seat_columns``).
SESSION_FIELDS = (GameSession.rounds_played, GameSession.lower_is_better)


def session_columns(outcome: Outcome | None) -> dict[str, object]:
    """The session row's read-model columns (all None while the game is in play)."""
    if outcome is None:
        return {field.name: None for field in SESSION_FIELDS}
    return {"rounds_played": outcome.rounds_played, "lower_is_better": outcome.lower_is_better}


def seat_columns(outcome: Outcome | None, position: int) -> dict[str, object]:
    """A seat row's read-model columns (all None in play, or for a seat not ranked)."""
    ended = None if outcome is None else outcome.seats.get(position)
    if ended is None:
        return {"score": None, "place": None, "won": None}
    return {"score": ended.score, "place": ended.place, "won": ended.won}


def record_seats(session_id: str, outcome: Outcome | None) -> None:
    """Write the seats' part of ``outcome`` into the seat rows of an existing session
    (None: clear them), in the caller's transaction, in one statement (the session row's
    part goes with the write's own update of that row: ``session_columns``)."""
    if outcome is None:
        seats = seat_columns(None, 0)
    else:
        # Each column a CASE on the seat's position: one statement for every seat.
        seats = {
            column: Case(
                Seat.position,
                [(position, seat_columns(outcome, position)[column]) for position in outcome.seats],
                None,
            )
            for column in seat_columns(None, 0)
        }
    Seat.update(seats).where(Seat.session == session_id).execute()


class SessionSummary(NamedTuple):
    """A session as the lists show it. A tuple: a home page makes 30 (a frozen dataclass
    cost five times as much to make)."""

    id: str
    game_title: str
    seats: tuple[str, ...]
    finished: bool
    updated_at: Any
    imported: bool
    # The engine's winners of a finished session, by name; empty while in play.
    winners: tuple[str, ...]
    # The game's slug.
    game: str
    # Nothing recorded yet (no event ever logged): the lists say "ready to start".
    unstarted: bool = False


def summaries(session_ids: Sequence[str]) -> list[SessionSummary]:
    """The sessions with these ids that still exist, the latest changed first."""
    if not session_ids:
        return []
    return _summarised(_SUMMARIES.execute(as_list(session_ids)))


def _summaries_sql(sessions: str, order: str) -> str:
    """The sessions a condition on ``s`` finds, each a row per seat with its name and win,
    in ``order`` (of ``s``'s columns) and seat by seat."""
    logged = "EXISTS (SELECT 1 FROM event e WHERE e.session_id = s.id)"
    return (
        f"SELECT s.id, s.game, s.finished, s.updated_at, s.imported, {logged}, t.name, t.won "
        "FROM seat t JOIN game_session s ON s.id = t.session_id "
        f"WHERE {sessions} ORDER BY {order}, s.id, t.position"
    )


# The sessions with their seats and winners (the winners as the write that ended each
# session recorded them: no replay), one statement each for a home page and for a group's
# page: built by peewee, a page of 30 ids cost more than the rows it read.
_SUMMARIES = Statement(lambda: _summaries_sql(any_of("s.id"), "s.updated_at DESC"))
_GROUP_SUMMARIES = Statement(
    lambda: _summaries_sql(
        "s.id IN (SELECT g.id FROM game_session g WHERE g.group_id = "
        f"{database.param} ORDER BY g.created_at DESC, g.id LIMIT {database.param} "
        f"OFFSET {database.param})",
        "s.created_at DESC",
    )
)


def group_summaries(group_id: str, page: int, size: int) -> list[SessionSummary]:
    """Page ``page`` (from 1) of the sessions a group played, ``size`` a page, the newest
    first: whoever sees the group sees them. Empty past the last page."""
    return _summarised(_GROUP_SUMMARIES.execute(group_id, size, (page - 1) * size))


def _summarised(rows: Iterable[Sequence[Any]]) -> list[SessionSummary]:
    """The summaries of rows of a session's columns then a seat's, by session, seats in
    order (``_summaries_sql``)."""
    found = []
    # The raw rows, a few per session (its columns repeated on each of its seats' rows):
    # model instances would cost more than the query.
    for _session, seated in itertools.groupby(rows, itemgetter(0)):
        seats = list(seated)
        session_id, slug, finished, updated_at, imported, logged = seats[0][:6]
        found.append(
            SessionSummary(
                session_id,
                get_game(slug).title,
                tuple([seat[6] for seat in seats]),
                bool(finished),
                from_column(GameSession.updated_at, updated_at),
                bool(imported),
                tuple([seat[6] for seat in seats if seat[7]]),
                slug,
                not logged,
            )
        )
    return found
