"""What pages and answers make of a session's view is kept by session_views' one rule: made
once for the version it was made at, made again once the session moved on, and never
kept for a view older than the newest one seen."""

from __future__ import annotations

from conftest import Table
from flask.testing import FlaskClient
from test_store_cache import play_yardkle

from scorekeeper import session_views


class Maker:
    """Makes numbered things, counting the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return f"made {self.calls}"


def test_a_thing_is_made_once_per_version_and_key(table: Table) -> None:
    play_yardkle(table, 3, seed=1)
    view, make = session_views.load(table.id), Maker()
    assert session_views.made_once(view, "page", "/root", make) == "made 1"
    assert session_views.made_once(view, "page", "/root", make) == "made 1"
    assert session_views.made_once(view, "page", "/other", make) == "made 2"
    assert session_views.made_once(view, "answer", "/other", make) == "made 3"
    assert make.calls == 3


def test_a_write_makes_every_thing_of_the_version_before_stale(table: Table) -> None:
    play_yardkle(table, 3, seed=1)
    before, make = session_views.load(table.id), Maker()
    session_views.made_once(before, "page", "/", make)
    play_yardkle(table, 1, seed=2)
    after = session_views.load(table.id)
    assert after.version == before.version + 1
    assert session_views.made_once(after, "page", "/", make) == "made 2"
    assert session_views.made_once(after, "page", "/", make) == "made 2"
    # A request still holding the older view gets its own thing, never the newer one's,
    # and does not push the newer one out.
    assert session_views.made_once(before, "page", "/", make) == "made 3"
    assert session_views.made_once(before, "page", "/", make) == "made 4"
    assert session_views.made_once(after, "page", "/", make) == "made 2"


def test_a_lasting_thing_outlives_the_version_but_not_its_key(table: Table) -> None:
    play_yardkle(table, 3, seed=1)
    before, make = session_views.load(table.id), Maker()
    assert session_views.made_once(before, "fields", "deck 1", make, lasting=True) == "made 1"
    play_yardkle(table, 1, seed=2)
    after = session_views.load(table.id)
    assert session_views.made_once(after, "fields", "deck 1", make, lasting=True) == "made 1"
    assert session_views.made_once(after, "fields", "deck 2", make, lasting=True) == "made 2"


def test_a_forgetting_worker_makes_everything_again(table: Table) -> None:
    play_yardkle(table, 3, seed=1)
    view, make = session_views.load(table.id), Maker()
    session_views.made_once(view, "page", "/", make)
    session_views.made_once(view, "fields", "/", make, lasting=True)
    session_views.forget()
    assert session_views.made_once(view, "page", "/", make) == "made 3"
    assert session_views.made_once(view, "fields", "/", make, lasting=True) == "made 4"


def test_the_api_answer_is_made_again_after_a_write_through_the_same_worker(
    client: FlaskClient, table: Table
) -> None:
    play_yardkle(table, 3, seed=1)
    first = client.get(f"/api/v1/sessions/{table.id}").get_json()
    play_yardkle(table, 1, seed=2)
    second = client.get(f"/api/v1/sessions/{table.id}").get_json()
    assert (first["version"], second["version"]) == (3, 4)
    assert second["state"] != first["state"]
