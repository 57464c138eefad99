"""Cards and tricks: decks, parsing, the judge contract and each game's trick rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import (
    STANDARD_52,
    Card,
    Deck,
    PlayingCard,
    TrickWinner,
    parse_playing_card,
    with_suit_symbols,
)
from scorekeeper.games.cryptruck.cards import CRYPTRUCK, cryptruck_trick
from scorekeeper.games.yadokarick.cards import YADOKARICK, YadokarickTrick, yadokarick_trick
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET, yokai_septet_trick


def refusal(call: Callable[[], object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        call()
    return caught.value


def c(text: str) -> Card:
    colour, number = text.split()
    return Card(colour, int(number))


def house(*plays: tuple[str, int]) -> list[dict[str, object]]:
    return [{"card": card, "size": size} for card, size in plays]


# --- Decks -----------------------------------------------------------------------


def test_yokai_septet_has_49_cards_seven_shifted_suits_of_seven() -> None:
    assert len(YOKAI_SEPTET.cards()) == 49
    assert YOKAI_SEPTET.colours == ("green", "purple", "pink", "yellow", "black", "red", "blue")
    assert YOKAI_SEPTET.numbers["green"] == (1, 2, 3, 4, 5, 6, 7)
    assert YOKAI_SEPTET.numbers["blue"] == (7, 8, 9, 10, 11, 12, 13)
    assert all(len(numbers) == 7 for numbers in YOKAI_SEPTET.numbers.values())
    assert sum(YOKAI_SEPTET.copies_of(card) for card in YOKAI_SEPTET.cards()) == 49


def test_cryptruck_has_31_distinct_cards_and_32_with_the_second_white_3() -> None:
    assert CRYPTRUCK.colours == ("red", "yellow", "green", "blue", "purple", "white")
    assert len(CRYPTRUCK.cards()) == 31
    assert CRYPTRUCK.copies_of(Card("white", 3)) == 2
    assert CRYPTRUCK.copies_of(Card("red", 3)) == 1
    assert sum(CRYPTRUCK.copies_of(card) for card in CRYPTRUCK.cards()) == 32
    assert [card for card in CRYPTRUCK.cards() if card.colour == "white"] == [Card("white", 3)]


def test_yadokarick_has_green_and_pink_1_to_36() -> None:
    assert len(YADOKARICK.cards()) == 72
    assert YADOKARICK.colours == ("green", "pink")
    assert YADOKARICK.numbers["pink"] == tuple(range(1, 37))


def test_standard_deck_has_52_distinct_cards_ace_low() -> None:
    assert len(STANDARD_52) == 52
    assert len(set(STANDARD_52)) == 52
    assert {card.rank for card in STANDARD_52} == set(range(1, 14))
    assert {card.suit for card in STANDARD_52} == {"S", "H", "D", "C"}


def test_a_card_outside_the_deck_has_no_copies() -> None:
    assert YOKAI_SEPTET.copies_of(Card("green", 9)) == 0
    assert CRYPTRUCK.copies_of(Card("white", 4)) == 0
    assert YADOKARICK.copies_of(Card("blue", 1)) == 0


def test_cards_are_written_colour_then_number() -> None:
    assert str(Card("blue", 13)) == "blue 13"
    assert Card("blue", 7) < Card("blue", 13)


@pytest.mark.parametrize(
    ("card", "text"),
    [
        (PlayingCard(1, "C"), "AC"),
        (PlayingCard(7, "D"), "7D"),
        (PlayingCard(10, "D"), "10D"),
        (PlayingCard(11, "C"), "JC"),
        (PlayingCard(12, "S"), "QS"),
        (PlayingCard(13, "H"), "KH"),
    ],
)
def test_playing_cards_are_written_rank_then_suit(card: PlayingCard, text: str) -> None:
    assert str(card) == text


# --- Parsing coloured cards --------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["blue 13", "Blue 13", "BLUE13", " blue  13 ", "blue-13", "blue - 13", "bLuE\t13"]
)
def test_coloured_cards_parse_in_any_case_and_spacing(text: str) -> None:
    assert YOKAI_SEPTET.parse(text, "card") == Card("blue", 13)


@pytest.mark.parametrize(
    "text", ["green A", "green a", "green ace", "Green ACE", "green-a", "greenace"]
)
def test_yokai_septet_reads_the_ace_as_green_1(text: str) -> None:
    assert YOKAI_SEPTET.parse(text, "card") == Card("green", 1)


def test_other_decks_do_not_read_the_ace() -> None:
    error = refusal(lambda: YADOKARICK.parse("green ace", "plays.0.card"))
    assert error.field == "plays.0.card"
    assert "ace is not a number" in error.message


@pytest.mark.parametrize(
    ("deck", "text", "card"),
    [
        (CRYPTRUCK, "White 3", Card("white", 3)),
        (CRYPTRUCK, "purple6", Card("purple", 6)),
        (YADOKARICK, "pink 36", Card("pink", 36)),
        (YADOKARICK, "GREEN 1", Card("green", 1)),
        (YOKAI_SEPTET, "green 01", Card("green", 1)),
    ],
)
def test_each_deck_parses_its_own_cards(deck: Deck, text: str, card: Card) -> None:
    assert deck.parse(text, "card") == card


def test_every_card_parses_back_from_how_it_is_written() -> None:
    for deck in (YOKAI_SEPTET, CRYPTRUCK, YADOKARICK):
        assert [deck.parse(str(card), "card") for card in deck.cards()] == list(deck.cards())


@pytest.mark.parametrize(
    ("deck", "text", "message"),
    [
        (
            YOKAI_SEPTET,
            "orange 3",
            "“orange 3”: Yokai Septet has no orange cards "
            "(its colours: green, purple, pink, yellow, black, red, blue).",
        ),
        (YOKAI_SEPTET, "green 9", "“green 9”: green runs from 1 to 7 in Yokai Septet."),
        (YOKAI_SEPTET, "blue 6", "“blue 6”: blue runs from 7 to 13 in Yokai Septet."),
        (YOKAI_SEPTET, "Green 0", "“Green 0”: green runs from 1 to 7 in Yokai Septet."),
        (CRYPTRUCK, "white 4", "“white 4”: the only white card in Cryptruck is the 3."),
        (CRYPTRUCK, "red 7", "“red 7”: red runs from 1 to 6 in Cryptruck."),
        (
            CRYPTRUCK,
            "pink 3",
            "“pink 3”: Cryptruck has no pink cards "
            "(its colours: red, yellow, green, blue, purple, white).",
        ),
        (YADOKARICK, "pink 37", "“pink 37”: pink runs from 1 to 36 in Yadokarick."),
        (
            YADOKARICK,
            "white 3",
            "“white 3”: Yadokarick has no white cards (its colours: green, pink).",
        ),
        (
            YOKAI_SEPTET,
            "green seven",
            "“green seven”: seven is not a number; write the number in digits "
            "(A or ace for the 1).",
        ),
        (
            YOKAI_SEPTET,
            "blue",
            "“blue”: not a card; write it like “green 7” (colour, then number).",
        ),
        (
            YOKAI_SEPTET,
            "13 blue",
            "“13 blue”: not a card; write it like “green 7” (colour, then number).",
        ),
        (YOKAI_SEPTET, "   ", "Enter a card, like “green 7”."),
        (YOKAI_SEPTET, 13, "13 is not a card: write a card as text, like “green 7”."),
        (YOKAI_SEPTET, None, "None is not a card: write a card as text, like “green 7”."),
    ],
)
def test_coloured_card_refusals_name_the_card_and_why(
    deck: Deck, text: object, message: str
) -> None:
    error = refusal(lambda: deck.parse(text, "plays.2"))
    assert error.message == message
    assert error.field == "plays.2"


def test_a_very_long_typed_card_is_cut_in_the_refusal() -> None:
    error = refusal(lambda: YOKAI_SEPTET.parse("x" * 500, "card"))
    assert len(error.message) < 120


# --- Parsing playing cards -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10D", PlayingCard(10, "D")),
        ("10d", PlayingCard(10, "D")),
        ("10 ♦", PlayingCard(10, "D")),
        ("q♠", PlayingCard(12, "S")),
        ("Q♤", PlayingCard(12, "S")),
        ("7♦", PlayingCard(7, "D")),
        ("7♢", PlayingCard(7, "D")),
        ("ac", PlayingCard(1, "C")),
        ("1C", PlayingCard(1, "C")),
        ("a♣", PlayingCard(1, "C")),
        ("J♧", PlayingCard(11, "C")),
        ("kh", PlayingCard(13, "H")),
        ("K♥", PlayingCard(13, "H")),
        ("K♡", PlayingCard(13, "H")),
        ("K♥\ufe0f", PlayingCard(13, "H")),
        (" 2 s ", PlayingCard(2, "S")),
    ],
)
def test_playing_cards_parse_ranks_suits_and_symbols(text: str, card: PlayingCard) -> None:
    assert parse_playing_card(text, "card") == card


def test_every_playing_card_parses_back_from_how_it_is_written() -> None:
    assert [parse_playing_card(str(card), "card") for card in STANDARD_52] == list(STANDARD_52)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XZ", "“XZ”: not a card; write it like 10D, QS or 7♦."),
        ("10", "“10”: not a card; write it like 10D, QS or 7♦."),
        ("11D", "“11D”: 11 is not a rank (A, 2 to 10, J, Q, K); write it like 10D, QS or 7♦."),
        ("0H", "“0H”: 0 is not a rank (A, 2 to 10, J, Q, K); write it like 10D, QS or 7♦."),
        (
            "10X",
            "“10X”: X is not a suit (S, H, D, C or ♠ ♥ ♦ ♣); write it like 10D, QS or 7♦.",
        ),
        ("", "Enter a card: write it like 10D, QS or 7♦."),
        (7, "7 is not a card: write it like 10D, QS or 7♦."),
    ],
)
def test_playing_card_refusals_name_the_card_and_why(text: object, message: str) -> None:
    error = refusal(lambda: parse_playing_card(text, "hands.1.0"))
    assert error.message == message
    assert error.field == "hands.1.0"


# --- The judge API contract ------------------------------------------------------------


def test_contract_yokai_septet_green_1_takes_the_trick() -> None:
    ruling = yokai_septet_trick("red", ["blue 9", "blue 12", "red 6", "green 1"])
    assert ruling.to_json() == {
        "winner": 3,
        "card": "green 1",
        "rule": "green-one",
        "explanation": "The green 1 takes every trick it is in, whatever the trump.",
    }


def test_contract_cryptruck_the_later_of_two_trump_3s_wins() -> None:
    ruling = cryptruck_trick("blue", ["red 4", "white 3", "blue 3", "red 6"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("blue", 3), "trump")
    assert ruling.to_json()["card"] == "blue 3"
    assert "white 3 and blue 3 tie at 3: the later card wins." in ruling.explanation


def test_contract_yadokarick_four_player_example() -> None:
    ruling = yadokarick_trick(
        house(("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4))
    )
    assert ruling.movers == (1,)
    assert ruling.next_lead == 1
    assert ruling.takes == {3: (Card("pink", 29),), 0: (Card("green", 25),)}
    assert ruling.discarded == (Card("pink", 8), Card("green", 17))
    assert ruling.to_json() == {
        "movers": [1],
        "next_lead": 1,
        "takes": {"3": ["pink 29"], "0": ["green 25"]},
        "discarded": ["pink 8", "green 17"],
        "explanation": (
            "Pink 8 is the lowest: it moves the size marker and leads next. "
            "Green: green 25 is highest and takes green 25, the largest green (size 3). "
            "Pink: pink 29 is highest and takes pink 29, the largest pink (size 4). "
            "Discarded: pink 8, green 17."
        ),
    }


# --- Yokai Septet ------------------------------------------------------------------------


def test_yokai_green_1_beats_trump() -> None:
    ruling = yokai_septet_trick("green", ["red 12", "red 6", "green 1", "green 7"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("green", 1), "green-one")


def test_yokai_green_1_led_takes_the_trick() -> None:
    ruling = yokai_septet_trick("blue", ["green 1", "green 7", "blue 13", "green 6"])
    assert (ruling.winner, ruling.rule) == (0, "green-one")


def test_yokai_the_only_trump_beats_the_led_suit() -> None:
    ruling = yokai_septet_trick("red", ["blue 9", "blue 12", "red 6", "blue 13"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("red", 6), "trump")
    assert ruling.explanation == "Trump beats the led suit: red 6 is the only trump."


def test_yokai_highest_trump_wins() -> None:
    ruling = yokai_septet_trick("red", ["blue 9", "red 11", "red 6", "blue 13"])
    assert (ruling.winner, ruling.card, ruling.rule) == (1, Card("red", 11), "trump")
    assert ruling.explanation == "The highest trump wins: red 11 beats red 6."


def test_yokai_trump_led_and_unfollowed_wins() -> None:
    ruling = yokai_septet_trick("pink", ["pink 3", "blue 13", "black 11", "red 12"])
    assert (ruling.winner, ruling.rule) == (0, "trump")
    assert ruling.explanation == "Trump wins: pink 3 is the only trump."


def test_yokai_without_trump_the_highest_of_the_led_suit_wins() -> None:
    ruling = yokai_septet_trick("red", ["blue 9", "blue 12", "black 11", "blue 10"])
    assert (ruling.winner, ruling.card, ruling.rule) == (1, Card("blue", 12), "lead-suit")
    assert ruling.explanation == (
        "No trump was played, so the highest card of the led suit (blue) wins: blue 12."
    )


def test_yokai_an_off_suit_card_higher_than_the_lead_does_not_win() -> None:
    ruling = yokai_septet_trick("red", ["purple 2", "blue 13", "black 11", "yellow 10"])
    assert (ruling.winner, ruling.rule) == (0, "lead-suit")
    assert "no one followed purple" in ruling.explanation


def test_yokai_accepts_a_three_card_trick_and_any_case_trump() -> None:
    ruling = yokai_septet_trick(" RED ", ["blue 9", "red 7", "blue 12"])
    assert (ruling.winner, ruling.rule) == (1, "trump")


def test_yokai_seat_names_appear_in_the_explanation_only() -> None:
    plays = ["blue 9", "blue 12", "red 6", "blue 13"]
    named = yokai_septet_trick("red", plays, ["Al", "Bo", "Cy", "Di"])
    assert named.explanation == "Trump beats the led suit: red 6 (Cy) is the only trump."
    plain = yokai_septet_trick("red", plays)
    assert (named.winner, named.card, named.rule) == (plain.winner, plain.card, plain.rule)


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_yokai_refuses_a_trick_of_the_wrong_size(count: int) -> None:
    plays = [str(card) for card in YOKAI_SEPTET.cards()[8 : 8 + count]]
    error = refusal(lambda: yokai_septet_trick("red", plays))
    assert error.field == "plays"
    assert error.message == (
        f"A Yokai Septet trick has 3 or 4 cards, one per player; this one has {count}."
    )


@pytest.mark.parametrize("trump", ["orange", "", None, 3, "white"])
def test_yokai_refuses_an_unknown_trump(trump: object) -> None:
    error = refusal(lambda: yokai_septet_trick(trump, ["blue 9", "blue 12", "red 6"]))
    assert error.field == "trump"
    assert "green, purple, pink, yellow, black, red or blue" in error.message


def test_yokai_refuses_a_repeated_card_at_the_repeat() -> None:
    error = refusal(lambda: yokai_septet_trick("red", ["blue 9", "blue 12", "Blue 9", "red 6"]))
    assert error.field == "plays.2"
    assert error.message == "“blue 9” is played twice (plays 0 and 2); there is only one."


def test_yokai_refuses_an_unknown_card_at_its_play() -> None:
    error = refusal(lambda: yokai_septet_trick("red", ["blue 9", "blue 12", "green 9"]))
    assert error.field == "plays.2"
    assert error.message == "“green 9”: green runs from 1 to 7 in Yokai Septet."


@pytest.mark.parametrize("plays", ["blue 9, blue 12, red 6", {"0": "blue 9"}, 3, None])
def test_plays_must_be_a_list(plays: Any) -> None:
    for call in (
        lambda: yokai_septet_trick("red", plays),
        lambda: cryptruck_trick("red", plays),
        lambda: yadokarick_trick(plays),
    ):
        assert refusal(call).field == "plays"


@pytest.mark.parametrize("names", [["Al", "Bo"], ["Al", "Bo", "Cy", "Di", "Ed"], "Al", [1, 2, 3]])
def test_seat_names_must_match_the_plays(names: Any) -> None:
    plays = ["blue 9", "blue 12", "red 6"]
    for call in (
        lambda: yokai_septet_trick("red", plays, names),
        lambda: cryptruck_trick("red", ["red 1", "red 2", "red 3"], names),
        lambda: yadokarick_trick(house(("green 1", 1), ("green 2", 1), ("green 3", 1)), names),
    ):
        assert refusal(call).field == "names"


# --- Cryptruck -----------------------------------------------------------------------------


def test_cryptruck_trump_colour_3_played_after_white_3_wins() -> None:
    ruling = cryptruck_trick("blue", ["white 3", "blue 3", "red 3"])
    assert (ruling.winner, ruling.card) == (1, Card("blue", 3))
    assert "white 3 and blue 3 tie at 3: the later card wins." in ruling.explanation


def test_cryptruck_white_3_played_after_trump_colour_3_wins() -> None:
    ruling = cryptruck_trick("blue", ["red 2", "blue 3", "white 3"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("white", 3), "trump")
    assert "blue 3 and white 3 tie at 3: the later card wins." in ruling.explanation


def test_cryptruck_the_second_of_two_white_3s_wins() -> None:
    ruling = cryptruck_trick("red", ["white 3", "red 2", "white 3", "red 1"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("white", 3), "trump")
    assert ruling.explanation == (
        "The highest trump wins, and the two white 3s tie at 3: the later card wins."
    )
    named = cryptruck_trick("red", ["white 3", "red 2", "white 3", "red 1"], ["A", "B", "C", "D"])
    assert "white 3 (A) and white 3 (C) tie at 3" in named.explanation
    assert named.winner == 2


def test_cryptruck_three_tied_trumps_go_to_the_last() -> None:
    ruling = cryptruck_trick("green", ["white 3", "green 3", "white 3", "red 1"])
    assert (ruling.winner, ruling.card) == (2, Card("white", 3))
    assert "the last of them wins" in ruling.explanation


def test_cryptruck_a_higher_trump_beats_white_3() -> None:
    ruling = cryptruck_trick("blue", ["white 3", "blue 5", "red 6"])
    assert (ruling.winner, ruling.card, ruling.rule) == (1, Card("blue", 5), "trump")
    assert ruling.explanation == "The highest trump wins: blue 5 beats white 3."


def test_cryptruck_white_3_beats_a_lower_trump_and_the_led_colour() -> None:
    ruling = cryptruck_trick("blue", ["red 6", "blue 2", "white 3"])
    assert (ruling.winner, ruling.card) == (2, Card("white", 3))


def test_cryptruck_a_white_lead_is_a_trump_lead() -> None:
    ruling = cryptruck_trick("red", ["white 3", "yellow 6", "green 5"])
    assert (ruling.winner, ruling.card, ruling.rule) == (0, Card("white", 3), "trump")
    assert ruling.explanation == "Trump wins: white 3 is the only trump."


def test_cryptruck_with_white_as_trump_the_revealed_colour_is_not_trump() -> None:
    ruling = cryptruck_trick("white", ["red 2", "blue 6", "red 5"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("red", 5), "lead-suit")
    with_white = cryptruck_trick("White", ["red 2", "blue 6", "white 3", "red 5"])
    assert (with_white.winner, with_white.rule) == (2, "trump")


def test_cryptruck_without_trump_the_highest_of_the_led_colour_wins() -> None:
    ruling = cryptruck_trick("purple", ["red 4", "yellow 6", "red 5", "red 1"])
    assert (ruling.winner, ruling.card, ruling.rule) == (2, Card("red", 5), "lead-suit")
    assert ruling.explanation == (
        "No trump was played, so the highest card of the led colour (red) wins: red 5."
    )


def test_cryptruck_the_only_trump_wins() -> None:
    ruling = cryptruck_trick("yellow", ["red 6", "yellow 1", "red 5"], ["Al", "Bo", "Cy"])
    assert (ruling.winner, ruling.rule) == (1, "trump")
    assert ruling.explanation == "Trump beats the led colour: yellow 1 (Bo) is the only trump."


def test_cryptruck_refuses_more_colours_than_players() -> None:
    error = refusal(lambda: cryptruck_trick("blue", ["red 1", "yellow 2", "green 3"]))
    assert error.field == "plays"
    assert error.message == (
        "A 3-player game uses 3 colours; this trick shows 4: red, yellow, green and blue."
    )


def test_cryptruck_white_does_not_count_as_a_game_colour() -> None:
    ruling = cryptruck_trick("white", ["red 1", "yellow 2", "green 3", "white 3"])
    assert ruling.winner == 3
    five = cryptruck_trick("purple", ["red 1", "yellow 2", "green 3", "blue 4", "white 3"])
    assert five.winner == 4


def test_cryptruck_refuses_a_third_white_3() -> None:
    error = refusal(lambda: cryptruck_trick("red", ["white 3", "white 3", "red 1", "WHITE 3"]))
    assert error.field == "plays.3"
    assert error.message == (
        "“white 3” is played three times (plays 0, 1 and 3); there are only two."
    )


def test_cryptruck_refuses_a_repeated_colour_card() -> None:
    error = refusal(lambda: cryptruck_trick("red", ["red 1", "red 2", "red 1"]))
    assert error.field == "plays.2"
    assert error.message == "“red 1” is played twice (plays 0 and 2); there is only one."


@pytest.mark.parametrize("count", [2, 6])
def test_cryptruck_refuses_a_trick_of_the_wrong_size(count: int) -> None:
    plays = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6"][:count]
    error = refusal(lambda: cryptruck_trick("red", plays))
    assert error.field == "plays"
    assert error.message == (
        f"A Cryptruck trick has 3 to 5 cards, one per player; this one has {count}."
    )


@pytest.mark.parametrize("trump", ["pink", "", None, "white 3"])
def test_cryptruck_refuses_an_unknown_trump(trump: object) -> None:
    error = refusal(lambda: cryptruck_trick(trump, ["red 1", "red 2", "red 3"]))
    assert error.field == "trump"
    assert "red, yellow, green, blue, purple or white" in error.message


def test_cryptruck_refuses_cards_outside_its_ranks() -> None:
    error = refusal(lambda: cryptruck_trick("red", ["red 1", "white 4", "red 3"]))
    assert error.field == "plays.1"
    assert error.message == "“white 4”: the only white card in Cryptruck is the 3."


# --- Yadokarick ------------------------------------------------------------------------------


def test_yadokarick_six_player_example() -> None:
    ruling = yadokarick_trick(
        house(
            ("green 31", 3),
            ("pink 9", 2),
            ("green 12", 3),
            ("pink 26", 1),
            ("pink 14", 4),
            ("green 20", 2),
        )
    )
    assert ruling.movers == (1,)
    assert ruling.next_lead == 1
    assert ruling.takes == {3: (c("pink 14"),), 0: (c("green 31"), c("green 12"))}
    assert ruling.discarded == (c("pink 9"), c("pink 26"), c("green 20"))
    assert ruling.explanation == (
        "Pink 9 is the lowest: it moves the size marker and leads next. "
        "Green: green 31 is highest and takes green 31 and green 12, "
        "the largest greens (size 3). "
        "Pink: pink 26 is highest and takes pink 14, the largest pink (size 4). "
        "Discarded: pink 9, pink 26, green 20."
    )


def test_yadokarick_the_highest_may_take_cards_but_not_its_own() -> None:
    ruling = yadokarick_trick(house(("green 30", 1), ("green 4", 2), ("pink 7", 1), ("pink 5", 1)))
    assert ruling.takes == {0: (c("green 4"),), 2: (c("pink 7"), c("pink 5"))}
    assert ruling.discarded == (c("green 30"),)
    assert ruling.movers == (1,)


def test_yadokarick_tied_lowest_each_move_in_play_order_and_the_last_leads() -> None:
    ruling = yadokarick_trick(
        house(("pink 5", 1), ("green 20", 2), ("green 5", 2), ("pink 12", 3)),
        ["Al", "Bo", "Cy", "Di"],
    )
    assert ruling.movers == (0, 2)
    assert ruling.next_lead == 2
    assert ruling.explanation.startswith(
        "Pink 5 (Al) and green 5 (Cy) tie for lowest: each moves the size marker, "
        "in play order, and green 5 (Cy), the last, leads next."
    )


def test_yadokarick_a_lone_colour_card_goes_to_its_player_who_also_moves_if_lowest() -> None:
    ruling = yadokarick_trick(
        house(("green 25", 3), ("pink 2", 1), ("green 17", 1), ("green 29", 4))
    )
    assert ruling.movers == (1,)
    assert ruling.next_lead == 1
    assert ruling.takes == {3: (c("green 29"),), 1: (c("pink 2"),)}
    assert ruling.discarded == (c("green 25"), c("green 17"))
    assert (
        "Pink: pink 2 is the only pink, so its player takes it and, as the lowest, "
        "also moves the size marker." in ruling.explanation
    )


def test_yadokarick_a_lone_colour_card_that_is_not_lowest_is_still_taken() -> None:
    ruling = yadokarick_trick(
        house(("green 25", 3), ("pink 30", 1), ("green 17", 1), ("green 2", 4))
    )
    assert ruling.takes[1] == (c("pink 30"),)
    assert "Pink: pink 30 is the only pink, so its player takes it." in ruling.explanation
    assert ruling.movers == (3,)


def test_yadokarick_one_colour_four_player_trick_discards_nothing_of_largest_size() -> None:
    ruling = yadokarick_trick(house(("green 9", 2), ("green 3", 2), ("green 8", 2), ("green 1", 1)))
    assert ruling.takes == {0: (c("green 9"), c("green 3"), c("green 8"))}
    assert ruling.discarded == (c("green 1"),)
    assert ruling.movers == (3,)


def test_yadokarick_three_players_the_highest_takes_every_card() -> None:
    ruling = yadokarick_trick(
        [{"card": "pink 12"}, {"card": "pink 30", "size": "2"}, {"card": "pink 4"}]
    )
    assert ruling.takes == {1: (c("pink 12"), c("pink 30"), c("pink 4"))}
    assert ruling.discarded == ()
    assert (ruling.movers, ruling.next_lead) == ((2,), 2)
    assert ruling.explanation == (
        "Pink 4 is the lowest: it moves the size marker and leads next. "
        "Pink 30 is the highest and takes all 3 cards."
    )


def test_yadokarick_three_players_use_one_colour() -> None:
    error = refusal(
        lambda: yadokarick_trick([{"card": "pink 12"}, {"card": "green 30"}, {"card": "pink 4"}])
    )
    assert error.field == "plays"
    assert error.message == "The 3-player game uses one colour; this trick mixes green and pink."


def test_yadokarick_three_players_still_check_a_given_size() -> None:
    error = refusal(
        lambda: yadokarick_trick(
            [{"card": "pink 12", "size": 0}, {"card": "pink 30"}, {"card": "pink 4"}]
        )
    )
    assert error.field == "plays.0.size"


def test_yadokarick_accepts_a_size_written_as_digits() -> None:
    ruling = yadokarick_trick(
        [
            {"card": "green 25", "size": "3"},
            {"card": "pink 8", "size": " 2 "},
            {"card": "green 17", "size": 1},
            {"card": "pink 29", "size": "4"},
        ]
    )
    assert ruling.takes == {3: (c("pink 29"),), 0: (c("green 25"),)}


@pytest.mark.parametrize(
    ("size", "message"),
    [
        (None, "The size printed on green 25 is missing."),
        ("", "The size printed on green 25 is missing."),
        (0, "The size printed on green 25 must be at least 1; you entered 0."),
        (-2, "The size printed on green 25 must be at least 1; you entered -2."),
        ("-1", "The size printed on green 25 must be at least 1; you entered -1."),
        ("abc", "The size printed on green 25 must be a whole number."),
        (True, "The size printed on green 25 must be a whole number."),
        (2.5, "The size printed on green 25 must be a whole number."),
    ],
)
def test_yadokarick_refuses_a_bad_size(size: object, message: str) -> None:
    plays = house(("pink 8", 2), ("green 25", 3), ("green 17", 1), ("pink 29", 4))
    plays[1]["size"] = size
    error = refusal(lambda: yadokarick_trick(plays))
    assert (error.field, error.message) == ("plays.1.size", message)


def test_yadokarick_refuses_a_missing_size_key() -> None:
    plays = house(("pink 8", 2), ("green 25", 3), ("green 17", 1), ("pink 29", 4))
    del plays[1]["size"]
    error = refusal(lambda: yadokarick_trick(plays))
    assert (error.field, error.message) == (
        "plays.1.size",
        "The size printed on green 25 is missing.",
    )


def test_yadokarick_refuses_a_play_without_a_card_or_not_a_mapping() -> None:
    plays: list[object] = list(house(("pink 8", 2), ("green 25", 3), ("green 17", 1)))
    plays.append({"size": 2})
    assert refusal(lambda: yadokarick_trick(plays)).field == "plays.3.card"
    plays[3] = "green 9"
    assert refusal(lambda: yadokarick_trick(plays)).field == "plays.3"


def test_yadokarick_refuses_an_unknown_card_on_its_card_field() -> None:
    plays = house(("pink 8", 2), ("green 25", 3), ("green 37", 1), ("pink 29", 4))
    error = refusal(lambda: yadokarick_trick(plays))
    assert error.field == "plays.2.card"
    assert error.message == "“green 37”: green runs from 1 to 36 in Yadokarick."


def test_yadokarick_refuses_a_repeated_card_on_its_card_field() -> None:
    plays = house(("pink 8", 2), ("green 25", 3), ("Pink 8", 2), ("pink 29", 4))
    error = refusal(lambda: yadokarick_trick(plays))
    assert error.field == "plays.2.card"
    assert error.message == "“pink 8” is played twice (plays 0 and 2); there is only one."


@pytest.mark.parametrize("count", [2, 8])
def test_yadokarick_refuses_a_trick_of_the_wrong_size(count: int) -> None:
    plays = house(*[(f"green {number}", 1) for number in range(1, count + 1)])
    error = refusal(lambda: yadokarick_trick(plays))
    assert error.field == "plays"
    assert error.message == (
        f"A Yadokarick trick has 3 to 7 cards, one per player; this one has {count}."
    )


def test_yadokarick_seven_players_are_judged() -> None:
    plays = house(*[(f"pink {number}", number % 3 + 1) for number in range(10, 17)])
    ruling = yadokarick_trick(plays)
    assert ruling.movers == (0,)
    assert ruling.takes == {6: (c("pink 11"), c("pink 14"))}


# --- Properties ---------------------------------------------------------------------------------

seat_names = st.text(min_size=1, max_size=8)


def assert_same_ruling(one: TrickWinner, other: TrickWinner) -> None:
    assert (one.winner, one.card, one.rule) == (other.winner, other.card, other.rule)


@st.composite
def yokai_tricks(draw: st.DrawFn) -> tuple[str, list[str]]:
    trump = draw(st.sampled_from(YOKAI_SEPTET.colours))
    cards = draw(
        st.lists(st.sampled_from(YOKAI_SEPTET.cards()), min_size=3, max_size=4, unique=True)
    )
    return trump, [str(card) for card in cards]


@given(yokai_tricks(), st.lists(seat_names, min_size=4, max_size=4))
def test_yokai_the_winner_is_a_play_and_names_do_not_change_it(
    trick: tuple[str, list[str]], names: list[str]
) -> None:
    trump, plays = trick
    ruling = yokai_septet_trick(trump, plays)
    assert YOKAI_SEPTET.parse(plays[ruling.winner], "card") == ruling.card
    assert_same_ruling(ruling, yokai_septet_trick(trump, plays, names[: len(plays)]))
    if "green 1" in plays:
        assert ruling.rule == "green-one"


@given(st.data())
def test_yokai_the_only_trump_without_green_1_wins(data: st.DataObject) -> None:
    trump = data.draw(st.sampled_from(YOKAI_SEPTET.colours))
    others = [card for card in YOKAI_SEPTET.cards() if card.colour != trump and card.number != 1]
    trumps = [card for card in YOKAI_SEPTET.cards() if card.colour == trump and card.number != 1]
    rest = data.draw(st.lists(st.sampled_from(others), min_size=2, max_size=3, unique=True))
    single = data.draw(st.sampled_from(trumps))
    at = data.draw(st.integers(0, len(rest)))
    plays = [str(card) for card in [*rest[:at], single, *rest[at:]]]
    ruling = yokai_septet_trick(trump, plays)
    assert (ruling.winner, ruling.card, ruling.rule) == (at, single, "trump")


@st.composite
def cryptruck_tricks(draw: st.DrawFn) -> tuple[str, list[str]]:
    count = draw(st.integers(3, 5))
    colours = draw(st.permutations(CRYPTRUCK.colours[:5]))[:count]
    trump = draw(st.sampled_from([*colours, "white"]))
    pool = [Card(colour, number) for colour in colours for number in range(1, 7)]
    pool += [Card("white", 3)] * 2
    picks = draw(
        st.lists(st.integers(0, len(pool) - 1), min_size=count, max_size=count, unique=True)
    )
    return trump, [str(pool[pick]) for pick in picks]


@given(cryptruck_tricks(), st.lists(seat_names, min_size=5, max_size=5))
def test_cryptruck_the_winner_is_a_play_and_names_do_not_change_it(
    trick: tuple[str, list[str]], names: list[str]
) -> None:
    trump, plays = trick
    ruling = cryptruck_trick(trump, plays)
    assert CRYPTRUCK.parse(plays[ruling.winner], "card") == ruling.card
    assert_same_ruling(ruling, cryptruck_trick(trump, plays, names[: len(plays)]))
    cards = [CRYPTRUCK.parse(play, "card") for play in plays]
    trumps = [card for card in cards if card.colour in (trump, "white")]
    if trumps:
        assert ruling.rule == "trump"
        assert ruling.card.number == max(card.number for card in trumps)
        later = [card for card in cards[ruling.winner + 1 :] if card.colour in (trump, "white")]
        assert all(card.number < ruling.card.number for card in later)
    else:
        assert ruling.rule == "lead-suit"
        assert ruling.card.colour == cards[0].colour


@given(cryptruck_tricks())
def test_cryptruck_the_only_trump_wins_wherever_it_is_played(
    trick: tuple[str, list[str]],
) -> None:
    trump, plays = trick
    cards = [CRYPTRUCK.parse(play, "card") for play in plays]
    trumps = [i for i, card in enumerate(cards) if card.colour in (trump, "white")]
    if len(trumps) == 1:
        ruling = cryptruck_trick(trump, plays)
        assert (ruling.winner, ruling.rule) == (trumps[0], "trump")


@st.composite
def yadokarick_tricks(draw: st.DrawFn) -> list[dict[str, object]]:
    count = draw(st.integers(3, 7))
    deck = YADOKARICK.cards()
    if count == 3:
        colour = draw(st.sampled_from(YADOKARICK.colours))
        deck = tuple(card for card in deck if card.colour == colour)
    cards = draw(st.lists(st.sampled_from(deck), min_size=count, max_size=count, unique=True))
    sizes = draw(st.lists(st.integers(1, 5), min_size=count, max_size=count))
    return [{"card": str(card), "size": size} for card, size in zip(cards, sizes, strict=True)]


def ruling_facts(ruling: YadokarickTrick) -> tuple[object, ...]:
    return (ruling.movers, ruling.next_lead, dict(ruling.takes), ruling.discarded)


@given(yadokarick_tricks(), st.lists(seat_names, min_size=7, max_size=7))
def test_yadokarick_every_card_is_taken_once_or_discarded(
    plays: list[dict[str, object]], names: list[str]
) -> None:
    ruling = yadokarick_trick(plays)
    cards = [YADOKARICK.parse(play["card"], "card") for play in plays]
    taken = [card for taken in ruling.takes.values() for card in taken]
    assert sorted([*taken, *ruling.discarded]) == sorted(cards)
    assert len(set(taken)) == len(taken)
    assert ruling_facts(ruling) == ruling_facts(yadokarick_trick(plays, names[: len(plays)]))


@given(yadokarick_tricks())
def test_yadokarick_takers_hold_the_highest_and_movers_the_lowest(
    plays: list[dict[str, object]],
) -> None:
    ruling = yadokarick_trick(plays)
    cards = [YADOKARICK.parse(play["card"], "card") for play in plays]
    for taker, taken in ruling.takes.items():
        for card in taken:
            same = [other.number for other in cards if other.colour == card.colour]
            if len(plays) > 3:
                assert cards[taker].colour == card.colour
            assert cards[taker].number == max(same)
    lowest = min(card.number for card in cards)
    assert ruling.movers
    assert all(cards[mover].number == lowest for mover in ruling.movers)
    assert list(ruling.movers) == sorted(ruling.movers)
    assert ruling.next_lead == ruling.movers[-1]
    assert len(ruling.movers) == sum(1 for card in cards if card.number == lowest)


@pytest.mark.parametrize("size", [None, "", "  "])
def test_yadokarick_three_players_may_leave_the_size_blank(size: object) -> None:
    ruling = yadokarick_trick(
        [{"card": "green 2", "size": size}, {"card": "green 3"}, {"card": "green 1", "size": 1}]
    )
    assert ruling.takes == {1: (c("green 2"), c("green 3"), c("green 1"))}
    assert ruling.movers == (2,)


def test_cards_in_a_sentence_are_written_with_their_suit_symbols() -> None:
    assert with_suit_symbols("Ann lays 9D, then 10H, QS, KC and AS.") == (
        "Ann lays 9♦, then 10♥, Q♠, K♣ and A♠."
    )
    # Only whole card names change: colours, scores and other capitals stay.
    assert with_suit_symbols("blue 13 beats red 6; 1050 points; ASK 9DS") == (
        "blue 13 beats red 6; 1050 points; ASK 9DS"
    )
