"""What Yadokarick says, as data: its rulings and refusals read in French and Japanese."""

# Japanese writes full-width brackets and colons, French its apostrophe: on purpose here.
# ruff: noqa: RUF001

from __future__ import annotations

from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.words import Reader, Text
from scorekeeper.games.yadokarick.cards import yadokarick_trick
from scorekeeper.games.yadokarick.rules import GAME
from scorekeeper.games.yadokarick.solo import SoloState
from scorekeeper.games.yadokarick.tricks import State

Game = State | SoloState

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
NNBSP = "\u202f"


def reader(language: str) -> Reader:
    catalog = Translations.load(str(TRANSLATIONS), [language])
    return Reader(Locale.parse(language), catalog)


def play(state: Game, *entries: tuple[str, int]) -> Game:
    for card, size in entries:
        action = GAME.parse_action({"type": "play", "card": card, "size": size})
        state = GAME.apply(state, action)
    return state


def refusal(state: Game, action: dict[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, GAME.parse_action(action))
    return refused.value


def test_a_standard_games_ruling_is_read_in_french_and_japanese() -> None:
    state = GAME.start(("Ann", "Bo", "Cy", "Di"), {})
    state = play(state, ("green 25", 3), ("pink 8", 2))
    ruling = state.last_ruling
    assert isinstance(ruling, Text)
    assert ruling == "Cy plays pink 8 (size 2). Di plays next."
    assert reader("fr").read(ruling) == "Cy joue rose 8 (taille 2). Di joue ensuite."
    assert reader("ja").read(ruling) == "Cyはピンクの8（サイズ2）を出しました。次はDiの番です。"


def test_a_completed_trick_says_its_rule_in_each_language() -> None:
    state = GAME.start(("Ann", "Bo", "Cy", "Di"), {})
    state = play(state, ("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4))
    ruling = state.last_ruling
    assert isinstance(ruling, Text)
    assert ruling.startswith("Ann plays pink 29 (size 4). Trick 1: Pink 8 (Cy) is the lowest")
    french = reader("fr").read(ruling)
    assert french.startswith(
        f"Ann joue rose 29 (taille 4). Pli 1{NNBSP}: Rose 8 (Cy) est la plus basse"
    )
    assert f"Défaussées{NNBSP}: rose 8, vert 17." in french
    japanese = reader("ja").read(ruling)
    assert japanese.startswith("Annはピンクの29（サイズ4）を出しました。トリック1：ピンクの8（Cy）")
    assert "捨て札：ピンクの8、緑の17。" in japanese


def test_a_refusal_keeps_its_phrase_and_is_read_in_each_language() -> None:
    state = play(GAME.start(("Ann", "Bo", "Cy", "Di"), {}), ("green 25", 3))
    refused = refusal(state, {"type": "play", "card": "green 25"})
    assert refused.message == "green 25 was already played in trick 1 by Bo."
    said = refused.said
    assert isinstance(said, Text)
    assert said.to_json() == {
        "code": "yadokarick.already-played",
        "values": {"card": "green 25", "number": 1, "name": "Bo"},
    }
    assert reader("fr").read(said) == "vert 25 a déjà été jouée au pli 1 par Bo."
    assert reader("ja").read(said) == "緑の25はトリック1でBoがすでに出しています。"


def test_the_marker_refusal_and_the_npc_crab_are_said_in_each_language() -> None:
    state = GAME.start(("Ann", "Bo"), {})
    said = refusal(state, {"type": "marker", "move": "left"}).said
    assert isinstance(said, Text)
    assert said.to_json() == {"code": "yadokarick.npc-no-size-marker", "values": {}}
    assert reader("ja").read(said) == (
        "NPCヤドカリ戦にはサイズマーカーがありません。次のカードを入力してください。"
    )
    start = state.last_ruling
    assert isinstance(start, Text)
    assert start == (
        "The NPC crab plays second: the order is Ann, NPC crab and Bo. "
        "Its house size will be the target. Ann leads trick 1."
    )
    assert reader("fr").read(start).endswith("Ann entame le pli 1.")
    assert "順番はAnn、NPCヤドカリ、Boです。" in reader("ja").read(start)


def test_a_solo_refusal_names_where_the_card_is() -> None:
    state = GAME.start(("Ann",), {})
    for card, size in (("green 1", 2), ("green 2", 1), ("pink 18", 3), ("pink 10", 2)):
        state = GAME.apply(state, GAME.parse_action({"type": "draw", "card": card, "size": size}))
    said = refusal(state, {"type": "draw", "card": "green 2", "size": 1}).said
    assert said == "green 2 was drawn already (it is in the row): each card comes up once."
    assert isinstance(said, Text)
    assert said.to_json() == {
        "code": "yadokarick.solo-drawn-already",
        "values": {"card": "green 2", "where": {"code": "yadokarick.solo-where-row", "values": {}}},
    }
    assert reader("fr").read(said) == (
        "vert 2 a déjà été tirée (elle est dans la rangée)"
        f"{NNBSP}: chaque carte ne sort qu’une fois."
    )
    assert (
        reader("ja").read(said)
        == "緑の2はもう引いています（今は列の中）。各カードは一度しか出ません。"
    )


def test_the_judges_explanation_is_a_text() -> None:
    ruled = yadokarick_trick(
        [
            {"card": "green 25", "size": 3},
            {"card": "pink 8", "size": 2},
            {"card": "green 17", "size": 1},
            {"card": "pink 29", "size": 4},
        ]
    )
    explanation = ruled.explanation
    assert isinstance(explanation, Text)
    assert explanation.startswith("Pink 8 is the lowest: it moves the size marker and leads next.")
    assert (
        reader("ja")
        .read(explanation)
        .startswith("ピンクの8が一番小さいので、サイズマーカーを動かし、次にリードします。")
    )
    assert ruled.to_json()["explanation"] == str(explanation)
