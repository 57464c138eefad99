"""README's "Adding a game", followed for a seventh game: a coin-flip game whose rules, web
adapter and templates are all this module's (the templates written into a folder of their
own), registered for one test and played through the pages, the API, export and import.
What the README lists is all a new game needs: nothing else of the app names it."""

from __future__ import annotations

import csv
import importlib
import io
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from conftest import API, assert_error, make_app, start
from flask import Flask
from flask.testing import FlaskClient
from page_player import submissions
from pydantic import with_config
from werkzeug.datastructures import MultiDict

from scorekeeper import games, session_views
from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask
from scorekeeper.games.base import (
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    int_option,
    rank_by_score,
)
from scorekeeper.games.engine import CHOICES, Engine, on
from scorekeeper.games.records import evolve
from scorekeeper.games.web_interface import ActionsDoc, GameAdapter

# --- The game's rules (its package's rules.py) ------------------------------------------

Side = Literal["heads", "tails"]
SIDES: tuple[str, ...] = ("heads", "tails")


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Call:
    """The player whose turn it is calls a side before the coin is flipped."""

    type: Literal["call"] = field(default="call", kw_only=True, repr=False)
    side: Annotated[Side, Ask("heads or tails")]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Flip:
    """The side the coin came down on."""

    type: Literal["flip"] = field(default="flip", kw_only=True, repr=False)
    side: Annotated[Side, Ask("the side the coin came down on")]


Action = Call | Flip


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    target: int
    scores: tuple[int, ...]
    # The seat calling now, and its call once made.
    current: int
    called: str | None
    # Each flip: the seat that called, its call and the side that came up.
    flips: tuple[tuple[int, str, str], ...]
    finished: bool
    last_ruling: str


def call(state: State, action: Call) -> State:
    caller = state.players[state.current]
    if state.called is not None:
        raise IllegalAction(f"{caller} called {state.called}: flip the coin.", "type")
    return evolve(state, called=action.side, last_ruling=f"{caller} calls {action.side}.")


def flip(state: State, action: Flip) -> State:
    caller = state.players[state.current]
    if state.called is None:
        raise IllegalAction(f"{caller} calls heads or tails first.", "type")
    right = action.side == state.called
    scores = list(state.scores)
    scores[state.current] += right
    finished = scores[state.current] >= state.target
    outcome = "wins" if finished else "scores" if right else "misses"
    return evolve(
        state,
        scores=tuple(scores),
        current=(state.current + 1) % len(state.players),
        called=None,
        flips=(*state.flips, (state.current, state.called, action.side)),
        finished=finished,
        last_ruling=f"{action.side.title()}: {caller} {outcome}.",
    )


class CoinFlip(Engine[State, Action]):
    """First to ``target`` right calls wins."""

    slug = "coin-flip"
    title = "Coin flip"
    min_players = 2
    max_players = 4
    options = (OptionSpec("target", "Right calls to win", "int", 3, minimum=1, maximum=9),)
    actions = ActionSet(Action)
    handlers = (
        on(Call, call, lambda called: f"call {called.side}"),
        on(Flip, flip, lambda flipped: f"flip {flipped.side}"),
    )
    listed = (CHOICES,)
    over_at_the_end = True

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        target = int_option(options, "target")
        first = f"{players[0]} calls first."
        return State(players, target, (0,) * len(players), 0, None, (), False, first)

    def expected_actions(self, state: State) -> Expected:
        if state.finished:
            return NOTHING_EXPECTED
        kind = "call" if state.called is None else "flip"
        return Expected(state.current, (Accepts(kind, choices=SIDES),))

    def standings(self, state: State) -> list[Standing]:
        return rank_by_score(state.players, state.scores)

    def score_rows(self, state: State) -> list[ScoreRow]:
        totals = [0] * len(state.players)
        rows = []
        for number, (seat, called, came) in enumerate(state.flips, start=1):
            points = int(called == came)
            totals[seat] += points
            note = f"called {called}, {came}"
            rows.append(ScoreRow(number, seat, state.players[seat], points, totals[seat], note))
        return rows


GAME = CoinFlip()

# --- Its web side (its package's web.py) and templates (templates/games/<slug>/) ----------


def read_form(form: MultiDict[str, str], _view: session_views.SessionView) -> dict[str, object]:
    return {"type": form.get("type", ""), "side": form.get("side", "")}


# Written by the fixture that registers the game, removed after the test.
TEMPLATE_FOLDER = Path(tempfile.gettempdir()) / f"coin-flip-templates-{os.getpid()}"
TEMPLATES = {
    "board.html": (
        '<div class="card board"><p id="coin-scores">'
        "{% for name in state.players %}{{ name }} {{ state.scores[loop.index0] }}"
        "{% if not loop.last %} · {% endif %}{% endfor %}</p></div>"
    ),
    "input.html": (
        '{% from "_macros.html" import hidden %}'
        "{% set kind = expected.actions[0].type %}"
        '<form method="post" action="{{ page_url(\'play.action\', session_id=view.id) }}">'
        '{{ hidden(view, form_key) }}<input type="hidden" name="type" value="{{ kind }}">'
        "{% for side in rules.SIDES %}"
        '<button type="submit" name="side" value="{{ side }}">{{ kind }} {{ side }}</button>'
        "{% endfor %}</form>"
    ),
}

ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=sys.modules[__name__],
    api_actions=ActionsDoc(
        "A call, or the flip after it.",
        {"call": "The side the player calls.", "flip": "The side that came up."},
    ),
    template_folder=str(TEMPLATE_FOLDER),
)


@pytest.fixture
def coin_flip() -> Iterator[None]:
    """The coin-flip game in the registry, with its templates, for one test. The API's
    modules are imported first: what they read of the registry once (the API document's
    models) is the registry without it, as this process's later tests expect."""
    importlib.import_module("scorekeeper.web.api")
    before = dict(games.GAMES)
    for name, text in TEMPLATES.items():
        path = TEMPLATE_FOLDER / "games" / GAME.slug / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    games.register(GAME, __name__)
    yield
    games.unregister(GAME.slug)
    shutil.rmtree(TEMPLATE_FOLDER)
    assert before == games.GAMES


@pytest.fixture
def app(coin_flip: None, database_url: str) -> Flask:
    """The app made once the game is registered, as a server starts with it listed."""
    made = make_app(database_url)
    # The API document of this process was made without the game (see coin_flip), so
    # these answers go unchecked by it; the next test checks them against a document
    # made with the game registered, as a server made after registering it serves.
    made.test_client_class = FlaskClient
    return made


# A process of its own where the game is registered before the app is made, as a server
# adding a game of its own would do.
REGISTERED_FIRST = """
import sys

import test_adding_a_game as coin_flip
from conftest import make_app

from scorekeeper import games

games.register(coin_flip.GAME, "test_adding_a_game")
client = make_app(sys.argv[1]).test_client()
schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
# A state's component is named after the module its class lives in (this test's).
print(sorted(name for name in schemas if name.startswith(("CoinFlip", "TestAddingAGame."))))
coin_flip.test_a_registered_game_is_played_through_the_api_and_comes_back_from_its_export(client)
print(type(client).__name__)
"""


def test_a_game_registered_before_the_app_is_made_is_in_its_api_document_and_answers_by_it(
    tmp_path: Path,
) -> None:
    here = Path(__file__).parent
    result = subprocess.run(
        [sys.executable, "-c", REGISTERED_FIRST, f"sqlite:///{tmp_path / 'coin.sqlite3'}"],
        cwd=here,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(here), str(here.parent)])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    documented, client_class = result.stdout.splitlines()
    # Its options, its actions, its state and its state's history (none: the rounds
    # endpoint's records of this game are empty), generated from its declarations.
    assert documented == (
        "['CoinFlipAction', 'CoinFlipOptions', 'TestAddingAGame.State', "
        "'TestAddingAGame.StateHistory']"
    )
    # Every answer of that game checked against the document (tests/openapi_check.py).
    assert client_class == "CheckedClient"


def test_a_registered_game_is_listed_and_played_through_its_pages(client: FlaskClient) -> None:
    assert "Coin flip" in client.get("/new").get_data(as_text=True)
    new_page = client.get("/new/coin-flip").get_data(as_text=True)
    assert 'name="option_target"' in new_page
    table = start(client, "coin-flip", ["Ann", "Bo"], option_target="2")
    rng, taps = random.Random("coin-flip"), 0
    while offered := submissions(table.page(), rng):
        tapped = rng.choice(offered)
        assert client.post(tapped.action, data=tapped.data()).status_code == 303
        taps += 1
    state = table.state()
    assert state["finished"] is True
    assert max(state["state"]["scores"]) == 2
    assert taps == 2 * len(state["state"]["flips"])
    winner = ["Ann", "Bo"][state["winners"][0]]
    assert f"{winner} wins!" in " ".join(table.page().split())
    history = client.get(f"{table.url}/history").get_data(as_text=True)
    assert "call heads" in history or "call tails" in history
    results = client.get(f"{table.url}/results")
    assert results.status_code == 200
    assert winner in results.get_data(as_text=True)


def test_a_registered_game_is_played_through_the_api_and_comes_back_from_its_export(
    client: FlaskClient,
) -> None:
    made = client.post(f"{API}/sessions", json={"game": "coin-flip", "seats": ["Ann", "Bo"]})
    assert made.status_code == 201, made.get_json()
    session = made.get_json()
    url = f"{API}/sessions/{session['id']}"
    key = {"Authorization": f"Bearer {session['edit_key']}"}
    assert session["expected"] == {
        "seat": 0,
        "actions": [{"type": "call", "choices": ["heads", "tails"]}],
    }

    def send(action: dict[str, Any]) -> Any:
        version = client.get(url).get_json()["version"]
        return client.post(
            f"{url}/events", json={"version": version, "action": action}, headers=key
        )

    assert_error(send({"type": "flip", "side": "heads"}), 422, "type")
    assert_error(send({"type": "call", "side": "edge"}), 422, "side")
    assert_error(send({"type": "call"}), 422, "side")
    # Ann calls right three times, Bo never.
    for called, came in [("heads", "heads"), ("heads", "tails")] * 2 + [("tails", "tails")]:
        for action in ({"type": "call", "side": called}, {"type": "flip", "side": came}):
            answer = send(action)
            assert answer.status_code == 201, answer.get_json()
    played = client.get(url).get_json()
    assert played["finished"] is True
    assert played["winners"] == [0]
    assert played["state"]["scores"] == [3, 0]
    assert played["ruling"] == "Tails: Ann wins."
    assert played["expected"] == {"seat": None, "actions": []}

    exported = client.get(f"{url}/export").get_json()
    assert [event["text"] for event in exported["events"][:2]] == ["call heads", "flip heads"]
    rows = list(csv.DictReader(io.StringIO(client.get(f"{url}/export.csv").get_data(as_text=True))))
    assert len(rows) == 5
    assert rows[-1]["player"] == "Ann"
    assert rows[-1]["running_total"] == "3"

    imported = client.post(f"{API}/sessions/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = client.get(f"{API}/sessions/{imported.get_json()['id']}/export").get_json()
    assert again["events"] == exported["events"]
    assert again["standings"] == exported["standings"]
    assert again["winners"] == exported["winners"]


def test_the_registry_is_as_before_once_the_game_is_unregistered() -> None:
    slugs = list(games.GAMES)
    games.register(GAME, __name__)
    try:
        assert list(games.GAMES) == [*slugs, "coin-flip"]
        with pytest.raises(ValueError, match="registered already"):
            games.register(GAME, __name__)
    finally:
        games.unregister(GAME.slug)
    assert list(games.GAMES) == slugs


def test_a_registered_game_is_refused_on_its_form_with_a_sentence(client: FlaskClient) -> None:
    table = start(client, "coin-flip", ["Ann", "Bo"])
    form_key = secrets.token_urlsafe(8)
    refused = client.post(
        f"{table.url}/action",
        data={"version": "0", "form_key": form_key, "type": "flip", "side": "heads"},
    )
    assert refused.status_code == 422
    assert "Ann calls heads or tails first." in refused.get_data(as_text=True)
