"""Yadokarick's pages in French and Japanese: the board, the houses, the tricks and the
crabs read in the phone's language."""

# Japanese writes full-width brackets and colons, French its apostrophe: on purpose here.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from html import unescape
from typing import Any

from conftest import API, ApiSession
from flask.testing import FlaskClient

FOUR = ["Ann", "Bo", "Cy", "Di"]
NNBSP = "\u202f"
TRICK = [("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4)]


def session(client: FlaskClient, seats: list[str], *actions: dict[str, Any]) -> str:
    response = client.post(f"{API}/sessions", json={"game": "yadokarick", "seats": seats})
    assert response.status_code == 201, response.get_json()
    played = ApiSession(client, response.get_json())
    for action in actions:
        played.ok(action)
    return f"/s/{played.id}"


def text(client: FlaskClient, url: str, language: str) -> str:
    """The page's words as a phone in ``language`` reads them, tags as spaces (the
    narrow no-break spaces of French kept)."""
    page = client.get(url, headers={"Accept-Language": language})
    assert page.status_code == 200
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page.get_data(as_text=True), flags=re.S)
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def played(*cards: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"type": "play", "card": card, "size": size} for card, size in cards]


def test_a_standard_game_reads_in_french_and_japanese(client: FlaskClient) -> None:
    url = session(client, FOUR, *played(*TRICK))
    french = text(client, url, "fr")
    for words in (
        "Manche 1 sur 3",
        "Pli 1 sur 10",
        f"Pli 1{NNBSP}: Bo prend 1 carte, Ann en prend 1",
        f"Ann donne · cartes maison{NNBSP}: vert rose 1–36",
        f"Taille cible 11 {NNBSP}: la carte sous le marqueur de taille.",
        f"Rose 8 (Cy) est la plus basse{NNBSP}: elle déplace le marqueur de taille",
        f"Défaussées{NNBSP}: rose 8, vert 17.",
        "maison de taille 4",
    ):
        assert words in french
    japanese = text(client, url, "ja")
    for words in (
        "ラウンド 1／3",
        "トリック1： Boが1枚取ります、Annが1枚",
        "ディーラー：Ann · 宿カード： 緑 ピンク 1–36",
        "ピンクの8（Cy）が一番小さいので、サイズマーカーを動かし、次にリードします。",
        "捨て札：ピンクの8、緑の17。",
        "Ann · 0点",
    ):
        assert words in japanese


def test_the_npc_crab_is_named_in_the_readers_language(client: FlaskClient) -> None:
    url = session(client, ["Ann", "Bo"], *played(("green 25", 3), ("green 8", 3), ("green 17", 1)))
    french = text(client, url, "fr")
    assert "Contre le bernard-l’ermite PNJ" in french
    assert "▶ Bernard-l’ermite PNJ maison de taille 0" in french
    assert "et vert 8 (Bernard-l’ermite PNJ), les cartes de la plus grande taille (3)." in french
    japanese = text(client, url, "ja")
    assert "NPCヤドカリと対戦" in japanese
    assert "緑の8（NPCヤドカリ）を取ります。" in japanese
    assert "NPC crab" in text(client, url, "en")


def test_the_solo_crabs_read_in_french_and_japanese(client: FlaskClient) -> None:
    draws = [("green 1", 2), ("green 2", 1), ("pink 18", 3), ("pink 10", 2), ("green 9", 1)]
    url = session(
        client,
        ["Ann"],
        *({"type": "draw", "card": card, "size": size} for card, size in draws),
        {"type": "take", "card": "pink 18", "crab": 4},
        {"type": "draw", "card": "green 3", "size": 2},
    )
    french = text(client, url, "fr")
    for words in (
        f"restant dans les paquets{NNBSP}: vert 31 rose 33",
        "Bernard 2 couleurs alternées",
        "1 sur 7 · accepte rose, 18 ou moins",
        "face visible 0 \u2212 face cachée 0 = 0",
    ):
        assert words in french
    japanese = text(client, url, "ja")
    for words in (
        "ヤドカリ4 ピンク",
        "1／7枚 · 置ける： ピンク、18以下",
        "表向き0 \u2212 裏向き0 = 0",
    ):
        assert words in japanese
