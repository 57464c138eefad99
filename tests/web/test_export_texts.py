"""A finished session's part of its group's JSON export, kept as text: the files made
with kept texts are those made without them, byte for byte, and a kept text is used only
while its session, the code that made it and the group around it are as they were."""

from __future__ import annotations

import json
from typing import Any

from conftest import make_app
from flask import Flask
from flask.testing import FlaskClient
from test_app import migrated_up_to
from test_group_export import imported_id, played_group, seated, upload, write

from scorekeeper import export_texts, group_export, groups, session_views, store
from scorekeeper.db import database
from scorekeeper.migrations import MIGRATIONS, SchemaMigration, keep_export_texts
from scorekeeper.models import ExportText, GameSession

# What a kept text is replaced with to see that the export writes it as it is kept.
MARKER = '{"kept": "as it is"}'


def club(app: Flask) -> str:
    """``played_group`` (a score sheet corrected, finished; Yardkle and Cryptruck in play,
    a player gone) and two more finished games: Yardkle and a second score sheet."""
    group_id = played_group(app)
    with app.app_context(), database.connection_context():
        dice = seated(group_id, ["Ann", "Bo"], "yardkle", winning_score=500)
        write(dice, {"type": "total", "points": 600})
        write(dice, {"type": "total", "points": 0})
        sheet = seated(group_id, ["Cy", "Bo", "Ann"], "score-sheet", target=5)
        write(sheet, {"type": "round", "points": [1, 7, 2]})
        assert session_views.load(dice).finished and session_views.load(sheet).finished
    return group_id


def files(client: FlaskClient, group_id: str) -> tuple[bytes, bytes, bytes]:
    """The group's JSON file from its page, and its JSON and CSV from the API."""
    answers = (
        client.get(f"/g/{group_id}/export.json"),
        client.get(f"/api/v1/groups/{group_id}/export"),
        client.get(f"/api/v1/groups/{group_id}/export.csv"),
    )
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    return answers[0].data, answers[1].data, answers[2].data


def forget_kept(app: Flask) -> None:
    with app.app_context(), database.connection_context():
        ExportText.delete().execute()


def kept_texts(app: Flask, group_id: str) -> dict[str, tuple[int, str]]:
    """The group's kept texts' versions and texts, by session."""
    with app.app_context(), database.connection_context():
        rows = (
            ExportText.select(ExportText.session, ExportText.version, ExportText.text)
            .join(GameSession)
            .where(GameSession.group == group_id)
        )
        return {str(row.session_id): (row.version, row.text) for row in rows}


def names(part: dict[str, Any]) -> list[str]:
    """The seats' names of a score sheet's part (another game's: none)."""
    return [seat["name"] for seat in part["seats"]] if part["game"] == "score-sheet" else []


def finished_sessions(app: Flask, group_id: str) -> dict[str, int]:
    with app.app_context(), database.connection_context():
        rows = GameSession.select().where(
            (GameSession.group == group_id) & (GameSession.finished == True)  # noqa: E712
        )
        return {str(row.id): row.version for row in rows}


def test_the_exports_made_with_kept_texts_are_those_made_without_them(
    client: FlaskClient, app: Flask
) -> None:
    """Finished, in play, corrected and imported sessions of three games: the first export
    keeps each finished session's text, and every file made from them is byte for byte the
    one made without them, as the page wrote it before texts were kept."""
    group_id = club(app)
    copy_id = imported_id(upload(client, client.get(f"/g/{group_id}/export.json").text, "g.json"))
    for made in (group_id, copy_id):
        forget_kept(app)
        with app.app_context(), database.connection_context():
            assert ExportText.select().count() == 0
            # How the page wrote the file before: one json.dumps of the whole group.
            written = json.dumps(
                group_export.group_json(groups.load(made)), ensure_ascii=False, indent=1
            )
        forget_kept(app)
        without = files(client, made)
        assert without[0] == written.encode()
        finished = finished_sessions(app, made)
        assert len(finished) == 3
        assert {k: v for k, (v, _) in kept_texts(app, made).items()} == finished
        assert files(client, made) == without
        # Kept texts read anew (the views kept in memory forgotten) write the same again.
        session_views.forget()
        assert files(client, made) == without


def test_a_kept_text_beyond_ascii_is_written_byte_for_byte_as_it_was_made(
    client: FlaskClient, app: Flask
) -> None:
    """Kept texts go into the file as the database reads them, in UTF-8: names beyond
    ASCII (an accent, a CJK name, an emoji) come out as the text made them."""
    with app.app_context(), database.connection_context():
        group = groups.create("Café", ["Zoë", "李娜", "Ed 🦊"])
        sheet = seated(group.id, ["李娜", "Zoë", "Ed 🦊"], "score-sheet", target=5)
        write(sheet, {"type": "round", "points": [6, 1, 2]})
        written = json.dumps(
            group_export.group_json(groups.load(group.id)), ensure_ascii=False, indent=1
        )
    forget_kept(app)
    made = files(client, group.id)
    assert made[0] == written.encode()
    assert "李娜" in kept_texts(app, group.id)[sheet][1]
    assert files(client, group.id) == made
    assert [seat["name"] for seat in json.loads(made[0])["sessions"][0]["seats"]] == [
        "李娜",
        "Zoë",
        "Ed 🦊",
    ]


def test_a_kept_text_is_written_as_it_is_kept(client: FlaskClient, app: Flask) -> None:
    group_id = club(app)
    made = client.get(f"/g/{group_id}/export.json").text
    session_id = next(iter(finished_sessions(app, group_id)))
    with app.app_context(), database.connection_context():
        ExportText.update(text=MARKER).where(ExportText.session == session_id).execute()
    spliced = client.get(f"/g/{group_id}/export.json").text
    assert MARKER in spliced and MARKER not in made
    assert json.loads(spliced)["sessions"].count({"kept": "as it is"}) == 1


def test_a_kept_text_of_other_code_is_not_used_and_is_written_again(
    client: FlaskClient, app: Flask
) -> None:
    group_id = club(app)
    made = client.get(f"/g/{group_id}/export.json").data
    session_id = next(iter(finished_sessions(app, group_id)))
    kept = kept_texts(app, group_id)[session_id]
    with app.app_context(), database.connection_context():
        ExportText.update(text=MARKER, fingerprint="0" * 64).where(
            ExportText.session == session_id
        ).execute()
    assert client.get(f"/g/{group_id}/export.json").data == made
    assert kept_texts(app, group_id)[session_id] == kept
    with app.app_context(), database.connection_context():
        game = GameSession.get_by_id(session_id).game
        row = ExportText.get_by_id(session_id)
        assert row.fingerprint == export_texts.fingerprint(group_export.get_game(game))


def test_a_correction_or_an_undo_after_the_text_was_kept_gives_the_new_part(
    client: FlaskClient, app: Flask
) -> None:
    group_id = club(app)
    client.get(f"/g/{group_id}/export.json")
    with app.app_context(), database.connection_context():
        sheet = next(
            str(row.id)
            for row in GameSession.select().where(
                (GameSession.group == group_id) & (GameSession.game == "score-sheet")
            )
            if list(session_views.load(str(row.id)).seats) == ["Cy", "Bo", "Ann"]
        )
        version = session_views.load(sheet).version
        store.correct(sheet, 1, {"type": "round", "points": [9, 1, 2]}, version)
    corrected = client.get(f"/g/{group_id}/export.json").get_json()
    part = next(s for s in corrected["sessions"] if names(s) == ["Cy", "Bo", "Ann"])
    assert part["winners"] == ["Cy"] and part["events"][0]["action"]["points"] == [9, 1, 2]
    assert part["events"][0]["corrections"][0]["action"]["points"] == [1, 7, 2]
    assert kept_texts(app, group_id)[sheet][0] == version + 1
    with app.app_context(), database.connection_context():
        store.undo(sheet, version + 1)
    undone = client.get(f"/g/{group_id}/export.json").get_json()
    part = next(s for s in undone["sessions"] if names(s) == ["Cy", "Bo", "Ann"])
    assert part["finished"] is False and part["events"][0]["undone"] is True
    forget_kept(app)
    assert client.get(f"/g/{group_id}/export.json").get_json() == undone


def test_a_player_leaving_the_group_renumbers_the_kept_parts_seats(
    client: FlaskClient, app: Flask
) -> None:
    """A player's number in the file is the part's from outside its session: the parts of
    those after a player who left are made again with their new numbers."""
    group_id = club(app)
    client.get(f"/g/{group_id}/export.json")
    with app.app_context(), database.connection_context():
        group = groups.load(group_id)
        groups.remove_player(group_id, group.players[0].id)  # Ann
    kept = client.get(f"/g/{group_id}/export.json").data
    forget_kept(app)
    assert client.get(f"/g/{group_id}/export.json").data == kept
    exported = json.loads(kept)
    assert [p["name"] for p in exported["players"]] == ["Bo", "Cy"]
    seats = [
        [(seat["name"], seat["player"]) for seat in part["seats"]]
        for part in exported["sessions"]
        if part["finished"]
    ]
    assert seats == [
        [("Ann", None), ("Bo", 0)],
        [("Ann", None), ("Bo", 0)],
        [("Cy", 1), ("Bo", 0), ("Ann", None)],
    ]


def test_a_text_made_from_an_older_version_does_not_replace_a_newer_one(app: Flask) -> None:
    """Two exports at once: one that read the session before a correction keeps its text
    after the other kept the corrected one."""
    group_id = club(app)
    with app.app_context(), database.connection_context():
        group_export.group_json(groups.load(group_id))
    session_id, (version, text) = next(iter(kept_texts(app, group_id).items()))
    with app.app_context(), database.connection_context():
        row = ExportText.get_by_id(session_id)
        older = export_texts.Kept(session_id, version - 1, row.fingerprint, row.context, MARKER)
        export_texts.keep([older])
        assert ExportText.get_by_id(session_id).text == text
        export_texts.keep([older._replace(version=version, text=MARKER)])
        assert ExportText.get_by_id(session_id).text == MARKER


def test_a_database_at_migration_19_upgrades_keeping_its_groups_and_their_exports(
    database_url: str,
) -> None:
    """Its sessions kept as they were; the first export keeps its finished session's text
    and the next writes the same file from it."""
    number = MIGRATIONS.index(keep_export_texts) + 1
    migrated_up_to(database_url, number - 1)
    with database.connection_context():
        group = groups.create("Before", ["Ann", "Bo"])
        sheet = seated(group.id, ["Bo", "Ann"], "score-sheet", target=10)
        write(sheet, {"type": "round", "points": [4, 12]})
        in_play = seated(group.id, ["Ann", "Bo"], "score-sheet", target=10)
        write(in_play, {"type": "round", "points": [1, 2]})
        sessions = [
            (row.id, row.version, row.finished)
            for row in GameSession.select().order_by(GameSession.id)
        ]
    app = make_app(database_url)
    with app.app_context(), database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == list(
            range(1, len(MIGRATIONS) + 1)
        )
        assert [
            (row.id, row.version, row.finished)
            for row in GameSession.select().order_by(GameSession.id)
        ] == sessions
        assert ExportText.select().count() == 0
    client = app.test_client()
    first = client.get(f"/g/{group.id}/export.json").data
    with app.app_context(), database.connection_context():
        assert [row.session_id for row in ExportText.select()] == [sheet]
    assert client.get(f"/g/{group.id}/export.json").data == first
    assert [s["winners"] for s in json.loads(first)["sessions"]] == [["Ann"], []]
