"""What the store benchmarks share: a seeded Yardkle game, the app on a database, and its
sessions, deleted when the benchmark ends."""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from flask import Flask

from scorekeeper import create_app, lifecycle
from scorekeeper.db import database, write_transaction
from scorekeeper.games.base import resolve_options
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.models import Device, DeviceSession, GameSession, utc_now

SEATS = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def seeded_actions(
    seats: Sequence[str], winning_score: int, seed: int, limit: int, bank_chance: float = 0.4
) -> list[dict[str, Any]]:
    """Up to ``limit`` legal actions, as the table would record them: random rolls, the
    best set-aside, a bank with ``bank_chance`` when one is allowed (a table that rarely
    banks rolls on until a Yardkle, and plays longer); fewer if the game ends first."""
    game, rng = yardkle.GAME, random.Random(seed)
    state = game.start(seats, resolve_options(game.options, {"winning_score": winning_score}))
    actions: list[dict[str, Any]] = []
    while len(actions) < limit and not game.is_finished(state):
        if state.turn.pending_roll is None:
            dice = [rng.randint(1, 6) for _ in range(state.turn.dice_left)]
            action: dict[str, Any] = {"type": "roll", "dice": dice}
        else:
            keep = list(yardkle.best_keep(state.turn.pending_roll))
            action = {"type": "keep", "dice": keep, "bank": False}
            after = game.apply(state, game.parse_action(action))
            action["bank"] = yardkle.can_bank(after) and rng.random() < bank_chance
        state = game.apply(state, game.parse_action(action))
        actions.append(action)
    return actions


def open_app(database_url: str) -> Flask:
    """The app on ``database_url`` (its schema brought up to date), as a worker runs it."""
    return create_app(
        {"DATABASE_URL": database_url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}
    )


# Makes a session to the winning score given, with the actions given already logged.
NewSession = Callable[..., tuple[str, str]]


@contextmanager
def sessions_deleted_afterwards() -> Iterator[NewSession]:
    """A maker of 8-seat Yardkle sessions to the winning score it is given, with the
    actions it is given logged (their id and edit key), each deleted at the end with all
    it logged and the phones it was opened with: a benchmark leaves the database it was
    given as it found it."""
    made: list[str] = []
    started = utc_now()

    def new_session(winning_score: int, actions: Sequence[dict[str, Any]] = ()) -> tuple[str, str]:
        options: dict[str, object] = {"winning_score": winning_score}
        if not actions:
            session = lifecycle.create("yardkle", list(SEATS), options)
        else:
            # A long game at once: imported, as an exported file of it would be.
            events = [(seq, action, False, False) for seq, action in enumerate(actions, 1)]
            session = lifecycle.import_session(
                lifecycle.ImportedSession("yardkle", options, list(SEATS), events)
            )
        made.append(session[0])
        return session

    try:
        yield new_session
    finally:
        # Seats, events and keys go with their session (ON DELETE CASCADE); so do the
        # rights of the phones that opened them, and a phone made since the benchmark
        # started that held a right to one of them is the benchmark's own (http_load's).
        with database.connection_context(), write_transaction():
            phones = (
                DeviceSession.select(DeviceSession.device)
                .join(Device)
                .where(DeviceSession.session.in_(made) & (Device.created_at >= started))
            )
            Device.delete().where(Device.id.in_(phones)).execute()
            GameSession.delete().where(GameSession.id.in_(made)).execute()


def measure_each_database(
    measure: Callable[[str, str], bool], urls: Sequence[str] | None = None
) -> None:
    """``measure(url, label)`` on SQLite in a temporary folder, then on each PostgreSQL URL
    in ``urls`` (None: the command line's); exits 0 if every goal was met."""
    with tempfile.TemporaryDirectory() as directory:
        met = [measure(f"sqlite:///{directory}/bench.sqlite3", "SQLite")]
        for url in sys.argv[1:] if urls is None else urls:
            met.append(measure(url, "PostgreSQL"))
    sys.exit(0 if all(met) else 1)
