"""What a whole long game costs through the store, against the bare inserts of its rows.

Eight seats of Yardkle to 10,000 (some 700 events), each event recorded by
``store.append`` as a tap would, against inserting the same event rows one by
one, each in its own transaction, in the same run (the anchor). Goal: at most
10 times the inserts, on SQLite and on PostgreSQL.

Run: .venv/bin/python bench/long_game.py [postgresql://user@host/db ...]
(SQLite in a temporary directory always; each URL given is measured too.)
"""

from __future__ import annotations

import sys
import tempfile
import time
from typing import Any

from yardkle_game import SEATS, NewSession, open_app, seeded_actions, sessions_deleted_afterwards

from scorekeeper import session_views, store
from scorekeeper.db import database, write_transaction
from scorekeeper.models import Event

GOAL_RATIO = 10.0
WINNING_SCORE = 10_000


def through_the_store(new_session: NewSession, actions: list[dict[str, Any]]) -> float:
    """Seconds to record every action with ``store.append``."""
    session_id, _key = new_session(WINNING_SCORE)
    start = time.perf_counter()
    for version, action in enumerate(actions):
        store.append(session_id, action, version)
    elapsed = time.perf_counter() - start
    assert session_views.load(session_id).finished
    return elapsed


def raw_inserts(new_session: NewSession, actions: list[dict[str, Any]]) -> float:
    """Seconds to insert the same event rows, one transaction each."""
    session_id, _key = new_session(WINNING_SCORE)
    start = time.perf_counter()
    for seq, action in enumerate(actions, start=1):
        with write_transaction():
            Event.insert(session=session_id, seq=seq, action=action).execute()
    return time.perf_counter() - start


def measure(database_url: str, label: str, actions: list[dict[str, Any]]) -> bool:
    open_app(database_url)
    with sessions_deleted_afterwards() as new_session, database.connection_context():
        anchor = raw_inserts(new_session, actions)
        measured = through_the_store(new_session, actions)
    ratio = measured / anchor
    verdict = "meets" if ratio <= GOAL_RATIO else "MISSES"
    print(
        f"{label}: {len(actions)} events as raw inserts {anchor * 1000:.0f} ms (anchor), "
        f"through the store {measured * 1000:.0f} ms: ratio {ratio:.1f} "
        f"({verdict} the {GOAL_RATIO:.0f} times goal)"
    )
    return ratio <= GOAL_RATIO


def main() -> None:
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=10_000)
    with tempfile.TemporaryDirectory() as directory:
        met = [measure(f"sqlite:///{directory}/bench.sqlite3", "SQLite", actions)]
        for url in sys.argv[1:]:
            met.append(measure(url, "PostgreSQL", actions))
    sys.exit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
