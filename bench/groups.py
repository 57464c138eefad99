"""What the views across sessions cost as they grow: a group's pages at 1,000 finished
sessions against 10, a phone's home page with 60 sessions against 1, and a group's JSON
export at 1,000 finished sessions against reading the same sessions' event rows raw.

They read the rows the write that ended each session kept (scorekeeper/read_model.py),
never a session's log, so their cost grows only with the rows they list or count. Goals,
each a ratio to its anchor measured in the same run: the group page, its statistics page
and the API's statistics at 1,000 finished sessions at most 2 times the same at 10; the
home page of a phone with 60 sessions (its first page lists 30) at most 2 times that of a
phone with 1; the group's JSON export (``/g/<id>/export.json``) at most 3 times one SELECT
of the same sessions' event rows, every column, fetched and not decoded. Each is the median
of repeated requests through Flask's test client, the anchor's and the measured one's asked
in turn; the export's first request, which makes each session's part (and keeps the finished
ones' texts), is printed apart.

The sessions are copies of one score sheet played to its end, inserted in bulk with the
rows its write kept (scorekeeper/read_model.py) and counted in their group's totals
(scorekeeper/group_totals.py), ended on days spread over the year a club plays 1,000
games in; the benchmark deletes them, its groups and its phones at the
end.

Run: .venv/bin/python bench/groups.py [--sessions N] [--only WHAT[,WHAT]]
[postgresql://user@host/db ...] (SQLite in a temporary directory always; each URL given is
measured too). ``--sessions``: the large group's sessions (1,000); ``--only``: measure only
these of group, stats, api, home, export.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from flask.testing import FlaskClient
from peewee import chunked
from yardkle_game import measure_each_database, open_app

from scorekeeper import group_totals, groups, keys, lifecycle, session_views, store
from scorekeeper.db import database, write_transaction
from scorekeeper.games import get_game
from scorekeeper.models import (
    Device,
    DeviceGroup,
    DeviceSession,
    Event,
    GameSession,
    PlayerGroup,
    Seat,
    utc_now,
)

GOAL_RATIO = 2.0
SMALL_GROUP, LARGE_GROUP = 10, 1000
FEW_SESSIONS, MANY_SESSIONS = 1, 60
WARM_UP, TIMED = 3, 21
PLAYERS = ("Ann", "Bo", "Cy", "Di")
# Each game to the first to 100 points, four rounds played.
ROUNDS = ([30, 20, 10, 0], [25, 35, 5, 10], [30, 10, 40, 20], [20, 40, 5, 30])


class Made:
    """What a benchmark made on its database: deleted at the end (``made_deleted``)."""

    def __init__(self) -> None:
        self.sessions: list[str] = []
        self.groups: list[str] = []
        self.started = utc_now()


@contextmanager
def made_deleted() -> Iterator[Made]:
    made = Made()
    try:
        yield made
    finally:
        # Seats, events and rights go with their session or group (ON DELETE CASCADE); a
        # group's deletion leaves its sessions, deleted first. A phone made since the
        # benchmark started holding a right to one of its sessions or groups is its own.
        with database.connection_context(), write_transaction():
            phones = [
                right.select(right.device)
                .join(Device)
                .where(thing.in_(made_ones) & (Device.created_at >= made.started))
                for right, thing, made_ones in (
                    (DeviceSession, DeviceSession.session, made.sessions),
                    (DeviceGroup, DeviceGroup.group, made.groups),
                )
            ]
            for held in phones:
                Device.delete().where(Device.id.in_(held)).execute()
            GameSession.delete().where(GameSession.id.in_(made.sessions)).execute()
            PlayerGroup.delete().where(PlayerGroup.id.in_(made.groups)).execute()


def played_game(made: Made, group: groups.Group | None) -> str:
    """A score sheet of ``PLAYERS`` (the group's, if given) played to its end: its id."""
    game = get_game("score-sheet")
    seating = None
    if group is not None:
        seating = groups.seating(group, [player.id for player in group.players], game)
    session_id, _key = lifecycle.create(game.slug, list(PLAYERS), {"target": 100}, seating=seating)
    made.sessions.append(session_id)
    for version, points in enumerate(ROUNDS):
        store.append(session_id, {"type": "round", "points": points}, version)
    assert session_views.load(session_id).finished
    return session_id


def without_id(row: dict[str, Any]) -> dict[str, Any]:
    return {column: value for column, value in row.items() if column != "id"}


def copies(made: Made, original: str, count: int) -> list[str]:
    """``count`` copies of the finished session ``original`` (its row, seats with their
    ends, events), each ended a day apart in threes, inserted in bulk and counted in its
    group's totals: their ids."""
    row = GameSession.get_by_id(original)
    seats = [without_id(seat.__data__) for seat in Seat.select().where(Seat.session == original)]
    events = [without_id(e.__data__) for e in Event.select().where(Event.session == original)]
    ids = [keys.new_id() for _ in range(count)]
    sessions, seat_rows, event_rows = [], [], []
    for index, session_id in enumerate(ids):
        ended = row.updated_at - timedelta(days=index // 3)
        sessions.append(
            {
                **row.__data__,
                "id": session_id,
                "edit_key": keys.new_key(),
                "created_at": ended,
                "updated_at": ended,
                "finished_at": ended,
            }
        )
        # Without their ids: the database numbers the copies.
        seat_rows += [{**seat, "session": session_id} for seat in seats]
        event_rows += [{**event, "session": session_id} for event in events]
    with write_transaction():
        for model, rows in ((GameSession, sessions), (Seat, seat_rows), (Event, event_rows)):
            for batch in chunked(rows, lifecycle.ROWS_PER_INSERT):
                model.insert_many(batch).execute()
        # Each counted in its group's totals, as the write that ended it would.
        for session_id in ids:
            counted = group_totals.counted(session_id)
            if counted is not None:
                group_totals.put_in(counted)
    made.sessions += ids
    return ids


def group_of(made: Made, sessions: int) -> str:
    """A group of ``PLAYERS`` with ``sessions`` finished score sheets: its id."""
    group = groups.create(f"Club of {sessions}", list(PLAYERS))
    made.groups.append(group.id)
    copies(made, played_game(made, group), sessions - 1)
    return group.id


def phone_with(made: Made, client: FlaskClient, sessions: int) -> None:
    """A phone (``client``) holding ``sessions`` finished sessions on its home page: it
    started the first, was given the others."""
    response = client.post(
        "/new/score-sheet",
        data={
            **{f"seats-{i}": name for i, name in enumerate(PLAYERS)},
            "option_target": "100",
            "form_key": keys.new_key(),
        },
    )
    assert response.status_code == 303, response.status_code
    first = response.location.rsplit("/", 1)[1]
    made.sessions.append(first)
    # Outside the request: its end closed the connection it used.
    with database.connection_context():
        for version, points in enumerate(ROUNDS):
            store.append(first, {"type": "round", "points": points}, version)
        rights = DeviceSession.select(DeviceSession.device).where(DeviceSession.session == first)
        [(device,)] = database.execute(rights).fetchall()
        given = copies(made, first, sessions - 1)
        rows = [{"device": device, "session": session_id, "role": "edit"} for session_id in given]
        with write_transaction():
            DeviceSession.insert_many(rows).execute()


Request = tuple[FlaskClient, str, str]  # who asks, the path, what its answer shows


def medians_ms(anchor: Request, measured: Request) -> tuple[float, float]:
    """The median milliseconds of TIMED GETs of each (after WARM_UP), the two asked in
    turn so that load coming and going on a shared machine falls on both; each answer
    checked to be 200 and to show what it should."""
    costs: tuple[list[float], list[float]] = ([], [])
    for attempt in range(WARM_UP + TIMED):
        for (client, path, shows), kept in zip((anchor, measured), costs, strict=True):
            start = time.perf_counter()
            response = client.get(path)
            cost = (time.perf_counter() - start) * 1000
            assert response.status_code == 200, (path, response.status_code)
            assert shows in response.get_data(as_text=True), (path, shows)
            if attempt >= WARM_UP:
                kept.append(cost)
    return statistics.median(costs[0]), statistics.median(costs[1])


def verdict(label: str, what: str, anchor: float, measured: float, small: str, large: str) -> bool:
    ratio = measured / anchor
    met = ratio <= GOAL_RATIO
    print(
        f"{label}: {what} {small} {anchor:.2f} ms (anchor), {large} {measured:.2f} ms: "
        f"ratio {ratio:.2f} ({'meets' if met else 'MISSES'} the {GOAL_RATIO:.0f} times goal)"
    )
    return met


PAGES: tuple[tuple[str, str, str, Callable[[str], str]], ...] = (
    ("group", "group page", " win", lambda group_id: f"/g/{group_id}"),
    ("stats", "statistics page", "Wins over time", lambda group_id: f"/g/{group_id}/stats"),
    ("api", "API statistics", '"played"', lambda group_id: f"/api/v1/groups/{group_id}/stats"),
)
MEASURED = ("group", "stats", "api", "home", "export")
EXPORT_GOAL_RATIO = 3.0
# Every column of the group's sessions' event rows, as the driver hands them over.
RAW_EVENTS = (
    "SELECT e.* FROM event e JOIN game_session s ON s.id = e.session_id "
    "WHERE s.group_id = {p} ORDER BY s.created_at, e.session_id, e.seq"
)


def raw_events_ms(group_id: str) -> float:
    """The milliseconds one SELECT of the group's sessions' event rows takes, fetched."""
    with database.connection_context():
        start = time.perf_counter()
        rows = database.execute_sql(RAW_EVENTS.format(p=database.param), (group_id,)).fetchall()
        cost = (time.perf_counter() - start) * 1000
    assert rows
    return cost


def export_ms(client: FlaskClient, group_id: str) -> float:
    start = time.perf_counter()
    response = client.get(f"/g/{group_id}/export.json")
    cost = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, response.status_code
    assert b'"tabletop-scorekeeper/group"' in response.get_data()
    return cost


def measure_export(label: str, client: FlaskClient, group_id: str, sessions: int) -> bool:
    """The group's JSON export against reading its events raw: the median of TIMED requests
    after WARM_UP, each asked in turn with a raw read; its first request (each finished
    session's part made and kept) against the same median raw read, apart."""
    first = export_ms(client, group_id)
    costs: tuple[list[float], list[float]] = ([], [])
    for attempt in range(WARM_UP + TIMED):
        anchor, measured = raw_events_ms(group_id), export_ms(client, group_id)
        if attempt >= WARM_UP:
            costs[0].append(anchor)
            costs[1].append(measured)
    anchor, measured = statistics.median(costs[0]), statistics.median(costs[1])
    ratio = measured / anchor
    met = ratio <= EXPORT_GOAL_RATIO
    print(
        f"{label}: group export JSON at {sessions:,} {measured:.2f} ms, its events read raw "
        f"{anchor:.2f} ms (anchor): ratio {ratio:.2f} "
        f"({'meets' if met else 'MISSES'} the {EXPORT_GOAL_RATIO:.0f} times goal); its first "
        f"request {first:.0f} ms: ratio {first / anchor:.0f} (no goal)"
    )
    return met


def measure(database_url: str, label: str, large_group: int, only: set[str]) -> bool:
    app = open_app(database_url)
    met: list[bool] = []
    with made_deleted() as made:
        with database.connection_context():
            small = group_of(made, SMALL_GROUP) if only & {"group", "stats", "api"} else ""
            large = group_of(made, large_group) if only - {"home"} else ""
        client = app.test_client()
        for key, what, shows, path in PAGES:
            if key not in only:
                continue
            anchor, measured = medians_ms(
                (client, path(small), shows), (client, path(large), shows)
            )
            met.append(
                verdict(label, what, anchor, measured, f"at {SMALL_GROUP}", f"at {large_group:,}")
            )
        if "export" in only:
            met.append(measure_export(label, client, large, large_group))
        if "home" not in only:
            return all(met)
        phones: dict[int, FlaskClient] = {}
        for sessions in (FEW_SESSIONS, MANY_SESSIONS):
            phones[sessions] = app.test_client()
            phone_with(made, phones[sessions], sessions)
        anchor, measured = medians_ms(
            (phones[FEW_SESSIONS], "/", " win"), (phones[MANY_SESSIONS], "/", " win")
        )
        met.append(
            verdict(
                label,
                "home page",
                anchor,
                measured,
                f"with {FEW_SESSIONS} session",
                f"with {MANY_SESSIONS}",
            )
        )
    return all(met)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=LARGE_GROUP)
    parser.add_argument("--only", default=",".join(MEASURED))
    parser.add_argument("urls", nargs="*", metavar="postgresql://...")
    options = parser.parse_args()
    only = set(options.only.split(","))
    if not only <= set(MEASURED):
        parser.error(f"--only takes {', '.join(MEASURED)}")
    measure_each_database(
        lambda url, label: measure(url, label, options.sessions, only), options.urls
    )


if __name__ == "__main__":
    main()
