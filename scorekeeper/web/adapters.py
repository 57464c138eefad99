"""Every game's web side, loaded from the registry.

Each game's package has a ``web`` module whose ``ADAPTER`` (a
``scorekeeper.games.web_interface.GameAdapter``) says what the shared pages and the
API need to know of the game. The shared views loop over these and never name a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module

from scorekeeper.games import GAMES, PACKAGE_OF
from scorekeeper.games.web_interface import GameAdapter, TrickJudge


@cache
def adapters() -> Mapping[str, GameAdapter]:
    """Every game's adapter by slug, loaded on first use."""
    loaded: dict[str, GameAdapter] = {}
    for slug in GAMES:
        module = import_module(f"scorekeeper.games.{PACKAGE_OF[slug]}.web")
        loaded[slug] = module.ADAPTER
    return loaded


def adapter(slug: str) -> GameAdapter:
    return adapters()[slug]


def trick_judges() -> dict[str, TrickJudge]:
    """The games the judge rules tricks of, by slug, in the registry's order."""
    return {slug: game.judge for slug, game in adapters().items() if game.judge is not None}
