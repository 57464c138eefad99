"""What one append costs as a session grows: at 50 events and at 5,000.

An append validates the action on the session's state and writes one event row.
The store keeps the state each write leaves, so the cost must not grow with the
log. Goal: one append at 5,000 events costs at most 2 times one append at 50 events, on
SQLite and on PostgreSQL (the anchor is the append at 50, measured in the same run).

Run: .venv/bin/python bench/append.py [postgresql://user@host/db ...]
(SQLite in a temporary directory always; each URL given is measured too.)
"""

from __future__ import annotations

import statistics
import time

from yardkle_game import (
    SEATS,
    NewSession,
    measure_each_database,
    open_app,
    seeded_actions,
    sessions_deleted_afterwards,
)

from scorekeeper import store
from scorekeeper.db import database

GOAL_RATIO = 2.0
SMALL, LARGE, TIMED = 50, 5000, 40
# High enough that 5,000 events do not end the game.
WINNING_SCORE = 100_000


def append_costs(new_session: NewSession, at: int) -> list[float]:
    """Milliseconds of each of TIMED appends to a session that holds ``at`` events."""
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=at + TIMED)
    assert len(actions) == at + TIMED, "the seeded game ended too early"
    session_id, _key = new_session(WINNING_SCORE)
    for version, action in enumerate(actions[:at]):
        store.append(session_id, action, version)
    costs = []
    for version, action in enumerate(actions[at:], start=at):
        start = time.perf_counter()
        store.append(session_id, action, version)
        costs.append((time.perf_counter() - start) * 1000)
    return costs


def measure(database_url: str, label: str) -> bool:
    open_app(database_url)
    with sessions_deleted_afterwards() as new_session, database.connection_context():
        anchor = statistics.median(append_costs(new_session, SMALL))
        measured = statistics.median(append_costs(new_session, LARGE))
    ratio = measured / anchor
    verdict = "meets" if ratio <= GOAL_RATIO else "MISSES"
    print(
        f"{label}: one append at {SMALL} events {anchor:.2f} ms (anchor), "
        f"at {LARGE} events {measured:.2f} ms: ratio {ratio:.2f} "
        f"({verdict} the {GOAL_RATIO:.0f} times goal)"
    )
    return ratio <= GOAL_RATIO


if __name__ == "__main__":
    measure_each_database(measure)
