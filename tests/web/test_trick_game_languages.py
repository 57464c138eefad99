"""Yokai Septet's and Cryptruck's pages in French and Japanese: the board, the forms, the
tricks and the headline of the last ruling read in the phone's language."""

from __future__ import annotations

import conftest
from conftest import Table, act
from flask.testing import FlaskClient


def page_in(table: Table, language: str) -> str:
    answer = table.client.get(table.url, headers={"Accept-Language": language})
    return answer.get_data(as_text=True)


def yokai_septet_after_a_trick(client: FlaskClient) -> Table:
    table = conftest.start(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    for card in ("red 12", "red 7", "red 6", "blue 8", "red 8"):
        act(table, type="play", card=card)
    return table


def test_a_yokai_septet_page_reads_in_french(client: FlaskClient) -> None:
    table = yokai_septet_after_a_trick(client)
    html = page_in(table, "fr")
    assert "Manche 1" in html
    assert "Ann joue le rouge 8." in html  # the headline: the ruling's first sentence
    assert "Pli 2 en cours\u202f:" in html
    assert "Bo joue\u202f: touchez la carte" in html
    assert "la plus forte carte de la couleur d\u2019entame (rouge) l\u2019emporte" in html
    english = page_in(table, "en")
    assert "Ann plays red 8." in english
    assert "Bo plays: tap the card" in english


def test_a_yokai_septet_page_reads_in_japanese(client: FlaskClient) -> None:
    html = page_in(yokai_septet_after_a_trick(client), "ja")
    assert "\u30e9\u30a6\u30f3\u30c91" in html  # ラウンド1
    assert (
        "Ann\u304c\u8d64\u306e8\u3092\u51fa\u3057\u307e\u3059\u3002" in html
    )  # Annが赤の8を出します。


def test_a_cryptruck_page_reads_in_french(client: FlaskClient) -> None:
    table = conftest.start(client, "cryptruck", ["Ann", "Bo", "Cy"])
    table.act(type="reveal", card="red 2")
    table.act(type="dealer-card", card="green 4")
    html = page_in(table, "fr")
    assert "Manche 1 sur 3" in html
    assert "Ann r\u00e9v\u00e8le le vert 4." in html
    assert ">Prendre</button>" in html
    assert ">Passer</button>" in html
