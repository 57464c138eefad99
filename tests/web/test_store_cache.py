"""The store keeps each session's view per version: a read of an unchanged session
replays nothing, a read after another worker's appends applies only those, and every
write leaves exactly the view a full replay of the log gives."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import Statements, Table, start, start_session
from flask.testing import FlaskClient
from test_cryptruck_game import play_round

from scorekeeper import announced, session_views, store
from scorekeeper.db import database, is_sqlite
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.models import GameSession
from scorekeeper.recent import Recent


@pytest.fixture(autouse=True)
def cold_worker() -> None:
    """Each test starts as a worker that has kept no view yet."""
    session_views.forget()


def snapshot(view: session_views.SessionView) -> tuple[Any, ...]:
    return (view.version, view.state, view.events, view.seats, view.options, view.deck)


def replayed(session_id: str) -> tuple[Any, ...]:
    """The session as a worker that kept nothing builds it: a full replay of its log."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_views, "_views", Recent(256))
        return snapshot(session_views.load(session_id))


def yardkle_action(state: Any, rng: random.Random) -> dict[str, Any]:
    """A legal random action: a roll of the dice left, or the best set-aside, banked at times."""
    if state.turn.pending_roll is None:
        return {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(state.turn.dice_left)]}
    keep = list(yardkle.best_keep(state.turn.pending_roll))
    action = {"type": "keep", "dice": keep, "bank": False}
    after = yardkle.GAME.apply(state, yardkle.GAME.parse_action(action))
    action["bank"] = yardkle.can_bank(after) and rng.random() < 0.4
    return action


def play_yardkle(table: Table, events: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(events):
        view = session_views.load(table.id)
        store.append(table.id, yardkle_action(view.state, rng), view.version)


def test_a_second_load_of_an_unchanged_session_applies_nothing(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 30, seed=1)
    session_views.forget()
    applied.clear()
    first = session_views.load(table.id)
    assert len(applied) == 30
    assert session_views.load(table.id) == first
    assert len(applied) == 30
    assert table.state()["version"] == 30 and len(applied) == 30


def test_a_write_applies_its_action_once_on_the_view_it_keeps(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 10, seed=2)
    view = session_views.load(table.id)
    action = yardkle_action(view.state, random.Random(2))
    applied.clear()
    after = store.append(table.id, action, 10)
    # Once to rule on it; the redirected page then reads the kept view.
    assert len(applied) == 1
    assert session_views.load(table.id) == after and after.version == view.version + 1
    assert len(applied) == 1


def test_a_cold_worker_replays_once_for_a_write(table: Table, applied: list[Any]) -> None:
    play_yardkle(table, 12, seed=3)
    action = yardkle_action(session_views.load(table.id).state, random.Random(3))
    session_views.forget()
    applied.clear()
    store.append(table.id, action, 12)
    assert len(applied) == 12 + 1


def test_after_another_worker_appends_a_load_applies_only_the_new_events(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 20, seed=4)
    session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 3, seed=5)
    applied.clear()
    view = session_views.load(table.id)
    assert view.version == 23 and [event.seq for event in view.events[-3:]] == [21, 22, 23]
    assert [yardkle.GAME.action_to_json(action) for action in applied] == [
        event.action for event in view.events[-3:]
    ]
    assert snapshot(view) == replayed(table.id)


def test_a_view_catching_up_on_appends_knows_its_undo_and_redo_and_reads_only_new_events(
    table: Table, statements: Statements
) -> None:
    play_yardkle(table, 6, seed=3)
    undone = store.undo(table.id, 6)
    play_yardkle(table, 2, seed=8)  # the append ends the redo trail
    session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 3, seed=5)
    statements.sql.clear()
    with pytest.MonkeyPatch.context() as deaf:
        # Read from the database: on PostgreSQL the worker may have heard the appends
        # announced with their events, and then reads none (test_announced_versions).
        deaf.setattr(announced, "current", None)
        view = session_views.load(table.id)
    assert view.version == undone.version + 5
    # Given by the catch-up, without a scan of the log: the new events are live appends.
    assert {"can_undo": True, "can_redo": False}.items() <= vars(view).items()
    assert (view.can_undo, view.can_redo) == (True, False)
    # The version, then the row's columns with the three new events in one statement: never
    # the whole log.
    reads = [sql for sql in statements.sql if sql.startswith("SELECT")]
    assert len(reads) == 2
    assert sum('"seq" >' in sql for sql in reads) == 1
    assert snapshot(view) == replayed(table.id)


def test_after_another_worker_undoes_a_load_replays_the_whole_log(
    table: Table, applied: list[Any]
) -> None:
    play_yardkle(table, 20, seed=6)
    session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        store.undo(table.id, 20)
        play_yardkle(table, 2, seed=7)
    applied.clear()
    view = session_views.load(table.id)
    assert view.events[19].undone and not view.events[19].redoable
    assert len(applied) == 19 + 2
    assert snapshot(view) == replayed(table.id)


def history_edit(session_id: str, rng: random.Random, next_action: Any) -> None:
    """One seeded random write: an undo, a redo, a correction or an append."""
    view = session_views.load(session_id)
    live = [event for event in view.events if not event.undone]
    choice = rng.random()
    try:
        if choice < 0.3 and view.can_undo:
            store.undo(session_id, view.version)
        elif choice < 0.55 and view.can_redo:
            store.redo(session_id, view.version)
        elif choice < 0.7 and live:
            event = rng.choice(live)
            store.correct(session_id, event.seq, event.action, view.version)
        elif choice < 0.8 and live:
            # A correction that may well break a later event: refused, nothing written.
            event = rng.choice(live)
            store.correct(session_id, event.seq, next_action(view, rng), view.version)
        elif not view.finished:
            store.append(session_id, next_action(view, rng), view.version)
    except IllegalAction:
        pass


def check_every_write_is_exact(
    client: FlaskClient, session_id: str, seed: int, next_action: Any
) -> None:
    rng = random.Random(seed)
    for step in range(40):
        if step % 10 == 9:
            # Another worker writes now and then: this one catches up or replays.
            with pytest.MonkeyPatch.context() as other_worker:
                other_worker.setattr(session_views, "_views", Recent(256))
                history_edit(session_id, rng, next_action)
        else:
            history_edit(session_id, rng, next_action)
        assert snapshot(session_views.load(session_id)) == replayed(session_id), step
    exported = client.get(f"/s/{session_id}/export.json").get_json()
    response = client.post("/api/v1/sessions/import", json=exported)
    assert response.status_code == 201
    imported = response.get_json()["id"]
    assert (
        snapshot(session_views.load(imported))[1:] == snapshot(session_views.load(session_id))[1:]
    )
    assert snapshot(session_views.load(imported)) == replayed(imported)


def redo_or(make: Any) -> Any:
    """A next action: the redo trail's next event (legal by construction), else ``make``."""

    def next_action(view: session_views.SessionView, rng: random.Random) -> dict[str, Any]:
        redoable = [event for event in view.events if event.redoable]
        return redoable[0].action if redoable else make(view, rng)

    return next_action


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_redo_correct_and_import_in_yardkle_give_the_replayed_views(
    client: FlaskClient, seed: int
) -> None:
    table = start_session(client, ["Ann", "Bo", "Cy"])
    play_yardkle(table, 40, seed)
    check_every_write_is_exact(
        client, table.id, seed, redo_or(lambda view, rng: yardkle_action(view.state, rng))
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_undo_redo_correct_and_import_in_cryptruck_give_the_replayed_views(
    client: FlaskClient, seed: int
) -> None:
    table = start(client, "cryptruck", ["Ann", "Bo", "Cy"])
    play_round(table, random.Random(seed), ["red", "yellow", "green"], 1)

    def a_live_action(view: session_views.SessionView, rng: random.Random) -> dict[str, Any]:
        # An action already recorded: refused as an append (a card played twice), and as a
        # correction of another event mostly refused too; the redo trail gives legal appends.
        return rng.choice([event.action for event in view.events if not event.undone])

    check_every_write_is_exact(client, table.id, seed, redo_or(a_live_action))


def writes(sql: list[str]) -> list[str]:
    """Each statement that writes, up to its WHERE; a data-modifying WITH as its parts."""
    parts = []
    for statement in sql:
        if statement.startswith("WITH "):
            update, _, insert = statement.removeprefix("WITH written AS (").partition(") ")
            # An announced append logs its event in a second part, then announces it.
            parts += [update, insert.removeprefix(", logged AS (")]
        else:
            parts.append(statement)
    return [s.split(" WHERE ")[0] for s in parts if s.startswith(("INSERT", "UPDATE", "DELETE"))]


def test_an_append_writes_its_event_row_and_no_other(table: Table, statements: Statements) -> None:
    play_yardkle(table, 50, seed=8)
    action = yardkle_action(session_views.load(table.id).state, random.Random(8))
    statements.sql.clear()
    store.append(table.id, action, 50)
    changed = writes(statements.sql)
    assert [s.split(" (")[0] for s in changed if "event" in s] == ['INSERT INTO "event"']
    assert not any(s.startswith('UPDATE "event"') for s in changed)


def test_an_append_after_an_undo_ends_only_the_redo_trail_rows(
    table: Table, statements: Statements
) -> None:
    play_yardkle(table, 50, seed=9)
    store.undo(table.id, 50)
    undone = session_views.load(table.id).events[-1]
    statements.sql.clear()
    store.append(table.id, undone.action, 51)
    updates = [s for s in statements.sql if s.startswith('UPDATE "event"')]
    assert len(updates) == 1 and '"redoable" = ' in updates[0].split(" WHERE ")[1]
    view = session_views.load(table.id)
    assert view.events[-2].undone and not view.events[-2].redoable and not view.can_redo
    assert snapshot(view) == replayed(table.id)


def test_an_undo_writes_one_event_row(table: Table, statements: Statements) -> None:
    play_yardkle(table, 10, seed=10)
    statements.sql.clear()
    store.undo(table.id, 10)
    assert len([s for s in statements.sql if s.startswith('UPDATE "event"')]) == 1
    assert [event.seq for event in session_views.load(table.id).events if event.undone] == [10]


def test_a_refused_write_keeps_the_view_as_it_was(table: Table) -> None:
    play_yardkle(table, 5, seed=11)
    before = session_views.load(table.id)
    with pytest.raises(IllegalAction):
        store.append(table.id, {"type": "bank"}, 5)
    with pytest.raises(store.StaleVersion):
        store.append(table.id, yardkle_action(before.state, random.Random(11)), 4)
    assert session_views.load(table.id) == before


def test_a_write_rolled_back_after_its_event_was_written_leaves_no_view(table: Table) -> None:
    play_yardkle(table, 5, seed=12)
    before = session_views.load(table.id)

    def failing_answer(_view: session_views.SessionView) -> Any:
        raise RuntimeError("the answer could not be made")

    first, second = (yardkle_action(before.state, random.Random(seed)) for seed in (1, 2))
    once = store.OneTimeKey("k1", "request_key", "f", failing_answer)
    with pytest.raises(RuntimeError):
        store.append(table.id, first, 5, once)
    assert session_views.load(table.id) == before
    assert snapshot(before) == replayed(table.id)
    again = store.append(table.id, second, 5)
    assert again.version == 6 and again.events[-1].action == second
    assert snapshot(again) == replayed(table.id)


def test_a_write_updates_only_the_session_columns_it_changes(
    table: Table, statements: Statements
) -> None:
    play_yardkle(table, 3, seed=5)
    action = yardkle_action(session_views.load(table.id).state, random.Random(5))
    statements.sql.clear()
    store.append(table.id, action, 3)
    [update] = [s for s in writes(statements.sql) if s.startswith('UPDATE "game_session"')]
    columns = update.removeprefix('UPDATE "game_session" SET ').split(", ")
    # PostgreSQL's append at once sets only what an append changes; the locked write sets
    # when history was last rewritten too (unchanged by an append, changed by an undo).
    assert sorted(column.split(" = ")[0] for column in columns) == [
        '"finished"',
        *(['"rewritten_at"'] if is_sqlite() else []),
        '"updated_at"',
        '"version"',
    ]


def test_on_postgresql_an_append_to_the_kept_version_is_one_statement(
    table: Table, statements: Statements
) -> None:
    play_yardkle(table, 6, seed=2)
    view = session_views.load(table.id)
    action = yardkle_action(view.state, random.Random(2))
    statements.sql.clear()
    written = store.append(table.id, action, view.version)
    if is_sqlite():
        # SQLite writes in the worker's own process: the locked write has no round trips.
        assert statements.sql[0].startswith('SELECT "t1"."id"')
        return
    [statement] = statements.sql
    assert statement.startswith('WITH written AS (UPDATE "game_session"')
    assert written.version == view.version + 1
    assert snapshot(session_views.load(table.id)) == snapshot(written) == replayed(table.id)


def test_on_postgresql_an_append_after_another_workers_appends_catches_up_in_one_query(
    table: Table, statements: Statements
) -> None:
    play_yardkle(table, 6, seed=2)
    session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 2, seed=9)
    # The phone saw the other worker's answer: it sends the version that one gave.
    seen = replayed(table.id)
    action = yardkle_action(seen[1], random.Random(2))
    statements.sql.clear()
    with pytest.MonkeyPatch.context() as deaf:
        # Read from the database: the worker may have heard the appends announced with
        # their events by now, and then reads none (test_announced_versions).
        deaf.setattr(announced, "current", None)
        written = store.append(table.id, action, seen[0])
    if not is_sqlite():
        # The first time on this connection, the catch-up is prepared first (once).
        caught_up, appended = [s for s in statements.sql if not s.startswith("PREPARE ")]
        assert caught_up.startswith('SELECT "t1"."version", "t1"."rewritten_at"')
        assert '"t2"."seq" >' in caught_up
        assert appended.startswith("WITH written AS (UPDATE")
    assert written.version == seen[0] + 1
    assert (written.can_undo, written.can_redo) == (True, False)
    assert snapshot(written) == snapshot(session_views.load(table.id)) == replayed(table.id)


def test_an_append_to_a_version_another_worker_moved_on_is_stale_and_writes_nothing(
    table: Table,
) -> None:
    play_yardkle(table, 6, seed=2)
    seen = session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 1, seed=9)
    # This worker's view is still the one the phone saw: its rules accept the action.
    action = yardkle_action(seen.state, random.Random(2))
    with pytest.raises(store.StaleVersion) as stale:
        store.append(table.id, action, seen.version)
    assert stale.value.current == seen.version + 1
    assert session_views.current_version(table.id) == seen.version + 1
    assert snapshot(session_views.load(table.id)) == replayed(table.id)


def test_an_append_that_ends_the_game_records_when_it_ended(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"], winning_score="1000")
    rng = random.Random(6)
    while not (view := session_views.load(table.id)).finished:
        written = store.append(table.id, yardkle_action(view.state, rng), view.version)
    assert written.finished_at is not None
    with database.connection_context():
        row = GameSession.get_by_id(table.id)
    assert (row.finished, row.finished_at, row.updated_at) == (
        True,
        written.finished_at,
        written.finished_at,
    )
    assert snapshot(written) == replayed(table.id)
    assert session_views.load(table.id).finished_at == written.finished_at


def test_an_append_knows_its_undo_and_redo_without_reading_the_log(table: Table) -> None:
    play_yardkle(table, 4, seed=3)
    undone = store.undo(table.id, 4)
    assert (undone.can_undo, undone.can_redo) == (True, True)
    action = yardkle_action(undone.state, random.Random(3))
    written = store.append(table.id, action, 5)
    kept = session_views.load(table.id)
    # Given by the write, carried to the view the next request reads: no scan of the log.
    assert {"can_undo": True, "can_redo": False}.items() <= vars(kept).items()
    session_views.forget()
    replayed_view = session_views.load(table.id)
    assert (replayed_view.can_undo, replayed_view.can_redo) == (True, False)
    assert written.version == replayed_view.version == 6


def test_an_append_and_a_catching_up_grow_the_kept_log_without_copying_it(table: Table) -> None:
    play_yardkle(table, 10, seed=6)
    kept = session_views.load(table.id)
    written = store.append(table.id, yardkle_action(kept.state, random.Random(6)), 10)
    # The new view's log and its state's turns hold the kept view's lists, one item longer.
    assert written.events.newer._items is kept.events.newer._items and len(written.events) == 11
    assert written.state.turns._items is kept.state.turns._items
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 2, seed=7)
    caught_up = session_views.load(table.id)
    assert caught_up.events.newer._items is kept.events.newer._items and len(caught_up.events) == 13
    assert list(kept.events) == list(caught_up.events[:10]) and len(kept.events) == 10
    assert snapshot(caught_up) == replayed(table.id)


def test_a_write_that_lost_the_race_leaves_the_kept_log_as_it_was(table: Table) -> None:
    play_yardkle(table, 6, seed=8)
    kept = session_views.load(table.id)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        play_yardkle(table, 1, seed=9)
    with pytest.raises(store.StaleVersion):
        store.append(table.id, yardkle_action(kept.state, random.Random(8)), 6)
    # The refused action never shows in the kept view, nor in the one that catches up.
    assert len(kept.events) == 6
    assert snapshot(session_views.load(table.id)) == replayed(table.id)
