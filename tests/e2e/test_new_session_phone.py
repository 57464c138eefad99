"""A new session on a 360x740 phone: once the seats are named, "Start the game" is whole on
the first screen, the options folded under one line that reads every value; only the
options of the mode the seats give show; a refused option opens them, its field marked.
So on a phone in groups (folded under one line of their names too), for every game at its
most seats, and on a group's page once its players are tapped into every seat.
With JavaScript in English and in French, without it in Japanese
(test_phone.LANGUAGE_MODES): the buttons found by what they send in any language, what
the pages say checked in English; screenshots light and dark."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from test_group_phone import make_group, tap
from test_phone import (
    CHROMIUM,
    PHONE,
    check_language,
    check_phone_layout,
    in_languages,
    mode,
    phone,
    send,
)

from scorekeeper.games import GAMES

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]
YADOKARICK_STANDARD = (
    "3 rounds, Seat 1 deals first, size row from 1, to 20, marker on 11, advanced mode off"
)
YADOKARICK_EVERY_MODE = f"{YADOKARICK_STANDARD}, green cards, NPC crab plays 2"
DECK = "deck: A new deck profile"
# (game, seats named): the options line the page shows with JavaScript, then without
# (the server shows every mode's options: it does not know the seats yet).
TABLES = {
    ("yadokarick", 1): (f"Options: {DECK}", f"Options: {YADOKARICK_EVERY_MODE}, {DECK}"),
    ("yadokarick", 2): (
        f"Options: green cards, NPC crab plays 2, {DECK}",
        f"Options: {YADOKARICK_EVERY_MODE}, {DECK}",
    ),
    ("yadokarick", 3): (
        f"Options: {YADOKARICK_STANDARD}, green cards, {DECK}",
        f"Options: {YADOKARICK_EVERY_MODE}, {DECK}",
    ),
    ("yadokarick", 7): (
        "Options: 3 rounds, Seat 1 deals first, size row from 1, to 20, marker on 11, " + DECK,
        f"Options: {YADOKARICK_EVERY_MODE}, {DECK}",
    ),
    ("yellow-dwarf", 4): (
        "Options: 50 chips each, winner paid 1 chip per card left, "
        "ends when a player cannot pay the stake",
    )
    * 2,
    ("yellow-dwarf", 8): (
        "Options: 50 chips each, winner paid 1 chip per card left, "
        "ends when a player cannot pay the stake",
    )
    * 2,
    ("cryptruck", 5): ("Options: colours: the first ones, Seat 1 deals first",) * 2,
    ("yokai-septet", 4): ("Options: seats 1 & 3: their names, seats 2 & 4: their names",) * 2,
    ("yardkle", 4): ("Options: entry threshold 500, final round at 10000",) * 2,
    ("yardkle", 8): ("Options: entry threshold 500, final round at 10000",) * 2,
    ("score-sheet", 4): ("Options: game: unnamed, Highest total wins, target 0",) * 2,
    ("score-sheet", 12): ("Options: game: unnamed, Highest total wins, target 0",) * 2,
}
# Three groups of six on this phone, listed newest first.
GROUPS = {"Friday night": NAMES[:6], "Family": NAMES[6:], "Club": NAMES[3:9]}


# The new-session form's start button, found by what it is in any language.
START = "form:has(#seats-0) > p > button[type=submit]"


def start_button(page: Any, language: str) -> Any:
    """ "Start the game": by its name in English, else by START."""
    if language == "en":
        return page.get_by_role("button", name="Start the game")
    return page.locator(START)


def make_group_in_any_language(page: Any, base: str, name: str, players: list[str]) -> str:
    """Makes a group on its page, its button found by what it is; the group's address."""
    page.goto(base + "/groups/new")
    page.fill("#name", name)
    for index, player in enumerate(players):
        page.fill(f"#player-{index}", player)
    send(page, page.locator("form:has(#player-0) button[type=submit]"))
    assert re.search(r"/g/[\w-]+$", page.url), page.url
    return str(page.url)


def make_groups(page: Any, server: str, language: str = "en") -> dict[str, str]:
    """The groups of GROUPS made on this phone: each one's id by its name."""
    make = make_group if language == "en" else make_group_in_any_language
    return {
        name: make(page, server, name, players).rsplit("/", 1)[1]
        for name, players in GROUPS.items()
    }


def bottom(page: Any, locator: Any) -> float:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not shown"
    return float(box["y"] + box["height"])


def bottom_in_page(page: Any, locator: Any) -> float:
    """Where ``locator`` ends from the top of the page, however far it is scrolled."""
    return bottom(page, locator) + float(page.evaluate("window.scrollY"))


def options_line(page: Any) -> str:
    return re.sub(r"\s+", " ", page.inner_text("details[data-options] > summary")).strip()


def shown_options(page: Any) -> list[str]:
    """The ids of the option inputs the opened options show."""
    return list(
        page.eval_on_selector_all(
            "details[data-options] [id^=option_]",
            "fields => fields.filter(f => f.checkVisibility()).map(f => f.id)",
        )
    )


@pytest.mark.parametrize(("game", "seats"), list(TABLES), ids=[f"{g}-{n}" for g, n in TABLES])
@in_languages
def test_start_is_on_the_first_screen_once_the_seats_are_named(
    server: str, browser: Any, language: str, javascript: bool, game: str, seats: int
) -> None:
    with phone(browser, javascript, language) as page:
        page.goto(f"{server}/new/{game}")
        check_language(page, language)
        for index, name in enumerate(NAMES[:seats]):
            page.fill(f"#seats-{index}", name)
        start = start_button(page, language)
        assert bottom(page, start) <= PHONE["height"]
        assert page.evaluate("window.scrollY") == 0
        if language == "en":
            assert options_line(page) == TABLES[game, seats][0 if javascript else 1]
        # The options are folded; one tap opens them.
        assert shown_options(page) == []
        page.locator("details[data-options] > summary").click()
        assert page.locator("details[data-options][open]").count() == 1
        # Start is the first seat input's neighbour: no seat input is left empty between.
        empty = page.eval_on_selector_all(
            "input[name^=seats-]", "inputs => inputs.filter(i => i.checkVisibility()).length"
        )
        assert empty == min(seats + 1, len(page.locator("input[name^=seats-]").all()))


def test_the_options_shown_follow_the_seats_named(server: str, browser: Any) -> None:
    """Yadokarick: one seat is the solo game (no option), two the NPC crab's, three or
    more the standard game (advanced mode to 6 players, one colour only with 3)."""
    with phone(browser, True) as page:
        page.goto(f"{server}/new/yadokarick")
        page.locator("details[data-options] > summary").click()
        every = [
            "option_rounds", "option_first_dealer", "option_size_first", "option_size_last",
            "option_marker_start", "option_advanced", "option_colour", "option_npc_position",
        ]  # fmt: skip
        assert shown_options(page) == every
        page.fill("#seats-0", "Ann")
        assert shown_options(page) == []
        page.fill("#seats-1", "Bo")
        assert shown_options(page) == ["option_colour", "option_npc_position"]
        page.fill("#seats-2", "Cy")
        assert shown_options(page) == every[:-1]
        for index in range(3, 7):
            page.fill(f"#seats-{index}", NAMES[index])
        assert shown_options(page) == every[:5]
        # The line reads the values as they are set.
        page.fill("#option_rounds", "5")
        page.select_option("#option_first_dealer", "2")
        assert options_line(page).startswith("Options: 5 rounds, Seat 3 deals first, size row")
        page.fill("#seats-6", "")
        page.fill("#seats-5", "")
        page.fill("#seats-4", "")
        page.fill("#seats-3", "")
        assert shown_options(page) == every[:-1]
        send(page, page.get_by_role("button", name="Start the game"))
        assert re.search(r"/s/[\w-]+$", page.url), page.url
        assert "Round 1 of 5" in page.inner_text("main")


@in_languages
def test_a_refused_option_opens_the_options_at_its_field(
    server: str, browser: Any, language: str, javascript: bool
) -> None:
    suffix = mode(language, javascript)
    english = language == "en"
    with phone(browser, javascript, language) as page:
        page.goto(f"{server}/new/yadokarick")
        for index, name in enumerate(NAMES[:3]):
            page.fill(f"#seats-{index}", name)
        page.locator("details[data-options] > summary").click()
        # Advanced mode, set for a standard game, stays marked once the table is two.
        page.select_option("#option_advanced", "on")
        page.fill("#seats-2", "")
        page.fill("#option_npc_position", "4")
        send(page, start_button(page, language))
        assert page.locator("details[data-options][open]").count() == 1
        refusal = page.inner_text("#option_npc_position ~ .field-error")
        if english:
            assert refusal == "NPC crab's place in the play order must be at most 3."
        page.fill("#option_npc_position", "1")
        send(page, start_button(page, language))
        assert page.locator("details[data-options][open]").count() == 1
        assert shown_options(page) == ["option_advanced", "option_colour", "option_npc_position"]
        refusal = page.inner_text("#option_advanced ~ .field-error")
        if english:
            assert refusal == "Advanced mode is for 3 to 6 players; this game has 2."
        check_phone_layout(page, f"new-session-refused-{suffix}")
        check_language(page, language)
        page.select_option("#option_advanced", "off")
        send(page, start_button(page, language))
        assert re.search(r"/s/[\w-]+$", page.url), page.url
        if english:
            assert "The NPC crab plays first" in page.inner_text("main")


@pytest.mark.parametrize(
    ("language", "dark"),
    [("en", False), ("en", True), ("fr", False), ("ja", True)],
    ids=["en-light", "en-dark", "fr-light", "ja-dark"],
)
def test_the_new_session_pages_look_right(
    server: str, browser: Any, language: str, dark: bool
) -> None:
    scheme = "dark" if dark else "light"
    with phone(browser, True, language, color_scheme=scheme) as page:
        for game, seats in (("yadokarick", 4), ("yellow-dwarf", 4), ("yardkle", 8)):
            page.goto(f"{server}/new/{game}")
            check_language(page, language)
            for index, name in enumerate(NAMES[:seats]):
                page.fill(f"#seats-{index}", name)
            check_phone_layout(page, f"new-{game}-{seats}-{language}-{scheme}")
            page.locator("details[data-options] > summary").click()
            check_phone_layout(page, f"new-{game}-{seats}-options-{language}-{scheme}")


@in_languages
def test_start_is_on_the_first_screen_of_a_phone_in_groups_at_every_games_most_seats(
    server: str, browser: Any, language: str, javascript: bool
) -> None:
    with phone(browser, javascript, language) as page:
        group_ids = make_groups(page, server, language)
        for game in GAMES.values():
            page.goto(f"{server}/new/{game.slug}")
            check_language(page, language)
            for index, name in enumerate(NAMES[: game.max_players]):
                page.fill(f"#seats-{index}", name)
            start = start_button(page, language)
            assert bottom(page, start) <= PHONE["height"], game.slug
            assert page.evaluate("window.scrollY") == 0, game.slug
            # The groups are folded under one line of their names; a tap opens their links.
            summary = page.locator("details.groups > summary")
            if language == "en":
                assert summary.inner_text() == "Play with a group: Club, Family, Friday night"
            else:
                assert (
                    page.inner_text("details.groups .group-names") == "Club, Family, Friday night"
                )
            links = page.locator("details.groups a")
            assert [link.is_visible() for link in links.all()] == [False] * 3
            summary.click()
            assert [link.inner_text() for link in links.all()] == ["Club", "Family", "Friday night"]
            assert [link.get_attribute("href") for link in links.all()] == [
                f"/g/{group_ids[name]}/play/{game.slug}"
                for name in ("Club", "Family", "Friday night")
            ]
            assert all(link.is_visible() for link in links.all())


@in_languages
def test_a_refused_seat_among_twelve_is_marked_beside_its_name(
    server: str, browser: Any, language: str, javascript: bool
) -> None:
    suffix = mode(language, javascript)
    with phone(browser, javascript, language) as page:
        page.goto(f"{server}/new/score-sheet")
        for index, name in enumerate([*NAMES[:11], "ann"]):
            page.fill(f"#seats-{index}", name)
        send(page, start_button(page, language))
        refusal = page.inner_text("#seats-11 ~ .field-error")
        if language == "en":
            assert refusal == "Two seats are called ann; give each seat its own name."
        assert page.locator("#seats-11 ~ .field-error").is_visible()
        alert = page.inner_text("[role=alert]").strip()
        if language == "en":
            assert alert == "Check the marked fields below."
        check_phone_layout(page, f"new-score-sheet-12-refused-{suffix}")
        check_language(page, language)
        page.fill("#seats-11", "Lu")
        send(page, start_button(page, language))
        assert re.search(r"/s/[\w-]+$", page.url), page.url


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_start_is_on_the_first_screen_once_a_groups_players_take_every_seat(
    server: str, browser: Any, javascript: bool
) -> None:
    """A group of twelve: every game's seats tapped full, the players left are put away
    (a seat freed brings them back) and Start is on the first screen."""
    with phone(browser, javascript) as page:
        group_url = make_group(page, server, "Club", NAMES[:8])
        page.goto(group_url + "/players")
        for name in NAMES[8:]:
            page.fill("#new-name", name)
            send(page, page.get_by_role("button", name="Add the player"))
        for game in GAMES.values():
            page.goto(f"{group_url}/play/{game.slug}")
            for name in NAMES[: game.max_players]:
                tap(page, javascript, name)
            start = page.get_by_role("button", name="Start the game").last
            assert bottom_in_page(page, start) <= PHONE["height"], game.slug
            assert page.locator(".players-left").is_hidden(), game.slug
        # Freeing a seat (the score sheet's twelve) offers its player again.
        tap(page, javascript, "Seat 12 Lu (free this seat)")
        assert page.get_by_role("button", name="Lu", exact=True).is_visible()
        assert bottom_in_page(page, start) <= PHONE["height"]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_crowded_new_session_pages_look_right(server: str, browser: Any, dark: bool) -> None:
    """Twelve seats of a score sheet; a phone in three groups at Yellow Dwarf's eight seats,
    then on a group's page with its six players seated."""
    scheme = "dark" if dark else "light"
    with phone(browser, True, color_scheme=scheme) as page:
        page.goto(f"{server}/new/score-sheet")
        for index, name in enumerate(NAMES):
            page.fill(f"#seats-{index}", name)
        check_phone_layout(page, f"new-score-sheet-12-{scheme}")
        group_ids = make_groups(page, server)
        page.goto(f"{server}/new/yellow-dwarf")
        for index, name in enumerate(NAMES[:8]):
            page.fill(f"#seats-{index}", name)
        check_phone_layout(page, f"new-yellow-dwarf-8-groups-{scheme}")
        page.locator("details.groups > summary").click()
        check_phone_layout(page, f"new-yellow-dwarf-8-groups-open-{scheme}")
        page.goto(f"{server}/g/{group_ids['Club']}/play/yellow-dwarf")
        for name in GROUPS["Club"]:
            tap(page, True, name)
        check_phone_layout(page, f"group-play-yellow-dwarf-6-{scheme}")
