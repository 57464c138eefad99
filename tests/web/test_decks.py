"""Deck profiles: made, edited on their own page, learned by sessions, exported and imported."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from conftest import start
from flask.testing import FlaskClient

from scorekeeper import decks
from scorekeeper.games import GAMES
from scorekeeper.games.base import IllegalAction


def make_deck(client: FlaskClient, name: str) -> str:
    response = client.post("/decks", data={"name": name, "form_key": "k" + name})
    assert response.status_code == 303
    return str(response.location.rsplit("/", 1)[1])


def sizes_form(name: str, **sizes: str) -> dict[str, str]:
    return {
        "name": name,
        "form_key": secrets.token_urlsafe(8),
        **{f"size-{card.replace('_', ' ')}": size for card, size in sizes.items()},
    }


def test_a_new_deck_is_listed_on_this_device_only(client: FlaskClient, app: Any) -> None:
    profile_id = make_deck(client, "Blue box")
    page = client.get("/decks").get_data(as_text=True)
    assert "Blue box" in page and "0 of 72 sizes known" in page
    other = app.test_client()
    assert "Blue box" not in other.get("/decks").get_data(as_text=True)
    assert other.get(f"/decks/{profile_id}").status_code == 200


def test_a_deck_needs_a_name(client: FlaskClient) -> None:
    response = client.post("/decks", data={"name": "  ", "form_key": "x"})
    assert response.status_code == 422
    assert "Give the deck a name" in response.get_data(as_text=True)


def test_sizes_are_edited_on_the_deck_page_and_a_blank_forgets_one(client: FlaskClient) -> None:
    profile_id = make_deck(client, "Blue box")
    response = client.post(
        f"/decks/{profile_id}", data=sizes_form("Blue box", green_25="3", pink_8="2")
    )
    assert response.status_code == 303
    with client.application.app_context():
        assert decks.load(profile_id).sizes == {"green 25": 3, "pink 8": 2}
    client.post(f"/decks/{profile_id}", data=sizes_form("Old box", green_25="3", pink_8=""))
    with client.application.app_context():
        profile = decks.load(profile_id)
    assert (profile.name, profile.sizes) == ("Old box", {"green 25": 3})
    page = client.get(f"/decks/{profile_id}").get_data(as_text=True)
    assert 'name="size-green 25" value="3"' in page


def test_a_bad_size_names_the_card_and_saves_nothing(client: FlaskClient) -> None:
    profile_id = make_deck(client, "Blue box")
    response = client.post(
        f"/decks/{profile_id}", data=sizes_form("Renamed", green_25="3", pink_8="0")
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "The size printed on pink 8 must be 1 to 99; you entered 0." in page
    assert 'name="size-pink 8" value="0" inputmode="numeric"' in page
    with client.application.app_context():
        profile = decks.load(profile_id)
    assert (profile.name, profile.sizes) == ("Blue box", {})
    response = client.post(f"/decks/{profile_id}", data=sizes_form("Blue box", green_2="big"))
    assert "The size printed on green 2 must be a whole number." in response.get_data(as_text=True)


def test_an_unknown_deck_link_is_a_clean_404(client: FlaskClient) -> None:
    response = client.get("/decks/nope")
    assert response.status_code == 404
    assert "No deck profile has this link" in response.get_data(as_text=True)
    assert client.post("/decks/nope", data=sizes_form("x")).status_code == 404


def test_a_session_learns_each_size_into_its_deck_and_the_next_session_reuses_it(
    client: FlaskClient,
) -> None:
    table = start(
        client, "yadokarick", ["Ann", "Bo", "Cy", "Di"], deck="new", new_deck_name="Blue box"
    )
    deck = table.state()["deck_profile"]
    assert deck["name"] == "Blue box"
    assert table.act(type="play", card="green 25", size="3").status_code == 303
    with client.application.app_context():
        assert decks.load(deck["id"]).sizes == {"green 25": 3}
    # The next session on this phone offers the same deck and needs no size for green 25.
    form = client.get("/new/yadokarick").get_data(as_text=True)
    assert f'<option selected value="{deck["id"]}">Blue box</option>' in form
    second = start(client, "yadokarick", ["Ann", "Bo", "Cy", "Di"], deck=deck["id"])
    assert second.state()["deck_profile"]["id"] == deck["id"]
    assert second.act(type="play", card="green 25").status_code == 303
    assert second.state()["state"]["sizes"] == {"green 25": 3}


def test_a_game_without_sizes_refuses_a_deck_profile(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/sessions",
        json={"game": "yardkle", "seats": ["Ann", "Bo"], "new_deck_name": "Blue box"},
    )
    assert response.status_code == 422
    assert response.get_json() == {
        "error": "Yardkle is not played with a deck profile.",
        "field": "deck_profile",
    }


def test_an_unknown_deck_profile_is_refused_and_no_session_is_made(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/sessions",
        json={"game": "yadokarick", "seats": ["Ann", "Bo", "Cy"], "deck_profile": "nope"},
    )
    assert response.status_code == 422
    assert response.get_json()["field"] == "deck_profile"


def test_export_carries_the_deck_and_import_gives_the_importer_a_copy(
    client: FlaskClient, app: Any
) -> None:
    table = start(client, "yadokarick", ["Ann", "Bo", "Cy", "Di"], deck="new", new_deck_name="Box")
    table.act(type="play", card="green 25", size="3")
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    assert exported["deck_profile"] == {"name": "Box", "sizes": {"green 25": 3}}
    other = app.test_client()
    response = other.post("/api/v1/sessions/import", json=exported)
    assert response.status_code == 201
    imported = response.get_json()
    assert imported["deck_profile"]["name"] == "Box"
    assert imported["deck_profile"]["id"] != table.state()["deck_profile"]["id"]
    assert imported["state"] == table.state()["state"]
    exported["deck_profile"]["sizes"] = {"green 25": "huge"}
    refused = other.post("/api/v1/sessions/import", json=exported)
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "deck_profile.sizes.green 25"


def test_a_joined_scorer_gets_the_sessions_deck_on_their_phone(
    client: FlaskClient, app: Any
) -> None:
    table = start(client, "yadokarick", ["Ann", "Bo", "Cy"], deck="new", new_deck_name="Box")
    key = client.get(f"/api/v1/sessions/{table.id}").get_json()
    share = client.get(f"/s/{table.id}/share").get_data(as_text=True)
    join = share.split("/join/")[1].split('"')[0].split("<")[0]
    other = app.test_client()
    other.get(f"/s/{table.id}/join/{join}")
    assert "Box" in other.get("/decks").get_data(as_text=True)
    assert key["deck_profile"]["name"] == "Box"


def test_a_profile_belongs_to_the_game_whose_cards_carry_sizes(
    client: FlaskClient, app: Any
) -> None:
    profile_id = make_deck(client, "Green tin")
    assert "Yadokarick · 0 of 72 sizes known" in client.get("/decks").get_data(as_text=True)
    assert "of this Yadokarick deck" in client.get(f"/decks/{profile_id}").get_data(as_text=True)
    with app.app_context():
        assert decks.load(profile_id).game == "yadokarick"
        assert [game.slug for game in decks.sized_games()] == ["yadokarick"]


def test_a_game_without_printed_sizes_has_no_deck_profile(app: Any) -> None:
    with app.app_context(), pytest.raises(IllegalAction) as refused:
        decks.create(GAMES["yardkle"], "Dice cup")
    assert (refused.value.field, refused.value.message) == (
        "game",
        "Yardkle is not played with a deck profile.",
    )
