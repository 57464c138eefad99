"""Groups on their pages: made, shared, joined, their players managed, games started by
tapping players, seen by every phone of the group."""

from __future__ import annotations

import re
import secrets
from html import unescape
from typing import Any

import pytest
from conftest import Table, page_error, start_session
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import groups, read_model
from scorekeeper.games import GAMES
from scorekeeper.models import GameSession, GroupPlayer, PlayerGroup, Seat


def make_group(client: FlaskClient, name: str = "Friday", players: tuple[str, ...] = ()) -> str:
    players = players or ("Ann", "Bo", "Cy")
    response = client.post("/groups/new", data={"name": name, "player": list(players)})
    assert response.status_code == 303, page_error(response.get_data(as_text=True))
    return str(response.location.rsplit("/", 1)[1])


def player_ids(app: Flask, group_id: str) -> dict[str, int]:
    with app.app_context():
        return {player.name: player.id for player in groups.load(group_id).players}


def play_form(order: list[int], **fields: Any) -> dict[str, Any]:
    return {"seat": [str(player) for player in order], **fields}


def start_group_game(
    client: FlaskClient, group_id: str, order: list[int], slug: str = "yardkle", **fields: Any
) -> Any:
    data = play_form(order, start="1", form_key=secrets.token_urlsafe(8), **fields)
    return client.post(f"/g/{group_id}/play/{slug}", data=data)


def tapped(html: str) -> list[str]:
    """The player ids a play page keeps as taken seats, in seat order."""
    return re.findall(r'<input type="hidden" name="seat" value="([^"]*)">', html)


def refusal(response: Any) -> str:
    """A post the page refused (422): the sentence its alert shows."""
    assert response.status_code == 422, response.status_code
    match = re.search(r'class="alert error" role="alert">(.*?)</div>', response.text, re.S)
    assert match, "the page shows no error"
    return " ".join(unescape(match.group(1)).split())


def sessions_of(app: Flask, group_id: str) -> list[read_model.SessionSummary]:
    """Every session of the group (a test's group plays fewer than a page of 1,000)."""
    with app.app_context():
        return read_model.group_summaries(group_id, 1, 1000)


@pytest.fixture
def group_id(client: FlaskClient) -> str:
    return make_group(client)


def test_a_new_group_keeps_its_first_players_in_order_and_skips_blank_inputs(
    client: FlaskClient, app: Flask
) -> None:
    group_id = make_group(client, "Friday night", ("Ann", " ", "Bo", ""))
    with app.app_context():
        group = groups.load(group_id)
    assert (group.name, [p.name for p in group.players]) == ("Friday night", ["Ann", "Bo"])
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert "<h1>Friday night</h1>" in page and "Start a game" in page


@pytest.mark.parametrize(
    ("form", "message", "field"),
    [
        ({"name": " ", "player": ["Ann"]}, "Give the group a name, like “Friday night”.", "name"),
        (
            {"name": "Friday", "player": ["Ann", "ann"]},
            "The group already has a player called ann; give each player their own name.",
            "player-1",
        ),
        (
            {"name": "Friday", "player": ["A" * 41]},
            "The player's name is 41 characters long; at most 40 fit.",
            "player-0",
        ),
    ],
)
def test_a_bad_new_group_names_the_field_and_makes_nothing(
    client: FlaskClient, app: Flask, form: dict[str, Any], message: str, field: str
) -> None:
    response = client.post("/groups/new", data=form)
    assert refusal(response) == message
    html = response.get_data(as_text=True)
    assert re.search(rf'id="{field}"[^>]*aria-invalid="true"', html)
    with app.app_context():
        assert PlayerGroup.select().count() == GroupPlayer.select().count() == 0


def test_the_home_page_lists_this_devices_groups_with_a_link_each(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    home = client.get("/").get_data(as_text=True)
    assert f'href="/g/{group_id}"' in home and "Ann, Bo, Cy" in home
    stranger = app.test_client()
    assert f"/g/{group_id}" not in stranger.get("/").get_data(as_text=True)
    stranger.get(f"/g/{group_id}")
    home = stranger.get("/").get_data(as_text=True)
    assert f'href="/g/{group_id}"' in home and "seeing only" in home


def test_a_game_starts_by_tapping_players_one_submit_per_tap(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    ids = player_ids(app, group_id)
    first = client.post(f"/g/{group_id}/play/yardkle", data={"tap": str(ids["Cy"])})
    assert first.status_code == 200 and tapped(first.get_data(as_text=True)) == [str(ids["Cy"])]
    second = client.post(
        f"/g/{group_id}/play/yardkle",
        data=play_form([ids["Cy"]], tap=str(ids["Ann"]), option_winning_score="5000"),
    )
    html = second.get_data(as_text=True)
    assert tapped(html) == [str(ids["Cy"]), str(ids["Ann"])]
    # The options set before the taps are kept; a tapped player is no longer offered.
    assert 'value="5000"' in html
    assert f'name="tap" value="{ids["Ann"]}" hidden>' in html
    assert f'name="tap" value="{ids["Bo"]}">' in html
    untapped = client.post(
        f"/g/{group_id}/play/yardkle", data=play_form([ids["Cy"], ids["Ann"]], untap="0")
    )
    assert tapped(untapped.get_data(as_text=True)) == [str(ids["Ann"])]
    with app.app_context():
        assert GameSession.select().count() == 0

    response = start_group_game(
        client, group_id, [ids["Bo"], ids["Ann"]], option_winning_score="5000"
    )
    assert response.status_code == 303
    session_id = response.location.rsplit("/", 1)[1]
    with app.app_context():
        session = GameSession.get_by_id(session_id)
        seats = [(s.name, s.player_id) for s in session.seats.order_by(Seat.position)]
        assert session.group_id == group_id and session.options["winning_score"] == 5000
        assert seats == [("Bo", ids["Bo"]), ("Ann", ids["Ann"])]
    # The phone that started it scores in it.
    assert "data-version-url" in client.get(f"/s/{session_id}").get_data(as_text=True)
    Table(client, session_id).act(type="total", points="650")


def test_every_phone_of_the_group_sees_its_sessions_newest_first_with_winners(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    ids = player_ids(app, group_id)
    first = start_group_game(client, group_id, [ids["Ann"], ids["Bo"]], option_winning_score="500")
    table = Table(client, first.location.rsplit("/", 1)[1])
    table.act(type="total", points="650")
    table.act(type="total", points="0")
    start_group_game(client, group_id, [ids["Cy"], ids["Ann"]])
    # A session started by hand is not the group's, even with the same names.
    start_session(client, ["Ann", "Bo"])

    member = app.test_client()
    page = member.get(f"/g/{group_id}").get_data(as_text=True)
    assert page.index("Cy, Ann") < page.index("Ann, Bo")
    assert "Ann wins" in page
    assert len(sessions_of(app, group_id)) == 2
    assert sessions_of(app, group_id)[1].winners == ("Ann",)


def test_the_join_link_makes_a_phone_a_member_and_a_view_link_shows_no_key(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    with app.app_context():
        key = groups.load(group_id).edit_key
    share = client.get(f"/g/{group_id}/share")
    assert share.headers["Cache-Control"] == "no-store"
    assert f"/g/{group_id}/join/{key}" in share.get_data(as_text=True)

    watcher = app.test_client()
    for page in (f"/g/{group_id}", f"/g/{group_id}/share"):
        html = watcher.get(page).get_data(as_text=True)
        assert key not in html
        assert "Start a game" not in html
    assert watcher.get(f"/g/{group_id}/players").status_code == 403
    assert watcher.get(f"/g/{group_id}/play").status_code == 403
    ids = player_ids(app, group_id)
    refused = start_group_game(watcher, group_id, [ids["Ann"], ids["Bo"]])
    assert refused.status_code == 403
    assert "This device can see this group but not change it." in refused.get_data(as_text=True)

    assert watcher.get(f"/g/{group_id}/join/{'x' * 32}").status_code == 403
    joined = watcher.get(f"/g/{group_id}/join/{key}")
    assert joined.status_code == 303 and joined.headers["Cache-Control"] == "no-store"
    assert start_group_game(watcher, group_id, [ids["Ann"], ids["Bo"]]).status_code == 303
    with app.app_context():
        assert GameSession.select().where(GameSession.group == group_id).count() == 1


def test_a_member_chooses_the_game_then_sees_every_player_to_tap(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    games = client.get(f"/g/{group_id}/play").get_data(as_text=True)
    assert re.findall(rf'href="/g/{group_id}/play/([\w-]+)"', games) == list(GAMES)
    page = client.get(f"/g/{group_id}/play/cryptruck").get_data(as_text=True)
    ids = player_ids(app, group_id)
    assert re.findall(r'name="tap" value="(\d+)"', page) == [str(i) for i in ids.values()]
    assert "Tap 3 to 5 players in the order they sit" in page
    assert tapped(page) == []
    assert client.get(f"/g/{group_id}/play/chess").status_code == 404


def test_the_players_left_are_put_away_once_every_seat_is_taken(
    client: FlaskClient, app: Flask
) -> None:
    """Yokai Septet seats four: a fifth player is not offered then; a seat freed offers
    them again. With every player seated there is none left to offer either."""
    group_id = make_group(client, players=("Ann", "Bo", "Cy", "Di", "Ed"))
    ids = list(player_ids(app, group_id).values())
    put_away = '<div class="players-left" hidden>'
    three = client.post(f"/g/{group_id}/play/yokai-septet", data=play_form(ids[:3]))
    assert put_away not in three.get_data(as_text=True)
    four = client.post(f"/g/{group_id}/play/yokai-septet", data=play_form(ids[:4]))
    assert put_away in four.get_data(as_text=True)
    freed = client.post(f"/g/{group_id}/play/yokai-septet", data=play_form(ids[:4], untap="3"))
    assert tapped(freed.get_data(as_text=True)) == [str(i) for i in ids[:3]]
    assert put_away not in freed.get_data(as_text=True)
    everyone = client.post(f"/g/{group_id}/play/score-sheet", data=play_form(ids))
    assert put_away in everyone.get_data(as_text=True)


def test_an_unknown_group_is_a_clean_404(client: FlaskClient) -> None:
    for path in ("/g/nope", f"/g/{'a' * 22}", f"/g/{'a' * 22}/share", f"/g/{'a' * 22}/players"):
        response = client.get(path)
        assert response.status_code == 404
        assert "No group has this link" in response.get_data(as_text=True)


def other_group_player(client: FlaskClient, app: Flask) -> int:
    other = make_group(client, "Tuesday", ("Dee", "Eve"))
    return player_ids(app, other)["Dee"]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (lambda ids, other: [ids["Ann"], 999], "No player has the id 999."),
        (lambda ids, other: [ids["Ann"], "x1"], "No player has the id x1."),
        (
            lambda ids, other: [ids["Ann"], ids["Ann"]],
            "Ann is chosen twice; each player takes one seat.",
        ),
        (
            lambda ids, other: [ids["Ann"], other],
            "Dee plays in another group; choose a player of this one.",
        ),
        (lambda ids, other: [], "Yardkle needs 1 to 8 players; you chose 0."),
    ],
)
def test_a_bad_seating_is_refused_with_a_sentence_and_nothing_is_written(
    client: FlaskClient, app: Flask, group_id: str, order: Any, message: str
) -> None:
    ids = player_ids(app, group_id)
    response = start_group_game(client, group_id, order(ids, other_group_player(client, app)))
    assert refusal(response) == message
    with app.app_context():
        assert GameSession.select().count() == 0


def test_too_many_players_for_the_game_are_refused(client: FlaskClient, app: Flask) -> None:
    group_id = make_group(client, "Crowd", tuple(f"P{n}" for n in range(8)))
    order = list(player_ids(app, group_id).values())
    assert refusal(start_group_game(client, group_id, order[:6], slug="cryptruck")) == (
        "Cryptruck needs 3 to 5 players; you chose 6."
    )
    assert start_group_game(client, group_id, order[:3], slug="cryptruck").status_code == 303


def test_a_double_tap_on_start_makes_one_session(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    ids = player_ids(app, group_id)
    data = play_form([ids["Ann"], ids["Bo"]], start="1", form_key="same-key")
    first = client.post(f"/g/{group_id}/play/yardkle", data=data)
    again = client.post(f"/g/{group_id}/play/yardkle", data=data)
    assert first.status_code == again.status_code == 303
    assert first.location == again.location
    assert len(sessions_of(app, group_id)) == 1


def test_players_are_added_renamed_recoloured_and_removed_keeping_past_seats(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    ids = player_ids(app, group_id)
    played = start_group_game(client, group_id, [ids["Ann"], ids["Bo"]])
    session_id = played.location.rsplit("/", 1)[1]

    added = client.post(
        f"/g/{group_id}/players",
        data={"do": "add", "name": "Dee", "colour": "#1f77b4", "emoji": "🦊"},
    )
    assert added.status_code == 303
    assert "Dee joined the group." in client.get(added.location).get_data(as_text=True)
    changed = client.post(
        f"/g/{group_id}/players",
        data={"do": "change", "player": ids["Ann"], "name": "Anna", "colour": "", "emoji": "🐢"},
    )
    assert changed.status_code == 303
    removed = client.post(f"/g/{group_id}/players", data={"do": "remove", "player": ids["Bo"]})
    assert removed.status_code == 303

    with app.app_context():
        group = groups.load(group_id)
        players = [(p.name, p.colour, p.emoji) for p in group.players]
        assert players == [("Anna", "", "🐢"), ("Cy", "", ""), ("Dee", "#1f77b4", "🦊")]
        seats = Seat.select().where(Seat.session == session_id).order_by(Seat.position)
        # The seats keep the names they were played under; Bo's seat is no player's now.
        assert [(s.name, s.player_id) for s in seats] == [("Ann", ids["Ann"]), ("Bo", None)]
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert "Ann, Bo" in page and 'fill="#1f77b4"' in page and "🐢" in page
    assert client.get(f"/s/{session_id}").status_code == 200


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"do": "add", "name": "ann"},
            "The group already has a player called ann; give each player their own name.",
        ),
        ({"do": "add", "name": ""}, "Give the player a name."),
        (
            {"do": "add", "name": "Dee", "colour": "red"},
            "The colour must be written #rrggbb, like #1f77b4, or left empty.",
        ),
        (
            {"do": "add", "name": "Dee", "emoji": "ab"},
            "Choose one emoji, like 🦊, or leave it empty.",
        ),
        (
            {"do": "change", "player": "BO", "name": "Ann"},
            "The group already has a player called Ann; give each player their own name.",
        ),
        ({"do": "remove", "player": "12345"}, "No player has the id 12345."),
        ({"do": "dance"}, "Choose to add, change or remove a player."),
    ],
)
def test_a_bad_player_change_names_the_problem_and_changes_nothing(
    client: FlaskClient, app: Flask, group_id: str, data: dict[str, str], message: str
) -> None:
    ids = player_ids(app, group_id)
    if data.get("player") == "BO":
        data = {**data, "player": str(ids["Bo"])}
    response = client.post(f"/g/{group_id}/players", data=data)
    assert refusal(response) == message
    assert player_ids(app, group_id) == ids


def test_a_player_of_another_group_cannot_be_changed_from_this_one(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    other = other_group_player(client, app)
    response = client.post(f"/g/{group_id}/players", data={"do": "remove", "player": str(other)})
    assert refusal(response) == "Dee plays in another group; choose a player of this one."
    with app.app_context():
        assert GroupPlayer.get_by_id(other).name == "Dee"


def test_the_new_session_page_suggests_the_names_this_phone_has_used(
    client: FlaskClient, app: Flask
) -> None:
    first = client.get("/new/yardkle").get_data(as_text=True)
    # No suggestions yet: no list named on the seats (a list="None" named none there is).
    assert "<datalist" not in first
    assert " list=" not in first
    start_session(client, ["Ann", "Bo"])
    start_session(client, ["bo", "Cy"])
    page = client.get("/new/cryptruck").get_data(as_text=True)
    # Each name once, as it was last written.
    assert re.findall(r'<option value="([^"]*)"></option>', page) == ["Ann", "bo", "Cy"]
    assert page.count('list="used-names"') == 5  # Cryptruck's seats
    assert "<datalist" not in app.test_client().get("/new/yardkle").get_data(as_text=True)


def test_the_new_session_page_offers_this_phones_groups(
    client: FlaskClient, app: Flask, group_id: str
) -> None:
    page = client.get("/new/yardkle").get_data(as_text=True)
    assert f'href="/g/{group_id}/play/yardkle"' in page
    watcher = app.test_client()
    watcher.get(f"/g/{group_id}")
    assert f"/g/{group_id}/play" not in watcher.get("/new/yardkle").get_data(as_text=True)
