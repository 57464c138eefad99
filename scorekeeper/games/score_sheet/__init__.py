"""Score sheet: a plain sheet of numbers for any game the table plays (rules in ``rules``)."""

from __future__ import annotations

from scorekeeper.games.score_sheet.rules import GAME

__all__ = ["GAME"]
