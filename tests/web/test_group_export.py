"""A whole group exported as JSON or CSV and imported back as a new, identical group: on
its page and in the API, every refusal writing nothing."""

from __future__ import annotations

import csv
import io
import itertools
import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from conftest import API, assert_error, page_error
from flask import Flask
from flask.testing import FlaskClient
from test_charts_and_stats import rows_of

from scorekeeper import group_export, groups, lifecycle, ratings, session_views, store
from scorekeeper.db import database
from scorekeeper.games import GAMES
from scorekeeper.games.base import MINUS
from scorekeeper.models import GameSession, GroupPlayer, PlayerGroup, Seat


def seated(group_id: str, names: list[str], slug: str, **options: Any) -> str:
    group = groups.load(group_id)
    ids = [next(p.id for p in group.players if p.name == name) for name in names]
    session_id, _ = lifecycle.create(
        slug, [], options, seating=groups.seating(group, ids, GAMES[slug])
    )
    return session_id


def write(session_id: str, action: dict[str, Any]) -> None:
    store.append(session_id, action, session_views.load(session_id).version)


def played_group(app: Flask) -> str:
    """Friday night: players with colours and emoji; a Yardkle game in play with an undone
    total, a finished score sheet whose round was corrected, and a Cryptruck game whose
    third seat's player (“=Di”, a name a spreadsheet would run) has left the group."""
    with app.app_context(), database.connection_context():
        group = groups.create("Friday night", ["Ann", "Bo", "Cy", "=Di"])
        ann, _bo, cy, di = group.players
        groups.change_player(group.id, ann.id, colour="#d62728", emoji="🦊")
        groups.change_player(group.id, cy.id, emoji="🐢")
        dice = seated(group.id, ["Cy", "Ann"], "yardkle")
        write(dice, {"type": "total", "points": 550})
        store.undo(dice, session_views.load(dice).version)
        write(dice, {"type": "total", "points": 600})
        write(dice, {"type": "total", "points": 700})
        sheet = seated(group.id, ["Ann", "Bo"], "score-sheet", target=10)
        write(sheet, {"type": "round", "points": [5, 0]})
        store.correct(
            sheet, 1, {"type": "round", "points": [10, 0]}, session_views.load(sheet).version
        )
        cards = seated(group.id, ["Bo", "Cy", "=Di"], "cryptruck", first_dealer=0)
        write(cards, {"type": "reveal", "card": "green 2"})
        groups.remove_player(group.id, di.id)
        assert session_views.load(sheet).finished and not session_views.load(dice).finished
        return group.id


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context(), database.connection_context():
        return (
            PlayerGroup.select().count(),
            GroupPlayer.select().count(),
            GameSession.select().count(),
        )


def upload(client: FlaskClient, text: str, name: str, form_key: str = "k") -> Any:
    data = {"file": (io.BytesIO(text.encode()), name), "form_key": form_key}
    return client.post("/groups/import", data=data, content_type="multipart/form-data")


def imported_id(response: Any) -> str:
    assert response.status_code == 303, page_error(response.get_data(as_text=True))
    return str(response.location.rsplit("/", 1)[1])


@pytest.fixture
def group_id(app: Flask) -> str:
    return played_group(app)


def without_ratings(player: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in player.items() if key not in ("rating", "game_ratings")}


def shown(rating: dict[str, float]) -> str:
    """A rating of a group file as the pages round it, its movement after it: "3.4 +3.4"."""
    return f"{rating['rating']:.1f} {rating['moved']:+.1f}"


def ratings_shown(player: dict[str, Any]) -> tuple[str | None, dict[str, str]]:
    """A player's ratings in a group file: over all games, and in each game by slug (a
    score sheet where the lowest wins with "lowest" after it)."""
    overall = player["rating"]
    return None if overall is None else shown(overall), {
        rated["game"] + (" lowest" if rated["lower_is_better"] else ""): shown(rated["rating"])
        for rated in player["game_ratings"]
    }


def test_the_json_export_names_players_in_order_and_each_seats_player_by_number(
    client: FlaskClient, group_id: str
) -> None:
    exported = client.get(f"/g/{group_id}/export.json").get_json()
    assert (exported["format"], exported["format_version"], exported["name"]) == (
        "tabletop-scorekeeper/group",
        1,
        "Friday night",
    )
    assert [without_ratings(player) for player in exported["players"]] == [
        {"number": 0, "name": "Ann", "colour": "#d62728", "emoji": "🦊"},
        {"number": 1, "name": "Bo", "colour": "", "emoji": ""},
        {"number": 2, "name": "Cy", "colour": "", "emoji": "🐢"},
    ]
    # Ann won the one finished game, the score sheet, over Bo; Cy finished none.
    assert [ratings_shown(player) for player in exported["players"]] == [
        ("3.4 +3.4", {"score-sheet": "3.4 +3.4"}),
        ("-1.8 -1.8", {"score-sheet": "-1.8 -1.8"}),
        (None, {}),
    ]
    sessions = exported["sessions"]
    assert [s["game"] for s in sessions] == ["yardkle", "score-sheet", "cryptruck"]
    assert [[seat["player"] for seat in s["seats"]] for s in sessions] == [
        [2, 0],
        [0, 1],
        [1, 2, None],
    ]
    assert [seat["name"] for seat in sessions[2]["seats"]] == ["Bo", "Cy", "=Di"]
    assert [e["undone"] for e in sessions[0]["events"]] == [True, False, False]
    assert sessions[1]["events"][0]["corrections"][0]["action"] == {
        "type": "round",
        "points": [5, 0],
    }
    assert (sessions[1]["finished"], sessions[0]["finished_at"]) == (True, None)


def test_a_json_export_imported_on_the_page_exports_the_same_file(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    first = client.get(f"/g/{group_id}/export.json").get_data(as_text=True)
    new_id = imported_id(upload(client, first, "friday.json"))
    assert new_id != group_id
    assert client.get(f"/g/{new_id}/export.json").get_data(as_text=True) == first
    with app.app_context(), database.connection_context():
        new_players = {p.id: p.name for p in groups.load(new_id).players}
        rows = GameSession.select().where(GameSession.group == new_id)
        assert [row.imported for row in rows] == [True, True, True]
        links = [
            (seat.name, new_players.get(seat.player_id))
            for seat in Seat.select().join(GameSession).where(GameSession.group == new_id)
        ]
    assert sorted(links, key=str) == sorted(
        [("Cy", "Cy"), ("Ann", "Ann"), ("Ann", "Ann"), ("Bo", "Bo"), ("Bo", "Bo"),
         ("Cy", "Cy"), ("=Di", None)],
        key=str,
    )  # fmt: skip
    # This phone may change the group it imported, as one it made.
    assert "Start a game" in client.get(f"/g/{new_id}").get_data(as_text=True)


def test_a_csv_export_imported_on_the_page_exports_the_same_file(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    first = client.get(f"/g/{group_id}/export.csv")
    assert first.mimetype == "text/csv"
    text = first.get_data(as_text=True)
    lines = text.split("\r\n")
    assert lines[:5] == [
        "kind,number,name,colour,emoji,session,rating,rating_change,game_rating,game_rating_change",
        "group,1,Friday night,,,,,,,",
        "player,0,Ann,#d62728,🦊,,,,,",
        "player,1,Bo,,,,,,,",
        "player,2,Cy,,🐢,,,,,",
    ]
    assert [line.split(",")[:2] for line in lines[5:8]] == [
        ["session", "0"],
        ["session", "1"],
        ["session", "2"],
    ]
    # Then the ratings after each finished session: the score sheet Ann won over Bo.
    assert lines[8:] == [
        "rating,1,Ann,,,,3.4,3.4,3.4,3.4",
        "rating,1,Bo,,,,-1.8,-1.8,-1.8,-1.8",
        "",
    ]
    new_id = imported_id(upload(client, text, "friday.csv"))
    assert client.get(f"/g/{new_id}/export.csv").get_data(as_text=True) == text
    json_of = [client.get(f"/g/{gid}/export.json").get_json() for gid in (group_id, new_id)]
    assert json_of[0] == json_of[1]


def test_a_name_a_spreadsheet_would_run_is_quoted_in_the_csv_and_read_back_as_it_was(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context(), database.connection_context():
        made = groups.create("=SUM(A1)", ["'quoted", "+1", "Bo"])
    text = client.get(f"/g/{made.id}/export.csv").get_data(as_text=True)
    assert "group,1,'=SUM(A1),,," in text and "player,0,''quoted,,," in text
    new_id = imported_id(upload(client, text, "g.csv"))
    with app.app_context(), database.connection_context():
        again = groups.load(new_id)
    assert (again.name, [p.name for p in again.players]) == ("=SUM(A1)", ["'quoted", "+1", "Bo"])


def test_a_double_tap_on_the_import_form_makes_the_group_once(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    text = client.get(f"/g/{group_id}/export.json").get_data(as_text=True)
    before = counts(app)
    first = imported_id(upload(client, text, "g.json", form_key="tap"))
    assert imported_id(upload(client, text, "g.json", form_key="tap")) == first
    assert counts(app) == (before[0] + 1, before[1] + 3, before[2] + 3)


def group_file(client: FlaskClient, group_id: str) -> dict[str, Any]:
    return client.get(f"{API}/groups/{group_id}/export").get_json()


def refusals(exported: dict[str, Any]) -> list[tuple[Any, str, str]]:
    """(file, field, words of the sentence) of files an import refuses."""
    wrong_version = {**exported, "format_version": 2}
    unknown_game = json.loads(json.dumps(exported))
    unknown_game["sessions"][2]["game"] = "chess"
    missing = json.loads(json.dumps(exported))
    missing["sessions"][1]["seats"][1]["player"] = 3
    twice = json.loads(json.dumps(exported))
    twice["sessions"][2]["seats"][2]["player"] = 1
    worded_mu = json.loads(json.dumps(exported))
    rated = {"rating": 1.0, "moved": 0.0, "mu": "high", "sigma": 8.0}
    worded_mu["players"][0]["game_ratings"] = [
        {"game": "score-sheet", "lower_is_better": False, "rating": rated}
    ]
    number_rating = json.loads(json.dumps(exported))
    number_rating["players"][1]["rating"] = 3
    return [
        (
            json.dumps({**exported, "format": "tabletop-scorekeeper/session"}),
            "format",
            "not a group file",
        ),
        (json.dumps(wrong_version), "format_version", "format version 2"),
        (json.dumps(unknown_game), "sessions.2.game", "Session 3"),
        (json.dumps(missing), "sessions.1.seats.1.player", "(0 to 2)"),
        (json.dumps(twice), "sessions.2.seats.2.player", "already sits"),
        (json.dumps(worded_mu), "players.0.game_ratings.0.rating.mu", "must be a number"),
        (json.dumps(number_rating), "players.1.rating", "must be an object of numbers"),
    ]


def test_the_api_refuses_a_bad_group_file_naming_its_field_and_writes_nothing(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    before = counts(app)
    for text, field, words in refusals(group_file(client, group_id)):
        response = client.post(f"{API}/groups/import", data=text, content_type="application/json")
        assert words in assert_error(response, 422, field)
    bad_json = client.post(f"{API}/groups/import", data="{", content_type="application/json")
    assert bad_json.status_code == 400
    assert counts(app) == before


def test_the_page_refuses_a_bad_group_file_with_a_sentence_and_writes_nothing(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    before = counts(app)
    for text, _field, words in [
        ("{", "", "not valid JSON"),
        *refusals(group_file(client, group_id)),
    ]:
        response = upload(client, text, "g.json")
        assert response.status_code == 422
        assert words in page_error(response.get_data(as_text=True))
    assert counts(app) == before


def test_a_bad_csv_row_is_named_by_its_row_and_column(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    text = client.get(f"/g/{group_id}/export.csv").get_data(as_text=True)
    broken = text.replace('session,1,,,,"{', 'session,1,,,,"{oops', 1)
    response = client.post(f"{API}/groups/import", data=broken, content_type="text/csv")
    assert "Row 7, column session" in assert_error(response, 422, "row 7, column session")
    odd_kind = text.replace("player,1,", "person,1,", 1)
    response = client.post(f"{API}/groups/import", data=odd_kind, content_type="text/csv")
    assert "not 'person'" in assert_error(response, 422, "row 4, column kind")


def test_the_api_imports_json_and_csv_once_per_request_key(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    exported = group_file(client, group_id)
    sent = {**exported, "request_key": "import-1"}
    first = client.post(f"{API}/groups/import", json=sent)
    assert first.status_code == 201, first.get_json()
    created = first.get_json()
    assert created["name"] == "Friday night" and len(created["sessions"]) == 3
    assert created["edit_key"]
    again = client.post(f"{API}/groups/import", json=sent)
    assert (again.status_code, again.get_json()["id"]) == (201, created["id"])
    assert group_file(client, created["id"]) == exported
    other = client.post(f"{API}/groups/import", json={**sent, "name": "Saturday"})
    assert "already used" in assert_error(other, 422, "request_key")

    text = client.get(f"{API}/groups/{group_id}/export.csv").get_data(as_text=True)
    by_csv = client.post(
        f"{API}/groups/import?request_key=csv-1", data=text, content_type="text/csv"
    )
    assert by_csv.status_code == 201, by_csv.get_json()
    repeat = client.post(
        f"{API}/groups/import?request_key=csv-1", data=text, content_type="text/csv"
    )
    assert repeat.get_json()["id"] == by_csv.get_json()["id"]
    assert group_file(client, by_csv.get_json()["id"]) == exported


def test_the_import_page_is_linked_from_home_and_the_session_import(
    client: FlaskClient, group_id: str
) -> None:
    assert 'href="/groups/import"' in client.get("/").get_data(as_text=True)
    assert 'href="/groups/import"' in client.get("/import").get_data(as_text=True)
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert f'href="/g/{group_id}/export.csv"' in page
    assert f'href="/g/{group_id}/export.json"' in page
    assert client.get("/groups/import").status_code == 200


def test_an_unknown_group_has_no_export(client: FlaskClient) -> None:
    assert client.get(f"/g/{'x' * 22}/export.json").status_code == 404
    assert_error(client.get(f"{API}/groups/{'x' * 22}/export"), 404, None)


def test_a_group_file_larger_than_other_bodies_may_be_is_imported(
    app: Flask, client: FlaskClient, group_id: str
) -> None:
    exported = group_file(client, group_id)
    # Many sessions make a group's file larger than the 512 KiB any other body may be.
    exported["sessions"] = exported["sessions"] * 200
    text = json.dumps(exported)
    assert len(text) > app.config["MAX_CONTENT_LENGTH"]
    new_id = imported_id(upload(client, text, "big.json"))
    assert len(group_file(client, new_id)["sessions"]) == 600
    too_big = " " * group_export.FILE_MAX_BYTES + "{}"
    assert (
        client.post(f"{API}/groups/import", data=too_big, content_type="text/csv").status_code
        == 413
    )


@pytest.mark.parametrize("version", ["²", "\u0661", "9" * 5000])
def test_a_csv_group_row_whose_version_is_no_number_int_reads_is_refused_naming_it(
    app: Flask, client: FlaskClient, version: str
) -> None:
    text = f"{','.join(group_export.CSV_COLUMNS)}\r\ngroup,{version},Friday,,,\r\n"
    response = client.post(f"{API}/groups/import", data=text, content_type="text/csv")
    assert "format version" in assert_error(response, 422, "format_version")
    page = upload(client, text, "g.csv")
    assert page.status_code == 422
    assert "format version" in page_error(page.get_data(as_text=True))


def test_a_csv_session_cell_nested_too_deeply_is_refused_naming_its_row_and_column(
    app: Flask, client: FlaskClient
) -> None:
    text = (
        f"{','.join(group_export.CSV_COLUMNS)}\r\ngroup,1,Friday,,,\r\n"
        f'session,0,,,,"{"[" * 100_000}"\r\n'
    )
    response = client.post(f"{API}/groups/import", data=text, content_type="text/csv")
    assert "nests too deeply" in assert_error(response, 422, "row 3, column session")
    page = upload(client, text, "g.csv")
    assert page.status_code == 422
    assert "Row 3, column session" in page_error(page.get_data(as_text=True))


def test_a_number_too_long_to_read_is_refused_in_words_not_with_python_advice(
    app: Flask, client: FlaskClient
) -> None:
    number = "9" * 5000
    header = f"{','.join(group_export.CSV_COLUMNS)}\r\ngroup,1,Friday,,,\r\n"
    text = f"{header}session,0,,,,{number}\r\n"
    response = client.post(f"{API}/groups/import", data=text, content_type="text/csv")
    sentence = assert_error(response, 422, "row 3, column session")
    assert "more than 4300 digits" in sentence and "sys." not in sentence
    for path in ("/groups/import", "/import"):
        page = client.post(path, data={"text": f'{{"format": {number}}}', "form_key": "k"})
        assert page.status_code == 422
        shown = page.get_data(as_text=True)
        assert "not valid JSON (a number has more than 4300 digits)" in shown
        assert "sys." not in shown


@pytest.fixture
def three_games(app: Flask, monkeypatch: pytest.MonkeyPatch) -> str:
    """Ann, Bo and Cy: a score sheet Ann won, Bo second, Cy last; one Bo won over Cy; then
    one where the lowest wins that Cy won over Ann. A write is a minute after the one
    before: files keep the second a session ended, so the import rates them in that order."""
    minutes = itertools.count()
    monkeypatch.setattr(
        store, "utc_now", lambda: datetime(2099, 1, 1) + timedelta(minutes=next(minutes))
    )
    with app.app_context(), database.connection_context():
        group = groups.create("Three games", ["Ann", "Bo", "Cy"])
        for names, points, options in (
            (["Ann", "Bo", "Cy"], [10, 5, 0], {"target": 10}),
            (["Bo", "Cy"], [10, 0], {"target": 10}),
            (["Cy", "Ann"], [0, 20], {"target": 20, "winner": "lowest"}),
        ):
            sheet = seated(group.id, names, "score-sheet", **options)
            write(sheet, {"type": "round", "points": points})
            assert session_views.load(sheet).finished
        return group.id


def test_the_group_csv_gives_each_players_rating_after_each_game_and_its_movement(
    client: FlaskClient, three_games: str
) -> None:
    group_id = three_games
    text = client.get(f"/g/{group_id}/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    rated = [
        [row[column] for column in ("number", "name", *ratings.COLUMNS)]
        for row in rows
        if row["kind"] == "rating"
    ]
    # OpenSkill's Plackett-Luce, to one decimal as the page shows it: over all games, then
    # in the game (the score sheet where the lowest wins is a game of its own).
    assert rated == [
        ["0", "Ann", "3.3", "3.3", "3.3", "3.3"],
        ["0", "Bo", "1.5", "1.5", "1.5", "1.5"],
        ["0", "Cy", "-2.8", "-2.8", "-2.8", "-2.8"],
        ["1", "Bo", "4.4", "2.8", "4.4", "2.8"],
        ["1", "Cy", "-4.1", "-1.4", "-4.1", "-1.4"],
        ["2", "Cy", "-0.4", "3.8", "3.4", "3.4"],
        ["2", "Ann", "0.5", "-2.7", "-1.8", "-1.8"],
    ]
    # The page's leaderboard shows the same figures after the latest game.
    page = client.get(f"/g/{group_id}/stats").get_data(as_text=True)
    assert [row[0] + " " + row[-1] for row in rows_of(page, "Leaderboard")[1:]] == [
        "Bo 4.4+2.8",
        f"Ann 0.5{MINUS}2.7",
        f"Cy {MINUS}0.4+3.8",
    ]


def test_the_group_json_gives_each_players_latest_ratings_over_all_games_and_in_each(
    client: FlaskClient, three_games: str
) -> None:
    players = group_file(client, three_games)["players"]
    assert [(player["name"], *ratings_shown(player)) for player in players] == [
        ("Ann", "0.5 -2.7", {"score-sheet": "3.3 +3.3", "score-sheet lowest": "-1.8 -1.8"}),
        ("Bo", "4.4 +2.8", {"score-sheet": "4.4 +2.8"}),
        ("Cy", "-0.4 +3.8", {"score-sheet": "-4.1 -1.4", "score-sheet lowest": "3.4 +3.4"}),
    ]
    bo = players[1]["rating"]
    assert (round(bo["mu"], 3), round(bo["sigma"], 3)) == (27.828, 7.812)


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_an_exported_groups_ratings_are_rated_again_by_the_import_to_the_same_figures(
    app: Flask, client: FlaskClient, three_games: str, kind: str
) -> None:
    group_id = three_games
    first = client.get(f"/g/{group_id}/export.{kind}").get_data(as_text=True)
    # The import reads no rating: changed in the file, they come back as rated.
    if kind == "json":
        tampered = json.loads(first)
        for player in tampered["players"]:
            player["rating"] = None
            player["game_ratings"] = []
        sent = json.dumps(tampered)
    else:
        sent = first.replace("rating,2,Cy,,,,-0.4,3.8,3.4,3.4", "rating,2,Cy,,,,99,99,99,99")
        assert sent != first
    new_id = imported_id(upload(client, sent, f"three.{kind}"))
    assert client.get(f"/g/{new_id}/export.{kind}").get_data(as_text=True) == first
    with app.app_context(), database.connection_context():
        kept = [ratings.kept_of(gid) for gid in (group_id, new_id)]
        names = [
            {str(p.id): p.name for p in groups.load(gid).players} for gid in (group_id, new_id)
        ]
    by_name = [
        {
            scope: {names[n][player]: skill for player, skill in board.items()}
            for scope, board in kept[n].items()
        }
        for n in (0, 1)
    ]
    assert by_name[0] == by_name[1]


def test_a_group_csv_without_the_rating_columns_is_imported(
    client: FlaskClient, three_games: str
) -> None:
    group_id = three_games
    text = client.get(f"/g/{group_id}/export.csv").get_data(as_text=True)
    rows = [row[: len(group_export.CSV_COLUMNS)] for row in csv.reader(io.StringIO(text))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(row for row in rows if row[0] != "rating")
    new_id = imported_id(upload(client, out.getvalue(), "before-ratings.csv"))
    assert client.get(f"/g/{new_id}/export.csv").get_data(as_text=True) == text


def test_a_group_games_session_csv_gives_each_seats_ratings_after_it(
    app: Flask, client: FlaskClient, three_games: str
) -> None:
    with app.app_context(), database.connection_context():
        played = GameSession.select().where(GameSession.group == three_games)
        last = played.order_by(GameSession.created_at.desc()).get().id
    text = client.get(f"/s/{last}/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    columns = ("player", "place", *ratings.COLUMNS)
    # The last game, where the lowest wins: Cy won it over Ann; as the group CSV says.
    assert [[row[column] for column in columns] for row in rows] == [
        ["Cy", "1", "-0.4", "3.8", "3.4", "3.4"],
        ["Ann", "2", "0.5", "-2.7", "-1.8", "-1.8"],
    ]
