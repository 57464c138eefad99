"""Yokai Septet: the rules engine, and the web adapter in ``web``."""

from scorekeeper.games.yokai_septet.rules import GAME

__all__ = ["GAME"]
