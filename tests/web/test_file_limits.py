"""Every file the app exports imports back, through the page (its CSRF check on) and the
API, up to limits the README states and a refusal names: on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from typing import Any

import pytest
from conftest import API, assert_error, make_app, page_error
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import export, group_export, groups, lifecycle, session_views, store
from scorekeeper.db import database
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.score_sheet.rules import MAX_ROUND_POINTS
from scorekeeper.models import Event, GameSession, PlayerGroup

MIB = 1024 * 1024
# The sessions of issue 30: their files were larger than the 512 KiB the imports took,
# and a CSV cell of the group's was longer than the csv module's 131,072 characters.
LONG_SESSION_ROUNDS = 3001
GROUP_SESSION_ROUNDS = 601


def score_sheet(rounds: int) -> lifecycle.ImportedSession:
    """A four-seat score sheet of ``rounds`` rounds, made as an import makes one: a test
    that recorded thousands of rounds one request at a time would take minutes."""
    events = [
        (seq, {"type": "round", "points": [12, -4, 0, seq % 7]}, False, False)
        for seq in range(1, rounds + 1)
    ]
    return lifecycle.ImportedSession("score-sheet", {}, ["Ann", "Bo", "Cy", "Di"], events)


def long_session(app: Flask, rounds: int) -> str:
    with app.app_context(), database.connection_context():
        return lifecycle.import_session(score_sheet(rounds))[0]


def group_with_long_sessions(app: Flask, rounds: int) -> str:
    """A group of four who played two score sheets of ``rounds`` rounds each."""
    with app.app_context(), database.connection_context():
        group = groups.create("Marathon", ["Ann", "Bo", "Cy", "Di"])
        for _ in range(2):
            session_id, _key = lifecycle.import_session(score_sheet(rounds))
            groups.link_seats(session_id, group.id, [player.id for player in group.players])
        return group.id


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context(), database.connection_context():
        return PlayerGroup.select().count(), GameSession.select().count(), Event.select().count()


def rounds_of(app: Flask, session_id: str) -> list[object]:
    """The points of each round the session logged (read from the store: the API's
    answer, checked against its document, takes seconds at this length)."""
    with app.app_context(), database.connection_context():
        return [event.action["points"] for event in session_views.load(session_id).events]


def group_rounds(app: Flask, group_id: str) -> list[list[object]]:
    """The points of each round of each of the group's sessions, in the order played."""
    with app.app_context(), database.connection_context():
        exported = group_export.group_json(groups.load(group_id))
    return [[e["action"]["points"] for e in s["events"]] for s in exported["sessions"]]


def refusal(response: Any) -> str:
    """The sentence of an error page."""
    match = re.search(r'role="alert">(.*?)</div>', response.get_data(as_text=True), re.S)
    assert match, "the page shows no refusal"
    return match.group(1).strip()


@pytest.fixture
def checked_app(database_url: str) -> Flask:
    """The app as it runs: every form's CSRF token checked (the suite's app skips it)."""
    return make_app(database_url, WTF_CSRF_ENABLED=True)


def upload_on_page(
    client: FlaskClient, path: str, content: bytes, name: str, pasted: bool = False
) -> Any:
    """The import page's form sent with a file (or its text pasted), as a browser sends
    it: with the CSRF token of the page it was on."""
    page = client.get(path).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "the import page has no CSRF token"
    sent = {"text": content.decode()} if pasted else {"file": (io.BytesIO(content), name)}
    data = {"csrf_token": token.group(1), "form_key": name, **sent}
    return client.post(path, data=data, content_type="multipart/form-data")


def made_id(response: Any) -> str:
    assert response.status_code == 303, page_error(response.get_data(as_text=True))
    return str(response.location.rsplit("/", 1)[1])


def test_a_3001_round_session_exported_imports_back_on_the_page_chosen_or_pasted(
    checked_app: Flask,
) -> None:
    client = checked_app.test_client()
    session_id = long_session(checked_app, LONG_SESSION_ROUNDS)
    exported = client.get(f"/s/{session_id}/export.json").get_data()
    assert len(exported) > 1 * MIB  # the imports took 512 KiB
    logged = rounds_of(checked_app, session_id)
    assert len(logged) == LONG_SESSION_ROUNDS
    chosen = made_id(upload_on_page(client, "/import", exported, "long.json"))
    pasted = made_id(upload_on_page(client, "/import", exported, "pasted", pasted=True))
    assert len({session_id, chosen, pasted}) == 3
    assert rounds_of(checked_app, chosen) == rounds_of(checked_app, pasted) == logged


def test_a_3001_round_session_exported_imports_back_through_the_api(
    app: Flask, client: FlaskClient
) -> None:
    session_id = long_session(app, LONG_SESSION_ROUNDS)
    exported = client.get(f"{API}/sessions/{session_id}/export").get_data()
    assert len(exported) > 1 * MIB
    response = client.post(f"{API}/sessions/import", data=exported, content_type="application/json")
    assert response.status_code == 201, response.get_json()
    assert rounds_of(app, response.get_json()["id"]) == rounds_of(app, session_id)


def longest_csv_cell(text: str) -> int:
    return max(len(cell) for row in csv.reader(io.StringIO(text)) for cell in row)


def test_a_group_of_601_round_sessions_imports_back_from_its_json_and_csv_on_the_page(
    checked_app: Flask,
) -> None:
    client = checked_app.test_client()
    group_id = group_with_long_sessions(checked_app, GROUP_SESSION_ROUNDS)
    as_json = client.get(f"/g/{group_id}/export.json").get_data()
    as_csv = client.get(f"/g/{group_id}/export.csv").get_data()
    assert len(as_json) > 512 * 1024  # the page's CSRF check read it under 512 KiB
    assert longest_csv_cell(as_csv.decode()) > 131_072  # the csv module's own limit
    played = group_rounds(checked_app, group_id)
    assert [len(rounds) for rounds in played] == [GROUP_SESSION_ROUNDS] * 2
    for content, name in ((as_json, "marathon.json"), (as_csv, "marathon.csv")):
        new_id = made_id(upload_on_page(client, "/groups/import", content, name))
        assert group_rounds(checked_app, new_id) == played


def test_a_group_of_601_round_sessions_imports_back_from_its_json_and_csv_through_the_api(
    app: Flask, client: FlaskClient
) -> None:
    group_id = group_with_long_sessions(app, GROUP_SESSION_ROUNDS)
    as_json = client.get(f"{API}/groups/{group_id}/export").get_data()
    as_csv = client.get(f"{API}/groups/{group_id}/export.csv").get_data()
    for content, mimetype in ((as_json, "application/json"), (as_csv, "text/csv")):
        response = client.post(f"{API}/groups/import", data=content, content_type=mimetype)
        assert response.status_code == 201, response.get_json()
        assert group_rounds(app, response.get_json()["id"]) == group_rounds(app, group_id)


def over(limit: int) -> bytes:
    """JSON of spaces 50,000 bytes over ``limit``: a size the refusal rounds up to the next
    tenth of a MiB (a page's form around it included)."""
    return b" " * (limit + 50_000) + b"{}"


@pytest.mark.parametrize(
    ("path", "limit", "most"),
    [
        ("/import", export.FILE_MAX_BYTES, "a session file may be at most 64 MiB"),
        ("/groups/import", group_export.FILE_MAX_BYTES, "a group file may be at most 128 MiB"),
    ],
)
def test_a_file_over_its_limit_is_refused_on_the_page_naming_the_limit(
    checked_app: Flask, path: str, limit: int, most: str
) -> None:
    client = checked_app.test_client()
    before = counts(checked_app)
    response = upload_on_page(client, path, over(limit), "big.json")
    assert response.status_code == 413
    size = f"{limit // MIB}.1 MiB"
    assert refusal(response) == f"The file is {size}; {most}."
    assert counts(checked_app) == before


@pytest.mark.parametrize(
    ("path", "mimetype", "limit", "what"),
    [
        ("sessions/import", "application/json", export.FILE_MAX_BYTES, "a session file"),
        ("groups/import", "application/json", group_export.FILE_MAX_BYTES, "a group file"),
        ("groups/import", "text/csv", group_export.FILE_MAX_BYTES, "a group file"),
    ],
)
def test_a_file_over_its_limit_is_refused_by_the_api_naming_the_limit(
    app: Flask, client: FlaskClient, path: str, mimetype: str, limit: int, what: str
) -> None:
    before = counts(app)
    response = client.post(f"{API}/{path}", data=over(limit), content_type=mimetype)
    sentence = assert_error(response, 413, "body")
    size, most = f"{limit // MIB}.1 MiB", f"{limit // MIB} MiB"
    assert sentence == f"The file is {size}; {what} may be at most {most}."
    assert counts(app) == before


def test_a_group_csv_whose_cell_is_longer_than_the_csv_modules_limit_is_read_not_a_500(
    client: FlaskClient,
) -> None:
    cell = json.dumps({"format": export.FORMAT, "padding": "x" * 200_000})
    out = io.StringIO()
    rows = [
        group_export.CSV_COLUMNS,
        ["group", 1, "G", "", "", ""],
        ["session", 0, "", "", "", cell],
    ]
    csv.writer(out).writerows(rows)
    text = out.getvalue()
    response = client.post(f"{API}/groups/import", data=text, content_type="text/csv")
    # Read whole, the cell is refused for what it holds, not for its length.
    assert "format version None" in assert_error(response, 422, "sessions.0.format_version")


def test_a_group_csv_with_a_lone_carriage_return_in_a_cell_is_refused_naming_its_line(
    client: FlaskClient,
) -> None:
    text = "kind,number,name,colour,emoji,session\r\ngroup,1,Friday\rnight,,,\r\n"
    response = client.post(f"{API}/groups/import", data=text, content_type="text/csv")
    assert assert_error(response, 422, "file") == (
        "Line 2 of the file cannot be read as CSV: a cell holding a line break must be in quotes."
    )


def longest_session(app: Flask) -> str:
    """The largest session the app keeps: a score sheet of twelve seats named with 40
    letters each, every round of its 20,000 at the most a round scores and every one
    corrected once."""
    names = [f"{letter * 38}{seat:02d}" for seat, letter in enumerate("ABCDEFGHIJKL")]
    most = [-MAX_ROUND_POINTS] * len(names)
    events = [
        (seq, {"type": "round", "points": most}, False, False)
        for seq in range(1, store.MAX_EVENTS + 1)
    ]
    corrected = datetime(2026, 11, 24, 20, 15)
    corrections = [
        (seq, {"type": "round", "points": [MAX_ROUND_POINTS] * len(names)}, corrected, "")
        for seq, *_ in events
    ]
    assert len(events) == store.MAX_EVENTS and len(corrections) == store.MAX_CORRECTIONS
    sheet = lifecycle.ImportedSession("score-sheet", {}, names, events, corrections=corrections)
    with app.app_context(), database.connection_context():
        return lifecycle.import_session(sheet)[0]


def test_the_largest_session_the_app_keeps_exports_a_file_its_import_takes(
    checked_app: Flask,
) -> None:
    app, client = checked_app, checked_app.test_client()
    session_id = longest_session(app)
    exported = client.get(f"/s/{session_id}/export.json").get_data()
    assert 56 * MIB < len(exported) <= export.FILE_MAX_BYTES
    new_id = made_id(upload_on_page(client, "/import", exported, "longest.json"))
    assert len(rounds_of(app, new_id)) == store.MAX_EVENTS
    with app.app_context(), database.connection_context():
        view = session_views.load(new_id)
        round_of_twelve = {"type": "round", "points": [1] * 12}
        with pytest.raises(IllegalAction) as refused:
            store.append(new_id, round_of_twelve, view.version)
        assert (refused.value.field, refused.value.message) == (
            "action",
            "This session has logged 20,000 events, the most a session keeps (its exported "
            "file must fit an import): play on in a new session.",
        )
        with pytest.raises(IllegalAction) as refused:
            store.correct(new_id, 1, round_of_twelve, view.version)
        assert (refused.value.field, refused.value.message) == (
            "seq",
            "This session has kept 20,000 corrections, the most a session keeps (its "
            "exported file must fit an import).",
        )
        assert session_views.load(new_id).version == view.version


def test_a_file_of_more_events_than_a_session_keeps_is_refused_naming_the_most(
    app: Flask, client: FlaskClient
) -> None:
    before = counts(app)
    events = [{"seq": seq, "action": {"type": "finish"}} for seq in range(1, store.MAX_EVENTS + 2)]
    exported = {
        "format": export.FORMAT,
        "format_version": export.FORMAT_VERSION,
        "game": "score-sheet",
        "seats": [{"position": 0, "name": "Ann"}],
        "events": events,
    }
    response = client.post(f"{API}/sessions/import", json=exported)
    assert assert_error(response, 422, "events") == (
        "The file holds 20,001 events; a session keeps at most 20,000."
    )
    assert counts(app) == before


def test_the_import_pages_and_the_api_document_state_each_files_limit(
    client: FlaskClient,
) -> None:
    assert "A session file may be at most 64 MiB." in client.get("/import").get_data(as_text=True)
    group_page = client.get("/groups/import").get_data(as_text=True)
    assert "A group file may be at most 128 MiB." in group_page
    paths = client.get(f"{API}/openapi.json").get_json()["paths"]
    refusals = {
        path: paths[path]["post"]["responses"]["413"]["description"]
        for path in ("/sessions/import", "/groups/import")
    }
    assert refusals == {
        "/sessions/import": "The file is larger than a session file may be: at most 64 MiB.",
        "/groups/import": "The file is larger than a group file may be: at most 128 MiB.",
    }


def test_a_form_field_over_the_forms_limit_is_refused_naming_that_limit(
    database_url: str,
) -> None:
    # A server that takes larger requests than form text: the body is within its limit.
    app = make_app(database_url, MAX_CONTENT_LENGTH=MIB)
    client = app.test_client()
    before = counts(app)
    data = {"seats-0": "x" * (600 * 1024), "form_key": "long"}
    response = client.post("/new/yardkle", data=data, content_type="multipart/form-data")
    assert response.status_code == 413
    assert refusal(response) == "A text field of this form may hold at most 512 KiB."
    assert counts(app) == before
