"""A score sheet through the pages and the API: rounds, finish, undo, correction, export."""

from __future__ import annotations

import csv
import io
import re
import secrets
from html import unescape
from typing import Any

from conftest import (
    API,
    ApiSession,
    Table,
    act,
    assert_error,
    expected_actions,
    ok,
    page_forms,
    page_offers,
    refused,
    start,
)
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.games.base import MINUS

HEARTS = {"option_game_name": "Hearts", "option_winner": "lowest", "option_target": "100"}


def round_fields(*points: str) -> dict[str, str]:
    """A round as the form sends it: "-4" is typed with its minus; "±4" taps the toggle."""
    fields = {"type": "round"}
    for seat, text in enumerate(points):
        if text.startswith("±"):
            fields[f"negative-{seat}"] = "1"
            text = text[1:]
        fields[f"points-{seat}"] = text
    return fields


def play_round(table: Table, *points: str) -> None:
    act(table, **round_fields(*points))


def totals(table: Table) -> list[int]:
    return list(table.state()["state"]["totals"])


def sheet(client: FlaskClient, names: list[str], **fields: str) -> Table:
    return start(client, "score-sheet", names, **fields)


def api_sheet(client: FlaskClient, seats: list[str], **options: Any) -> ApiSession:
    body = {"game": "score-sheet", "seats": seats, "options": options}
    response = client.post(f"{API}/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    return ApiSession(client, response.get_json())


def correction_links(table: Table) -> list[int]:
    history = table.client.get(f"{table.url}/history").get_data(as_text=True)
    return [int(seq) for seq in re.findall(rf"{table.url}/events/(\d+)/correct", history)]


# --- New session --------------------------------------------------------------


def test_the_new_session_page_offers_twelve_seats_and_the_sheets_options(
    client: FlaskClient,
) -> None:
    page = client.get("/new/score-sheet").get_data(as_text=True)
    assert 'name="seats-11"' in page
    assert 'name="seats-12"' not in page
    assert 'name="option_game_name"' in page
    assert '<option selected value="highest">Highest total</option>' in page
    assert 'name="option_target"' in page and 'value="0"' in page
    assert "Score sheet" in client.get("/new").get_data(as_text=True)


def test_a_session_from_the_form_keeps_the_options_and_shows_the_game_played(
    client: FlaskClient,
) -> None:
    table = sheet(client, ["Ann", "Bob", "Cy"], **HEARTS)
    state = table.state()
    assert state["game"] == "score-sheet"
    assert state["options"] == {"game_name": "Hearts", "winner": "lowest", "target": 100}
    page = table.page()
    assert '<span class="badge live">Hearts</span>' in page
    assert "lowest total wins · game ends at 100" in page


# --- Playing rounds through the page --------------------------------------------


def test_the_round_form_has_a_number_input_and_a_minus_toggle_per_seat(
    client: FlaskClient,
) -> None:
    table = sheet(client, ["Ann", "Bob", "Cy"])
    page = table.page()
    offers = page_offers(page)
    assert list(offers) == ["round"]  # no finish before a round
    assert offers["round"].boxes == {f"negative-{seat}": ["1"] for seat in range(3)}
    inputs = re.findall(r'<input type="text" id="points-(\d)"[^>]*inputmode="numeric"', page)
    assert inputs == ["0", "1", "2"]
    assert expected_actions(table) == {"round": {"type": "round"}}


def test_rounds_typed_on_the_page_add_up_negatives_by_toggle_or_typed_minus(
    client: FlaskClient,
) -> None:
    table = sheet(client, ["Ann", "Bob", "Cy"])
    play_round(table, "12", "±4", "0")
    play_round(table, "-3", f"{MINUS}2", "10")
    assert totals(table) == [9, -6, 10]
    assert table.state()["ruling"] == (
        f"Round 2: Ann {MINUS}3, Bob {MINUS}2, Cy 10. Cy leads with 10."
    )
    page = table.page()
    assert (
        '<th scope="col" class="num sheet-name leader" title="Cy">'
        '<span class="sheet-star" title="leads">★</span> Cy</th>'
    ) in page
    # Newest round first, beside the totals.
    assert re.findall(r'aria-label="R\d: correct round (\d)">R\d<', page) == ["2", "1"]
    assert set(page_offers(page)) == {"round", "finish"}


def test_a_blank_or_mistyped_number_is_refused_naming_the_player_and_kept_on_the_page(
    client: FlaskClient,
) -> None:
    table = sheet(client, ["Ann", "Bob", "Cy"])
    response = table.act(**round_fields("12", "", "±5"))
    assert refused(response) == "Enter Bob's points for this round (0 if none)."
    page = response.get_data(as_text=True)
    # Bob's row is marked, his total (none yet) beside his name.
    assert (
        '<div class="points-row invalid">\n      <label for="points-1">Bob '
        '<span class="seat-total">0</span></label>'
    ) in page
    assert 'name="points-0" inputmode="numeric"' in page and 'value="12"' in page
    assert re.search(r'name="negative-2" value="1" aria-label="Cy: negative" checked', page)
    mistyped = table.act(**round_fields("12", "4o", "5"))
    assert (
        refused(mistyped)
        == f"Bob's points must be a whole number, like 12 or {MINUS}4; '4o' is not."
    )
    assert table.state()["version"] == 0


def test_finish_on_the_page_ends_the_game_and_names_the_winner(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"], option_winner="lowest")
    play_round(table, "3", "7")
    act(table, type="finish")
    state = table.state()
    assert state["finished"] is True
    assert state["winners"] == [0]
    assert state["ruling"] == (
        "The table stopped after 1 round. Game over: Ann wins with 3 (lowest wins)."
    )
    page = table.page()
    assert re.search(r"Ann\s+wins!", page)
    assert page_offers(page) == {}  # nothing to record once it is over
    results = client.get(f"{table.url}/results").get_data(as_text=True)
    assert re.findall(r"<tr><td>(\d)</td><td>(\w+)</td>", results)[:2] == [
        ("1", "Ann"),
        ("2", "Bob"),
    ]


def test_reaching_the_target_on_the_page_ends_the_game(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob", "Cy", "Di"], **HEARTS)
    play_round(table, "26", "0", "0", "0")
    play_round(table, "80", "13", "0", "13")
    state = table.state()
    assert state["finished"] is True
    assert state["winners"] == [2]
    assert "Ann (106) reached the target of 100." in state["ruling"]


def test_undo_and_redo_a_round(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "1")
    play_round(table, "2", "9")
    ok(table.post("/undo", {}))
    assert totals(table) == [5, 1]
    ok(table.post("/redo", {}))
    assert totals(table) == [7, 10]


def test_an_eight_seat_sheet_renders_every_seat(client: FlaskClient) -> None:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    table = sheet(client, names)
    play_round(table, *[str(seat) for seat in range(8)])
    page = table.page()
    assert len(re.findall(r'<th scope="col" class="num sheet-name', page)) == 8
    assert len(re.findall(r'name="points-\d"', page)) == 8


# --- Correcting a round -----------------------------------------------------------


def test_history_offers_a_correction_for_each_live_round_only(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "1")
    play_round(table, "2", "9")
    play_round(table, "1", "1")
    ok(table.post("/undo", {}))
    act(table, type="finish")
    assert correction_links(table) == [2, 1]  # the newest first
    # A watcher sees no link.
    watcher = table.client.application.test_client()
    history = watcher.get(f"{table.url}/history").get_data(as_text=True)
    assert "/correct" not in history


def test_a_round_is_corrected_by_typing_it_again(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "±1")
    play_round(table, "2", "9")
    form = client.get(f"{table.url}/events/1/correct")
    assert form.status_code == 200
    page = form.get_data(as_text=True)
    assert "<h1>Correct round 1</h1>" in page
    assert f"Recorded: Round 1: Ann 5, Bob {MINUS}1. Ann leads with 5." in page
    assert 'value="5"' in page and 'value="1"' in page
    assert re.search(r'name="negative-1" value="1" aria-label="Bob: negative" checked', page)
    [correction] = [f for f in page_forms(page) if f.kind == "round"]
    assert correction.method == "post"

    ok(table.post("/events/1/correct", round_fields("15", "±1")))
    state = table.state()
    assert table.records()["rounds"] == [[15, -1], [2, 9]]
    assert state["state"]["totals"] == [17, 8]
    assert state["ruling"] == "Round 2: Ann 2, Bob 9. Ann leads with 17."


def test_a_correction_that_would_end_the_game_earlier_is_refused_on_its_form(
    client: FlaskClient,
) -> None:
    table = sheet(client, ["Ann", "Bob"], option_target="50")
    play_round(table, "20", "10")
    play_round(table, "20", "10")
    response = table.post("/events/1/correct", round_fields("60", "10"))
    message = refused(response)
    assert message == ("This correction cannot be made: Event 2 (round: 20, 10): The game is over.")
    page = unescape(response.get_data(as_text=True))
    assert "<h1>Correct round 1</h1>" in page  # the form again, with what was typed
    assert 'value="60"' in page
    assert totals(table) == [40, 20]


def test_a_correction_must_stay_a_round(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "1")
    response = table.post("/events/1/correct", {"type": "finish"})
    assert refused(response) == "Event 1 is a round: type it again as one."
    wrong_count = table.post("/events/1/correct", round_fields("5"))
    assert refused(wrong_count) == "Enter Bob's points for this round (0 if none)."


def test_only_a_live_round_can_be_corrected(client: FlaskClient) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "1")
    play_round(table, "1", "1")
    ok(table.post("/undo", {}))
    act(table, type="finish")
    for seq in (2, 3, 99):
        response = client.get(f"{table.url}/events/{seq}/correct")
        assert response.status_code == 404
        assert f"Event {seq} is not a round that can be corrected." in response.get_data(
            as_text=True
        )
    assert table.post("/events/3/correct", round_fields("1", "1")).status_code == 404


def test_a_watching_phone_cannot_correct(client: FlaskClient, app: Flask) -> None:
    table = sheet(client, ["Ann", "Bob"])
    play_round(table, "5", "1")
    watcher = app.test_client()
    assert watcher.get(f"{table.url}/events/1/correct").status_code == 403
    sent = watcher.post(
        f"{table.url}/events/1/correct",
        data={"version": "1", "form_key": "w", **round_fields("9", "9")},
    )
    assert sent.status_code == 403
    assert totals(table) == [5, 1]


# --- The API ------------------------------------------------------------------------


def test_the_api_plays_a_sheet_from_start_to_finish(client: FlaskClient) -> None:
    session = api_sheet(client, ["Ann", "Bob", "Cy"], winner="lowest", target=100)
    assert session.created["expected"] == {"seat": None, "actions": [{"type": "round"}]}
    answer = session.ok({"type": "round", "points": [12, -4, 30]})
    assert answer["state"]["totals"] == [12, -4, 30]
    assert answer["expected"] == {"seat": None, "actions": [{"type": "round"}, {"type": "finish"}]}
    assert answer["standings"][0] == {"seat": 1, "name": "Bob", "score": -4, "rank": 1}
    finished = session.ok({"type": "finish"})
    assert finished["finished"] is True
    assert finished["winners"] == [1]
    assert finished["expected"] == {"seat": None, "actions": []}


def test_the_api_refuses_bad_rounds_naming_the_field(client: FlaskClient) -> None:
    session = api_sheet(client, ["Ann", "Bob", "Cy"])
    short = session.act({"type": "round", "points": [1, 2]})
    message = assert_error(short, 422, "points")
    assert message == "Enter one number per player: 3 for Ann, Bob and Cy, not 2."
    big = session.act({"type": "round", "points": [1, 2_000_000, 3]})
    assert assert_error(big, 422, "points.1").startswith("Bob's 2,000,000 is more than")
    text = session.act({"type": "round", "points": [1, "x", 3]})
    assert assert_error(text, 422, "points.1").startswith("Seat 2's points must be")
    early = session.act({"type": "finish"})
    assert assert_error(early, 422, "type") == "Nothing to finish: enter a round first."
    assert session.version == 0


def test_the_api_undoes_and_redoes_rounds(client: FlaskClient) -> None:
    session = api_sheet(client, ["Ann", "Bob"])
    session.ok({"type": "round", "points": [5, 1]})
    session.ok({"type": "round", "points": [2, 9]})
    undone = session.post("/undo", {"version": session.version})
    assert undone.status_code == 200
    assert undone.get_json()["state"]["totals"] == [5, 1]
    redone = session.post("/redo", {"version": session.version})
    assert redone.get_json()["state"]["totals"] == [7, 10]


# --- Export and import ----------------------------------------------------------------


def played_sheet(client: FlaskClient) -> Table:
    table = sheet(client, ["Ann", "Bob", "=Cy"], **HEARTS)
    play_round(table, "12", "±4", "0")
    play_round(table, "30", "8", "2")
    play_round(table, "1", "1", "1")
    ok(table.post("/undo", {}))
    return table


def test_csv_has_a_row_per_seat_per_round_with_running_totals(client: FlaskClient) -> None:
    table = played_sheet(client)
    text = client.get(f"{table.url}/export.csv").get_data(as_text=True)
    # The game is the one the sheet names; the last columns are the export's tests'.
    assert [row[:7] for row in csv.reader(io.StringIO(text))] == [
        ["game", "round", "seat", "player", "points", "running_total", "note"],
        ["Hearts", "1", "0", "Ann", "12", "12", ""],
        ["Hearts", "1", "1", "Bob", "-4", "-4", ""],
        ["Hearts", "1", "2", "'=Cy", "0", "0", ""],
        ["Hearts", "2", "0", "Ann", "30", "42", ""],
        ["Hearts", "2", "1", "Bob", "8", "4", ""],
        ["Hearts", "2", "2", "'=Cy", "2", "2", ""],
    ]


def test_json_export_carries_the_rounds_and_standings(client: FlaskClient) -> None:
    table = played_sheet(client)
    exported = client.get(f"{API}/sessions/{table.id}/export").get_json()
    assert exported["game"] == "score-sheet"
    assert exported["options"] == {"game_name": "Hearts", "winner": "lowest", "target": 100}
    assert [event["action"] for event in exported["events"]] == [
        {"type": "round", "points": [12, -4, 0]},
        {"type": "round", "points": [30, 8, 2]},
        {"type": "round", "points": [1, 1, 1]},
    ]
    assert [event["undone"] for event in exported["events"]] == [False, False, True]
    assert [s["player"] for s in exported["standings"]] == ["=Cy", "Bob", "Ann"]


def test_import_through_the_page_and_the_api_rebuilds_the_same_sheet(
    app: Flask, client: FlaskClient
) -> None:
    table = played_sheet(client)
    exported = client.get(f"/s/{table.id}/export.json").get_data(as_text=True)
    device = app.test_client()
    response = device.post("/import", data={"text": exported, "form_key": secrets.token_urlsafe(8)})
    assert response.status_code == 303
    page_copy = response.location.rsplit("/", 1)[1]
    api_copy = device.post(
        f"{API}/sessions/import", json=client.get(f"{API}/sessions/{table.id}/export").get_json()
    )
    assert api_copy.status_code == 201
    original = client.get(f"{API}/sessions/{table.id}/export").get_json()
    for copy_id in (page_copy, api_copy.get_json()["id"]):
        assert device.get(f"{API}/sessions/{copy_id}/export").get_json() == original
    # The importing phone may go on scoring: redo brings back the undone round.
    copy = Table(device, page_copy)
    assert 'id="round-form"' in copy.page()
    ok(copy.post("/redo", {}))
    assert totals(copy) == [43, 5, 3]
