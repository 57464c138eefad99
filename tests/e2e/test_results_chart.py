"""Charts and statistics on a 360 px phone in real Chromium: no sideways scroll, no
serious axe violation in light and dark, with eight players, long names and negative
scores. Screenshots go to screenshots/ (results-chart-*.png, group-stats-*.png)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import stats_reference
from conftest import make_app
from test_accessibility import Audit
from test_phone import CHROMIUM, check_phone_layout

from scorekeeper import leaderboard

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium-headless-shell)",
    ),
]

SEATS = [
    "Ann",
    "Bo",
    "Cy",
    "Di",
    "Eve",
    "Fatoumata Ndiaye-Okonkwo",
    "<b>Gus</b>",
    "Hana",
]
# Twelve rounds of a score sheet played to 100: some totals go below zero.
ROUNDS = [[(seat * 7 + number * 3) % 23 - 8 for seat in range(8)] for number in range(11)]
ROUNDS.append([101, 0, -20, 5, 5, 5, 5, 5])


def fits_a_phone(audit: Audit, name: str) -> None:
    """No sideways scroll, tap targets of 44 px and no serious axe finding, light and dark;
    screenshots/<name>-light.png and -dark.png."""
    for scheme in ("light", "dark"):
        audit.page.emulate_media(color_scheme=scheme)
        check_phone_layout(audit.page, f"{name}-{scheme}")
    audit.assert_clean()


def finished_sheet(audit: Audit, base: str) -> str:
    """A score sheet of eight seats played to its target through the API; its page's URL."""
    request = audit.page.request
    created = request.post(
        f"{base}/api/v1/sessions",
        data={"game": "score-sheet", "seats": SEATS, "options": {"target": 100}},
    ).json()
    auth = {"Authorization": f"Bearer {created['edit_key']}"}
    for version, points in enumerate(ROUNDS):
        answer = request.post(
            f"{base}/api/v1/sessions/{created['id']}/events",
            data={"version": version, "action": {"type": "round", "points": points}},
            headers=auth,
        )
        assert answer.status == 201, answer.text()
    assert request.get(f"{base}/api/v1/sessions/{created['id']}").json()["finished"]
    return f"{base}/s/{created['id']}"


def test_a_finished_games_results_chart_fits_a_phone_and_passes_axe_in_light_and_dark(
    server: str,
    browser: Any,
) -> None:
    audit = Audit(browser)
    try:
        session_url = finished_sheet(audit, server)
        audit.visit(f"{session_url}/results", "results with a chart")
        page = audit.page
        assert page.locator("svg.chart-svg[role=img]").count() == 1
        legend = page.locator(".chart-legend li").all_inner_texts()
        assert legend == SEATS
        assert (page.locator("svg.chart-svg desc").text_content() or "").count("at the end") == 8
        fits_a_phone(audit, "results-chart")
    finally:
        audit.close()


def eight_players_results() -> list[stats_reference.Result]:
    """Twelve finished sessions of three games between the eight seats, some shared."""
    keys = tuple(f"p{seat}" for seat in range(8))
    results = []
    for number in range(12):
        game, title = [("yardkle", "Yardkle"), ("cryptruck", "Cryptruck"), ("hearts", "Hearts")][
            number % 3
        ]
        winners = {number % 8, (number * 3) % 8} if number % 4 == 0 else {number % 8}
        results.append(
            stats_reference.Result(
                session_id=f"s{number}",
                game=game,
                game_title=title,
                lower_is_better=game == "hearts",
                ended_at=datetime(2026, 10 + number // 8, 1 + number * 2 % 28, 21, tzinfo=UTC),
                players=keys,
                names=tuple(SEATS),
                scores=tuple((seat * 1_237 + number * 911) % 12_000 - 500 for seat in range(8)),
                winners=frozenset(winners),
            )
        )
    return results


def test_a_groups_statistics_fit_a_phone_and_pass_axe_in_light_and_dark(
    server: str,
    browser: Any,
    tmp_path: Path,
) -> None:
    results = eight_players_results()
    app = make_app(f"sqlite:///{tmp_path}/stats.sqlite3")
    with app.test_request_context("/"):
        counted = stats_reference.compute(results)
        rated = stats_reference.rated(results)
        partial = app.jinja_env.get_template("groups/_stats.html").render(
            stats=counted,
            board=leaderboard.leaderboard(counted, rated, leaderboard.SORTED_BY["rating"]),
            sort_links={column.key: f"?sort={column.key}" for column in leaderboard.COLUMNS},
            sort_error=None,
            duel=stats_reference.head_to_head(results, "p5", "p6"),
            duel_error=None,
        )
    audit = Audit(browser)
    try:
        page = audit.page
        # The partial is shown in a page of its own, with the app's stylesheet, until the
        # group page that includes it exists.
        page.goto(f"{server}/static/app.css")
        page.set_content(
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>Statistics</title><link rel="stylesheet" href="{server}/static/app.css">'
            f"</head><body><main>{partial}</main></body></html>",
            wait_until="load",
        )
        # The leaderboard, one row a player, and each of the three games' tables.
        assert page.locator("table#leaderboard tbody tr").count() == 8
        assert page.locator("details.game-figures table").count() == 3
        assert page.locator("svg.chart-svg[role=img]").count() == 1
        audit.check("group statistics")
        fits_a_phone(audit, "group-stats")
    finally:
        audit.close()
