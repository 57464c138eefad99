"""What keeps a request's cost flat however long the session: a read of an unchanged
session answers the text it made for that version, watching phones share one render of
each version of its page, a write converts only its new records, an unchanged cookie is
not signed again, the links on every page are built once, and SQLite writers from
several workers queue at a lock file."""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

import flask.app
import pytest
import werkzeug.sansio.request
from conftest import (
    Statements,
    Table,
    act,
    api_session,
    make_app,
    ok,
    start,
    start_session,
)
from flask import Flask
from flask.testing import FlaskClient
from page_player import WALKS
from test_decks import sizes_form

from scorekeeper import db, devices, lifecycle, session_views, store
from scorekeeper.db import database, is_sqlite, write_transaction
from scorekeeper.games import GAMES
from scorekeeper.games.base import Accepts, Expected, resolve_options
from scorekeeper.models import GameSession
from scorekeeper.recent import Recent
from scorekeeper.web import api, https, sessions, state_json


def sessions_given(monkeypatch: pytest.MonkeyPatch, function: str) -> list[str]:
    """The id of the session of each view the API's ``function`` is called with."""
    ids: list[str] = []
    real = getattr(api, function)

    def counted(view: Any) -> Any:
        ids.append(view.id)
        return real(view)

    monkeypatch.setattr(api, function, counted)
    return ids


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The id of each session whose state answer the API builds."""
    return sessions_given(monkeypatch, "session_fields_text")


def test_a_read_of_an_unchanged_session_answers_the_text_made_for_its_version(
    client: FlaskClient, made: list[str]
) -> None:
    table = api_session(client, ["Ann", "Bo"])
    made.clear()  # the creation's own answer
    first = client.get(table.url)
    second = client.get(table.url)
    assert made == [table.id]
    assert second.get_data() == first.get_data()
    assert second.mimetype == "application/json"
    table.ok({"type": "total", "points": 600})
    assert made == [table.id, table.id]
    # The write's own answer made the text of its version: the next read makes none.
    assert table.read()["state"]["scores"] == [600, 0]
    assert made == [table.id, table.id]


def test_the_kept_answer_follows_the_address_its_links_name(
    client: FlaskClient, made: list[str]
) -> None:
    table = api_session(client, ["Ann", "Bo"])
    here = client.get(table.url).get_json()
    there = client.get(table.url, base_url="http://table.example:5000").get_json()
    rooted = client.get(table.url, environ_overrides={"SCRIPT_NAME": "/score"}).get_json()
    secure = client.get(table.url, base_url="https://localhost").get_json()
    assert here["links"]["view"] == f"http://localhost/s/{table.id}"
    assert there["links"]["view"] == f"http://table.example:5000/s/{table.id}"
    assert rooted["links"]["view"] == f"http://localhost/score/s/{table.id}"
    assert secure["links"]["export"] == f"https://localhost/api/v1/sessions/{table.id}/export"
    # A write's lean answer names the same.
    lean = table.post(
        "/events",
        {"version": 0, "action": {"type": "total", "points": 500}},
        headers={"Prefer": "return=minimal"},
    )
    assert lean.get_json()["links"]["view"] == f"http://localhost/s/{table.id}"


def test_a_lean_answers_lasting_fields_are_made_once_and_say_what_the_fields_say(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = sessions_given(monkeypatch, "_lasting_fields")
    table = api_session(client, ["Ann", "Bo"])
    made.clear()  # the creation's own answer
    lean = {"Authorization": f"Bearer {table.key}", "Prefer": "return=minimal"}
    answers = [
        client.post(
            table.url + "/events",
            json={"version": version, "action": {"type": "total", "points": 500}},
            headers=lean,
        )
        for version in range(3)
    ]
    assert [answer.status_code for answer in answers] == [201, 201, 201]
    assert made == [table.id]
    last = answers[-1].get_json()
    assert (last["version"], last["seats"], last["standings"][0]["score"]) == (
        3,
        ["Ann", "Bo"],
        1000,
    )
    with app.test_request_context():
        assert last == json.loads(json.dumps(api.session_fields(session_views.load(table.id))))
    # Another address the app is reached at: its links, made once more.
    made.clear()
    there = client.post(
        table.url + "/events",
        json={"version": 3, "action": {"type": "total", "points": 0}},
        headers=lean,
        base_url="http://table.example:5000",
    ).get_json()
    assert there["links"]["view"] == f"http://table.example:5000/s/{table.id}"
    assert (there["version"], made) == (4, [table.id])


def test_a_sessions_edit_key_is_read_once_for_every_write_after(
    client: FlaskClient, statements: Statements
) -> None:
    table = api_session(client, ["Ann", "Bo"])
    session_views.forget()
    statements.sql.clear()
    for version in range(4):
        table.ok({"type": "total", "points": 500 if version == 0 else 0})
    roll = {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}
    wrong = table.post("/events", {"version": 4, "action": roll}, key="Bearer " + "x" * 32)
    assert wrong.status_code == 403
    key_reads = [sql for sql in statements.sql if sql.startswith('SELECT "t1"."edit_key"')]
    assert len(key_reads) == 1
    assert table.version == 4


def test_a_size_learned_in_the_deck_profile_shows_in_the_next_read(client: FlaskClient) -> None:
    table = start(
        client, "yadokarick", ["Ann", "Bo", "Cy", "Di"], deck="new", new_deck_name="Blue box"
    )
    deck = table.state()["deck_profile"]
    assert deck["sizes"] == {}
    # The deck changes, the session does not: its version stays where it was.
    client.post(f"/decks/{deck['id']}", data=sizes_form("Blue box", green_25="3"))
    again = table.state()
    assert again["version"] == 0
    assert again["deck_profile"]["sizes"] == {"green 25": 3}


def test_a_write_converts_only_the_records_it_adds(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = api_session(client, ["Ann", "Bo"], winning_score=100_000)
    converted: list[Any] = []
    real = state_json.plain

    def counted(value: Any) -> Any:
        converted.append(value)
        return real(value)

    monkeypatch.setattr(state_json, "plain", counted)

    def conversions_of_one_turn(version: int) -> int:
        converted.clear()
        assert table.act({"type": "total", "points": 0}, version=version).status_code == 201
        return len(converted)

    for version in range(60):
        conversions_of_one_turn(version)
    # The state holds the round's turns so far; each write converts the new one, the rest
    # once: a round of two turns converts as much at turn 60 as at turn 62.
    assert [conversions_of_one_turn(60), conversions_of_one_turn(61)] == [
        conversions_of_one_turn(62),
        conversions_of_one_turn(63),
    ]
    assert len(table.records()["turns"]) == 64


def test_an_unchanged_cookie_is_not_signed_and_sent_again(client: FlaskClient) -> None:
    table = api_session(client, ["Ann", "Bo"])
    # The first visit notes the session in the cookie, the second makes the device.
    for _ in range(2):
        assert "Set-Cookie" in client.get(f"/s/{table.id}").headers
    again = client.get(f"/s/{table.id}")
    assert again.status_code == 200
    assert "Set-Cookie" not in again.headers
    # Another session seen is a change: the cookie is sent with it.
    other = api_session(client, ["Cy", "Di"])
    assert "Set-Cookie" in client.get(f"/s/{other.id}").headers


def test_an_api_answer_to_a_client_without_a_cookie_does_not_vary_by_cookie(
    client: FlaskClient,
) -> None:
    table = api_session(client, ["Ann", "Bo"])
    lean = {"Prefer": "return=minimal"}
    answer = table.post(
        "/events", {"version": 0, "action": {"type": "total", "points": 0}}, headers=lean
    )
    assert answer.status_code == 201
    assert answer.vary.as_set() == {"prefer", "accept-encoding"}
    # A page reads the device's cookie (what it may do here): its answer says so.
    page = client.get(f"/s/{table.id}")
    assert "cookie" in page.vary.as_set()
    # Once the phone holds one, each request's cookie is looked into (old entries are
    # carried over).
    assert "cookie" in client.get(table.url).vary.as_set()


def test_a_request_without_a_cookie_header_parses_and_sets_no_cookie(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[object] = []
    original = werkzeug.sansio.request.parse_cookie

    def counted(*args: Any, **kwargs: Any) -> Any:
        parsed.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(werkzeug.sansio.request, "parse_cookie", counted)
    # Nor does its answer work out the settings of a cookie it does not send.
    secure = https.HttpsSessionInterface.get_cookie_secure
    settings: list[object] = []
    monkeypatch.setattr(
        https.HttpsSessionInterface,
        "get_cookie_secure",
        lambda interface, app: settings.append(app) or secure(interface, app),
    )
    table = api_session(client, ["Ann", "Bo"])
    assert table.ok({"type": "total", "points": 0})["version"] == 1
    assert client.get(table.url).get_json()["version"] == 1
    assert parsed == [] and settings == []
    # A phone's page request carries its cookie: read, and its rights found in it.
    assert "Set-Cookie" in client.get(f"/s/{table.id}").headers and settings
    assert client.get(f"/s/{table.id}").status_code == 200 and parsed


def test_flask_asks_once_whether_each_hook_and_view_is_a_coroutine(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An app of its own: one that served these views before would ask nothing at all.
    client = make_app(database_url).test_client()
    table = api_session(client, ["Ann", "Bo"])
    asked: list[object] = []
    original = flask.app.iscoroutinefunction

    def counted(func: Any) -> bool:
        asked.append(func)
        return original(func)

    monkeypatch.setattr(flask.app, "iscoroutinefunction", counted)
    client.get(table.url)
    first = len(asked)
    assert client.get(table.url).status_code == 200
    assert first > 0 and len(asked) == first


def test_the_links_every_page_carries_follow_the_root_the_app_is_served_under(
    client: FlaskClient,
) -> None:
    under_root = client.get("/", environ_overrides={"SCRIPT_NAME": "/score"})
    page = under_root.get_data(as_text=True)
    assert 'href="/score/static/app.css"' in page
    assert 'href="/score/new"' in page
    plain_page = client.get("/").get_data(as_text=True)
    assert 'href="/static/app.css"' in plain_page
    assert 'href="/new"' in plain_page


def test_a_sessions_own_links_follow_the_root_the_app_is_served_under(
    client: FlaskClient,
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    under_root = client.get(table.url, environ_overrides={"SCRIPT_NAME": "/score"})
    page = under_root.get_data(as_text=True)
    assert f'action="/score/s/{table.id}/undo"' in page
    assert f'data-version-url="/score/api/v1/sessions/{table.id}/version"' in page
    plain_page = client.get(table.url).get_data(as_text=True)
    assert f'action="/s/{table.id}/undo"' in plain_page
    assert f'data-version-url="/api/v1/sessions/{table.id}/version"' in plain_page


@pytest.mark.parametrize("game", list(WALKS))
def test_a_session_page_seen_before_looks_for_no_template(
    app: Flask, client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each game lacks some of the parts a page may have (head, below, finished, winner).
    slug, seats, fields = WALKS[game]
    table = start(client, slug, seats, **fields)
    assert client.get(table.url).status_code == 200
    searched: list[str] = []
    loader = app.jinja_env.loader
    assert loader is not None
    real = loader.get_source

    def counted(environment: Any, name: str) -> Any:
        searched.append(name)
        return real(environment, name)

    monkeypatch.setattr(loader, "get_source", counted)
    assert client.get(table.url).status_code == 200
    assert searched == []


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The version of each session page rendered."""
    versions: list[int] = []
    real = sessions.render_session

    def counted(view: session_views.SessionView, *args: Any, **kwargs: Any) -> Any:
        versions.append(view.version)
        return real(view, *args, **kwargs)

    monkeypatch.setattr(sessions, "render_session", counted)
    return versions


def version_shown(page: str) -> int:
    match = re.search(r'data-version="(\d+)"', page)
    assert match, "the page names no version"
    return int(match.group(1))


def test_watching_phones_share_one_render_of_each_version(
    app: Flask, client: FlaskClient, renders: list[int]
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    first, second = app.test_client(), app.test_client()
    seen = first.get(table.url).get_data(as_text=True)
    assert second.get(table.url).get_data(as_text=True) == seen
    assert "You are watching" in seen and version_shown(seen) == 0
    assert renders == [0]
    act(table, type="total", points="600")
    after = first.get(table.url).get_data(as_text=True)
    assert version_shown(after) == 1 and "600" in after
    assert second.get(table.url).get_data(as_text=True) == after
    assert renders == [0, 1]
    # Under another root its links differ: a page of its own.
    rooted = second.get(table.url, environ_overrides={"SCRIPT_NAME": "/score"})
    assert f'data-version-url="/score/api/v1/sessions/{table.id}/version"' in rooted.get_data(
        as_text=True
    )
    assert renders == [0, 1, 1]


def queries(statements: Statements) -> list[str]:
    """The SQL statements run, without the pool's notes and PostgreSQL's preparing of a
    statement the first time a connection runs it."""
    return [sql for sql in statements.sql if not sql.startswith(("Returning", "PREPARE "))]


def watched_session(app: Flask, client: FlaskClient) -> tuple[Table, FlaskClient]:
    """A session the client scores, and a phone that watches it, its device made (on its
    second visit)."""
    table = start_session(client, ["Ann", "Bo"])
    watcher = app.test_client()
    for _ in range(2):
        assert watcher.get(table.url).status_code == 200
    return table, watcher


def test_a_watchers_page_reads_the_version_and_the_devices_role_in_one_statement(
    app: Flask, client: FlaskClient, statements: Statements
) -> None:
    table, watcher = watched_session(app, client)
    statements.sql.clear()
    page = watcher.get(table.url).get_data(as_text=True)
    assert "You are watching" in page and 'id="total-form"' not in page
    assert queries(statements) == [devices._VERSION_AND_SESSION_ROLE.sql]


def test_a_tap_reads_the_version_and_the_scorers_role_in_one_statement(
    client: FlaskClient, statements: Statements
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    assert 'id="total-form"' in table.page()
    statements.sql.clear()
    ok(table.post("/action", {"type": "total", "points": "600"}, version=0))
    sent = queries(statements)
    assert sent[0] == devices._VERSION_AND_SESSION_ROLE.sql
    assert devices._SESSION_ROLE.sql not in sent
    assert table.state()["state"]["scores"] == [600, 0]


def test_a_watchers_page_after_another_workers_tap_reads_only_the_new_event_at_once(
    app: Flask, client: FlaskClient, statements: Statements
) -> None:
    table, watcher = watched_session(app, client)
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        act(table, type="total", points="600")
    statements.sql.clear()
    page = watcher.get(table.url).get_data(as_text=True)
    assert version_shown(page) == 1 and "600" in page
    assert queries(statements) == [
        devices._VERSION_AND_SESSION_ROLE.sql,
        session_views._CAUGHT_UP.sql,
    ]


def test_the_scorers_page_is_rendered_each_time_with_keys_of_its_own(
    client: FlaskClient, renders: list[int]
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    form_keys = [re.findall(r'name="form_key" value="([^"]+)"', table.page()) for _ in range(2)]
    assert renders == [0, 0]
    assert form_keys[0] and not set(form_keys[0]) & set(form_keys[1])


def test_a_watchers_page_of_a_finished_game_links_the_rematch_made_after_it(
    app: Flask, client: FlaskClient
) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="10")
    act(table, type="round", **{"points-0": "10", "points-1": "0"})
    watcher = app.test_client()
    assert "next game" not in watcher.get(table.url).get_data(as_text=True)
    # The rematch changes nothing of this session, its version included.
    response = client.post(f"{table.url}/rematch", data={"form_key": "again"})
    next_id = response.location.rsplit("/", 1)[1]
    page = watcher.get(table.url).get_data(as_text=True)
    assert version_shown(page) == 1
    assert f'href="/s/{next_id}">next game' in page


def the_writers_lock_file(app: Flask) -> Path:
    return Path(db.database_url(app).removeprefix("sqlite:///") + "-writers")


def test_sqlite_writers_wait_at_the_lock_file_another_process_holds(app: Flask) -> None:
    if not is_sqlite():
        pytest.skip("PostgreSQL writers lock the session row instead")
    with app.app_context():
        database.connect(reuse_if_open=True)
        with write_transaction():
            pass  # the first write makes the lock file
        lock_file = the_writers_lock_file(app)
        assert lock_file.exists()
        # A descriptor of its own holds the lock as another worker's would.
        other_worker = os.open(lock_file, os.O_RDWR)
        fcntl.flock(other_worker, fcntl.LOCK_EX)
        entered = threading.Event()

        def write() -> None:
            with app.app_context():
                database.connect(reuse_if_open=True)
                with write_transaction():
                    entered.set()
                database.close()

        writer = threading.Thread(target=write)
        writer.start()
        try:
            assert not entered.wait(0.3), "the write went ahead while another worker wrote"
        finally:
            fcntl.flock(other_worker, fcntl.LOCK_UN)
            os.close(other_worker)
        assert entered.wait(10), "the write did not go ahead once the lock was free"
        writer.join()
        database.close()


def test_a_write_inside_a_write_is_part_of_it(app: Flask, client: FlaskClient) -> None:
    table = api_session(client, ["Ann", "Bo"])
    with app.app_context():
        database.connect(reuse_if_open=True)
        with pytest.raises(RuntimeError), write_transaction():
            GameSession.update(version=7).where(GameSession.id == table.id).execute()
            with write_transaction():
                GameSession.update(finished=True).where(GameSession.id == table.id).execute()
            raise RuntimeError("the outer write fails")
        row = GameSession.get_by_id(table.id)
        assert (row.version, row.finished) == (0, False)
        database.close()


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_states_text_is_the_json_of_its_data(slug: str) -> None:
    game = GAMES[slug]
    seats = [f"P{n}" for n in range(max(game.min_players, min(4, game.max_players)))]
    start = game.start(seats, resolve_options(game.options, {}))
    states = [start]
    # And the Yardkle state the store tests play: a history of records, shared between states.
    if slug == "yardkle":
        for points in (500, 500, 500, 500, 350, 0):
            turn = game.parse_action({"type": "total", "points": points})
            states.append(game.apply(states[-1], turn))
    for state in states:
        data = state_json.plain(state)
        assert state_json.text(state) == json.dumps(data, separators=(",", ":"), sort_keys=True)
        assert json.loads(state_json.text(state)) == data
        # And the state as the API answers it, its history left out.
        answered = state_json.answer_plain(state)
        text = state_json.answer_text(state)
        assert text == json.dumps(answered, separators=(",", ":"), sort_keys=True)


def fields_of(view: session_views.SessionView) -> dict[str, Any]:
    """What a version of a session answers beside its lasting fields, built from the view
    and its engine."""
    game, state = view.game, view.state
    return {
        "version": view.version,
        "ruling": game.ruling(state),
        "finished": game.is_finished(state),
        "winners": game.winners(state) if game.is_finished(state) else [],
        "finished_at": None
        if view.finished_at is None
        else f"{view.finished_at:%Y-%m-%dT%H:%M:%SZ}",
        "standings": [asdict(standing) for standing in game.standings(state)],
        "can_undo": view.can_undo,
        "can_redo": view.can_redo,
        "expected": view.expected.to_json(),
    }


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_versions_fields_text_is_the_json_of_its_fields(app: Flask, slug: str) -> None:
    game = GAMES[slug]
    # A name json.dumps escapes: a quote, a backslash and a letter beyond ASCII.
    seats = ['Zoë "Z" \\o/', *(f"P{n}" for n in range(1, max(2, game.min_players)))]
    seats = seats[: game.max_players]
    with app.app_context():
        session_id, _ = lifecycle.create(slug, seats, {})
        views = [session_views.load(session_id)]
        if slug == "yardkle":  # to the end: winners, an end time, a leader
            for version, points in enumerate((10_000, 0)):
                views.append(store.append(session_id, {"type": "total", "points": points}, version))
            views.append(store.undo(session_id, 2))
            views.append(store.redo(session_id, 3))
        assert views[-1].finished or slug != "yardkle"
        for view in views:
            written = json.dumps(fields_of(view), separators=(",", ":"), sort_keys=True)
            assert api._version_fields_text(view) == written
            assert api._version_fields(view) == json.loads(written)


def test_what_a_version_expects_is_written_once_per_value_and_game() -> None:
    revoke_by_number = Expected(0, (Accepts("revoke", choices=(1,)),))
    revoke_by_flag = Expected(0, (Accepts("revoke", choices=(True,)),))
    assert revoke_by_number == revoke_by_flag  # Python holds True equal to 1

    assert api._expected_text("cryptruck", revoke_by_number) == (
        '{"actions":[{"choices":[1],"type":"revoke"}],"seat":0}'
    )
    # Another game's equal value is written for that game, as JSON tells them apart.
    assert api._expected_text("yellow-dwarf", revoke_by_flag) == (
        '{"actions":[{"choices":[true],"type":"revoke"}],"seat":0}'
    )
    again = Expected(0, (Accepts("revoke", choices=(1,)),))
    assert api._expected_text("cryptruck", again) is api._expected_text(
        "cryptruck", revoke_by_number
    )
