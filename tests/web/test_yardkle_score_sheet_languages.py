"""Yardkle's and the score sheet's pages in French and Japanese: the board, the forms,
the one-line headline and the sheet read in the phone's language, English as it was."""

# Japanese writes full-width brackets and colons, French its apostrophe: on purpose here.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from html import unescape

from conftest import Table, start, start_session
from flask.testing import FlaskClient

NNBSP = "\u202f"


def text(table: Table, language: str) -> str:
    """The page's words as a phone in ``language`` reads them, tags as spaces (the
    narrow no-break spaces of French kept)."""
    page = table.client.get(table.url, headers={"Accept-Language": language})
    assert page.status_code == 200
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page.get_data(as_text=True), flags=re.S)
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_yardkle_turn_reads_in_french_and_japanese(client: FlaskClient) -> None:
    table = start_session(client, ["Ann", "Bo"], winning_score="12000")
    table.roll(1, 1, 2, 3, 4, 6)
    french, japanese = text(table, "fr"), text(table, "ja")
    for words in (
        f"entrée 500 · dernier tour à 12{NNBSP}000",
        f"Ann a lancé 1 1 2 3 4 6{NNBSP}: deux 1 seuls (200), de quoi marquer jusqu’à 200.",
        "Ann met de côté",
        f"Pas de «{NNBSP}Mettre de côté et valider{NNBSP}» après ce lancer",
    ):
        assert words in french
    for words in (
        "エントリー点500 · 12,000で最終ラウンド",
        "Annの出目は1 1 2 3 4 6：単独の1×2（200）で最大200点です。",
        "Annのキープ",
    ):
        assert words in japanese
    assert "Ann rolled 1 1 2 3 4 6: two single 1s (200) can score up to 200." in text(table, "en")


def test_a_hot_dice_headline_is_the_set_aside_in_the_reader_s_language(
    client: FlaskClient,
) -> None:
    table = start_session(client, ["Ann", "Bo"])
    table.roll(1, 2, 3, 4, 5, 6)
    table.keep(1, 2, 3, 4, 5, 6)
    headline = re.compile(r'id="ruling-line"><a href="#last-ruling">(.*?)</a>')
    pages = {
        language: table.client.get(table.url, headers={"Accept-Language": language})
        for language in ("en", "fr", "ja")
    }
    lines = {
        language: headline.findall(page.get_data(as_text=True)) for language, page in pages.items()
    }
    assert lines == {
        "en": ["Ann set aside 1-2-3-4-5-6 for 1500: turn total 1500."],
        "fr": [f"Ann met de côté suite 1-2-3-4-5-6 pour 1500{NNBSP}: total du tour 1500."],
        "ja": ["Annは1-2-3-4-5-6をキープして1500点：このターンの合計は1500。"],
    }


def test_a_banked_turn_s_headline_and_scores_group_as_the_reader_s_language_does(
    client: FlaskClient,
) -> None:
    table = start_session(client, ["Ann", "Bo"], entry_threshold="0")
    table.act(type="total", points="12500")
    assert f"Ann inscrit 12{NNBSP}500{NNBSP}: total 12{NNBSP}500" in text(table, "fr")
    assert "Ann が12,500を記入：合計12,500" in text(table, "ja")  # the name is a tag of its own
    assert "Ann enters 12,500: total 12,500" in text(table, "en")


def test_a_score_sheet_reads_in_french_and_japanese(client: FlaskClient) -> None:
    table = start(
        client,
        "score-sheet",
        ["Ann", "Bo"],
        option_game_name="Hearts",
        option_winner="lowest",
        option_target="20000",
    )
    table.act(type="round", **{"points-0": "12500", "points-1": "4", "negative-1": "1"})
    french, japanese = text(table, "fr"), text(table, "ja")
    for words in (
        "1 manche",
        f"le total le plus bas gagne · fin de partie à 20{NNBSP}000",
        "Enregistrer la manche 2",
        f"Total 12{NNBSP}500 \u22124",
        "M1",
    ):
        assert words in french
    assert f"Manche 1{NNBSP}: Ann 12{NNBSP}500, Bo \u22124. " in french  # the headline
    for words in ("1ラウンド", "合計が最も低い人の勝ち · 20,000でゲーム終了", "ラウンド2を記録"):
        assert words in japanese
    correction = table.client.get(
        f"{table.url}/events/1/correct", headers={"Accept-Language": "fr"}
    ).get_data(as_text=True)
    assert (
        f"Enregistré{NNBSP}: Manche 1{NNBSP}: Ann 12{NNBSP}500, Bo \u22124. "
        f"Bo mène avec \u22124." in unescape(correction)
    )
