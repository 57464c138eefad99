"""What engines say, as data, read in English, French and Japanese."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.engine import GAME_OVER
from scorekeeper.games.words import (
    ENGLISH,
    Grouped,
    Reader,
    Signed,
    Text,
    all_of,
    counted,
    first_sentence,
    one_of,
    phrase,
)

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"

TAKES = phrase("test.takes", "{player} takes {cards} with {card}.")
POINTS = counted("test.points", "{count} point", "{count} points")


def reader(language: str) -> Reader:
    catalog = Translations.load(str(TRANSLATIONS), [language])
    return Reader(Locale.parse(language), catalog)


def test_a_text_is_its_english_words_as_a_string() -> None:
    said = TAKES(player="Ann", cards=all_of([Card("red", 3), Card("blue", 9)]), card=Card("red", 3))
    assert str(said) == "Ann takes red 3 and blue 9 with red 3."


def test_english_lists_join_with_and_or_or_without_a_serial_comma() -> None:
    names = ["Ann", "Bo", "Cy"]
    assert ENGLISH.value(all_of(names)) == "Ann, Bo and Cy"
    assert ENGLISH.value(one_of(names)) == "Ann, Bo or Cy"
    assert ENGLISH.value(all_of(["Ann"])) == "Ann"
    assert ENGLISH.value(all_of([])) == ""


def test_a_counted_phrase_takes_its_words_for_one_or_more() -> None:
    assert str(POINTS(count=1)) == "1 point"
    assert str(POINTS(count=0)) == "0 points"
    assert str(POINTS(count=12)) == "12 points"


def test_a_counted_phrase_said_without_a_whole_count_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"test\.points is counted"):
        POINTS(count="3")


def test_signed_and_grouped_numbers_are_written_as_score_sheets_write_them() -> None:
    assert ENGLISH.value(Signed(-3)) == "\u22123"
    assert ENGLISH.value(Signed(12)) == "12"
    assert ENGLISH.value(Grouped(9500)) == "9500"
    assert ENGLISH.value(Grouped(12500)) == "12,500"


def test_the_json_of_a_text_is_its_code_and_values_with_cards_as_written() -> None:
    said = TAKES(player="Ann", cards=all_of([Card("red", 3)]), card=Card("red", 3))
    assert said.to_json() == {
        "code": "test.takes",
        "values": {"player": "Ann", "cards": ["red 3"], "card": "red 3"},
    }


def test_a_card_reads_in_the_table_s_own_words() -> None:
    assert reader("fr").value(Card("green", 7)) == "vert 7"
    assert reader("ja").value(Card("green", 7)) == "緑の7"
    assert ENGLISH.value(Card("green", 7)) == "green 7"


def test_french_and_japanese_lists_join_as_their_languages_do() -> None:
    names = ["Ann", "Bo", "Cy"]
    assert reader("fr").value(all_of(names)) == "Ann, Bo et Cy"
    assert reader("fr").value(one_of(names)) == "Ann, Bo ou Cy"
    assert reader("ja").value(all_of(names)) == "Ann、Bo、Cy"


def test_french_groups_thousands_with_a_narrow_space() -> None:
    assert reader("fr").value(Grouped(12500)) == "12\u202f500"
    assert reader("fr").value(Signed(-12500)) == "\u221212\u202f500"


def test_a_refusal_keeps_what_was_said_and_its_english_message() -> None:
    refused = IllegalAction(GAME_OVER(), "type")
    assert isinstance(refused.said, Text)
    assert refused.message == "The game is over."
    assert str(refused) == "The game is over."
    assert reader("fr").read(refused.said) == "La partie est terminée."
    assert reader("ja").read(refused.said) == "ゲームは終了しています。"


def test_a_phrase_no_catalog_has_yet_reads_in_english() -> None:
    said = TAKES(player="Ann", cards=all_of([Card("red", 3), Card("blue", 9)]), card=Card("red", 3))
    assert reader("fr").read(said) == "Ann takes rouge 3 et bleu 9 with rouge 3."


def test_a_text_pickles_with_its_phrase_and_values_as_snapshots_keep_it() -> None:
    import pickle

    said = TAKES(player="Ann", cards=all_of([Card("red", 3)]), card=Card("red", 3))
    kept = pickle.loads(pickle.dumps(said, protocol=pickle.HIGHEST_PROTOCOL))
    assert isinstance(kept, Text)
    assert kept == said
    assert kept.to_json() == said.to_json()
    assert reader("fr").read(kept) == "Ann takes rouge 3 with rouge 3."


def test_the_first_sentence_of_words_read_in_japanese_ends_at_its_full_stop() -> None:
    assert first_sentence("Diが緑の1で取ります。Diの番です。") == "Diが緑の1で取ります。"
    assert first_sentence("Di le remporte. À Di de jouer.") == "Di le remporte."
    assert first_sentence("Di joue.") == "Di joue."


def test_a_full_stop_in_a_name_does_not_end_a_text_s_first_sentence() -> None:
    said = TAKES(player="たろう。", cards=all_of([Card("red", 3)]), card=Card("red", 3))
    first = first_sentence(said)
    assert first == "たろう。 takes red 3 with red 3."
    assert isinstance(first, Text)
    assert reader("fr").read(first) == "たろう。 takes rouge 3 with rouge 3."
