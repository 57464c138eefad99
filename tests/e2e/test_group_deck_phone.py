"""A group's deck on phone screens (360x740), in real Chromium, light and dark: a member
types every card's size on one page, another member's phone finds the deck and plays with
it without a size asked, and a phone outside the group neither lists nor changes it.
Screenshots: screenshots/group-deck-*-light.png and -dark.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_accessibility import Audit, audit  # noqa: F401  (the axe fixture)
from test_group_phone import make_group
from test_phone import CHROMIUM, check_phone_layout, phone, send

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(),
        reason=f"Chromium is not installed at {CHROMIUM} (apt-get install chromium-headless-shell)",
    ),
]

CARDS = [f"{colour} {number}" for colour in ("green", "pink") for number in range(1, 37)]


def size_of(card: str) -> int:
    return int(card.split()[1]) % 7 + 1


def both_schemes(page: Any, name: str) -> None:
    """No sideways scroll and 44 px tap targets, light and dark; a screenshot of each."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_phone_layout(page, f"group-deck-{name}-{scheme}")
    page.emulate_media(color_scheme="light")


def test_a_deck_typed_at_once_is_every_group_phones_and_no_other_phones(
    server: str,
    browser: Any,
    audit: Audit,  # noqa: F811
) -> None:
    ann = audit.page
    group_url = make_group(ann, server, "Friday night", ["Ann", "Bo", "Cy"])
    assert "No deck yet." in ann.inner_text("main")
    ann.fill("#deck-name", "Crab box")
    send(ann, ann.get_by_role("button", name="Add a deck"))
    deck_url = ann.url
    assert re.search(r"/decks/[\w-]+$", deck_url), deck_url
    assert ann.get_by_label(re.compile("^size of ")).count() == len(CARDS)
    audit.check("a new group deck's sizes")
    for card in CARDS:
        ann.get_by_label(f"size of {card}", exact=True).fill(str(size_of(card)))
    send(ann, ann.get_by_role("button", name="Save sizes"))
    assert ann.get_by_role("status").inner_text() == "Saved."
    assert "every phone of the group knows its sizes and may change them" in ann.inner_text("main")
    audit.check("a group deck saved")
    both_schemes(ann, "sizes")
    ann.goto(group_url)
    assert ann.inner_text("ul.decks") == "Crab box\nYadokarick · 72 of 72 sizes known"
    audit.check("a group page with its deck")
    both_schemes(ann, "group")
    ann.goto(group_url + "/share")
    join_url = ann.locator(".link-box").first.inner_text()
    audit.assert_clean()

    with phone(browser, True) as bo:
        bo.goto(join_url)
        bo.goto(server + "/decks")
        assert "Crab box" in bo.inner_text("ul.list")
        assert "Friday night's deck · 72 of 72 sizes known" in bo.inner_text("ul.list")
        both_schemes(bo, "member-list")
        bo.goto(group_url + "/play/yadokarick")
        for name in ("Bo", "Cy", "Ann"):
            bo.get_by_role("button", name=name, exact=True).click()
        chosen = bo.eval_on_selector("#deck", "select => select.selectedOptions[0].text")
        assert chosen == "Crab box"
        both_schemes(bo, "member-play")
        send(bo, bo.get_by_role("button", name="Start the game").last)
        assert re.search(r"/s/[\w-]+$", bo.url), bo.url
        # The card's size comes from the deck Ann typed: no question, straight to the next.
        send(bo, bo.get_by_role("button", name="green 25", exact=True))
        assert bo.locator("#size-step").count() == 0
        assert bo.inner_text("#play-form h2") == "Ann plays: tap the card"
        session = bo.url.rsplit("/", 1)[1]
        state = bo.request.get(f"{server}/api/v1/sessions/{session}").json()["state"]
        assert state["sizes"] == {"green 25": size_of("green 25")}

    with phone(browser, True) as outsider:
        outsider.goto(server + "/decks")
        assert "Crab box" not in outsider.inner_text("main")
        outsider.goto(deck_url)
        assert outsider.locator("input").count() == 0
        text = outsider.inner_text("main")
        assert "This phone can see them but not change them" in text
        assert "join its group" in text
        both_schemes(outsider, "outside")


def test_the_size_step_opens_the_whole_deck_and_comes_back_to_the_game(
    server: str, browser: Any
) -> None:
    with phone(browser, True) as page:
        page.goto(f"{server}/new/yadokarick")
        for index, name in enumerate(("Ann", "Bo", "Cy")):
            page.fill(f"#seats-{index}", name)
        send(page, page.get_by_role("button", name="Start the game").last)
        game_url = page.url
        send(page, page.get_by_role("button", name="green 25", exact=True))
        assert page.locator("#size-step").count() == 1
        both_schemes(page, "size-step")
        page.get_by_role("link", name="Type every card's size at once").click()
        for card in CARDS:
            page.get_by_label(f"size of {card}", exact=True).fill(str(size_of(card)))
        send(page, page.get_by_role("button", name="Save sizes"))
        both_schemes(page, "from-the-game")
        page.get_by_role("link", name="← Back to the game").click()
        assert page.url == game_url
        # Every card is known now: the card tapped again is played at once, as is the next.
        for card in ("green 25", "green 3"):
            send(page, page.get_by_role("button", name=card, exact=True))
            assert page.locator("#size-step").count() == 0
        session = game_url.rsplit("/", 1)[1]
        state = page.request.get(f"{server}/api/v1/sessions/{session}").json()["state"]
        assert state["sizes"] == {"green 25": size_of("green 25"), "green 3": size_of("green 3")}
