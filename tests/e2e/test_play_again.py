"""On a phone: a short game finishes, its results say when it started and ended, and
"Play again" lands on the next session at the same table."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from test_local_time import as_shown_in_the_zone, as_written_in_utc, phone_in_the_zone
from test_phone import CHROMIUM, check_phone_layout, phone, send

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
        page.locator("details[data-options] > summary").click()
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


def both_schemes(page: Any, name: str) -> None:
    """screenshots/<name>-light.png and -dark.png, each checked for sideways scroll."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_phone_layout(page, f"{name}-{scheme}")
    page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_play_again_nobody_played_is_ready_to_start_and_removed_from_the_list(
    server: str, browser: Any, javascript: bool
) -> None:
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        page.goto(f"{server}/new/score-sheet")
        for seat, name in enumerate(("Ann", "Bo", "Cy", "Di")):
            page.fill(f"#seats-{seat}", name)
        page.locator("details[data-options] > summary").click()
        page.fill("#option_target", "10")
        send(page, page.get_by_role("button", name="Start the game"))
        first_game = page.url
        for seat, points in enumerate(("10", "4", "10", "0")):
            page.fill(f"#points-{seat}", points)
        send(page, page.get_by_role("button", name="Record round 1"))
        # Who won, worded the same on the page, the results and the home list.
        assert page.inner_text(".winner").strip() == "Ann & Cy win!"
        page.get_by_role("link", name="Results").click()
        assert page.inner_text("p.winner") == "Ann & Cy win"
        # The grid CSV beside the others, named after the game and the day.
        with page.expect_download() as grid:
            page.get_by_role("link", name="CSV grid").click()
        day = page.locator(".timing time").first.get_attribute("datetime")[:10]
        assert grid.value.suggested_filename == f"score-sheet-{day}-grid.csv"
        with open(grid.value.path(), encoding="utf-8", newline="") as file:
            assert file.read() == (
                "round,Ann,Bo,Cy,Di\r\n1,10,4,10,0\r\ntotal,10,4,10,0\r\nplace,1,3,1,4\r\n"
            )
        both_schemes(page, f"results-downloads-{suffix}")
        send(page, page.get_by_role("button", name="Play again"))
        next_game = page.url

        page.goto(f"{server}/")
        items = page.locator("ul.sessions li")
        ready = items.filter(has=page.locator(f'a[href="{next_game.removeprefix(server)}"]'))
        assert ready.locator(".badge").all_inner_texts() == ["ready to start"]
        finished = items.filter(has=page.locator(f'a[href="{first_game.removeprefix(server)}"]'))
        assert finished.locator(".winner").inner_text() == "Ann & Cy win"
        both_schemes(page, f"home-ready-to-start-{suffix}")
        ready.get_by_role("link", name=re.compile("^Remove this game")).click()
        assert page.inner_text("h1") == "Remove this game?"
        both_schemes(page, f"remove-game-{suffix}")
        send(page, page.get_by_role("button", name="Remove this game"))
        assert page.url == f"{server}/"
        assert page.locator(f'a[href="{next_game.removeprefix(server)}"]').count() == 0
        # Its previous game starts a new next game.
        page.goto(first_game)
        send(page, page.get_by_role("button", name="Play again"))
        assert page.url not in (first_game, next_game)


def test_an_imported_game_is_marked_on_its_own_page(server: str, browser: Any) -> None:
    with phone(browser, True) as page:
        made = page.request.post(
            f"{server}/api/v1/sessions",
            data={"game": "score-sheet", "seats": ["Ann", "Bo"], "options": {"target": 10}},
        ).json()
        exported = page.request.get(f"{server}/api/v1/sessions/{made['id']}/export").json()
        copy = page.request.post(f"{server}/api/v1/sessions/import", data=exported).json()
        page.goto(f"{server}/s/{made['id']}")
        assert page.locator("h1 .badge").all_inner_texts() == []
        page.goto(f"{server}/s/{copy['id']}")
        assert page.locator("h1 .badge").all_inner_texts() == ["imported"]
        both_schemes(page, "imported-session")
