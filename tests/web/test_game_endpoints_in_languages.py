"""Yardkle's dice calculator and Yellow Dwarf's settlement speak the asked language, as the
trick judges do: their sentences read in it with their codes beside them, a combo's English
name kept; to a request naming no language they answer the contract's fields alone."""

from __future__ import annotations

import json
from typing import Any

from conftest import API
from flask.testing import FlaskClient

FRENCH = {"Accept-Language": "fr"}
JAPANESE = {"Accept-Language": "ja"}
ROLL = {"dice": [1, 1, 1, 5, 2, 3]}
SETTLE = {
    "winner": 0,
    "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
    "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
    "forgot": [{"player": 1, "card": "JC"}],
    "grand_opera": False,
    "payout": "cards",
}


def body_of(response: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(response.get_data())
    return answer


def test_a_yardkle_roll_scored_in_french_labels_each_combo_and_keeps_its_name(
    client: FlaskClient,
) -> None:
    scored = client.post(f"{API}/yardkle/score", json=ROLL, headers=FRENCH)
    assert scored.status_code == 200
    assert scored.headers["Content-Language"] == "fr"
    assert body_of(scored) == {
        "points": 1050,
        "combos": [
            {
                "name": "three 1s",
                "label": "brelan de 1",
                "label_code": {"code": "yardkle.combo.three-of-a-kind", "values": {"face": 1}},
                "dice": [1, 1, 1],
                "points": 1000,
            },
            {
                "name": "single 5",
                "label": "5 seul",
                "label_code": {"code": "yardkle.combo.single", "values": {"face": 5}},
                "dice": [5],
                "points": 50,
            },
        ],
        "yardkle": False,
    }
    plain = client.post(f"{API}/yardkle/score", json=ROLL)
    assert plain.headers["Content-Language"] == "en"
    assert body_of(plain) == {
        "points": 1050,
        "combos": [
            {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
            {"name": "single 5", "dice": [5], "points": 50},
        ],
        "yardkle": False,
    }


def test_a_kept_die_that_scores_nothing_is_refused_in_french_with_its_code(
    client: FlaskClient,
) -> None:
    refused = client.post(f"{API}/yardkle/score", json={**ROLL, "keep": [2]}, headers=FRENCH)
    assert refused.status_code == 422
    assert refused.headers["Content-Language"] == "fr"
    assert body_of(refused) == {
        "error": "Un 2 seul ne rapporte rien.",
        "field": "keep",
        "code": "yardkle.keep.refused",
        "values": {"reasons": {"code": "yardkle.keep.lone-die.opening", "values": {"face": 2}}},
    }


def test_a_yellow_dwarf_settlement_explains_in_japanese_with_the_explanation_s_code(
    client: FlaskClient,
) -> None:
    english = body_of(client.post(f"{API}/judge/yellow-dwarf/settle", json=SETTLE))
    assert english == {
        "chips": [5, -26, -14, -1],
        "trays": {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20},
        "explanation": "Player 0 went out: player 1 pays 2 (2 cards), player 2 pays 2 "
        "(2 cards) and player 3 pays 1 (1 card). Player 1 kept KH: pays the King of Hearts "
        "tray what it holds, 16. Player 2 kept QS: pays the Queen of Spades tray what it "
        "holds, 12. Player 1 played without calling JC: pays the Jack of Clubs tray what it "
        "holds, 8.",
    }
    settled = client.post(f"{API}/judge/yellow-dwarf/settle", json=SETTLE, headers=JAPANESE)
    assert settled.status_code == 200
    assert settled.headers["Content-Language"] == "ja"
    answer = body_of(settled)
    said = answer.pop("explanation_code")
    assert {**answer, "explanation": english["explanation"]} == english
    assert answer["explanation"].startswith("プレイヤー0が上がり")
    assert said["code"] == "sentence.then"
    # The last of the chained sentences: Player 1's uncalled Jack of Clubs.
    assert said["values"]["second"] == {
        "code": "yellow-dwarf.uncalled-pays-tray",
        "values": {
            "card": "JC",
            "due": 8,
            "player": {"code": "yellow-dwarf.player-opening", "values": {"seat": 1}},
            "tray": {"code": "yellow-dwarf.tray-jc", "values": {}},
        },
    }


def test_a_settlement_refused_in_french_says_why_with_its_code(client: FlaskClient) -> None:
    refused = client.post(
        f"{API}/judge/yellow-dwarf/settle", json={**SETTLE, "trays": []}, headers=FRENCH
    )
    assert refused.status_code == 422
    assert refused.headers["Content-Language"] == "fr"
    assert body_of(refused) == {
        "error": "«\u202ftrays\u202f» doit associer à chaque carte du plateau "
        "(10D, JC, QS, KH, 7D) ses jetons.",
        "field": "trays",
        "code": "yellow-dwarf.trays-map",
        "values": {},
    }
