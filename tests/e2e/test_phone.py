"""A real headless Chromium, phone-sized, plays Yardkle against a live server."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM

PHONE = {"width": 360, "height": 740}
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# Controls a thumb must hit: at least 44 px high (and wide, for dice faces).
TAP_TARGETS = (
    "button, a.button, .face span, .pick span, input[type=text], input:not([type]), select, summary"
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium-headless-shell)",
    ),
]


# A phone's language, as its browser asks for it (Accept-Language, navigator.language),
# by the code of each language the app speaks.
LOCALES = {"en": "en-US", "fr": "fr-FR", "ja": "ja-JP"}
# The phones the layout tests run on, (language, JavaScript): English and French with
# JavaScript, Japanese without; each language once, each mode at least once. (English
# without JavaScript walks the pages in this file's tests, test_group_phone's and
# test_play_again's; a fourth phone here cost a quarter more of the slowest walks.)
LANGUAGE_MODES = [("en", True), ("fr", True), ("ja", False)]
LANGUAGE_MODE_IDS = [f"{code}-{'js' if js else 'no-js'}" for code, js in LANGUAGE_MODES]
in_languages = pytest.mark.parametrize(
    ("language", "javascript"), LANGUAGE_MODES, ids=LANGUAGE_MODE_IDS
)


def phone_context(
    browser: Any, javascript: bool = True, language: str | None = None, **context: object
) -> Any:
    """A context (a phone) of its own of the shared Chromium, 360x740, in ``language``
    (a code of LOCALES; none: the browser's own, English)."""
    if language is not None:
        context["locale"] = LOCALES[language]
    return browser.new_context(viewport=PHONE, java_script_enabled=javascript, **context)


def mode(language: str, javascript: bool) -> str:
    """A phone's language and mode, as screenshots' names carry them: "fr-js", "ja-nojs"."""
    return f"{language}-{'js' if javascript else 'nojs'}"


@contextlib.contextmanager
def phone(
    browser: Any, javascript: bool, language: str | None = None, **context: object
) -> Iterator[Any]:
    """A phone-sized page of the shared Chromium, in a context (a phone) of its own, in
    ``language`` (none: the browser's own, English)."""
    opened = phone_context(browser, javascript, language, **context)
    try:
        yield opened.new_page()
    finally:
        opened.close()


def check_language(page: Any, language: str) -> None:
    """The page says it is written in ``language`` (``<html lang>``), as the phone asked."""
    lang = page.evaluate("document.documentElement.lang")
    assert lang == language, f"{page.url}: <html lang={lang!r}>, the phone reads {language}"


def check_phone_layout(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (
        f"{name}: the page scrolls sideways"
    )
    small = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
            .filter(([_, box]) => box.height < 44 || (box.width < 44))
            .map(([html, box]) => `${html} ${box.width}x${box.height}`)""",
        TAP_TARGETS,
    )
    assert small == [], f"{name}: tap targets under 44 px: {small}"


# Where a tap lands, read in the same call as the page is marked (``mark``: the body's
# data attribute set first, or none) and its version read: the middle of the control, if
# the control is shown, enabled, whole on the screen and the topmost element there. A
# Playwright click checks as much with a dozen calls to the browser each time, and a
# round's walk makes hundreds of taps.
AIM = """function aim(control, mark) {
    if (mark) { document.body.setAttribute(mark, "yes"); }
    const box = control.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    const ready = control.checkVisibility() && box.width > 0 && box.height > 0 &&
        box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth &&
        !control.matches(":disabled, [aria-disabled=true], [aria-disabled=true] *");
    const hit = ready ? document.elementFromPoint(x, y) : null;
    return [document.body.getAttribute("data-version"),
            hit !== null && control.contains(hit) ? [x, y] : null];
}"""

# The one element a Control names, found by the page's own DOM (FIND's ``find``), so that
# a tap costs the browser no Playwright selector engine: on each new document its first
# use builds a world of its own and runs Playwright's whole injected script, which a
# round played tap by tap would pay hundreds of times. A button by its name as
# Playwright's role query reads it (its aria-label, else its shown text or an input's
# value, the white space collapsed), among the buttons not hidden; any other control by
# a CSS selector. Exactly one must match (or, for ``first``, at least one), or the tap
# fails naming the control: a finder that went wrong never taps something else.
FIND = r"""function find([how, what, first]) {
    let found;
    if (how === "css") {
        found = [...document.querySelectorAll(what)];
    } else {
        // The text of a node's content as a name reads it: what is hidden (aria-hidden,
        // not rendered) left out, a part's own aria-label for its text, a part not laid
        // out inline set apart by spaces.
        const text = (node) => {
            if (node.nodeType === Node.TEXT_NODE) { return node.data; }
            if (node.nodeType !== Node.ELEMENT_NODE ||
                node.getAttribute("aria-hidden") === "true" ||
                !node.checkVisibility({visibilityProperty: true})) { return ""; }
            const own = node.getAttribute("aria-label") ??
                [...node.childNodes].map(text).join("");
            return getComputedStyle(node).display === "inline" ? own : ` ${own} `;
        };
        const named = (button) => (button.getAttribute("aria-label") ??
            (button instanceof HTMLInputElement ? button.value
                : [...button.childNodes].map(text).join("")))
            .replace(/\s+/g, " ").trim();
        const wanted = {
            exact: (name) => name === what,
            pattern: (name) => new RegExp(what).test(name),
            part: (name) => name.toLowerCase().includes(what.toLowerCase()),
        }[how];
        found = [...document.querySelectorAll(
                "button, input[type=submit], input[type=button], input[type=reset], [role=button]")]
            .filter((button) => button.checkVisibility({visibilityProperty: true}) &&
                !button.closest("[aria-hidden=true]") && wanted(named(button)));
    }
    if (first ? found.length === 0 : found.length !== 1) {
        throw new Error(`${found.length} elements for the control ${how} ${what}`);
    }
    return found[0];
}"""


@dataclass(frozen=True)
class Control:
    """A control a test taps, found in the page by FIND: ``how`` is ``css`` (``what`` a
    selector), or how a button's name is matched to ``what``: ``exact``, ``part`` (case
    aside, as Playwright's inexact name) or ``pattern`` (a regular expression)."""

    how: str
    what: str
    first: bool = False

    def locator(self, page: Any) -> Any:
        """The same control as Playwright's locator, for its click's waiting."""
        if self.how == "css":
            found = page.locator(self.what)
        else:
            name = re.compile(self.what) if self.how == "pattern" else self.what
            found = page.get_by_role("button", name=name, exact=self.how == "exact")
        return found.first if self.first else found


def css(selector: str, first: bool = False) -> Control:
    return Control("css", selector, first)


def button(name: str, exact: bool = True) -> Control:
    return Control("exact" if exact else "part", name)


TAP_AIM = f"""([control, mark]) => {{
    {FIND}
    {AIM}
    return aim(find(control), mark);
}}"""
LOCATOR_AIM = f"(control, mark) => ({AIM})(control, mark)"


def click(page, control, mark: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """A real click (the mouse pressed and released) in the middle of ``control`` (a
    Control, or a Playwright locator), after setting the body's attribute ``mark``; the
    page's version before it (``"None"``: no session page). A control not yet tappable
    there (hidden, disabled, off the screen, under another element) is left to
    Playwright's click, which waits until it is.

    The page is loaded first: a link tapped just before may still be bringing it, and
    until its deferred script has run a tap that script takes (a group's player) would
    go as a plain form instead."""
    if isinstance(control, Control):
        page.wait_for_load_state()
        version, point = page.evaluate(TAP_AIM, [[control.how, control.what, control.first], mark])
    else:
        version, point = control.evaluate(LOCATOR_AIM, mark)
    if point is None:
        (control.locator(page) if isinstance(control, Control) else control).click()
    else:
        page.mouse.click(*point)
    return str(version)


def send(page, control) -> None:  # type: ignore[no-untyped-def]
    """Tap ``control`` (as click takes it), which sends its form, and wait for the page
    of the answer, loaded: with JavaScript the form goes by fetch, and the answer's page
    comes after the tap; its script (deferred) must have run before the next tap, or that
    tap would go as a plain form, unseen by what the script does (a send kept through an
    outage, say). The page the control is on must be loaded first: a link tapped just
    before may still be bringing it (no body yet to mark)."""
    page.wait_for_load_state()
    click(page, control, "data-sending")
    page.locator("body:not([data-sending])").wait_for(state="attached")
    page.wait_for_load_state()


def tap_roll(page, javascript: bool, *dice: int) -> None:  # type: ignore[no-untyped-def]
    """Tap each die; with JavaScript the last one records the roll, without it the button."""
    faces = [
        page.locator(f"label.face:has(input[name=die{index}][value='{die}'])")
        for index, die in enumerate(dice, start=1)
    ]
    for face in faces[:-1]:
        face.click()
    if javascript:
        send(page, faces[-1])
    else:
        faces[-1].click()
        send(page, page.get_by_role("button", name="Record the roll"))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_yardkle_game_on_a_phone_screen(server: str, browser: Any, javascript: bool) -> None:
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        outside: list[str] = []
        page.on(
            "request",
            lambda request: None if request.url.startswith(server) else outside.append(request.url),
        )
        page.goto(server)
        check_phone_layout(page, f"home-{suffix}")
        page.get_by_role("link", name="Start a session").click()
        page.get_by_role("link", name="Yardkle").click()
        check_phone_layout(page, f"new-{suffix}")
        page.fill("#seats-0", "Ann")
        page.fill("#seats-1", "Bo")
        send(page, page.get_by_role("button", name="Start the game"))

        check_phone_layout(page, f"roll-{suffix}")
        tap_roll(page, javascript, 1, 1, 1, 5, 2, 3)
        check_phone_layout(page, f"keep-{suffix}")
        assert "three 1s (1000) and single 5 (50)" in page.inner_text(".ruling")
        send(page, page.get_by_role("button", name="Set aside 1 1 1 5 and bank 1050"))
        assert "Ann banks 1050" in page.inner_text(".ruling")

        tap_roll(page, javascript, 2, 3, 4, 6, 4, 2)
        assert "Yardkle!" in page.inner_text(".ruling")
        send(page, page.get_by_role("button", name="Undo"))
        assert "Ann banks 1050" in page.inner_text(".ruling")
        assert "Bo rolls 6 dice" in page.content()

        page.locator("summary").click()
        page.fill("#points", "120")
        send(page, page.get_by_role("button", name="Record the total"))
        assert "multiple of 50" in page.inner_text("#error")
        check_phone_layout(page, f"refused-{suffix}")

        page.get_by_role("link", name="History").click()
        check_phone_layout(page, f"history-{suffix}")
        page.get_by_role("link", name="Share").click()
        check_phone_layout(page, f"share-{suffix}")
        page.get_by_role("link", name="Results").click()
        check_phone_layout(page, f"results-{suffix}")
        assert outside == [], f"requests outside the app: {outside}"


def test_dark_mode_is_taken_from_the_phone(server: str, browser: Any) -> None:
    with phone(browser, True) as page:
        page.emulate_media(color_scheme="dark")
        page.goto(server)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        check_phone_layout(page, "home-dark")
    assert background == "rgb(21, 19, 15)"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_disputed_trick_is_settled_on_a_phone_in_under_ten_taps(
    server: str, browser: Any, javascript: bool
) -> None:
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        page.goto(server)
        taps = 0
        for locator in (
            page.get_by_role("link", name="Whose trick?"),
            page.get_by_role("link", name="Yokai Septet"),
        ):
            locator.click()
            taps += 1
        check_phone_layout(page, f"judge-start-{suffix}")
        page.get_by_role("button", name="red", exact=True).click()
        taps += 1
        for card in ("blue 9", "blue 12", "red 6", "green 1"):
            page.get_by_role("button", name=card, exact=True).click()
            taps += 1
        assert taps < 10
        verdict = page.inner_text("#verdict")
        assert "Seat 4's Green 1 takes the trick" in verdict  # chips show capitalised
        assert "The green 1 takes every trick" in verdict
        check_phone_layout(page, f"judge-verdict-{suffix}")

        page.goto(f"{server}/judge/yadokarick")
        page.get_by_role("button", name="green 25", exact=True).click()
        check_phone_layout(page, f"judge-size-{suffix}")


def test_a_yokai_septet_trick_at_the_table_on_a_phone(server: str, browser: Any) -> None:
    with phone(browser, False) as page:
        page.goto(f"{server}/new/yokai-septet")
        for index, name in enumerate(("Ann", "Bo", "Cy", "Di")):
            page.fill(f"#seats-{index}", name)
        send(page, page.get_by_role("button", name="Start the game"))
        check_phone_layout(page, "yokai-trump")
        page.get_by_role("button", name="yellow 4", exact=True).click()
        page.get_by_role("button", name="Ann", exact=True).click()
        for card in ("red 12", "red 7", "red 6", "red 8"):
            page.get_by_role("button", name=card, exact=True).click()
        assert "Trick 1: Ann takes it with red 12." in page.inner_text(".ruling")
        check_phone_layout(page, "yokai-play")
        page.get_by_role("link", name="correct red 6").click()
        check_phone_layout(page, "yokai-correct")
        page.get_by_role("button", name="yellow 5", exact=True).click()
        assert "Trick 1: Cy takes it" in page.inner_text("details")


def test_a_cryptruck_round_starts_on_a_phone(server: str, browser: Any) -> None:
    with phone(browser, False) as page:
        page.goto(f"{server}/new/cryptruck")
        check_phone_layout(page, "cryptruck-new")
        for index, name in enumerate(("Ann", "Bo", "Cy")):
            page.fill(f"#seats-{index}", name)
        send(page, page.get_by_role("button", name="Start the game"))
        page.get_by_role("button", name="green 2", exact=True).click()
        page.get_by_role("button", name="red 5", exact=True).click()
        check_phone_layout(page, "cryptruck-bid")
        page.get_by_role("button", name="Pass").click()
        page.get_by_role("button", name="Pass").click()
        assert "Ann (the dealer) leads it" in page.inner_text(".ruling")
        page.get_by_role("button", name="red 6", exact=True).click()
        page.get_by_role("button", name="green 1", exact=True).click()
        assert "Trick 1: Cy takes it with green 1." in page.inner_text(".ruling")
        check_phone_layout(page, "cryptruck-play")


def start_on_phone(page, server: str, game: str, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/new/{game}")
    for index, name in enumerate(names):
        page.fill(f"#seats-{index}", name)
    send(page, page.get_by_role("button", name="Start the game"))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_yadokarick_trick_with_sizes_and_the_marker_on_a_phone(
    server: str, browser: Any, javascript: bool
) -> None:
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        page.goto(f"{server}/new/yadokarick")
        check_phone_layout(page, f"yadokarick-new-{suffix}")
        start_on_phone(page, server, "yadokarick", ["Ann", "Bo", "Cy", "Di"])
        check_phone_layout(page, f"yadokarick-start-{suffix}")
        for card, size in (("green 25", "3"), ("pink 8", "2"), ("green 17", "3"), ("pink 29", "1")):
            send(page, button(card))
            check_phone_layout(page, f"yadokarick-size-{suffix}")
            send(page, button(f"size {size}"))
        ruling = page.inner_text(".ruling")
        assert "Bo places green 25 and green 17 on the house" in ruling
        check_phone_layout(page, f"yadokarick-marker-{suffix}")
        send(page, button("← 10", exact=False))
        assert "Target size 10" in page.inner_text("main")
        check_phone_layout(page, f"yadokarick-houses-{suffix}")
        page.goto(f"{server}/decks")
        page.get_by_role("link", name="My Yadokarick deck").click()
        check_phone_layout(page, f"yadokarick-deck-{suffix}")
        assert page.get_by_label("size of green 25").input_value() == "3"


def test_a_yadokarick_solo_move_on_a_phone(server: str, browser: Any) -> None:
    with phone(browser, True) as page:
        start_on_phone(page, server, "yadokarick", ["Sol"])
        for number in (18, 17, 19, 5, 6):
            send(page, button(f"pink {number}"))
            send(page, button("size 2"))
        check_phone_layout(page, "yadokarick-solo-row")
        send(page, button("pink 18 onto crab 4"))
        assert "Crab 4 pink\nPink 18·2" in page.inner_text(".crabs")
        check_phone_layout(page, "yadokarick-solo-crab")


def test_a_yellow_dwarf_run_with_a_taker_card_on_a_phone(server: str, browser: Any) -> None:
    with phone(browser, False) as page:
        start_on_phone(page, server, "yellow-dwarf", ["Ann", "Bo", "Cy", "Di"])
        check_phone_layout(page, "yellow-dwarf-start")
        for card in ("8♥", "9♠", "10♦"):  # each card button is named by what it shows
            page.get_by_role("button", name=card, exact=True).click()
        check_phone_layout(page, "yellow-dwarf-called")
        page.get_by_role("button", name="Called").click()
        assert "Ann takes the 10 of Diamonds tray, 4 chips" in page.inner_text(".ruling")
        check_phone_layout(page, "yellow-dwarf-run")
        page.get_by_role("button", name="Ann: “without J”").click()
        assert "Bo" in page.inner_text(".seats li.current")


def test_an_eight_seat_score_sheet_on_a_phone(server: str, browser: Any) -> None:
    names = ["Annabelle", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    with phone(browser, False) as page:
        start_on_phone(page, server, "score-sheet", names)
        check_phone_layout(page, "score-sheet-start")
        for number, points in enumerate(
            (
                ["12", "-4", "0", "7", "3", "25", "-10", "1"],
                ["5", "8", "13", "0", "26", "2", "4", "9"],
                ["30", "-6", "1", "14", "0", "3", "18", "2"],
            ),
            start=1,
        ):
            for seat, text in enumerate(points):
                if text.startswith("-"):
                    # The number pad has no minus key: the seat's minus toggle makes it negative.
                    page.locator(f"label.sign:has(input[name=negative-{seat}])").click()
                page.fill(f"#points-{seat}", text.removeprefix("-"))
            page.get_by_role("button", name=f"Record round {number}").click()
        assert "Bo \u22126" in page.inner_text(".ruling")
        # The totals row under the names; the leader's column is marked.
        assert page.inner_text(".sheet-total.leader") == "47"
        check_phone_layout(page, "score-sheet-three-rounds")
        # Annabelle's 12 in round 1 was a minus 12: the correction form, one toggle, save.
        page.get_by_role("link", name="correct round 1").click()
        check_phone_layout(page, "score-sheet-correct")
        page.locator("label.sign:has(input[name=negative-0])").click()
        page.get_by_role("button", name="Save round 1").click()
        assert page.inner_text(".sheet-name.leader").endswith("Flo")
        assert page.inner_text(".sheet-total.leader") == "30"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_latest_tap_is_at_the_top_of_a_52_event_history(
    server: str, browser: Any, scheme: str
) -> None:
    with phone(browser, True) as page:
        api = f"{server}/api/v1/sessions"
        body = {"game": "yardkle", "seats": ["Ann", "Bo"], "options": {"entry_threshold": 0}}
        created = page.request.post(api, data=body).json()
        events = f"{api}/{created['id']}/events"
        key = {"Authorization": f"Bearer {created['edit_key']}"}
        for version in range(52):
            points = 300 if version == 51 else 50
            action = {"type": "total", "points": points}
            answer = page.request.post(
                events, data={"version": version, "action": action}, headers=key
            )
            assert answer.ok, answer.text()
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{server}/s/{created['id']}/history")
        check_phone_layout(page, f"history-52-{scheme}")
        page.screenshot(path=str(SHOTS / f"history-52-{scheme}-first-screen.png"))

        items = page.locator("ol.history > li")
        assert items.count() == 52
        assert items.first.inner_text() == (
            "52. turn total 300\nBo entered a turn of 300: total 1550. Ann rolls next."
        )
        assert items.last.inner_text() == (
            "1. turn total 50\nAnn entered a turn of 50: total 50. Bo rolls next."
        )
        top = items.first.bounding_box()
        assert top is not None and top["y"] + top["height"] <= PHONE["height"]
        assert page.inner_text("main").index("The newest first.") < page.inner_text("main").index(
            "52."
        )
