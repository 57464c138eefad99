"""A whole Yardkle game through the web pages, as a scorer taps it in."""

from __future__ import annotations

import re

from conftest import Table, expected_actions, page_error, page_offers, start_session
from flask.testing import FlaskClient


def ruling(table: Table) -> str:
    return table.state()["ruling"]


def scores(table: Table) -> list[int]:
    return list(table.state()["state"]["scores"])


def current(table: Table) -> str:
    state = table.state()
    return state["seats"][state["state"]["current"]]


def test_a_whole_game_from_new_session_to_winner(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo", "Cy"])
    assert "Ann rolls 6 dice: tap what each shows" in table.page()

    # Ann rolls no scoring die: a Yardkle, the dice pass to Bo.
    assert table.roll(2, 3, 4, 6, 4, 2).status_code == 303
    assert ruling(table).startswith("Yardkle! Ann rolled 2 3 4 6 4 2")
    assert current(table) == "Bo"

    # Bo rolls a straight: all six dice score, so he must roll all six again.
    table.roll(1, 2, 3, 4, 5, 6)
    assert "1-2-3-4-5-6 (1500)" in ruling(table)
    table.keep(1, 2, 3, 4, 5, 6)
    assert "Hot dice" in ruling(table)
    refused = table.act(type="bank")
    assert refused.status_code == 422
    assert page_error(refused.get_data(as_text=True)) == (
        "All six dice scored: Bo must roll all six again before stopping."
    )
    assert "Bo rolls 6 dice" in table.page()
    table.roll(1, 1, 1, 2, 3, 4)
    table.keep(1, 1, 1, bank=True)
    assert scores(table) == [0, 2500, 0]
    assert "Bo banks 2500 and is on the scorecard" in ruling(table)

    # Cy sets aside a 5 but may not stop below the entry threshold, then rolls a Yardkle.
    table.roll(5, 2, 3, 4, 6, 6)
    refused = table.keep(5, bank=True)
    assert refused.status_code == 422
    assert "Cy needs 500 in one turn to get on the scorecard" in page_error(
        refused.get_data(as_text=True)
    )
    table.keep(5)
    assert "Bo" not in re.findall(r"Bank \d+", table.page())
    table.roll(2, 3, 4, 6, 6)
    assert "the 50 of this turn is lost" in ruling(table)
    assert scores(table) == [0, 2500, 0]

    # A quick total below the threshold is refused; 600 gets Ann on the card.
    refused = table.act(type="total", points="300")
    assert refused.status_code == 422
    assert "Ann is not on the scorecard yet" in page_error(refused.get_data(as_text=True))
    table.act(type="total", points="600")
    assert scores(table) == [600, 2500, 0]

    # Undo takes Ann's total back (struck through in the history); redo restores it.
    assert table.post("/undo", {}).status_code == 303
    assert scores(table) == [0, 2500, 0]
    assert current(table) == "Ann"
    history = client.get(f"{table.url}/history").get_data(as_text=True)
    assert '<li class="undone">' in history
    assert "turn total 600" in history
    table.post("/redo", {})
    assert scores(table) == [600, 2500, 0]

    for points in ("4000", "0", "4000"):  # Bo, Cy, Ann
        table.act(type="total", points=points)
    assert scores(table) == [4600, 6500, 0]
    table.act(type="total", points="4000")  # Bo reaches 10,500: the final round
    assert "Bo reached 10,500: final round" in ruling(table)
    assert "final round" in table.page()
    table.act(type="total", points="550")  # Cy's last turn
    assert not table.state()["finished"]
    table.act(type="total", points="6000")  # Ann's last turn: 10,600
    state = table.state()
    assert state["finished"] is True
    assert state["winners"] == [0]
    assert state["ruling"].endswith("Game over: Ann wins with 10,600.")
    assert [s["name"] for s in state["standings"]] == ["Ann", "Bo", "Cy"]

    page = table.page()
    assert re.search(r'class="alert ok winner"[^>]*>\s*Ann\s*wins!', page)
    assert "tap what each shows" not in page  # no input once the game is over
    refused = table.act(type="total", points="50")
    assert refused.status_code == 422
    assert page_error(refused.get_data(as_text=True)) == "The game is over."

    results = client.get(f"{table.url}/results").get_data(as_text=True)
    assert "Ann wins" in results
    assert "10,600" in results


def test_a_tie_at_the_end_shares_the_win(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"], winning_score="1000")
    table.act(type="total", points="1000")
    table.act(type="total", points="1000")
    state = table.state()
    assert state["finished"] and state["winners"] == [0, 1]
    assert "Ann &amp; Bo win!" in table.page()


def test_three_who_tie_share_the_win_in_one_sentence(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo", "Cy"], winning_score="1000")
    for _ in range(3):
        table.act(type="total", points="1000")
    assert table.state()["winners"] == [0, 1, 2]
    banner = re.search(r'class="alert ok winner"[^>]*>(.*?)</div>', table.page(), re.S)
    assert banner and " ".join(banner.group(1).split()) == "Ann, Bo &amp; Cy win!"
    results = client.get(f"{table.url}/results").get_data(as_text=True)
    assert "Ann, Bo &amp; Cy win" in results


def test_a_refused_roll_keeps_the_taps_and_records_nothing(table: Table) -> None:
    response = table.act(type="roll", dice_count="6", die1="1", die2="5", die3="3")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert page_error(html) == "Die 4: tap the number it shows."
    assert re.search(r'name="die1" value="1" checked', html)
    assert re.search(r'name="die2" value="5" checked', html)
    assert table.state()["version"] == 0


def dice_marked(html: str) -> list[tuple[str, str]]:
    return re.findall(r'name="die(\d)" value="(\d)" checked', html)


def test_undoing_a_roll_answers_with_its_dice_marked_to_change_one(table: Table) -> None:
    table.roll(1, 5, 2, 3, 4, 4)
    table.keep(1)
    table.roll(2, 2, 2, 6, 4)

    undo = table.post("/undo", {})

    assert undo.status_code == 303
    assert undo.headers["Location"] == f"{table.url}?undone=3"
    page = table.client.get(undo.headers["Location"]).get_data(as_text=True)
    assert "Ann rolls 5 dice" in page
    assert dice_marked(page) == [("1", "2"), ("2", "2"), ("3", "2"), ("4", "6"), ("5", "4")]
    # The fourth die changed, the roll is sent as the form is.
    changed = table.roll(2, 2, 2, 5, 4)
    assert changed.status_code == 303
    assert "Ann rolled 2 2 2 5 4" in ruling(table)
    assert dice_marked(table.page()) == []


def test_an_undone_roll_is_no_longer_marked_once_the_table_moved_on(table: Table) -> None:
    table.roll(1, 5, 2, 3, 4, 4)
    location = table.post("/undo", {}).headers["Location"]
    assert dice_marked(table.client.get(location).get_data(as_text=True)) != []
    # Another phone enters the turn as a total: the undone roll is no longer redone.
    table.act(type="total", points="600")

    assert "Bo rolls 6 dice" in table.client.get(location).get_data(as_text=True)
    assert dice_marked(table.client.get(location).get_data(as_text=True)) == []
    assert dice_marked(table.page()) == []


def test_undoing_what_no_form_shows_again_answers_with_the_plain_page(table: Table) -> None:
    table.act(type="total", points="600")
    assert table.post("/undo", {}).headers["Location"] == table.url
    assert table.post("/redo", {}).status_code == 303
    table.roll(1, 5, 2, 3, 4, 4)
    table.keep(1, 5)
    # The set-aside form marks the best set-aside itself.
    assert table.post("/undo", {}).headers["Location"] == table.url


def test_the_roll_form_asks_for_as_many_dice_as_are_left(table: Table) -> None:
    table.roll(1, 5, 2, 3, 4, 4)
    page = table.page()
    # The best set-aside (the 1 and the 5) is ticked already.
    assert re.findall(r'name="keep" value="(\d)" checked', page) == ["1", "5"]
    table.keep(1)
    assert "Ann rolls 5 dice" in table.page()
    wrong = table.roll(1, 1, 1, 2, 3, 4)
    assert wrong.status_code == 422
    assert "enter 5 dice, not 6" in page_error(wrong.get_data(as_text=True))


def test_setting_aside_a_non_scoring_die_is_explained(table: Table) -> None:
    table.roll(1, 2, 3, 4, 6, 6)
    refused = table.keep(1, 2)
    assert refused.status_code == 422
    assert "a 2 on its own scores nothing" in page_error(refused.get_data(as_text=True))
    assert table.state()["state"]["turn"]["total"] == 0


def test_bank_button_appears_only_when_banking_is_allowed(table: Table) -> None:
    table.roll(1, 1, 1, 5, 2, 3)
    table.keep(1, 1, 1, 5)
    assert "Bank 1050" in table.page()
    table.roll(2, 3)
    assert "Bank" not in table.page().split("Last ruling")[1].split("Undo")[0]


def test_entry_threshold_option_zero_lets_a_player_stop_at_once(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"], entry_threshold="0")
    table.roll(5, 2, 3, 4, 6, 6)
    assert table.keep(5, bank=True).status_code == 303
    assert scores(table) == [50, 0]


# --- The page offers what the engine expects -------------------------------------


def offered_types(page: str) -> list[str]:
    """The action type of each form the page shows, in order."""
    return list(page_offers(page))


def expected_types(table: Table) -> list[str]:
    return list(expected_actions(table))


def keep_buttons(page: str) -> list[str]:
    """What each button of the set-aside form does next: "roll" on, or "bank"."""
    return page_offers(page)["keep"].offered("then")


def no_bank_reason(page: str) -> str:
    match = re.search(r'<p class="help" id="no-bank">(.*?)</p>', page, re.S)
    assert match, "the page gives no reason"
    return " ".join(match.group(1).split())


def test_the_page_shows_a_form_for_each_action_expected_and_no_other(table: Table) -> None:
    # A new turn: roll or a whole-turn total, no bank with nothing to bank.
    assert expected_types(table) == ["roll", "total"]
    # The whole-turn total comes first: opened, it hides the dice.
    assert offered_types(table.page()) == ["total", "roll"]
    # A set-aside under the entry threshold: Ann may only roll on.
    table.roll(1, 5, 2, 3, 4, 6)
    table.keep(1, 5)
    assert expected_types(table) == ["roll"]
    assert offered_types(table.page()) == ["roll"]
    # 150 + 1000 reaches the threshold: now she may bank.
    table.roll(1, 1, 1, 2)
    table.keep(1, 1, 1)
    assert table.state()["state"]["turn"]["total"] == 1150
    assert expected_types(table) == ["roll", "bank"]
    page = table.page()
    assert offered_types(page) == ["roll", "bank"]
    assert "Bank 1150" in page


def test_hot_dice_offer_only_the_roll_of_all_six(table: Table) -> None:
    table.roll(1, 2, 3, 4, 5, 6)
    table.keep(1, 2, 3, 4, 5, 6)
    assert expected_types(table) == ["roll"]
    page = table.page()
    assert offered_types(page) == ["roll"]
    assert "Bank" not in page.split("</h1>")[1].split("Undo")[0]
    assert "Ann rolls 6 dice" in page


def test_set_aside_and_bank_is_offered_when_the_engine_lists_it(table: Table) -> None:
    table.roll(1, 1, 1, 5, 2, 3)
    assert table.state()["expected"]["actions"] == [{"type": "keep", "choices": [False, True]}]
    page = table.page()
    assert offered_types(page) == ["keep"]
    assert keep_buttons(page) == ["roll", "bank"]
    assert 'id="no-bank"' not in page


def test_set_aside_and_bank_sends_the_best_set_aside_that_is_not_hot_dice(table: Table) -> None:
    # 1000 set aside, three dice left: 1 5 5 all score, but all three would be hot dice.
    table.roll(1, 1, 1, 2, 3, 4)
    table.keep(1, 1, 1)
    table.roll(5, 5, 1)
    keep = page_offers(table.page())["keep"]
    assert keep.boxes["keep"] == ["5", "5", "1"]
    assert keep.offered("then") == ["roll", "bank"]
    assert keep.fixed("keep") == ["1", "5"]
    assert "Set aside 1 5 and bank 1150" in table.page()
    assert table.act(type="keep", keep=keep.fixed("keep"), then="bank").status_code == 303
    assert scores(table) == [1150, 0, 0]


def test_set_aside_and_bank_is_not_offered_under_the_entry_threshold_and_says_why(
    table: Table,
) -> None:
    table.roll(1, 1, 2, 3, 4, 6)
    assert table.state()["expected"]["actions"] == [{"type": "keep", "choices": [False]}]
    page = table.page()
    assert keep_buttons(page) == ["roll"]
    assert 'value="bank"' not in page
    assert no_bank_reason(page) == (
        "No “Set aside and bank” after this roll: Ann is not on the scorecard yet, and no "
        "set-aside from it brings the turn to 500 without rolling again."
    )


def test_a_set_aside_that_leaves_no_choice_is_not_asked_the_next_roll_makes_it(
    client: FlaskClient,
) -> None:
    table = start_session(client, ["Ann", "Bo"], entry_threshold="0")
    table.roll(2, 2, 4, 4, 6, 6)  # three pairs score only with all six dice: hot dice
    assert table.state()["expected"]["actions"] == [
        {"type": "keep", "choices": [False]},
        {"type": "roll"},
    ]
    page = table.page()
    assert offered_types(page) == ["roll"]
    assert "Ann rolls 6 dice (2 2 4 4 6 6 set aside: the only scoring dice)" in page
    assert table.roll(5, 2, 3, 4, 6, 6).status_code == 303
    assert ruling(table) == (
        "Ann set aside three pairs for 1500: turn total 1500. Hot dice! All six scored: "
        "Ann must roll all six again before stopping. Ann rolled 5 2 3 4 6 6: single 5 (50) "
        "can score up to 50."
    )
    # The roll after it is Ann's to set aside from: the single 5, or bank with it.
    assert keep_buttons(table.page()) == ["roll", "bank"]
