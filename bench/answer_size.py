"""How large a session's state answer is as the session grows: at 50 events and at 20,000.

The state GET (``/api/v1/sessions/<id>``) carries what the table needs now; past turns
are paged by ``/rounds``. An 8-seat Yardkle game, seeded, of a table that rarely banks
(so it is still in play at 20,000 events), recorded through ``store.append``; its body is
read after 50 events (the anchor) and after 20,000. Goal: at most 2 times, on SQLite and
on PostgreSQL. A size, not a time: it is printed with the size of the turns the answer
leaves out.

Run: .venv/bin/python bench/answer_size.py [postgresql://user@host/db ...]
(SQLite in a temporary directory always; each URL given is measured too.)
"""

from __future__ import annotations

import json

from yardkle_game import (
    SEATS,
    measure_each_database,
    open_app,
    seeded_actions,
    sessions_deleted_afterwards,
)

from scorekeeper import store
from scorekeeper.db import database

GOAL_RATIO = 2.0
SMALL, LARGE = 50, 20_000
# The highest the option allows; a table banking one time in ten is still in play.
WINNING_SCORE = 100_000
BANK_CHANCE = 0.1


def measure(database_url: str, label: str) -> bool:
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=LARGE, bank_chance=BANK_CHANCE)
    assert len(actions) == LARGE, "the seeded game ended too early"
    client = open_app(database_url).test_client()

    def body_size(session_id: str) -> int:
        answer = client.get(f"/api/v1/sessions/{session_id}")
        assert answer.status_code == 200
        return len(answer.get_data())

    sizes: dict[int, int] = {}
    with sessions_deleted_afterwards() as new_session:
        # A request opens and closes its own connection: each is read between the writes.
        recorded = 0
        for at in (SMALL, LARGE):
            with database.connection_context():
                if not recorded:
                    session_id, _key = new_session(WINNING_SCORE)
                for version in range(recorded, at):
                    store.append(session_id, actions[version], version)
            recorded, sizes[at] = at, body_size(session_id)
        rounds = client.get(f"/api/v1/sessions/{session_id}/rounds").get_json()
        pages, turns = rounds["pages"], rounds["records_count"]["turns"]
        first_page = len(json.dumps(rounds["records"]))
    ratio = sizes[LARGE] / sizes[SMALL]
    verdict = "meets" if ratio <= GOAL_RATIO else "MISSES"
    print(
        f"{label}: the state GET's body at {SMALL} events {sizes[SMALL]:,} bytes (anchor), "
        f"at {LARGE:,} events {sizes[LARGE]:,} bytes: ratio {ratio:.2f} "
        f"({verdict} the {GOAL_RATIO:.0f} times goal); its {turns:,} turns are on "
        f"{pages} pages of /rounds (the first page's records {first_page:,} bytes)"
    )
    return ratio <= GOAL_RATIO


def main() -> None:
    measure_each_database(measure)


if __name__ == "__main__":
    main()
