"""Cryptruck: the rules engine, and the web adapter in ``web``."""

from scorekeeper.games.cryptruck.rules import GAME

__all__ = ["GAME"]
