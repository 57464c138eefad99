"""No English left on a French or Japanese page: every page of every game, read through a
pseudo-catalog that writes each translated string in look-alike letters ("Ŧĥē ğāɱē īś
ōṽēŕ."), shows no word in plain letters but the players' own names and the few words
every language writes alike. An English word inside a translated sentence (a value read
in English) shows as plainly as an untranslated sentence."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from conftest import make_app, played_to_the_end
from flask import Flask
from flask.testing import FlaskClient
from page_player import WALKS
from test_fuzz import JUDGE_QUERIES

import scorekeeper

TEMPLATE = Path(scorekeeper.__file__).resolve().parent / "translations" / "messages.pot"
# Each plain letter's look-alike, outside the range of the words a page is searched for.
LOOK_ALIKE = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "āƀċďēƒğħīĵķļɱńōƥǫŕśŧūṽŵẋŷžĀƁĊĎĒƑĞĦĪĴĶĻMŃŌƤǪŔŚŦŪṼŴẊŶŽ",
)
# What a translation keeps as it is: a value ({name}, %(name)s), a tag, an entity.
KEPT = re.compile(r"\{[^}]*\}|%\([a-z_]+\)[sd]|%%|<[^>]*>|&[a-z]+;")
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# What a page may write in plain letters in any language: the players' names (the walks'
# and their teams'), the app's name and technical names, and the words Babel's French
# locale data joins a list with and names a month with in a date ("5 déc. 2026"; the
# pseudo-catalog stands in for French's).
ALIKE = frozenset(
    {
        *("Ann", "Bo", "Cy", "Di", "Tabletop", "Scorekeeper", "English", "Français"),
        *("QR", "CSV", "JSON", "API", "NPC", "PUBLIC_URL", "TRUSTED_HOSTS", "make", "run"),
        *("HOST", "UTC", "et", "ou"),
        *WORD.findall(" ".join(Locale("fr").months["format"]["abbreviated"].values())),
    }
)


def look_alike(english: str) -> str:
    """``english`` in look-alike letters, its values, tags and entities kept."""
    kept = [(found.start(), found.end()) for found in KEPT.finditer(english)]
    written, at = [], 0
    for start, end in kept:
        written.append(english[at:start].translate(LOOK_ALIKE))
        written.append(english[start:end])
        at = end
    written.append(english[at:].translate(LOOK_ALIKE))
    return "".join(written)


@pytest.fixture(scope="module")
def pseudo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A catalog whose every entry is its English in look-alike letters, as French's."""
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    catalog = Catalog(locale="fr")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, str):
            string: str | tuple[str, ...] = look_alike(message.id)
        else:
            plural = look_alike(message.id[1])
            string = (look_alike(message.id[0]), plural, plural)
        catalog.add(message.id, string, context=message.context, flags=message.flags)
    folder = tmp_path_factory.mktemp("pseudo")
    compiled = folder / "fr" / "LC_MESSAGES" / "messages.mo"
    compiled.parent.mkdir(parents=True)
    with compiled.open("wb") as mo:
        write_mo(mo, catalog)
    return folder


@pytest.fixture
def pseudo_client(database_url: str, pseudo_folder: Path) -> FlaskClient:
    app: Flask = make_app(database_url, BABEL_TRANSLATION_DIRECTORIES=str(pseudo_folder))
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    return client


class _Read(HTMLParser):
    """The words a reader sees or hears: text outside scripts and styles, and the
    attributes read aloud or shown (alt, title, aria-label, placeholder, a submit input's
    value; a button's value is what it sends, not what it shows)."""

    SPOKEN = ("alt", "title", "aria-label", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg"):
            self._hidden += 1
        for name, value in attrs:
            shown = name == "value" and tag == "input" and ("type", "submit") in attrs
            if value and (name in self.SPOKEN or shown):
                self.words.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.append(data)


def english_left(html: str) -> dict[str, str]:
    """The words of a page in plain letters, each with the text around its first
    appearance."""
    reader = _Read()
    reader.feed(html)
    # Addresses (a share link, a join link) are the same in every language.
    text = re.sub(r"https?://\S+", " ", "\n".join(reader.words))
    left: dict[str, str] = {}
    for found in WORD.finditer(text):
        if found[0] not in ALIKE:
            around = text[max(0, found.start() - 30) : found.end() + 30]
            left.setdefault(found[0], " ".join(around.split()))
    return left


@pytest.mark.parametrize("game", sorted(WALKS))
def test_no_english_is_left_on_any_page_of_a_game_read_in_another_language(
    pseudo_client: FlaskClient, game: str
) -> None:
    left: dict[str, str] = {}

    def read(html: str) -> None:
        for word, around in english_left(html).items():
            left.setdefault(word, around)

    session_id = played_to_the_end(pseudo_client, game, read)
    for page in ("", "/history", "/results", "/share"):
        read(pseudo_client.get(f"/s/{session_id}{page}").get_data(as_text=True))
    slug = WALKS[game][0]
    read(pseudo_client.get(f"/new/{slug}").get_data(as_text=True))
    assert left == {}, "\n".join(f"{word}: {around}" for word, around in sorted(left.items()))


@pytest.mark.parametrize(
    "path", ["/", "/new", "/judge/", "/import", "/decks", "/no-such-page", "/groups/new"]
)
def test_no_english_is_left_on_the_pages_beside_the_games(
    pseudo_client: FlaskClient, path: str
) -> None:
    assert english_left(pseudo_client.get(path).get_data(as_text=True)) == {}


@pytest.mark.parametrize(("slug", "query"), JUDGE_QUERIES, ids=[slug for slug, _ in JUDGE_QUERIES])
def test_no_english_is_left_on_a_judge_page_with_a_trick_under_way(
    pseudo_client: FlaskClient, slug: str, query: dict[str, Any]
) -> None:
    for asked in ({}, query):
        page = pseudo_client.get(f"/judge/{slug}", query_string=asked)
        assert english_left(page.get_data(as_text=True)) == {}


def test_no_english_is_left_on_a_group_s_pages(
    pseudo_client: FlaskClient, yardkle_in_a_group: str
) -> None:
    group = yardkle_in_a_group
    for page in ("", "/stats", "/players", "/share", "/play", "/play/yardkle"):
        html = pseudo_client.get(f"/g/{group}{page}").get_data(as_text=True)
        assert english_left(html) == {}, page


@pytest.fixture
def yardkle_in_a_group(pseudo_client: FlaskClient) -> str:
    """A group of the walks' players with a Yardkle game started, joined by this phone."""
    made = pseudo_client.post(
        "/api/v1/groups", json={"name": "Ann", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    assert pseudo_client.get(made["links"]["join"]).status_code == 303
    started = pseudo_client.post(
        "/api/v1/sessions",
        json={
            "game": "yardkle",
            "group": made["id"],
            "players": [player["id"] for player in made["players"][:2]],
        },
        headers={"Authorization": f"Bearer {made['edit_key']}"},
    )
    assert started.status_code == 201, started.get_json()
    return str(made["id"])
