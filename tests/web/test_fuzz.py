"""Nothing anyone sends can break an endpoint (issue 11): hypothesis fuzzes every path
segment, query argument, form field, JSON property and edit-key header of every route,
with text of every Unicode category (NUL, lone surrogates, other scripts' digits, RTL
marks, very long strings) and JSON of every type. The answer is always below 500, and a
4xx carries a sentence: ``{"error": <sentence>, "field": ...}`` from the API, a page
without a stack trace otherwise.

The routes come from ``app.url_map``: a new route fails ``test_every_route_is_fuzzed``
until it is given a place here.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.games import GAMES
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yellow_dwarf.settlement import TAKER_CARDS

FUZZ = settings(
    max_examples=25,
    deadline=None,
    # Without the "explain" phase, which traces every line and makes a failing run slow.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    # The app and its sessions are made once per test; every example reuses them.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # CI replays the same examples every run, so a landing is judged on the code alone;
    # a developer's run explores new ones (and finds what CI then keeps).
    derandomize=bool(os.environ.get("CI")),
)

SPECIAL_TEXTS = [
    "\x00",
    "a\x00b",
    "\ud800",
    "A\udfff",
    "¹",
    "①",
    "٣",
    "߃",
    "\u200f",
    "\u202e",
    "x" * 5000,
    "-1",
    "1e9",
    "9" * 30,
    "",
    " ",
    "null",
]
texts = st.one_of(
    st.sampled_from(SPECIAL_TEXTS),
    # Every category, surrogates included.
    st.text(st.characters(exclude_categories=())),
    # Numbers in other scripts: they pass str.isdigit() and fail int().
    st.text(st.characters(categories=("Nd", "No")), min_size=1, max_size=3),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)


def fuzzed_like(valid: object) -> st.SearchStrategy[str]:
    """Any text, or the valid value with any text around it (it reaches the deeper checks)."""
    return _fuzzed_around(str(valid))


# One strategy per text, made once: hypothesis works out each new strategy's properties
# before its first draw, and the examples drew one for every value they replaced.
@functools.cache
def _fuzzed_around(text: str) -> st.SearchStrategy[str]:
    return st.one_of(
        texts,
        texts.map(lambda fuzz: text + fuzz),
        texts.map(lambda fuzz: fuzz + text),
    )


@dataclass(frozen=True)
class Variant:
    """A session the fuzzing writes into: its game, seats, the API actions recorded first
    and the seq of a live card event among them, to correct."""

    game: str
    seats: list[str]
    opening: list[dict[str, Any]]
    card_seq: int | None = None


FOUR = ["Ann", "Bo", "Cy", "Di"]
# One session per game, and per Yadokarick mode (the mode follows the number of seats).
VARIANTS = {
    "yardkle": Variant("yardkle", ["Ann", "Bo"], [{"type": "roll", "dice": [1, 5, 2, 2, 3, 4]}]),
    "yokai-septet": Variant(
        "yokai-septet",
        FOUR,
        [
            {"type": "trump", "card": "red 9"},
            {"type": "first-lead", "seat": 0},
            {"type": "play", "card": "green 3"},
        ],
        card_seq=3,
    ),
    "cryptruck": Variant(
        "cryptruck",
        FOUR[:3],
        [
            {"type": "reveal", "card": "green 2"},
            {"type": "dealer-card", "card": "red 5"},
            {"type": "bid", "want": True},
            {"type": "bid", "want": False},
            {"type": "give", "card": "red 2"},
            {"type": "play", "card": "yellow 4"},
        ],
        card_seq=6,
    ),
    "yadokarick-solo": Variant(
        "yadokarick", FOUR[:1], [{"type": "draw", "card": "green 5", "size": 3}], card_seq=1
    ),
    "yadokarick-npc": Variant(
        "yadokarick", FOUR[:2], [{"type": "play", "card": "green 5", "size": 3}], card_seq=1
    ),
    "yadokarick-4": Variant(
        "yadokarick", FOUR, [{"type": "play", "card": "green 5", "size": 3}], card_seq=1
    ),
    "yellow-dwarf": Variant("yellow-dwarf", FOUR[:3], [{"type": "play", "card": "5H"}], card_seq=1),
    # One seat: the document's example round (one number) is a right one.
    "score-sheet": Variant("score-sheet", FOUR[:1], [{"type": "round", "points": [-3]}]),
}
CARD_VARIANTS = [name for name, variant in VARIANTS.items() if variant.card_seq is not None]


@dataclass
class Played:
    """A session the fuzzing may write into: this device and the key may both record."""

    id: str
    key: str
    card_seq: int


class World:
    """The sessions and the deck profile of one test, made on first use."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.sessions: dict[str, Played] = {}
        self._made_deck: tuple[str, str] | None = None
        self._made_group: tuple[str, str, list[int]] | None = None
        self._openapi: dict[str, Any] | None = None

    def session(self, variant: str) -> Played:
        if variant not in self.sessions:
            made = VARIANTS[variant]
            created = self.client.post(
                "/api/v1/sessions", json={"game": made.game, "seats": made.seats}
            )
            assert created.status_code == 201, created.get_json()
            body = created.get_json()
            # A session without cards offers its first event: not correctable.
            played = Played(body["id"], body["edit_key"], made.card_seq or 1)
            for version, action in enumerate(made.opening):
                response = self.client.post(
                    f"/api/v1/sessions/{played.id}/events",
                    json={"version": version, "action": action},
                    headers={"Authorization": f"Bearer {played.key}"},
                )
                assert response.status_code == 201, response.get_json()
            # The scorer's phone: this device may record with the forms.
            assert self.client.get(f"/s/{played.id}/join/{played.key}").status_code == 303
            self.sessions[variant] = played
        return self.sessions[variant]

    def version(self, variant: str) -> int:
        response = self.client.get(f"/api/v1/sessions/{self.session(variant).id}")
        assert response.status_code == 200
        version: int = response.get_json()["version"]
        return version

    @property
    def profile(self) -> str:
        """A deck profile this device made on the deck page."""
        return self._deck()[0]

    @property
    def profile_key(self) -> str:
        """The profile's key, from the "edit this deck" link its page showed this device."""
        return self._deck()[1]

    def _deck(self) -> tuple[str, str]:
        if self._made_deck is None:
            made = self.client.post("/decks", data={"name": "Fuzzed deck"})
            assert made.status_code == 303
            profile = made.location.rsplit("/", 1)[1]
            page = self.client.get(f"/decks/{profile}").get_data(as_text=True)
            found = re.search(rf"/decks/{profile}/join/([\w-]+)", page)
            assert found, "the deck page shows its maker no “edit this deck” link"
            self._made_deck = (profile, found.group(1))
        return self._made_deck

    @property
    def group(self) -> str:
        """A group made through the API, of which this device is a member."""
        return self._group()[0]

    @property
    def group_key(self) -> str:
        return self._group()[1]

    @property
    def players(self) -> list[int]:
        """The ids of the group's players, as it was made."""
        return self._group()[2]

    def _group(self) -> tuple[str, str, list[int]]:
        if self._made_group is None:
            made = self.client.post(
                "/api/v1/groups", json={"name": "Fuzzed group", "players": FOUR}
            )
            assert made.status_code == 201, made.get_json()
            body = made.get_json()
            # This device joins it, as the group's "join this group" link makes a member.
            assert self.client.get(f"/g/{body['id']}/join/{body['edit_key']}").status_code == 303
            self._made_group = (body["id"], body["edit_key"], [p["id"] for p in body["players"]])
        return self._made_group

    @property
    def openapi(self) -> dict[str, Any]:
        if self._openapi is None:
            self._openapi = self.client.get("/api/v1/openapi.json").get_json()
        return self._openapi

    def export(self, variant: str) -> dict[str, Any]:
        response = self.client.get(f"/api/v1/sessions/{self.session(variant).id}/export")
        assert response.status_code == 200
        exported: dict[str, Any] = response.get_json()
        return exported


@pytest.fixture
def world(client: FlaskClient) -> World:
    return World(client)


def assert_answered_with_a_sentence(response: TestResponse) -> None:
    status = response.status_code
    assert status < 500, f"answered {status}"
    if status < 400:
        return
    if response.is_json:
        body = response.get_json()
        assert isinstance(body, dict) and "field" in body, body
        assert isinstance(body.get("error"), str) and body["error"].strip(), body
    else:
        page = response.get_data(as_text=True)
        assert page.strip(), f"{status} with an empty body"
        assert "Traceback" not in page


# Sending as an attacker would: text that UTF-8 cannot encode (lone surrogates) goes as the
# bytes it would be, percent-encoded; JSON goes as json.dumps writes it ("\ud800" escapes).


def percent(text: object) -> str:
    return quote(str(text).encode("utf-8", "surrogatepass"), safe="")


def urlencoded(fields: dict[str, Any]) -> str:
    pairs = []
    for name, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append(f"{percent(name)}={percent(item)}")
    return "&".join(pairs)


def header_value(text: str) -> str:
    """A header as a server reads the raw bytes (latin-1); a line break would end it."""
    raw = text.encode("utf-8", "surrogatepass").decode("latin-1")
    return raw.replace("\r", "").replace("\n", "")


def json_bytes(body: object) -> bytes:
    return json.dumps(body).encode()


# One edit to a right request: any value in one place, one place left out, or an unknown
# one added. A form is a flat document: {field: value or list of values}.

Path = tuple[str | int, ...]
LEFT_OUT = object()


def at(document: Any, path: Path) -> Any:
    for step in path:
        document = document[step]
    return document


def edited(document: Any, path: Path, value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``path`` (added when new; LEFT_OUT removes)."""
    if not path:
        return value
    changed = copy.deepcopy(document)
    *parents, last = path
    holder = at(changed, tuple(parents))
    if value is not LEFT_OUT:
        holder[last] = value
    elif isinstance(holder, dict):
        holder.pop(last, None)
    else:
        del holder[last]
    return changed


def json_places(value: Any, prefix: Path = ()) -> list[Path]:
    """Every place in a JSON document, the whole document first."""
    children: list[tuple[str | int, Any]] = []
    if isinstance(value, dict):
        children = list(value.items())
    elif isinstance(value, list):
        children = list(enumerate(value))
    places = [prefix]
    for key, child in children:
        places += json_places(child, (*prefix, key))
    return places


def draw_edit(
    data: st.DataObject,
    document: Any,
    places: list[Path],
    values: Callable[[Any], st.SearchStrategy[Any]],
) -> Any:
    """``document`` with one edit at one of ``places`` (the whole document may be one), or
    an unknown property added; ``values(right value)`` are the values a place may take."""
    existing = json_places(document)
    objects = [place for place in existing if isinstance(at(document, place), dict)]
    inner = [place for place in places if place]
    edits = ["replace", *(["leave out"] if inner else []), *(["add"] if objects else [])]
    how = data.draw(st.sampled_from(edits), label="edit")
    if how == "add":
        into = data.draw(st.sampled_from(objects), label="into")
        name = data.draw(texts, label="unknown name")
        return edited(document, (*into, name), data.draw(values(None), label="value"))
    if how == "leave out":
        return edited(document, data.draw(st.sampled_from(inner), label="at"), LEFT_OUT)
    path = data.draw(st.sampled_from(places), label="at")
    right = at(document, path) if path in existing else ""
    return edited(document, path, data.draw(values(right), label="value"))


# Two edits at once reach what one cannot: a card to correct without its size, say.
EDITS = st.integers(min_value=1, max_value=2)


def form_values(right: Any) -> st.SearchStrategy[Any]:
    """Any text; several where the field is read as a list."""
    if isinstance(right, list):
        return _several_like(str(right[0]) if right else "")
    return fuzzed_like("" if right is None else right)


@functools.cache
def _several_like(text: str) -> st.SearchStrategy[list[str]]:
    return st.lists(fuzzed_like(text), max_size=3)


def json_values_for(right: Any) -> st.SearchStrategy[Any]:
    """Any JSON, any text, or the right text with any text around it."""
    return _json_or_around(right) if isinstance(right, str) else JSON_OR_TEXT


JSON_OR_TEXT = json_values | texts


@functools.cache
def _json_or_around(right: str) -> st.SearchStrategy[Any]:
    return json_values | fuzzed_like(right)


# The forms and the query strings the pages read, each filled in right.


@dataclass(frozen=True)
class Form:
    name: str
    endpoint: str
    method: str
    path: Callable[[World], str]
    fields: Callable[[World], dict[str, Any]]
    # Read by the endpoint but left out of a right fill (buttons, steps).
    also: tuple[str, ...] = ()

    def send(self, world: World, fields: dict[str, Any]) -> TestResponse:
        if self.method == "GET":
            return world.client.get(self.path(world), query_string=urlencoded(fields))
        return world.client.post(
            self.path(world),
            data=urlencoded(fields),
            content_type="application/x-www-form-urlencoded",
        )


def keyed(world: World, variant: str, **fields: Any) -> dict[str, Any]:
    """A session form's fields with the page's version and a fresh form key."""
    return {"version": world.version(variant), "form_key": secrets.token_urlsafe(8), **fields}


# Asked for in a step of their own: a card's size, whether "who takes" was called.
ASKED_FIELDS = {"yadokarick": ("size",), "yellow-dwarf": ("called",)}
NO_TAKER_FATES = {f"taker-{card}": "" for card in TAKER_CARDS}
ACTION_FORMS: dict[str, dict[str, dict[str, Any]]] = {
    "yardkle": {
        "roll": {"dice_count": "6", **{f"die{i}": d for i, d in enumerate("152234", start=1)}},
        "keep": {"keep": ["1", "5"], "then": "roll"},
        "bank": {},
        "total": {"points": "350"},
    },
    "yokai-septet": {
        "trump": {"card": "red 9"},
        "first-lead": {"seat": "0"},
        "pass": {},
        "play": {"card": "green 4"},
        "result": {"team": "0", "how": "last-trick", "boss": ["red 7", "pink 7"]},
        "revoke": {"flag": "0", "decision": "accept", "penalty": "1"},
    },
    "cryptruck": {
        "reveal": {"card": "green 2"},
        "dealer-card": {"card": "red 5"},
        "bid": {"want": "1"},
        "give": {"card": "red 2"},
        "play": {"card": "green 4"},
        "won": {"seat_count": "3", "won-0": ["red 3"], "won-1": ["green 4"], "won-2": ["white 3"]},
        "revoke": {"flag": "0", "decision": "accept", "penalty": "1"},
    },
    "yadokarick-solo": {
        "draw": {"card": "green 7"},
        "take": {"card": "green 7", "crab": "1"},
        "bonus": {"card": "green 7"},
        "give-up": {"crab": "1"},
    },
    "yadokarick-npc": {
        "play": {"card": "green 7"},
        "marker": {"move": "left"},
    },
    "yadokarick-4": {
        "play": {"card": "pink 7"},
        "marker": {"move": "left"},
    },
    "yellow-dwarf": {
        "play": {"card": "6H"},
        "without": {"rank": "6"},
        "reveal": {
            **NO_TAKER_FATES,
            "taker-10D": "kept:0",
            "left-0": "0",
            "left-1": "3",
            "left-2": "4",
        },
        "round": {
            **NO_TAKER_FATES,
            "winner": "0",
            "left-0": "0",
            "left-1": "3",
            "left-2": "4",
            "taker-JC": "called:1",
            "taker-QS": "forgot:2",
            "grand_opera": "1",
        },
    },
    "score-sheet": {
        "round": {"points-0": "12", "negative-0": "1"},
        "finish": {},
    },
}


def session_forms() -> list[Form]:
    forms = []
    for variant, kinds in ACTION_FORMS.items():
        for kind, fields in kinds.items():
            forms.append(
                Form(
                    f"action-{variant}-{kind}",
                    "play.action",
                    "POST",
                    lambda w, v=variant: f"/s/{w.session(v).id}/action",
                    lambda w, v=variant, k=kind, f=fields: keyed(w, v, type=k, **f),
                    also=ASKED_FIELDS.get(VARIANTS[variant].game, ()),
                )
            )
        for write in ("undo", "redo"):
            forms.append(
                Form(
                    f"{write}-{variant}",
                    f"play.{write}",
                    "POST",
                    lambda w, v=variant, x=write: f"/s/{w.session(v).id}/{x}",
                    lambda w, v=variant: keyed(w, v),
                )
            )
        forms.append(
            Form(
                f"rematch-{variant}",
                "sessions.rematch",
                "POST",
                lambda w, v=variant: f"/s/{w.session(v).id}/rematch",
                lambda _w: {"form_key": secrets.token_urlsafe(8)},
            )
        )
        # Each world session has events: its removal is refused, and the world stays.
        forms.append(
            Form(
                f"remove-{variant}",
                "sessions.remove",
                "POST",
                lambda w, v=variant: f"/s/{w.session(v).id}/remove",
                lambda _w: {"csrf_token": "token"},  # its one field (CSRF is off in tests)
            )
        )
        forms.append(
            Form(
                f"page-{variant}",
                "sessions.session_page",
                "GET",
                lambda w, v=variant: f"/s/{w.session(v).id}",
                lambda _w: {"size_for": "green 9", "size_type": "play", "called_for": "10D"},
            )
        )
    for variant in CARD_VARIANTS:
        card = VARIANTS[variant].opening[-1]["card"]
        forms.append(
            Form(
                f"correct-{variant}",
                "play.correct",
                "POST",
                lambda w, v=variant: f"/s/{w.session(v).id}/events/{w.session(v).card_seq}/correct",
                lambda w, v=variant, c=card: keyed(w, v, card=c),
                # A Yadokarick card keeps its size unless one is typed.
                also=("size",),
            )
        )
    return forms


def new_session_form(slug: str, seats: int) -> Callable[[World], dict[str, Any]]:
    game = GAMES[slug]

    def fields(world: World) -> dict[str, Any]:
        names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:seats]
        filled: dict[str, Any] = {
            f"seats-{index}": names[index] if index < seats else ""
            for index in range(game.max_players)
        }
        for spec in game.options:
            default = str(spec.default)
            filled[f"option_{spec.name}"] = default.split(",") if spec.kind == "multi" else default
        if slug == "yadokarick":
            filled |= {"deck": world.profile, "new_deck_name": "Table deck"}
        return {"form_key": secrets.token_urlsafe(8), **filled}

    return fields


# The new-session page of every game is fuzzed, with these numbers of seats (Yadokarick's
# mode follows the number of seats: one form each).
NEW_SESSION_SEATS: dict[str, tuple[int, ...]] = {
    "yardkle": (2,),
    "yokai-septet": (4,),
    "cryptruck": (3,),
    "yadokarick": (1, 2, 4),
    "yellow-dwarf": (3,),
    "score-sheet": (3,),
}


def other_forms() -> list[Form]:
    forms = [
        Form(
            f"new-{slug}" if len(counts) == 1 else f"new-{slug}-{seats}",
            "sessions.new_session",
            "POST",
            lambda _w, s=slug: f"/new/{s}",
            new_session_form(slug, seats),
        )
        for slug, counts in NEW_SESSION_SEATS.items()
        for seats in counts
    ]
    # A score sheet's round is corrected by typing it again (its event 1 is a round).
    forms.append(
        Form(
            "correct-score-sheet",
            "play.correct",
            "POST",
            lambda w: f"/s/{w.session('score-sheet').id}/events/1/correct",
            lambda w: keyed(w, "score-sheet", type="round", **{"points-0": "4"}),
            also=("negative-0",),
        )
    )
    forms += [
        Form(
            "new-deck",
            "decks.deck_list",
            "POST",
            lambda _w: "/decks",
            lambda _w: {"form_key": secrets.token_urlsafe(8), "name": "Our deck"},
        ),
        Form(
            "edit-deck",
            "decks.deck_page",
            "POST",
            lambda w: f"/decks/{w.profile}",
            lambda _w: {
                "form_key": secrets.token_urlsafe(8),
                "name": "Our deck",
                **{f"size-{card}": "" for card in YADOKARICK.cards()},
                "size-green 25": "3",
                "size-pink 7": "12",
            },
        ),
        Form(
            "deck-page",
            "decks.deck_page",
            "GET",
            lambda w: f"/decks/{w.profile}",
            lambda _w: {"saved": "1"},
        ),
    ]
    forms += [
        Form(
            "new-group",
            "groups.new_group",
            "POST",
            lambda _w: "/groups/new",
            lambda _w: {"form_key": secrets.token_urlsafe(8), "name": "Ours", "player": FOUR},
        ),
        Form(
            "group-add-player",
            "groups.players",
            "POST",
            lambda w: f"/g/{w.group}/players",
            lambda _w: {
                "form_key": secrets.token_urlsafe(8),
                "do": "add",
                "name": "Eve",
                "colour": "#d62728",
                "emoji": "🦊",
            },
        ),
        Form(
            "group-change-player",
            "groups.players",
            "POST",
            lambda w: f"/g/{w.group}/players",
            lambda w: {
                "form_key": secrets.token_urlsafe(8),
                "do": "change",
                "player": str(w.players[1]),
                "name": "Bo",
                "colour": "",
                "emoji": "",
            },
        ),
        Form(
            "group-new-deck",
            "groups.new_deck",
            "POST",
            lambda w: f"/g/{w.group}/decks",
            lambda _w: {"form_key": secrets.token_urlsafe(8), "game": "yadokarick", "name": "Ours"},
        ),
        Form(
            "group-play",
            "groups.play",
            "POST",
            lambda w: f"/g/{w.group}/play/yardkle",
            lambda w: {
                "form_key": secrets.token_urlsafe(8),
                "seat": [str(w.players[0]), str(w.players[2])],
                "start": "1",
                "option_entry_threshold": "500",
                "option_winning_score": "10000",
            },
            also=("tap", "untap"),
        ),
    ]
    forms += [
        Form(
            f"group-stats-{where}",
            endpoint,
            "GET",
            lambda w, p=path: p.format(group=w.group),
            lambda w: {"first": str(w.players[0]), "second": str(w.players[2])},
        )
        for where, endpoint, path in (
            ("page", "groups.group_stats", "/g/{group}/stats"),
            ("api", "api.read_group_stats", "/api/v1/groups/{group}/stats"),
        )
    ]
    # The pages of a session's past, each asked by its number.
    forms += [
        Form(
            f"session-{past}",
            f"api.session_{past}",
            "GET",
            lambda w, p=past: f"/api/v1/sessions/{w.session('yardkle').id}/{p}",
            lambda _w: {"page": "1"},
        )
        for past in ("history", "rounds")
    ]
    forms.append(
        Form(
            "forget",
            "sessions.forget",
            "POST",
            lambda w: f"/forget/{w.session('yardkle').id}",
            lambda _w: {},
            # The form's only field (the suite runs with CSRF checks off).
            also=("csrf_token",),
        )
    )
    forms.append(
        Form(
            "import-paste",
            "export.import_session",
            "POST",
            lambda _w: "/import",
            lambda w: {
                "form_key": secrets.token_urlsafe(8),
                "text": json.dumps(w.export("yardkle")),
            },
        )
    )
    forms.append(
        Form(
            "group-import-paste",
            "groups.import_group",
            "POST",
            lambda _w: "/groups/import",
            lambda w: {"form_key": secrets.token_urlsafe(8), "text": json.dumps(group_file(w))},
        )
    )
    judge_steps = ("set_players", "set_trump", "pending", "drop", "resize", "size")
    forms += [
        Form(
            f"judge-{slug}-{query['players']}",
            "judge.judge",
            "GET",
            lambda _w, s=slug: f"/judge/{s}",
            lambda _w, q=query: q,
            also=judge_steps,
        )
        for slug, query in JUDGE_QUERIES
    ]
    return forms


# The trick judge's page of every game that has one, each with a trick under way.
JUDGE_QUERIES: list[tuple[str, dict[str, Any]]] = [
    (
        "yokai-septet",
        {"players": "4", "trump": "red", "play": ["green 3", "red 8"], "add": "red 9"},
    ),
    (
        "cryptruck",
        {"players": "3", "trump": "green", "play": ["red 2", "white 3"], "add": "red 4"},
    ),
    (
        "yadokarick",
        {"players": "3", "play": ["green 5", "green 9"], "add": "green 2"},
    ),
    (
        "yadokarick",
        {
            "players": "4",
            "play": ["green 5/3", "pink 7/2"],
            "name": ["Ann", "Bo", "Cy"],
            "add": "green 9",
            "size": ["4"],
        },
    ),
]


def group_file(w: Any) -> dict[str, Any]:
    """A group file: two players, and a session of the world's whose first seat is one."""
    session = w.export("yardkle")
    seats = [{**seat, "player": 0 if seat["position"] == 0 else None} for seat in session["seats"]]
    return {
        "format": "tabletop-scorekeeper/group",
        "format_version": 1,
        "name": "Ours",
        "players": [
            {"number": 0, "name": "Ann", "colour": "#d62728", "emoji": "🦊"},
            {"number": 1, "name": "Zed", "colour": "", "emoji": ""},
        ],
        "sessions": [{**session, "seats": seats}],
    }


FORMS = session_forms() + other_forms()


@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.name)
@FUZZ
@given(data=st.data())
def test_any_form_field_or_query_argument_is_answered_with_a_sentence(
    world: World, form: Form, data: st.DataObject
) -> None:
    sent = form.fields(world)
    places: list[Path] = [(name,) for name in sorted({*sent, *form.also})]
    for _ in range(data.draw(EDITS, label="edits")):
        sent = draw_edit(data, sent, places, form_values)
    assert_answered_with_a_sentence(form.send(world, sent))


# The JSON API: every property of every documented request body, nested ones too.


def schema_name(slug: str, kind: str) -> str:
    return "".join(word.title() for word in slug.split("-")) + kind


def example(schema: dict[str, Any], document: dict[str, Any]) -> Any:
    """A value of ``schema`` with every property it documents (optional ones too)."""
    if "$ref" in schema:
        return example(at(document, tuple(schema["$ref"].split("/")[1:])), document)
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    for key in ("enum", "examples", "anyOf", "oneOf"):
        if key in schema:
            first = schema[key][0]
            return example(first, document) if key in ("anyOf", "oneOf") else first
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: example(sub, document) for name, sub in properties.items()}
    if kind == "array":
        return [example(schema["items"], document)] * max(1, schema.get("minItems", 1))
    if kind == "integer":
        return schema.get("minimum", 0)
    return {"boolean": False, "string": "Ann"}.get(kind)


def event_bodies(world: World, variant: str) -> dict[str, Any]:
    """An event of each documented action of the variant's game, every property filled in."""
    slug = VARIANTS[variant].game
    schema = world.openapi["components"]["schemas"][schema_name(slug, "Action")]
    version = world.version(variant)
    return {
        branch["title"]: {
            "version": version,
            "request_key": secrets.token_urlsafe(8),
            "action": example(branch, world.openapi),
        }
        for branch in schema["oneOf"]
    }


def new_session_body(world: World, variant: str) -> dict[str, Any]:
    slug, seats = VARIANTS[variant].game, VARIANTS[variant].seats
    schemas = world.openapi["components"]["schemas"]
    body = {
        "game": slug,
        "seats": seats,
        "options": example(schemas[schema_name(slug, "Options")], world.openapi),
    }
    if variant == "yadokarick-4":
        body["deck_profile"] = world.profile
    elif slug == "yadokarick":
        body["new_deck_name"] = "Table deck"
    return body


# Distinct cards, so that a right request reaches the ruling.
REALISTIC_BODIES: dict[str, dict[str, Any]] = {
    "/api/v1/judge/yokai-septet": {"plays": ["green 3", "red 8", "red 9", "blue 10"]},
    "/api/v1/judge/cryptruck": {"plays": ["red 2", "white 3", "red 4"]},
    "/api/v1/judge/yadokarick": {
        "plays": [
            {"card": "green 5", "size": 3},
            {"card": "pink 7", "size": 2},
            {"card": "green 9", "size": 4},
            {"card": "pink 2", "size": 3},
        ]
    },
    "/api/v1/judge/yellow-dwarf/settle": {
        "winner": 0,
        "trays": {"10D": 1, "JC": 2, "QS": 3, "KH": 4, "7D": 5},
        "hands": [[], ["10D", "3S"], ["KH"]],
        "forgot": [{"player": 1, "card": "QS"}],
    },
    "/api/v1/yardkle/score": {"dice": [1, 5, 5, 2, 3, 4], "keep": [1, 5]},
}


def documented_body(world: World, path: str) -> dict[str, Any]:
    """The body the OpenAPI document describes for ``path``, every property filled in."""
    operation = world.openapi["paths"][path.removeprefix("/api/v1")]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    body: dict[str, Any] = example(schema, world.openapi)
    return body


@dataclass(frozen=True)
class JsonRequest:
    name: str
    endpoint: str
    path: Callable[[World], str]
    # Right bodies by name; each example fuzzes one of them.
    bodies: Callable[[World], dict[str, Any]]
    # The session whose edit key the request carries, if it writes into one.
    writes_to: str | None = None
    # Else the key it carries as a Bearer token (a group's), if any.
    key_of: Callable[[World], str] | None = None
    # Also sent to the import page, as a file and as pasted text.
    importable: bool = False

    def send(self, world: World, body: Any, headers: dict[str, str], how: str) -> TestResponse:
        form_key = secrets.token_urlsafe(8)
        if how == "upload":
            upload = (io.BytesIO(json_bytes(body)), "session.json")
            return world.client.post("/import", data={"form_key": form_key, "file": upload})
        if how == "paste":
            return world.client.post(
                "/import",
                data=urlencoded({"form_key": form_key, "text": json.dumps(body)}),
                content_type="application/x-www-form-urlencoded",
            )
        return world.client.post(
            self.path(world),
            data=json_bytes(body),
            content_type="application/json",
            headers=headers,
        )


def session_requests(variant: str) -> list[JsonRequest]:
    def session_path(suffix: str) -> Callable[[World], str]:
        return lambda w: f"/api/v1/sessions/{w.session(variant).id}/{suffix}"

    def version_body(world: World) -> dict[str, Any]:
        return {"": {"version": world.version(variant), "request_key": secrets.token_urlsafe(8)}}

    return [
        JsonRequest(
            f"api-new-{variant}",
            "api.create_session",
            lambda _w: "/api/v1/sessions",
            lambda w: {"": new_session_body(w, variant)},
        ),
        JsonRequest(
            f"import-{variant}",
            "api.import_session",
            lambda _w: "/api/v1/sessions/import",
            lambda w: {"": w.export(variant)},
            importable=True,
        ),
        JsonRequest(
            f"api-event-{variant}",
            "api.append_event",
            session_path("events"),
            lambda w: event_bodies(w, variant),
            writes_to=variant,
        ),
        JsonRequest(f"api-undo-{variant}", "api.undo", session_path("undo"), version_body, variant),
        JsonRequest(f"api-redo-{variant}", "api.redo", session_path("redo"), version_body, variant),
        JsonRequest(
            f"api-rematch-{variant}",
            "api.rematch",
            session_path("rematch"),
            lambda _w: {"": {"request_key": secrets.token_urlsafe(8)}},
            variant,
        ),
    ]


def documented_request(url: str, endpoint: str) -> JsonRequest:
    return JsonRequest(
        "api-" + url.removeprefix("/api/v1/").replace("/", "-"),
        endpoint,
        lambda _w: url,
        lambda w: {"": documented_body(w, url) | REALISTIC_BODIES[url]},
    )


JSON_REQUESTS = [request for variant in VARIANTS for request in session_requests(variant)] + [
    documented_request("/api/v1/judge/yokai-septet", "api.judge_yokai_septet"),
    documented_request("/api/v1/judge/cryptruck", "api.judge_cryptruck"),
    documented_request("/api/v1/judge/yadokarick", "api.judge_yadokarick"),
    documented_request("/api/v1/judge/yellow-dwarf/settle", "api.judge_yellow_dwarf_settle"),
    documented_request("/api/v1/yardkle/score", "api.yardkle_score"),
    JsonRequest(
        "api-new-group",
        "api.create_group",
        lambda _w: "/api/v1/groups",
        lambda _w: {"": {"name": "Friday", "players": FOUR}},
    ),
    JsonRequest(
        "api-import-group",
        "api.import_group",
        lambda _w: "/api/v1/groups/import",
        lambda w: {"": group_file(w)},
    ),
    JsonRequest(
        "api-add-player",
        "api.add_player",
        lambda w: f"/api/v1/groups/{w.group}/players",
        lambda _w: {"": {"name": "Eve", "colour": "#d62728", "emoji": "🦊"}},
        key_of=lambda w: w.group_key,
    ),
    JsonRequest(
        "api-new-group-session",
        "api.create_session",
        lambda _w: "/api/v1/sessions",
        lambda w: {"": {"game": "yardkle", "group": w.group, "players": w.players[:2]}},
        key_of=lambda w: w.group_key,
    ),
]


def edit_key_headers(key: str) -> st.SearchStrategy[dict[str, str]]:
    """The right edit key most of the time (the body is fuzzed); else any Authorization."""
    right = st.just({"Authorization": f"Bearer {key}"})
    fuzzed = (texts.map("Bearer {}".format) | texts).map(
        lambda text: {"Authorization": header_value(text)}
    )
    return st.one_of(right, right, right, fuzzed)


@pytest.mark.parametrize("request_", JSON_REQUESTS, ids=lambda request_: request_.name)
@FUZZ
@given(data=st.data())
def test_any_json_property_or_edit_key_is_answered_with_a_sentence(
    world: World, request_: JsonRequest, data: st.DataObject
) -> None:
    bodies = request_.bodies(world)
    body = bodies[data.draw(st.sampled_from(sorted(bodies)), label="body")]
    headers: dict[str, str] = {}
    if request_.writes_to is not None:
        headers = data.draw(edit_key_headers(world.session(request_.writes_to).key))
    elif request_.key_of is not None:
        headers = data.draw(edit_key_headers(request_.key_of(world)))
    sent = body
    for _ in range(data.draw(EDITS, label="edits")):
        sent = draw_edit(data, sent, json_places(sent), json_values_for)
    how = data.draw(st.sampled_from(["api", "upload", "paste"] if request_.importable else ["api"]))
    assert_answered_with_a_sentence(request_.send(world, sent, headers, how))


# Every route, with real ids (a session of each game, its key, a card event, a deck
# profile) or any text in their place, by GET and by POST, with any query arguments.


def real_segment(world: World, endpoint: str, name: str, variant: str) -> str:
    """The right value of a path segment: the variant's session, its key, its card event;
    the deck profile and its key; the variant's game; a static file."""
    if name == "session_id":
        return world.session(variant).id
    if name == "key" and endpoint.startswith("decks."):
        return world.profile_key
    if name == "key" and endpoint.startswith("groups."):
        return world.group_key
    if name == "group_id":
        return world.group
    if name == "player_id":
        return str(world.players[-1])
    if name == "key":
        return world.session(variant).key
    if name == "seq":
        return str(world.session(variant).card_seq)
    if name == "profile_id":
        return world.profile
    if name == "slug":
        return VARIANTS[variant].game
    if name == "code":
        return "fr"
    assert name == "filename", f"give the new path segment <{name}> a right value here"
    return "app.css"


ENDPOINTS = [
    "static",
    "sessions.home",
    "sessions.choose_game",
    "sessions.new_session",
    "sessions.session_page",
    "sessions.history",
    "sessions.results",
    "sessions.share",
    "sessions.join",
    "sessions.forget",
    "sessions.rematch",
    "sessions.remove",
    "play.action",
    "play.undo",
    "play.redo",
    "play.correction_form",
    "play.correct",
    "export.export_csv",
    "export.export_grid_csv",
    "export.export_json",
    "export.import_session",
    "judge.choose",
    "judge.judge",
    "decks.deck_list",
    "decks.deck_page",
    "decks.join",
    "groups.new_group",
    "groups.group_page",
    "groups.group_stats",
    "groups.share",
    "groups.join",
    "groups.players",
    "groups.choose_game",
    "groups.play",
    "groups.new_deck",
    "groups.export_json",
    "groups.export_csv",
    "groups.import_group",
    "api.create_session",
    "api.import_session",
    "api.read_session",
    "api.session_version",
    "api.session_history",
    "api.session_rounds",
    "api.append_event",
    "api.undo",
    "api.rematch",
    "api.redo",
    "api.export_session",
    "api.export_session_csv",
    "api.export_session_grid_csv",
    "api.judge_yokai_septet",
    "api.judge_cryptruck",
    "api.judge_yadokarick",
    "api.judge_yellow_dwarf_settle",
    "api.yardkle_score",
    "api.create_group",
    "api.read_group",
    "api.read_group_stats",
    "api.add_player",
    "api.change_player",
    "api.remove_player",
    "api.export_group",
    "api.export_group_csv",
    "api.import_group",
    "api.openapi",
    "language.switch",
]


def test_every_route_is_fuzzed(app: Flask) -> None:
    routes = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert sorted(routes) == sorted(ENDPOINTS)
    # A route that takes a form or a JSON body has its fields fuzzed too.
    posted = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    fuzzed = {form.endpoint for form in FORMS if form.method == "POST"}
    fuzzed |= {request_.endpoint for request_ in JSON_REQUESTS}
    assert sorted(posted - fuzzed) == []


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@FUZZ
@given(data=st.data())
def test_any_path_segment_is_answered_with_a_sentence(
    app: Flask, world: World, endpoint: str, data: st.DataObject
) -> None:
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint]
    rule = data.draw(st.sampled_from(rules), label="rule")
    variant = data.draw(st.sampled_from(sorted(VARIANTS)), label="session")
    segments = {}
    for name in sorted(rule.arguments):
        real = real_segment(world, endpoint, name, variant)
        segments[name] = data.draw(st.just(real) | fuzzed_like(real), label=name)
    path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", lambda m: percent(segments[m.group(1)]), rule.rule)
    method = data.draw(st.sampled_from(["GET", "POST"]), label="method")
    query = data.draw(st.dictionaries(texts, texts, max_size=2), label="query")
    response = world.client.open(path, method=method, query_string=urlencoded(query))
    assert_answered_with_a_sentence(response)
