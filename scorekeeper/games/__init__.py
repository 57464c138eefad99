"""The games the app keeps, each a package of its own, listed once here.

A game's package holds its rules engine in ``rules`` (``GAME``, pure Python: a
subclass of ``engine.Engine`` that declares the game's facts, its actions with
one handler each and the kinds of value its ``expected`` lists, and writes its
rules), its deck and trick rule where it has them (``cards``), and its web
adapter (``web.ADAPTER``, see ``scorekeeper.games.web_interface``). Its
``__init__`` exports ``GAME``. Nothing outside a game's package names it: the
registry below is the one line a new game adds.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.engine import Game, Listed
from scorekeeper.games.words import each_of, phrase

# The registry: one line per game, in the order the app lists them.
PACKAGES = (
    "yardkle",
    "yokai_septet",
    "cryptruck",
    "yadokarick",
    "yellow_dwarf",
    "score_sheet",
)

GAMES: dict[str, Game] = {}
# Each listed game's package by its slug ("yellow-dwarf" lives in yellow_dwarf).
PACKAGE_OF: dict[str, str] = {}
# Each game's web module (the one holding its ``ADAPTER``) by its slug.
WEB_MODULE_OF: dict[str, str] = {}

UNKNOWN_GAME = phrase("game.unknown", "Unknown game {slug}: choose one of {known}.")


def register(game: Game, web_module: str) -> None:
    """Add ``game`` to the registry, after those listed; ``web_module`` names the module
    holding its web adapter. A game kept outside this package (a test's own) comes in here."""
    if game.slug in GAMES:
        raise ValueError(f"a game called {game.slug!r} is registered already")
    GAMES[game.slug] = game
    WEB_MODULE_OF[game.slug] = web_module


def unregister(slug: str) -> None:
    """Take the game called ``slug`` out of the registry."""
    del GAMES[slug], WEB_MODULE_OF[slug]
    PACKAGE_OF.pop(slug, None)


for _package in PACKAGES:
    _game: Game = import_module(f"{__name__}.{_package}").GAME
    register(_game, f"{__name__}.{_package}.web")
    PACKAGE_OF[_game.slug] = _package


def merge_listed(games: Iterable[Game]) -> dict[str, Listed]:
    """The kinds of value ``games`` list in ``expected``, by name, in their order: one name
    is one kind of value across games (the API document says it once), so a name declared
    otherwise by two games is an error."""
    merged: dict[str, Listed] = {}
    for game in games:
        for kind in game.listed:
            known = merged.setdefault(kind.name, kind)
            if known != kind:
                raise TypeError(
                    f"{game.slug} declares the listed values {kind.name!r} otherwise than "
                    f"another game: {kind} is not {known}"
                )
    return merged


# Two games declaring one name otherwise fail the import, not the first request.
merge_listed(GAMES.values())


def listed_values() -> dict[str, Listed]:
    """Every kind of value a game lists in ``expected``, by name: the registered games'
    ``listed`` declarations merged in registry order."""
    return merge_listed(GAMES.values())


def get_game(slug: object) -> Game:
    """The game called ``slug``, or IllegalAction naming the field "game"."""
    if isinstance(slug, str) and slug in GAMES:
        return GAMES[slug]
    raise IllegalAction(UNKNOWN_GAME(slug=repr(slug), known=each_of(GAMES)), "game")
