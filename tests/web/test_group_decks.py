"""A group's deck profiles: made for the group or by its games, known to every phone of the
group (listed, offered, changed, its sizes learned by any of its sessions), hidden from and
closed to the phones outside it, carried by the group's export."""

from __future__ import annotations

import io
import json
import re
import secrets
from typing import Any

from conftest import Table, make_app, start
from flask import Flask
from flask.testing import FlaskClient
from test_app import migrated_up_to
from test_decks import make_deck, sizes_form
from test_groups import make_group, player_ids, start_group_game

from scorekeeper import decks, groups
from scorekeeper.db import database
from scorekeeper.migrations import MIGRATIONS, SchemaMigration, give_groups_their_decks
from scorekeeper.models import DeckProfile, GameSession, PlayerGroup, SessionDeck

SEATS = ("Ann", "Bo", "Cy", "Di")


def member(app: Flask, group_id: str) -> FlaskClient:
    """Another phone, joined to the group by its "join this group" link."""
    with app.app_context():
        key = groups.load(group_id).edit_key
    phone = app.test_client()
    assert phone.get(f"/g/{group_id}/join/{key}").status_code == 303
    return phone


def group_game(client: FlaskClient, app: Flask, group_id: str, **fields: Any) -> Table:
    ids = player_ids(app, group_id)
    response = start_group_game(
        client, group_id, [ids[name] for name in SEATS], "yadokarick", **fields
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    return Table(client, response.location.rsplit("/", 1)[1])


def offered_decks(html: str) -> list[str]:
    """The deck choices of a new-session form, as (value) in their order."""
    select = re.search(r'<select id="deck" name="deck">(.*?)</select>', html, re.S)
    assert select, "the form offers no deck"
    return re.findall(r'value="([^"]*)"', select.group(1))


def test_a_deck_made_starting_a_groups_game_is_known_to_every_phone_of_the_group(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    first = group_game(client, app, group_id, deck="new", new_deck_name="Crab box")
    deck_id = first.state()["deck_profile"]["id"]
    with app.app_context():
        assert decks.load(deck_id).group == group_id
    assert first.act(type="play", card="green 25", size="3").status_code == 303

    other = member(app, group_id)
    assert "Crab box" in other.get("/decks").get_data(as_text=True)
    # The group's game on the other phone offers the group's deck first, and needs no size
    # for the card the first phone's game taught it.
    page = other.get(f"/g/{group_id}/play/yadokarick").get_data(as_text=True)
    assert offered_decks(page) == [deck_id, "new"]
    assert offered_decks(other.get("/new/yadokarick").get_data(as_text=True)) == [deck_id, "new"]
    second = group_game(other, app, group_id, deck=deck_id)
    assert second.act(type="play", card="green 25").status_code == 303
    assert second.state()["state"]["sizes"] == {"green 25": 3}
    # Its sizes learned on the other phone are the first phone's too.
    assert second.act(type="play", card="pink 8", size="5").status_code == 303
    with app.app_context():
        assert decks.load(deck_id).sizes == {"green 25": 3, "pink 8": 5}
    # And the other phone, which neither made nor scored with it before, may change it.
    saved = other.post(f"/decks/{deck_id}", data=sizes_form("Crab box", green_25="4"))
    assert saved.status_code == 303
    with app.app_context():
        assert decks.load(deck_id).sizes == {"green 25": 4}


def test_a_phones_own_deck_played_in_a_groups_game_becomes_the_groups(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    own = make_deck(client, "Blue box")
    with app.app_context():
        assert decks.load(own).group is None
    other_group = make_group(client, "Sunday", players=SEATS)
    group_game(client, app, group_id, deck=own)
    with app.app_context():
        assert decks.load(own).group == group_id
    # Another group's page offers its own decks and this phone's of no group: not this one.
    page = client.get(f"/g/{other_group}/play/yadokarick").get_data(as_text=True)
    assert offered_decks(page) == ["new"]
    assert "Blue box" in member(app, group_id).get("/decks").get_data(as_text=True)


def test_a_phone_outside_the_group_neither_sees_nor_changes_the_groups_deck(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    table = group_game(client, app, group_id, deck="new", new_deck_name="Crab box")
    deck_id = table.state()["deck_profile"]["id"]
    outsider = app.test_client()
    outsider.get("/")
    watcher = app.test_client()
    assert watcher.get(f"/g/{group_id}").status_code == 200  # sees the group, not a member
    for phone in (outsider, watcher):
        assert "Crab box" not in phone.get("/decks").get_data(as_text=True)
        assert deck_id not in phone.get("/new/yadokarick").get_data(as_text=True)
        refused = phone.post(f"/decks/{deck_id}", data=sizes_form("Mine now", green_25="9"))
        assert refused.status_code == 403
        page = phone.get(f"/decks/{deck_id}").get_data(as_text=True)
        assert 'name="size-green 25"' not in page and "/join/" not in page
        assert "join its group" in page
        # Nor may it start a session with it.
        response = phone.post(
            "/new/yadokarick",
            data={
                **{f"seats-{i}": name for i, name in enumerate(SEATS)},
                "deck": deck_id,
                "form_key": secrets.token_urlsafe(8),
            },
        )
        assert response.status_code == 422
        assert phone.post(
            f"/g/{group_id}/decks", data={"name": "Mine", "form_key": "x"}
        ).status_code == (403)
    with app.app_context():
        assert decks.load(deck_id).name == "Crab box"
        assert DeckProfile.select().count() == 1


def test_the_group_page_lists_its_decks_and_a_member_adds_one_to_fill_in_at_once(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert "No deck yet." in page and 'action="/g/' + group_id + '/decks"' in page
    refused = client.post(f"/g/{group_id}/decks", data={"name": " ", "form_key": "a"})
    assert refused.status_code == 422
    assert "Give the deck a name" in refused.get_data(as_text=True)
    made = client.post(f"/g/{group_id}/decks", data={"name": "Crab box", "form_key": "b"})
    assert made.status_code == 303
    deck_id = made.location.rsplit("/", 1)[1]
    # The deck's page takes every size at once.
    grid = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert grid.count('inputmode="numeric"') == 72
    assert "every phone of the group knows its sizes and may change them" in grid
    every = {f"{colour}_{n}": str(n % 9 + 1) for colour in ("green", "pink") for n in range(1, 37)}
    assert client.post(f"/decks/{deck_id}", data=sizes_form("Crab box", **every)).status_code == 303
    with app.app_context():
        assert decks.load(deck_id).group == group_id
        assert len(decks.load(deck_id).sizes) == 72
    listed = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert "Crab box" in listed and "72 of 72 sizes known" in listed
    # Anyone with the group's link sees its decks; only members get the form.
    watcher = app.test_client().get(f"/g/{group_id}").get_data(as_text=True)
    assert "Crab box" in watcher and '/decks"' not in watcher.split("Decks</h2>")[1]
    # A game with it asks no size at all.
    table = group_game(client, app, group_id, deck=deck_id)
    assert table.act(type="play", card="pink 36", size="").status_code == 303
    assert table.state()["state"]["sizes"] == {"pink 36": 1}


def test_the_size_step_links_to_the_whole_deck_and_back_to_the_game(client: FlaskClient) -> None:
    table = start(client, "yadokarick", list(SEATS), deck="new", new_deck_name="Box")
    deck_id = table.state()["deck_profile"]["id"]
    step = client.get(f"{table.url}?size_for=green+25&size_type=play").get_data(as_text=True)
    link = f"/decks/{deck_id}?session={table.id}"
    assert f'href="{link}">Type every card\'s size at once</a>' in step
    saved = client.post(link, data=sizes_form("Box", green_25="3"))
    assert saved.status_code == 303
    assert saved.location == f"/decks/{deck_id}?saved=1&session={table.id}"
    assert f'href="/s/{table.id}">← Back to the game</a>' in client.get(saved.location).text


def test_the_api_starts_a_groups_session_with_its_deck_on_the_group_key_alone(
    client: FlaskClient, app: Flask
) -> None:
    created = client.post("/api/v1/groups", json={"name": "Friday", "players": list(SEATS)})
    group = created.get_json()
    bearer = {"Authorization": f"Bearer {group['edit_key']}"}
    players = [p["id"] for p in group["players"]]
    body = {"game": "yadokarick", "group": group["id"], "players": players}
    first = client.post("/api/v1/sessions", json={**body, "new_deck_name": "Tin"}, headers=bearer)
    assert first.status_code == 201
    deck_id = first.get_json()["deck_profile"]["id"]
    again = client.post("/api/v1/sessions", json={**body, "deck_profile": deck_id}, headers=bearer)
    assert again.status_code == 201
    assert again.get_json()["deck_profile"]["id"] == deck_id
    # The group's answer lists its decks, for any phone to find.
    played = client.post(
        f"/api/v1/sessions/{again.get_json()['id']}/events",
        json={"version": 0, "action": {"type": "play", "card": "green 25", "size": 3}},
        headers={"Authorization": f"Bearer {again.get_json()['edit_key']}"},
    )
    assert played.status_code == 201
    read = app.test_client().get(f"/api/v1/groups/{group['id']}").get_json()
    assert read["decks"] == [
        {"id": deck_id, "game": "yadokarick", "name": "Tin", "sizes": {"green 25": 3}}
    ]
    # A deck of no group still takes its own key.
    own = start(app.test_client(), "yadokarick", list(SEATS), deck="new").state()["deck_profile"]
    refused = client.post(
        "/api/v1/sessions", json={**body, "deck_profile": own["id"]}, headers=bearer
    )
    assert refused.status_code == 422 and refused.get_json()["field"] == "deck_key"


def test_the_group_export_carries_its_decks_once_and_an_import_makes_them_the_new_groups(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    first = group_game(client, app, group_id, deck="new", new_deck_name="Crab box")
    first.act(type="play", card="green 25", size="3")
    deck_id = first.state()["deck_profile"]["id"]
    group_game(client, app, group_id, deck=deck_id)
    client.post(f"/g/{group_id}/decks", data={"name": "Unplayed", "form_key": "u"})
    exported = client.get(f"/g/{group_id}/export.json").get_json()
    assert exported["decks"] == [
        {"number": 0, "game": "yadokarick", "name": "Crab box", "sizes": {"green 25": 3}},
        {"number": 1, "game": "yadokarick", "name": "Unplayed", "sizes": {}},
    ]
    assert [session["deck"] for session in exported["sessions"]] == [0, 0]

    other = app.test_client()
    for kind, sent in (
        ("json", {"file": (io_of(json.dumps(exported)), "group.json")}),
        ("csv", {"file": (io_of(client.get(f"/g/{group_id}/export.csv").text), "group.csv")}),
    ):
        response = other.post(
            "/groups/import", data={**sent, "form_key": kind}, content_type="multipart/form-data"
        )
        assert response.status_code == 303, response.text
        new_group = response.location.rsplit("/", 1)[1]
        with app.app_context():
            made = decks.of_group(new_group)
            assert sorted((p.name, p.sizes) for p in made) == [
                ("Crab box", {"green 25": 3}),
                ("Unplayed", {}),
            ]
            played = {
                decks.of_session(str(s.id)).id  # type: ignore[union-attr]
                for s in GameSession.select().where(GameSession.group == new_group)
            }
            assert played == {p.id for p in made if p.name == "Crab box"}
        assert other.get(f"/g/{new_group}/export.json").get_json()["decks"] == exported["decks"]


def test_a_group_file_of_before_decks_brings_each_sessions_deck(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    group_game(client, app, group_id, deck="new", new_deck_name="Crab box")
    exported = client.get(f"/g/{group_id}/export.json").get_json()
    del exported["decks"]
    del exported["sessions"][0]["deck"]
    response = client.post("/api/v1/groups/import", json=exported)
    assert response.status_code == 201
    with app.app_context():
        assert [p.name for p in decks.of_group(response.get_json()["id"])] == ["Crab box"]


def test_a_group_file_naming_no_deck_of_its_game_is_refused_naming_the_field(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, players=SEATS)
    group_game(client, app, group_id, deck="new", new_deck_name="Crab box")
    exported = client.get(f"/g/{group_id}/export.json").get_json()
    exported["sessions"][0]["deck"] = 1
    response = client.post("/api/v1/groups/import", json=exported)
    assert response.status_code == 422
    assert response.get_json() == {
        "error": "Session 1: “deck” must be the number of one of the file's yadokarick "
        "decks, or null.",
        "field": "sessions.0.deck",
    }
    exported["sessions"][0]["deck"] = 0
    exported["decks"][0]["game"] = "yardkle"
    response = client.post("/api/v1/groups/import", json=exported)
    assert response.status_code == 422
    assert response.get_json() == {
        "error": "Deck 1: Yardkle is not played with a deck profile.",
        "field": "decks.0.game",
    }


def io_of(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode())


def test_upgrading_gives_each_deck_to_the_group_that_first_played_with_it(
    database_url: str,
) -> None:
    """The migration before it, with sessions: a deck played by two groups goes to the
    group of its earliest session; one played by no group stays no group's; a deleted
    group leaves its deck to the phones that hold it."""
    migrated_up_to(database_url, MIGRATIONS.index(give_groups_their_decks))
    sessions = (
        ("a" * 22, "2026-01-02 20:00:00", "s" * 22, "t" * 22),
        ("b" * 22, "2026-01-01 20:00:00", "u" * 22, "t" * 22),
        ("c" * 22, "2026-01-03 20:00:00", None, "n" * 22),
        ("d" * 22, "2026-01-03 21:00:00", None, "t" * 22),
    )
    with database.connection_context():
        p = database.param
        for group in ("s" * 22, "u" * 22):
            database.execute_sql(
                "INSERT INTO player_group (id, edit_key, name, created_at, updated_at) "
                f"VALUES ({p}, {p}, {p}, '2026-01-01', '2026-01-01')",
                (group, "k" * 32, group[:1]),
            )
        for profile in ("t" * 22, "n" * 22):
            database.execute_sql(
                "INSERT INTO deck_profile (id, edit_key, game, name, sizes, created_at, "
                f"updated_at) VALUES ({p}, {p}, 'yadokarick', {p}, '{{}}', '2026-01-01', "
                "'2026-01-01')",
                (profile, "k" * 32, profile[:1]),
            )
        for session_id, created_at, group, profile in sessions:
            database.execute_sql(
                "INSERT INTO game_session (id, game, options, edit_key, version, finished, "
                f"created_at, updated_at, group_id) VALUES ({p}, 'yadokarick', '{{}}', {p}, 0, "
                f"{p}, {p}, {p}, {p})",
                (session_id, "k" * 32, False, created_at, created_at, group),
            )
            database.execute_sql(
                f"INSERT INTO session_deck (session_id, profile_id) VALUES ({p}, {p})",
                (session_id, profile),
            )
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == list(
            range(1, len(MIGRATIONS) + 1)
        )
        owners = dict(DeckProfile.select(DeckProfile.id, DeckProfile.group).tuples())
        assert owners == {"t" * 22: "u" * 22, "n" * 22: None}
        PlayerGroup.delete().where(PlayerGroup.id == "u" * 22).execute()
        assert DeckProfile.get_by_id("t" * 22).group_id is None
        assert SessionDeck.select().count() == 4
