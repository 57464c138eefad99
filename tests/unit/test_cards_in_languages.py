"""Cards typed in the table's words: a coloured deck's card, a trump and a 52-card card
as French and Japanese players write them, read from the app's catalogs."""

# The cards are typed as their players type them: the full-width digits of a Japanese
# keyboard are the point, not look-alikes of ASCII.
# ruff: noqa: RUF001

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog as MessageCatalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import (
    COLOUR_WORDS,
    STANDARD_52,
    Card,
    Deck,
    PlayingCard,
    other_languages_colours,
    other_languages_ranks,
    parse_playing_card,
)
from scorekeeper.games.cryptruck.cards import CRYPTRUCK, cryptruck_trick
from scorekeeper.games.words import Reader
from scorekeeper.games.yadokarick.cards import YADOKARICK, yadokarick_trick
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET, yokai_septet_trick
from scorekeeper.games.yokai_septet.rules import GAME as YOKAI_SEPTET_GAME

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ("fr", "ja")
NB = "\u202f"  # the narrow no-break space French puts before : ; ? ! and inside « »


def catalog(language: str) -> Translations:
    return Translations.load(str(TRANSLATIONS), [language])


def reader(language: str) -> Reader:
    return Reader(Locale.parse(language), catalog(language))


FRENCH = reader("fr")
JAPANESE = reader("ja")


def refusal(deck: Deck, typed: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        deck.parse(typed, "plays.1")
    return refused.value


# --- The words, from the catalogs -------------------------------------------------


def test_each_colour_word_of_each_language_names_one_colour_and_no_english_one() -> None:
    said = {
        (language, colour): catalog(language).pgettext(words.code, words.english)
        for language in LANGUAGES
        for colour, words in COLOUR_WORDS.items()
    }
    assert said[("fr", "green")] == "vert"
    assert said[("ja", "green")] == "緑"
    # No word is two colours' nor an English colour's: each is read as its one colour.
    assert len(set(said.values())) == len(LANGUAGES) * len(COLOUR_WORDS) == 16
    assert set(said.values()).isdisjoint(COLOUR_WORDS)
    assert other_languages_colours() == {word: colour for (_, colour), word in said.items()}


def test_the_french_faces_letters_are_read_from_the_catalog_and_japanese_adds_none() -> None:
    assert other_languages_ranks() == {"V": 11, "D": 12, "R": 13}


# --- Coloured cards -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "typed", "card"),
    [
        (YOKAI_SEPTET, "vert 7", Card("green", 7)),
        (YOKAI_SEPTET, "Vert-7", Card("green", 7)),
        (YOKAI_SEPTET, "VERT7", Card("green", 7)),
        (YOKAI_SEPTET, "緑の7", Card("green", 7)),
        (YOKAI_SEPTET, "緑 7", Card("green", 7)),
        (YOKAI_SEPTET, "緑7", Card("green", 7)),
        (YOKAI_SEPTET, " 緑 の 7 ", Card("green", 7)),
        (YOKAI_SEPTET, "緑の７", Card("green", 7)),
        (YOKAI_SEPTET, "vert A", Card("green", 1)),
        (YOKAI_SEPTET, "vertace", Card("green", 1)),
        (YOKAI_SEPTET, "緑のA", Card("green", 1)),
        (YOKAI_SEPTET, "緑のａ", Card("green", 1)),
        (YOKAI_SEPTET, "violet 8", Card("purple", 8)),
        (YOKAI_SEPTET, "紫の8", Card("purple", 8)),
        (YOKAI_SEPTET, "Rose 9", Card("pink", 9)),
        (YOKAI_SEPTET, "ピンクの3", Card("pink", 3)),
        (YOKAI_SEPTET, "jaune 10", Card("yellow", 10)),
        (YOKAI_SEPTET, "黄の4", Card("yellow", 4)),
        (YOKAI_SEPTET, "noir 11", Card("black", 11)),
        (YOKAI_SEPTET, "黒の5", Card("black", 5)),
        (YOKAI_SEPTET, "rouge 12", Card("red", 12)),
        (YOKAI_SEPTET, "赤の6", Card("red", 6)),
        (YOKAI_SEPTET, "bleu 13", Card("blue", 13)),
        (YOKAI_SEPTET, "青の13", Card("blue", 13)),
        (CRYPTRUCK, "blanc 3", Card("white", 3)),
        (CRYPTRUCK, "白の3", Card("white", 3)),
        (CRYPTRUCK, "Jaune-6", Card("yellow", 6)),
        (CRYPTRUCK, "黄1", Card("yellow", 1)),
        (YADOKARICK, "rose 36", Card("pink", 36)),
        (YADOKARICK, "ピンク36", Card("pink", 36)),
        (YADOKARICK, "vert 25", Card("green", 25)),
        (YADOKARICK, "緑の25", Card("green", 25)),
    ],
)
def test_a_card_typed_in_french_or_japanese_is_the_deck_s_card(
    deck: Deck, typed: str, card: Card
) -> None:
    parsed = deck.parse(typed, "card")
    assert parsed == card
    assert str(parsed) == str(card)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("red ¹", "“red ¹”: ¹ is not a number; write the number in digits."),
        ("rouge ①", "“rouge ①”: ① is not a number; write the number in digits."),
        ("赤の¹", "“赤の¹”: ¹ is not a number; write the number in digits."),
        ("赤の٣", "“赤の٣”: not a card; write it like “red 6” (colour, then number)."),
    ],
)
def test_digits_other_than_full_width_ones_are_no_number(typed: str, message: str) -> None:
    error = refusal(CRYPTRUCK, typed)
    assert (error.message, error.field) == (message, "plays.1")


@pytest.mark.parametrize("language", [FRENCH, JAPANESE], ids=LANGUAGES)
@pytest.mark.parametrize("deck", [YOKAI_SEPTET, CRYPTRUCK, YADOKARICK], ids=lambda d: d.title)
def test_every_card_parses_back_from_how_each_language_shows_it(
    deck: Deck, language: Reader
) -> None:
    shown = [language.read(card.said()) for card in deck.cards()]
    assert shown[0] in ("vert 1", "緑の1", "rouge 1", "赤の1")
    assert [deck.parse(text, "card") for text in shown] == list(deck.cards())


def test_a_french_card_outside_the_deck_is_refused_as_the_english_one() -> None:
    error = refusal(YOKAI_SEPTET, "vert 9")
    assert error.message == "“vert 9”: green runs from 1 to 7 in Yokai Septet."
    assert error.field == "plays.1"
    assert FRENCH.read(error.said) == f"«{NB}vert 9{NB}»{NB}: à Yokai Septet, le vert va de 1 à 7."


def test_a_colour_the_deck_lacks_is_named_in_the_reader_s_words() -> None:
    error = refusal(YOKAI_SEPTET, "blanc 3")
    assert error.message == (
        "“blanc 3”: Yokai Septet has no white cards "
        "(its colours: green, purple, pink, yellow, black, red, blue)."
    )
    assert FRENCH.read(error.said) == (
        f"«{NB}blanc 3{NB}»{NB}: Yokai Septet n’a pas de cartes blanc "
        f"(ses couleurs{NB}: vert, violet, rose, jaune, noir, rouge, bleu)."
    )


@pytest.mark.parametrize(
    ("typed", "english", "french"),
    [
        (
            "marron 3",
            "“marron 3”: Yokai Septet has no marron cards "
            "(its colours: green, purple, pink, yellow, black, red, blue).",
            f"«{NB}marron 3{NB}»{NB}: Yokai Septet n’a pas de cartes marron "
            f"(ses couleurs{NB}: vert, violet, rose, jaune, noir, rouge, bleu).",
        ),
        (
            "vert sept",
            "“vert sept”: sept is not a number; write the number in digits (A or ace for the 1).",
            f"«{NB}vert sept{NB}»{NB}: sept n’est pas un nombre{NB}; écrivez le nombre en "
            "chiffres (A ou ace pour le 1).",
        ),
    ],
)
def test_an_unknown_french_word_is_refused_in_a_clear_sentence(
    typed: str, english: str, french: str
) -> None:
    error = refusal(YOKAI_SEPTET, typed)
    assert (error.message, FRENCH.read(error.said)) == (english, french)


@pytest.mark.parametrize(
    ("typed", "japanese"),
    [
        (
            "茶色の3",
            "「茶色の3」：妖怪セプテットに茶色のカードはありません"
            "（色：緑、紫、ピンク、黄、黒、赤、青）。",
        ),
        ("緑の七", "「緑の七」：七は数字ではありません。数字で書いてください（1はAまたはace）。"),
    ],
)
def test_an_unknown_japanese_word_is_refused_in_a_clear_sentence(typed: str, japanese: str) -> None:
    assert JAPANESE.read(refusal(YOKAI_SEPTET, typed).said) == japanese


# --- Trumps and tricks ------------------------------------------------------------------


@pytest.mark.parametrize("trump", ["rouge", "Rouge ", "赤"])
def test_a_yokai_septet_trick_in_french_or_japanese_is_ruled_as_in_english(trump: str) -> None:
    english = yokai_septet_trick("red", ["blue 9", "blue 12", "red 6", "blue 13"])
    typed = yokai_septet_trick(trump, ["bleu 9", "青の12", "rouge 6", "Bleu-13"])
    assert typed.to_json() == english.to_json()
    assert typed.to_json()["card"] == "red 6"


def test_a_cryptruck_trick_in_japanese_is_ruled_as_in_english() -> None:
    english = cryptruck_trick("blue", ["red 4", "white 3", "blue 3", "red 6"])
    typed = cryptruck_trick("青", ["赤の4", "白の3", "青の3", "赤6"])
    assert typed.to_json() == english.to_json()
    assert (typed.winner, typed.card) == (2, Card("blue", 3))


def test_a_yadokarick_trick_in_french_is_ruled_as_in_english() -> None:
    english = [("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4)]
    french = [("vert 25", 3), ("rose 8", 2), ("vert-17", 1), ("ピンクの29", 4)]
    assert (
        yadokarick_trick([{"card": card, "size": size} for card, size in french]).to_json()
        == yadokarick_trick([{"card": card, "size": size} for card, size in english]).to_json()
    )


def test_a_trump_the_game_lacks_is_refused_in_any_language() -> None:
    with pytest.raises(IllegalAction) as refused:
        cryptruck_trick("noir", ["red 4", "white 3", "blue 3"])
    assert refused.value.field == "trump"
    assert refused.value.message == (
        "“noir”: the trump in Cryptruck is red, yellow, green, blue, purple or white."
    )


def test_a_session_s_card_typed_in_japanese_is_kept_in_english() -> None:
    action = YOKAI_SEPTET_GAME.parse_action({"type": "trump", "card": "赤の6"})
    assert YOKAI_SEPTET_GAME.actions.to_json(action) == {"type": "trump", "card": "red 6"}
    state = YOKAI_SEPTET_GAME.apply(YOKAI_SEPTET_GAME.start(["A", "B", "C", "D"], {}), action)
    assert str(state.last_ruling).startswith("Round 1: the trump card is red 6, so red is trump.")


# --- The 52-card deck ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("♠Q", PlayingCard(12, "S")),
        ("♥10", PlayingCard(10, "H")),
        ("♦V", PlayingCard(11, "D")),
        ("♣ r", PlayingCard(13, "C")),
        ("♠D", PlayingCard(12, "S")),
        ("♡A", PlayingCard(1, "H")),
        ("♥\ufe0fK", PlayingCard(13, "H")),
        ("♠Ｑ", PlayingCard(12, "S")),
    ],
)
def test_a_playing_card_may_have_its_suit_symbol_first(typed: str, card: PlayingCard) -> None:
    assert parse_playing_card(typed, "card") == card


@pytest.mark.parametrize("language", [FRENCH, JAPANESE], ids=LANGUAGES)
def test_every_playing_card_parses_back_from_how_each_language_shows_it(
    language: Reader,
) -> None:
    shown = [language.read(card.said()) for card in STANDARD_52]
    assert shown[11] in ("D♠", "♠Q")
    assert [parse_playing_card(text, "card") for text in shown] == list(STANDARD_52)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("♠11", "“♠11”: 11 is not a rank (A, 2 to 10, J, Q, K); write it like 10D, QS or 7♦."),
        ("♠X", "“♠X”: X is not a rank (A, 2 to 10, J, Q, K); write it like 10D, QS or 7♦."),
        ("♠", "“♠”: not a card; write it like 10D, QS or 7♦."),
        # A suit letter first is no suit: "SQ" is no card ("DS" is the queen of spades).
        ("SQ", "“SQ”: not a card; write it like 10D, QS or 7♦."),
        ("H10", "“H10”: not a card; write it like 10D, QS or 7♦."),
    ],
)
def test_a_suit_first_card_is_refused_saying_why(typed: str, message: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_playing_card(typed, "hands.0.1")
    assert (refused.value.message, refused.value.field) == (message, "hands.0.1")


# --- Without compiled catalogs ---------------------------------------------------------------


def test_without_compiled_catalogs_english_cards_are_read_and_others_refused(
    tmp_path: Path,
) -> None:
    """A source tree before ``pybabel compile``: no catalog, no crash, English alone."""
    script = f"""
from pathlib import Path
from scorekeeper.games import words
words.TRANSLATIONS = Path({str(tmp_path)!r})
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import parse_playing_card
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET, yokai_septet_trick
from scorekeeper.games.yokai_septet.rules import GAME as YOKAI_SEPTET_GAME
print(YOKAI_SEPTET.parse("Green 7", "card"), parse_playing_card("♠Q", "card"))
print(yokai_septet_trick("red", ["blue 9", "red 6", "green 1"]).card)
for typed in ("vert 7", "緑の7"):
    try:
        YOKAI_SEPTET.parse(typed, "card")
    except IllegalAction as refused:
        print(refused.message)
"""
    ran = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert ran.stdout.splitlines() == [
        "green 7 QS",
        "green 1",
        "“vert 7”: Yokai Septet has no vert cards "
        "(its colours: green, purple, pink, yellow, black, red, blue).",
        "“緑の7”: Yokai Septet has no 緑の cards "
        "(its colours: green, purple, pink, yellow, black, red, blue).",
    ]


def test_a_word_two_languages_give_to_two_colours_is_no_one_s_and_english_wins(
    tmp_path: Path,
) -> None:
    """Two made-up languages: one calls red "blue" and green "rose", the other pink "rose"."""
    said = {"aa": {"red": "blue", "green": "rose"}, "bb": {"pink": "rose", "yellow": "gelb"}}
    for language, colours in said.items():
        made = MessageCatalog(locale=language)
        for colour, word in colours.items():
            made.add(colour, word, context=f"colour.{colour}")
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with (folder / "messages.mo").open("wb") as file:
            write_mo(file, made)
    script = f"""
from pathlib import Path
from scorekeeper.games import words
words.TRANSLATIONS = Path({str(tmp_path)!r})
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import other_languages_colours
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET
print(dict(other_languages_colours()))
print(YOKAI_SEPTET.parse("blue 9", "card"), YOKAI_SEPTET.parse("gelb 4", "card"))
try:
    YOKAI_SEPTET.parse("rose 3", "card")
except IllegalAction as refused:
    print(refused.message)
"""
    ran = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert ran.stdout.splitlines() == [
        "{'gelb': 'yellow'}",
        "blue 9 yellow 4",
        "“rose 3”: Yokai Septet has no rose cards "
        "(its colours: green, purple, pink, yellow, black, red, blue).",
    ]
