"""Yadokarick: the rules engine, and the web adapter in ``web``."""

from scorekeeper.games.yadokarick.rules import GAME

__all__ = ["GAME"]
