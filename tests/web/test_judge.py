"""The judge pages and API: a disputed trick settled with its reason."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from conftest import page_error
from flask.testing import FlaskClient

from scorekeeper.web.adapters import trick_judges


class Picker:
    """A phone on the judge page: each tap submits the page's GET form."""

    def __init__(self, client: FlaskClient, slug: str) -> None:
        self.client = client
        self.slug = slug
        self.fields: list[tuple[str, str]] = []
        self.taps = 0
        self.response = client.get(f"/judge/{slug}")

    @property
    def page(self) -> str:
        return self.response.get_data(as_text=True)

    def tap(self, button: str, value: str, **typed: list[str]) -> str:
        hidden = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', self.page)
        fields = [(n, html.unescape(v)) for n, v in hidden]
        for field, values in typed.items():
            fields += [(field, v) for v in values]
        fields.append((button, value))
        self.taps += 1
        self.response = self.client.get(f"/judge/{self.slug}?{urlencode(fields)}")
        return self.page


def verdict(page: str) -> str:
    match = re.search(r'<section class="card verdict".*?</section>', page, re.S)
    assert match, "no verdict on the page"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", match.group(0))).split())


def test_the_judge_page_offers_every_trick_game(client: FlaskClient) -> None:
    page = client.get("/judge").get_data(as_text=True)
    judges = trick_judges()
    assert list(judges) == ["yokai-septet", "cryptruck", "yadokarick"]
    for slug, judge in judges.items():
        assert judge.title in page and f'href="/judge/{slug}"' in page


def test_a_yokai_septet_trick_is_settled_in_under_ten_taps(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    phone.tap("set_trump", "red")
    for card in ("blue 9", "blue 12", "red 6", "green 1"):
        phone.tap("add", card)
    assert phone.taps < 10
    assert phone.response.status_code == 200
    said = verdict(phone.page)
    assert "Seat 4's green 1 takes the trick" in said
    assert "green 1" in said
    assert "Why: The green 1 takes every trick" in said
    assert 'class="chip c-green big"' in phone.page


def test_a_trump_ruling_gives_the_reason_in_one_sentence(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    phone.tap("set_trump", "red")
    for card in ("blue 9", "blue 12", "red 6", "yellow 8"):
        phone.tap("add", card)
    assert "Why: Trump beats the led suit: red 6 is the only trump." in verdict(phone.page)


def test_cards_already_in_the_trick_are_greyed_out(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    phone.tap("add", "blue 9")
    assert re.search(r'value="blue 9"[^>]*disabled', phone.page)
    assert not re.search(r'value="blue 10"[^>]*disabled', phone.page)


def test_seat_names_are_optional_and_name_the_winner(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    phone.tap("set_trump", "red")
    phone.tap("add", "blue 9")
    phone.tap("add", "blue 12")
    phone.tap("add", "red 6")
    phone.tap("add", "green 1", name=["Ann", "Bo", "Cy", "Di"])
    assert "Di's green 1 takes the trick" in verdict(phone.page)


def test_the_last_card_can_be_taken_back(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    phone.tap("add", "blue 9")
    phone.tap("add", "blue 12")
    page = phone.tap("drop", "1")
    assert re.findall(r'name="play" value="([^"]*)"', page) == ["blue 9"]


def test_the_trick_waits_for_the_trump_before_ruling(client: FlaskClient) -> None:
    phone = Picker(client, "yokai-septet")
    for card in ("blue 9", "blue 12", "red 6", "yellow 8"):
        phone.tap("add", card)
    assert "Tap the trump above to settle the trick." in phone.page
    phone.tap("set_trump", "red")
    assert "red 6 is the only trump" in verdict(phone.page)


def test_cryptruck_white_three_can_be_played_twice_then_greys_out(client: FlaskClient) -> None:
    phone = Picker(client, "cryptruck")
    phone.tap("set_players", "3")
    phone.tap("set_trump", "blue")
    phone.tap("add", "white 3")
    assert not re.search(r'value="white 3"[^>]*disabled', phone.page)
    phone.tap("add", "white 3")
    phone.tap("add", "blue 6")
    said = verdict(phone.page)
    assert "Seat 3's blue 6 takes the trick" in said
    assert phone.taps < 10


def test_a_five_player_cryptruck_trick_takes_under_ten_taps(client: FlaskClient) -> None:
    phone = Picker(client, "cryptruck")
    phone.tap("set_players", "5")
    phone.tap("set_trump", "blue")
    for card in ("red 4", "white 3", "blue 3", "red 6", "green 2"):
        phone.tap("add", card)
    assert phone.taps < 10
    assert "Seat 3's blue 3 takes the trick" in verdict(phone.page)


def test_a_yadokarick_trick_asks_each_size_and_rules_who_takes_what(client: FlaskClient) -> None:
    phone = Picker(client, "yadokarick")
    for card, size in (("green 25", "3"), ("pink 8", "2"), ("green 17", "1"), ("pink 29", "4")):
        page = phone.tap("add", card)
        assert "Size printed on" in page
        phone.tap("size", size)
    assert phone.taps < 10
    said = verdict(phone.page)
    # Each play is named by its card and seat (counted from the lead), never as "Play 4".
    assert said == (
        "Seat 1's green 25 and Seat 4's pink 29 take cards "
        "Seat 1's green 25 is the highest green: takes green 25 (the largest, size 3) "
        "Seat 4's pink 29 is the highest pink: takes pink 29 (the largest, size 4) "
        "Discarded: pink 8 green 17 "
        "Seat 2's pink 8 is the lowest: it moves the size marker and leads next."
    )


def test_the_three_player_yadokarick_game_keeps_to_one_colour(client: FlaskClient) -> None:
    phone = Picker(client, "yadokarick")
    phone.tap("set_players", "3")
    page = phone.tap("add", "green 25")
    assert "Size printed on" not in page  # sizes decide nothing with one colour
    assert 'value="pink 1"' not in page  # only the colour of the first card is offered
    assert not re.search(r'value="green 1"[^>]*disabled', page)
    phone.tap("add", "green 3")
    phone.tap("add", "green 30")
    said = verdict(phone.page)
    assert said == (
        "Seat 3's green 30 takes cards "
        "Seat 3's green 30 is the highest: takes green 25 green 3 green 30 "
        "Seat 2's green 3 is the lowest: it moves the size marker and leads next."
    )


@pytest.mark.parametrize(
    "query",
    [
        {"add": "orange 3"},
        {"add": "green 99"},
        {"play": ["blue 9", "blue 9", "red 6", "green 1"], "trump": "red"},
        {"play": ["x", "y", "z", "w"], "trump": "red"},
        {"players": "banana", "trump": "chartreuse", "add": ""},
    ],
)
def test_odd_judge_urls_get_a_sentence_never_a_500(client: FlaskClient, query: Any) -> None:
    response = client.get(f"/judge/yokai-septet?{urlencode(query, doseq=True)}")
    assert response.status_code in (200, 422)
    page = response.get_data(as_text=True)
    assert "Traceback" not in page
    if response.status_code == 422:
        assert re.search(r'id="error">[^<]{10,}</div>', page)


@pytest.mark.parametrize(
    ("query", "kept", "error"),
    [
        (
            {"players": "3", "play": ""},
            [],
            "Play 1 in this link is not a card, so the trick stops there. "
            "Enter a card, like “green 36”.",
        ),
        (
            {"players": "4", "play": ["green 5/2", "orange 3/1", "pink 7/4"], "add": "pink 9"},
            ["green 5/2"],
            "Play 2 in this link is not a card, so the trick stops there. "
            "“orange 3”: Yadokarick has no orange cards (its colours: green, pink).",
        ),
        (
            {"players": "4", "play": "green 5/2", "pending": "zzz", "size": "3"},
            ["green 5/2"],
            "The card waiting for its size in this link is not a card, so the trick stops "
            "there. “zzz”: not a card; write it like “green 36” (colour, then number).",
        ),
    ],
)
def test_a_judge_link_carrying_something_not_a_card_keeps_the_cards_before_it(
    client: FlaskClient, query: Any, kept: list[str], error: str
) -> None:
    response = client.get(f"/judge/yadokarick?{urlencode(query, doseq=True)}")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert html.unescape(page_error(page)) == error
    assert re.findall(r'name="play" value="([^"]*)"', page) == kept
    assert 'name="pending"' not in page  # the tap that came with it is not applied


def test_an_unknown_judge_is_404(client: FlaskClient) -> None:
    assert client.get("/judge/chess").status_code == 404


# --- The API: the contract of DESIGN.md, exactly -----------------------------------


def post(client: FlaskClient, game: str, body: Any) -> Any:
    return client.post(f"/api/v1/judge/{game}", json=body)


def test_api_yokai_septet_contract_example(client: FlaskClient) -> None:
    response = post(
        client, "yokai-septet", {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"winner", "card", "rule", "explanation"}
    assert (body["winner"], body["card"], body["rule"]) == (3, "green 1", "green-one")
    assert body["explanation"]


def test_api_cryptruck_contract_example(client: FlaskClient) -> None:
    response = post(
        client, "cryptruck", {"trump": "blue", "plays": ["red 4", "white 3", "blue 3", "red 6"]}
    )
    assert response.status_code == 200
    body = response.get_json()
    assert (body["winner"], body["card"], body["rule"]) == (2, "blue 3", "trump")


def test_api_yadokarick_contract_example(client: FlaskClient) -> None:
    plays = [
        {"card": "green 25", "size": 3},
        {"card": "pink 8", "size": 2},
        {"card": "green 17", "size": 1},
        {"card": "pink 29", "size": 4},
    ]
    response = post(client, "yadokarick", {"plays": plays})
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"movers", "next_lead", "takes", "discarded", "explanation"}
    assert body["movers"] == [1]
    assert body["next_lead"] == 1
    assert body["takes"] == {"3": ["pink 29"], "0": ["green 25"]}
    assert body["discarded"] == ["pink 8", "green 17"]


YOKAI = ["blue 9", "blue 12", "red 6", "green 1"]
SIZED = [
    {"card": "green 25", "size": 3},
    {"card": "pink 8", "size": 2},
    {"card": "green 17", "size": 1},
    {"card": "pink 29", "size": 4},
]


@pytest.mark.parametrize(
    ("game", "english", "typed"),
    [
        (
            "yokai-septet",
            {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "blue 13"]},
            {"trump": "rouge", "plays": ["bleu 9", "Bleu-12", "rouge 6", "bleu 13"]},
        ),
        (
            "yokai-septet",
            {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]},
            {"trump": "赤", "plays": ["青の9", "青12", "赤の6", "緑のA"]},
        ),
        (
            "cryptruck",
            {"trump": "blue", "plays": ["red 4", "white 3", "blue 3", "red 6"]},
            {"trump": "bleu", "plays": ["rouge 4", "白の3", "青の3", "rouge 6"]},
        ),
        (
            "yadokarick",
            {"plays": SIZED},
            {
                "plays": [
                    {"card": "vert 25", "size": 3},
                    {"card": "rose 8", "size": 2},
                    {"card": "緑の17", "size": 1},
                    {"card": "ピンクの29", "size": 4},
                ]
            },
        ),
    ],
)
def test_api_judge_reads_cards_and_trump_in_french_and_japanese_as_in_english(
    client: FlaskClient, game: str, english: Any, typed: Any
) -> None:
    answer = post(client, game, typed)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json() == post(client, game, english).get_json()


def test_api_judge_refuses_an_unknown_french_colour_in_a_french_sentence(
    client: FlaskClient,
) -> None:
    body = {"trump": "rouge", "plays": ["vert 7", "marron 3", "rouge 6"]}
    response = client.post(
        "/api/v1/judge/yokai-septet", json=body, headers={"Accept-Language": "fr"}
    )
    assert response.status_code == 422
    answer = response.get_json()
    assert answer["field"] == "plays.1"
    nb = "\u202f"  # the narrow no-break space of French punctuation
    assert answer["error"] == (
        f"«{nb}marron 3{nb}»{nb}: Yokai Septet n\u2019a pas de cartes marron "
        f"(ses couleurs{nb}: vert, violet, rose, jaune, noir, rouge, bleu)."
    )


def test_api_judge_names_the_winner_of_a_french_trick_in_english(client: FlaskClient) -> None:
    body = {"trump": "rouge", "plays": ["vert 7", "vert 3", "rouge 6", "vert 5"]}
    answer = post(client, "yokai-septet", body).get_json()
    assert (answer["winner"], answer["card"], answer["rule"]) == (2, "red 6", "trump")
    assert answer["explanation"] == "Trump beats the led suit: red 6 is the only trump."


@pytest.mark.parametrize(
    ("game", "body", "field"),
    [
        ("yokai-septet", {"trump": "orange", "plays": YOKAI}, "trump"),
        ("yokai-septet", {"plays": YOKAI}, "trump"),
        ("yokai-septet", {"trump": "red", "plays": ["blue 9", "blue 12"]}, "plays"),
        ("yokai-septet", {"trump": "red", "plays": [*YOKAI, "red 7"]}, "plays"),
        ("yokai-septet", {"trump": "red", "plays": ["blue 9", "blue 9", "red 6"]}, "plays.1"),
        ("yokai-septet", {"trump": "red", "plays": ["blue 9", "blue 3", "red 6"]}, "plays.1"),
        ("yokai-septet", {"trump": "red", "plays": ["blue 9", "orange 3", "red 6"]}, "plays.1"),
        ("yokai-septet", {"trump": "red", "plays": ["blue 9", 12, "red 6"]}, "plays.1"),
        ("yokai-septet", {"trump": "red", "plays": "blue 9, blue 12"}, "plays"),
        ("yokai-septet", {"trump": "red", "plays": YOKAI, "names": ["A"]}, "names"),
        ("cryptruck", {"trump": "blue", "plays": ["red 4", "white 4", "blue 3"]}, "plays.1"),
        ("cryptruck", {"trump": "blue", "plays": ["red 4", "red 7", "blue 3"]}, "plays.1"),
        (
            "cryptruck",
            {"trump": "blue", "plays": ["white 3", "white 3", "white 3", "red 1"]},
            "plays.2",
        ),
        ("cryptruck", {"trump": "blue", "plays": ["red 4", "yellow 4", "green 3"]}, "plays"),
        ("cryptruck", {"trump": "blue", "plays": ["red 4", "red 5"]}, "plays"),
        ("cryptruck", {"trump": "black", "plays": ["red 4", "red 5", "red 6"]}, "trump"),
        ("yadokarick", {"plays": SIZED[:2]}, "plays"),
        ("yadokarick", {"plays": [{"card": "green 25"}, *SIZED[1:]]}, "plays.0.size"),
        ("yadokarick", {"plays": [{"card": "green 25", "size": 0}, *SIZED[1:]]}, "plays.0.size"),
        ("yadokarick", {"plays": [{"card": "green 25", "size": -2}, *SIZED[1:]]}, "plays.0.size"),
        ("yadokarick", {"plays": [{"card": "green 25", "size": "x"}, *SIZED[1:]]}, "plays.0.size"),
        ("yadokarick", {"plays": [{"card": "green 25", "size": True}, *SIZED[1:]]}, "plays.0.size"),
        ("yadokarick", {"plays": [{"card": "green 37", "size": 1}, *SIZED[1:]]}, "plays.0.card"),
        ("yadokarick", {"plays": [*SIZED, {"card": "pink 8", "size": 2}]}, "plays.4.card"),
        (
            "yadokarick",
            {"plays": [{"card": "green 1"}, {"card": "green 2"}, {"card": "pink 3"}]},
            "plays",
        ),
        ("yadokarick", {"plays": SIZED, "trump": "red"}, "trump"),
    ],
)
def test_api_judge_refuses_bad_input_with_422_naming_the_field(
    client: FlaskClient, game: str, body: Any, field: str
) -> None:
    response = post(client, game, body)
    assert response.status_code == 422, response.get_json()
    answer = response.get_json()
    assert answer["field"] == field
    assert len(answer["error"]) > 10


@pytest.mark.parametrize("game", list(trick_judges()))
def test_api_judge_refuses_a_body_that_is_not_a_json_object(client: FlaskClient, game: str) -> None:
    response = client.post(f"/api/v1/judge/{game}", data="plays", content_type="text/plain")
    assert response.status_code == 400
    assert set(response.get_json()) == {"error", "field"}
    assert post(client, game, [1, 2]).status_code == 400


def test_a_size_once_given_is_remembered_by_this_phone(client: FlaskClient) -> None:
    first = Picker(client, "yadokarick")
    first.tap("add", "green 25")
    first.tap("size", "3")
    second = Picker(client, "yadokarick")
    page = second.tap("add", "green 25")
    assert "Size printed on" not in page
    assert re.findall(r'name="play" value="([^"]*)"', page) == ["green 25/3"]


def test_the_judge_knows_the_sizes_of_this_phones_newest_deck_profile(
    client: FlaskClient,
) -> None:
    made = client.post("/decks", data={"name": "Blue box", "form_key": "deck"})
    profile = made.location.rsplit("/", 1)[1]
    client.post(
        f"/decks/{profile}", data={"name": "Blue box", "size-green 25": "4", "form_key": "sizes"}
    )
    page = Picker(client, "yadokarick").tap("add", "green 25")
    assert "Size printed on" not in page
    assert re.findall(r'name="play" value="([^"]*)"', page) == ["green 25/4"]
    unknown = Picker(client, "yadokarick").tap("add", "pink 8")
    assert "Size printed on" in unknown


def test_a_remembered_size_can_be_corrected(client: FlaskClient) -> None:
    phone = Picker(client, "yadokarick")
    phone.tap("add", "green 25")
    phone.tap("size", "3")
    page = phone.tap("resize", "1")
    assert "Size printed on" in page
    page = phone.tap("size", "5")
    assert re.findall(r'name="play" value="([^"]*)"', page) == ["green 25/5"]
    again = Picker(client, "yadokarick")
    assert re.findall(r'name="play" value="([^"]*)"', again.tap("add", "green 25")) == [
        "green 25/5"
    ]


@pytest.mark.parametrize("size", ["0", "abc", "-3"])
def test_a_size_that_is_not_a_whole_number_from_one_is_refused_at_once(
    client: FlaskClient, size: str
) -> None:
    phone = Picker(client, "yadokarick")
    phone.tap("add", "green 25")
    page = phone.tap("size", size)
    assert phone.response.status_code == 422
    assert "size of green 25" in page
    assert "Size printed on" in page  # still asking
    assert re.findall(r'name="play" value="([^"]*)"', page) == []


def test_a_known_trick_with_remembered_sizes_takes_one_tap_per_card(client: FlaskClient) -> None:
    seven = [
        ("green 31", "3"),
        ("pink 9", "2"),
        ("green 12", "3"),
        ("pink 26", "1"),
        ("pink 14", "4"),
        ("green 20", "2"),
        ("green 2", "1"),
    ]
    teach = Picker(client, "yadokarick")
    teach.tap("set_players", "7")
    for card, size in seven:
        teach.tap("add", card)
        teach.tap("size", size)
    phone = Picker(client, "yadokarick")
    phone.tap("set_players", "7")
    for card, _ in seven:
        phone.tap("add", card)
    assert phone.taps < 10
    said = verdict(phone.page)
    assert "Seat 1's green 31 is the highest green: takes green 31 green 12 (the largest" in said
    # pink 26 is the highest pink: it takes pink 14, the largest pink, and is discarded.
    assert "Seat 4's pink 26 is the highest pink: takes pink 14 (the largest, size 4)" in said


def test_api_yellow_dwarf_settle_contract_example(client: FlaskClient) -> None:
    body = {
        "winner": 0,
        "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
        "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
        "forgot": [{"player": 1, "card": "JC"}],
        "grand_opera": False,
        "payout": "cards",
    }
    response = client.post("/api/v1/judge/yellow-dwarf/settle", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert set(answer) == {"chips", "trays", "explanation"}
    assert answer["chips"] == [5, -26, -14, -1]
    assert answer["trays"] == {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"trays": {}, "hands": [[], ["2C"], ["3C"]]}, "winner"),
        ({"winner": 0, "trays": [], "hands": [[], ["2C"], ["3C"]]}, "trays"),
        ({"winner": 0, "trays": {"10D": 1}, "hands": "none"}, "hands"),
        ({"winner": 0, "hands": [[], ["2C"], ["3C"]], "trays": {"10D": 1}, "bet": 2}, "bet"),
    ],
)
def test_api_yellow_dwarf_settle_refuses_bad_input(
    client: FlaskClient, body: Any, field: str
) -> None:
    response = client.post("/api/v1/judge/yellow-dwarf/settle", json=body)
    assert response.status_code == 422
    assert response.get_json()["field"] == field
