"""A group's statistics on its page and in the API: counted from its finished sessions
only, a shared win for each winner, with a head to head asked for by GET."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from html import unescape
from typing import Any

import pytest
import stats_reference
from conftest import API, Statements, Table, act, assert_error, start
from flask import Flask
from flask.testing import FlaskClient
from test_charts_and_stats import rows_of
from test_groups import make_group, player_ids, start_group_game

from scorekeeper import group_totals, groups, leaderboard, ratings, session_views
from scorekeeper.db import write_transaction
from scorekeeper.games.base import MINUS
from scorekeeper.models import GameSession

TARGET_10 = {"option_target": "10"}
LOWEST_WINS = {"option_target": "20", "option_winner": "lowest"}


@dataclass(frozen=True)
class Played:
    group_id: str
    ids: dict[str, int]
    outsider_id: int  # a player of another group


def finish(
    client: FlaskClient,
    app: Flask,
    group_id: str,
    order: list[int],
    points: list[int],
    day: int,
    **options: str,
) -> None:
    """A score sheet of the group, one round of ``points`` ending it on 2026-11-<day>."""
    response = start_group_game(client, group_id, order, "score-sheet", **options)
    assert response.status_code == 303, response.status_code
    table = Table(client, response.location.rsplit("/", 1)[1])
    act(table, type="round", **{f"points-{seat}": str(p) for seat, p in enumerate(points)})
    with app.app_context(), write_transaction():
        assert GameSession.get_by_id(table.id).finished
        # Its end moved to 21:30 that day, and the group's totals and ratings with it (as a
        # write does).
        was = group_totals.counted(table.id)
        GameSession.update(finished_at=datetime(2026, 11, day, 21, 30)).where(
            GameSession.id == table.id
        ).execute()
        group_totals.rewrite(table.id, was)
        ratings.session_changed(table.id, group_id, datetime(2026, 11, day, 21, 30))


@pytest.fixture
def played(client: FlaskClient, app: Flask) -> Played:
    """Ann, Bo, Cy and Dee's score sheets (the first to 10 wins), then Ann renamed Anna and
    Dee removed; Eve joined and never played; and sessions that do not count."""
    group_id = make_group(client, "Friday", ("Ann", "Bo", "Cy", "Dee", "Eve"))
    ids = player_ids(app, group_id)
    ann, bo, cy, dee = ids["Ann"], ids["Bo"], ids["Cy"], ids["Dee"]
    finish(client, app, group_id, [ann, bo], [10, 3], 10, **TARGET_10)
    finish(client, app, group_id, [ann, bo, cy], [12, 12, 5], 12, **TARGET_10)  # shared
    finish(client, app, group_id, [bo, cy], [25, 4], 12, **LOWEST_WINS)
    finish(client, app, group_id, [bo, dee], [2, 10], 14, **TARGET_10)
    # Still in play: not counted.
    response = start_group_game(client, group_id, [ann, cy], "score-sheet", **TARGET_10)
    act(
        Table(client, response.location.rsplit("/", 1)[1]),
        type="round",
        **{"points-0": "5", "points-1": "0"},
    )
    # Not the group's, though Ann and Bo play it: not counted.
    act(
        start(client, "score-sheet", ["Ann", "Bo"], **TARGET_10),
        type="round",
        **{"points-0": "0", "points-1": "10"},
    )
    players = f"/g/{group_id}/players"
    renamed = client.post(players, data={"do": "change", "player": ann, "name": "Anna"})
    removed = client.post(players, data={"do": "remove", "player": dee})
    assert (renamed.status_code, removed.status_code) == (303, 303)
    other = make_group(client, "Tuesday", ("Zed",))
    return Played(group_id, {**ids, "Anna": ann}, player_ids(app, other)["Zed"])


def test_a_groups_results_are_one_query_of_their_seats_and_replay_nothing(
    app: Flask, played: Played, statements: Statements
) -> None:
    with app.app_context():
        session_views.forget()
        group = groups.load(played.group_id)
        statements.sql.clear()
        first = stats_reference.group_results(group)
        assert len(first) == 4
    # One query reads every seat of the finished sessions with its session's row (the read
    # model the writes kept): no version read, no event, though no view is kept. (The
    # other query reads the group's players, named as they are now.)
    [query] = [
        sql for sql in statements.sql if sql.startswith("SELECT") and "group_player" not in sql
    ]
    assert query.startswith('SELECT "t1"."id", "t1"."game", "t1"."lower_is_better"')
    assert 'FROM "seat"' in query and 'JOIN "game_session"' in query


BOARD_HEADER = ["Player", "Played", "Won", "Win rate", "Avg. place", "Rating ▼"]
SCORED = ["Player", "Played", "Won", "Average", "Best", "Rating"]
ON_12 = "2026-11-12 21:30 UTC"


def stats_page(client: FlaskClient, group_id: str, **query: Any) -> tuple[int, str]:
    response = client.get(f"/g/{group_id}/stats", query_string=query)
    return response.status_code, response.get_data(as_text=True)


def duel_refusal(html: str) -> str:
    match = re.search(r'<p class="alert error" role="alert">(.*?)</p>', html, re.S)
    assert match, "the page shows no refusal"
    return unescape(match.group(1))


def shown(skill: ratings.Skill) -> str:
    """A rating as the page shows it, its latest movement after it: "4.3+0.8"."""
    moved = f"{skill.moved:+.1f}"
    return f"{skill.rating:.1f}{moved}".replace("-", MINUS)


def test_the_stats_page_counts_the_groups_finished_sessions_with_shared_wins(
    app: Flask, client: FlaskClient, played: Played
) -> None:
    status, html = stats_page(client, played.group_id)
    with app.app_context():
        # Rated from scratch: two games ended at the same moment count in their ids' order.
        rated = stats_reference.rated(stats_reference.group_results(groups.load(played.group_id)))
    anna, bo, cy = (str(played.ids[name]) for name in ("Anna", "Bo", "Cy"))
    overall, sheet, lowest = (
        rated[scope] for scope in (ratings.ALL_GAMES, ("score-sheet", False), ("score-sheet", True))
    )
    assert overall[anna].rating > overall[cy].rating > overall[bo].rating
    assert status == 200
    assert "4 finished games. Shared wins count for each winner." in html
    # Dee was removed: her seat counts for no one; Ann is shown as she is called now.
    # Dee was removed: her seat counts for no one (a newcomer to the others' ratings).
    assert rows_of(html, "Leaderboard") == [
        BOARD_HEADER,
        ["Anna", "2", "2", "100%", "1.0", shown(overall[anna])],
        ["Cy", "2", "1", "50%", "2.0", shown(overall[cy])],
        ["Bo", "4", "1", "25%", "1.8", shown(overall[bo])],
    ]
    assert "<summary>Score sheet: 3 games</summary>" in html
    assert rows_of(html, "Score sheet") == [
        SCORED,
        ["Anna", "2", "2", "11.0", "12", shown(sheet[anna])],
        ["Bo", "3", "1", "5.7", "12", shown(sheet[bo])],
        ["Cy", "1", "0", "5.0", "5", shown(sheet[cy])],
    ]
    assert rows_of(html, "Score sheet (lowest wins), the lowest score is best") == [
        SCORED,
        ["Cy", "1", "1", "4.0", "4", shown(lowest[cy])],
        ["Bo", "1", "0", "25.0", "25", shown(lowest[bo])],
    ]
    assert ">Dee<" not in html and ">Eve<" not in html
    assert 'aria-labelledby="wins-chart-title wins-chart-desc"' in html and "Day in 2026" in html


def test_the_group_page_links_its_statistics_with_a_summary(
    client: FlaskClient, played: Played
) -> None:
    html = client.get(f"/g/{played.group_id}").get_data(as_text=True)
    assert f'href="/g/{played.group_id}/stats"' in html
    assert "4 finished games counted" in html


def test_a_head_to_head_is_read_from_the_query_string(client: FlaskClient, played: Played) -> None:
    ids = played.ids
    status, html = stats_page(client, played.group_id, first=ids["Anna"], second=ids["Bo"])
    assert status == 200
    assert rows_of(html, "Anna and Bo: 2 games together") == [
        ["Won by Anna", "1"],
        ["Won by Bo", "0"],
        ["Won by both (shared)", "1"],
        ["Won by someone else", "0"],
    ]
    # The form keeps the players compared.
    assert f'<option value="{ids["Bo"]}" selected>Bo</option>' in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"first": "abc", "second": "{Bo}"}, "First player: No player has the id abc."),
        ({"first": "{Bo}", "second": "99999"}, "Second player: No player has the id 99999."),
        (
            {"first": "{Bo}", "second": "{Zed}"},
            "Second player: Zed plays in another group; choose a player of this one.",
        ),
        ({"first": "{Bo}", "second": "{Bo}"}, "Choose two different players to compare."),
        ({"first": "{Bo}"}, "Choose the second player to compare."),
        ({"first": "", "second": "{Bo}"}, "Choose the first player to compare."),
        (
            {"first": "{Eve}", "second": "{Bo}"},
            "Eve has played no finished game in this group yet.",
        ),
        ({"first": "{Bo}", "second": "{Dee}"}, "Second player: No player has the id {Dee}."),
    ],
)
def test_a_bad_head_to_head_says_why_and_the_page_still_shows(
    client: FlaskClient, played: Played, query: dict[str, str], message: str
) -> None:
    ids = {**played.ids, "Zed": played.outsider_id}
    sent = {name: value.format(**ids) for name, value in query.items()}
    status, html = stats_page(client, played.group_id, **sent)
    assert status == 422
    assert duel_refusal(html) == message.format(**ids)
    assert "4 finished games." in html and "Won by both" not in html


def test_a_phone_that_only_sees_the_group_sees_its_statistics(app: Flask, played: Played) -> None:
    status, html = stats_page(app.test_client(), played.group_id)
    assert status == 200 and "4 finished games." in html


def test_an_unknown_group_has_no_statistics_page(client: FlaskClient) -> None:
    status, html = stats_page(client, "a" * 22)
    assert status == 404 and "No group has this link." in html


def test_a_group_without_finished_games_says_its_statistics_start_later(
    client: FlaskClient,
) -> None:
    status, html = stats_page(client, make_group(client))
    assert status == 200
    assert "No finished game yet: the statistics start with the first one." in html


# --- The API --------------------------------------------------------------------------


def read_stats(client: FlaskClient, group_id: str, **query: Any) -> Any:
    return client.get(f"{API}/groups/{group_id}/stats", query_string=query)


def figures(
    player: int,
    name: str,
    played: int,
    won: int,
    day: int,
    place: float,
    skill: ratings.Skill,
    **more: Any,
) -> Any:
    return {
        "player": player,
        "name": name,
        "played": played,
        "won": won,
        "win_rate": won / played,
        "average_place": place,
        "rating": {
            "rating": pytest.approx(skill.mu - 3 * skill.sigma),
            "moved": pytest.approx(skill.moved),
            "mu": pytest.approx(skill.mu),
            "sigma": pytest.approx(skill.sigma),
        },
        "last_played": f"2026-11-{day}T21:30:00Z",
        **more,
    }


def test_the_api_answers_the_same_figures_as_the_page(app: Flask, played: Played) -> None:
    ann, bo, cy = played.ids["Anna"], played.ids["Bo"], played.ids["Cy"]
    response = read_stats(app.test_client(), played.group_id)
    with app.app_context():
        rated = stats_reference.rated(stats_reference.group_results(groups.load(played.group_id)))
    overall, sheet, lowest = (
        {int(player): skill for player, skill in rated[scope].items()}
        for scope in (ratings.ALL_GAMES, ("score-sheet", False), ("score-sheet", True))
    )
    assert response.status_code == 200
    answer = response.get_json()
    assert (answer["group"], answer["played"], answer["head_to_head"]) == (
        played.group_id,
        4,
        None,
    )
    assert answer["players"] == [
        figures(ann, "Anna", 2, 2, 12, 1.0, overall[ann]),
        figures(cy, "Cy", 2, 1, 12, 2.0, overall[cy]),
        figures(bo, "Bo", 4, 1, 14, 1.75, overall[bo]),
    ]
    assert answer["games"] == [
        {
            "game": "score-sheet",
            "title": "Score sheet",
            "lower_is_better": False,
            "played": 3,
            "last_played": "2026-11-14T21:30:00Z",
            "players": [
                figures(ann, "Anna", 2, 2, 12, 1.0, sheet[ann], average=11.0, best=12),
                figures(bo, "Bo", 3, 1, 14, 5 / 3, sheet[bo], average=17 / 3, best=12),
                figures(cy, "Cy", 1, 0, 12, 3.0, sheet[cy], average=5.0, best=5),
            ],
        },
        {
            "game": "score-sheet",
            "title": "Score sheet (lowest wins)",
            "lower_is_better": True,
            "played": 1,
            "last_played": "2026-11-12T21:30:00Z",
            "players": [
                figures(cy, "Cy", 1, 1, 12, 1.0, lowest[cy], average=4.0, best=4),
                figures(bo, "Bo", 1, 0, 12, 2.0, lowest[bo], average=25.0, best=25),
            ],
        },
    ]
    days = ["2026-11-10", "2026-11-12", "2026-11-14"]
    assert answer["wins_over_time"] == [
        {
            "player": ann,
            "name": "Anna",
            "days": [{"day": d, "wins": w} for d, w in zip(days, [1, 2, 2], strict=True)],
        },
        {
            "player": bo,
            "name": "Bo",
            "days": [{"day": d, "wins": w} for d, w in zip(days, [0, 1, 1], strict=True)],
        },
        {
            "player": cy,
            "name": "Cy",
            "days": [{"day": d, "wins": w} for d, w in zip(days, [0, 1, 1], strict=True)],
        },
    ]
    # Games ended on 3 days: a point a day.
    assert answer["wins_over_time_step"] == "day"
    assert answer["links"] == {
        "view": f"http://localhost/g/{played.group_id}/stats",
        "group": f"http://localhost{API}/groups/{played.group_id}",
    }


def test_the_api_head_to_head_counts_the_games_both_played(
    client: FlaskClient, played: Played
) -> None:
    bo, cy = played.ids["Bo"], played.ids["Cy"]
    answer = read_stats(client, played.group_id, first=bo, second=cy).get_json()
    assert answer["head_to_head"] == {
        "first": bo,
        "second": cy,
        "first_name": "Bo",
        "second_name": "Cy",
        "played": 2,
        "first_won": 1,
        "second_won": 1,
        "shared": 0,
        "neither": 0,
    }
    assert answer["links"]["view"] == (
        f"http://localhost/g/{played.group_id}/stats?first={bo}&second={cy}"
    )


def test_the_groups_answer_links_its_statistics(client: FlaskClient, played: Played) -> None:
    answer = client.get(f"{API}/groups/{played.group_id}").get_json()
    assert answer["links"]["stats"] == f"http://localhost{API}/groups/{played.group_id}/stats"


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"first": "x1", "second": "{Bo}"}, "first", "First player: No player has the id x1."),
        (
            {"first": "{Zed}", "second": "{Bo}"},
            "first",
            "First player: Zed plays in another group; choose a player of this one.",
        ),
        ({"first": "{Cy}", "second": "{Cy}"}, "second", "Choose two different players to compare."),
        ({"second": "{Cy}"}, "first", "Choose the first player to compare."),
        (
            {"first": "{Cy}", "second": "{Eve}"},
            "second",
            "Eve has played no finished game in this group yet.",
        ),
    ],
)
def test_a_bad_api_head_to_head_names_its_field(
    client: FlaskClient, played: Played, query: dict[str, str], field: str, message: str
) -> None:
    ids = {**played.ids, "Zed": played.outsider_id}
    sent = {name: value.format(**ids) for name, value in query.items()}
    assert assert_error(read_stats(client, played.group_id, **sent), 422, field) == message


def test_the_api_has_no_statistics_of_an_unknown_group(client: FlaskClient) -> None:
    message = assert_error(read_stats(client, "a" * 22), 404, None)
    assert message == "No group has this link. Check the address, or make a new group."


def test_the_leaderboard_sorts_by_a_column_link_without_javascript(
    client: FlaskClient, played: Played
) -> None:
    ids = played.ids
    status, html = stats_page(client, played.group_id, sort="played")
    assert status == 200
    assert [row[:2] for row in rows_of(html, "Leaderboard")[1:]] == [
        ["Bo", "4"],
        ["Anna", "2"],  # ties: the better rated first
        ["Cy", "2"],
    ]
    played_order = " ".join(str(ids[name]) for name in ("Bo", "Anna", "Cy"))
    assert (
        '<th scope="col" class="num" aria-sort="descending" data-direction="descending" '
        f'data-order="{played_order}"><a href'
    ) in html
    group = played.group_id
    # Each header links the page sorted by it (the rating, the first sort, needs no query).
    assert f'<a href="/g/{group}/stats?sort=won#leaderboard">Won</a>' in html
    assert f'<a href="/g/{group}/stats#leaderboard">Rating</a>' in html
    # A head to head asked for stays asked for; the head to head form keeps the sort.
    _, html = stats_page(client, group, sort="name", first=ids["Anna"], second=ids["Bo"])
    assert [row[0] for row in rows_of(html, "Leaderboard")[1:]] == ["Anna", "Bo", "Cy"]
    assert (
        f'<a href="/g/{group}/stats?first={ids["Anna"]}&amp;second={ids["Bo"]}'
        '&amp;sort=average_place#leaderboard">Avg. place</a>'
    ) in html
    assert '<input type="hidden" name="sort" value="name">' in html


def test_an_unknown_sort_says_which_there_are_and_the_page_still_shows(
    client: FlaskClient, played: Played
) -> None:
    status, html = stats_page(client, played.group_id, sort="luck")
    assert status == 422
    assert duel_refusal(html) == (
        "Sort the leaderboard by one of: name, played, won, win_rate, average_place, rating."
    )
    assert [row[0] for row in rows_of(html, "Leaderboard")[1:]] == ["Anna", "Cy", "Bo"]


def test_each_leaderboard_heading_names_the_players_in_the_order_the_page_sorted_by_it_shows(
    client: FlaskClient, played: Played
) -> None:
    """What the page's script sorts by (static/leaderboard.js) without asking the server."""
    _, html = stats_page(client, played.group_id)
    orders = re.findall(r'data-order="([^"]*)"><a href="[^"]*"[^>]*>([^<]*)</a>', html)
    assert [title for _, title in orders] == [*BOARD_HEADER[:-1], "Rating"]
    names = {str(player): name for name, player in played.ids.items()}
    for (order, _), key in zip(orders, leaderboard.SORTED_BY, strict=True):
        _, sorted_page = stats_page(client, played.group_id, sort=key)
        rows = re.findall(r'<tr data-player="(\d+)">', sorted_page)
        assert order.split() == rows, key
    by_title = {title: order for order, title in orders}
    assert [names[player] for player in by_title["Won"].split()] == ["Anna", "Cy", "Bo"]
    assert [names[player] for player in by_title["Avg. place"].split()] == ["Anna", "Bo", "Cy"]
