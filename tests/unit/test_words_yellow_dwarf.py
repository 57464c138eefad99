"""Yellow Dwarf's rulings, refusals and cards read in French and Japanese."""

# The sentences expected are written as their readers read them: the typographic apostrophe and
# Japanese full-width punctuation are the point, not look-alikes of ASCII.
# ruff: noqa: RUF001

from __future__ import annotations

from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import PlayingCard, parse_playing_card, with_suit_symbols
from scorekeeper.games.words import Reader, Text
from scorekeeper.games.yellow_dwarf import settlement
from scorekeeper.games.yellow_dwarf.rules import GAME, State

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
FOUR = ("Ann", "Bo", "Cy", "Di")
NB = "\u202f"  # the narrow no-break space French puts before : ; ? ! and inside « »


def reader(language: str) -> Reader:
    catalog = Translations.load(str(TRANSLATIONS), [language])
    return Reader(Locale.parse(language), catalog)


FRENCH = reader("fr")
JAPANESE = reader("ja")


def act(state: State, **data: object) -> State:
    return GAME.apply(state, GAME.parse_action(data))


def test_the_queen_of_spades_is_qs_in_english_d_of_spades_in_french_and_spades_q_in_japanese() -> (
    None
):
    queen = parse_playing_card("QS", "card")
    said = queen.said()
    assert str(said) == "QS" == str(queen)
    assert FRENCH.read(said) == "D♠"
    assert JAPANESE.read(said) == "♠Q"
    assert FRENCH.read(PlayingCard(10, "D").said()) == "10♦"
    assert FRENCH.read(PlayingCard(11, "C").said()) == "V♣"
    assert FRENCH.read(PlayingCard(13, "H").said()) == "R♥"
    assert said.to_json() == {
        "code": "card.playing",
        "values": {
            "rank": {"code": "card.rank-queen", "values": {}},
            "suit": {"code": "card.suit-spades", "values": {}},
        },
    }


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("D♠", PlayingCard(12, "S")),
        ("V♥", PlayingCard(11, "H")),
        ("R♣", PlayingCard(13, "C")),
        ("ds", PlayingCard(12, "S")),
        # D is a rank before a suit and a suit at the end.
        ("DD", PlayingCard(12, "D")),
        ("VD", PlayingCard(11, "D")),
        ("RD", PlayingCard(13, "D")),
        ("10D", PlayingCard(10, "D")),
        ("QD", PlayingCard(12, "D")),
        ("A♠", PlayingCard(1, "S")),
    ],
)
def test_the_french_face_letters_are_read_as_ranks_before_a_suit(
    typed: str, card: PlayingCard
) -> None:
    assert parse_playing_card(typed, "card") == card


@pytest.mark.parametrize("typed", ["D", "V", "R", "DV", "R10", "D♠♠"])
def test_a_french_letter_alone_or_after_another_is_still_no_card(typed: str) -> None:
    with pytest.raises(IllegalAction):
        parse_playing_card(typed, "card")


def test_a_refused_card_says_why_in_each_language() -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_playing_card("XS", "card")
    said = refused.value.said
    assert isinstance(said, Text)
    assert (
        refused.value.message
        == "“XS”: X is not a rank (A, 2 to 10, J, Q, K); write it like 10D, QS or 7♦."
    )
    assert FRENCH.read(said) == (
        f"«{NB}XS{NB}»{NB}: X n’est pas une valeur (A, 2 à 10, V, D, R ou J, Q, K){NB}; "
        "écrivez-la comme 10♦, D♠ ou R♥."
    )


def test_a_round_reads_in_french_and_japanese() -> None:
    state = GAME.start(FOUR, {})
    assert FRENCH.read(state.last_ruling) == (
        f"Manche 1{NB}: chacun mise 15 jetons{NB}; les cases contiennent 10♦ 4, V♣ 8, D♠ 12, "
        "R♥ 16, 7♦ 20. Distribuez 12 cartes à chacun et mettez-en 4 de côté. "
        "Ann ouvre la manche avec la carte de son choix."
    )
    state = act(
        state,
        type="round",
        winner=2,
        left=[3, 5, 0, 1],
        kept=[{"player": 1, "card": "KH"}],
        played=[{"player": 0, "card": "QS", "called": True}],
    )
    record = state.rounds[0]
    assert record.explanation == (
        "Ann called QS “who takes” and took the Queen of Spades tray, 12 chips. "
        "Cy went out: Ann pays 3 (3 cards), Bo pays 5 (5 cards) and Di pays 1 (1 card). "
        "Bo kept KH: pays the King of Hearts tray what it holds, 16."
    )
    assert isinstance(record.explanation, Text)
    assert FRENCH.read(record.explanation) == (
        f"Ann a annoncé «{NB}D♠ qui prend{NB}» et a pris la case Dame de pique{NB}: 12 jetons. "
        f"Cy a fini{NB}: Ann paie 3 (3 cartes), Bo paie 5 (5 cartes) et Di paie 1 (1 carte). "
        f"Bo a gardé R♥{NB}: double la mise de la case Roi de cœur, soit 16."
    )
    assert JAPANESE.read(record.explanation) == (
        "Annが♠Qで「いただき」を宣言し、スペードのQの皿のチップ12枚を取りました。"
        "Cyが上がり：Annが3枚払う（残り3枚）、Boが5枚払う（残り5枚）、Diが1枚払う（残り1枚）。"
        "Boは♥Kを手札に残しました。ハートのKの皿にある16枚と同じ枚数を皿に払います。"
    )
    note = record.notes[1]
    assert note == "\u221215 stake; \u22125 to Cy (5 cards); \u221216 to the KH tray (kept KH)"
    assert isinstance(note, Text)
    assert FRENCH.read(note) == (
        f"\u221215 de mise{NB}; \u22125 à Cy (5 cartes){NB}; "
        f"\u221216 à la case R♥ (carte gardée{NB}: R♥)"
    )
    assert (
        JAPANESE.read(note)
        == "\u221215 賭け金／\u22125 Cyへ（残り5枚）／\u221216 ♥Kの皿へ（♥Kを手札に残した）"
    )


def test_a_refusal_reads_in_french_and_japanese_and_carries_its_code() -> None:
    state = act(GAME.start(FOUR, {}), type="play", card="5H")
    with pytest.raises(IllegalAction) as refused:
        act(state, type="play", card="QS", called=True)
    said = refused.value.said
    assert isinstance(said, Text)
    assert refused.value.message == "Ann must lay a 6 or say “without 6”: QS is not a 6."
    assert refused.value.field == "card"
    assert (
        FRENCH.read(said) == f"Ann doit poser un 6 ou dire «{NB}sans 6{NB}»{NB}: D♠ n’est pas un 6."
    )
    assert (
        JAPANESE.read(said) == "Annは6を出すか「6なし」と言う必要があります。♠Qは6ではありません。"
    )
    assert said.to_json() == {
        "code": "yellow-dwarf.must-lay",
        "values": {
            "name": "Ann",
            "a_rank": {"code": "yellow-dwarf.a-number", "values": {"rank": 6}},
            "rank": "6",
            "card": "QS",
        },
    }


def test_a_face_due_takes_its_own_article_in_french() -> None:
    state = act(GAME.start(FOUR, {}), type="play", card="JH")
    assert state.last_ruling == "Ann lays JH. Ann: lay a Q or say “without Q”."
    assert FRENCH.read(state.last_ruling) == (
        f"Ann pose V♥. Ann{NB}: posez une dame ou dites «{NB}sans D{NB}»."
    )
    assert (
        JAPANESE.read(state.last_ruling)
        == "Annが♥Jを出しました。Ann：Qを出すか、「Qなし」と言ってください。"
    )


def test_the_settle_contract_explains_in_french_with_the_same_english() -> None:
    result = settlement.settle(
        0,
        {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
        [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
        [{"player": 1, "card": "JC"}],
    )
    assert result.explanation.startswith("Player 0 went out: player 1 pays 2 (2 cards)")
    assert FRENCH.read(result.explanation).startswith(
        f"Joueur 0 a fini{NB}: joueur 1 paie 2 (2 cartes)"
    )
    assert FRENCH.read(result.explanation).endswith(
        f"Joueur 1 a posé V♣ sans l’annoncer{NB}: double la mise de la case Valet de trèfle, "
        "soit 8."
    )


def test_the_log_lines_and_the_title_are_phrases() -> None:
    line = GAME.describe(GAME.parse_action({"type": "play", "card": "QS", "called": True}))
    assert line == "QS, called"
    assert isinstance(line, Text)
    assert FRENCH.read(line) == "D♠, annoncé"
    assert JAPANESE.read(line) == "♠Q、宣言あり"
    assert GAME.title == "Yellow Dwarf"
    assert isinstance(GAME.title, Text)
    assert FRENCH.read(GAME.title) == "Nain Jaune"
    assert JAPANESE.read(GAME.title) == "黄色い小人"


def test_suit_symbols_draw_the_english_and_leave_other_languages_to_their_reader() -> None:
    state = act(GAME.start(FOUR, {}), type="play", card="9D")
    drawn = with_suit_symbols(state.last_ruling)
    assert drawn == "Ann lays 9♦. Ann: lay a 10 or say “without 10”."
    assert isinstance(drawn, Text)
    assert FRENCH.read(drawn) == FRENCH.read(state.last_ruling)
    assert with_suit_symbols("Ann lays 9D.") == "Ann lays 9♦."
