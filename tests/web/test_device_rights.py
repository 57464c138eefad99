"""A phone's rights live on the server: however many groups, deck profiles and sessions it
makes or joins, it may change every one, its cookie carries only its device's id, and a
cookie of before is carried over on its next request."""

from __future__ import annotations

import re

from conftest import Statements, api_session, start_session
from flask import Flask
from flask.testing import FlaskClient
from test_decks import make_deck, sizes_form
from test_groups import make_group

from scorekeeper import keys
from scorekeeper.db import database
from scorekeeper.models import Device, DeviceSession
from scorekeeper.web import access


def cookie_value(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def device_of(app: Flask, client: FlaskClient) -> str:
    """The device the phone's cookie names."""
    with client.session_transaction() as cookie:
        device = cookie.get(access.DEVICE_COOKIE)
    assert isinstance(device, str)
    return device


def device_count(app: Flask) -> int:
    with app.app_context(), database.connection_context():
        return int(Device.select().count())


def listed_session_ids(html: str) -> list[str]:
    return re.findall(r'class="item" href="/s/([A-Za-z0-9_-]{22})"', html)


def test_a_phone_may_change_each_of_its_twelve_groups(client: FlaskClient) -> None:
    made = [make_group(client, f"Group {number}") for number in range(12)]
    for group_id in made:
        assert client.get(f"/g/{group_id}/players").status_code == 200
    added = client.post(f"/g/{made[0]}/players", data={"do": "add", "name": "Eve"})
    assert added.status_code == 303
    # Another phone, which only saw the first group, may not.
    other = client.application.test_client()
    assert other.get(f"/g/{made[0]}").status_code == 200
    assert other.get(f"/g/{made[0]}/players").status_code == 403


def test_a_phone_may_change_each_of_its_twelve_deck_profiles(client: FlaskClient) -> None:
    made = [make_deck(client, f"Tin {number}") for number in range(12)]
    for number, profile_id in enumerate(made):
        changed = client.post(f"/decks/{profile_id}", data=sizes_form(f"Tin {number}", green_5="2"))
        assert changed.status_code == 303
    assert client.get("/decks").get_data(as_text=True).count('class="item"') == 12


def test_a_phone_may_record_in_each_of_its_sixty_two_sessions(client: FlaskClient) -> None:
    tables = [start_session(client, [f"Ann {number}", "Bo"]) for number in range(62)]
    for table in tables:
        # Only a scorer's share page hands on the "score with me" link.
        assert f"/s/{table.id}/join/" in client.get(f"/s/{table.id}/share").get_data(as_text=True)
    assert tables[0].roll(2, 3, 4, 6, 2, 3).status_code == 303
    assert tables[0].state()["version"] == 1


def test_the_cookie_stays_the_same_size_however_many_rights_it_holds(
    client: FlaskClient,
) -> None:
    first = make_group(client, "First")
    one_right = cookie_value(client)
    for number in range(15):
        make_group(client, f"Group {number}")
        make_deck(client, f"Tin {number}")
        start_session(client, [f"Ann {number}", "Bo"])
    assert len(cookie_value(client)) == len(one_right)
    assert client.get(f"/g/{first}/players").status_code == 200


def test_a_cookie_of_before_is_carried_over_to_a_device_on_its_next_request(
    app: Flask, client: FlaskClient
) -> None:
    scored = start_session(client, ["Ann", "Bo"])
    watched = api_session(app.test_client(), ["Wes", "Bo"])
    group_id = make_group(client, "Friday")
    seen_group = make_group(app.test_client(), "Saturday")
    profile_id = make_deck(client, "Blue tin")
    with client.session_transaction() as cookie:
        cookie.clear()
        cookie["seen"] = [[watched.id, "view"], [scored.id, "edit"], ["no-such-id", "edit"]]
        cookie["groups"] = [[group_id, "edit"], [seen_group, "view"]]
        cookie["deck_rights"] = [profile_id]
    home = client.get("/")
    assert home.status_code == 200
    with client.session_transaction() as cookie:
        assert not set(cookie) & set(access.OLD_COOKIES)
        assert access.DEVICE_COOKIE in cookie
    page = home.get_data(as_text=True)
    assert listed_session_ids(page) == [watched.id, scored.id]
    assert page.count("watching") == 1 and "Friday" in page and "Saturday" in page
    assert scored.roll(2, 3, 4, 6, 2, 3).status_code == 303
    assert client.post(f"/s/{watched.id}/action", data={"type": "roll"}).status_code == 403
    assert client.get(f"/g/{group_id}/players").status_code == 200
    assert client.get(f"/g/{seen_group}/players").status_code == 403
    changed = client.post(f"/decks/{profile_id}", data=sizes_form("Blue tin", green_5="2"))
    assert changed.status_code == 303


def test_a_device_the_database_does_not_know_starts_afresh(app: Flask, client: FlaskClient) -> None:
    other = api_session(app.test_client(), ["Ann", "Bo"])
    unknown = keys.new_key()
    with client.session_transaction() as cookie:
        cookie[access.DEVICE_COOKIE] = unknown
    assert client.get("/").status_code == 200
    assert "You are watching" in client.get(f"/s/{other.id}").get_data(as_text=True)
    mine = start_session(client, ["Cy", "Di"])
    assert mine.roll(2, 3, 4, 6, 2, 3).status_code == 303
    device = device_of(app, client)
    assert device != unknown
    with app.app_context():
        assert Device.get_by_id(device)
        assert DeviceSession.select().where(DeviceSession.device == unknown).count() == 0


def test_a_deleted_device_leaves_its_phone_a_watcher_that_may_start_again(
    app: Flask, client: FlaskClient
) -> None:
    lost = start_session(client, ["Ann", "Bo"])
    with app.app_context():
        Device.delete().execute()
    assert client.get("/").status_code == 200
    assert client.post(f"{lost.url}/action", data={"type": "roll"}).status_code == 403
    again = start_session(client, ["Cy", "Di"])
    assert again.roll(2, 3, 4, 6, 2, 3).status_code == 303


def test_a_cookie_naming_no_device_key_is_a_phone_without_rights(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"])
    with client.session_transaction() as cookie:
        cookie[access.DEVICE_COOKIE] = ["not", "a", "key"]
    assert client.get("/").status_code == 200
    assert client.post(f"{table.url}/action", data={"type": "roll"}).status_code == 403


def test_home_lists_thirty_sessions_a_page_the_latest_changed_first(client: FlaskClient) -> None:
    tables = [start_session(client, [f"Ann {number}", "Bo"]) for number in range(32)]
    # The oldest one played last: it is the latest changed.
    assert tables[0].roll(2, 3, 4, 6, 2, 3).status_code == 303
    newest_first = [tables[0].id, *(table.id for table in reversed(tables[1:]))]
    first = client.get("/").get_data(as_text=True)
    assert listed_session_ids(first) == newest_first[:30]
    assert 'href="/?page=2#sessions"' in first and "Newer sessions" not in first
    second = client.get("/?page=2").get_data(as_text=True)
    assert listed_session_ids(second) == newest_first[30:]
    assert 'href="/#sessions"' in second and "Older sessions" not in second
    beyond = client.get("/?page=3").get_data(as_text=True)
    assert listed_session_ids(beyond) == [] and "Sessions you start" not in beyond


def test_home_lists_groups_this_phone_may_change_first_a_page_at_a_time(
    app: Flask, client: FlaskClient
) -> None:
    for number in range(31):
        make_group(client, f"Mine {number}")
    seen = make_group(app.test_client(), "Seen")
    assert client.get(f"/g/{seen}").status_code == 200
    first = client.get("/").get_data(as_text=True)
    assert first.index("Mine 30<") < first.index("Mine 1<")
    assert "Mine 0<" not in first and "Seen" not in first
    assert 'href="/?groups_page=2#groups"' in first
    second = client.get("/?groups_page=2").get_data(as_text=True)
    assert second.index("Mine 0<") < second.index("Seen<") < second.index("seeing only")
    assert "Mine 1<" not in second and 'href="/#groups"' in second


def test_the_deck_list_shows_thirty_profiles_a_page_the_newest_first(client: FlaskClient) -> None:
    for number in range(31):
        make_deck(client, f"Tin {number}")
    first = client.get("/decks").get_data(as_text=True)
    assert first.index("Tin 30<") < first.index("Tin 1<") and "Tin 0<" not in first
    assert 'href="/decks?page=2"' in first
    second = client.get("/decks?page=2").get_data(as_text=True)
    assert "Tin 0<" in second and "Tin 1<" not in second and 'href="/decks"' in second


def test_a_new_session_offers_every_deck_profile_and_group_of_the_phone_not_a_page(
    client: FlaskClient,
) -> None:
    decks = [make_deck(client, f"Tin {number}") for number in range(31)]
    groups = [make_group(client, f"Mine {number}") for number in range(31)]
    page = client.get("/new/yadokarick").get_data(as_text=True)
    offered = re.findall(r'<option (?:selected )?value="([A-Za-z0-9_-]{22})"', page)
    assert offered == decks[::-1]
    assert [f"/g/{group_id}/play/yadokarick" in page for group_id in groups] == [True] * 31
    assert page.index("Mine 30<") < page.index("Mine 0<")
    # The oldest profile deals a new session as the newest does.
    started = client.post(
        "/new/yadokarick",
        data={"seats-0": "Ann", "seats-1": "Bo", "seats-2": "Cy", "deck_profile": decks[0]},
    )
    assert started.status_code == 303, started.get_data(as_text=True)


def test_a_page_number_that_is_none_is_404(client: FlaskClient) -> None:
    for page in ("0", "-1", "two", "9" * 12):
        assert client.get(f"/?page={page}").status_code == 404
        assert client.get(f"/decks?page={page}").status_code == 404


def test_a_session_page_reads_the_devices_rights_once(
    client: FlaskClient, statements: Statements
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    statements.sql.clear()
    assert client.get(table.url).status_code == 200
    # (PostgreSQL prepares the read once a connection, then runs it.)
    rights_reads = [sql for sql in statements.sql if '"device' in sql and "PREPARE" not in sql]
    assert len(rights_reads) == 1 and rights_reads[0].startswith("SELECT")


def writes(statements: Statements) -> list[str]:
    return [sql for sql in statements.sql if sql.startswith(("INSERT", "UPDATE", "DELETE"))]


def test_a_visitor_that_keeps_no_cookie_makes_no_row(
    app: Flask, client: FlaskClient, statements: Statements
) -> None:
    table = api_session(app.test_client(), ["Ann", "Bo"])
    group = make_group(app.test_client(), "Club")
    before = device_count(app)
    statements.sql.clear()
    for _ in range(3):  # a link preview, a crawler: each time without a cookie
        assert app.test_client().get(f"/s/{table.id}").status_code == 200
        assert app.test_client().get(f"/g/{group}").status_code == 200
    assert writes(statements) == [] and device_count(app) == before


def test_a_watcher_gets_a_device_when_it_comes_back_with_its_cookie(
    app: Flask, client: FlaskClient, statements: Statements
) -> None:
    table = api_session(app.test_client(), ["Ann", "Bo"])
    group = make_group(app.test_client(), "Club")
    before = device_count(app)
    statements.sql.clear()
    assert "Set-Cookie" in client.get(f"/s/{table.id}").headers
    assert writes(statements) == [] and device_count(app) == before
    # Back with its cookie: the session watched is carried over to a new device.
    assert "Set-Cookie" in client.get(f"/g/{group}").headers
    assert device_count(app) == before + 1
    home = client.get("/").get_data(as_text=True)
    assert f'href="/s/{table.id}"' in home and "Club<" in home


def test_seeing_a_session_again_writes_nothing_and_sends_no_cookie(
    app: Flask, client: FlaskClient, statements: Statements
) -> None:
    table = api_session(app.test_client(), ["Ann", "Bo"])
    for _ in range(2):  # noted in the cookie, then carried over to a device
        assert "Set-Cookie" in client.get(f"/s/{table.id}").headers
    statements.sql.clear()
    again = client.get(f"/s/{table.id}")
    assert "Set-Cookie" not in again.headers
    assert writes(statements) == []


def test_a_watchers_requests_sent_at_once_with_its_cookie_all_reach_one_device(
    app: Flask, client: FlaskClient
) -> None:
    """Tabs restored together, a "score with me" link opened while a page loads: each
    request carries the watcher's cookie over, and whichever answer the browser keeps last,
    its device holds the right another of them gave."""
    watched = api_session(app.test_client(), ["Ann", "Bo"])
    joined = api_session(app.test_client(), ["Cy", "Di"])
    first = client.get(f"/s/{watched.id}")  # noted in the cookie: no device yet
    # The cookie names the device this browser will have: no shared cache may keep it.
    assert first.headers["Cache-Control"] == "private"
    noted = cookie_value(client)
    tabs = [app.test_client() for _ in range(3)]
    for tab in tabs:
        tab.set_cookie("session", noted)
    # The join first, then two pages: each sent with the cookie as it was.
    assert tabs[0].get(f"/s/{joined.id}/join/{joined.key}").status_code == 303
    assert tabs[1].get("/").status_code == 200
    assert tabs[2].get(f"/s/{watched.id}").status_code == 200
    assert len({device_of(app, tab) for tab in tabs}) == 1
    for tab in tabs:
        home = tab.get("/").get_data(as_text=True)
        assert set(listed_session_ids(home)) == {watched.id, joined.id}
        assert tab.post(f"/s/{joined.id}/action", data={"type": "roll"}).status_code != 403
        assert tab.post(f"/s/{watched.id}/action", data={"type": "roll"}).status_code == 403


def test_a_cookie_of_before_naming_only_what_no_longer_exists_makes_no_device(
    app: Flask, client: FlaskClient
) -> None:
    # What the cookies named is gone (deleted, or restored from an older copy): ids that
    # name nothing, or entries that were never ids.
    before = device_count(app)
    for old in (
        {"seen": [[keys.new_id(), "view"], ["no-such-id", "edit"]]},
        {"groups": [[keys.new_id(), "edit"]], "deck_rights": [keys.new_id()]},
        {"sessions": {keys.new_id(): "edit"}, "decks": []},
        {"seen": "not a list", "groups": [[1, 2]]},
        {"seen": [[keys.new_id(), "view"]], access.WATCHER_COOKIE: keys.new_key()},
    ):
        with client.session_transaction() as cookie:
            cookie.clear()
            cookie.update(old)
        assert client.get("/").status_code == 200
        with client.session_transaction() as cookie:
            assert not set(cookie) & {*access.OLD_COOKIES, access.WATCHER_COOKIE}
            assert access.DEVICE_COOKIE not in cookie
    assert device_count(app) == before
