"""A registered game cannot be left out of the whole-game checks: the page walks that the
web and browser tests play (tests/page_player.py WALKS), the stored action examples
(tests/unit/test_actions.py STORED), the fuzzed sessions, forms and judge pages
(tests/web/test_fuzz.py), the long games whose state answer's size is measured
(tests/web/test_session_past.py) and the browser's offline walk
(tests/e2e/test_transport_offline.py) must each name every game the registry lists."""

from __future__ import annotations

from page_player import WALKS
from test_actions import STORED
from test_fuzz import ACTION_FORMS, JUDGE_QUERIES, NEW_SESSION_SEATS, VARIANTS
from test_session_past import LONG_GAMES
from test_transport_offline import GAMES as OFFLINE_WALKS

from scorekeeper import games
from scorekeeper.games import GAMES, PACKAGE_OF, WEB_MODULE_OF
from scorekeeper.web.adapters import trick_judges


def home(slug: str) -> str:
    """Where the game lives: its package, or the web module it was registered with."""
    return f"scorekeeper/games/{PACKAGE_OF[slug]}" if slug in PACKAGE_OF else WEB_MODULE_OF[slug]


def missing(named: set[str], where: str, among: list[str] | None = None) -> list[str]:
    """What to add for each game of ``among`` (every registered game) not in ``named``."""
    return [
        f"{slug} ({home(slug)}) has no entry in {where}: add one"
        for slug in (list(GAMES) if among is None else among)
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


def test_a_game_registered_from_elsewhere_is_named_by_its_web_module() -> None:
    sheet = GAMES["score-sheet"]
    copy = type("ScoreSheetCopy", (type(sheet),), {"slug": "sheet-copy"})()
    games.register(copy, "scorekeeper.games.score_sheet.web")
    try:
        walked = {slug for slug, _seats, _fields in WALKS.values()}
        assert missing(walked, "tests/page_player.py WALKS") == [
            "sheet-copy (scorekeeper.games.score_sheet.web) has no entry in "
            "tests/page_player.py WALKS: add one"
        ]
    finally:
        games.unregister("sheet-copy")


def test_every_registered_game_has_its_state_answers_size_measured() -> None:
    measured = {slug for slug, *_rest in LONG_GAMES.values()}
    assert missing(measured, "tests/web/test_session_past.py LONG_GAMES") == []


def test_every_registered_game_has_a_fuzzed_session() -> None:
    fuzzed = {variant.game for variant in VARIANTS.values()}
    assert missing(fuzzed, "tests/web/test_fuzz.py VARIANTS") == []


def test_every_action_type_of_every_game_has_a_fuzzed_form() -> None:
    for slug, game in GAMES.items():
        sent = {
            kind
            for variant, forms in ACTION_FORMS.items()
            if variant in VARIANTS and VARIANTS[variant].game == slug
            for kind in forms
        }
        left_out = [kind for kind in game.actions.types if kind not in sent]
        assert left_out == [], (
            f"{slug} ({home(slug)}): its action types {left_out} have no form in "
            "tests/web/test_fuzz.py ACTION_FORMS: add them"
        )


def test_every_registered_game_has_its_new_session_page_fuzzed() -> None:
    assert missing(set(NEW_SESSION_SEATS), "tests/web/test_fuzz.py NEW_SESSION_SEATS") == []


def test_every_trick_judge_has_its_page_fuzzed() -> None:
    judged = {slug for slug, _query in JUDGE_QUERIES}
    where = "tests/web/test_fuzz.py JUDGE_QUERIES"
    assert missing(judged, where, list(trick_judges())) == []


def test_every_registered_game_is_walked_offline_in_the_browser() -> None:
    walked = {walk.slug for walk in OFFLINE_WALKS}
    assert missing(walked, "tests/e2e/test_transport_offline.py GAMES") == []
