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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from peewee import SQL, Case, fn

from scorekeeper.db import database, from_column
from scorekeeper.games import get_game
from scorekeeper.games.engine import Game
from scorekeeper.models import Event, GameSession, Seat


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


@dataclass(frozen=True)
class SessionSummary:
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
    return _summaries(
        GameSession.id.in_(session_ids), GameSession.updated_at.desc(), GameSession.id
    )


def group_summaries(group_id: str, page: int, size: int) -> list[SessionSummary]:
    """Page ``page`` (from 1) of the sessions a group played, ``size`` a page, the newest
    first: whoever sees the group sees them. Empty past the last page."""
    newest_first = (GameSession.created_at.desc(), GameSession.id)
    listed = (
        GameSession.select(GameSession.id)
        .where(GameSession.group == group_id)
        .order_by(*newest_first)
        .paginate(page, size)
    )
    return _summaries(GameSession.id.in_(listed), *newest_first)


def _summaries(where: Any, *order: Any) -> list[SessionSummary]:
    """The sessions ``where`` finds in ``order``, read with their seats and winners in one
    query (the winners as the write that ended each session recorded them: no replay)."""
    listed = (
        Seat.select(
            GameSession.id,
            GameSession.game,
            GameSession.finished,
            GameSession.updated_at,
            GameSession.imported,
            fn.EXISTS(Event.select(SQL("1")).where(Event.session == GameSession.id)),
            Seat.name,
            Seat.won,
        )
        .join(GameSession)
        .where(where)
        .order_by(*order, Seat.position)
    )
    found = []
    # The raw rows, a few per session: model instances would cost more than the query.
    for (session_id, slug, finished, updated_at, imported, logged), seats in itertools.groupby(
        database.execute(listed), lambda row: row[:6]
    ):
        names = [(name, won) for *_, name, won in seats]
        found.append(
            SessionSummary(
                session_id,
                get_game(slug).title,
                tuple(name for name, _ in names),
                bool(finished),
                from_column(GameSession.updated_at, updated_at),
                bool(imported),
                tuple(name for name, won in names if won),
                slug,
                not logged,
            )
        )
    return found
