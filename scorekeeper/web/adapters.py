"""Every game's web side, loaded from the registry.

Each game's package has a ``web`` module whose ``ADAPTER`` (a
``scorekeeper.games.web_interface.GameAdapter``) says what the shared pages and the
API need to know of the game. The shared views loop over these and never name a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module

from flask import Blueprint

from scorekeeper.games import GAMES, WEB_MODULE_OF
from scorekeeper.games.web_interface import GameAdapter, TrickJudge


@cache
def _loaded(web_module: str) -> GameAdapter:
    """A game's adapter, loaded on first use: a game's web module may import the shared
    web modules, which are all loaded by then."""
    found: GameAdapter = import_module(web_module).ADAPTER
    return found


def adapters() -> Mapping[str, GameAdapter]:
    """Every registered game's adapter by slug, in the registry's order."""
    return {slug: adapter(slug) for slug in GAMES}


def adapter(slug: str) -> GameAdapter:
    return _loaded(WEB_MODULE_OF[slug])


def trick_judges() -> dict[str, TrickJudge]:
    """The games the judge rules tricks of, by slug, in the registry's order."""
    return {slug: game.judge for slug, game in adapters().items() if game.judge is not None}


def template_blueprints() -> list[Blueprint]:
    """A blueprint for each game keeping its templates in a folder of its own: the app
    finds ``games/<slug>/...`` there as in its own templates folder."""
    return [
        Blueprint(f"templates_of_{slug}", __name__, template_folder=game.template_folder)
        for slug, game in adapters().items()
        if game.template_folder is not None
    ]
