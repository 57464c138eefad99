"""Yardkle: the rules engine, and the web adapter in ``web``."""

from scorekeeper.games.yardkle.rules import GAME

__all__ = ["GAME"]
