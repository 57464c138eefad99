"""On a phone: a short game finishes, its results say when it started and ended, and
"Play again" lands on the next session at the same table."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from test_local_time import as_shown_in_the_zone, as_written_in_utc, phone_in_the_zone
from test_phone import CHROMIUM, check_phone_layout, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_finished_game_is_played_again(server: str, browser: Any, javascript: bool) -> None:
    shown = as_shown_in_the_zone if javascript else as_written_in_utc
    suffix = "js" if javascript else "nojs"
    with phone_in_the_zone(browser, javascript) as page:
        page.goto(f"{server}/new/score-sheet")
        page.fill("#seats-0", "Ann")
        page.fill("#seats-1", "Bo")
        page.fill("#option_target", "10")
        send(page, page.get_by_role("button", name="Start the game"))
        first_game = page.url
        page.fill("#points-0", "10")
        page.fill("#points-1", "4")
        send(page, page.get_by_role("button", name="Record round 1"))
        assert page.locator(".badge", has_text="finished").is_visible()
        check_phone_layout(page, f"play-again-finished-{suffix}")

        page.get_by_role("link", name="Results").click()
        check_phone_layout(page, f"play-again-results-{suffix}")
        timing = page.inner_text(".timing")
        assert re.search(r"Played for (less than a minute|1 min)$", timing), timing
        started, ended = (
            page.locator(".timing time").nth(n).get_attribute("datetime") for n in (0, 1)
        )
        assert started is not None and ended is not None
        assert timing.startswith(f"Started {shown(started)}\nEnded {shown(ended)}\n")

        send(page, page.get_by_role("button", name="Play again"))
        assert page.url != first_game and page.url.startswith(f"{server}/s/")
        check_phone_layout(page, f"play-again-next-{suffix}")
        assert page.get_by_role("button", name="Record round 1").is_visible()
        assert page.input_value("#points-0") == ""
        # The same seats and options: Ann and Bo, to 10.
        labels = [page.inner_text(f"label[for=points-{seat}]").split()[0] for seat in (0, 1)]
        assert labels == ["Ann", "Bo"]
        assert "game ends at 10" in page.inner_text(".board")
        previous = page.get_by_role("link", name="← previous game")
        assert previous.get_attribute("href") == first_game.removeprefix(server)

        next_game = page.url
        previous.click()
        # The game it started is where its scorer's button goes now.
        assert page.get_by_role("button", name="Play again").count() == 0
        send(page, page.get_by_role("button", name="Score the next game →"))
        assert page.url == next_game
