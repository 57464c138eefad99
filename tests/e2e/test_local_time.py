"""Times on a phone: the server writes them in UTC, the page shows them in the phone's own
time zone with JavaScript and says UTC without it, on the home list and in the history."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from test_phone import CHROMIUM, check_phone_layout, phone, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

# Half an hour off UTC: a time shown in it cannot pass for the UTC one by accident.
ZONE = "Asia/Kolkata"


def as_shown_in_the_zone(utc_text: str) -> str:
    """How en-GB writes a time at medium date and short time style in ``ZONE``."""
    moment = datetime.strptime(utc_text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    local = moment.astimezone(ZoneInfo(ZONE))
    return f"{local.day} {local:%b %Y}, {local:%H:%M}"


def as_written_in_utc(utc_text: str) -> str:
    """How the server writes a time for a page read without JavaScript."""
    return f"{utc_text[:10]} {utc_text[11:16]} UTC"


def phone_in_the_zone(browser: Any, javascript: bool) -> contextlib.AbstractContextManager[Any]:
    """A page of a phone in ``ZONE`` writing dates as en-GB does."""
    return phone(browser, javascript, timezone_id=ZONE, locale="en-GB")


def score_a_corrected_round(page, url: str) -> None:  # type: ignore[no-untyped-def]
    """A Hearts score sheet with one round, then that round corrected from its history."""
    page.goto(f"{url}/new/score-sheet")
    page.fill("#seats-0", "Ann")
    page.fill("#seats-1", "Bo")
    # Each form sent waits for its answer's page: with JavaScript the form goes by fetch,
    # and a link tapped on the page before it would open before the round is recorded.
    send(page, page.get_by_role("button", name="Start the game"))
    page.fill("#points-0", "3")
    page.fill("#points-1", "10")
    send(page, page.get_by_role("button", name="Record round 1"))
    page.get_by_role("link", name="History").click()
    page.get_by_role("link", name="correct event 1").click()
    page.fill("#points-0", "13")
    page.fill("#points-1", "0")
    send(page, page.get_by_role("button", name="Save round 1"))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_home_and_history_times_show_in_the_phones_time_zone(
    server: str,
    browser: Any,
    javascript: bool,
) -> None:
    suffix = "js" if javascript else "nojs"
    with phone_in_the_zone(browser, javascript) as page:
        score_a_corrected_round(page, server)

        page.get_by_role("link", name="History").click()
        check_phone_layout(page, f"history-corrected-{suffix}")
        assert page.inner_text(".history del").split() == ["replaced:", "round:", "3,", "10"]
        corrected = page.locator(".history time")
        corrected_utc = corrected.get_attribute("datetime")
        assert corrected_utc is not None
        corrected_text = corrected.inner_text()

        page.goto(server)
        check_phone_layout(page, f"home-list-{suffix}")
        changed = page.locator(".sessions time")
        changed_utc = changed.get_attribute("datetime")
        assert changed_utc is not None
        if javascript:
            assert corrected_text == as_shown_in_the_zone(corrected_utc)
            assert changed.inner_text() == as_shown_in_the_zone(changed_utc)
            assert changed.get_attribute("title") == as_written_in_utc(changed_utc)
        else:
            assert corrected_text == as_written_in_utc(corrected_utc)
            assert changed.inner_text() == as_written_in_utc(changed_utc)
