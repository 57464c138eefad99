"""The results page's score chart on a 360 px phone in real Chromium: no sideways scroll,
no serious axe violation in light and dark, with eight players, long names and negative
scores. Screenshots go to screenshots/ (results-chart-light.png, results-chart-dark.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_accessibility import Audit
from test_phone import CHROMIUM, SHOTS, check_phone_layout, server  # noqa: F401

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)",
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
    server: str,  # noqa: F811
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
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            check_phone_layout(page, f"results-chart-{scheme}")
        audit.assert_clean()
    finally:
        audit.close()
