"""Every game's session page, mid-round, on a 360x740 phone reading French or Japanese:
no element's content reaches past its box sideways (a long French word in a button, CJK
text in a table cell), unless the element is meant to cut it ("…": a player's name, the
last ruling's one line) or to scroll; the page never scrolls sideways; and it says its
language (``<html lang>``).

Each game is walked as test_accessibility walks it (a scorer tapping only what the pages
offer, page_player), the page opened in the browser each time it shows a kind of step
not seen yet; each such page's screenshot goes to
screenshots/language-<game>-<language>-<step>.png. French is read with JavaScript,
Japanese without (test_phone.LANGUAGE_MODES).
"""

from __future__ import annotations

import os
import random
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from page_player import WALKS, Submission, submissions
from test_accessibility import START, fields_of, step_kind
from test_phone import CHROMIUM, PHONE, SHOTS, check_language, phone, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

# The phones: French with JavaScript, Japanese without.
LANGUAGES = {"fr": True, "ja": False}
# Enough steps to see each game's kinds of step in its first rounds (mid-round pages);
# the walk stops earlier at the end of the game.
MAX_STEPS = 50

# Each element shown whose content is wider than its box (scrollWidth > clientWidth), but
# for an element meant to scroll (overflow auto or scroll), one meant to cut its text
# with "…" (text-overflow: ellipsis), one hidden but for screen readers (clipped, or
# 1 px wide) and form fields (their own text scrolls in them): what reaches past its
# box, spilled over its neighbours or cut unseen.
OVERFLOWING = """() => [...document.querySelectorAll("body *")]
    .filter((element) => {
        if (!element.checkVisibility() || element.scrollWidth <= element.clientWidth) {
            return false;
        }
        const style = getComputedStyle(element);
        return !["auto", "scroll"].includes(style.overflowX) &&
            style.textOverflow !== "ellipsis" && style.clip === "auto" &&
            element.clientWidth > 1 &&
            !element.matches("input, select, textarea");
    })
    .map((element) => `${element.outerHTML.slice(0, 120)} ` +
        `(${element.scrollWidth} px of content in ${element.clientWidth})`)"""


def check_nothing_overflows(page: Any, name: str) -> list[str]:
    """What overflows on ``page`` (none: an empty list), its screenshot taken as ``name``."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    found = [f"{name}: {overflow}" for overflow in page.evaluate(OVERFLOWING)]
    width = page.evaluate("document.documentElement.scrollWidth")
    # An element past its box already says why the page is wider.
    if width > PHONE["width"] and not found:
        found.append(f"{name}: the page scrolls sideways ({width} px)")
    return found


def start_session(page: Any, base: str, slug: str, seats: list[str], fields: dict[str, str]) -> str:
    """Starts a session on the new-session page, as a scorer would; its page's address."""
    page.goto(f"{base}/new/{slug}")
    for index, name in enumerate(seats):
        page.fill(f"#seats-{index}", name)
    page.locator("details[data-options] > summary").click()
    for name, value in fields.items():
        if page.locator(f"#{name}").is_visible():
            page.fill(f"#{name}", value)
    if page.locator("#new_deck_name").count():
        page.fill("#new_deck_name", "Box")
    send(page, page.locator(START))
    assert re.search(r"/s/[\w-]+$", page.url), page.url
    return str(page.url)


def file_name(kind: str) -> str:
    return re.sub(r"[^\w]+", "-", kind).strip("-")


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("game", list(WALKS))
def test_no_element_overflows_its_box_on_a_game_page_in_french_and_japanese(
    server: str, browser: Any, game: str, language: str
) -> None:
    slug, seats, fields = WALKS[game]
    found: list[str] = []
    shown: list[str] = []
    with phone(browser, LANGUAGES[language], language) as page:
        session_url = start_session(page, server, slug, seats, fields)
        check_language(page, language)
        seen: set[str] = set()
        rng = random.Random(game)
        url, html = session_url, page.request.get(session_url).text()
        for _ in range(MAX_STEPS):
            offered = submissions(html, rng)
            kind = step_kind(html, url, offered)
            if kind not in seen:
                seen.add(kind)
                page.goto(url)
                name = f"language-{game}-{language}-{file_name(kind)}"
                found += check_nothing_overflows(page, name)
                shown.append(kind)
                # An open session page reloads itself when the session changes.
                page.goto("about:blank")
            if not offered:
                break
            by_type: dict[str, list[Submission]] = {}
            for sub in offered:
                by_type.setdefault(dict(sub.fields).get("type", ""), []).append(sub)
            chosen = rng.choice(by_type[rng.choice(sorted(by_type))])
            answer = page.request.post(
                server + chosen.action,
                data=urlencode(fields_of(chosen)),
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            url = answer.url if answer.ok else session_url
            html = answer.text() if answer.ok else page.request.get(url).text()
        for page_name in ("history", "results"):
            page.goto(f"{session_url}/{page_name}")
            found += check_nothing_overflows(page, f"language-{game}-{language}-{page_name}")
    # Mid-round: the walk saw more than the first step.
    assert len(shown) >= 2, shown
    assert found == [], "overflowing:\n" + "\n".join(found)


# The round column's words in each language: its heading as shown and as read aloud (the
# whole word, where the column shows a short one), and the totals row's heading.
SHEET_WORDS = {
    "en": ("Round", "Round", "Total"),
    "fr": ("N°", "Manche", "Total"),
    "ja": ("回", "ラウンド", "合計"),
}
# The round column's headings as shown: what is only read aloud (.sr) left out.
SHOWN_HEADINGS = """() => [...document.querySelectorAll("thead .sheet-round")].map((heading) => {
    const shown = heading.cloneNode(true);
    shown.querySelectorAll(".sr").forEach((hidden) => hidden.remove());
    return [shown.textContent, heading.getBoundingClientRect().width];
})"""


@pytest.mark.parametrize("language", list(SHEET_WORDS))
def test_a_twelve_seat_score_sheet_holds_its_round_columns_words_in_every_language(
    server: str, browser: Any, language: str
) -> None:
    """The round column stays as narrow as a tap on its R1 allows, so that twelve seats
    share the rest of the phone's width, and still holds its headings whole, in English
    too; a screen reader hears the whole word for a round."""
    shown, read, total = SHEET_WORDS[language]
    with phone(browser, True, language) as page:
        api = f"{server}/api/v1/sessions"
        seats = [f"Player {number}" for number in range(1, 13)]
        created = page.request.post(api, data={"game": "score-sheet", "seats": seats}).json()
        page.request.post(
            f"{api}/{created['id']}/events",
            data={"version": 0, "action": {"type": "round", "points": list(range(-5, 7))}},
            headers={"Authorization": f"Bearer {created['edit_key']}"},
        )
        page.goto(created["links"]["join"])
        check_language(page, language)
        assert page.evaluate(SHOWN_HEADINGS) == [[shown, 44], [total, 44]]
        assert page.get_by_role("columnheader", name=read, exact=True).count() == 1
        assert page.get_by_role("rowheader", name=total, exact=True).count() == 1
        assert check_nothing_overflows(page, f"language-score-sheet-12-{language}") == []
