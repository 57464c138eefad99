"""The session page over the README's Wi-Fi setup, in Chromium at 360x740, for every game:
a plain-http address that is not this computer (so no secure context, as a phone on the
Wi-Fi sees the app), where the screen is kept awake, a tap made during an outage is kept
and recorded once, another phone's entry during a half-done entry is announced, and Back
leaves the session instead of walking back through its moves."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import WIFI_NAME, live_server
from test_phone import CHROMIUM, PHONE, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

SHOTS = Path("/tmp/shots/transport")

# Every media element a page starts, kept where the test can look at it: the keep-awake
# video is never put in the page.
WATCH_PLAYS = """
window.startedMedia = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.startedMedia.push(this);
  return play.call(this);
};
"""

Step = Callable[[Any], None]


def tap(name: str) -> Step:
    return lambda page: page.get_by_role("button", name=name, exact=True).click()


def tap_die(die: int, face: int) -> Step:
    return lambda page: page.locator(
        f"label.face:has(input[name=die{die}][value='{face}'])"
    ).click()


def type_points(seat: int, points: str) -> Step:
    return lambda page: page.fill(f"#points-{seat}", points)


def open_and_tick(summary: str, box: str) -> Step:
    def step(page: Any) -> None:
        page.get_by_text(summary).click()
        page.locator(box).first.check()

    return step


# One form sent: the taps that fill it, the last one sending it.
Send = tuple[Step, ...]


@dataclass(frozen=True)
class Game:
    slug: str
    seats: tuple[str, ...]
    # Two moves from the start, each one or more forms sent; each move records one event.
    moves: tuple[tuple[Send, ...], tuple[Send, ...]]
    # After this many of those moves, what a player enters without sending it yet...
    entering_after: int
    entering: Step
    # ...while another phone records this.
    elsewhere: dict[str, Any]
    # What the Reconnecting… bar calls the first move's last send, made during an outage.
    sent_as: str


def size_half_typed(page: Any) -> None:
    make_move(page, ((tap("green 25"),),))
    page.fill("#size-typed", "3")


GAMES = [
    Game(
        "yardkle",
        ("Ann", "Bo"),
        (
            # The last die sends the roll (static/app.js): no "Record the roll" tap.
            (tuple(tap_die(die, face) for die, face in enumerate((1, 1, 1, 5, 2, 3), 1)),),
            ((tap("Set aside 1 1 1 5 and bank 1050"),),),
        ),
        0,
        lambda page: (tap_die(1, 4)(page), tap_die(2, 4)(page)),
        {"type": "total", "points": 500},
        "your roll 1\u00a01\u00a01\u00a05\u00a02\u00a03",  # the dice not broken over lines
    ),
    Game(
        "score-sheet",
        ("Ann", "Bo"),
        (
            ((type_points(0, "12"), type_points(1, "7"), tap("Record round 1")),),
            ((type_points(0, "3"), type_points(1, "9"), tap("Record round 2")),),
        ),
        0,
        type_points(0, "21"),
        {"type": "round", "points": [3, 4]},
        "your tap “Record round 1”",
    ),
    Game(
        "yokai-septet",
        ("Ann", "Bo", "Cy", "Di"),
        (((tap("yellow 4"),),), ((tap("Ann"),),)),
        2,
        open_and_tick("Enter the round\u2019s result instead of every card", "input[name=team]"),
        {"type": "play", "card": "red 12"},
        "your tap “yellow 4”",
    ),
    Game(
        "cryptruck",
        ("Ann", "Bo", "Cy"),
        (((tap("green 2"),),), ((tap("red 5"),),)),
        1,
        open_and_tick(
            "Enter each player\u2019s cards won instead of every trick", "input[type=checkbox]"
        ),
        {"type": "dealer-card", "card": "red 5"},
        "your tap “green 2”",
    ),
    Game(
        "yadokarick",
        ("Ann", "Bo", "Cy", "Di"),
        # The card first, then its printed size: the size's tap records the play.
        (((tap("green 25"),), (tap("size 3"),)), ((tap("pink 8"),), (tap("size 2"),))),
        0,
        size_half_typed,
        {"type": "play", "card": "green 25", "size": 3},
        "your tap “size 3”",
    ),
    Game(
        "yellow-dwarf",
        ("Ann", "Bo", "Cy"),
        (((tap("8♥"),),), ((tap("9♠"),),)),  # a card button is named by what it shows
        0,
        open_and_tick("Enter the round\u2019s result instead of every card", "input[name=winner]"),
        {"type": "play", "card": "8H"},
        "your tap “8♥”",
    ),
]


@pytest.fixture
def port(server: str) -> int:
    """The live app's port: the phone opens it by the Wi-Fi name, another phone by
    address."""
    return int(server.rsplit(":", 1)[1])


@pytest.fixture
def phone(browser: Any, port: int) -> Iterator[tuple[Any, str]]:
    """A phone's page and the app's address as the phone opens it over the Wi-Fi (the
    shared Chromium maps the name to this computer)."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(WATCH_PLAYS)
    yield context.new_page(), f"http://{WIFI_NAME}:{port}"
    context.close()


def api(port: int, path: str, body: Any = None, key: str | None = None) -> Any:
    """The API, from another phone (straight to the server, not through the test's page)."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1{path}", data, headers)
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def start(page: Any, address: str, game: Game) -> str:
    """Start ``game`` on the phone from the home page; the session's id."""
    page.goto(address)
    page.goto(f"{address}/new/{game.slug}")
    if game.slug == "yadokarick":
        # The deck is with the options, folded under one line: a tap opens them.
        page.locator("details[data-options] > summary").click()
        page.fill("#new_deck_name", "Deck of this test")
    for index, name in enumerate(game.seats):
        page.fill(f"#seats-{index}", name)
    send(page, page.get_by_role("button", name="Start the game"))
    return str(page.url.rsplit("/", 1)[1])


def make_move(page: Any, move: tuple[Send, ...]) -> None:
    for form in move:
        *entering, sending = form
        for step in entering:
            step(page)
        page.evaluate("document.body.dataset.sending = 'yes'")
        sending(page)
        page.locator("body:not([data-sending])").wait_for(state="attached")
        page.wait_for_load_state()  # its script too: the next tap goes through it


def version(port: int, session_id: str) -> int:
    return int(api(port, f"/sessions/{session_id}")["version"])


def recorded(port: int, session_id: str) -> list[dict[str, Any]]:
    return [
        event["action"]
        for event in api(port, f"/sessions/{session_id}/export")["events"]
        if not event["undone"]
    ]


IDS = [game.slug for game in GAMES]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_screen_is_kept_awake_on_a_plain_http_page(phone: tuple[Any, str], game: Game) -> None:
    page, address = phone
    start(page, address, game)
    page.locator("h1").click()
    page.wait_for_timeout(600)

    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False
    playing = page.evaluate(
        """() => [...new Set(window.startedMedia)].map(video => ({
            src: video.currentSrc, paused: video.paused, muted: video.muted,
            time: video.currentTime, inline: video.hasAttribute('playsinline')}))"""
    )
    assert len(playing) == 1
    [video] = playing
    assert video["src"] == f"{address}/static/nosleep/nosleep.webm"
    assert video["paused"] is False
    assert video["muted"] is True
    assert video["inline"] is True
    assert video["time"] > 0


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_tap_during_an_outage_is_kept_and_recorded_once(
    phone: tuple[Any, str], port: int, game: Game
) -> None:
    page, address = phone
    session_id = start(page, address, game)
    *before, last = game.moves[0]
    make_move(page, tuple(before))
    *entering, sending = last
    for step in entering:
        step(page)
    sends: list[str] = []
    page.on(
        "request", lambda request: sends.append(request.url) if request.method == "POST" else None
    )

    page.context.set_offline(True)
    sending(page)
    page.locator("#net-status.reconnecting").wait_for()
    # The tap, then its first retry (static/app.js tries again every 1.5 s).
    deadline = time.monotonic() + 10
    while len(sends) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(sends) >= 2, "the tap was not sent again while offline"
    assert page.inner_text("#net-status") == (
        f"Reconnecting… {game.sent_as} is kept on this page and will be sent once the server "
        "answers."
    )
    assert page.locator("body[data-session]").count() == 1, "the page was lost"
    assert version(port, session_id) == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"reconnecting-{game.slug}.png"))
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(SHOTS / f"reconnecting-{game.slug}-dark.png"))

    page.context.set_offline(False)
    page.locator("body[data-version='1']").wait_for(state="attached")
    # Longer than a retry's wait: a tap sent again after its answer would show by now.
    page.wait_for_timeout(2000)

    assert version(port, session_id) == 1
    assert len(recorded(port, session_id)) == 1
    assert page.locator("#net-status").count() == 0


def test_a_tap_whose_answer_was_lost_is_recorded_once(phone: tuple[Any, str], port: int) -> None:
    """The server recorded the tap but its answer never came back: the tap is sent again
    with its one-time key, and the server answers it as already recorded."""
    page, address = phone
    game = GAMES[0]
    session_id = start(page, address, game)
    lost: list[str] = []

    def lose_the_answer(route: Any) -> None:
        if lost:
            route.continue_()
            return
        # Playwright's own request cannot resolve the Wi-Fi name: same server, by address.
        route.fetch(url=route.request.url.replace(WIFI_NAME, "127.0.0.1"))
        lost.append(route.request.url)
        route.abort()

    page.route("**/action", lose_the_answer)
    make_move(page, game.moves[0])

    assert lost, "no answer was lost"
    assert version(port, session_id) == 1
    assert recorded(port, session_id) == [{"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}]
    assert "Ann rolled 1 1 1 5 2 3" in page.inner_text(".ruling")


def test_a_link_tapped_during_an_outage_opens_once_the_server_answers(
    phone: tuple[Any, str],
) -> None:
    page, address = phone
    session_id = start(page, address, GAMES[0])
    page.context.set_offline(True)
    page.locator("#net-status.reconnecting").wait_for()

    page.get_by_role("link", name="History").click()
    page.wait_for_timeout(2000)

    assert page.url == f"{address}/s/{session_id}", "the page was lost"
    assert "“History” opens once the server answers" in page.inner_text("#net-status")
    page.context.set_offline(False)
    page.wait_for_url(f"{address}/s/{session_id}/history")
    assert page.locator("h1").inner_text().startswith("History")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_another_phones_entry_during_a_half_done_entry_is_announced(
    phone: tuple[Any, str], port: int, game: Game
) -> None:
    page, address = phone
    session_id = start(page, address, game)
    for move in game.moves[: game.entering_after]:
        make_move(page, move)
    edit_key = scorer_key(page, address, session_id)
    game.entering(page)

    api(
        port,
        f"/sessions/{session_id}/events",
        {"version": game.entering_after, "action": game.elsewhere},
        edit_key,
    )

    notice = page.locator("#net-status.changed")
    notice.wait_for(timeout=5000)
    assert "Another phone just recorded" in notice.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"changed-{game.slug}.png"))


def test_an_entry_that_still_applies_is_kept_on_the_updated_board(
    phone: tuple[Any, str], port: int
) -> None:
    page, address = phone
    session_id = start(page, address, GAMES[1])
    edit_key = scorer_key(page, address, session_id)
    page.fill("#points-0", "21")

    api(
        port,
        f"/sessions/{session_id}/events",
        {"version": 0, "action": {"type": "round", "points": [3, 4]}},
        edit_key,
    )

    page.locator("#net-status.changed").wait_for(timeout=5000)
    assert "what you had entered is kept" in page.inner_text("#net-status")
    assert page.locator("body[data-version='1']").count() == 1
    assert page.input_value("#points-0") == "21"
    assert "Round 2" in page.inner_text("#round-form")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "changed-entry-kept.png"))
    make_move(page, ((type_points(1, "5"), tap("Record round 2")),))
    assert recorded(port, session_id)[-1] == {"type": "round", "points": [21, 5]}


def scorer_key(page: Any, address: str, session_id: str) -> str:
    """The session's edit key, read from the scorer's share page (another phone's rights)."""
    page_before = page.url
    page.goto(f"{address}/s/{session_id}/share")
    link = page.locator(".link-box").first.inner_text()
    page.goto(page_before)
    return str(link.rsplit("/join/", 1)[1])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_back_after_two_moves_leaves_the_session(phone: tuple[Any, str], game: Game) -> None:
    page, address = phone
    session_id = start(page, address, game)
    for move in game.moves:
        make_move(page, move)
    assert page.locator("body[data-version='2']").count() == 1

    page.go_back()

    assert page.url == f"{address}/"
    assert session_id not in page.url


HOLD_WAKE_LOCKS = """
window.wakeLocks = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => request(type).then((lock) => {
    window.wakeLocks.push(lock);
    return lock;
  });
}
"""


def test_over_https_the_wake_lock_api_keeps_the_screen_awake(
    tmp_path_factory: pytest.TempPathFactory, full_browser: Any
) -> None:
    """As `make run HTTPS=1` serves it: a certificate made on this computer (the phone
    accepted it), a secure context, so the page holds a wake lock and plays no video."""
    from scorekeeper import certificate

    folder = tmp_path_factory.mktemp("https")
    certificate.ensure(folder, "laptop", [])
    files = certificate.Files(folder)
    with live_server(folder, "--cert", str(files.server), "--key", str(files.server_key)) as port:
        context = full_browser.new_context(viewport=PHONE, ignore_https_errors=True)
        context.add_init_script(WATCH_PLAYS + HOLD_WAKE_LOCKS)
        page = context.new_page()
        session_id = start(page, f"https://localhost:{port}", GAMES[1])
        page.locator("h1").click()
        page.wait_for_timeout(600)

        assert page.url == f"https://localhost:{port}/s/{session_id}"
        assert page.evaluate("window.isSecureContext") is True
        held = page.evaluate("window.wakeLocks.map(lock => [lock.type, lock.released])")
        assert held == [["screen", False]]
        assert page.evaluate("window.startedMedia.length") == 0
        context.close()
