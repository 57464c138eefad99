"""When a session started and ended (the store, the results page, the API, the exports), and
"Play again": the next session at a finished session's table."""

from __future__ import annotations

import contextlib
import re
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from html import unescape
from typing import Any, TypeVar

import pytest
from conftest import (
    API,
    ApiSession,
    Statements,
    Table,
    assert_error,
    ok,
    page_error,
    start,
)
from flask import Flask
from flask.testing import FlaskClient
from test_groups import make_group, player_ids, sessions_of, start_group_game
from test_store_cache import writes

from scorekeeper import session_views, store
from scorekeeper.db import database
from scorekeeper.export import utc_text
from scorekeeper.games import GAMES
from scorekeeper.models import GameSession, Seat, utc_now
from scorekeeper.web.sessions import duration

T = TypeVar("T")

ROUND_TO_TEN = {"type": "round", "points": [10, 0]}
STILL_IN_PLAY = "This Score sheet session is still in play: play again once it is finished."


def score_sheet(client: FlaskClient, target: int = 10) -> ApiSession:
    """A score sheet for Ann and Bo made through the API: the first to ``target`` wins."""
    response = client.post(
        f"{API}/sessions",
        json={"game": "score-sheet", "seats": ["Ann", "Bo"], "options": {"target": target}},
    )
    assert response.status_code == 201, response.get_json()
    return ApiSession(client, response.get_json())


def sheet_on_the_page(client: FlaskClient) -> Table:
    """A score sheet for Ann and Bo started on this phone (its scorer), first to 10."""
    return start(client, "score-sheet", ["Ann", "Bo"], option_target="10")


def finish_on_the_page(table: Table) -> None:
    ok(table.act(type="round", **{"points-0": "10", "points-1": "0"}))


def row(app: Flask, session_id: str) -> GameSession:
    with app.app_context(), database.connection_context():
        return GameSession.get_by_id(session_id)


def session_count(app: Flask) -> int:
    with app.app_context(), database.connection_context():
        return int(GameSession.select().count())


def play_again(table: Table, form_key: str | None = None) -> Any:
    data = {"form_key": form_key or secrets.token_urlsafe(8)}
    return table.client.post(f"{table.url}/rematch", data=data)


def moved_back(app: Flask, session_id: str, started: timedelta, ended: timedelta | None) -> None:
    """The session as if started ``started`` ago and ended ``ended`` ago (None: in play)."""
    now = utc_now()
    with app.app_context(), database.connection_context():
        GameSession.update(
            created_at=now - started, finished_at=None if ended is None else now - ended
        ).where(GameSession.id == session_id).execute()
    # A worker keeps each session's view (with its times) until the session changes.
    session_views.forget()


# --- When a session ends ---------------------------------------------------------------


def test_the_write_that_ends_the_game_records_when_and_undo_and_redo_clear_and_set_it(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    assert row(app, sheet.id).finished_at is None
    before = utc_now()
    ended = sheet.ok(ROUND_TO_TEN)
    after = utc_now()
    finished_at = row(app, sheet.id).finished_at
    assert before <= finished_at <= after
    assert ended["finished_at"] == utc_text(finished_at)
    assert ended["started_at"] == utc_text(row(app, sheet.id).created_at)

    undone = sheet.post("/undo", {"version": 1})
    assert undone.status_code == 200
    assert (undone.get_json()["finished_at"], row(app, sheet.id).finished_at) == (None, None)

    redone = sheet.post("/redo", {"version": 2}).get_json()
    assert redone["finished"] is True
    assert row(app, sheet.id).finished_at > finished_at
    assert redone["finished_at"] == utc_text(row(app, sheet.id).finished_at)


def test_a_correction_that_reopens_the_game_clears_its_end_and_one_that_keeps_it_over_keeps_it(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    ended = row(app, sheet.id).finished_at
    assert ended is not None
    store.correct(sheet.id, 1, {"type": "round", "points": [12, 0]}, version=1)
    assert row(app, sheet.id).finished_at == ended
    reopened = store.correct(sheet.id, 1, {"type": "round", "points": [5, 0]}, version=2)
    assert (reopened.finished, reopened.finished_at, row(app, sheet.id).finished_at) == (
        False,
        None,
        None,
    )
    again = store.correct(sheet.id, 1, ROUND_TO_TEN, version=3)
    assert again.finished_at == row(app, sheet.id).finished_at
    assert again.finished_at is not None and again.finished_at > ended


def test_only_the_write_that_ends_or_reopens_the_game_writes_its_end(
    client: FlaskClient,
    statements: Statements,
) -> None:
    sheet = score_sheet(client, target=20)
    statements.sql.clear()
    sheet.ok(ROUND_TO_TEN)
    sheet.ok(ROUND_TO_TEN)
    updates = [s for s in writes(statements.sql) if s.startswith('UPDATE "game_session"')]
    assert ['"finished_at"' in update for update in updates] == [False, True]


def test_a_session_finished_when_it_is_made_ends_then(client: FlaskClient) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    exported = client.get(f"{sheet.url}/export").get_json()
    before = utc_text(utc_now())
    del exported["started_at"], exported["finished_at"]
    imported = client.post(f"{API}/sessions/import", json=exported).get_json()
    assert imported["finished"] is True
    assert imported["started_at"] >= before
    assert imported["finished_at"] == imported["started_at"] or imported["finished_at"] >= before


# --- The results page --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "less than a minute"),
        (59, "less than a minute"),
        (25 * 60 + 59, "25 min"),
        (60 * 60, "1 h"),
        (85 * 60, "1 h 25 min"),
        (26 * 3600 + 3 * 60, "26 h 3 min"),
    ],
)
def test_a_duration_is_written_in_whole_hours_and_minutes(seconds: int, shown: str) -> None:
    start_time = datetime(2026, 11, 24, 20, 15)
    assert duration(start_time, start_time + timedelta(seconds=seconds)) == shown


def time_texts(page: str) -> list[tuple[str, str]]:
    """Each time on a page: (its UTC datetime attribute, its text without JavaScript)."""
    return re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', page)


def test_the_results_page_shows_when_the_game_started_and_ended_and_how_long_it_took(
    app: Flask, client: FlaskClient
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    moved_back(app, table.id, timedelta(minutes=95), timedelta(minutes=10))
    session = row(app, table.id)
    page = client.get(f"{table.url}/results").get_data(as_text=True)
    started, ended = utc_text(session.created_at), utc_text(session.finished_at)
    assert time_texts(page) == [
        (started, f"{started[:10]} {started[11:16]} UTC"),
        (ended, f"{ended[:10]} {ended[11:16]} UTC"),
    ]
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert f"Started {started[:10]} {started[11:16]} UTC Ended" in text
    assert "Played for 1 h 25 min" in text
    assert "In play for" not in text


def test_the_results_page_of_a_game_in_play_says_how_long_it_has_been_in_play(
    app: Flask, client: FlaskClient
) -> None:
    table = sheet_on_the_page(client)
    moved_back(app, table.id, timedelta(minutes=25, seconds=30), None)
    page = client.get(f"{table.url}/results").get_data(as_text=True)
    assert [utc for utc, _ in time_texts(page)] == [utc_text(row(app, table.id).created_at)]
    assert "In play for 25 min" in page
    assert "Ended" not in page and "Play again" not in page


@pytest.mark.parametrize(
    ("language", "timing"),
    [
        (
            "en",
            "Started 2026-12-05 20:36 UTC Ended 2026-12-05 22:01 UTC Played for 1 h 25 min",
        ),
        (
            "fr",
            "Commencée le 5 déc. 2026, 20:36 UTC Terminée le 5 déc. 2026, 22:01 UTC "
            "Durée\u202f: 1 h 25 min",
        ),
        (
            "ja",
            "開始：2026/12/05 20:36 UTC 終了：2026/12/05 22:01 UTC プレイ時間：1時間25分",  # noqa: RUF001
        ),
    ],
)
def test_the_results_page_without_javascript_says_its_times_in_the_phone_s_language(
    app: Flask, client: FlaskClient, language: str, timing: str
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    with app.app_context(), database.connection_context():
        GameSession.update(
            created_at=datetime(2026, 12, 5, 20, 36, 5), finished_at=datetime(2026, 12, 5, 22, 1, 7)
        ).where(GameSession.id == table.id).execute()
    session_views.forget()

    page = client.get(f"{table.url}/results", headers={"Accept-Language": language})

    html = page.get_data(as_text=True)
    [paragraph] = re.findall(r'<p class="timing">(.*?)</p>', html, re.S)
    # Its text: each time inside its sentence, the sentences a line each (<br>).
    lines = re.sub(r"<[^>]+>", "", paragraph.replace("<br>", "\n"))
    assert re.sub(r"[ \n]+", " ", lines).strip() == timing
    assert [utc for utc, _ in time_texts(html)] == ["2026-12-05T20:36:05Z", "2026-12-05T22:01:07Z"]


# --- Play again on the pages -------------------------------------------------------------


def play_again_forms(page: str) -> list[str]:
    return re.findall(r'<form[^>]*action="([^"]*/rematch)"', page)


def test_a_finished_session_offers_its_scorer_play_again_on_its_page_and_its_results(
    client: FlaskClient, app: Flask
) -> None:
    table = sheet_on_the_page(client)
    assert play_again_forms(table.page()) == []
    finish_on_the_page(table)
    for path in ("", "/results"):
        page = client.get(table.url + path).get_data(as_text=True)
        assert play_again_forms(page) == [f"/s/{table.id}/rematch"]
        assert '<button type="submit">Play again</button>' in page
    watcher = app.test_client()
    for path in ("", "/results"):
        page = watcher.get(table.url + path).get_data(as_text=True)
        assert play_again_forms(page) == []


def test_play_again_starts_the_next_session_with_the_same_seats_and_options_for_this_phone(
    app: Flask, client: FlaskClient
) -> None:
    table = start(
        client, "score-sheet", ["Ann", "Bo", "Cy"], option_target="10", option_game_name="Hearts"
    )
    ok(table.act(type="round", **{"points-0": "3", "points-1": "10", "points-2": "0"}))
    response = play_again(table)
    assert response.status_code == 303
    next_id = response.location.rsplit("/", 1)[1]
    assert next_id != table.id
    following = Table(client, next_id)
    state = following.state()
    assert (state["seats"], state["options"]) == (
        ["Ann", "Bo", "Cy"],
        {"game_name": "Hearts", "winner": "highest", "target": 10},
    )
    assert (state["version"], state["finished"], state["rematch_of"]) == (0, False, table.id)
    # This phone scores the new session: its page offers the round's form.
    assert "Record round 1" in following.page()
    assert f'href="/s/{next_id}"' in client.get("/").get_data(as_text=True)
    # Each session links to the other: the finished one offers its scorer to score the next
    # game (the same form, which lands there), a watcher a link to it.
    finished = table.page()
    assert '<button type="submit">Score the next game →</button>' in finished
    assert "Play again" not in finished and "next game →</a>" not in finished
    watched = app.test_client().get(table.url).get_data(as_text=True)
    assert f'href="/s/{next_id}">next game →</a>' in watched
    assert "Score the next game" not in watched
    assert f'href="/s/{table.id}">← previous game</a>' in following.page()
    assert row(app, next_id).rematch_of_id == table.id


def test_play_again_keeps_the_deck_profile_and_moves_the_first_dealer_on(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = ["Ann", "Bo", "Cy", "Di"]
    fields = {"option_rounds": "2", "option_first_dealer": "3"}
    table = start(client, "yadokarick", seats, deck="new", new_deck_name="Blue box", **fields)
    deck_id = table.state()["deck_profile"]["id"]
    # Two rounds of ten tricks are a long test: the game is taken as over.
    monkeypatch.setattr(GAMES["yadokarick"], "is_finished", lambda _state: True)
    with app.app_context(), database.connection_context():
        GameSession.update(finished=True).where(GameSession.id == table.id).execute()
    session_views.forget()
    response = play_again(table)
    assert response.status_code == 303
    following = session_views.load(response.location.rsplit("/", 1)[1])
    assert following.seats == tuple(seats)
    # Rounds 1 and 2 were dealt by Di and Ann: Bo deals first.
    assert (following.options["first_dealer"], following.options["rounds"]) == (1, 2)
    assert following.deck is not None and following.deck.id == deck_id


def test_a_double_tap_on_play_again_makes_one_session(app: Flask, client: FlaskClient) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    before = session_count(app)
    first, second = (play_again(table, form_key="tap-once") for _ in range(2))
    assert (first.status_code, second.status_code) == (303, 303)
    assert first.location == second.location
    assert session_count(app) == before + 1


def test_play_again_in_play_is_refused_making_nothing(app: Flask, client: FlaskClient) -> None:
    table = sheet_on_the_page(client)
    before = session_count(app)
    response = play_again(table)
    assert response.status_code == 422
    assert unescape(page_error(response.get_data(as_text=True))) == STILL_IN_PLAY
    assert session_count(app) == before


def test_a_watching_phone_cannot_play_again(app: Flask, client: FlaskClient) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    before = session_count(app)
    watcher = Table(app.test_client(), table.id)
    watcher.client.get(table.url)
    response = play_again(watcher)
    assert response.status_code == 403
    assert session_count(app) == before


def test_play_again_without_the_pages_csrf_token_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    before = session_count(app)
    app.config["WTF_CSRF_ENABLED"] = True
    response = play_again(table)
    assert response.status_code == 400
    assert session_count(app) == before


# --- Play again through the API ----------------------------------------------------------


def test_the_api_rematch_answers_the_new_session_with_its_own_edit_key(
    client: FlaskClient,
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    response = sheet.post("/rematch", {})
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    assert made["id"] != sheet.id and made["edit_key"] != sheet.key
    assert (made["seats"], made["options"]) == (["Ann", "Bo"], sheet.read()["options"])
    assert (made["rematch_of"], made["finished"], made["finished_at"]) == (sheet.id, False, None)
    assert made["links"]["join"].endswith(f"/s/{made['id']}/join/{made['edit_key']}")
    # The new key writes to the new session.
    following = ApiSession(client, made)
    assert following.ok(ROUND_TO_TEN)["finished"] is True


def test_an_api_rematch_retried_with_its_request_key_makes_one_session(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    before = session_count(app)
    first = sheet.post("/rematch", {"request_key": "again-1"})
    second = sheet.post("/rematch", {"request_key": "again-1"})
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.get_json() == second.get_json()
    assert session_count(app) == before + 1
    # The same key for a rematch of another session is another request: refused.
    other = score_sheet(client)
    other.ok(ROUND_TO_TEN)
    refused = other.post("/rematch", {"request_key": "again-1"})
    assert assert_error(refused, 422, "request_key") == (
        "The request_key 'again-1' was already used by another request, which started "
        "another session; send a new key with each new write."
    )
    assert session_count(app) == before + 2


def test_an_api_rematch_is_refused_without_the_key_or_before_the_end(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    before = session_count(app)
    assert assert_error(sheet.post("/rematch", {}), 422, "session") == STILL_IN_PLAY
    sheet.ok(ROUND_TO_TEN)
    assert_error(sheet.post("/rematch", {}, key=None), 401, None)
    assert_error(sheet.post("/rematch", {}, key="Bearer not-the-key"), 403, None)
    assert_error(sheet.post("/rematch", {"seats": ["Cy"]}), 422, "seats")
    assert_error(sheet.post("/rematch", {"request_key": ""}), 422, "request_key")
    assert_error(sheet.post("/rematch", ["not", "an", "object"]), 400, None)
    missing = client.post(
        f"{API}/sessions/AAAAAAAAAAAAAAAAAAAAAA/rematch",
        json={},
        headers={"Authorization": f"Bearer {sheet.key}"},
    )
    assert_error(missing, 404, None)
    assert session_count(app) == before


# --- One next game per finished session --------------------------------------------------


def all_at_once(*taps: Callable[[], T]) -> list[T]:
    """What each tap answered, each run on a thread of its own and let go at one moment
    (two phones at one table)."""
    start_line = threading.Barrier(len(taps))

    def run(tap: Callable[[], T]) -> T:
        start_line.wait()
        return tap()

    with ThreadPoolExecutor(len(taps)) as pool:
        return list(pool.map(run, taps))


def each_new_session_row_waits_for_the_others(monkeypatch: pytest.MonkeyPatch, taps: int) -> None:
    """Each write that makes a session row then waits (half a second at most) until each
    other tap's write has made one too: the moment two workers of a busy server overlap,
    which threads of one process reach only by chance."""
    made = threading.Barrier(taps, timeout=0.5)
    create = GameSession.create

    def create_then_wait(**values: Any) -> GameSession:
        row = create(**values)
        with contextlib.suppress(threading.BrokenBarrierError):
            made.wait()
        return row

    monkeypatch.setattr(GameSession, "create", create_then_wait)


def second_scorer(app: Flask, table: Table) -> Table:
    """Another phone at the table, given the right to score by the "score with me" link."""
    phone = app.test_client()
    with app.app_context(), database.connection_context():
        key = session_views.edit_key(table.id)
    assert phone.get(f"{table.url}/join/{key}").status_code == 303
    return Table(phone, table.id)


def play_again_form_key(page: str) -> str:
    """The one-time key of the page's "Play again" form."""
    found = re.search(r'action="[^"]*/rematch">.*?name="form_key" value="([^"]+)"', page, re.S)
    assert found, "the page offers no Play again"
    return found.group(1)


def test_two_phones_tapping_play_again_at_once_both_land_on_one_next_game(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    other = second_scorer(app, table)
    before = session_count(app)
    each_new_session_row_waits_for_the_others(monkeypatch, taps=2)
    first, second = all_at_once(lambda: play_again(table), lambda: play_again(other))
    assert (first.status_code, second.status_code) == (303, 303)
    assert first.location == second.location
    assert session_count(app) == before + 1
    next_id = first.location.rsplit("/", 1)[1]
    # Each phone scores the next game.
    for phone in (table, other):
        assert "Record round 1" in Table(phone.client, next_id).page()


def test_play_again_from_a_page_loaded_before_the_first_tap_lands_on_the_started_game(
    app: Flask, client: FlaskClient
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    other = second_scorer(app, table)
    stale_key = play_again_form_key(other.page())
    started = play_again(table)
    before = session_count(app)
    landed = play_again(other, form_key=stale_key)
    assert landed.status_code == 303
    assert landed.location == started.location
    assert session_count(app) == before
    # The phone that landed scores the next game as if it had started it.
    following = Table(other.client, landed.location.rsplit("/", 1)[1])
    assert "Record round 1" in following.page()
    ok(following.act(type="round", **{"points-0": "3", "points-1": "4"}))


def test_a_second_api_rematch_with_another_request_key_answers_the_started_game_with_200(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    before = session_count(app)
    first = sheet.post("/rematch", {"request_key": "phone-1"})
    second = sheet.post("/rematch", {"request_key": "phone-2"})
    unkeyed = sheet.post("/rematch", {})
    assert (first.status_code, second.status_code, unkeyed.status_code) == (201, 200, 200)
    made = first.get_json()
    assert made["already_started"] is False
    for landed in (second.get_json(), unkeyed.get_json()):
        assert (landed["id"], landed["edit_key"]) == (made["id"], made["edit_key"])
        assert (landed["already_started"], landed["rematch_of"]) == (True, sheet.id)
    # Sent again under its key, a request that landed answers as it did.
    again = sheet.post("/rematch", {"request_key": "phone-2"})
    assert (again.status_code, again.get_json()) == (200, second.get_json())
    assert session_count(app) == before + 1


def test_two_api_rematches_at_once_answer_one_session_201_and_200(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    before = session_count(app)
    each_new_session_row_waits_for_the_others(monkeypatch, taps=2)
    answers = all_at_once(
        lambda: sheet.post("/rematch", {"request_key": "phone-1"}),
        lambda: ApiSession(app.test_client(), sheet.created).post(
            "/rematch", {"request_key": "phone-2"}
        ),
    )
    assert sorted(answer.status_code for answer in answers) == [200, 201]
    assert len({answer.get_json()["id"] for answer in answers}) == 1
    assert session_count(app) == before + 1


# --- Export and import -------------------------------------------------------------------


def test_an_export_keeps_when_the_session_started_and_ended_through_an_import(
    app: Flask, client: FlaskClient
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    moved_back(app, sheet.id, timedelta(hours=2), timedelta(minutes=30))
    exported = client.get(f"{sheet.url}/export").get_json()
    session = row(app, sheet.id)
    assert (exported["started_at"], exported["finished_at"]) == (
        utc_text(session.created_at),
        utc_text(session.finished_at),
    )
    imported = client.post(f"{API}/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert (copy["started_at"], copy["finished_at"]) == (
        exported["started_at"],
        exported["finished_at"],
    )
    assert client.get(f"{API}/sessions/{copy['id']}/export").get_json() == exported
    csv_text = client.get(f"{API}/sessions/{copy['id']}/export.csv").get_data(as_text=True)
    assert csv_text.splitlines()[1].endswith(f",{exported['started_at']},{exported['finished_at']}")


def test_an_import_that_ends_before_it_starts_is_refused(app: Flask, client: FlaskClient) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    exported = client.get(f"{sheet.url}/export").get_json()
    exported |= {"started_at": "2026-11-24T21:00:00Z", "finished_at": "2026-11-24T20:59:59Z"}
    before = session_count(app)
    sentence = assert_error(
        client.post(f"{API}/sessions/import", json=exported), 422, "finished_at"
    )
    assert sentence == "“finished_at” is before “started_at”: a session ends after it starts."
    assert session_count(app) == before


def test_an_export_of_a_game_in_play_imports_still_in_play(client: FlaskClient) -> None:
    sheet = score_sheet(client)
    exported = client.get(f"{sheet.url}/export").get_json()
    assert exported["finished_at"] is None
    copy = client.post(f"{API}/sessions/import", json=exported).get_json()
    assert (copy["started_at"], copy["finished_at"]) == (exported["started_at"], None)


@pytest.mark.parametrize("name", ["started_at", "finished_at"])
@pytest.mark.parametrize("given", ["yesterday", 20261124, "2026-13-01T00:00:00Z"])
def test_an_import_with_a_time_that_is_no_time_is_refused_naming_it(
    app: Flask, client: FlaskClient, name: str, given: object
) -> None:
    sheet = score_sheet(client)
    sheet.ok(ROUND_TO_TEN)
    exported = {**client.get(f"{sheet.url}/export").get_json(), name: given}
    before = session_count(app)
    sentence = assert_error(client.post(f"{API}/sessions/import", json=exported), 422, name)
    assert sentence == f"“{name}” must be a date and time such as 2026-11-24T20:15:00Z, or null."
    assert session_count(app) == before


def test_play_again_after_a_groups_yardkle_game_passes_the_dice_on_keeping_group_and_players(
    app: Flask, client: FlaskClient
) -> None:
    group = make_group(client, players=("Ann", "Bo", "Cy"))
    ids = player_ids(app, group)
    played = start_group_game(
        client, group, [ids["Ann"], ids["Bo"], ids["Cy"]], option_winning_score="1000"
    )
    table = Table(client, played.location.rsplit("/", 1)[1])
    for points in ("1000", "0", "0"):  # Ann reaches 1,000; Bo and Cy have their last turns
        ok(table.act(type="total", points=points))
    assert table.state()["winners"] == [0]
    # Bo leaves the group: the next game still seats Bo, as no one's player.
    removed = client.post(f"/g/{group}/players", data={"do": "remove", "player": ids["Bo"]})
    assert removed.status_code == 303
    response = play_again(table)
    assert response.status_code == 303
    next_id = response.location.rsplit("/", 1)[1]
    # Ann threw first; the next game starts with Bo, the table's order kept around.
    assert Table(client, next_id).state()["seats"] == ["Bo", "Cy", "Ann"]
    with app.app_context(), database.connection_context():
        assert GameSession.get_by_id(next_id).group_id == group
        seats = Seat.select().where(Seat.session == next_id).order_by(Seat.position)
        assert [(seat.name, seat.player_id) for seat in seats] == [
            ("Bo", None),
            ("Cy", ids["Cy"]),
            ("Ann", ids["Ann"]),
        ]
    assert [summary.id for summary in sessions_of(app, group)] == [next_id, table.id]
    # Each session's results lead back to the group.
    results = client.get(f"/s/{next_id}/results").get_data(as_text=True)
    assert f'Played by the group <a href="/g/{group}">Friday</a>.' in results


def test_play_again_of_a_session_of_no_group_makes_one_of_no_group(
    app: Flask, client: FlaskClient
) -> None:
    table = sheet_on_the_page(client)
    finish_on_the_page(table)
    next_id = play_again(table).location.rsplit("/", 1)[1]
    assert row(app, next_id).group_id is None
    assert "Played by the group" not in client.get(f"/s/{next_id}/results").get_data(as_text=True)
