"""A game with nothing recorded yet (a "Play again" the table did not take up) reads
"ready to start" in the lists and can be removed, leaving no trace; an imported game is
marked on its own page."""

from __future__ import annotations

import json
import re
import secrets
from html import unescape

from conftest import API, Table, ok, page_error, start
from flask import Flask
from flask.testing import FlaskClient
from test_groups import make_group, player_ids, start_group_game

from scorekeeper.db import database
from scorekeeper.models import GameSession

STARTED = "This game has started: only a game with nothing recorded yet can be removed."


def finished_sheet(client: FlaskClient) -> Table:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="10")
    ok(table.act(type="round", **{"points-0": "10", "points-1": "0"}))
    return table


def play_again(table: Table, form_key: str) -> str:
    response = table.client.post(f"{table.url}/rematch", data={"form_key": form_key})
    assert response.status_code == 303
    return str(response.location.rsplit("/", 1)[1])


def rows_naming(app: Flask, session_id: str) -> dict[str, int]:
    """How many rows name the session: its own row, and by table and column every row
    that references it."""
    with app.app_context(), database.connection_context():
        counts = {"game_session": GameSession.select().where(GameSession.id == session_id).count()}
        for field in GameSession._meta.backrefs:
            model = field.model
            name = f"{model._meta.table_name}.{field.name}"
            counts[name] = model.select().where(field == session_id).count()
    return counts


def list_badges(page: str, session_id: str) -> list[str]:
    """The badges of the list item linking to the session."""
    item = re.search(rf'href="/s/{session_id}">(.*?)</a>', page, re.S)
    assert item, "the session is not listed"
    return re.findall(r'<span class="badge[^"]*">([^<]*)</span>', item.group(1))


def test_a_play_again_nobody_played_reads_ready_to_start_and_is_removed_without_a_trace(
    app: Flask, client: FlaskClient
) -> None:
    table = finished_sheet(client)
    next_id = play_again(table, "tap-once")
    assert list_badges(client.get("/").get_data(as_text=True), next_id) == ["ready to start"]
    assert list_badges(client.get("/").get_data(as_text=True), table.id) == ["finished"]
    page = client.get(f"/s/{next_id}").get_data(as_text=True)
    assert f'href="/s/{next_id}/remove">Remove this game</a>' in page
    # A page that asks first; the removal itself is a POST.
    asked = client.get(f"/s/{next_id}/remove")
    assert asked.status_code == 200
    assert f'<form method="post" action="/s/{next_id}/remove">' in asked.get_data(as_text=True)
    assert rows_naming(app, next_id)["seat.session"] == 2
    removed = client.post(f"/s/{next_id}/remove")
    assert (removed.status_code, removed.location) == (303, "/")
    assert set(rows_naming(app, next_id).values()) == {0}
    assert client.get(f"/s/{next_id}").status_code == 404
    assert f"/s/{next_id}" not in client.get("/").get_data(as_text=True)
    # The finished game has no next game again: its Play again, even the same tap sent
    # again, starts a new one.
    assert "Play again" in client.get(table.url).get_data(as_text=True)
    again = play_again(table, "tap-once")
    assert again != next_id
    assert play_again(table, secrets.token_urlsafe(8)) == again


def test_a_game_with_a_round_recorded_is_not_removed(app: Flask, client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"])
    ok(table.act(type="round", **{"points-0": "3", "points-1": "4"}))
    ok(table.post("/undo", {}))  # undone, but the table's record all the same
    assert list_badges(client.get("/").get_data(as_text=True), table.id) == ["in play"]
    assert "Remove this game" not in table.page()
    refused = client.post(f"{table.url}/remove")
    assert refused.status_code == 422
    assert unescape(page_error(refused.get_data(as_text=True))) == STARTED
    assert rows_naming(app, table.id)["game_session"] == 1


def test_a_watching_phone_cannot_remove_a_game(app: Flask, client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"])
    watcher = app.test_client()
    assert "Remove this game" not in watcher.get(table.url).get_data(as_text=True)
    assert watcher.post(f"{table.url}/remove").status_code == 403
    assert watcher.get(f"{table.url}/remove").status_code == 403
    assert rows_naming(app, table.id)["game_session"] == 1


def test_a_groups_game_nobody_played_is_removed_from_its_page(
    app: Flask, client: FlaskClient
) -> None:
    group_id = make_group(client)
    ids = player_ids(app, group_id)
    started = start_group_game(client, group_id, [ids["Ann"], ids["Bo"]])
    session_id = started.location.rsplit("/", 1)[1]
    group_page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert list_badges(group_page, session_id) == ["ready to start"]
    assert f'href="/s/{session_id}/remove"' in group_page
    removed = client.post(f"/s/{session_id}/remove")
    assert (removed.status_code, removed.location) == (303, f"/g/{group_id}")
    assert set(rows_naming(app, session_id).values()) == {0}
    assert f"/s/{session_id}" not in client.get(f"/g/{group_id}").get_data(as_text=True)


def test_an_imported_game_is_marked_on_its_own_page(client: FlaskClient) -> None:
    table = finished_sheet(client)
    exported = client.get(f"{API}/sessions/{table.id}/export").get_json()
    imported = client.post(f"{API}/sessions/import", json=exported).get_json()
    badges = r'<h1>Score sheet((?: <span class="badge">[^<]*</span>)*)</h1>'
    original = re.search(badges, client.get(table.url).get_data(as_text=True))
    copy = re.search(badges, client.get(f"/s/{imported['id']}").get_data(as_text=True))
    assert original and copy
    assert re.findall(r">([^<]+)</span>", original.group(1)) == ["finished"]
    assert re.findall(r">([^<]+)</span>", copy.group(1)) == ["finished", "imported"]


def test_an_imported_game_with_its_events_is_not_ready_to_start(
    app: Flask, client: FlaskClient
) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"])
    ok(table.act(type="round", **{"points-0": "3", "points-1": "4"}))
    exported = client.get(f"{API}/sessions/{table.id}/export").get_json()
    made = client.post("/import", data={"text": json.dumps(exported), "form_key": "import-1"})
    assert made.status_code == 303
    copy = str(made.location.rsplit("/", 1)[1])
    assert list_badges(client.get("/").get_data(as_text=True), copy) == ["in play", "imported"]
    assert "Remove this game" not in client.get(f"/s/{copy}").get_data(as_text=True)
    refused = client.post(f"/s/{copy}/remove")
    assert refused.status_code == 422
    assert unescape(page_error(refused.get_data(as_text=True))) == STARTED
    assert rows_naming(app, copy)["event.session"] == 1
