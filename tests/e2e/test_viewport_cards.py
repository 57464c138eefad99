"""The next input stays on a phone's first screen for a whole round of Yokai Septet,
Cryptruck and Yellow Dwarf (Yadokarick's rounds: test_viewport_dice.py).

A real Chromium at 360x740 plays a round of each through the session page, with
and without JavaScript. After every tap the page is at its top, and the input the
engine expects next (the card picker, the question, the buttons) lies wholly inside
the first 740 px: no tap needs a scroll first. Above it stands the last ruling's
one-line result, whole on that screen too. The cards are chosen from the
engine's own ``expected`` (via the API), so every one is legal; each follows the
colour led when it can, so no revoke flag interrupts the round.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from test_phone import (
    CHROMIUM,
    PHONE,
    SHOTS,
    check_language,
    check_phone_layout,
    click,
    css,
    in_languages,
    mode,
    phone_context,
    send,
)

from scorekeeper.games.yellow_dwarf.settlement import deal_size

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

SEATS = ["Ann", "Bo", "Cy", "Di"]


@dataclass(frozen=True)
class Tap:
    """One tap at the table: the inputs that must be on screen, and the button tapped."""

    inputs: tuple[str, ...]  # CSS selectors, each of one element
    button: str
    fills: tuple[tuple[str, str], ...] = ()  # (selector, text) typed before the tap


def form_of(kind: str) -> str:
    return f"form:has(input[name=type][value='{kind}'])"


def card_tap(kind: str, card: str) -> Tap:
    form = f"{form_of(kind)}:has(button[name=card])"
    return Tap((form,), f"{form} button[name=card][value='{card}']")


def follow(offered: list[str], current: list[str]) -> str:
    """The first card offered of the colour led (any card when none is left or on a lead)."""
    if current:
        led = current[0].split(" ")[0]
        same = [card for card in offered if card.startswith(f"{led} ")]
        if same:
            return same[0]
    return offered[0]


def yokai_septet(answer: dict[str, Any]) -> Tap:
    expected = {action["type"]: action for action in answer["expected"]["actions"]}
    if "trump" in expected:
        # A 7 as the trump card: six Boss Yokai in play, so the round can run to trick 12.
        return card_tap("trump", "blue 7")
    if "first-lead" in expected:
        return Tap((form_of("first-lead"),), "button[name=seat][value='0']")
    current = answer["state"]["round"]["current"]
    return card_tap("play", follow(expected["play"]["cards"], current))


def cryptruck(answer: dict[str, Any]) -> Tap:
    expected = {action["type"]: action for action in answer["expected"]["actions"]}
    rnd = answer["state"]["round"]
    if "reveal" in expected:
        return card_tap("reveal", "blue 1")
    if "dealer-card" in expected:
        return card_tap("dealer-card", "red 2")
    if "bid" in expected:
        want = "1" if not rnd["bids"] else "0"
        return Tap((form_of("bid"),), f"button[name=want][value='{want}']")
    if "give" in expected:
        return card_tap("give", "yellow 6")  # its form holds the skip too
    return card_tap("play", follow(expected["play"]["cards"], rnd["current"]))


def yellow_dwarf(answer: dict[str, Any]) -> Tap:
    """A seat lays up to three cards in a row (diamonds first, so taker cards come up),
    then says "without"; a taker card is called the first time, forgotten after."""
    expected = {action["type"]: action for action in answer["expected"]["actions"]}
    state = answer["state"]
    if "reveal" in expected:
        form = form_of("reveal")
        # Paid by card points: each card left counted at its least, 1 point.
        each = deal_size(len(state["players"]))[0]
        left = tuple(
            (f"#left-{seat}", str(each - laid))
            for seat, laid in enumerate(state["laid_counts"])
            if seat != state["went_out"] and state["options"]["payout"] == "points"
        )
        return Tap((form,), f"{form} button[type=submit]", left)
    laid = state["laid"]
    turn = state["turn"]
    run = 0
    for entry in reversed(laid):
        if entry["seat"] != turn:
            break
        run += 1
    offered = expected.get("play", {}).get("cards", [])
    if "without" in expected and (run >= 3 or not offered):
        form = form_of("without")
        return Tap((form,), f"{form} button")
    by_suit = sorted(offered, key=lambda card: "DCHS".index(card[-1]))
    card = by_suit[0]
    return card_tap("play", card)


CALLED_STEP = "#called-step"
# After a tap: how many refusals the page shows and the first one's words, and whether it
# asks the "called?" question.
STEP_READ = f"""() => [document.querySelectorAll("#error").length,
    document.querySelector("#error")?.innerText ?? null,
    document.querySelectorAll("{CALLED_STEP}").length]"""


def asks_called(page: Any) -> bool:
    """Whether the page asks the "called?" question (read without a locator: a locator's
    first use on each new page costs the browser Playwright's injected script)."""
    return bool(page.evaluate(f"document.querySelectorAll('{CALLED_STEP}').length > 0"))


def called_tap(answer: dict[str, Any]) -> Tap:
    """The "called?" question for the taker card just tapped: called the first time."""
    called = any(entry.get("called") for entry in answer["state"]["laid"])
    return Tap((CALLED_STEP,), f"{CALLED_STEP} button[name=called][value='{0 if called else 1}']")


GAMES: dict[str, Callable[[dict[str, Any]], Tap]] = {
    "yokai-septet": yokai_septet,
    "cryptruck": cryptruck,
    "yellow-dwarf": yellow_dwarf,
}


def api(url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def round_number(game: str, state: dict[str, Any]) -> int:
    return int(state["round"] if game == "yellow-dwarf" else state["round"]["number"])


# How many elements each selector finds and, when it finds one, where that one starts
# and ends (null: not shown): one call to the browser for them all.
BOXES_READ = """(selectors) => selectors.map((selector) => {
    const found = document.querySelectorAll(selector);
    const box = found.length === 1 && found[0].getClientRects().length
        ? found[0].getBoundingClientRect() : null;
    return [found.length, box && [box.top, box.bottom]];
})"""


def outside_first_screen(selectors: tuple[str, ...], boxes: list[Any]) -> list[str]:
    """The selectors whose element is not wholly inside the first screen, with its box
    (``boxes``: what BOXES_READ read for them)."""
    outside = []
    for selector, (found, box) in zip(selectors, boxes, strict=True):
        assert found == 1, f"{selector} finds {found} elements"
        assert box is not None, f"{selector} is not shown"
        if box[0] < 0 or box[1] > PHONE["height"]:
            outside.append(f"{selector}: {box[0]:.0f}..{box[1]:.0f}")
    return outside


def off_screen(page: Any, selectors: tuple[str, ...]) -> list[str]:
    """The selectors whose element is not wholly inside the first screen, with its box."""
    return outside_first_screen(selectors, page.evaluate(BOXES_READ, list(selectors)))


Check = Callable[[Any, Tap, int], None]


def play_a_round(
    page: Any,
    server: str,
    game: str,
    check: Check,
    options: dict[str, str] | None = None,
    seats: list[str] = SEATS,
) -> int:
    """Start a session of ``game``, play its first round through the page, calling
    ``check`` before each tap; the number of taps."""
    created = api(
        f"{server}/api/v1/sessions", {"game": game, "seats": seats, "options": options or {}}
    )
    page.goto(join_link(server, created))
    state_url = f"{server}/api/v1/sessions/{created['id']}"
    answer = api(state_url)
    taps = 0
    asked = asks_called(page)
    while round_number(game, answer["state"]) == 1:
        tap = called_tap(answer) if asked else GAMES[game](answer)
        check(page, tap, taps)
        for selector, text in tap.fills:
            page.fill(selector, text)
        with page.expect_navigation():
            click(page, css(tap.button))
        taps += 1
        answer = api(state_url)
        errors, error, called = page.evaluate(STEP_READ)
        assert errors == 0, error
        asked = called > 0
    check(page, GAMES[game](answer), taps)
    return taps


# What the check of the last ruling's line reads from a page, as a function the other
# reads of a page's state join, so that one call to the browser reads it all: the
# rulings' text and their heading's ("Last ruling", in the page's language), whether
# each shown Undo button (its form's, whatever its words) is disabled, and the one-line
# ruling's text and where it starts and ends (null: not shown).
RULING_READ = """function readRuling() {
    const rulings = [...document.querySelectorAll(".ruling")];
    const undos = [...document.querySelectorAll("form[action$='/undo'] button")].filter(
        (button) => button.checkVisibility());
    const lines = [...document.querySelectorAll("#ruling-line")];
    const box = lines.length === 1 && lines[0].getClientRects().length
        ? lines[0].getBoundingClientRect() : null;
    return {
        rulings: rulings.map((ruling) => ruling.innerText),
        headings: rulings.map((ruling) => ruling.querySelector("strong")?.innerText ?? ""),
        undo_disabled: undos.map((undo) => undo.matches(":disabled, [aria-disabled=true]")),
        lines: lines.length,
        line: lines.length === 1 ? lines[0].innerText : null,
        line_box: box && [box.top, box.bottom],
    };
}"""


def ruling_line_misplaced(ruling: dict[str, Any], inputs_top: float) -> str | None:
    """What is wrong with the last ruling's one line, if anything (``ruling``: what
    RULING_READ read): when the page has a last ruling, its line must be whole on the
    first screen and end above the next input (whose top is ``inputs_top``), so who took
    the trick, or that the turn busted, needs no scroll."""
    assert len(ruling["rulings"]) == 1, f"{len(ruling['rulings'])} rulings on the page"
    ruled = ruling["rulings"][0].removeprefix(ruling["headings"][0]).strip()
    # Before the first event (nothing to undo) the ruling only says what to enter.
    if not ruled:
        return None
    assert len(ruling["undo_disabled"]) == 1, f"{len(ruling['undo_disabled'])} Undo buttons"
    if ruling["undo_disabled"][0]:
        return None
    if ruling["lines"] != 1:
        return f"no one-line ruling above the input for {ruled!r}"
    assert ruling["line_box"] is not None
    top, bottom = ruling["line_box"]
    if top < 0 or bottom > min(PHONE["height"], inputs_top):
        return f"the ruling's line {ruling['line']!r} at {top:.0f}..{bottom:.0f}"
    return None


# Before a tap: the scroll offset, where the tap's inputs are (BOXES_READ) and the last
# ruling (RULING_READ), in one call.
SCREEN_READ = f"""(selectors) => {{
    {RULING_READ}
    return {{scroll: window.scrollY, inputs: ({BOXES_READ})(selectors), ruling: readRuling()}};
}}"""


def on_first_screen(page: Any, tap: Tap, taps: int) -> None:
    shown = page.evaluate(SCREEN_READ, list(tap.inputs))
    assert shown["scroll"] == 0
    assert outside_first_screen(tap.inputs, shown["inputs"]) == [], f"after {taps} taps"
    inputs_top = min(box[0] for _, box in shown["inputs"])
    assert ruling_line_misplaced(shown["ruling"], inputs_top) is None, f"after {taps} taps"


@in_languages
@pytest.mark.parametrize("game", list(GAMES))
def test_every_input_of_a_round_is_on_the_first_screen(
    server: str, browser: Any, game: str, language: str, javascript: bool
) -> None:
    context = phone_context(browser, javascript, language)
    page = context.new_page()
    taps = play_a_round(page, server, game, on_first_screen)
    check_language(page, language)
    context.close()
    assert taps > 20


# Yellow Dwarf's largest table, with names too long for the board's columns.
EIGHT_SEATS = ["Annabelle-Marie", "Bartholomew", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@in_languages
def test_eight_players_paid_by_points_keep_the_hands_form_on_the_first_screen(
    server: str, browser: Any, language: str, javascript: bool
) -> None:
    """The end of a round asks the points left in seven hands (and the taker cards still
    held) in one form: all of it, button included, fits under the board."""
    context = phone_context(browser, javascript, language)
    page = context.new_page()
    taps = play_a_round(
        page, server, "yellow-dwarf", on_first_screen, {"payout": "points"}, EIGHT_SEATS
    )
    # Long names are cut short on the board instead of widening or wrapping it.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    check_language(page, language)
    context.close()
    assert taps > 10


def test_an_open_revoke_flag_leaves_the_picker_on_the_first_screen(
    server: str, browser: Any
) -> None:
    created = api(f"{server}/api/v1/sessions", {"game": "yokai-septet", "seats": SEATS})
    actions: list[dict[str, Any]] = [
        {"type": "trump", "card": "yellow 4"},
        {"type": "first-lead", "seat": 0},
        # Bo shows no red in trick 1, then plays red in trick 2: a revoke flag.
        *({"type": "play", "card": card} for card in ("red 12", "blue 8", "red 6", "red 8")),
        *({"type": "play", "card": card} for card in ("red 11", "red 7")),
    ]
    played(server, created, actions)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(join_link(server, created))
    picker = card_tap("play", "red 9").inputs
    assert off_screen(page, (*picker, "a[href='#flag-0']")) == []
    page.locator("a[href='#flag-0']").click()
    # The link scrolls the flag's form into view (to the pixel, less a fraction).
    top, bottom = page.locator("#flag-0").evaluate(
        "form => [form.getBoundingClientRect().top, form.getBoundingClientRect().bottom]"
    )
    assert round(top) >= 0 and round(bottom) <= PHONE["height"]
    with page.expect_navigation():
        page.locator("#flag-0 button[value=dismiss]").click()
    assert page.locator("#flag-0").count() == 0
    on_first_screen(page, Tap(picker, ""), len(actions) + 1)
    context.close()


# The judge: a trick of each game, tapped as at the table (Yadokarick asks each size).
JUDGED = {
    "yokai-septet": (("set_trump", "red"), "blue 9", "blue 12", "red 6", "green 1"),
    "cryptruck": (
        ("set_players", "5"),
        ("set_trump", "blue"),
        "red 4",
        "white 3",
        "blue 3",
        "red 6",
        "green 2",
    ),
    "yadokarick": (
        "green 25",
        ("size", "3"),
        "pink 8",
        ("size", "2"),
        "green 17",
        ("size", "1"),
        "pink 29",
        ("size", "4"),
    ),
}


def judge_tap(step: str | tuple[str, str]) -> str:
    name, value = ("add", step) if isinstance(step, str) else step
    return f"form.judge-form button[name={name}][value='{value}']"


@in_languages
@pytest.mark.parametrize("game", list(JUDGED))
def test_the_judges_picker_stays_in_view_after_every_tap(
    server: str,
    browser: Any,
    game: str,
    language: str,
    javascript: bool,
) -> None:
    """Each tap's answer opens at the next step (#pick): the next card (or size, or the
    trump the table names first) is whole on the screen with no scroll; the last card's
    answer opens at the top, on the verdict."""
    context = phone_context(browser, javascript, language)
    page = context.new_page()
    page.goto(f"{server}/judge/{game}")
    steps = JUDGED[game]
    for number, (step, following) in enumerate(zip(steps, (*steps[1:], None), strict=True)):
        with page.expect_navigation():
            click(page, css(judge_tap(step)))
        if following is None:
            break
        assert off_screen(page, ("#pick", judge_tap(following))) == [], f"after tap {number + 1}"
    assert page.evaluate("window.scrollY") == 0
    assert off_screen(page, ("#verdict",)) == []
    check_language(page, language)
    context.close()


# The choices of a round's result entered at once, as each game's form names them, opened
# and then refused (the refusal's sentence above the board takes Yokai Septet's Boss Yokai,
# the last choices, below).
RESULT_CHOICES = {
    "yokai-septet": (
        "input[name=team], input[name=how], input[name=boss]",
        "input[name=team], input[name=how]",
    ),
    "yellow-dwarf": ("input[name=winner], input[name^=left-]",) * 2,
}


@in_languages
@pytest.mark.parametrize("game", list(RESULT_CHOICES))
def test_a_rounds_result_opened_takes_the_pickers_place_on_the_first_screen(
    server: str, browser: Any, game: str, language: str, javascript: bool
) -> None:
    """ "Enter the round's result instead", opened, hides the card picker (and the board):
    its choices lie on the first screen, and stay there when the form comes back refused."""
    created = api(f"{server}/api/v1/sessions", {"game": game, "seats": SEATS})
    if game == "yokai-septet":
        played(server, created, [{"type": "trump", "card": "blue 7"}, FIRST_LEAD])
    suffix = mode(language, javascript)
    for scheme in ("light", "dark"):
        context, page = joined(browser, server, created, javascript, scheme, language)
        check_language(page, language)
        assert page.locator(".picker-form").is_visible()
        page.locator("details.instead > summary").click()
        for attempt, selector in zip(("opened", "refused"), RESULT_CHOICES[game], strict=True):
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"result-{game}-{attempt}-{suffix}-{scheme}.png"))
            assert not page.locator(".picker-form").is_visible()
            choices = page.locator(selector)
            assert choices.count() >= 4
            boxes = [choices.nth(n).bounding_box() for n in range(choices.count())]
            below = [box for box in boxes if box is None or box["y"] + box["height"] > 740]
            assert below == [], f"{attempt}: choices off the first screen: {below}"
            if attempt == "opened":
                # Sent with nothing chosen: refused, the form comes back open at the top.
                send(page, page.locator("details.instead button[type=submit]"))
                assert page.locator("#error").count() == 1
                assert page.evaluate("window.scrollY") == 0
        context.close()


def played_to_the_settle_step(page: Any, server: str, seats: list[str]) -> None:
    """Play Yellow Dwarf's first round through the page until someone went out and the
    page asks for the hands and the taker cards still held."""
    created = api(f"{server}/api/v1/sessions", {"game": "yellow-dwarf", "seats": seats})
    page.goto(join_link(server, created))
    state_url = f"{server}/api/v1/sessions/{created['id']}"
    answer = api(state_url)
    while not any(action["type"] == "reveal" for action in answer["expected"]["actions"]):
        asked = asks_called(page)
        tap = called_tap(answer) if asked else yellow_dwarf(answer)
        with page.expect_navigation():
            click(page, css(tap.button))
        answer = api(state_url)


SETTLE_SHOTS = "/tmp/shots/settle"


@pytest.mark.parametrize("seats", [SEATS, EIGHT_SEATS], ids=["4-seats", "8-seats"])
def test_yellow_dwarfs_settle_step_cuts_no_taker_choice_and_keeps_the_badge_in_its_tile(
    server: str, browser: Any, seats: list[str]
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    played_to_the_settle_step(page, server, seats)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        os.makedirs(SETTLE_SHOTS, exist_ok=True)
        page.screenshot(path=f"{SETTLE_SHOTS}/yellow-dwarf-{len(seats)}-{scheme}.png")

    # Each taker card's choice is as wide as its longest choice needs: the same select
    # laid out on its own (out of the row) is no wider.
    selects = page.evaluate(
        """() => [...document.querySelectorAll('.reveal select')].map(select => {
            const alone = select.cloneNode(true);
            alone.style.cssText = 'position: absolute; width: auto; max-width: none; flex: none';
            select.parentNode.appendChild(alone);
            const needed = alone.getBoundingClientRect().width;
            alone.remove();
            return [select.id, select.options[select.selectedIndex].text,
                    Math.round(select.getBoundingClientRect().width), Math.round(needed)];
        })"""
    )
    assert selects, "no taker card asked"
    assert [select[1] for select in selects] == ["Aside, in no hand"] * len(selects)
    cut = [select for select in selects if select[2] < select[3]]
    assert cut == [], f"taker choices narrower than their words (id, shown, width, needed): {cut}"
    # The "went out" badge lies inside its player's tile, and its words are whole.
    badge, tile, words = page.locator(".seats li:has(.badge.live)").evaluate(
        """tile => {
            const badge = tile.querySelector('.badge.live');
            const inner = tile.getBoundingClientRect();
            const box = badge.getBoundingClientRect();
            return [[box.left, box.right], [inner.left, inner.right],
                    [badge.scrollWidth, badge.clientWidth, badge.textContent]];
        }"""
    )
    assert tile[0] <= badge[0] and badge[1] <= tile[1], f"badge {badge} spills past {tile}"
    assert words[0] <= words[1] and words[2] == "went out"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


FIRST_LEAD = {"type": "first-lead", "seat": 0}


def join_link(server: str, created: dict[str, Any]) -> str:
    """The "score with me" link of the session ``created`` through the API, on ``server``."""
    return str(created["links"]["join"]).replace("http://localhost", server)


def joined(
    browser: Any,
    server: str,
    created: dict[str, Any],
    javascript: bool,
    scheme: str,
    language: str | None = None,
) -> tuple[Any, Any]:
    """A phone (its context and page) in ``language`` (none: the browser's own) that
    opened the session ``created`` by its link."""
    context = phone_context(browser, javascript, language, color_scheme=scheme)
    page = context.new_page()
    page.goto(join_link(server, created))
    return context, page


def played(server: str, created: dict[str, Any], actions: list[dict[str, Any]]) -> None:
    """Record ``actions`` in the session ``created``, through the API."""
    events = f"{server}/api/v1/sessions/{created['id']}/events"
    for version, action in enumerate(actions):
        request = urllib.request.Request(
            events,
            json.dumps({"version": version, "action": action}).encode(),
            {"Content-Type": "application/json", "Authorization": f"Bearer {created['edit_key']}"},
        )
        urllib.request.urlopen(request, timeout=5).close()


# Every control of a round's result entered at once, its button included.
RESULT_CONTROLS = "details.instead form :is(input:not([type=hidden]), select, button)"


def controls_off_screen(page: Any) -> list[str]:
    """Each control of the open round's result form not wholly inside the screen as it is
    scrolled now and inside the page's first 740 px, named with its box in the page."""
    scroll, boxes = page.evaluate(
        """(selector) => [window.scrollY, [...document.querySelectorAll(selector)]
            .map(control => [control.name || control.textContent.trim(), control.value,
                control.getBoundingClientRect().top, control.getBoundingClientRect().bottom])]""",
        RESULT_CONTROLS,
    )
    assert len(boxes) >= 5
    return [
        f"{name}={value}: {top + scroll:.0f}..{bottom + scroll:.0f} (scrolled {scroll})"
        for name, value, top, bottom in boxes
        if top < 0 or bottom + scroll > PHONE["height"]
    ]


def open_the_rounds_result(page: Any) -> None:
    """Tap "Enter the round's result instead" as a thumb does: when the card picker above
    leaves it below the first screen, the page scrolled just enough to show it whole."""
    summary = page.locator("details.instead > summary")
    summary.evaluate(
        "summary => window.scrollTo(0, Math.max(0, Math.ceil("
        "summary.getBoundingClientRect().bottom - window.innerHeight)))"
    )
    summary.click()


# Each form at its tallest: Yokai Septet with the last trick offered (a 7 as the trump
# card) and disabled with its reason (any other); Yellow Dwarf with four players and with
# eight, long names, paid by card points (the longest help). Each after a first event,
# so the last ruling's line stands above the form.
RESULT_FORMS = {
    "yokai-septet-trump-7": ("yokai-septet", SEATS, {}, "blue 7"),
    "yokai-septet-trump-4": ("yokai-septet", SEATS, {}, "yellow 4"),
    "yellow-dwarf-4": ("yellow-dwarf", SEATS, {}, None),
    "yellow-dwarf-8-points": ("yellow-dwarf", EIGHT_SEATS, {"payout": "points"}, None),
}


@in_languages
@pytest.mark.parametrize("form", list(RESULT_FORMS))
def test_a_rounds_result_opened_has_every_choice_and_its_button_on_the_first_screen(
    server: str, browser: Any, form: str, language: str, javascript: bool
) -> None:
    """ "Enter the round's result instead", opened: every choice of the form and the
    button that records it lie wholly inside the first 740 px, light and dark, and so
    they do when the form comes back refused, its reason above."""
    game, seats, options, trump = RESULT_FORMS[form]
    created = api(f"{server}/api/v1/sessions", {"game": game, "seats": seats, "options": options})
    if trump is not None:
        played(server, created, [{"type": "trump", "card": trump}, FIRST_LEAD])
    else:  # round 1 entered at once: round 2 asks again
        left = [0] + [5] * (len(seats) - 1)
        played(server, created, [{"type": "round", "winner": 0, "left": left}])
    suffix = mode(language, javascript)
    for scheme in ("light", "dark"):
        context, page = joined(browser, server, created, javascript, scheme, language)
        check_language(page, language)
        open_the_rounds_result(page)
        for attempt in ("opened", "refused"):
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"result-form-{form}-{attempt}-{suffix}-{scheme}.png"))
            assert controls_off_screen(page) == [], f"{attempt}, {scheme}"
            # Made to fit, it still leaves each control a thumb's size and no sideways scroll.
            check_phone_layout(page, f"result-form-{form}-{attempt}-{suffix}-{scheme}-whole")
            if attempt == "opened":
                # Sent with nothing chosen: refused, the form comes back open at the top.
                send(page, page.locator("details.instead button[type=submit]"))
                assert page.locator("#error").count() == 1
                assert page.evaluate("window.scrollY") == 0
        context.close()
