"""A session's state answer carries what the table needs now, whatever the length of the
game; its past is paged: the event log by ``/history``, the past rounds or turns by
``/rounds`` (issue 32)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import API, ApiSession, act, api_session, assert_error, start
from flask import Flask
from flask.testing import FlaskClient
from page_player import submissions
from yardkle_game import SEATS, seeded_actions

from scorekeeper import lifecycle, store
from scorekeeper.db import database


def recorded(session: ApiSession, count: int, points: int = 0) -> None:
    """``count`` Yardkle turns entered as totals, through the API."""
    version = session.version
    for _ in range(count):
        answer = session.act({"type": "total", "points": points}, version=version)
        assert answer.status_code == 201, answer.get_json()
        version += 1


def page(client: FlaskClient, session_id: str, past: str, number: int) -> dict[str, Any]:
    answer = client.get(f"{API}/sessions/{session_id}/{past}", query_string={"page": number})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_the_history_pages_the_events_as_the_history_page_does(client: FlaskClient) -> None:
    session = api_session(client, entry_threshold=0, winning_score=100_000)
    recorded(session, 250, points=50)
    assert session.post("/undo", {"version": 250}).status_code == 200
    pages = [page(client, session.id, "history", number) for number in (1, 2, 3)]
    assert [p["pages"] for p in pages] == [3, 3, 3]
    assert [p["events_count"] for p in pages] == [250] * 3
    # Page 1 holds the newest events, oldest first; the history page pages them alike,
    # listing each page the newest first.
    assert [e["seq"] for e in pages[0]["events"]] == list(range(151, 251))
    assert [e["seq"] for e in pages[1]["events"]] == list(range(51, 151))
    assert [e["seq"] for e in pages[2]["events"]] == list(range(1, 51))
    html = client.get(f"/s/{session.id}/history?page=2").get_data(as_text=True)
    assert "Page 2 of 3, the newest first: events 150 to 51." in html
    newest = pages[0]["events"][-1]
    assert newest == {
        "seq": 250,
        "action": {"type": "total", "points": 50},
        "undone": True,
        "redoable": True,
        "text": "turn total 50",
        "ruling": None,
    }
    assert (
        pages[0]["events"][-2]["ruling"] == "Ann entered a turn of 50: total 6250. Bo rolls next."
    )
    base = f"http://localhost{API}/sessions/{session.id}"
    assert pages[0]["links"] == {
        "session": base,
        "newer": None,
        "older": f"{base}/history?page=2",
    }
    assert pages[1]["links"]["newer"] == f"{base}/history?page=1"
    assert pages[2]["links"]["older"] is None
    # The pages joined are the export's events.
    exported = client.get(f"{API}/sessions/{session.id}/export").get_json()
    joined = [event for p in reversed(pages) for event in p["events"]]
    assert joined == exported["events"]


def test_a_corrected_event_carries_what_each_correction_replaced_as_in_the_export(
    client: FlaskClient,
) -> None:
    table = start(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    act(table, type="trump", card="yellow 4")
    act(table, type="first-lead", seat="0")
    for card in ("red 12", "red 7", "red 6", "red 8"):
        act(table, type="play", card=card)
    assert table.post("/events/5/correct", {"card": "red 9"}).status_code == 303
    history = page(client, table.id, "history", 1)
    exported = client.get(f"{API}/sessions/{table.id}/export").get_json()
    assert history["events"] == exported["events"]
    [corrected] = [event for event in history["events"] if "corrections" in event]
    assert corrected["seq"] == 5
    assert corrected["action"] == {"type": "play", "card": "red 9"}
    assert [c["action"] for c in corrected["corrections"]] == [{"type": "play", "card": "red 6"}]


def test_the_rounds_pages_hold_the_score_rows_and_the_records_the_state_leaves_out(
    client: FlaskClient,
) -> None:
    session = api_session(client, entry_threshold=0, winning_score=100_000)
    recorded(session, 230, points=50)
    pages = [page(client, session.id, "rounds", number) for number in (1, 2, 3)]
    assert [(p["pages"], p["rounds_count"], p["records_count"]) for p in pages] == [
        (3, 230, {"turns": 230})
    ] * 3
    exported = client.get(f"{API}/sessions/{session.id}/export").get_json()
    assert pages[0]["rounds"] == exported["rounds"][-100:]
    assert pages[2]["rounds"] == exported["rounds"][:30]
    turns = [turn for p in reversed(pages) for turn in p["records"]["turns"]]
    assert turns == [
        {"round": n // 2 + 1, "seat": n % 2, "points": 50, "result": "quick", "lost": 0}
        for n in range(230)
    ]
    assert pages[0]["records"]["turns"][-1] == {
        "round": 115,
        "seat": 1,
        "points": 50,
        "result": "quick",
        "lost": 0,
    }
    # The state carries the round in progress and the newest turn in their place.
    state = session.read()["state"]
    assert "turns" not in state
    assert (state["round"], state["round_turns"], state["last_turn"]) == (
        116,
        [],
        turns[-1],
    )


def test_a_score_sheets_rounds_pages_by_its_longest_list(client: FlaskClient) -> None:
    created = client.post(
        f"{API}/sessions", json={"game": "score-sheet", "seats": ["Ann", "Bo"]}
    ).get_json()
    session = ApiSession(client, created)
    for version in range(60):
        action = {"type": "round", "points": [version, -version]}
        assert session.act(action, version=version).status_code == 201
    first = page(client, session.id, "rounds", 1)
    # Two score rows a round: the rows fill two pages, the rounds one.
    assert (first["pages"], first["rounds_count"], first["records_count"]) == (
        2,
        120,
        {"rounds": 60},
    )
    assert first["records"]["rounds"] == [[n, -n] for n in range(60)]
    assert page(client, session.id, "rounds", 2)["records"]["rounds"] == []
    assert session.read()["state"]["last_round"] == [59, -59]
    assert session.read()["state"]["rounds_played"] == 60


@pytest.mark.parametrize("past", ["history", "rounds"])
@pytest.mark.parametrize("asked", ["0", "-1", "x", "1.5", "", "٣", "9" * 12])
def test_a_page_number_that_is_none_is_refused_naming_the_page(
    client: FlaskClient, past: str, asked: str
) -> None:
    session = api_session(client)
    answer = client.get(f"{API}/sessions/{session.id}/{past}", query_string={"page": asked})
    assert assert_error(answer, 400, "page") == "“page” must be a whole number from 1."


@pytest.mark.parametrize(("past", "what"), [("history", "history"), ("rounds", "list of rounds")])
def test_a_page_past_the_last_and_an_unknown_session_are_404(
    client: FlaskClient, past: str, what: str
) -> None:
    session = api_session(client)
    answer = client.get(f"{API}/sessions/{session.id}/{past}?page=2")
    assert assert_error(answer, 404, "page") == f"This {what} has pages 1 to 1."
    assert_error(client.get(f"{API}/sessions/nobody-has-this/{past}"), 404, None)


def state_body_size(client: FlaskClient, session_id: str) -> int:
    answer = client.get(f"{API}/sessions/{session_id}")
    assert answer.status_code == 200
    return len(answer.get_data())


def test_a_seeded_yardkle_games_state_answer_at_thousands_of_events_is_within_twice_at_50(
    app: Flask, client: FlaskClient
) -> None:
    actions = seeded_actions(SEATS, 100_000, seed=1, limit=3000)
    assert len(actions) == 3000
    with app.app_context(), database.connection_context():
        session_id, _key = lifecycle.create("yardkle", list(SEATS), {"winning_score": 100_000})
        sizes = {}
        for version, action in enumerate(actions):
            store.append(session_id, action, version)
            if version + 1 in (50, 3000):
                sizes[version + 1] = state_body_size(client, session_id)
    assert sizes[3000] <= 2 * sizes[50], sizes
    rounds = client.get(f"{API}/sessions/{session_id}/rounds").get_json()
    assert rounds["records_count"]["turns"] > 300  # the turns are all there, paged


# Each game and mode with options for a long game, how many rounds (or turns, or
# scorings) N it plays for each of the two spans measured, and the action types the walk
# leaves out (the score sheet's finish would end it). Yadokarick's NPC game is one round
# of the standard game's state: it has no second span to measure.
LONG_GAMES: dict[str, tuple[str, list[str], dict[str, str], int, set[str]]] = {
    "yokai-septet": ("yokai-septet", ["Ann", "Bo", "Cy", "Di"], {}, 1, set()),
    "cryptruck": ("cryptruck", ["Ann", "Bo", "Cy"], {}, 1, set()),
    "yadokarick": ("yadokarick", ["Ann", "Bo", "Cy"], {"option_rounds": "4"}, 2, set()),
    "yadokarick-solo": ("yadokarick", ["Ann"], {}, 3, set()),
    "yardkle": ("yardkle", ["Ann", "Bo"], {"option_winning_score": "100000"}, 6, set()),
    "yellow-dwarf": (
        "yellow-dwarf",
        ["Ann", "Bo", "Cy"],
        {"option_starting_chips": "500"},
        3,
        set(),
    ),
    "score-sheet": ("score-sheet", ["Ann", "Bo"], {"option_target": "0"}, 6, {"finish"}),
}


def past_size(client: FlaskClient, session_id: str) -> tuple[int, int]:
    """How many rounds (or turns) a session's score rows cover, and the length of the JSON
    of its history records (what the state carried until it left them out)."""
    pages = client.get(f"{API}/sessions/{session_id}/rounds").get_json()
    assert pages["pages"] == 1
    records = [record for listed in pages["records"].values() for record in listed]
    return len({row["round"] for row in pages["rounds"]}), len(json.dumps(records))


@pytest.mark.parametrize("walk", sorted(LONG_GAMES))
def test_every_games_state_answer_over_its_next_n_rounds_grows_by_less_than_their_records(
    client: FlaskClient, walk: str
) -> None:
    slug, seats, fields, rounds, left_out = LONG_GAMES[walk]
    table = start(client, slug, seats, **fields)
    rng = random.Random(walk)
    # The largest answer while the first N rounds are played, and while the next N are;
    # the length of the records' JSON after each span.
    largest, records_text = [0, 0], [0, 0]
    url, played = table.url, 0
    while played < 2 * rounds:
        html = client.get(url).get_data(as_text=True)
        offered = [
            sub for sub in submissions(html, rng) if dict(sub.fields).get("type") not in left_out
        ]
        assert offered, f"{walk} ended after {played} rounds"
        chosen = rng.choice(offered)
        answer = client.post(chosen.action, data=chosen.data())
        url = answer.location if answer.status_code == 303 else table.url
        span = 0 if played < rounds else 1
        largest[span] = max(largest[span], state_body_size(client, table.id))
        played, records_text[span] = past_size(client, table.id)
    # The records of the next N rounds are not in the answer: it held every record before,
    # and grew by all of theirs.
    added = records_text[1] - records_text[0]
    assert added > 0
    assert largest[1] - largest[0] < added, (largest, records_text)
