"""A group on a phone screen (360x740), in real Chromium: made, a game started by tapping
its players (with and without JavaScript), seen on the group's page by another phone;
and axe finds no serious violation on the group pages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_accessibility import Audit, audit  # noqa: F401  (the axe fixture)
from test_phone import CHROMIUM, button, check_phone_layout, click, phone, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium-headless-shell)",
    ),
]


def make_group(page: Any, base: str, name: str, players: list[str]) -> str:
    """Makes a group on its page, as a phone would; the group page's address."""
    page.goto(base + "/")
    page.get_by_role("link", name="Make a group").click()
    page.fill("#name", name)
    for index, player in enumerate(players):
        page.fill(f"#player-{index}", player)
    send(page, page.get_by_role("button", name="Make the group"))
    assert re.search(r"/g/[\w-]+$", page.url), page.url
    return str(page.url)


def seats_shown(page: Any) -> list[str]:
    """The taken seats as the page shows them: "1 Bo", "2 Ann"."""
    return list(
        page.eval_on_selector_all(
            "ol.tapped li",
            "items => items.map(item => item.querySelector('.seat-n').textContent + ' ' + "
            "item.querySelector('.player').textContent)",
        )
    )


def tap(page: Any, javascript: bool, name: str) -> None:
    """Taps a player (or a taken seat, "Seat 1 Bo (free this seat)"): with JavaScript on
    the page, without it by sending the form, which comes back (a new page, loaded) with
    the seats so far."""
    if javascript:
        click(page, button(name))
    else:
        with page.expect_navigation():
            click(page, button(name))


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_group_starts_a_game_by_tapping_players_and_sees_it(
    server: str,
    browser: Any,
    javascript: bool,
) -> None:
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        group_url = make_group(page, server, "Friday night", ["Ann", "Bo", "Cy"])
        check_phone_layout(page, f"group-{suffix}")
        page.get_by_role("link", name="Start a game").click()
        page.get_by_role("link", name="Yardkle").click()
        tap(page, javascript, "Bo")
        tap(page, javascript, "Cy")
        tap(page, javascript, "Ann")
        assert seats_shown(page) == ["1 Bo", "2 Cy", "3 Ann"]
        check_phone_layout(page, f"group-play-{suffix}")
        # A tap on a taken seat frees it; the player can be tapped again, last.
        tap(page, javascript, "Seat 2 Cy (free this seat)")
        assert seats_shown(page) == ["1 Bo", "2 Ann"]
        tap(page, javascript, "Cy")
        assert seats_shown(page) == ["1 Bo", "2 Ann", "3 Cy"]
        page.locator("details[data-options] > summary").click()
        page.fill("#option_winning_score", "5000")
        send(page, page.get_by_role("button", name="Start the game").last)
        assert re.search(r"/s/[\w-]+$", page.url), page.url
        assert "Bo rolls first" in page.content()

        # Another phone with the group's link sees the game, read only.
        with phone(browser, True) as watcher:
            watcher.goto(group_url)
            games = watcher.locator("ul.sessions").inner_text()
            assert "Yardkle" in games and "Bo, Ann, Cy" in games
            assert watcher.get_by_role("link", name="Start a game").count() == 0
            check_phone_layout(watcher, f"group-watching-{suffix}")


def test_the_group_pages_have_no_serious_axe_violation(
    server: str,
    audit: Audit,  # noqa: F811
) -> None:
    page = audit.page
    audit.visit(server + "/groups/new", "new group")
    send(page, page.get_by_role("button", name="Make the group"))
    audit.check("new group refused")
    group_url = make_group(page, server, "Friday", ["Ann", "Bo"])
    audit.check("group page, no games")
    audit.visit(group_url + "/share", "group share")
    audit.visit(group_url + "/players", "group players")
    page.fill("#new-name", "ann")
    send(page, page.get_by_role("button", name="Add the player"))
    audit.check("group players refused")
    audit.visit(group_url + "/play", "group choose a game")
    audit.visit(group_url + "/play/yardkle", "group play, no seat")
    page.get_by_role("button", name="Bo", exact=True).click()
    audit.check("group play, a seat taken")
    send(page, page.get_by_role("button", name="Start the game").last)
    audit.visit(group_url, "group page, a game")
    audit.visit(server + "/", "home, a group")
    audit.visit(group_url + "/play/yadokarick", "group play refused")
    page.get_by_role("button", name="Ann", exact=True).click()
    send(page, page.get_by_role("button", name="Start the game").last)
    audit.check("group play refused")
    watcher = Audit(page.context.browser)
    try:
        watcher.visit(group_url, "group page, seeing only")
        watcher.visit(group_url + "/share", "group share, seeing only")
        audit.found += watcher.found
    finally:
        watcher.close()
    audit.assert_clean()


def played_group(page: Any, base: str) -> tuple[str, dict[str, int]]:
    """A group whose long-named players finished score sheets through the API (a shared
    win among them) and left one in play; the group page's address and the player ids."""
    request = page.request
    names = ["Ann", "Bo", "Fatoumata Ndiaye-Okonkwo", "Hana"]
    made = request.post(f"{base}/api/v1/groups", data={"name": "Friday", "players": names})
    created = made.json()
    ids = {player["name"]: player["id"] for player in created["players"]}
    auth = {"Authorization": f"Bearer {created['edit_key']}"}
    games = [
        (["Ann", "Bo", "Fatoumata Ndiaye-Okonkwo"], [[10, 3, -4]]),
        (["Bo", "Hana"], [[4, 2], [6, 8]]),
        (["Ann", "Fatoumata Ndiaye-Okonkwo", "Hana"], [[12, 12, 1]]),  # shared
        (["Ann", "Bo"], []),  # still in play
    ]
    for seated, rounds in games:
        session = request.post(
            f"{base}/api/v1/sessions",
            data={
                "game": "score-sheet",
                "group": created["id"],
                "players": [ids[name] for name in seated],
                "options": {"target": 10},
            },
            headers=auth,
        ).json()
        for version, points in enumerate(rounds):
            answer = request.post(
                f"{base}/api/v1/sessions/{session['id']}/events",
                data={"version": version, "action": {"type": "round", "points": points}},
                headers={"Authorization": f"Bearer {session['edit_key']}"},
            )
            assert answer.status == 201, answer.text()
    return f"{base}/g/{created['id']}", ids


def board_names(page: Any) -> list[str]:
    return list(page.locator("table#leaderboard tbody th").all_inner_texts())


def test_a_groups_statistics_page_fits_a_phone_and_passes_axe_in_light_and_dark(
    server: str,
    audit: Audit,  # noqa: F811
) -> None:
    page = audit.page
    group_url, ids = played_group(page, server)
    page.goto(group_url)
    assert "3 finished games counted" in page.content()
    # The click returns once the new address commits, before the page's tables are
    # parsed: counting them needs the load itself.
    with page.expect_navigation():
        page.get_by_role("link", name="Statistics").click()
    assert page.url == group_url + "/stats"
    # The leaderboard first, one row a player, whole on the first screen; the rating's
    # meaning in a sentence under it.
    board = page.locator("table#leaderboard")
    # Ann won both her games; Bo came second of three and shared a win with Hana, who
    # came last of three after it; Fatoumata came last of three, then shared a win.
    assert board_names(page) == ["Ann", "Bo", "Hana", "Fatoumata Ndiaye-Okonkwo"]
    box = board.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740, box
    # Side by side: each row's cells from left to right, none under another.
    lefts = page.eval_on_selector_all(
        "table#leaderboard tbody tr",
        "rows => rows.map(row => [...row.cells].map(cell => cell.getBoundingClientRect().x))",
    )
    assert len(lefts) == 4 and all(len(row) == 6 and row == sorted(set(row)) for row in lefts)
    assert page.locator("#rating-meaning").is_visible()
    assert page.locator("table.stacked").count() == 0
    # Each game's table is behind a tap.
    game_table = page.locator("details.game-figures table")
    assert game_table.count() == 1 and not game_table.is_visible()
    page.get_by_text("Score sheet: 3 games").click()
    assert game_table.is_visible()
    check_phone_layout(page, "group-stats-a-game-open")
    assert page.locator("svg.chart-svg[role=img]").count() == 1
    page.select_option("#duel-first", str(ids["Fatoumata Ndiaye-Okonkwo"]))
    page.select_option("#duel-second", str(ids["Ann"]))
    page.get_by_role("button", name="Compare").click()
    caption = "Fatoumata Ndiaye-Okonkwo and Ann: 2 games together"
    assert page.locator("table.duel-table caption").inner_text() == caption
    audit.check("group statistics, a head to head")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_phone_layout(page, f"group-stats-page-{scheme}")
    # Sorted by a tap of a column's heading (in place: the address follows), which says it
    # is sorted; without a script its link sorts (below).
    page.get_by_role("link", name="Player", exact=True).click()
    assert page.url.endswith("sort=name#leaderboard"), page.url
    name = page.locator("table#leaderboard thead th").nth(0)
    assert name.get_attribute("aria-sort") == "ascending"
    assert board_names(page) == ["Ann", "Bo", "Fatoumata Ndiaye-Okonkwo", "Hana"]
    audit.check("group statistics sorted by name")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_phone_layout(page, f"group-stats-sorted-{scheme}")
    audit.visit(f"{group_url}/stats?first={ids['Bo']}&second={ids['Bo']}", "group stats refused")
    assert page.get_by_role("alert").inner_text() == "Choose two different players to compare."
    check_phone_layout(page, "group-stats-refused")
    audit.assert_clean()


# The leaderboard's headings, as tapped below: each one's title, sort key, direction.
HEADINGS = [
    ("Player", "name", "ascending"),
    ("Played", "played", "descending"),
    ("Won", "won", "descending"),
    ("Win rate", "win_rate", "descending"),
    ("Avg. place", "average_place", "ascending"),
    ("Rating", "rating", "descending"),
]


def sorted_headings(page: Any) -> list[tuple[str, str | None]]:
    """Each heading whose aria-sort is set: (its link's text, aria-sort)."""
    found = page.eval_on_selector_all(
        "table#leaderboard thead th[aria-sort]",
        "cells => cells.map(cell => [cell.querySelector('a').textContent, "
        "cell.getAttribute('aria-sort')])",
    )
    return [(title, sort) for title, sort in found]


def test_a_tap_on_a_leaderboard_heading_sorts_it_in_place_as_its_link_does_without_javascript(
    server: str, browser: Any
) -> None:
    served: dict[str, list[str]] = {}
    with phone(browser, False) as plain:
        group_url, ids = played_group(plain, server)
        stats = f"{group_url}/stats"
        plain.goto(stats)
        for title, key, direction in HEADINGS:
            with plain.expect_navigation():
                plain.get_by_role("link", name=title, exact=True).click()
            query = "" if key == "rating" else f"?sort={key}"
            assert plain.url == f"{stats}{query}#leaderboard"
            assert sorted_headings(plain) == [(title, direction)]
            served[key] = board_names(plain)
    # Sorted by name, then by rating (the first sort): the board's order changes.
    assert served["name"] == ["Ann", "Bo", "Fatoumata Ndiaye-Okonkwo", "Hana"]
    assert served["rating"] == ["Ann", "Bo", "Hana", "Fatoumata Ndiaye-Okonkwo"]
    with phone(browser, True) as page:
        page.goto(stats)
        # A mark on this page's window: a navigation would bring a window without it.
        page.evaluate("window.sortedInPlace = true")
        for title, key, direction in HEADINGS:
            page.get_by_role("link", name=title, exact=True).click()
            assert page.evaluate("window.sortedInPlace === true"), key
            assert board_names(page) == served[key], key
            assert sorted_headings(page) == [(title, direction)]
            query = "" if key == "rating" else f"?sort={key}"
            assert page.url == f"{stats}{query}#leaderboard"
            arrows = page.locator("table#leaderboard thead .sort-arrow").all_inner_texts()
            assert arrows == ["▲" if direction == "ascending" else "▼"]
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            check_phone_layout(page, f"group-stats-tapped-{scheme}")
        # The head to head asked for next keeps the sort tapped.
        page.get_by_role("link", name="Won", exact=True).click()
        page.select_option("#duel-first", str(ids["Bo"]))
        page.select_option("#duel-second", str(ids["Hana"]))
        with page.expect_navigation():
            page.get_by_role("button", name="Compare").click()
        assert "sort=won" in page.url and board_names(page) == served["won"]
        assert sorted_headings(page) == [("Won", "descending")]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_group_play_page_folds_the_options_of_the_seats_tapped(
    server: str, browser: Any, javascript: bool
) -> None:
    """Yadokarick from a group: the folded options line reads the options of the mode the
    tapped seats give (the NPC crab's with two), and Start is on the first screen."""
    suffix = "js" if javascript else "nojs"
    with phone(browser, javascript) as page:
        make_group(page, server, "Friday", ["Ann", "Bo", "Cy", "Di"])
        page.goto(page.url + "/play/yadokarick")
        tap(page, javascript, "Ann")
        tap(page, javascript, "Bo")
        line = page.locator("details[data-options] > summary")
        assert " ".join(line.inner_text().split()) == (
            "Options: green cards, NPC crab plays 2, deck: A new deck profile"
        )
        tap(page, javascript, "Cy")
        assert " ".join(line.inner_text().split()) == (
            "Options: 3 rounds, Seat 1 deals first, size row from 1, to 20, marker on 11, "
            "advanced mode off, green cards, deck: A new deck profile"
        )
        start = page.get_by_role("button", name="Start the game").last
        box = start.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            check_phone_layout(page, f"group-play-options-{suffix}-{scheme}")
        send(page, start)
        assert re.search(r"/s/[\w-]+$", page.url), page.url


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_groups_players_page_adds_first_and_opens_each_player_on_a_tap(
    server: str, browser: Any, javascript: bool
) -> None:
    suffix = "js" if javascript else "nojs"
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    with phone(browser, javascript) as page:
        make_group(page, server, "Friday", names)
        page.goto(page.url + "/players")
        add = page.get_by_role("button", name="Add the player")
        box = add.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 740
        # No emoji field suggests an emoji: a fox in every one looked like a group of foxes.
        assert page.eval_on_selector_all(
            "input[name=emoji]", "inputs => inputs.map(i => i.placeholder)"
        ) == [""] * (len(names) + 1)
        # Each player's forms are folded under their name.
        assert not page.get_by_role("button", name="Save Bo").is_visible()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            check_phone_layout(page, f"group-players-{suffix}-{scheme}")
        page.locator("details.player-edit > summary", has_text="Bo").click()
        assert page.get_by_role("button", name="Save Bo").is_visible()
        assert not page.get_by_role("button", name="Save Cy").is_visible()
        # A refused change comes back with that player's forms open.
        bo = page.locator("details.player-edit", has=page.get_by_role("button", name="Save Bo"))
        bo.locator("input[name=emoji]").fill("A")
        send(page, page.get_by_role("button", name="Save Bo"))
        assert "Choose one emoji" in page.inner_text(".alert.error")
        assert page.get_by_role("button", name="Save Bo").is_visible()
        assert not page.get_by_role("button", name="Save Ann").is_visible()
        check_phone_layout(page, f"group-players-refused-{suffix}")
        page.fill("#new-name", "Gil")
        send(page, add)
        assert page.inner_text(".alert.ok") == "Gil joined the group."
