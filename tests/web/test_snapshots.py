"""A session's state saved every few events: whatever is played, undone, redone, corrected,
imported or written by another worker, the state and the events a worker loads through
its snapshots are those a full replay of the log gives; a snapshot of another engine is
never used; a restarted worker and an undo replay only the events after a snapshot."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from conftest import Table, start
from flask.testing import FlaskClient
from page_player import WALKS, submissions
from test_store_cache import play_yardkle

from scorekeeper import export, lifecycle, session_log, session_views, snapshots, store
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.models import Event, GameSession, Seat, Snapshot
from scorekeeper.recent import Recent

# A snapshot every 3 events, so that a short game has many and every write meets some.
EVERY = 3
STEPS = 40


@pytest.fixture(autouse=True)
def snapshots_every_few_events(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", EVERY)
    session_views.forget()


def full_replay(session_id: str) -> tuple[Any, ...]:
    """The state, the events, and whether an undo and a redo are possible, from the whole
    log replayed from the start."""
    row = GameSession.get_by_id(session_id)
    seats = [seat.name for seat in Seat.select().where(Seat.session == row).order_by(Seat.position)]
    logged = [
        (event.seq, event.action, event.undone, event.redoable)
        for event in Event.select().where(Event.session == row).order_by(Event.seq)
    ]
    state, events = session_log.replay(get_game(row.game), seats, row.options, logged)
    can_undo = any(not undone for _, _, undone, _ in logged)
    can_redo = any(redoable for *_, redoable in logged)
    return state, tuple(events), can_undo, can_redo


def loaded(view: session_views.SessionView) -> tuple[Any, ...]:
    return view.state, tuple(view.events), view.can_undo, view.can_redo


def assert_loaded_as_replayed(session_id: str, rng: random.Random) -> None:
    """The session as this worker keeps it, and as a worker that keeps nothing loads it
    (its newest snapshot and the events since), equal to a full replay; so does a slice
    of the log read as the history page reads one, its rulings worked out from the
    snapshot before it."""
    replayed = full_replay(session_id)
    events = replayed[1]
    assert loaded(session_views.load(session_id)) == replayed
    session_views.forget()
    cold = session_views.load(session_id)
    assert len(cold.events) == len(events)
    assert cold.events.newest_seq == (events[-1].seq if events else 0)
    if events:
        start = rng.randrange(len(events))
        stop = rng.randrange(start, len(events)) + 1
        assert cold.events[start:stop] == events[start:stop]
        assert cold.events[start] == events[start] and cold.events[-1] == events[-1]
    assert (cold.can_undo, cold.can_redo) == replayed[2:]
    assert loaded(cold) == replayed
    session_views.forget()
    assert loaded(session_views.load(session_id)) == replayed


def tap(client: FlaskClient, table: Table, rng: random.Random) -> bool:
    """A random move the session page offers, sent; False if it offers none (the end)."""
    offered = submissions(client.get(table.url).get_data(as_text=True), rng)
    if not offered:
        return False
    by_type: dict[str, list[Any]] = {}
    for sent in offered:
        by_type.setdefault(dict(sent.fields).get("type", ""), []).append(sent)
    chosen = rng.choice(by_type[rng.choice(sorted(by_type))])
    answer = client.post(chosen.action, data=chosen.data())
    if answer.status_code == 303 and "?" in answer.location:
        # A question of the game's own (a card's size): answered as the page offers.
        offered = submissions(client.get(answer.location).get_data(as_text=True), rng)
        if offered:
            client.post(offered[0].action, data=offered[0].data())
    return True


def correct_again(table: Table, rng: random.Random) -> None:
    """A live event corrected: a score sheet's round with other points, any other event
    with its own action (history rewritten from that event on all the same)."""
    view = session_views.load(table.id)
    live = [event for event in view.events if not event.undone]
    if not live:
        return
    event = rng.choice(live)
    action = dict(event.action)
    if action["type"] == "round" and "points" in action:
        action["points"] = [points + rng.randint(-3, 3) for points in action["points"]]
    # Refused if a later event no longer applies: then nothing is written.
    with contextlib.suppress(IllegalAction):
        store.correct(table.id, event.seq, action, view.version)


def imported_copy(session_id: str) -> str:
    """A new session imported from the session's export."""
    exported = export.session_json(session_views.load(session_id))
    copy_id, _key = lifecycle.import_session(export.read_export(exported))
    return copy_id


@pytest.mark.parametrize("walk", list(WALKS))
def test_every_step_of_a_game_loads_through_snapshots_as_a_full_replay_gives_it(
    client: FlaskClient, walk: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The older snapshots thinned out too: two kept at every boundary, then every fourth.
    monkeypatch.setattr(snapshots, "DENSE", 2)
    monkeypatch.setattr(snapshots, "SPARSE", 4)
    slug, seats, fields = WALKS[walk]
    table = start(client, slug, seats, **fields)
    rng = random.Random(f"snapshots {walk}")
    for _step in range(STEPS):
        roll = rng.random()
        if roll < 0.15:
            table.post("/undo", {})
        elif roll < 0.25:
            table.post("/redo", {})
        elif roll < 0.33:
            correct_again(table, rng)
        elif roll < 0.38:
            assert_loaded_as_replayed(imported_copy(table.id), rng)
        elif roll < 0.55:
            # Another worker, which keeps views of its own, writes.
            with pytest.MonkeyPatch.context() as other_worker:
                other_worker.setattr(session_views, "_views", Recent(256))
                if not tap(client, table, rng):
                    table.post("/undo", {})
        elif not tap(client, table, rng):
            table.post("/undo", {})  # the game is over: taken back to play on
        assert_loaded_as_replayed(table.id, rng)
    assert Snapshot.select().where(Snapshot.session == table.id).count() > 0


def test_a_snapshot_of_another_engine_is_not_used_and_is_written_again(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 10, seed=3)
    Snapshot.update(fingerprint="another engine").execute()
    session_views.forget()
    applied.clear()
    view = session_views.load(table.id)
    # The whole log replayed: none of the other engine's states was read.
    assert len(applied) == 10
    assert loaded(view) == full_replay(table.id)
    rows = Snapshot.select().where(Snapshot.session == table.id).order_by(Snapshot.seq)
    fingerprint = snapshots.fingerprint(yardkle.GAME)
    assert [(row.count, row.fingerprint) for row in rows] == [
        (3, fingerprint),
        (6, fingerprint),
        (9, fingerprint),
    ]
    # Written again, they serve the next worker.
    session_views.forget()
    applied.clear()
    view = session_views.load(table.id)
    assert len(applied) == 1
    assert loaded(view) == full_replay(table.id)


def test_a_restarted_worker_starts_from_the_stored_snapshot(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 11, seed=4)
    # A new process: no view kept, its engines' fingerprints worked out again.
    session_views.forget()
    snapshots.fingerprint.cache_clear()
    applied.clear()
    view = session_views.load(table.id)
    assert len(applied) == 2  # events 10 and 11, after the snapshot at 9
    assert loaded(view) == full_replay(table.id)
    assert view.events.older is not None and view.events.older.count == 9


def test_an_undo_replays_from_the_snapshot_before_the_undone_event(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 11, seed=5)
    applied.clear()
    undone = store.undo(table.id, 11)
    # The state before event 11: the snapshot at 9, and event 10 applied.
    assert len(applied) == 1
    assert loaded(undone) == full_replay(table.id)
    applied.clear()
    store.undo(table.id, 12)
    store.undo(table.id, 13)
    # Event 9 undone: the snapshot covering it is gone, the one at 6 serves.
    assert len(applied) == 2
    assert [row.count for row in Snapshot.select().where(Snapshot.session == table.id)] == [3, 6]
    assert loaded(session_views.load(table.id)) == full_replay(table.id)


def test_an_append_on_a_boundary_saves_a_snapshot_in_its_write(table: Table) -> None:
    play_yardkle(table, 6, seed=6)
    rows = Snapshot.select().where(Snapshot.session == table.id).order_by(Snapshot.seq)
    assert [(row.seq, row.count, row.live) for row in rows] == [(3, 3, True), (6, 6, True)]
    session_views.forget()
    assert session_views.load(table.id).state == full_replay(table.id)[0]


def test_older_snapshots_are_kept_at_every_few_boundaries_only(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshots, "DENSE", 2)
    monkeypatch.setattr(snapshots, "SPARSE", 4)
    play_yardkle(table, 30, seed=7)
    rows = Snapshot.select().where(Snapshot.session == table.id).order_by(Snapshot.seq)
    # The two newest, and every twelfth event's before them.
    assert [row.count for row in rows] == [12, 24, 27, 30]
    # An import keeps the same ones of those its replay passed.
    copy_id = imported_copy(table.id)
    rows = Snapshot.select().where(Snapshot.session == copy_id).order_by(Snapshot.seq)
    assert [row.count for row in rows] == [12, 24, 27, 30]
    assert_loaded_as_replayed(copy_id, random.Random(7))
