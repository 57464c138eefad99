"""The rules of every game the app keeps, one pure module per game."""

from __future__ import annotations

from scorekeeper.games import (
    cryptruck,
    score_sheet,
    yadokarick,
    yardkle,
    yellow_dwarf,
    yokai_septet,
)
from scorekeeper.games.base import Game, IllegalAction

GAMES: dict[str, Game] = {
    game.slug: game
    for game in (
        yardkle.GAME,
        yokai_septet.GAME,
        cryptruck.GAME,
        yadokarick.GAME,
        yellow_dwarf.GAME,
        score_sheet.GAME,
    )
}


def get_game(slug: object) -> Game:
    """The game called ``slug``, or IllegalAction naming the field "game"."""
    if isinstance(slug, str) and slug in GAMES:
        return GAMES[slug]
    known = ", ".join(GAMES)
    raise IllegalAction(f"Unknown game {slug!r}: choose one of {known}.", "game")
