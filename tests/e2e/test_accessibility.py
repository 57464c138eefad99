"""axe-core, served from this repository (tests/e2e/vendor), finds no serious or critical
violation on any page, at any kind of step of any game, in light and dark.

Each game is walked by a scorer who only taps what the pages offer (page_player); the
page is checked each time it shows a kind of step not seen yet in that game. The phone
reads English, French or Japanese (its Accept-Language): each page checked also says
so (``<html lang>``). In French and Japanese the buttons tapped are found by what they
send, and axe checks the light scheme only (the dark one's colours are English's).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from page_player import WALKS, Submission, submissions
from test_phone import CHROMIUM, LOCALES, PHONE, click, css, send

from scorekeeper.web.adapters import trick_judges

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SCHEMES = ("light", "dark")
SEVERE = ("serious", "critical")
# Enough steps for every kind of step of a game to come up (the walk prefers a round's
# result entered at once, so games end within it); the walk stops earlier at the end.
MAX_STEPS = 600

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium-headless-shell)",
    ),
]


# The new-session form's start button and an import form's, found by what they are.
START = "form:has(#seats-0) > p > button[type=submit]"
IMPORT = "form:has(#text) button[type=submit]"


class Audit:
    """axe's serious and critical findings on each page checked, light and dark (in
    French and Japanese, light), and each page's ``<html lang>`` unlike the phone's."""

    def __init__(self, browser: Any, language: str = "en") -> None:
        self.language = language
        self.schemes = SCHEMES if language == "en" else SCHEMES[:1]
        # axe is injected as a script of the page: the app's Content-Security-Policy
        # rightly refuses it, so the test browser alone sets the policy aside.
        self.context = browser.new_context(
            viewport=PHONE, bypass_csp=True, locale=LOCALES[language]
        )
        # Given to the browser once, which runs it as each new document starts: sent with
        # each page checked (half a megabyte through the driver) and parsed there, it cost
        # as much as the check itself.
        self.context.add_init_script(path=str(AXE))
        self.page = self.context.new_page()
        self.found: list[str] = []
        self.checked: list[str] = []

    def check(self, where: str) -> None:
        self.checked.append(where)
        lang = self.page.evaluate("document.documentElement.lang")
        if lang != self.language:
            self.found.append(f"{where}: <html lang={lang!r}>, the phone reads {self.language}")
        for scheme in self.schemes:
            self.page.emulate_media(color_scheme=scheme)
            violations = self.page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            )
            for violation in violations:
                if violation["impact"] not in SEVERE:
                    continue
                nodes = "; ".join(
                    f"{node['html'][:100]} ({node.get('failureSummary', '').splitlines()[-1]})"
                    for node in violation["nodes"][:3]
                )
                self.found.append(
                    f"{where} [{scheme}] {violation['impact']} {violation['id']}: "
                    f"{violation['help']} x{len(violation['nodes'])}: {nodes}"
                )

    def visit(self, url: str, where: str) -> None:
        self.page.goto(url)
        self.check(where)

    def leave(self) -> None:
        """Closes the page checked: an open session page reloads itself when the session
        changes (live refresh), which would race the next page the walk opens."""
        self.page.goto("about:blank")

    def close(self) -> None:
        self.context.close()

    def assert_clean(self) -> None:
        assert self.checked
        assert self.found == [], "axe found:\n" + "\n".join(self.found)


@pytest.fixture
def audit(browser: Any, request: pytest.FixtureRequest) -> Iterator[Audit]:
    """An audit in the test's ``language`` (its parameter, if it has one; else English)."""
    callspec = getattr(request.node, "callspec", None)
    language = callspec.params.get("language", "en") if callspec else "en"
    checking = Audit(browser, language)
    yield checking
    checking.close()


def start_button(audit: Audit) -> Any:
    """ "Start the game": by its name in English, else by START."""
    if audit.language == "en":
        return audit.page.get_by_role("button", name="Start the game")
    return audit.page.locator(START)


def import_button(audit: Audit) -> Any:
    if audit.language == "en":
        return audit.page.get_by_role("button", name="Import", exact=True)
    return audit.page.locator(IMPORT)


def start_session(
    audit: Audit, base: str, slug: str, seats: list[str], fields: dict[str, str]
) -> str:
    """Starts a session on the new-session page, as a scorer would; its page's address."""
    page = audit.page
    page.goto(f"{base}/new/{slug}")
    for index, name in enumerate(seats):
        page.fill(f"#seats-{index}", name)
    # The options are folded under one line: a tap opens them. An option of another mode
    # than the seats give (the rounds of a solo game) is not shown, and left as it is.
    page.locator("details[data-options] > summary").click()
    audit.check(f"new {slug} options open")
    for name, value in fields.items():
        if page.locator(f"#{name}").is_visible():
            page.fill(f"#{name}", value)
    if page.locator("#new_deck_name").count():
        page.fill("#new_deck_name", "Box")
    send(page, start_button(audit))
    assert re.search(r"/s/[\w-]+$", page.url), page.url
    return str(page.url)


def step_kind(html: str, url: str, offered: list[Submission]) -> str:
    """What kind of step a page shows: the action types its forms record, the question
    asked first (a size, a call) and whether it shows a refusal."""
    kinds = sorted({value for sub in offered for name, value in sub.fields if name == "type"})
    asked = sorted(set(re.findall(r"[?&](\w+)=", url)))
    refused = 'id="error"' in html
    return f"{'+'.join(kinds) or 'finished'} {' '.join(asked)}{' refused' if refused else ''}"


SUBMIT = """([action, fields]) => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = action;
    for (const [name, value] of fields) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
    }
    document.body.append(form);
    form.submit();
}"""


def fields_of(chosen: Submission) -> list[tuple[str, str]]:
    return [(name, value) for name, values in chosen.data().items() for value in values]


def show_sent(audit: Audit, chosen: Submission) -> None:
    """Sends the submission from the browser's page, as its form would, to show the answer."""
    with audit.page.expect_navigation():
        audit.page.evaluate(SUBMIT, [chosen.action, fields_of(chosen)])


def walk(audit: Audit, game: str, base: str, session_url: str) -> None:
    """Plays the game by its pages to the end, checking each new kind of step.

    The walk reads and sends pages over the browser's own connection (its cookies make
    it the scorer) and opens a page in the browser only to check a new kind of step.
    """
    seen: set[str] = set()
    rng = random.Random(game)
    url, html = session_url, audit.page.request.get(session_url).text()
    for _ in range(MAX_STEPS):
        offered = submissions(html, rng)
        kind = step_kind(html, url, offered)
        if kind not in seen:
            seen.add(kind)
            audit.visit(url, f"{game} {kind}")
            audit.leave()
        if not offered:
            return
        # A kind of action first, then one way of sending it: a round's result entered
        # at once comes up as often as a card, and games end within the walk.
        by_type: dict[str, list[Submission]] = {}
        for sub in offered:
            by_type.setdefault(dict(sub.fields).get("type", ""), []).append(sub)
        chosen = rng.choice(by_type[rng.choice(sorted(by_type))])
        answer = audit.page.request.post(
            base + chosen.action,
            data=urlencode(fields_of(chosen)),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        if answer.status == 422 and f"{kind} refused" not in seen:
            # A refusal (a typed number the rules reject) shows the page with its reason.
            seen.add(f"{kind} refused")
            audit.page.goto(url)
            show_sent(audit, chosen)
            audit.check(f"{game} {kind} refused")
            audit.leave()
        # Sent and recorded, the answer is the page the redirect leads to: the next step.
        url = answer.url if answer.ok else session_url
        html = answer.text() if answer.ok else audit.page.request.get(url).text()
    pytest.fail(f"{session_url}: the game did not end within {MAX_STEPS} steps")


# Every game in English; in French and Japanese, each game in one of them (in turn).
GAME_WALKS = [
    *((game, "en") for game in WALKS),
    *((game, ("fr", "ja")[index % 2]) for index, game in enumerate(WALKS)),
]


@pytest.mark.parametrize(
    ("game", "language"), GAME_WALKS, ids=[f"{game}-{language}" for game, language in GAME_WALKS]
)
def test_every_step_of_a_game_has_no_serious_axe_violation(
    server: str,
    audit: Audit,
    game: str,
    language: str,
) -> None:
    slug, seats, fields = WALKS[game]
    audit.visit(f"{server}/new/{slug}", f"new {slug}")
    session_url = start_session(audit, server, slug, seats, fields)
    walk(audit, game, server, session_url)
    for page in ("history", "results", "share"):
        audit.visit(f"{session_url}/{page}", f"{game} {page}")
    audit.assert_clean()


def tap(page: Any, control: Any) -> None:
    """Taps a link or a form's button (as click takes it) and waits for the page it asks
    for."""
    with page.expect_navigation():
        click(page, control)


# What the judge's page offers next, read in one call (a locator's first use on each
# new page costs the browser Playwright's injected script): whether it shows the
# verdict, how many sizes it asks, and its trump buttons and whether one is chosen.
JUDGE_READ = """() => ["#verdict", "form.judge-form button[name=size]",
    "form.judge-form button[name=set_trump]", "form.judge-form button.on[name=set_trump]"]
    .map((selector) => document.querySelectorAll(selector).length)"""


def judge_a_trick(audit: Audit, base: str, slug: str) -> None:
    """Taps a trick into the judge, checking the empty picker, a size asked, an error
    and the verdict."""
    page = audit.page
    audit.visit(f"{base}/judge/{slug}", f"judge {slug}")
    for _ in range(20):
        verdict, sizes, trumps, trump_chosen = page.evaluate(JUDGE_READ)
        if verdict:
            break
        if sizes:
            if "size asked" not in audit.checked[-1]:
                audit.check(f"judge {slug} size asked")
            tap(page, css("form.judge-form button[name=size]", first=True))
            continue
        if trumps and not trump_chosen:
            tap(page, css("form.judge-form button[name=set_trump]", first=True))
            continue
        tap(page, css("form.judge-form button.cardbtn:not([disabled])", first=True))
    audit.check(f"judge {slug} verdict")
    audit.visit(f"{base}/judge/{slug}?plays=nonsense", f"judge {slug} refused")


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_every_page_outside_a_game_has_no_serious_axe_violation(
    server: str,
    audit: Audit,
    language: str,
) -> None:
    page = audit.page
    for path, where in (
        ("/", "home, no session"),
        ("/new", "choose a game"),
        ("/judge", "judge"),
        ("/import", "import"),
        ("/groups/import", "group import"),
        ("/decks", "deck profiles, none"),
        ("/no/such/page", "404 page"),
        ("/s/AAAAAAAAAAAAAAAAAAAAAA", "404 session"),
    ):
        audit.visit(server + path, where)
    page.goto(server + "/")
    # The buttons side by side (the same top) are as high as each other.
    boxes = page.evaluate(
        "[...document.querySelectorAll('.row.spread .button')]"
        ".map(button => [button.getBoundingClientRect().top, button.offsetHeight])"
    )
    first_line = [height for top, height in boxes if top == boxes[0][0]]
    assert len(first_line) == 2 and len(set(first_line)) == 1, boxes
    page.goto(f"{server}/new/yardkle")
    send(page, start_button(audit))
    audit.check("new session refused")
    page.goto(f"{server}/import")
    page.fill("#text", "{not json")
    send(page, import_button(audit))
    audit.check("import refused")
    page.goto(f"{server}/groups/import")
    page.fill("#text", "kind,number\r\nplayer,0")
    send(page, import_button(audit))
    audit.check("group import refused")
    for slug in trick_judges():
        judge_a_trick(audit, server, slug)
    session_url = start_session(audit, server, "yadokarick", ["Ann", "Bo", "Cy"], {})
    audit.visit(server + "/", "home, a session")
    audit.visit(server + "/decks", "deck profiles")
    # axe goes into the profile's page only once it has replaced the list's.
    tap(page, page.get_by_role("link", name=re.compile("Box")))
    audit.check("a deck profile")
    audit.visit(f"{session_url}/join/wrong-key", "403 join")
    watcher = Audit(page.context.browser, language)
    try:
        watcher.visit(session_url, "watching a session")
        watcher.visit(f"{session_url}/share", "share, watching")
        audit.found += watcher.found
    finally:
        watcher.close()
    audit.assert_clean()
