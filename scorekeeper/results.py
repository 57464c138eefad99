"""A session's results beyond the scoreboard: the score chart of its results page.

It reads only what every engine gives (``score_rows``), so no game is named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper import charts
from scorekeeper.games.base import ScoreRow, and_list


def score_series(
    rows: Sequence[ScoreRow], listed: Callable[[Sequence[str]], str] = and_list
) -> tuple[charts.Series, ...]:
    """Each seat's total after every round, from the start (round 0) to the last round.

    A seat with no row in a round (a Yardkle player the game ended before) keeps its
    total. Seats whose totals are the same all along share one line named after all of
    them (``listed``: "Ann and Cy", or as the reader's language lists): the two partners of
    a Yokai Septet team score together.
    """
    if not rows:
        return ()
    rounds = sorted({row.round for row in rows})
    by_seat: dict[int, dict[int, ScoreRow]] = {}
    for row in rows:
        by_seat.setdefault(row.seat, {})[row.round] = row
    lines: dict[tuple[tuple[float, float], ...], list[str]] = {}
    for seat in sorted(by_seat):
        played = by_seat[seat]
        first = played[min(played)]
        # Before its first round a seat holds what it started with (Yellow Dwarf's chips).
        total = first.total - first.points
        points = [(0.0, float(total))]
        for number in rounds:
            if number in played:
                total = played[number].total
            points.append((float(number), float(total)))
        lines.setdefault(tuple(points), []).append(first.name)
    return tuple(charts.Series(listed(names), points) for points, names in lines.items())


def score_chart(
    game_title: str,
    rows: Sequence[ScoreRow],
    title: str | None = None,
    x_label: str = "Round",
    y_label: str = "Score",
    listed: Callable[[Sequence[str]], str] = and_list,
) -> charts.LineChart:
    """The results page's chart: every player's score after each round or turn; its
    words in English unless the page gives them in its reader's language."""
    return charts.LineChart(
        ident="score-chart",
        title=title or f"{game_title}: score after each round",
        x_label=x_label,
        y_label=y_label,
        series=score_series(rows, listed),
    )
