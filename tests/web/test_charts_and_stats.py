"""The score chart on every game's results page, and the statistics partial rendered
from a computed stats object."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime
from html import unescape

import pytest
import stats_reference
from conftest import SQLITE_ONLY, act, finished_result, finished_session, start
from flask import Flask
from flask.testing import FlaskClient
from page_player import WALKS
from stats_reference import Result, result_of

from scorekeeper import leaderboard, session_views
from scorekeeper.games.base import MINUS

SVG_NS = "http://www.w3.org/2000/svg"


def chart_of(html: str) -> ET.Element:
    found = re.search(r'<svg class="chart-svg".*?</svg>', html, re.S)
    assert found, "the page has no chart"
    return ET.fromstring(found.group(0).replace("<svg ", f'<svg xmlns="{SVG_NS}" ', 1))


def said(number: int) -> str:
    return f"{MINUS}{abs(number):,}" if number < 0 else f"{number:,}"


@SQLITE_ONLY
@pytest.mark.parametrize("game", list(WALKS))
def test_a_finished_games_results_show_each_players_score_after_every_round(
    client: FlaskClient, app: Flask, game: str
) -> None:
    session_id = finished_session(client, game)
    html = client.get(f"/s/{session_id}/results").get_data(as_text=True)
    svg = chart_of(html)
    assert svg.get("role") == "img"
    with app.app_context():
        view = session_views.load(session_id)
        assert view.finished
        rows = view.game.score_rows(view.state)
    assert svg.findtext(f"{{{SVG_NS}}}title") == f"{view.game.title}: score after each round"
    desc = unescape(svg.findtext(f"{{{SVG_NS}}}desc") or "")
    last_round = max(row.round for row in rows)
    assert desc.startswith(f"Score by round, 0 to {last_round}.")
    # Every player is named with the total of their last row, the table's final total.
    finals = {row.name: row.total for row in rows}
    for name, total in finals.items():
        assert re.search(rf"\b{name}\b[^.]*: {said(total)} at the end", desc), (name, desc)
    legend = re.search(r'<ul class="chart-legend">(.*?)</ul>', html, re.S)
    assert legend and all(name in legend.group(1) for name in finals)


@SQLITE_ONLY
@pytest.mark.parametrize("game", list(WALKS))
def test_a_finished_session_gives_the_statistics_its_engines_scores_and_winners(
    client: FlaskClient, app: Flask, game: str
) -> None:
    session_id = finished_session(client, game)
    ended = datetime(2026, 11, 20, 22, 0, tzinfo=UTC)
    with app.app_context():
        view = session_views.load(session_id)
        keys = [f"player-{seat}" for seat in range(len(view.seats))]
        counted = result_of(view, keys, ended)
        standings = {s.seat: s.score for s in view.game.standings(view.state)}
        winners = view.game.winners(view.state)
    assert (counted.session_id, counted.game, counted.ended_at) == (
        session_id,
        WALKS[game][0],
        ended,
    )
    # Every seat of a person (the NPC crab has none), with the score its engine ranks by.
    assert counted.players == tuple(keys[seat] for seat in sorted(standings))
    assert counted.names == tuple(view.seats[seat] for seat in sorted(standings))
    assert counted.scores == tuple(standings[seat] for seat in sorted(standings))
    assert counted.winners == frozenset(sorted(standings).index(seat) for seat in winners)
    assert counted.winners and not counted.lower_is_better


def test_a_score_sheet_where_the_lowest_wins_counts_lower_as_better(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_winner="lowest", option_target="20")
    act(table, type="round", **{"points-0": "25", "points-1": "4"})
    with app.app_context():
        counted = result_of(
            session_views.load(table.id), ["ann", "bo"], datetime(2026, 11, 1, tzinfo=UTC)
        )
    assert (counted.scores, counted.winners, counted.lower_is_better) == (
        (25, 4),
        frozenset({1}),
        True,
    )


def test_an_unfinished_session_is_not_counted(client: FlaskClient, app: Flask) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="50")
    with app.app_context(), pytest.raises(ValueError, match="is not finished"):
        result_of(session_views.load(table.id), ["ann", "bo"], datetime(2026, 11, 1, tzinfo=UTC))


def test_no_round_played_yet_shows_no_chart(client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="50")
    html = client.get(f"{table.url}/results").get_data(as_text=True)
    assert "chart-svg" not in html
    assert "No turns played yet." in html


def test_a_name_with_markup_is_escaped_in_the_chart(client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["<b>Ann</b>", "Bo"], option_target="50")
    client.post(
        f"{table.url}/action",
        data={"version": "0", "form_key": "k1", "type": "round", "points-0": "7", "points-1": "3"},
    )
    html = client.get(f"{table.url}/results").get_data(as_text=True)
    desc = chart_of(html).findtext(f"{{{SVG_NS}}}desc")
    assert desc == (
        "Score by round, 0 to 1. <b>Ann</b>: 7 at the end (lowest 0, highest 7). "
        "Bo: 3 at the end (lowest 0, highest 3)."
    )
    assert "<b>Ann</b>" not in html


# --- The statistics partial ------------------------------------------------------------


RESULTS = (
    finished_result("s1", 2, "yardkle", {"ann": 10_200, "bo": 8_000}, {"ann"}),
    finished_result("s2", 4, "yardkle", {"ann": 10_000, "bo": 10_000}, {"ann", "bo"}),
    finished_result("s3", 6, "yardkle", {"ann": 3_150, "bo": 10_400}, {"bo"}),
)


def rendered(app: Flask, results: Sequence[Result] = RESULTS, **context: object) -> str:
    """The partial over ``results``, its leaderboard sorted as ``sort`` names."""
    sort = leaderboard.SORTED_BY[str(context.pop("sort", leaderboard.FIRST_SORT))]
    counted = stats_reference.compute(results)
    board = leaderboard.leaderboard(counted, stats_reference.rated(results), sort)
    links = {column.key: f"?sort={column.key}#leaderboard" for column in leaderboard.COLUMNS}
    with app.test_request_context("/"):
        return app.jinja_env.get_template("groups/_stats.html").render(
            stats=counted, board=board, sort_links=links, sort_error=None, **context
        )


def rows_of(html: str, caption: str) -> list[list[str]]:
    table = re.search(rf"<caption>{re.escape(caption)}</caption>(.*?)</table>", html, re.S)
    assert table, caption
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    ]


BOARD_HEADER = ["Player", "Played", "Won", "Win rate", "Avg. place", "Rating ▼"]


def test_the_stats_partial_shows_a_leaderboard_each_games_table_a_tap_away_and_a_head_to_head(
    app: Flask,
) -> None:
    html = rendered(
        app,
        duel=stats_reference.head_to_head(RESULTS, "bo", "ann"),
        duel_error=None,
    )
    assert "3 finished games. Shared wins count for each winner." in html
    # One row a player: Bo lost the first game and won the last, so rates higher.
    assert rows_of(html, "Leaderboard") == [
        BOARD_HEADER,
        ["Bo", "3", "2", "67%", "1.3", "3.0+3.6"],
        ["Ann", "3", "2", "67%", "1.3", f"1.5{MINUS}2.1"],
    ]
    # The sorted heading says so, and names the players in its order for the page's script.
    sorted_heading = '<th scope="col" class="num" aria-sort="descending" data-direction='
    assert sorted_heading + '"descending" data-order="bo ann">' in html
    assert "The rating is OpenSkill's cautious estimate of skill" in html
    assert "<summary>Yardkle: 3 games</summary>" in html
    assert rows_of(html, "Yardkle")[1:] == [
        ["Ann", "3", "2", "7,783.3", "10,200", f"1.5{MINUS}2.1"],
        ["Bo", "3", "2", "9,466.7", "10,400", "3.0+3.6"],
    ]
    assert 'class="stacked"' not in html
    assert 'aria-labelledby="wins-chart-title wins-chart-desc"' in html
    assert "Ann: 2 at the end (lowest 1, highest 2)." in html
    assert rows_of(html, "Bo and Ann: 3 games together") == [
        ["Won by Bo", "1"],
        ["Won by Ann", "1"],
        ["Won by both (shared)", "1"],
        ["Won by someone else", "0"],
    ]
    assert '<option value="bo" selected>Bo</option>' in html
    assert '<option value="ann" selected>Ann</option>' in html


def test_the_leaderboard_sorts_by_the_column_asked_for(app: Flask) -> None:
    results = (
        *RESULTS,
        finished_result("s4", 8, "yardkle", {"ann": 10_000, "cy": 200}, {"ann"}),
    )
    html = rendered(app, results, sort="average_place", duel=None, duel_error=None)
    board = rows_of(html, "Leaderboard")
    assert board[0][4] == "Avg. place ▲"
    assert [row[0] for row in board[1:]] == ["Ann", "Bo", "Cy"]  # 1.25, 1.33, 2.0
    sorted_heading = '<th scope="col" class="num" aria-sort="ascending" data-direction='
    assert sorted_heading + '"ascending" data-order="ann bo cy">' in html
    html = rendered(app, results, sort="name", duel=None, duel_error=None)
    assert [row[0] for row in rows_of(html, "Leaderboard")[1:]] == ["Ann", "Bo", "Cy"]
    html = rendered(app, results, sort="played", duel=None, duel_error=None)
    # Ann and Bo played 4 and 3; Cy 1.
    assert [row[:2] for row in rows_of(html, "Leaderboard")[1:]] == [
        ["Ann", "4"],
        ["Bo", "3"],
        ["Cy", "1"],
    ]
    assert '<a href="?sort=won#leaderboard">Won</a>' in html


def test_the_stats_partial_says_why_a_head_to_head_was_refused(app: Flask) -> None:
    html = rendered(
        app,
        duel=None,
        duel_error="Choose two different players to compare.",
    )
    assert 'role="alert">Choose two different players to compare.</p>' in html
    assert "games together" not in html


def test_the_stats_partial_of_a_group_without_finished_games_says_so(app: Flask) -> None:
    html = rendered(app, (), duel=None, duel_error=None)
    assert "No finished game yet: the statistics start with the first one." in html
    assert "<table" not in html and "<svg" not in html
