"""A group's statistics, counted from its finished sessions (pure: no flask, no database).

How things count:

- Only finished sessions count; each is one ``Result`` (scorekeeper/results.py makes
  them from a session).
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
- **Wins over time** is each player's count of wins so far, on each day a game ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TypeVar

from scorekeeper import charts


@dataclass(frozen=True)
class Result:
    """One finished session, seat by seat."""

    session_id: str
    game: str  # the game's slug
    game_title: str
    lower_is_better: bool
    ended_at: datetime
    players: tuple[str, ...]  # per seat, the group player's key ("" for none)
    names: tuple[str, ...]  # per seat, the name played under
    scores: tuple[int, ...]  # per seat, the final score (a team's score for each partner)
    winners: frozenset[int]  # the winning seats (several when the win is shared)


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


@dataclass(frozen=True)
class Stats:
    played: int
    players: tuple[PlayerRecord, ...]  # all games, most wins first
    games: tuple[GameRecord, ...]  # most played first
    wins_over_time: tuple[charts.Series, ...]  # x: the day's ordinal, y: wins so far


@dataclass(frozen=True)
class _Seat:
    result: Result
    seat: int

    @property
    def score(self) -> int:
        return self.result.scores[self.seat]

    @property
    def won(self) -> bool:
        return self.seat in self.result.winners


def _seats_of(results: Iterable[Result]) -> dict[str, list[_Seat]]:
    """Each group player's seats, in the order the sessions ended."""
    seats: dict[str, list[_Seat]] = {}
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        for seat, player in enumerate(result.players):
            if player:
                seats.setdefault(player, []).append(_Seat(result, seat))
    return seats


def _record(player: str, seats: Sequence[_Seat]) -> PlayerRecord:
    last = seats[-1]
    return PlayerRecord(
        player=player,
        # The name of the player's latest game (a group player may have been renamed).
        name=last.result.names[last.seat],
        played=len(seats),
        won=sum(seat.won for seat in seats),
        last_played=last.result.ended_at,
    )


def _game_record(player: str, seats: Sequence[_Seat]) -> GamePlayerRecord:
    """The player's record in one game (``seats`` are all of that game)."""
    scores = [seat.score for seat in seats]
    return GamePlayerRecord(
        **vars(_record(player, seats)),
        average=sum(scores) / len(scores),
        best=min(scores) if seats[-1].result.lower_is_better else max(scores),
    )


def ranked(records: Iterable[Record]) -> tuple[Record, ...]:
    """Most wins first, then the best win rate, then by name."""
    return tuple(sorted(records, key=lambda r: (-r.won, -r.win_rate, r.name.casefold(), r.player)))


def compute(results: Sequence[Result]) -> Stats:
    """Every figure of the group page from its finished sessions' results."""
    seats = _seats_of(results)
    games: dict[tuple[str, bool], list[Result]] = {}
    for result in results:
        games.setdefault((result.game, result.lower_is_better), []).append(result)
    game_records = []
    for (game, lower), played in games.items():
        by_player = _seats_of(played)
        title = played[0].game_title + (" (lowest wins)" if lower else "")
        game_records.append(
            GameRecord(
                game=game,
                title=title,
                lower_is_better=lower,
                played=len(played),
                last_played=max(result.ended_at for result in played),
                players=ranked(_game_record(player, mine) for player, mine in by_player.items()),
            )
        )
    return Stats(
        played=len(results),
        players=ranked(_record(player, mine) for player, mine in seats.items()),
        games=tuple(sorted(game_records, key=lambda g: (-g.played, g.title))),
        wins_over_time=_wins_over_time(results, seats),
    )


def _wins_over_time(
    results: Sequence[Result], seats: dict[str, list[_Seat]]
) -> tuple[charts.Series, ...]:
    days = sorted({result.ended_at.date() for result in results})
    lines = []
    for mine in seats.values():
        won_by_day: dict[date, int] = {}
        for seat in mine:
            day = seat.result.ended_at.date()
            won_by_day[day] = won_by_day.get(day, 0) + seat.won
        total = 0
        points = []
        for day in days:
            total += won_by_day.get(day, 0)
            points.append((float(day.toordinal()), float(total)))
        name = mine[-1].result.names[mine[-1].seat]
        lines.append(charts.Series(name, tuple(points)))
    return tuple(sorted(lines, key=lambda s: (-s.points[-1][1], s.name.casefold())))


def day_text(ordinal: float) -> str:
    """A day of the wins chart: "3 Nov 2026"."""
    day = date.fromordinal(round(ordinal))
    return f"{day.day} {day:%b %Y}"


def day_in_year_text(ordinal: float) -> str:
    """A day of the wins chart when all its days are in one year (the axis names it): "3 Nov"."""
    day = date.fromordinal(round(ordinal))
    return f"{day.day} {day:%b}"


def wins_chart(stats: Stats) -> charts.LineChart:
    """Each player's wins so far, in steps on the days games ended."""
    years = {date.fromordinal(round(x)).year for s in stats.wins_over_time for x, _ in s.points}
    one_year = len(years) == 1
    return charts.LineChart(
        ident="wins-chart",
        title="Wins over time",
        x_label=f"Day in {min(years)}" if one_year else "Day",
        y_label="Wins",
        series=stats.wins_over_time,
        x_format=day_in_year_text if one_year else day_text,
        x_ticks=4,
        steps=True,
    )


def head_to_head(results: Sequence[Result], first: str, second: str) -> HeadToHead:
    """Two group players (by key) over the sessions where both had a seat; ValueError
    with the sentence to show when they are one player or one never played."""
    names: dict[str, str] = {}
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        names.update(zip(result.players, result.names, strict=True))
    for field, player in (("first", first), ("second", second)):
        if player not in names:
            raise ValueError(f"The {field} player has played no finished game in this group.")
    if first == second:
        raise ValueError("Choose two different players to compare.")
    counts = {"played": 0, "first_won": 0, "second_won": 0, "shared": 0, "neither": 0}
    for result in results:
        if first not in result.players or second not in result.players:
            continue
        a_won = result.players.index(first) in result.winners
        b_won = result.players.index(second) in result.winners
        counts["played"] += 1
        if a_won and b_won:
            counts["shared"] += 1
        elif a_won:
            counts["first_won"] += 1
        elif b_won:
            counts["second_won"] += 1
        else:
            counts["neither"] += 1
    return HeadToHead(first, second, names[first], names[second], **counts)
