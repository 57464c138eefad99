"""Exports (CSV, JSON) and imports: a session survives the round trip unchanged."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import secrets
from typing import Any

import pytest
from conftest import Table, ok, start, start_session
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.models import GameSession

CSV_HEADER = (
    "game,round,seat,player,points,running_total,note,place,winner,"
    "rating,rating_change,game_rating,game_rating_change,started_at,finished_at"
)


def session_count(app: Flask) -> int:
    with app.app_context(), database.connection_context():
        return int(GameSession.select().count())


def undo(table: Table) -> None:
    ok(table.post("/undo", {}))


def play_two_rounds(table: Table) -> None:
    """Ann, Bo and Cy play two rounds: a bank, a Yardkle, totals, a two-roll turn."""
    ok(table.roll(1, 1, 1, 5, 2, 3))
    ok(table.keep(1, 1, 1, 5, bank=True))  # Ann 1050, banked
    ok(table.roll(2, 3, 4, 6, 6, 2))  # Bo: Yardkle, 0
    ok(table.act(type="total", points="600"))  # Cy 600, entered as a total
    ok(table.act(type="total", points="300"))  # Ann 1350
    ok(table.roll(5, 5, 5, 2, 3, 4))
    ok(table.keep(5, 5, 5))
    ok(table.roll(1, 2, 3))
    ok(table.keep(1, bank=True))  # Bo 600, banked


def play_with_undos(table: Table) -> None:
    """Two rounds with a corrected total (undone, then replaced) and a last undo (redoable)."""
    ok(table.roll(1, 1, 1, 5, 2, 3))
    ok(table.keep(1, 1, 1, 5, bank=True))
    ok(table.roll(2, 3, 4, 6, 6, 2))
    ok(table.act(type="total", points="600"))
    ok(table.act(type="total", points="250"))
    undo(table)  # a mistyped total: undone, and the next action ends its redo trail
    ok(table.act(type="total", points="300"))
    ok(table.roll(5, 5, 5, 2, 3, 4))
    ok(table.keep(5, 5, 5))
    ok(table.roll(1, 2, 3))
    ok(table.keep(1, bank=True))
    ok(table.act(type="total", points="450"))
    undo(table)  # still redoable


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def export_json(client: FlaskClient, session_id: str) -> dict[str, Any]:
    response = client.get(f"/s/{session_id}/export.json")
    assert response.status_code == 200
    return response.get_json()


def page_alert(html_text: str) -> str:
    """The refusal sentence of an import or form page."""
    found = re.findall(r'class="alert error" role="alert">(.*?)</div>', html_text, re.S)
    assert found, "the page shows no error"
    return html.unescape(" ".join(" ".join(found).split()))


# --- CSV -------------------------------------------------------------------------


def test_csv_names_the_game_on_each_row_and_when_it_started_on_the_first_only(
    table: Table,
) -> None:
    play_two_rounds(table)
    response = table.client.get(f"/s/{table.id}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    started = table.state()["started_at"]
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=yardkle-{started[:10]}.csv"
    )
    # Still in play: no place nor winner yet, and no end.
    assert response.get_data(as_text=True) == (
        f"{CSV_HEADER}\r\n"
        f"Yardkle,1,0,Ann,1050,1050,banked,,,,,,,{started},\r\n"
        "Yardkle,1,1,Bo,0,0,Yardkle,,,,,,,,\r\n"
        "Yardkle,1,2,Cy,600,600,entered as a total,,,,,,,,\r\n"
        "Yardkle,2,0,Ann,300,1350,entered as a total,,,,,,,,\r\n"
        "Yardkle,2,1,Bo,600,600,banked,,,,,,,,\r\n"
    )


def finished_hearts(client: FlaskClient) -> Table:
    """A Hearts score sheet (lowest wins, to 50) that Bo and Di share: Ann 30, Bo 12,
    Cy 51, Di 12 after three rounds."""
    table = start(
        client,
        "score-sheet",
        ["Ann", "Bo", "Cy", "Di"],
        option_game_name="Hearts",
        option_winner="lowest",
        option_target="50",
    )
    for points in ((10, 4, 20, 6), (10, 4, 20, 6), (10, 4, 11, 0)):
        ok(table.act(type="round", **{f"points-{seat}": str(p) for seat, p in enumerate(points)}))
    assert table.state()["finished"] is True
    return table


def test_csv_of_a_finished_game_gives_each_players_place_and_win(client: FlaskClient) -> None:
    table = finished_hearts(client)
    response = client.get(f"/s/{table.id}/export.csv")
    session = table.state()
    started, finished = session["started_at"], session["finished_at"]
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=hearts-{started[:10]}.csv"
    )
    rows = csv_rows(response.get_data(as_text=True))
    assert rows[0] == CSV_HEADER.split(",")
    # No group: no rating.
    assert rows[1] == [
        "Hearts", "1", "0", "Ann", "10", "10", "", "3", "no", "", "", "", "", started, finished
    ]  # fmt: skip
    # The session's times once; each seat's place and win on each of its rows.
    assert [row[1:] for row in rows[2:]] == [
        ["1", "1", "Bo", "4", "4", "", "1", "yes", "", "", "", "", "", ""],
        ["1", "2", "Cy", "20", "20", "", "4", "no", "", "", "", "", "", ""],
        ["1", "3", "Di", "6", "6", "", "1", "yes", "", "", "", "", "", ""],
        ["2", "0", "Ann", "10", "20", "", "3", "no", "", "", "", "", "", ""],
        ["2", "1", "Bo", "4", "8", "", "1", "yes", "", "", "", "", "", ""],
        ["2", "2", "Cy", "20", "40", "", "4", "no", "", "", "", "", "", ""],
        ["2", "3", "Di", "6", "12", "", "1", "yes", "", "", "", "", "", ""],
        ["3", "0", "Ann", "10", "30", "", "3", "no", "", "", "", "", "", ""],
        ["3", "1", "Bo", "4", "12", "", "1", "yes", "", "", "", "", "", ""],
        ["3", "2", "Cy", "11", "51", "", "4", "no", "", "", "", "", "", ""],
        ["3", "3", "Di", "0", "12", "", "1", "yes", "", "", "", "", "", ""],
    ]
    assert {row[0] for row in rows[1:]} == {"Hearts"}


def test_the_grid_csv_is_the_paper_sheet_rounds_by_players(client: FlaskClient) -> None:
    table = finished_hearts(client)
    response = client.get(f"/s/{table.id}/export-grid.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    started = table.state()["started_at"]
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=hearts-{started[:10]}-grid.csv"
    )
    assert response.get_data(as_text=True) == (
        "round,Ann,Bo,Cy,Di\r\n"
        "1,10,4,20,6\r\n"
        "2,10,4,20,6\r\n"
        "3,10,4,11,0\r\n"
        "total,30,12,51,12\r\n"
        "place,3,1,4,1\r\n"
    )
    api = client.get(f"/api/v1/sessions/{table.id}/export-grid.csv")
    assert (api.status_code, api.mimetype) == (200, "text/csv")
    assert api.get_data(as_text=True) == response.get_data(as_text=True)
    # The results page offers it beside the others.
    results = client.get(f"/s/{table.id}/results").get_data(as_text=True)
    links = re.findall(r'href="/s/[^/"]+/(export[^"]*)"', results)
    assert links == ["export.csv", "export-grid.csv", "export.json"]


def test_the_grid_csv_of_a_game_in_play_leaves_a_seat_without_a_turn_blank(
    table: Table,
) -> None:
    play_two_rounds(table)
    text = table.client.get(f"/s/{table.id}/export-grid.csv").get_data(as_text=True)
    # Yardkle's round 2 is not over: Cy has no turn in it yet. No place before the end.
    assert text == ("round,Ann,Bo,Cy\r\n1,1050,0,600\r\n2,300,600,\r\ntotal,1350,600,600\r\n")


def test_a_file_is_named_after_the_game_in_plain_letters_or_its_slug(
    client: FlaskClient,
) -> None:
    for name, expected in (("Café Crème!", "cafe-creme"), ("花札", "score-sheet")):
        table = start(client, "score-sheet", ["Ann", "Bo"], option_game_name=name)
        day = table.state()["started_at"][:10]
        response = client.get(f"/s/{table.id}/export.json")
        assert response.headers["Content-Disposition"] == (
            f"attachment; filename={expected}-{day}.json"
        )
        rows = csv_rows(client.get(f"/s/{table.id}/export.csv").get_data(as_text=True))
        assert rows == [CSV_HEADER.split(",")]


def test_csv_of_the_api_is_the_same_file(table: Table) -> None:
    play_two_rounds(table)
    page = table.client.get(f"/s/{table.id}/export.csv")
    api = table.client.get(f"/api/v1/sessions/{table.id}/export.csv")
    assert api.status_code == 200
    assert api.mimetype == "text/csv"
    assert api.get_data(as_text=True) == page.get_data(as_text=True)


def test_csv_of_a_new_session_is_only_the_header(table: Table) -> None:
    response = table.client.get(f"/s/{table.id}/export.csv")
    assert response.get_data(as_text=True) == f"{CSV_HEADER}\r\n"


def test_csv_leaves_out_undone_turns(table: Table) -> None:
    ok(table.act(type="total", points="500"))
    ok(table.act(type="total", points="700"))
    undo(table)
    rows = csv_rows(table.client.get(f"/s/{table.id}/export.csv").get_data(as_text=True))
    started = table.state()["started_at"]
    assert rows == [
        CSV_HEADER.split(","),
        ["Yardkle", "1", "0", "Ann", "500", "500", "entered as a total", *[""] * 6, started, ""],
    ]


def test_csv_neutralises_names_a_spreadsheet_would_run_as_formulas(
    client: FlaskClient,
) -> None:
    names = ["=HYPERLINK(1)", "+Bo", "-Cy", "@Di", "Ed=5"]
    table = start_session(client, names)
    for _ in names:
        ok(table.act(type="total", points="0"))
    rows = csv_rows(client.get(f"/s/{table.id}/export.csv").get_data(as_text=True))
    assert [row[3] for row in rows[1:]] == ["'=HYPERLINK(1)", "'+Bo", "'-Cy", "'@Di", "Ed=5"]
    assert [row[4:6] for row in rows[1:]] == [["0", "0"]] * 5
    # The JSON keeps each name as it was typed.
    assert [seat["name"] for seat in export_json(client, table.id)["seats"]] == names


def test_csv_of_an_unknown_session_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/s/AAAAAAAAAAAAAAAAAAAAAA/export.csv")
    assert response.status_code == 404
    assert "No session has this link" in response.get_data(as_text=True)


# --- JSON ------------------------------------------------------------------------


def test_json_export_holds_everything_of_the_session(table: Table) -> None:
    play_with_undos(table)
    response = table.client.get(f"/s/{table.id}/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.get_json()
    assert data["format"] == "tabletop-scorekeeper/session"
    assert data["format_version"] == 3
    assert data["game"] == "yardkle"
    assert data["options"] == {"entry_threshold": 500, "winning_score": 10000}
    assert data["seats"] == [
        {"position": 0, "name": "Ann"},
        {"position": 1, "name": "Bo"},
        {"position": 2, "name": "Cy"},
    ]
    events = data["events"]
    assert [e["seq"] for e in events] == list(range(1, 12))
    assert [e["action"] for e in events] == [
        {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]},
        {"type": "keep", "dice": [1, 1, 1, 5], "bank": True},
        {"type": "roll", "dice": [2, 3, 4, 6, 6, 2]},
        {"type": "total", "points": 600},
        {"type": "total", "points": 250},
        {"type": "total", "points": 300},
        {"type": "roll", "dice": [5, 5, 5, 2, 3, 4]},
        {"type": "keep", "dice": [5, 5, 5], "bank": False},
        {"type": "roll", "dice": [1, 2, 3]},
        {"type": "keep", "dice": [1], "bank": True},
        {"type": "total", "points": 450},
    ]
    assert [e["seq"] for e in events if e["undone"]] == [5, 11]
    assert [e["seq"] for e in events if e["redoable"]] == [11]
    assert events[0]["text"] == "roll 1 1 1 5 2 3"
    assert events[1]["text"] == "set aside 1 1 1 5 and bank"
    assert events[4]["text"] == "turn total 250"
    assert events[1]["ruling"] == (
        "Ann set aside three 1s and single 5 for 1050: turn total 1050, 2 dice to roll. "
        "Ann banks 1050 and is on the scorecard: total 1050. Bo rolls next."
    )
    assert events[2]["ruling"].startswith("Yardkle! Bo rolled 2 3 4 6 6 2")
    assert events[4]["ruling"] is None
    assert events[10]["ruling"] is None
    assert data["rounds"] == [
        {"round": 1, "seat": 0, "player": "Ann", "points": 1050, "running_total": 1050,
         "note": "banked"},
        {"round": 1, "seat": 1, "player": "Bo", "points": 0, "running_total": 0,
         "note": "Yardkle"},
        {"round": 1, "seat": 2, "player": "Cy", "points": 600, "running_total": 600,
         "note": "entered as a total"},
        {"round": 2, "seat": 0, "player": "Ann", "points": 300, "running_total": 1350,
         "note": "entered as a total"},
        {"round": 2, "seat": 1, "player": "Bo", "points": 600, "running_total": 600,
         "note": "banked"},
    ]  # fmt: skip
    assert data["standings"] == [
        {"rank": 1, "seat": 0, "player": "Ann", "score": 1350},
        {"rank": 2, "seat": 1, "player": "Bo", "score": 600},
        {"rank": 2, "seat": 2, "player": "Cy", "score": 600},
    ]
    assert data["finished"] is False
    assert data["winners"] == []
    assert "id" not in data
    assert table.id not in json.dumps(data)


def test_json_export_of_a_finished_game_names_the_winners(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"], winning_score="500")
    ok(table.act(type="total", points="800"))
    ok(table.act(type="total", points="800"))
    data = export_json(client, table.id)
    assert data["finished"] is True
    assert data["winners"] == ["Ann", "Bo"]
    assert data["options"] == {"entry_threshold": 500, "winning_score": 500}
    assert [s["rank"] for s in data["standings"]] == [1, 1]


def test_json_export_of_the_api_is_the_same(table: Table) -> None:
    play_with_undos(table)
    api = table.client.get(f"/api/v1/sessions/{table.id}/export")
    assert api.status_code == 200
    assert api.get_json() == export_json(table.client, table.id)


# --- Round trip ------------------------------------------------------------------


def imported_id(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.fullmatch(r"(?:http://localhost)?/s/([A-Za-z0-9_-]{22,})", response.location)
    assert match, response.location
    return match.group(1)


def assert_same_session(app: Flask, original_id: str, new_id: str, new_device: FlaskClient) -> None:
    original = export_json(app.test_client(), original_id)
    copy = export_json(app.test_client(), new_id)
    assert new_id != original_id
    assert copy == original
    # The importing device may record in the copy: its page shows the roll form.
    page = new_device.get(f"/s/{new_id}").get_data(as_text=True)
    assert 'id="roll-form"' in page
    assert "You are watching" not in page
    state = new_device.get(f"/api/v1/sessions/{new_id}").get_json()
    assert state["state"]["scores"] == [1350, 600, 600]
    assert state["can_redo"] is True
    # And the redo trail came along: redo restores Cy's 450.
    redone = new_device.post(
        f"/s/{new_id}/redo", data={"version": state["version"], "form_key": "redo-copy"}
    )
    assert redone.status_code == 303
    after = new_device.get(f"/api/v1/sessions/{new_id}").get_json()
    assert after["state"]["scores"] == [1350, 600, 1050]
    # The original is untouched.
    assert export_json(app.test_client(), original_id) == original


def test_round_trip_through_the_import_page_file_upload(app: Flask, table: Table) -> None:
    play_with_undos(table)
    exported = table.client.get(f"/s/{table.id}/export.json").get_data()
    device = app.test_client()
    before = session_count(app)
    response = device.post(
        "/import",
        data={"file": (io.BytesIO(exported), "s.json"), "form_key": secrets.token_urlsafe(8)},
    )
    new_id = imported_id(response)
    assert session_count(app) == before + 1
    assert_same_session(app, table.id, new_id, device)


def test_round_trip_through_the_import_page_pasted_text(app: Flask, table: Table) -> None:
    play_with_undos(table)
    exported = table.client.get(f"/s/{table.id}/export.json").get_data(as_text=True)
    device = app.test_client()
    response = device.post("/import", data={"text": exported, "form_key": secrets.token_urlsafe(8)})
    assert_same_session(app, table.id, imported_id(response), device)


def test_round_trip_through_the_api(app: Flask, table: Table) -> None:
    play_with_undos(table)
    exported = export_json(table.client, table.id)
    device = app.test_client()
    response = device.post("/api/v1/sessions/import", json=exported)
    assert response.status_code == 201
    body = response.get_json()
    assert body["version"] == 0
    assert body["edit_key"]
    assert body["links"]["join"].endswith(f"/s/{body['id']}/join/{body['edit_key']}")
    assert export_json(device, body["id"]) == exported
    # The API caller holds the key; a browser joins with the join link.
    joined = device.get(body["links"]["join"].removeprefix("http://localhost"))
    assert joined.status_code == 303
    assert_same_session(app, table.id, body["id"], device)


def test_importing_the_same_form_twice_creates_one_session(app: Flask, table: Table) -> None:
    play_two_rounds(table)
    exported = table.client.get(f"/s/{table.id}/export.json").get_data(as_text=True)
    before = session_count(app)
    form = {"text": exported, "form_key": "import-once"}
    first = imported_id(table.client.post("/import", data=form))
    second = imported_id(table.client.post("/import", data=form))
    assert first == second
    assert session_count(app) == before + 1


def test_the_import_page_offers_a_file_and_a_text_field(client: FlaskClient) -> None:
    response = client.get("/import")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page
    assert 'type="file"' in page
    assert 'name="text"' in page


# --- Refusals --------------------------------------------------------------------


def valid_export() -> dict[str, Any]:
    return {
        "format": "tabletop-scorekeeper/session",
        "format_version": 1,
        "game": "yardkle",
        "options": {"entry_threshold": 500, "winning_score": 10000},
        "seats": [{"position": 1, "name": "Ann"}, {"position": 2, "name": "Bo"}],
        "events": [
            {"seq": 1, "action": {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}},
            {"seq": 2, "action": {"type": "keep", "dice": [1, 1, 1], "bank": True}},
        ],
    }


def changed(**fields: Any) -> bytes:
    return json.dumps(valid_export() | fields).encode()


REFUSED_FILES = {
    "not-json": (b"round,seat,player\r\n1,1,Ann\r\n", "not valid JSON"),
    "not-utf8": (b"\xff\xfe{}", "not valid JSON"),
    "wrong-format": (
        json.dumps({"format": "other/app", "rows": []}).encode(),
        "This is not a session file exported by Tabletop Scorekeeper.",
    ),
    "a-list": (b"[1, 2, 3]", "This is not a session file exported by Tabletop Scorekeeper."),
    "keep-of-a-2": (
        changed(
            events=[
                {"seq": 1, "action": {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}},
                {"seq": 2, "action": {"type": "keep", "dice": [2], "bank": False}},
            ]
        ),
        "Event 2 (set aside 2): Ann cannot set aside 2: a 2 on its own scores nothing.",
    ),
    "score-sheet-round-of-no-points": (
        changed(
            game="score-sheet",
            options={},
            events=[{"seq": 1, "action": {"type": "round", "points": []}}],
        ),
        "Event 1 (round: ): Enter one number per player",
    ),
    "unknown-game": (changed(game="chess"), "Unknown game 'chess'"),
    "version-4": (changed(format_version=4), "format version 4"),
    "bad-option": (changed(options={"entry_threshold": 120}), "multiple of 50"),
    "same-names": (
        changed(seats=[{"position": 1, "name": "Ann"}, {"position": 2, "name": "ANN"}]),
        "Two seats are called ANN",
    ),
    "no-seats": (changed(seats=[]), "1 to 8 seats"),
    "live-after-redoable": (
        changed(
            events=[
                {"seq": 1, "action": {"type": "total", "points": 500}},
                {
                    "seq": 2,
                    "action": {"type": "total", "points": 500},
                    "undone": True,
                    "redoable": True,
                },
                {"seq": 3, "action": {"type": "total", "points": 600}},
            ]
        ),
        "Event 3 is live after a redoable event",
    ),
    "seq-not-rising": (
        changed(
            events=[
                {"seq": 2, "action": {"type": "total", "points": 500}},
                {"seq": 1, "action": {"type": "total", "points": 500}},
            ]
        ),
        "rising whole number",
    ),
    "unknown-action": (
        changed(events=[{"seq": 1, "action": {"type": "fly"}}]),
        "roll, keep, bank or total",
    ),
}


@pytest.mark.parametrize("case", REFUSED_FILES, ids=list(REFUSED_FILES))
def test_an_import_the_rules_refuse_shows_a_sentence_and_creates_nothing(
    app: Flask, client: FlaskClient, case: str
) -> None:
    content, sentence = REFUSED_FILES[case]
    start_session(client, ["Ann"])
    before = session_count(app)
    response = client.post(
        "/import",
        data={"file": (io.BytesIO(content), "s.json"), "form_key": secrets.token_urlsafe(8)},
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert sentence in page_alert(page)
    assert "Traceback" not in page
    assert session_count(app) == before


def test_an_import_with_no_file_and_no_text_asks_for_one(app: Flask, client: FlaskClient) -> None:
    before = session_count(app)
    response = client.post("/import", data={"text": "  ", "form_key": "empty"})
    assert response.status_code == 422
    assert page_alert(response.get_data(as_text=True)) == (
        "Choose an exported .json file, or paste its text."
    )
    assert session_count(app) == before


def test_a_refused_pasted_text_is_refused_the_same_way(app: Flask, client: FlaskClient) -> None:
    before = session_count(app)
    response = client.post(
        "/import", data={"text": changed(format_version=4).decode(), "form_key": "pasted"}
    )
    assert response.status_code == 422
    assert "this app reads versions 1, 2 and 3" in page_alert(response.get_data(as_text=True))
    assert session_count(app) == before


@pytest.mark.parametrize(
    ("case", "field"),
    [
        ("wrong-format", "format"),
        ("keep-of-a-2", "action"),
        ("score-sheet-round-of-no-points", "action"),
        ("unknown-game", "game"),
        ("version-4", "format_version"),
        ("bad-option", "options.entry_threshold"),
        ("same-names", "seats.1"),
        ("seq-not-rising", "events.1"),
        ("live-after-redoable", "events.2"),
    ],
)
def test_an_api_import_the_rules_refuse_is_422_and_creates_nothing(
    app: Flask, client: FlaskClient, case: str, field: str | None
) -> None:
    content, sentence = REFUSED_FILES[case]
    before = session_count(app)
    response = client.post("/api/v1/sessions/import", data=content, content_type="application/json")
    assert response.status_code == 422
    body = response.get_json()
    assert body["field"] == field
    assert sentence in body["error"]
    assert session_count(app) == before


STRANGE_FILES = {
    "a-5000-digit-number": b"1" * 5000,
    "deeply-nested": b"[" * 5000 + b"]" * 5000,
    "a-seq-beyond-any-integer-column": changed(
        events=[{"seq": 10**20, "action": {"type": "total", "points": 500}}]
    ),
    "points-as-a-float": changed(events=[{"seq": 1, "action": {"type": "total", "points": 5e2}}]),
}


@pytest.mark.parametrize("case", STRANGE_FILES, ids=list(STRANGE_FILES))
def test_a_strange_import_file_is_refused_with_a_sentence_never_500(
    app: Flask, client: FlaskClient, case: str
) -> None:
    before = session_count(app)
    response = client.post(
        "/import",
        data={
            "file": (io.BytesIO(STRANGE_FILES[case]), "s.json"),
            "form_key": secrets.token_urlsafe(8),
        },
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 422, page_alert(page) if "alert error" in page else page
    assert page_alert(page)
    assert "Traceback" not in page
    assert session_count(app) == before


def test_csv_neutralises_every_cell_that_starts_with_a_name_and_keeps_numbers(
    client: FlaskClient,
) -> None:
    seats = ["Ann", "+1+1", "Cy", "Di"]
    table = start(client, "yokai-septet", seats, option_team_a="", option_team_b="")
    ok(table.act(type="trump", card="yellow 4"))
    ok(table.act(type="first-lead", seat="0"))
    for card in ("red 12", "blue 8", "red 6", "red 8", "red 11", "red 7"):
        ok(table.act(type="play", card=card))  # "+1+1" shows no red, then plays red
    ok(table.act(type="revoke", flag="0", decision="accept", penalty="2"))
    rows = [row[1:7] for row in csv_rows(client.get(f"/s/{table.id}/export.csv").get_data(True))]
    assert rows[1:] == [
        ["1", "0", "Ann", "2", "2", "revoke penalty +2 (+1+1 revoked)"],
        ["1", "1", "'+1+1", "0", "0", "'+1+1 revoked: 2 to the other team"],
        ["1", "2", "Cy", "2", "2", "revoke penalty +2 (+1+1 revoked)"],
        ["1", "3", "Di", "0", "0", "'+1+1 revoked: 2 to the other team"],
    ]


def test_a_version_1_file_counting_the_first_dealer_from_1_imports_with_the_same_dealer(
    client: FlaskClient,
) -> None:
    made = client.post(
        "/api/v1/sessions",
        json={"game": "cryptruck", "seats": ["Ann", "Bo", "Cy"], "options": {"first_dealer": 2}},
    )
    exported = client.get(f"/api/v1/sessions/{made.get_json()['id']}/export").get_json()
    assert (exported["format_version"], exported["options"]["first_dealer"]) == (3, 2)
    old_file = {
        **exported,
        "format_version": 1,
        "options": {**exported["options"], "first_dealer": 3},
    }
    imported = client.post("/api/v1/sessions/import", json=old_file)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["options"]["first_dealer"] == 2
    assert imported.get_json()["state"]["round"]["dealer"] == 2


def test_the_first_dealer_is_chosen_among_the_seats_on_the_new_session_page(
    client: FlaskClient,
) -> None:
    page = client.get("/new/cryptruck").get_data(as_text=True)
    options = re.findall(r'<option (?:selected )?value="(\d)">(Seat \d)</option>', page)
    assert options == [(str(seat), f"Seat {seat + 1}") for seat in range(5)]
