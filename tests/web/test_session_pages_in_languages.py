"""A session's pages read in the phone's language: English as always, French, Japanese."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import utc_now
from scorekeeper.web import sessions
from tests.conftest import Table, start_session

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
JAPANESE = {"Accept-Language": "ja-JP,ja;q=0.9"}


def page(client: FlaskClient, path: str, headers: dict[str, str]) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


def played(client: FlaskClient) -> Table:
    table = start_session(client, ["Ann", "Bo", "Cy"])
    assert table.roll(1, 5, 2, 3, 4, 6).status_code == 303
    return table


def test_the_session_page_reads_in_french(client: FlaskClient) -> None:
    table = played(client)
    html = page(client, f"/s/{table.id}", FRENCH)
    assert '<html lang="fr">' in html
    for words in ("↶ Annuler", "↷ Rétablir", "Dernière décision", ">Historique</a>"):
        assert words in html
    assert "Last ruling" not in html
    assert "↶ Undo" not in html


def test_the_session_page_reads_in_japanese(client: FlaskClient) -> None:
    table = played(client)
    html = page(client, f"/s/{table.id}", JAPANESE)
    assert '<html lang="ja">' in html
    for words in ("↶ 元に戻す", "↷ やり直す", "直前の裁定", ">履歴</a>", ">共有</a>", ">結果</a>"):
        assert words in html


def test_the_session_page_still_reads_in_english(client: FlaskClient) -> None:
    table = played(client)
    html = page(client, f"/s/{table.id}", {"Accept-Language": "en"})
    assert '<html lang="en">' in html
    assert "↶ Undo" in html
    assert "<strong>Last ruling</strong>" in html


def test_the_history_reads_in_each_language(client: FlaskClient) -> None:
    table = played(client)
    french = page(client, f"/s/{table.id}/history", FRENCH)
    assert '<html lang="fr">' in french
    assert "<h1>Historique</h1>" in french
    assert "Les plus récents d’abord." in french  # noqa: RUF001
    assert "← Retour à la partie" in french
    japanese = page(client, f"/s/{table.id}/history", JAPANESE)
    assert '<html lang="ja">' in japanese
    assert "<h1>履歴</h1>" in japanese
    assert "新しい順。" in japanese
    english = page(client, f"/s/{table.id}/history", {})
    assert "The newest first." in english


def test_the_new_session_page_reads_in_each_language(client: FlaskClient) -> None:
    french = page(client, "/new/yardkle", FRENCH)
    assert '<html lang="fr">' in french
    assert "<h1>Nouvelle partie de Yardkle</h1>" in french
    assert 'placeholder="Nom (obligatoire)"' in french
    japanese = page(client, "/new/yardkle", JAPANESE)
    assert '<html lang="ja">' in japanese
    assert "<h1>ヤードクルの新しいセッション</h1>" in japanese
    assert 'placeholder="名前（必須）"' in japanese  # noqa: RUF001
    chooser = page(client, "/new", JAPANESE)
    assert "<h1>どのゲーム" in chooser


def test_results_and_share_read_in_french(client: FlaskClient) -> None:
    table = played(client)
    results = page(client, f"/s/{table.id}/results", FRENCH)
    assert "<h2>Classement</h2>" in results
    assert "Commencée le" in results
    share = page(client, f"/s/{table.id}/share", FRENCH)
    assert "Partager cette partie" in share


def test_a_refusal_on_the_page_reads_in_the_phone_s_language(client: FlaskClient) -> None:
    table = played(client)
    # Sent from a page older than the roll: the table has changed since.
    answer = client.post(
        f"/s/{table.id}/action",
        data={"version": "0", "form_key": "stale-key", "type": "roll"},
        headers=FRENCH,
    )
    assert answer.status_code == 409
    html = answer.get_data(as_text=True)
    assert "La partie a changé sur un autre téléphone avant cet envoi" in html


def test_a_watcher_reads_the_page_in_their_own_language(app: Flask, client: FlaskClient) -> None:
    # A watched page is made once per version for every watcher: once per language too.
    table = played(client)
    watcher = app.test_client()
    french = page(watcher, f"/s/{table.id}", FRENCH)
    english = page(watcher, f"/s/{table.id}", {"Accept-Language": "en"})
    japanese = page(watcher, f"/s/{table.id}", JAPANESE)
    assert "Vous êtes spectateur." in french
    assert "You are watching." in english
    assert "観戦中です。" in japanese


def test_the_script_s_words_come_from_the_page(client: FlaskClient) -> None:
    table = played(client)
    html = page(client, f"/s/{table.id}", FRENCH)
    given = re.search(r"data-words='([^']*)'", html)
    assert given is not None
    words = json.loads(given[1].replace("&#34;", '"').replace("&amp;", "&"))
    assert words["show-table"] == "Voir la table actuelle"
    assert words["reconnecting"].startswith("Reconnexion…")
    assert "{what}" in words["reconnecting-sent"]


def test_cards_durations_and_winners_in_the_reader_s_words(app: Flask) -> None:
    started = utc_now() - timedelta(hours=1, minutes=25)
    for headers, card, colour, winners, lasted in (
        ({}, "green 7", "green", "Ann, Bo & Cy win", "1 h 25 min"),
        (FRENCH, "vert 7", "vert", "Ann, Bo et Cy gagnent", "1 h 25 min"),
        (JAPANESE, "緑の7", "緑", "Ann、Bo、Cyの勝ち", "1時間25分"),
    ):
        with app.test_request_context("/", headers=headers):
            assert sessions.card_words("green 7") == card
            assert sessions.card_words("10D") == "10D"
            assert sessions.colour_words("green") == colour
            assert sessions.winners_line(["Ann", "Bo", "Cy"]) == winners
            assert sessions.duration(started, started + timedelta(hours=1, minutes=25)) == lasted


def test_scores_group_their_thousands_as_the_language_does(app: Flask) -> None:
    with app.test_request_context("/"):
        assert sessions.grouped(12500) == "12,500"
        assert sessions.grouped(-1250) == "-1,250"
    with app.test_request_context("/", headers=FRENCH):
        assert sessions.grouped(12500) == "12\u202f500"


def test_an_english_page_gives_the_script_no_words_of_its_own(client: FlaskClient) -> None:
    # The script's own words are English: an English page stays as it was.
    table = played(client)
    assert "data-words" not in page(client, f"/s/{table.id}", {"Accept-Language": "en"})
    assert "data-words" in page(client, f"/s/{table.id}", JAPANESE)
