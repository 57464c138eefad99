"""Groups in the JSON API: made, read, their players changed with the group's key, and
sessions started from them; every answer checked against the OpenAPI document."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import API, ApiSession, assert_error
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import GameSession, GroupPlayer, PlayerGroup, Seat


class ApiGroup:
    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.id: str = created["id"]
        self.key: str = created["edit_key"]
        self.ids = {player["name"]: player["id"] for player in created["players"]}

    def auth(self, key: str | None = "own") -> dict[str, str]:
        if key is None:
            return {}
        return {"Authorization": f"Bearer {self.key if key == 'own' else key}"}

    def read(self) -> dict[str, Any]:
        response = self.client.get(f"{API}/groups/{self.id}")
        assert response.status_code == 200
        return response.get_json()

    def start(self, players: list[Any], key: str | None = "own", **body: Any) -> Any:
        sent = {"game": "yardkle", "group": self.id, "players": players, **body}
        return self.client.post(f"{API}/sessions", json=sent, headers=self.auth(key))


def api_group(
    client: FlaskClient, name: str = "Friday", players: list[str] | None = None
) -> ApiGroup:
    body = {"name": name, "players": players if players is not None else ["Ann", "Bo", "Cy"]}
    response = client.post(f"{API}/groups", json=body)
    assert response.status_code == 201, response.get_json()
    return ApiGroup(client, response.get_json())


@pytest.fixture
def group(client: FlaskClient) -> ApiGroup:
    return api_group(client)


def test_a_group_is_made_with_its_key_and_links_and_read_without_one(
    client: FlaskClient, group: ApiGroup
) -> None:
    created = group.created
    assert created["name"] == "Friday" and created["sessions"] == []
    assert [(p["name"], p["colour"], p["emoji"]) for p in created["players"]] == [
        ("Ann", "", ""),
        ("Bo", "", ""),
        ("Cy", "", ""),
    ]
    assert created["links"]["view"] == f"http://localhost/g/{group.id}"
    assert created["links"]["join"] == f"http://localhost/g/{group.id}/join/{group.key}"
    read = group.read()
    assert "edit_key" not in read and group.key not in str(read)
    assert read["players"] == created["players"]
    # The join link works in a browser.
    assert client.get(created["links"]["join"]).status_code == 303


def test_a_session_started_from_a_group_seats_its_players_and_is_listed_by_it(
    client: FlaskClient, app: Flask, group: ApiGroup
) -> None:
    response = group.start([group.ids["Cy"], group.ids["Ann"]], options={"winning_score": 500})
    assert response.status_code == 201, response.get_json()
    session = ApiSession(client, response.get_json())
    assert session.created["seats"] == ["Cy", "Ann"]
    session.ok({"type": "total", "points": 650})
    session.ok({"type": "total", "points": 0})
    with app.app_context():
        seats = Seat.select().where(Seat.session == session.id).order_by(Seat.position)
        assert [s.player_id for s in seats] == [group.ids["Cy"], group.ids["Ann"]]
    [listed] = group.read()["sessions"]
    assert listed == {
        "id": session.id,
        "game": "yardkle",
        "seats": ["Cy", "Ann"],
        "finished": True,
        "winners": ["Cy"],
        "links": {
            "view": f"http://localhost/s/{session.id}",
            "api": f"http://localhost/api/v1/sessions/{session.id}",
        },
    }


@pytest.mark.parametrize(
    ("players", "field", "message"),
    [
        (lambda ids, other: [ids["Ann"], 4242], "players.1", "No player has the id 4242."),
        (lambda ids, other: [ids["Ann"], True], "players.1", "No player has the id True."),
        (
            lambda ids, other: [ids["Bo"], ids["Bo"]],
            "players.1",
            "Bo is chosen twice; each player takes one seat.",
        ),
        (
            lambda ids, other: [other, ids["Bo"]],
            "players.0",
            "Dee plays in another group; choose a player of this one.",
        ),
        (lambda ids, other: [], "players", "Yardkle needs 1 to 8 players; you chose 0."),
        (
            lambda ids, other: "Ann",
            "players",
            "“players” must be a list of player ids in seat order.",
        ),
    ],
)
def test_a_bad_seating_is_refused_naming_the_seat_and_nothing_is_written(
    client: FlaskClient, app: Flask, group: ApiGroup, players: Any, field: str, message: str
) -> None:
    other = api_group(client, "Tuesday", ["Dee"]).ids["Dee"]
    response = group.start(players(group.ids, other))
    assert assert_error(response, 422, field) == message
    with app.app_context():
        assert GameSession.select().count() == 0


def test_starting_a_groups_session_needs_the_groups_key(
    client: FlaskClient, app: Flask, group: ApiGroup
) -> None:
    other = api_group(client, "Tuesday", ["Dee"])
    players = [group.ids["Ann"], group.ids["Bo"]]
    assert_error(group.start(players, key=None), 401, None)
    assert_error(group.start(players, key=other.key), 403, None)
    unknown = client.post(
        f"{API}/sessions",
        json={"game": "yardkle", "group": "a" * 22, "players": players},
        headers=group.auth(),
    )
    assert assert_error(unknown, 422, "group").startswith("No group has this link")
    both = group.start(players, seats=["Ann", "Bo"])
    assert_error(both, 422, "seats")
    alone = client.post(f"{API}/sessions", json={"game": "yardkle", "players": players})
    assert_error(alone, 422, "group")
    with app.app_context():
        assert GameSession.select().count() == 0


def test_players_are_added_changed_and_removed_with_the_groups_key(
    client: FlaskClient, app: Flask, group: ApiGroup
) -> None:
    played = ApiSession(client, group.start([group.ids["Ann"], group.ids["Bo"]]).get_json())
    base = f"{API}/groups/{group.id}/players"
    added = client.post(
        base, json={"name": "Dee", "colour": "#1F77B4", "emoji": "🦊"}, headers=group.auth()
    )
    assert added.status_code == 201
    assert added.get_json()["players"][-1]["colour"] == "#1f77b4"
    changed = client.patch(
        f"{base}/{group.ids['Ann']}", json={"name": "Anna", "emoji": "🐢"}, headers=group.auth()
    )
    assert changed.status_code == 200
    assert changed.get_json()["players"][0] == {
        "id": group.ids["Ann"],
        "name": "Anna",
        "colour": "",
        "emoji": "🐢",
    }
    removed = client.delete(f"{base}/{group.ids['Bo']}", headers=group.auth())
    assert removed.status_code == 200
    assert [p["name"] for p in removed.get_json()["players"]] == ["Anna", "Cy", "Dee"]
    # The past session keeps the names it was played under.
    assert played.read()["seats"] == ["Ann", "Bo"]
    assert group.read()["sessions"][0]["seats"] == ["Ann", "Bo"]
    with app.app_context():
        seats = Seat.select().where(Seat.session == played.id).order_by(Seat.position)
        assert [s.player_id for s in seats] == [group.ids["Ann"], None]


def test_changing_players_needs_the_groups_key(
    client: FlaskClient, app: Flask, group: ApiGroup
) -> None:
    other = api_group(client, "Tuesday", ["Dee"])
    base = f"{API}/groups/{group.id}/players"
    for key, status in ((None, 401), (other.key, 403)):
        assert_error(client.post(base, json={"name": "Eve"}, headers=group.auth(key)), status, None)
        patch = client.patch(
            f"{base}/{group.ids['Ann']}", json={"name": "X"}, headers=group.auth(key)
        )
        assert_error(patch, status, None)
        assert_error(
            client.delete(f"{base}/{group.ids['Ann']}", headers=group.auth(key)), status, None
        )
    assert [p["name"] for p in group.read()["players"]] == ["Ann", "Bo", "Cy"]


@pytest.mark.parametrize(
    ("method", "path", "body", "field", "message"),
    [
        (
            "post",
            "",
            {"name": "ann"},
            "name",
            "The group already has a player called ann; give each player their own name.",
        ),
        (
            "post",
            "",
            {"name": "Eve", "colour": "blue"},
            "colour",
            "The colour must be written #rrggbb, like #1f77b4, or left empty.",
        ),
        (
            "post",
            "",
            {"name": "Eve", "emoji": "🦊" * 17},
            "emoji",
            "The emoji is 17 characters long; one emoji takes at most 16.",
        ),
        (
            "post",
            "",
            {"name": "Eve", "age": 3},
            "age",
            "Unknown field 'age': this endpoint takes “name”, “colour”, “emoji”.",
        ),
        (
            "patch",
            "/Ann",
            {"name": "Bo"},
            "name",
            "The group already has a player called Bo; give each player their own name.",
        ),
        ("patch", "/Ann", {"emoji": "A"}, "emoji", "Choose one emoji, like 🦊, or leave it empty."),
        (
            "patch",
            "/Dee",
            {"name": "Dee"},
            "player",
            "Dee plays in another group; choose a player of this one.",
        ),
        ("delete", "/999", None, "player", "No player has the id 999."),
    ],
)
def test_a_bad_player_change_names_the_field_and_changes_nothing(
    client: FlaskClient,
    app: Flask,
    group: ApiGroup,
    method: str,
    path: str,
    body: Any,
    field: str,
    message: str,
) -> None:
    dee = api_group(client, "Tuesday", ["Dee"]).ids["Dee"]
    ids = {**group.ids, "Dee": dee}
    for name, player_id in ids.items():
        path = path.replace(f"/{name}", f"/{player_id}")
    url = f"{API}/groups/{group.id}/players{path}"
    response = getattr(client, method)(url, json=body, headers=group.auth())
    assert assert_error(response, 422, field) == message
    assert [p["name"] for p in group.read()["players"]] == ["Ann", "Bo", "Cy"]
    with app.app_context():
        assert GroupPlayer.select().count() == 4


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"name": ""}, "name", "Give the group a name, like “Friday night”."),
        ({"name": "F", "players": "Ann"}, "players", "“players” must be a list of names."),
        (
            {"name": "F", "players": [f"P{n}" for n in range(51)]},
            "players",
            "A group has at most 50 players.",
        ),
        ({"name": "F", "players": ["Ann", 3]}, "players.1", "The player's name must be text."),
        (
            {"name": "F", "players": ["Ann", "ANN"]},
            "players.1",
            "The group already has a player called ANN; give each player their own name.",
        ),
        (
            {"name": "F", "key": 1},
            "key",
            "Unknown field 'key': this endpoint takes “name”, “players”.",
        ),
    ],
)
def test_a_bad_new_group_is_refused_naming_the_field(
    client: FlaskClient, app: Flask, body: dict[str, Any], field: str, message: str
) -> None:
    assert assert_error(client.post(f"{API}/groups", json=body), 422, field) == message
    with app.app_context():
        assert PlayerGroup.select().count() == 0


def test_an_unknown_group_is_a_404(client: FlaskClient) -> None:
    for path in ("nope", "a" * 22):
        assert_error(client.get(f"{API}/groups/{path}"), 404, None)
        assert_error(client.post(f"{API}/groups/{path}/players", json={"name": "X"}), 404, None)


def test_every_groups_endpoint_is_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get(f"{API}/openapi.json").get_json()["paths"]
    assert set(paths["/groups"]) == {"post"}
    assert set(paths["/groups/{group_id}"]) == {"get"}
    assert set(paths["/groups/{group_id}/players"]) == {"post"}
    assert set(paths["/groups/{group_id}/players/{player_id}"]) == {"patch", "delete"}
    new_session = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]
    assert {"group", "players"} <= set(new_session["NewSession"]["properties"])
