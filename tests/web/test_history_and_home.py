"""A correction leaves its trace in the history and in exports; the home list shows each
session's winner, newest change first, in local time, marks imports and can forget one."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import Table, act, make_app, ok, start
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.models import Correction, GameSession

HEARTS = {"option_game_name": "Hearts", "option_winner": "lowest", "option_target": "20"}
TIME = re.compile(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([^<]*)</time>')


def hearts(client: FlaskClient, *rounds: tuple[str, str]) -> Table:
    table = start(client, "score-sheet", ["Ann", "Bo"], **HEARTS)
    for first, second in rounds:
        act(table, type="round", **{"points-0": first, "points-1": second})
    return table


def retype_round(table: Table, seq: int, first: str, second: str) -> None:
    ok(
        table.post(
            f"/events/{seq}/correct", {"type": "round", "points-0": first, "points-1": second}
        )
    )


def history_items(table: Table) -> list[str]:
    page = table.client.get(f"{table.url}/history").get_data(as_text=True)
    return re.findall(r"<li[^>]*>(.*?)</li>", page, re.S)


def home_items(client: FlaskClient) -> list[str]:
    page = client.get("/").get_data(as_text=True)
    return re.findall(r"<li>(.*?)</li>", page, re.S)


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def struck(item: str) -> list[str]:
    """The struck-through texts of a history item: what its corrections replaced."""
    return [text(replaced) for replaced in re.findall(r"<del>(.*?)</del>", item)]


def set_updated_at(session_id: str, moment: datetime) -> None:
    with database.connection_context():
        GameSession.update(updated_at=moment).where(GameSession.id == session_id).execute()


# --- History ---------------------------------------------------------------------------


def test_history_shows_a_corrected_round_struck_through_above_its_correction_and_when(
    client: FlaskClient,
) -> None:
    table = hearts(client, ("3", "10"), ("4", "5"))
    retype_round(table, 1, "13", "0")

    second, first = history_items(table)  # the newest first

    assert struck(first) == ["replaced: round: 3, 10"]
    assert first.index("</del>") < first.index("round: 13, 0")
    moment, shown = TIME.search(first).groups()  # type: ignore[union-attr]
    corrected_at = datetime.strptime(moment, "%Y-%m-%dT%H:%M:%SZ")
    assert shown == corrected_at.strftime("%Y-%m-%d %H:%M") + " UTC"
    assert abs(corrected_at - datetime.now(UTC).replace(tzinfo=None)) < timedelta(minutes=1)
    assert "<del>" not in second and "corrected" not in second
    assert table.state()["state"]["totals"] == [17, 5]


def test_each_correction_of_one_event_stays_in_the_history_oldest_first(
    client: FlaskClient,
) -> None:
    table = hearts(client, ("3", "10"))
    retype_round(table, 1, "13", "0")
    retype_round(table, 1, "0", "13")

    (item,) = history_items(table)

    assert struck(item) == ["replaced: round: 3, 10", "replaced: round: 13, 0"]
    assert len(TIME.findall(item)) == 2
    assert "round: 0, 13" in text(item.split("</del>")[-1])


def test_a_correction_that_changes_nothing_leaves_no_trace(client: FlaskClient) -> None:
    table = hearts(client, ("3", "10"))
    retype_round(table, 1, "3", "10")

    (item,) = history_items(table)

    assert "<del>" not in item
    with database.connection_context():
        assert Correction.select().count() == 0


def test_a_refused_correction_keeps_nothing(client: FlaskClient) -> None:
    table = hearts(client, ("3", "10"))
    response = table.post("/events/1/correct", {"type": "round", "points-0": "x", "points-1": "1"})

    assert response.status_code == 422
    with database.connection_context():
        assert Correction.select().count() == 0
    assert "<del>" not in history_items(table)[0]


def test_a_correction_writes_the_event_and_one_correction_row_only(client: FlaskClient) -> None:
    table = hearts(client, ("3", "10"), ("4", "5"), ("1", "1"))
    retype_round(table, 2, "5", "4")

    with database.connection_context():
        rows = [(row.seq, row.action) for row in Correction.select()]
    assert rows == [(2, {"type": "round", "points": [4, 5]})]


# --- Export and import -------------------------------------------------------------------


def test_corrections_round_trip_through_export_and_import(app: Flask, client: FlaskClient) -> None:
    table = hearts(client, ("3", "10"), ("4", "5"))
    retype_round(table, 1, "13", "0")
    exported = client.get(f"{table.url}/export.json").get_json()
    (correction,) = exported["events"][0]["corrections"]
    assert correction["action"] == {"type": "round", "points": [3, 10]}
    assert correction["text"] == "round: 3, 10"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", correction["corrected_at"])
    assert "corrections" not in exported["events"][1]
    # The API's export is the same file, checked against the OpenAPI document.
    assert client.get(f"/api/v1/sessions/{table.id}/export").get_json() == exported

    device = app.test_client()
    imported = device.post("/api/v1/sessions/import", json=exported)
    assert imported.status_code == 201
    copy = device.get(f"/s/{imported.get_json()['id']}/export.json").get_json()

    assert copy == exported


def test_an_import_takes_a_correction_time_without_a_zone_as_utc_and_converts_others(
    client: FlaskClient,
) -> None:
    table = hearts(client, ("3", "10"))
    exported = client.get(f"{table.url}/export.json").get_json()
    exported["events"][0]["corrections"] = [
        {"action": {"type": "round", "points": [1, 2]}, "corrected_at": "2026-11-24T20:15:00"},
        {"action": {"type": "round", "points": [2, 1]}, "corrected_at": "2026-11-24T22:30+02:00"},
    ]

    imported = client.post("/api/v1/sessions/import", json=exported)

    copy = client.get(f"/s/{imported.get_json()['id']}/export.json").get_json()
    assert [c["corrected_at"] for c in copy["events"][0]["corrections"]] == [
        "2026-11-24T20:15:00Z",
        "2026-11-24T20:30:00Z",
    ]


def test_an_import_refuses_a_bad_correction_naming_the_event_and_field(
    client: FlaskClient,
) -> None:
    table = hearts(client, ("3", "10"))
    exported = client.get(f"{table.url}/export.json").get_json()
    cases: list[tuple[Any, str, str]] = [
        ("no list", "events.0.corrections", "Event 1: “corrections” must be a list."),
        (
            [{"action": {"type": "round", "points": [1, 2]}, "corrected_at": "yesterday"}],
            "events.0.corrections.0.corrected_at",
            "Event 1: correction 1's “corrected_at” must be a date and time such as "
            "2026-11-24T20:15:00Z.",
        ),
        (
            [{"corrected_at": "2026-11-24T20:15:00Z"}],
            "events.0.corrections.0",
            "Event 1: correction 1 has no action.",
        ),
        (
            [{"action": {"type": "roll"}, "corrected_at": "2026-11-24T20:15:00Z"}],
            "events.0.corrections.0.action",
            "Event 1: the action a correction replaced is not valid:",
        ),
    ]
    for corrections, field, sentence in cases:
        exported["events"][0]["corrections"] = corrections
        with database.connection_context():
            before = GameSession.select().count()

        response = client.post("/api/v1/sessions/import", json=exported)

        assert response.status_code == 422
        assert response.get_json()["field"] == field
        assert response.get_json()["error"].startswith(sentence)
        with database.connection_context():
            assert GameSession.select().count() == before


# --- Home --------------------------------------------------------------------------------


def test_home_lists_the_latest_changed_session_first(client: FlaskClient) -> None:
    older = hearts(client)
    newer = start(client, "score-sheet", ["Cy", "Di"], **HEARTS)
    set_updated_at(older.id, datetime(2026, 11, 20, 9, 0))
    set_updated_at(newer.id, datetime(2026, 11, 21, 9, 0))
    first, second = home_items(client)
    assert "Cy, Di" in first and "Ann, Bo" in second

    act(older, type="round", **{"points-0": "1", "points-1": "2"})

    first, second = home_items(client)
    assert "Ann, Bo" in first and "Cy, Di" in second


def test_home_shows_the_engines_winner_of_a_finished_session_only(client: FlaskClient) -> None:
    finished = hearts(client, ("3", "10"), ("4", "12"))
    hearts(client, ("1", "2"))

    playing, won = home_items(client)

    assert finished.state()["winners"] == [0]
    assert "Ann wins" in text(won) and "finished" in text(won)
    assert "wins" not in playing and "in play" in text(playing)


def test_home_names_every_winner_of_a_shared_win(client: FlaskClient) -> None:
    hearts(client, ("10", "10"), ("12", "12"))

    (item,) = home_items(client)

    assert "Ann &amp; Bo win" in text(item)


def test_home_times_are_utc_time_elements_said_to_be_utc(client: FlaskClient) -> None:
    table = hearts(client)
    set_updated_at(table.id, datetime(2026, 11, 24, 23, 45, 10))

    (item,) = home_items(client)

    assert TIME.findall(item) == [("2026-11-24T23:45:10Z", "2026-11-24 23:45 UTC")]


@pytest.mark.parametrize(
    ("language", "evening", "morning"),
    [
        ("en", "2026-12-05 22:01 UTC", "2026-05-01 09:05 UTC"),
        ("fr", "5 déc. 2026, 22:01 UTC", "1 mai 2026, 09:05 UTC"),
        ("ja", "2026/12/05 22:01 UTC", "2026/05/01 9:05 UTC"),
    ],
)
def test_home_times_without_javascript_are_written_as_the_phone_s_language_writes_a_date(
    client: FlaskClient, language: str, evening: str, morning: str
) -> None:
    late, early = hearts(client), hearts(client)
    set_updated_at(late.id, datetime(2026, 12, 5, 22, 1, 5))
    set_updated_at(early.id, datetime(2026, 5, 1, 9, 5, 59))

    page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)

    assert TIME.findall(page) == [
        ("2026-12-05T22:01:05Z", evening),
        ("2026-05-01T09:05:59Z", morning),
    ]


def test_remove_from_this_phone_forgets_the_session_on_this_phone_only(
    app: Flask, client: FlaskClient
) -> None:
    kept = hearts(client)
    removed = start(client, "score-sheet", ["Cy", "Di"], **HEARTS)
    watcher = app.test_client()
    watcher.get(removed.url)
    page = client.get("/").get_data(as_text=True)
    assert f'action="/forget/{removed.id}"' in page

    response = client.post(f"/forget/{removed.id}")

    assert response.status_code == 303 and response.location.endswith("/")
    (item,) = home_items(client)
    assert "Ann, Bo" in item and kept.id in item
    assert removed.id not in client.get("/").get_data(as_text=True)
    # Nothing deleted: the session still opens, for the watcher too, who still lists it.
    assert client.get(removed.url).status_code == 200
    assert removed.id in watcher.get("/").get_data(as_text=True)
    with database.connection_context():
        assert GameSession.get_or_none(GameSession.id == removed.id) is not None
    # Opening it again lists it again, only to watch: the right to score went with it.
    (again,) = (item for item in home_items(client) if removed.id in item)
    assert "watching" in text(again)


def test_removing_a_session_needs_the_forms_csrf_token(database_url: str) -> None:
    app = make_app(database_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    session_id = client.post("/api/v1/sessions", json={"game": "yardkle", "seats": ["Ann", "Bo"]})
    listed = session_id.get_json()["id"]
    client.get(f"/s/{listed}")

    refused = client.post(f"/forget/{listed}")

    assert refused.status_code == 400
    assert "reload the page and try again" in refused.get_data(as_text=True)
    home = client.get("/").get_data(as_text=True)
    assert listed in home
    token = re.search(r'name="csrf_token" value="([^"]+)"', home)
    assert token
    assert client.post(f"/forget/{listed}", data={"csrf_token": token.group(1)}).status_code == 303
    assert listed not in client.get("/").get_data(as_text=True)


def test_a_scored_session_asks_before_it_is_removed_and_a_watched_one_does_not(
    app: Flask, client: FlaskClient
) -> None:
    scored = hearts(client)
    watched = start(app.test_client(), "score-sheet", ["Cy", "Di"], **HEARTS)
    client.get(watched.url)

    home = client.get("/").get_data(as_text=True)
    forms = re.findall(r'method="post" action="/forget/([\w-]+)"([^>]*)>', home)

    asks = {session_id: "data-confirm" in rest for session_id, rest in forms}
    assert asks == {scored.id: True, watched.id: False}


def test_home_marks_an_imported_session_and_not_its_original(
    app: Flask, client: FlaskClient
) -> None:
    original = hearts(client, ("3", "10"))
    exported = client.get(f"{original.url}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"text": exported, "form_key": secrets.token_urlsafe(8)})
    assert response.status_code == 303
    copy_id = response.location.rsplit("/", 1)[1]

    copy, source = home_items(client)

    assert copy_id in copy and "imported" in text(copy)
    assert original.id in source and "imported" not in text(source)
