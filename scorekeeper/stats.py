"""A group's statistics: the figures' shapes and the rules they are counted by (the
database counts them: scorekeeper/group_figures.py).

How things count:

- Only finished sessions count, each as the write that ended it recorded its seats
  (scorekeeper/read_model.py).
- A game is **won** by every seat the engine names a winner. When it names several (a
  tie the rules let stand, or a Yokai Septet team), each of them counts the game as
  won: shared wins count for each winner, so the wins of a group can add up to more
  than its games. A head to head says how many of the games both played they shared.
- The **win rate** is games won over games played.
- **Average** and **best** scores are per game only: scores of different games do not
  add up. Best follows the game: the lowest score where lower is better (a score
  sheet set to "lowest wins", counted as a game of its own beside the highest-wins
  one), else the highest.
- A seat with no group player (its key "") is in no player's figures.
- **Wins over time** is each player's count of wins so far, on each day a game ended; once
  games ended on more than ``MOST_WIN_POINTS`` days, at the last such day of each week
  (from Monday), else of each month, else of each year: the finest step that needs at
  most that many points (a phone's chart draws no more), so a club's years of games are
  as many points as one season's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, TypeVar

from babel import Locale
from babel.dates import format_skeleton

from scorekeeper import charts
from scorekeeper.games.words import Text, phrase


@dataclass(frozen=True)
class PlayerRecord:
    """One player's figures over some games."""

    player: str
    name: str
    played: int
    won: int
    last_played: datetime

    @property
    def win_rate(self) -> float:
        return self.won / self.played


@dataclass(frozen=True)
class GamePlayerRecord(PlayerRecord):
    """One player's figures in one game, with their scores' average and best: scores of
    different games do not add up, so only a game's records have them."""

    average: float
    best: int


Record = TypeVar("Record", bound=PlayerRecord)


@dataclass(frozen=True)
class GameRecord:
    """One game's sessions and the figures of every player who played it."""

    game: str
    title: str
    lower_is_better: bool
    played: int
    last_played: datetime
    players: tuple[GamePlayerRecord, ...]


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the games both played: who won, who shared a win, who neither."""

    first: str
    second: str
    first_name: str
    second_name: str
    played: int
    first_won: int  # won by the first and not the second
    second_won: int
    shared: int  # won by both
    neither: int  # won by someone else


# The steps of the wins chart, finest first, and the most points it takes a step to.
WinStep = Literal["day", "week", "month", "year"]
WIN_STEPS: tuple[WinStep, ...] = ("day", "week", "month", "year")
MOST_WIN_POINTS = charts.MAX_POINTS


@dataclass(frozen=True)
class Stats:
    played: int
    players: tuple[PlayerRecord, ...]  # all games, most wins first
    games: tuple[GameRecord, ...]  # most played first
    # x: the ordinal of the last day a game ended in each step, y: wins so far
    wins_over_time: tuple[charts.Series, ...]
    wins_step: WinStep = "day"


def ranked(records: Iterable[Record]) -> tuple[Record, ...]:
    """Most wins first, then the best win rate, then by name."""
    return tuple(sorted(records, key=lambda r: (-r.won, -r.win_rate, r.name.casefold(), r.player)))


def day_text(ordinal: float) -> str:
    """A day of the wins chart: "3 Nov 2026"."""
    day = date.fromordinal(round(ordinal))
    return f"{day.day} {day:%b %Y}"


def day_in_year_text(ordinal: float) -> str:
    """A day of the wins chart when all its days are in one year (the axis names it): "3 Nov"."""
    day = date.fromordinal(round(ordinal))
    return f"{day.day} {day:%b}"


def day_words(ordinal: float, locale: Locale) -> str:
    """A day of the wins chart in another language: "3 nov. 2026", "2026年11月3日"."""
    return format_skeleton("yMMMd", date.fromordinal(round(ordinal)), locale=locale)


def day_in_year_words(ordinal: float, locale: Locale) -> str:
    """A day of a one-year wins chart in another language: "3 nov.", "11月3日"."""
    return format_skeleton("MMMd", date.fromordinal(round(ordinal)), locale=locale)


# The words of the wins chart (read in the page's language).
WINS_OVER_TIME = phrase("stats.wins-over-time", "Wins over time")
WINS = phrase("stats.wins", "Wins")
STEPS = {
    "day": phrase("stats.step-day", "Day"),
    "week": phrase("stats.step-week", "Week"),
    "month": phrase("stats.step-month", "Month"),
    "year": phrase("stats.step-year", "Year"),
}
STEP_IN_YEAR = phrase("stats.step-in-year", "{step} in {year}")
# What a point is when it is not a day (a day's needs no note).
STEP_NOTES = {
    "week": phrase(
        "stats.each-point-a-week",
        "Games ended on more than {days} days: each point is a player's wins "
        "so far on the last day played in each week.",
    ),
    "month": phrase(
        "stats.each-point-a-month",
        "Games ended on more than {days} days: each point is a player's wins "
        "so far on the last day played in each month.",
    ),
    "year": phrase(
        "stats.each-point-a-year",
        "Games ended on more than {days} days: each point is a player's wins "
        "so far on the last day played in each year.",
    ),
}


def wins_chart(stats: Stats) -> charts.LineChart:
    """Each player's wins so far, in steps on the days games ended (or the last of each
    week, month or year)."""
    years = {date.fromordinal(round(x)).year for s in stats.wins_over_time for x, _ in s.points}
    one_year = len(years) == 1
    step = STEPS[stats.wins_step]()
    return charts.LineChart(
        ident="wins-chart",
        title=WINS_OVER_TIME(),
        x_label=STEP_IN_YEAR(step=step, year=min(years)) if one_year else step,
        y_label=WINS(),
        series=stats.wins_over_time,
        x_format=day_in_year_text if one_year else day_text,
        x_format_in=day_in_year_words if one_year else day_words,
        x_ticks=4,
        steps=True,
    )


def wins_step_note(stats: Stats) -> Text:
    """What a point of the wins chart is, when it is not a day: the page says it."""
    return STEP_NOTES[stats.wins_step](days=MOST_WIN_POINTS)
