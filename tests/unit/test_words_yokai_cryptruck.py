"""Yokai Septet's and Cryptruck's rulings, refusals and log lines as phrases: read in
French and Japanese, carried by the API as a code and values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cryptruck.rules import GAME as CRYPTRUCK
from scorekeeper.games.engine import Game
from scorekeeper.games.words import Reader, Text, first_sentence
from scorekeeper.games.yokai_septet.cards import yokai_septet_trick
from scorekeeper.games.yokai_septet.rules import GAME as YOKAI_SEPTET

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"


def reader(language: str) -> Reader:
    return Reader(Locale.parse(language), Translations.load(str(TRANSLATIONS), [language]))


FRENCH = reader("fr")
JAPANESE = reader("ja")


def played(game: Game, players: Sequence[str], actions: Sequence[Mapping[str, object]]) -> Any:
    state = game.start(players, {})
    for action in actions:
        state = game.apply(state, game.parse_action(action))
    return state


def refusal(game: Game, state: Any, action: Mapping[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, game.parse_action(action))
    return refused.value


YOKAI_OPENING = (
    {"type": "trump", "card": "red 6"},
    {"type": "first-lead", "seat": 0},
    {"type": "play", "card": "blue 9"},
    {"type": "play", "card": "blue 12"},
    {"type": "play", "card": "red 7"},
)


def test_a_yokai_septet_play_is_ruled_in_french_and_japanese() -> None:
    state = played(YOKAI_SEPTET, ["Ann", "Bo", "Cy", "Di"], YOKAI_OPENING)
    ruling = state.last_ruling
    assert isinstance(ruling, Text)
    assert ruling == "Cy plays red 7 and shows no blue. Di plays next."
    assert FRENCH.read(ruling) == "Cy joue le rouge 7 et n\u2019a plus de bleu. À Di de jouer."
    assert JAPANESE.read(ruling) == "Cyが赤の7を出し、青がないことを示します。次はDiの番です。"
    assert ruling.to_json() == {
        "code": "sentence.then",
        "values": {
            "first": {
                "code": "trick.plays-showing-void",
                "values": {
                    "name": "Cy",
                    "card": "red 7",
                    "colour": {"code": "colour.blue", "values": {}},
                },
            },
            "second": {"code": "trick.plays-next", "values": {"name": "Di"}},
        },
    }


def test_a_trick_taken_says_why_and_its_first_sentence_is_the_headline() -> None:
    state = played(
        YOKAI_SEPTET,
        ["Ann", "Bo", "Cy", "Di"],
        (*YOKAI_OPENING, {"type": "play", "card": "green 1"}),
    )
    ruling = state.last_ruling
    assert ruling.startswith("Trick 1: Di takes it with green 1. The green 1 (Di) takes every")
    headline = first_sentence(ruling)
    assert headline == "Trick 1: Di takes it with green 1."
    assert isinstance(headline, Text)
    assert FRENCH.read(headline) == "Pli 1\u202f: Di le remporte avec le vert 1."
    assert JAPANESE.read(headline) == "トリック1\uff1aDiが緑の1で取ります。"
    assert "ボス妖怪1体" in JAPANESE.read(ruling)


def test_a_yokai_septet_refusal_is_read_in_french_and_japanese() -> None:
    state = played(YOKAI_SEPTET, ["Ann", "Bo", "Cy", "Di"], YOKAI_OPENING)
    refused = refusal(YOKAI_SEPTET, state, {"type": "play", "card": "blue 9"})
    assert refused.message == (
        "blue 9 was played in trick 1 (by Ann); each card is played once a round."
    )
    assert isinstance(refused.said, Text)
    assert FRENCH.read(refused.said) == (
        "Le bleu 9 a déjà été joué au pli 1 (par Ann)\u202f; "
        "chaque carte ne se joue qu\u2019une fois par manche."
    )
    assert JAPANESE.read(refused.said) == (
        "青の9はすでにトリック1で\uff08Annが\uff09出しています。各カードは1ラウンドに1回しか出せません。"
    )
    assert refused.said.to_json() == {
        "code": "trick.already-played",
        "values": {
            "card": "blue 9",
            "where": {"code": "trick.played-in", "values": {"trick": 1, "name": "Ann"}},
        },
    }


def test_a_judges_explanation_is_a_phrase() -> None:
    judged = yokai_septet_trick("red", ["blue 9", "blue 12", "red 6", "green 1"])
    assert judged.explanation == "The green 1 takes every trick it is in, whatever the trump."
    assert isinstance(judged.explanation, Text)
    assert (
        JAPANESE.read(judged.explanation) == "緑の1は切り札に関係なく、出たトリックを必ず取ります。"
    )


def test_a_cryptruck_ruling_and_refusal_are_read_in_french_and_japanese() -> None:
    state = played(
        CRYPTRUCK,
        ["Ann", "Bo", "Cy"],
        ({"type": "reveal", "card": "red 2"}, {"type": "dealer-card", "card": "green 4"}),
    )
    ruling = state.last_ruling
    assert ruling == "Ann reveals green 4. Bo: want green 4 or pass?"
    assert (
        FRENCH.read(ruling) == "Ann révèle le vert 4. Bo\u202f: prendre le vert 4 ou passer\u202f?"
    )
    assert (
        JAPANESE.read(ruling)
        == "Annが緑の4を公開します。Bo\uff1a緑の4が欲しいですか、パスしますか\uff1f"
    )
    refused = refusal(CRYPTRUCK, state, {"type": "play", "card": "red 1"})
    assert refused.message == "The bidding is not over: Bo says want or pass first."
    assert isinstance(refused.said, Text)
    assert refused.said.to_json() == {
        "code": "cryptruck.bidding-not-over",
        "values": {"name": "Bo"},
    }
    assert FRENCH.read(refused.said) == (
        "Les annonces ne sont pas finies\u202f: Bo doit d\u2019abord prendre ou passer."
    )
    assert (
        JAPANESE.read(refused.said) == "まだ意思表示の途中です。先にBoが欲しいかパスかを言います。"
    )


def test_a_cryptruck_round_entered_as_cards_won_counts_in_every_language() -> None:
    state = played(
        CRYPTRUCK,
        ["Ann", "Bo", "Cy"],
        (
            {"type": "reveal", "card": "red 2"},
            {"type": "won", "cards": [["red 3", "green 4"], ["green 3"], []]},
        ),
    )
    ruling = state.last_ruling
    assert ruling.startswith(
        "Round 1 scores (entered as the cards won): Ann 4 (2 blocks (red 3, green 4) in "
        "2 colours: 2 \u00d7 2 = 4), Bo 1 (1 block (green 3) in 1 colour: 1 \u00d7 1 = 1), "
        "Cy 5 (no blocks: 5)."
    )
    assert "Ann 4 (2 blocs (rouge 3, vert 4) en 2 couleurs\u202f: 2 \u00d7 2 = 4)" in FRENCH.read(
        ruling
    )
    assert (
        "Ann 4\uff082ブロック\uff08赤の3、緑の4\uff09、2色\uff1a2 \u00d7 2 = 4\uff09"
        in JAPANESE.read(ruling)
    )


def test_log_lines_and_the_title_are_phrases() -> None:
    log = CRYPTRUCK.describe(CRYPTRUCK.parse_action({"type": "give", "card": "blue 3"}))
    assert log == "give blue 3"
    assert isinstance(log, Text)
    assert JAPANESE.read(log) == "青の3を渡す"
    assert isinstance(YOKAI_SEPTET.title, Text)
    assert YOKAI_SEPTET.title == "Yokai Septet"
    assert JAPANESE.read(YOKAI_SEPTET.title) == "妖怪セプテット"
