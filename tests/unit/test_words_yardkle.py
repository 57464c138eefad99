"""What Yardkle and the score sheet say, read in French and Japanese (and kept as data)."""

# The French and Japanese punctuation (apostrophes, full-width colons and brackets) is
# what these tests read.
# ruff: noqa: RUF001

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.score_sheet.rules import GAME as SCORE_SHEET
from scorekeeper.games.score_sheet.rules import Finish, Round, number_text
from scorekeeper.games.words import Reader, Text
from scorekeeper.games.yardkle.rules import GAME as YARDKLE
from scorekeeper.games.yardkle.rules import (
    Bank,
    Keep,
    QuickTurn,
    Roll,
    State,
    score_keep,
)
from scorekeeper.web.sessions import headline

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
NNBSP = "\u202f"


def reader(language: str) -> Reader:
    return Reader(Locale.parse(language), Translations.load(str(TRANSLATIONS), [language]))


FR, JA = reader("fr"), reader("ja")


def yardkle(players: Sequence[str] = ("Ann", "Bo"), threshold: int = 500) -> State:
    state: State = YARDKLE.start(players, {"entry_threshold": threshold, "winning_score": 10000})
    return state


def play(state: State, *actions: Roll | Keep | Bank | QuickTurn) -> State:
    for action in actions:
        state = YARDKLE.apply(state, action)
    return state


def said(state: State) -> Text:
    ruling = state.last_ruling
    assert isinstance(ruling, Text)
    return ruling


def test_a_roll_is_read_with_its_combos_in_each_language() -> None:
    rolled = said(play(yardkle(), Roll((1, 1, 5, 5, 5, 2))))
    assert (
        rolled
        == "Ann rolled 1 1 5 5 5 2: three 5s (500) and two single 1s (200) can score up to 700."
    )
    assert FR.read(rolled) == (
        f"Ann a lancé 1 1 5 5 5 2{NNBSP}: brelan de 5 (500) et deux 1 seuls (200), "
        "de quoi marquer jusqu’à 700."
    )
    assert (
        JA.read(rolled)
        == "Annの出目は1 1 5 5 5 2：5が3個（500）、単独の1×2（200）で最大700点です。"
    )


def test_a_turn_s_sentences_follow_one_another_and_big_numbers_group_as_each_language_does() -> (
    None
):
    state = play(yardkle(threshold=0), QuickTurn(12500))
    ended = said(state)
    assert ended == (
        "Ann entered a turn of 12,500: total 12,500. Ann reached 12,500: final round, "
        "everyone else has one more turn. Bo rolls next, for a last turn."
    )
    assert FR.read(ended) == (
        f"Ann inscrit un tour de 12{NNBSP}500{NNBSP}: total 12{NNBSP}500. "
        f"Ann atteint 12{NNBSP}500{NNBSP}: dernier tour, chacun des autres joue une dernière fois. "
        "À Bo de lancer, pour un dernier tour."
    )
    assert JA.read(ended) == (
        "Annはターンの合計12,500を記入：合計12,500。Annが12,500に到達：最終ラウンドです。"
        "ほかの全員があと1ターンずつ振ります。次はBoが振ります（最後のターン）。"
    )
    assert FR.read(said(play(state, QuickTurn(0)))).endswith(
        f"Partie terminée{NNBSP}: Ann gagne avec 12{NNBSP}500."
    )


def test_a_set_aside_then_a_bank_is_one_ruling_of_two_sentences() -> None:
    state = play(yardkle(threshold=0), Roll((1, 5, 2, 3, 4, 6)), Keep((1, 5), bank=True))
    banked = said(state)
    assert banked == (
        "Ann set aside single 1 and single 5 for 150: turn total 150, 4 dice to roll. "
        "Ann banks 150: total 150. Bo rolls next."
    )
    assert FR.read(banked) == (
        f"Ann met de côté 1 seul et 5 seul pour 150{NNBSP}: total du tour 150, 4 dés à lancer. "
        f"Ann valide 150{NNBSP}: total 150. À Bo de lancer."
    )
    assert JA.read(banked) == (
        "Annは単独の1、単独の5をキープして150点：このターンの合計は150、残り4個を振ります。"
        "Annは150をバンク：合計150。次はBoが振ります。"
    )


def test_a_yardkle_says_what_the_turn_lost() -> None:
    state = play(yardkle(), Roll((1, 2, 3, 4, 6, 6)), Keep((1,)), Roll((2, 3, 4, 6, 6)))
    lost = said(state)
    assert lost.startswith("Yardkle! Ann rolled 2 3 4 6 6: no scoring die; the 100 of this turn")
    assert FR.read(lost) == (
        f"Yardkle{NNBSP}! Ann a lancé 2 3 4 6 6{NNBSP}: aucun dé ne marque{NNBSP}; "
        "les 100 de ce tour sont perdus. À Bo de lancer."
    )
    assert JA.read(lost) == (
        "ヤードクル！Annの出目は2 3 4 6 6：得点になるサイコロがありません。"
        "このターンの100点は失われます。次はBoが振ります。"
    )


def refusal(state: State, action: Roll | Keep | Bank | QuickTurn) -> Text:
    with pytest.raises(IllegalAction) as caught:
        YARDKLE.apply(state, action)
    assert isinstance(caught.value.said, Text)
    return caught.value.said


def test_a_refused_set_aside_gives_its_reasons_in_each_language() -> None:
    state = play(yardkle(), Roll((1, 2, 2, 3, 4, 6)))
    refused = refusal(state, Keep((2, 2, 3)))
    assert refused == (
        "Ann cannot set aside 2 2 3: two 2s score nothing: 2s score only as three of a kind; "
        "a 3 on its own scores nothing."
    )
    assert FR.read(refused) == (
        f"Ann ne peut pas mettre de côté 2 2 3{NNBSP}: deux 2 ne rapportent rien{NNBSP}: "
        f"les 2 ne comptent qu’en brelan{NNBSP}; un 3 seul ne rapporte rien."
    )
    assert JA.read(refused) == (
        "Annは2 2 3をキープできません：2は2個では得点になりません。2は3個そろって初めて得点に"
        "なります。3は1個だけでは得点になりません。"
    )


def test_a_refused_bank_and_the_calculator_s_refusal_read_in_each_language() -> None:
    state = play(yardkle(), Roll((1, 2, 3, 4, 6, 6)), Keep((1,)))
    refused = refusal(state, Bank())
    assert FR.read(refused) == (
        f"Ann doit faire 500 en un tour pour entrer sur la feuille de score{NNBSP}; "
        f"ce tour en est à 100{NNBSP}: relancez."
    )
    assert JA.read(refused) == (
        "Annが得点表に載るには1ターンで500が必要です。このターンは100です：振り続けてください。"
    )
    with pytest.raises(IllegalAction) as caught:
        score_keep([1, 1, 2, 3, 4, 6], [1, 1, 1])
    assert caught.value.message == "The roll has only two 1s."
    assert FR.read(caught.value.said) == "Le lancer ne contient que deux 1."
    assert JA.read(caught.value.said) == "出目に1は2個しかありません。"


def test_a_ruling_s_json_is_its_code_and_values_each_part_with_its_own() -> None:
    refused = refusal(play(yardkle(), Roll((1, 2, 2, 3, 4, 6))), Keep((2, 2, 3)))
    assert refused.to_json() == {
        "code": "yardkle.cannot-keep",
        "values": {
            "name": "Ann",
            "dice": "2 2 3",
            "reasons": {
                "code": "yardkle.keep.more-reasons",
                "values": {
                    "first": {"code": "yardkle.keep.pair", "values": {"face": 2}},
                    "second": {"code": "yardkle.keep.lone-die", "values": {"face": 3}},
                },
            },
        },
    }
    rolled = said(play(yardkle(), Roll((5, 2, 3, 4, 6, 6))))
    assert rolled.to_json()["values"] == {
        "name": "Ann",
        "dice": "5 2 3 4 6 6",
        "combos": [
            {
                "code": "yardkle.combo-points",
                "values": {
                    "combo": {"code": "yardkle.combo.single", "values": {"face": 5}},
                    "points": 50,
                },
            }
        ],
        "points": 50,
    }


def test_the_history_lines_notes_and_title_read_in_each_language() -> None:
    assert FR.read(YARDKLE.describe(Keep((5,), bank=True))) == "mettre de côté 5 et valider"
    assert JA.read(YARDKLE.describe(Roll((1, 2)))) == "1 2を振る"
    assert JA.read(YARDKLE.title) == "ヤードクル"
    state = play(yardkle(threshold=0), QuickTurn(300))
    note = YARDKLE.score_rows(state)[0].note
    assert isinstance(note, Text)
    assert FR.read(note) == "saisi en total"


def test_the_score_sheet_says_its_rounds_and_its_winner_in_each_language() -> None:
    state = SCORE_SHEET.start(("Ann", "Bo"), {"winner": "lowest", "target": 0})
    state = SCORE_SHEET.apply(state, Round((12500, -4)))
    state = SCORE_SHEET.apply(state, Finish())
    ruling = state.last_ruling
    assert isinstance(ruling, Text)
    assert ruling == (
        "The table stopped after 1 round. Game over: Bo wins with \u22124 (lowest wins)."
    )
    assert FR.read(ruling) == (
        f"La partie s’est arrêtée après 1 manche. Partie terminée{NNBSP}: "
        "Bo gagne avec \u22124 (le plus bas gagne)."
    )
    assert (
        JA.read(ruling)
        == "1ラウンドで終了しました。ゲーム終了：\u22124でBoの勝ちです（低い方が勝ち）。"
    )
    assert FR.read(number_text(-12500)) == f"\u221212{NNBSP}500"
    assert str(number_text(-12500)) == "\u221212,500"
    assert str(number_text(9500)) == "9500"


def test_a_score_sheet_refusal_names_the_player_in_each_language() -> None:
    state = SCORE_SHEET.start(("Ann", "Bo"), {})
    with pytest.raises(IllegalAction) as caught:
        SCORE_SHEET.apply(state, Round((1, 2, 3)))
    assert caught.value.message == "Enter one number per player: 2 for Ann and Bo, not 3."
    assert FR.read(caught.value.said) == (
        f"Saisissez un nombre par joueur{NNBSP}: 2 pour Ann et Bo, pas 3."
    )
    assert JA.read(caught.value.said) == (
        "1人に1つずつ数を入力してください：Ann、Boの2個です（3個ではありません）。"
    )


def test_the_headline_is_the_ruling_s_first_sentence_in_each_language() -> None:
    state = play(yardkle(threshold=0), Roll((2, 2, 4, 4, 6, 6)), Keep((2, 2, 4, 4, 6, 6)))
    first = headline(state.last_ruling)
    assert first == "Ann set aside three pairs for 1500: turn total 1500."
    assert isinstance(first, Text)
    assert FR.read(first) == f"Ann met de côté trois paires pour 1500{NNBSP}: total du tour 1500."
    assert JA.read(first) == "Annはスリーペアをキープして1500点：このターンの合計は1500。"
    # A name the pages would draw as a card stays as the filters write it, in English.
    state = play(yardkle(("KH", "Bo"), threshold=0), Roll((2, 2, 4, 4, 6, 6)))
    assert headline(state.last_ruling) == (
        "K\u2665 rolled 2 2 4 4 6 6: three pairs (1500) can score up to 1500."
    )


def test_the_score_sheet_s_headline_is_its_ruling_s_first_sentence_in_each_language() -> None:
    state = SCORE_SHEET.start(("Ann", "Bo"), {})
    state = SCORE_SHEET.apply(state, Round((12500, 3)))
    first = headline(state.last_ruling)
    assert first == "Round 1: Ann 12,500, Bo 3."
    assert FR.read(first) == f"Manche 1{NNBSP}: Ann 12{NNBSP}500, Bo 3."
    assert JA.read(first) == "ラウンド1：Ann 12,500、Bo 3。"
