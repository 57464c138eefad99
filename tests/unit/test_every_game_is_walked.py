"""A registered game cannot be left out of the whole-game checks: the page walks that the
web and browser tests play (tests/page_player.py WALKS) and the stored action examples
(tests/unit/test_actions.py STORED) must each name every game the registry lists."""

from __future__ import annotations

from page_player import WALKS
from test_actions import STORED

from scorekeeper.games import GAMES, PACKAGE_OF


def missing(named: set[str], where: str) -> list[str]:
    return [
        f"{slug} (scorekeeper/games/{PACKAGE_OF[slug]}) has no entry in {where}: add one"
        for slug in GAMES
        if slug not in named
    ]


def test_every_registered_game_has_a_page_walk() -> None:
    walked = {slug for slug, _seats, _fields in WALKS.values()}
    assert missing(walked, "tests/page_player.py WALKS") == []
    assert walked <= set(GAMES), "a walk names a game the registry does not list"


def test_every_registered_game_has_its_stored_action_examples() -> None:
    assert missing(set(STORED), "tests/unit/test_actions.py STORED") == []


def test_a_game_left_out_is_named_with_where_to_add_it() -> None:
    walked = {slug for slug, _seats, _fields in WALKS.values()} - {"yardkle"}
    assert missing(walked, "tests/page_player.py WALKS") == [
        "yardkle (scorekeeper/games/yardkle) has no entry in tests/page_player.py WALKS: add one"
    ]
