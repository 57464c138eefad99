"""Statistics of a group, known answers worked out by hand, and the score chart's series."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import stats_reference
from conftest import finished_result as result

from scorekeeper import stats
from scorekeeper.games.base import ScoreRow
from scorekeeper.results import score_series

# Four sessions of three games between Ann, Bo and Cy:
# 1. 2 Nov, yardkle: Ann 10,200 wins over Bo 8,000.
# 2. 2 Nov, yardkle: Bo 10,050 wins; Ann 9,000, Cy 4,500.
# 3. 5 Nov, cryptruck: Ann and Bo tie on 21 and share the win; Cy 15.
# 4. 9 Nov, hearts (lowest wins): Cy 40 wins; Ann 102, Bo 75.
RESULTS = (
    result("s1", 2, "yardkle", {"ann": 10_200, "bo": 8_000}, {"ann"}),
    result("s2", 2, "yardkle", {"bo": 10_050, "ann": 9_000, "cy": 4_500}, {"bo"}),
    result("s3", 5, "cryptruck", {"ann": 21, "bo": 21, "cy": 15}, {"ann", "bo"}),
    result("s4", 9, "hearts", {"ann": 102, "bo": 75, "cy": 40}, {"cy"}, lower_is_better=True),
)


def by_player(records: tuple[stats.PlayerRecord, ...]) -> dict[str, stats.PlayerRecord]:
    return {record.player: record for record in records}


def test_every_player_over_all_games_counts_shared_wins_for_each_winner() -> None:
    figures = stats_reference.compute(RESULTS)
    assert figures.played == 4
    assert [record.name for record in figures.players] == ["Ann", "Bo", "Cy"]
    ann, bo, cy = figures.players
    assert (ann.played, ann.won, ann.win_rate) == (4, 2, 0.5)
    assert (bo.played, bo.won, bo.win_rate) == (4, 2, 0.5)
    assert (cy.played, cy.won, cy.win_rate) == (3, 1, pytest.approx(1 / 3))
    # Scores of different games do not add up: no average or best over all games.
    assert not isinstance(ann, stats.GamePlayerRecord)
    assert ann.last_played == datetime(2026, 11, 9, 21, 30, tzinfo=UTC)


def test_each_game_has_its_players_average_and_best_the_way_the_game_counts() -> None:
    games = {record.game: record for record in stats_reference.compute(RESULTS).games}
    assert [record.title for record in stats_reference.compute(RESULTS).games] == [
        "Yardkle",
        "Cryptruck",
        "Hearts (lowest wins)",
    ]
    yardkle = by_player(games["yardkle"].players)
    assert games["yardkle"].played == 2
    assert (yardkle["ann"].played, yardkle["ann"].won) == (2, 1)
    assert (yardkle["ann"].average, yardkle["ann"].best) == (9_600, 10_200)
    assert (yardkle["bo"].average, yardkle["bo"].best) == (9_025, 10_050)
    assert (yardkle["cy"].played, yardkle["cy"].won, yardkle["cy"].win_rate) == (1, 0, 0)
    assert yardkle["cy"].best == 4_500
    # Lowest wins: the best score is the lowest.
    hearts = by_player(games["hearts"].players)
    assert (hearts["ann"].best, hearts["bo"].best, hearts["cy"].best) == (102, 75, 40)
    assert [record.player for record in games["hearts"].players] == ["cy", "ann", "bo"]
    cryptruck = by_player(games["cryptruck"].players)
    assert (cryptruck["ann"].won, cryptruck["bo"].won, cryptruck["cy"].won) == (1, 1, 0)


def test_head_to_head_counts_wins_shared_wins_and_games_someone_else_won() -> None:
    duel = stats_reference.head_to_head(RESULTS, "ann", "bo")
    assert (duel.first_name, duel.second_name) == ("Ann", "Bo")
    assert (duel.played, duel.first_won, duel.second_won, duel.shared, duel.neither) == (
        4,
        1,
        1,
        1,
        1,
    )
    duel = stats_reference.head_to_head(RESULTS, "cy", "ann")
    assert (duel.played, duel.first_won, duel.second_won, duel.shared, duel.neither) == (
        3,
        1,
        1,
        0,
        1,
    )


def test_head_to_head_refuses_one_player_twice_or_a_stranger() -> None:
    with pytest.raises(ValueError, match="Choose two different players"):
        stats_reference.head_to_head(RESULTS, "ann", "ann")
    with pytest.raises(ValueError, match="The second player has played no finished game"):
        stats_reference.head_to_head(RESULTS, "ann", "zed")


def test_wins_over_time_count_each_players_wins_so_far_on_every_day_a_game_ended() -> None:
    lines = {line.name: line.points for line in stats_reference.compute(RESULTS).wins_over_time}
    days = [float(date(2026, 11, day).toordinal()) for day in (2, 5, 9)]
    assert lines == {
        "Ann": tuple(zip(days, (1.0, 2.0, 2.0), strict=True)),
        "Bo": tuple(zip(days, (1.0, 2.0, 2.0), strict=True)),
        "Cy": tuple(zip(days, (0.0, 0.0, 1.0), strict=True)),
    }
    chart = stats.wins_chart(stats_reference.compute(RESULTS))
    assert (chart.x_label, chart.x_format(days[1]), chart.steps) == ("Day in 2026", "5 Nov", True)


def test_wins_over_several_years_name_the_year_of_each_day() -> None:
    new_year = (*RESULTS, result("s5", 1, "yardkle", {"ann": 1, "bo": 2}, {"bo"}))
    later = new_year[-1]
    moved = (
        *RESULTS,
        stats_reference.Result(**{**vars(later), "ended_at": datetime(2027, 1, 2, tzinfo=UTC)}),
    )
    chart = stats.wins_chart(stats_reference.compute(moved))
    assert chart.x_label == "Day"
    assert chart.x_format(float(date(2027, 1, 2).toordinal())) == "2 Jan 2027"


def daily(first: date, count: int, every: timedelta) -> tuple[stats_reference.Result, ...]:
    """``count`` yardkle games between Ann and Bo, one each ``every`` from ``first``: Ann
    wins the 1st, 3rd, 5th..., Bo the others."""
    played = []
    for index in range(count):
        winner = "ann" if index % 2 == 0 else "bo"
        one = result(f"s{index}", 1, "yardkle", {"ann": 1, "bo": 1}, {winner})
        ended = datetime.combine(first + index * every, one.ended_at.timetz())
        played.append(stats_reference.Result(**{**vars(one), "ended_at": ended}))
    return tuple(played)


def test_wins_on_more_than_60_days_are_counted_at_the_last_game_day_of_each_week() -> None:
    # Monday 2 November 2026 to Friday 1 January 2027: 61 days, in 9 weeks.
    figures = stats_reference.compute(daily(date(2026, 11, 2), 61, timedelta(days=1)))
    assert figures.wins_step == "week"
    ann = {line.name: line.points for line in figures.wins_over_time}["Ann"]
    sundays = [date(2026, 11, 8) + timedelta(weeks=week) for week in range(8)]
    assert [date.fromordinal(round(x)) for x, _ in ann] == [*sundays, date(2027, 1, 1)]
    # Ann wins on days 1, 3, 5 and 7 of the first week, 9, 11 and 13 of the second...
    assert [wins for _, wins in ann] == [4.0, 7.0, 11.0, 14.0, 18.0, 21.0, 25.0, 28.0, 31.0]
    assert stats.wins_chart(figures).x_label == "Week"
    assert "last day played in each week" in stats.wins_step_note(figures)


def test_wins_on_more_than_60_weeks_step_by_month_and_on_more_than_60_months_by_year() -> None:
    weekly = stats_reference.compute(daily(date(2026, 1, 5), 70, timedelta(weeks=1)))
    assert weekly.wins_step == "month"
    # 5 January 2026 to 3 May 2027: 17 months, the last point on the last game day.
    assert len(weekly.wins_over_time[0].points) == 17
    assert weekly.wins_over_time[0].points[-1][0] == date(2027, 5, 3).toordinal()
    monthly = stats_reference.compute(daily(date(2020, 1, 1), 61, timedelta(days=31)))
    assert monthly.wins_step == "year"
    assert [date.fromordinal(round(x)).year for x, _ in monthly.wins_over_time[0].points] == [
        2020,
        2021,
        2022,
        2023,
        2024,
        2025,
    ]
    assert stats.wins_chart(monthly).x_label == "Year"


def test_wins_on_60_days_keep_a_point_a_day() -> None:
    figures = stats_reference.compute(daily(date(2026, 11, 2), 60, timedelta(days=1)))
    assert figures.wins_step == "day"
    assert len(figures.wins_over_time[0].points) == 60


def test_a_player_who_never_won_has_no_wins_and_a_zero_rate() -> None:
    only = (result("s1", 3, "yardkle", {"ann": 10_000, "bo": 600}, {"ann"}),)
    figures = stats_reference.compute(only)
    ann, bo = figures.players
    assert (ann.name, ann.won, ann.win_rate) == ("Ann", 1, 1.0)
    assert (bo.name, bo.played, bo.won, bo.win_rate) == ("Bo", 1, 0, 0.0)
    assert [game.title for game in figures.games] == ["Yardkle"]
    assert by_player(figures.games[0].players)["bo"].average == 600


def test_no_games_give_empty_figures() -> None:
    figures = stats_reference.compute(())
    assert figures == stats.Stats(played=0, players=(), games=(), wins_over_time=())


def test_a_seat_without_a_group_player_counts_for_nobody() -> None:
    guest = stats_reference.Result(
        session_id="s9",
        game="yardkle",
        game_title="Yardkle",
        lower_is_better=False,
        ended_at=datetime(2026, 11, 1, tzinfo=UTC),
        players=("ann", ""),
        names=("Ann", "Guest"),
        scores=(500, 10_000),
        winners=frozenset({1}),
    )
    (ann,) = stats_reference.compute((guest,)).players
    assert (ann.player, ann.played, ann.won) == ("ann", 1, 0)


# --- The results page's series, from rows shaped like each game's score_rows ---------


def test_series_start_at_round_zero_and_carry_a_total_through_rounds_not_played() -> None:
    # Yardkle: one row per turn; Bo's last turn never came (Ann reached the target).
    rows = [
        ScoreRow(1, 0, "Ann", 500, 500, "banked"),
        ScoreRow(1, 1, "Bo", 0, 0, "Yardkle"),
        ScoreRow(2, 0, "Ann", 9_600, 10_100, "banked"),
    ]
    assert [(s.name, s.points) for s in score_series(rows)] == [
        ("Ann", ((0, 0), (1, 500), (2, 10_100))),
        ("Bo", ((0, 0), (1, 0), (2, 0))),
    ]


def test_yellow_dwarf_chips_start_from_the_starting_chips_and_go_below_zero() -> None:
    rows = [
        ScoreRow(1, 0, "Ann", -25, 25, ""),
        ScoreRow(1, 1, "Bo", 25, 75, ""),
        ScoreRow(2, 0, "Ann", -31, -6, ""),
        ScoreRow(2, 1, "Bo", 31, 106, ""),
    ]
    assert [(s.name, s.points) for s in score_series(rows)] == [
        ("Ann", ((0, 50), (1, 25), (2, -6))),
        ("Bo", ((0, 50), (1, 75), (2, 106))),
    ]


def test_yokai_septet_partners_share_their_teams_line() -> None:
    # Each seat's row carries its team's total: seats 1 and 3 against 2 and 4.
    rows = [
        ScoreRow(1, seat, name, points, points, "")
        for seat, (name, points) in enumerate((("Ann", 3), ("Bo", 0), ("Cy", 3), ("Di", 0)))
    ]
    assert [(s.name, s.points) for s in score_series(rows)] == [
        ("Ann and Cy", ((0, 0), (1, 3))),
        ("Bo and Di", ((0, 0), (1, 0))),
    ]


def test_a_solo_game_has_one_line_and_no_rows_no_line() -> None:
    rows = [ScoreRow(1, 0, "Ann", 12, 12, "house"), ScoreRow(2, 0, "Ann", -3, 9, "given up")]
    assert [(s.name, s.points) for s in score_series(rows)] == [("Ann", ((0, 0), (1, 12), (2, 9)))]
    assert score_series([]) == ()
