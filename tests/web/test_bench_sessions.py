"""The benchmarks leave the database they are given as they found it."""

from __future__ import annotations

from flask import Flask
from yardkle_game import SEATS, seeded_actions, sessions_deleted_afterwards

from scorekeeper import lifecycle, store
from scorekeeper.db import database
from scorekeeper.models import Device, DeviceSession, Event, GameSession, Seat


def test_sessions_a_benchmark_made_are_deleted_with_their_seats_events_and_phones(
    app: Flask,
) -> None:
    with app.app_context():
        with database.connection_context():
            kept, _key = lifecycle.create("yardkle", ["Ann", "Bo"], {})
        with sessions_deleted_afterwards() as new_session, database.connection_context():
            made = [new_session(10_000)[0] for _ in range(2)]
            actions = seeded_actions(SEATS, 10_000, seed=1, limit=5)
            for version, action in enumerate(actions):
                store.append(made[0], action, version)
            assert Event.select().where(Event.session == made[0]).count() == 5
            assert Seat.select().where(Seat.session.in_(made)).count() == 16
            # The phone http_load opens a session page with, and a phone of someone else:
            # each visits twice, which gives it a device.
            for session_id in (made[0], kept):
                phone = app.test_client()
                assert [phone.get(f"/s/{session_id}").status_code for _ in range(2)] == [200] * 2
            assert Device.select().count() == 2
        with database.connection_context():
            assert [row.id for row in GameSession.select()] == [kept]
            assert Seat.select().count() == 2
            assert Event.select().count() == 0
            assert [row.session_id for row in DeviceSession.select()] == [kept]
            assert Device.select().count() == 1
