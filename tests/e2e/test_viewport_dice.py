"""The dice games, Yadokarick and the score sheet on a 360x740 phone: after every tap
the next input is whole on the first screen, with the page still at the top, and the
last ruling's one-line result whole above it.

Each test plays a whole round through the pages, in one Chromium shared by the module:
in English and in French with JavaScript, in Japanese without
(test_phone.LANGUAGE_MODES). The controls are tapped by what they send (CSS selectors),
except in English, where they are found by their names as before; what the pages say
is checked in English.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from test_phone import (
    CHROMIUM,
    FIND,
    LANGUAGE_MODE_IDS,
    LANGUAGE_MODES,
    PHONE,
    Control,
    button,
    check_language,
    click,
    css,
    mode,
    phone_context,
)
from test_viewport_cards import RULING_READ, ruling_line_misplaced

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

SHOTS = "/tmp/shots/dice"

# The forms that ask for the next tap, whichever the page shows: each game's
# templates give its input these ids.
NEXT_INPUT = (
    "#roll-form, #keep-form, #total-form, #size-step, #play-form, #marker-form, #draw-form, "
    "#take, #bonus, #give-up[open], #round-form"
)


class Phone:
    """A 360x740 page, with or without JavaScript, in a language ("en", "fr", "ja")."""

    def __init__(self, page: Any, javascript: bool, language: str = "en") -> None:
        self.page = page
        self.javascript = javascript
        self.language = language

    @property
    def english(self) -> bool:
        return self.language == "en"

    @property
    def mode(self) -> str:
        """Its language and mode, as screenshots' names carry them ("fr-js")."""
        return mode(self.language, self.javascript)

    def control(self, name: str, selector: str, exact: bool = True) -> Control:
        """A button: by its English ``name`` on an English phone, else by ``selector``
        (what it sends, in any language)."""
        return button(name, exact) if self.english else css(selector)


@pytest.fixture(params=LANGUAGE_MODES, ids=LANGUAGE_MODE_IDS)
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Phone]:
    language, javascript = request.param
    context = phone_context(browser, javascript, language)
    yield Phone(context.new_page(), javascript, language)
    check_language(context.pages[0], language)
    context.close()


# The buttons tapped by what they send, in any language.
START = "form:has(#seats-0) > p > button[type=submit]"
UNDO = "form[action$='/undo'] button"
RECORD_ROLL = "#roll-form button[data-only-without-script]"
SET_ASIDE_AND_BANK = "#keep-bank-form button[name=then][value=bank]"
SET_ASIDE_ROLL_ON = "#keep-form button[name=then][value=roll]"
BANK = "button[form=bank-form]"
RECORD_TOTAL = "#total-form button[type=submit]"
STAY = "#marker-form button[name=move][value=stay]"
RECORD_ROUND = "#round-form button[type=submit]:not([form])"
FINISH = "button[form=finish-form]"


def card_button(card: str) -> str:
    return f"button.cardbtn[value='{card}']"


def size_button(size: int) -> str:
    return f"#size-step button[name=size][value='{size}']"


# What the checks after a tap read from the page, in one call to the browser: its
# version, its scroll offset, where each shown input form starts and ends, the last
# ruling (RULING_READ), and how many elements a few selectors find (the game over, a
# question asked first, the moves offered).
PAGE_READ = f"""([selector, counted]) => {{
    {RULING_READ}
    const boxes = [...document.querySelectorAll(selector)]
        .filter(form => form.checkVisibility())
        .map(form => [form.id, form.getBoundingClientRect().top,
                      form.getBoundingClientRect().bottom]);
    return {{
        version: document.body.getAttribute("data-version"),
        scroll: window.scrollY,
        boxes,
        ruling: readRuling(),
        tapped: document.body.hasAttribute("data-tapped"),
        counts: Object.fromEntries(counted.map(
            (found) => [found, document.querySelectorAll(found).length])),
    }};
}}"""
COUNTED = [".winner", "#size-step", "#marker-form", "#draw-form", "#take button"]


def read_page(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(PAGE_READ, [NEXT_INPUT, COUNTED]))


def check_next_input(shown: dict[str, Any], after: str) -> None:
    """``shown``: what read_page read."""
    scroll, boxes = shown["scroll"], [tuple(box) for box in shown["boxes"]]
    assert scroll == 0, f"after {after}: the page scrolled to {scroll}"
    if shown["counts"][".winner"]:
        assert boxes == [], f"after {after}: the game is over but asks for more"
        return
    assert boxes, f"after {after}: no input on the page"
    outside = [box for box in boxes if box[1] < 0 or box[2] > PHONE["height"]]
    assert outside == [], f"after {after}: input not whole on the first screen: {outside}"
    misplaced = ruling_line_misplaced(shown["ruling"], min(box[1] for box in boxes))
    assert misplaced is None, f"after {after}: {misplaced}"


def version(page: Any) -> str:
    return str(page.get_attribute("body", "data-version"))


def tap(page: Any, control: Control, what: str, records: bool = True) -> dict[str, Any]:
    """Tap, and when the tap sends something wait for the page of the answer: the
    session's next version, or the question it asks first (a card's size). Then check
    the next input; what the page shows then (read_page).

    The answer's page is a new document, loaded: waited for as the browser's navigation
    (with JavaScript the form goes by fetch, and the page of its answer replaces this
    one), and read without the mark this page gets. A locator's wait would cost the
    browser Playwright's injected script on every new document, and a predicate polled
    by wait_for_function is never run again on a page without JavaScript.
    """
    url = page.url
    if records:
        with page.expect_navigation():
            seen = click(page, control, "data-tapped")
    else:
        seen = click(page, control)
        page.wait_for_load_state()
    shown = read_page(page)
    if records:
        assert not shown["tapped"], f"{what}: the page read is the one tapped"
        asked_size = page.url != url and shown["counts"]["#size-step"] > 0
        assert str(shown["version"]) != seen or asked_size, f"{what} was not recorded"
    check_next_input(shown, what)
    return shown


def start(page: Any, server: str, game: str, names: list[str], **options: str) -> None:
    page.goto(f"{server}/new/{game}")
    for index, name in enumerate(names):
        page.fill(f"#seats-{index}", name)
    if options:
        page.locator("details[data-options] > summary").click()
    for option, value in options.items():
        page.fill(f"#option_{option}", value)
    page.locator(START).click()
    # With JavaScript the form goes by fetch: the session's page comes after the tap.
    page.locator("body[data-session]").wait_for(state="attached")
    page.wait_for_load_state()
    check_next_input(read_page(page), f"starting {game}")


def ruling(page: Any) -> str:
    return str(page.inner_text(".ruling"))


# --- Yardkle -----------------------------------------------------------------------


def roll(phone: Phone, *dice: int) -> None:
    """Tap each die's face: with JavaScript the last one records the roll; without,
    "Record the roll" does."""
    page = phone.page
    for index, die in enumerate(dice, start=1):
        face = css(f"label.face:has(input[name=die{index}][value='{die}'])")
        records = phone.javascript and index == len(dice)
        tap(page, face, f"die {index} showing {die}", records=records)
    if not phone.javascript:
        tap(page, phone.control("Record the roll", RECORD_ROLL), f"recording {dice}")


def headline(page: Any, name_cut: bool = False) -> str:
    """The last ruling's one line, checked whole: its words are not cut by the line's end
    (where it stands, on the first screen above the input, check_next_input checks), nor
    the player's name in it, unless ``name_cut`` (a name too long for the line: cut short
    before what happened is)."""
    line = page.locator("#ruling-line")
    cut = line.evaluate(
        """line => [line, line.querySelector('.who')].map(
            part => part !== null && part.scrollWidth > part.clientWidth)"""
    )
    assert cut == [False, name_cut], (
        f"the one-line result, cut (line, name) {cut}: {line.inner_text()!r}"
    )
    return str(line.inner_text())


def test_with_javascript_a_yardkle_roll_records_on_its_last_die(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    start(page, server, "yardkle", ["Ann", "Bo"])
    for index, die in enumerate((1, 1, 1, 5, 2), start=1):
        page.locator(f"label.face:has(input[name=die{index}][value='{die}'])").click()
    assert version(page) == "0"  # five dice of six: nothing sent yet
    with page.expect_navigation():
        page.locator("label.face:has(input[name=die6][value='3'])").click()
    # Sent as the form is (its version and one-time key): one event, the set-aside next.
    assert version(page) == "1"
    assert ruling(page).endswith(
        "Ann rolled 1 1 1 5 2 3: three 1s (1000) and single 5 (50) can score up to 1050."
    )
    assert page.locator("#keep-form").count() == 1
    context.close()


def face(die: int, shows: int) -> Control:
    return css(f"label.face:has(input[name=die{die}][value='{shows}'])")


def dice_marked(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all("#roll-form input:checked", "dice => dice.map(d => d.value)")
    )


def test_undo_of_a_yardkle_roll_gives_its_dice_back_to_change_one(
    server: str, phone: Phone
) -> None:
    """With JavaScript the last die sends the roll and "Record the roll" is not shown; a
    wrong die is one Undo and one tap. Without, the button sends it, also after an Undo."""
    page = phone.page
    start(page, server, "yardkle", ["Ann", "Bo"])
    record = (
        page.get_by_role("button", name="Record the roll")
        if phone.english
        else page.locator(f"{RECORD_ROLL}:visible")
    )
    assert record.count() == (0 if phone.javascript else 1)

    roll(phone, 1, 1, 1, 5, 2, 3)
    tap(page, phone.control("Undo", UNDO, exact=False), "undoing the roll")

    if phone.english:
        assert "Ann rolls 6 dice" in page.inner_text("#roll-form h2")
    assert dice_marked(page) == ["1", "1", "1", "5", "2", "3"]
    assert record.count() == (0 if phone.javascript else 1)
    assert page.locator("#roll-form button[data-only-without-script]").count() == 1  # hidden
    suffix = phone.mode
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/yardkle-undone-roll-{suffix}-{scheme}.png")
    # The last die was a 4: with JavaScript its tap sends the roll again.
    tap(page, face(6, 4), "die 6 showing 4", records=phone.javascript)
    if not phone.javascript:
        assert dice_marked(page) == ["1", "1", "1", "5", "2", "4"]
        tap(
            page,
            phone.control("Record the roll", RECORD_ROLL, exact=False),
            "recording the changed roll",
        )
    if phone.english:
        assert ruling(page).endswith(
            "Ann rolled 1 1 1 5 2 4: three 1s (1000) and single 5 (50) can score up to 1050."
        )
    assert page.locator("#keep-form").count() == 1


def test_a_yardkle_round_of_eight_keeps_each_next_input_on_the_first_screen(
    server: str, phone: Phone
) -> None:
    page = phone.page
    start(page, server, "yardkle", ["Annabelle", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])

    english = phone.english
    roll(phone, 1, 1, 1, 5, 2, 3)
    tap(
        page,
        phone.control("Set aside 1 1 1 5 and bank 1050", SET_ASIDE_AND_BANK),
        "Annabelle's set-aside",
    )
    if english:
        assert "Annabelle banks 1050" in ruling(page)

    roll(phone, 2, 3, 4, 6, 4, 2)
    if english:
        assert "Yardkle!" in ruling(page)
    said = headline(page)
    if english:
        assert said == "Yardkle! Bo scores nothing"

    roll(phone, 1, 2, 3, 4, 5, 6)
    tap(page, phone.control("Set aside, roll on", SET_ASIDE_ROLL_ON), "Cy's hot dice")
    roll(phone, 5, 5, 5, 2, 3, 4)
    tap(
        page,
        phone.control("Set aside 5 5 5 and bank 2000", SET_ASIDE_AND_BANK),
        "Cy's second set-aside",
    )
    if english:
        assert "Cy banks 2000" in ruling(page)

    # Only the 5 scores and 50 cannot stop the turn: no tap sets it aside, the next
    # roll does.
    roll(phone, 5, 2, 3, 4, 6, 6)
    roll(phone, 1, 1, 1, 2, 3)
    tap(page, phone.control("Set aside 1 1 1 and bank 1050", SET_ASIDE_AND_BANK), "Di's three 1s")
    if english:
        assert "Di banks 1050" in ruling(page)

    tap(page, css("summary"), "opening the whole-turn total", records=False)
    page.fill("#points", "600")
    tap(page, phone.control("Record the total", RECORD_TOTAL), "Ed's total")
    assert "Ed" in ruling(page)

    roll(phone, 1, 1, 1, 2, 3, 4)
    tap(page, phone.control("Set aside, roll on", SET_ASIDE_ROLL_ON), "Flo's three 1s")
    tap(page, phone.control("Bank 1000", BANK), "Flo's bank")
    if english:
        assert "Flo banks 1000" in ruling(page)

    roll(phone, 2, 2, 2, 3, 4, 6)
    roll(phone, 2, 3, 4)
    if english:
        assert "Yardkle!" in ruling(page)
    said = headline(page)
    if english:
        assert said == "Yardkle! Gus loses 200"

    tap(page, css("summary"), "opening the whole-turn total", records=False)
    page.fill("#points", "500")
    tap(page, phone.control("Record the total", RECORD_TOTAL), "Hal's total")
    if not english:
        return
    assert "Annabelle rolls next" in ruling(page)
    assert page.locator(".seat-score").all_inner_texts() == [
        "1,050",
        "0 not in",
        "2,000",
        "1,050",
        "600",
        "1,000",
        "0 not in",
        "500",
    ]


def test_a_yardkle_bust_says_whole_on_the_first_screen_what_a_long_name_lost(
    server: str, phone: Phone
) -> None:
    page = phone.page
    start(page, server, "yardkle", ["Maximilianus", "Wolfgang-Wilhelm"])
    roll_on = phone.control("Set aside, roll on", SET_ASIDE_ROLL_ON)
    roll(phone, 1, 1, 1, 5, 5, 2)
    tap(page, roll_on, "three 1s and two 5s")
    roll(phone, 1)  # hot dice: the 1 is set aside by the next roll
    roll(phone, 5, 2, 3, 4, 6, 6)
    tap(page, roll_on, "the 5")
    roll(phone, 2, 3, 4, 6, 2)
    said = headline(page)
    if phone.english:
        assert said == "Yardkle! Maximilianus loses 1,250"
        assert "Wolfgang-Wilhelm rolls next" in ruling(page)
    suffix = phone.mode
    os.makedirs(SHOTS, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=f"{SHOTS}/yardkle-bust-{suffix}-{scheme}.png")
    # A name longer than the line has room for is cut short; what the roll lost is whole.
    roll(phone, 1, 1, 1, 5, 5, 2)
    tap(page, roll_on, "three 1s and two 5s")
    roll(phone, 2)
    said = headline(page, name_cut=True)
    if phone.english:
        assert said == "Yardkle! Wolfgang-Wilhelm loses 1,100"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=f"{SHOTS}/yardkle-bust-long-name-{suffix}-{scheme}.png")


def enabled(page: Any, control: Control) -> bool:
    """Whether ``control`` (exactly one) is enabled, as Playwright's is_enabled tells."""
    return bool(
        page.evaluate(
            f"""(control) => {{
                {FIND}
                return !find(control).matches(":disabled, [aria-disabled=true]");
            }}""",
            [control.how, control.what, control.first],
        )
    )


# --- Yadokarick ----------------------------------------------------------------------


def size_of(card: str) -> int:
    return int(card.split()[1]) % 5 + 1


def lay(phone: Phone, card: str, action: str = "playing") -> dict[str, Any]:
    """Tap a card of the picker, and its size when the page asks it; what the page shows
    then (read_page)."""
    page = phone.page
    shown = tap(page, phone.control(card, card_button(card)), f"{action} {card}")
    if shown["counts"]["#size-step"]:
        size = size_of(card)
        shown = tap(page, phone.control(f"size {size}", size_button(size)), f"the size of {card}")
    return shown


def test_a_seven_player_yadokarick_round_keeps_each_next_input_on_the_first_screen(
    server: str, phone: Phone
) -> None:
    page = phone.page
    start(page, server, "yadokarick", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"], rounds="2")
    deck = [f"{colour} {number}" for number in range(1, 37) for colour in ("green", "pink")]
    for card in deck[:70]:
        shown = lay(phone, card)
        while shown["counts"]["#marker-form"]:
            stay = Control("pattern", "^Stay on") if phone.english else css(STAY)
            shown = tap(page, stay, "the marker")
    if not phone.english:
        return
    assert page.inner_text(".board").startswith("Round 2 of 2")
    assert page.locator("#play-form h2").inner_text() == "Cy plays: tap the card"
    assert page.locator("h2", has_text="Rounds").count() == 1


def test_a_yadokarick_round_against_the_npc_crab_keeps_each_next_input_on_the_first_screen(
    server: str, phone: Phone
) -> None:
    page = phone.page
    start(page, server, "yadokarick", ["Ann", "Bo"])
    for number in range(1, 31):
        lay(phone, f"green {number}")
    if not phone.english:
        assert page.locator(".winner").count() == 1
        return
    assert page.inner_text(".winner").endswith("wins!")
    assert page.locator("h2", has_text="Result").count() == 1


def test_a_yadokarick_solo_game_keeps_each_next_input_on_the_first_screen(
    server: str, phone: Phone
) -> None:
    page = phone.page
    start(page, server, "yadokarick", ["Sol"])
    drawn = iter(
        f"{colour} {number}"
        for number in range(36, 0, -1)
        for colour in ("green", "pink")
        if number != 30
    )
    for _ in range(5):
        shown = lay(phone, next(drawn), "drawing")
    draws = 5
    for move in range(12):
        if shown["counts"]["#take button"]:
            shown = tap(page, css("#take button", first=True), f"move {move}")
        else:
            shown = tap(page, css("#give-up button", first=True), f"giving up, move {move}")
        while shown["counts"]["#draw-form"]:
            card = next(drawn)
            while not enabled(page, phone.control(card, card_button(card))):
                card = next(drawn)
            shown = lay(phone, card, "drawing")
            draws += 1
    # Every tap on a move recorded one event, and so did every draw (its size with it).
    assert version(page) == str(draws + 12)


# --- Score sheet ---------------------------------------------------------------------


def test_an_eight_seat_score_sheet_keeps_each_next_input_on_the_first_screen(
    server: str, phone: Phone
) -> None:
    page = phone.page
    names = ["Annabelle", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    start(page, server, "score-sheet", names)
    for number in (1, 2, 3):
        for seat in range(len(names)):
            tap(page, css(f"#points-{seat}"), f"round {number}, seat {seat}", False)
            page.keyboard.type(str(seat * number))
        tap(page, phone.control(f"Record round {number}", RECORD_ROUND), f"round {number}")
    assert page.locator(".sheet-name.leader").inner_text() == "★\nHal"
    assert "Hal ★ 42" in page.inner_text("#round-form")
    tap(page, phone.control("Finish the game", FINISH), "the end of the game")
    assert "Hal" in page.inner_text(".winner")


def sheet_boxes(page: Any) -> dict[str, Any]:
    """Where the score sheet's cells are: how far its box scrolls sideways, and each
    row's header text with the right edge of its last cell and its top."""
    return dict(
        page.evaluate(
            """() => {
                const table = document.querySelector('table.sheet');
                let box = table.parentElement;
                const sideways = [table, box].map(node => node.scrollWidth - node.clientWidth);
                const rows = [...table.rows].map(row => [
                    row.cells[0].innerText.trim(),
                    Math.max(...[...row.cells].map(cell => cell.getBoundingClientRect().right)),
                    row.getBoundingClientRect().top,
                    [...row.cells].slice(1).map(cell => cell.innerText.trim()),
                ]);
                return {sideways: Math.max(...sideways), rows};
            }"""
        )
    )


@pytest.mark.parametrize(
    "names",
    [["Ann", "Bo", "Cy", "Di"], ["Annabelle", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]],
    ids=["4", "8"],
)
def test_the_score_sheet_shows_totals_and_every_round_without_scrolling_sideways(
    server: str, phone: Phone, names: list[str]
) -> None:
    page = phone.page
    start(page, server, "score-sheet", names)
    rounds = [
        [(seat * 37 + number * 53) % 250 - 60 for seat in range(len(names))] for number in range(6)
    ]
    for number, points in enumerate(rounds, start=1):
        for seat, value in enumerate(points):
            if value < 0:
                page.locator(f"label.sign:has(input[name=negative-{seat}])").click()
            page.fill(f"#points-{seat}", str(abs(value)))
        tap(page, phone.control(f"Record round {number}", RECORD_ROUND), f"round {number}")
    boxes = sheet_boxes(page)
    assert boxes["sideways"] <= 0, "the score sheet scrolls sideways"
    headers = [row[0] for row in boxes["rows"]]
    if phone.english:
        # The names, the totals right under them, then every round, the newest first.
        assert headers == ["Round", "Total", "R6", "R5", "R4", "R3", "R2", "R1"]
        totals = [sum(points[seat] for points in rounds) for seat in range(len(names))]
        assert boxes["rows"][1][3] == [str(total).replace("-", "\u2212") for total in totals]
        assert boxes["rows"][2][3] == [str(value).replace("-", "\u2212") for value in rounds[-1]]
    assert len(headers) == 8
    assert [row[1] <= PHONE["width"] for row in boxes["rows"]] == [True] * 8
    tops = [row[2] for row in boxes["rows"]]
    assert tops == sorted(tops)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.locator("table.sheet").scroll_into_view_if_needed()
        page.screenshot(
            path=f"screenshots/score-sheet-{len(names)}-{phone.mode}-{scheme}.png", full_page=True
        )
