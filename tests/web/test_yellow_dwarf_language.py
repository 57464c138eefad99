"""Yellow Dwarf's pages read in French and Japanese: the board, the picker and the ruling."""

from __future__ import annotations

import html
import re

import conftest
from flask.testing import FlaskClient

NB = "\u202f"


def text(page: str) -> str:
    """The words a page shows, tags dropped and spaces collapsed (but French's narrow
    no-break spaces, which str.split would take for spaces)."""
    words = html.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"[ \t\r\n]+", " ", words).strip()


def test_the_board_picker_and_ruling_read_in_french_and_japanese(client: FlaskClient) -> None:
    table = conftest.start(
        client,
        "yellow-dwarf",
        ["Ann", "Bo", "Cy", "Di"],
        option_starting_chips="50",
        option_payout="cards",
        option_game_end="first-broke",
    )
    table.act(type="play", card="JH")
    client.set_cookie("language", "fr")
    page = text(table.page())
    assert f"Ann continue{NB}: la carte suivante doit être une dame." in page
    assert "D♠ 12 jetons dans la case Dame de pique" in page
    assert f"Ann{NB}: «{NB}sans D{NB}»" in page
    assert f"Ann pose V♥. Ann{NB}: posez une dame ou dites «{NB}sans D{NB}»." in page
    client.set_cookie("language", "ja")
    page = text(table.page())
    assert "Ann の番：次はQです。" in page  # noqa: RUF001 (Japanese punctuation)
    assert "Annが♥Jを出しました。" in page
    client.set_cookie("language", "en")
    page = text(table.page())
    assert "Ann goes on: the next card must be a Q." in page
    assert "Ann lays J♥. Ann: lay a Q or say “without Q”." in page
