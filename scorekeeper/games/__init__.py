"""The games the app keeps, each a package of its own, listed once here.

A game's package holds its rules engine (``GAME``, pure Python, see
``base.Game``) and its web adapter (``web.ADAPTER``, see
``scorekeeper.web.adapters``). Nothing outside a game's package names it.
"""

from __future__ import annotations

from importlib import import_module

from scorekeeper.games.base import Game, IllegalAction

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
# Each game's package by its slug ("yellow-dwarf" lives in yellow_dwarf).
PACKAGE_OF: dict[str, str] = {}
for _package in PACKAGES:
    _game: Game = import_module(f"{__name__}.{_package}").GAME
    GAMES[_game.slug] = _game
    PACKAGE_OF[_game.slug] = _package


def get_game(slug: object) -> Game:
    """The game called ``slug``, or IllegalAction naming the field "game"."""
    if isinstance(slug, str) and slug in GAMES:
        return GAMES[slug]
    known = ", ".join(GAMES)
    raise IllegalAction(f"Unknown game {slug!r}: choose one of {known}.", "game")
