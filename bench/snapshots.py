"""What an undo and a cold worker's first read cost as a session grows: at 50 events and at
20,000.

A session's state is saved every few hundred events (scorekeeper.snapshots): an undo
starts from the newest snapshot before the undone event, and a worker that keeps no view
of a session (a restart, a new worker, an evicted view) from the newest snapshot, each
replaying only the events after it. Goals, each against the same at 50 events measured
in the same run, on SQLite and on PostgreSQL:

- an undo at 20,000 events: at most 3 times (the median of undos, each redone untimed);
- a cold worker's first state GET (``GET /api/v1/sessions/<id>``, every kept view and
  answer forgotten first): at most 3 times.

Also printed, with no goal: ``session_views.load`` alone by a cold worker (the GET above is that
and the state's JSON, which for Yardkle carries every turn), and the same GET and load
at 20,000 events plus a snapshot interval less one, where a cold read replays the most.

Run: .venv/bin/python bench/snapshots.py [postgresql://user@host/db ...]
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from yardkle_game import (
    SEATS,
    measure_each_database,
    open_app,
    seeded_actions,
    sessions_deleted_afterwards,
)

from scorekeeper import session_views, store
from scorekeeper.db import database
from scorekeeper.games.base import resolve_options
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.web import state_json

GOAL_RATIO = 3.0
SMALL, LARGE, TIMED = 50, 20_000, 15
WINNING_SCORE = 100_000
# The seeded game's scoring turns stop here, well before anyone wins; busts follow.
SCORED = 5_000
# Six dice that score nothing: the turn is lost (a bust), whoever rolls them.
BUST = [2, 3, 4, 6, 2, 3]


def long_game(events: int) -> list[dict[str, Any]]:
    """``events`` legal actions: a seeded game's turns, then busts (so that no one wins)."""
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=min(events, SCORED))
    game = yardkle.GAME
    state = game.start(SEATS, resolve_options(game.options, {"winning_score": WINNING_SCORE}))
    for action in actions:
        state = game.apply(state, game.parse_action(action))
    while len(actions) < events:
        pending = state.turn.pending_roll
        if pending is None:
            step: dict[str, Any] = {"type": "roll", "dice": BUST[: state.turn.dice_left]}
        else:
            step = {"type": "keep", "dice": list(yardkle.best_keep(pending)), "bank": False}
        state = game.apply(state, game.parse_action(step))
        actions.append(step)
    return actions


def forget_everything() -> None:
    """A worker that has kept nothing: no view, no answer, no record's JSON."""
    session_views.forget()
    state_json._RECORDS.clear()


def timed(run: Callable[[], object], before: Callable[[], object] = lambda: None) -> float:
    """The median milliseconds of TIMED runs, ``before`` each one (untimed)."""
    costs = []
    for _ in range(TIMED):
        before()
        start = time.perf_counter()
        run()
        costs.append((time.perf_counter() - start) * 1000)
    return statistics.median(costs)


def undo_cost(session_id: str) -> float:
    """An undo of the newest event, each redone (untimed) before the next."""
    costs = []
    for _ in range(TIMED):
        version = session_views.current_version(session_id)
        start = time.perf_counter()
        undone = store.undo(session_id, version)
        costs.append((time.perf_counter() - start) * 1000)
        store.redo(session_id, undone.version)
    return statistics.median(costs)


def cold_get_cost(client: FlaskClient, session_id: str) -> float:
    def get() -> None:
        assert client.get(f"/api/v1/sessions/{session_id}").status_code == 200

    return timed(get, forget_everything)


def cold_load_cost(session_id: str) -> float:
    return timed(lambda: session_views.load(session_id), forget_everything)


def verdict(label: str, anchor: float, measured: float) -> bool:
    ratio = measured / anchor
    met = ratio <= GOAL_RATIO
    print(
        f"  {label}: at {SMALL} events {anchor:.2f} ms (anchor), at {LARGE:,} {measured:.2f} ms:"
        f" ratio {ratio:.2f} ({'meets' if met else 'MISSES'} the {GOAL_RATIO:.0f} times goal)"
    )
    return met


def measure(database_url: str, label: str) -> bool:
    app = open_app(database_url)
    client = app.test_client()
    # The most events after a snapshot: one less than a session keeps (store.MAX_EVENTS).
    longest = LARGE - 1
    actions = long_game(LARGE)
    with app.app_context(), sessions_deleted_afterwards() as new_session:
        with database.connection_context():
            made = {
                at: new_session(WINNING_SCORE, actions[:at])[0] for at in (SMALL, LARGE, longest)
            }
            undo = {at: undo_cost(made[at]) for at in (SMALL, LARGE)}
            load = {at: cold_load_cost(made[at]) for at in made}
        # The GET opens its own connection, as a request does.
        get = {at: cold_get_cost(client, made[at]) for at in made}
    print(f"{label}:")
    met = [
        verdict("an undo", undo[SMALL], undo[LARGE]),
        verdict("a cold worker's first state GET", get[SMALL], get[LARGE]),
    ]
    print(
        f"  no goal: a cold load at {SMALL} events {load[SMALL]:.2f} ms, at {LARGE:,} "
        f"{load[LARGE]:.2f} ms (ratio {load[LARGE] / load[SMALL]:.2f}); at {longest:,} "
        f"(the most events after a snapshot) the GET {get[longest]:.2f} ms "
        f"(ratio {get[longest] / get[SMALL]:.2f}), the load {load[longest]:.2f} ms "
        f"(ratio {load[longest] / load[SMALL]:.2f})"
    )
    return all(met)


if __name__ == "__main__":
    measure_each_database(measure)
