"""A group's leaderboard: one row a player over every game (played, won, win rate, average
place, rating and its latest movement), sorted by the column asked for. The counts are
the statistics' (scorekeeper/group_figures.py), the places and ratings those the writes
kept (scorekeeper/ratings.py): nothing is counted again here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper import ratings, stats
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.words import Text, phrase


@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    played: int
    won: int
    win_rate: float
    average_place: float  # 1 the best
    rating: float
    moved: float  # the rating's movement with the player's latest game


@dataclass(frozen=True)
class Column:
    key: str  # as ``?sort=`` names it
    title: Text  # read in the page's language
    highest_first: bool
    value: Callable[[Standing], float | str]


PLAYER = phrase("web.stats.player", "Player")
PLAYED = phrase("web.stats.played", "Played")
WON = phrase("web.stats.won", "Won")
WIN_RATE = phrase("web.stats.win-rate", "Win rate")
AVERAGE_PLACE = phrase("web.stats.average-place", "Avg. place")
RATING = phrase("web.stats.rating", "Rating")
SORT_BY_ONE_OF = phrase("web.stats.sort-by-one-of", "Sort the leaderboard by one of: {keys}.")

COLUMNS = (
    Column("name", PLAYER(), False, lambda s: s.name.casefold()),
    Column("played", PLAYED(), True, lambda s: s.played),
    Column("won", WON(), True, lambda s: s.won),
    Column("win_rate", WIN_RATE(), True, lambda s: s.win_rate),
    Column("average_place", AVERAGE_PLACE(), False, lambda s: s.average_place),
    Column("rating", RATING(), True, lambda s: s.rating),
)
SORTED_BY = {column.key: column for column in COLUMNS}
# The board opens with the best rated first.
FIRST_SORT = "rating"


@dataclass(frozen=True)
class Leaderboard:
    sort: Column
    standings: tuple[Standing, ...]
    # Each game's ratings by player (as in stats.GameRecord: slug, lower is better).
    games: ratings.Board
    # The players (by id) in the order of each column's sort, by its key: the page's
    # script sorts the table in place in the order the server would.
    orders: dict[str, tuple[str, ...]]
    columns: tuple[Column, ...] = COLUMNS  # in the order shown

    @property
    def sorted_first(self) -> bool:
        """Sorted as the board opens (no ``?sort=`` needed)."""
        return self.sort.key == FIRST_SORT


def sort_asked(raw: str | None) -> Column:
    """The column ``?sort=`` names (none: the rating), or IllegalAction naming the field."""
    column = SORTED_BY.get(raw or FIRST_SORT)
    if column is None:
        # The keys as the address writes them (not words to translate).
        raise IllegalAction(SORT_BY_ONE_OF(keys=", ".join(SORTED_BY)), "sort")
    return column


def leaderboard(counted: stats.Stats, board: ratings.Board, sort: Column) -> Leaderboard:
    """The players of ``counted`` with their kept ratings, sorted by ``sort`` (ties: the
    better rated first, then by name)."""
    overall = board.get(ratings.ALL_GAMES, {})
    standings = []
    for record in counted.players:
        skill = overall[record.player]
        standings.append(
            Standing(
                record.player,
                record.name,
                record.played,
                record.won,
                record.win_rate,
                skill.average_place,
                skill.rating,
                skill.moved,
            )
        )
    standings.sort(key=lambda s: (-s.rating, s.name.casefold(), s.player))
    orders = {
        # Stable: ties keep the order by rating.
        column.key: tuple(
            s.player for s in sorted(standings, key=column.value, reverse=column.highest_first)
        )
        for column in COLUMNS
    }
    by_player = {s.player: s for s in standings}
    return Leaderboard(sort, tuple(by_player[p] for p in orders[sort.key]), board, orders)
