"""Yellow Dwarf: the rules engine, and the web adapter in ``web``."""

from scorekeeper.games.yellow_dwarf.rules import GAME

__all__ = ["GAME"]
