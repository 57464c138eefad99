"""The group, statistics, judge, home and error pages in French and Japanese, and the
session CSV in the language it was asked in (the JSON export has no language)."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import Table, act
from flask import Flask
from flask.testing import FlaskClient
from test_groups import make_group, player_ids, start_group_game

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
JAPANESE = {"Accept-Language": "ja-JP,ja;q=0.9"}
NARROW = "\u202f"  # French typography's narrow no-break space, before : ; ? !
APOSTROPHE = "\u2019"  # French typography's apostrophe
QUESTION = "\uff1f"  # Japanese full-width question mark


def played_group(client: FlaskClient, app: Flask) -> tuple[str, str]:
    """A group of three with one finished score sheet: (group id, session id)."""
    group_id = make_group(client)
    ids = player_ids(app, group_id)
    response = start_group_game(
        client, group_id, [ids["Ann"], ids["Bo"], ids["Cy"]], "score-sheet", option_target="10"
    )
    assert response.status_code == 303, response.status_code
    table = Table(client, response.location.rsplit("/", 1)[1])
    act(table, type="round", **{"points-0": "12", "points-1": "3", "points-2": "5"})
    return group_id, table.id


def page(client: FlaskClient, address: str, language: dict[str, str], status: int = 200) -> str:
    response = client.get(address, headers=language)
    assert response.status_code == status, response.status_code
    return response.get_data(as_text=True)


def test_the_home_page_reads_in_french_and_japanese(client: FlaskClient, app: Flask) -> None:
    played_group(client, app)
    french = page(client, "/", FRENCH)
    assert "Tenez les scores à table" in french
    assert "Groupes sur cet appareil" in french
    assert "Parties sur cet appareil" in french
    assert ">terminée<" in french
    assert "Keep score at the table" not in french
    japanese = page(client, "/", JAPANESE)
    assert "この端末のグループ" in japanese
    assert "この端末のセッション" in japanese
    assert ">終了<" in japanese


def test_a_group_s_page_and_statistics_read_in_french(client: FlaskClient, app: Flask) -> None:
    group_id, _ = played_group(client, app)
    group = page(client, f"/g/{group_id}", FRENCH)
    assert "<h2>Joueurs</h2>" in group
    assert "Parties jouées" in group
    assert f"1 partie terminée comptée{NARROW}:" in group
    assert "Ann" in group and "Bo" in group
    stats = page(client, f"/g/{group_id}/stats", FRENCH)
    for word in ("Classement", "Parties jouées", "Victoires", "Moyenne", "Meilleur score"):
        assert word in stats, word
    assert "Face-à-face" in stats
    assert "Victoires au fil du temps" in stats
    assert "Leaderboard" not in stats and "Head to head" not in stats
    # Numbers as French writes them: a decimal comma, a space before the percent sign.
    assert '<td class="num">100\u00a0%</td><td class="num">1,0</td>' in stats
    assert "<desc" in stats and "Victoires par jour en " in stats


def test_the_deck_profiles_page_reads_in_french_and_japanese(client: FlaskClient) -> None:
    assert "<h1>Profils de paquet</h1>" in page(client, "/decks", FRENCH)
    assert "<h1>デッキプロファイル</h1>" in page(client, "/decks", JAPANESE)


def test_a_group_s_statistics_read_in_japanese(client: FlaskClient, app: Flask) -> None:
    group_id, _ = played_group(client, app)
    stats = page(client, f"/g/{group_id}/stats", JAPANESE)
    for word in ("順位", "対戦数", "勝利数", "平均", "最高点", "直接対決", "勝利数の推移"):
        assert word in stats, word
    assert "統計" in page(client, f"/g/{group_id}", JAPANESE)


def test_a_head_to_head_refusal_reads_in_the_reader_s_language(
    client: FlaskClient, app: Flask
) -> None:
    group_id, _ = played_group(client, app)
    ids = player_ids(app, group_id)
    address = f"/g/{group_id}/stats?first={ids['Ann']}&second={ids['Ann']}"
    assert "Choisissez deux joueurs différents à comparer." in page(client, address, FRENCH, 422)
    assert "比べるには別々のプレイヤーを2人選んでください。" in page(client, address, JAPANESE, 422)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (FRENCH, (f"À qui est le pli{NARROW}?", "Arbitrer un pli")),
        (JAPANESE, (f"誰のトリック{QUESTION}", "トリックを判定")),
    ],
)
def test_the_judge_reads_in_the_reader_s_language(
    client: FlaskClient, language: dict[str, str], words: tuple[str, ...]
) -> None:
    chosen = page(client, "/judge", language)
    for word in words:
        assert word in chosen, word
    assert "Whose trick is it?" not in chosen


def test_a_judged_trick_says_its_cards_and_its_winner_in_french(client: FlaskClient) -> None:
    trick = page(client, "/judge/yokai-septet?players=4&trump=green", FRENCH)
    assert f"Le pli, dans l{APOSTROPHE}ordre de jeu" in trick
    assert "Carte 1 sur 4" in trick


def test_a_404_page_reads_in_the_reader_s_language(client: FlaskClient) -> None:
    french = page(client, "/g/nosuchgroupatall", FRENCH, 404)
    assert "<h1>Introuvable</h1>" in french
    assert f"Aucun groupe n{APOSTROPHE}a ce lien." in french
    assert "Erreur 404." in french
    assert "Retour à vos parties" in french
    japanese = page(client, "/g/nosuchgroupatall", JAPANESE, 404)
    assert "<h1>見つかりません</h1>" in japanese
    assert "このリンクのグループはありません。" in japanese
    # The API's refusal reads in the asked language too, with its code beside it.
    answer = client.get("/api/v1/groups/nosuchgroupatall", headers=FRENCH)
    assert answer.status_code == 404
    assert answer.headers["Content-Language"] == "fr"
    assert f"Aucun groupe n{APOSTROPHE}a ce lien." in answer.get_json()["error"]
    assert answer.get_json()["code"] == "api.no-such-group"


def test_a_session_csv_asked_in_french_has_french_headings(client: FlaskClient, app: Flask) -> None:
    _, session_id = played_group(client, app)
    english = client.get(f"/s/{session_id}/export.csv").get_data(as_text=True)
    french = client.get(f"/s/{session_id}/export.csv", headers=FRENCH).get_data(as_text=True)
    english_rows = list(csv.reader(io.StringIO(english)))
    french_rows = list(csv.reader(io.StringIO(french)))
    assert english_rows[0][:4] == ["game", "round", "seat", "player"]
    assert french_rows[0][:6] == ["jeu", "manche", "place", "joueur", "points", "total cumulé"]
    assert "gagnant" in french_rows[0]
    winner = french_rows[0].index("gagnant")
    assert {row[winner] for row in french_rows[1:]} == {"oui", "non"}
    # The same rows, only the words changed.
    assert len(french_rows) == len(english_rows)
    assert [row[2:6] for row in french_rows[1:]] == [row[2:6] for row in english_rows[1:]]
    grid = client.get(f"/s/{session_id}/export-grid.csv", headers=FRENCH).get_data(as_text=True)
    assert grid.startswith("manche,")
    # The API's CSV stays as it was.
    api = client.get(f"/api/v1/sessions/{session_id}/export.csv", headers=FRENCH)
    assert api.get_data(as_text=True) == english


def test_the_json_export_is_the_same_in_every_language(client: FlaskClient, app: Flask) -> None:
    group_id, session_id = played_group(client, app)
    for address in (f"/s/{session_id}/export.json", f"/g/{group_id}/export.json"):
        answers = {
            client.get(address, headers=language).get_data()
            for language in ({"Accept-Language": "en"}, FRENCH, JAPANESE)
        }
        assert len(answers) == 1, address


def test_a_player_added_and_a_refusal_read_in_the_phone_s_language(
    client: FlaskClient, app: Flask
) -> None:
    group_id, _ = played_group(client, app)
    added = client.post(f"/g/{group_id}/players", data={"do": "add", "name": "Eve"}, headers=FRENCH)
    assert added.status_code == 303
    assert "Eve a rejoint le groupe." in page(client, added.location, FRENCH)
    refused = client.post(
        f"/g/{group_id}/players", data={"do": "add", "name": "Ann"}, headers=JAPANESE
    )
    assert refused.status_code == 422
    assert "グループにはすでにAnnというプレイヤーがいます。" in refused.get_data(as_text=True)
