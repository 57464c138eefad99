"""Odd values posted to the card games' forms get a sentence, never a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import start
from flask.testing import FlaskClient

ODD = ["", "zzz", "-1", "99", "1e9", "blue 99", "white 4", "<b>x</b>", "green 1" * 20]


def assert_refused_cleanly(response: Any) -> None:
    body = response.get_data(as_text=True)
    assert response.status_code in (303, 409, 422), response.status_code
    assert "Traceback" not in body
    if response.status_code == 422:
        assert re.search(r'id="error">\s*\S', body)


YOKAI_FIELDS = [
    ("trump", "card"),
    ("first-lead", "seat"),
    ("play", "card"),
    ("result", "team"),
    ("result", "how"),
    ("result", "boss"),
    ("revoke", "flag"),
    ("revoke", "penalty"),
    ("fly", "card"),
]
CRYPTRUCK_FIELDS = [
    ("reveal", "card"),
    ("dealer-card", "card"),
    ("bid", "want"),
    ("give", "card"),
    ("play", "card"),
    ("won", "won-0"),
    ("revoke", "flag"),
    ("revoke", "penalty"),
]


@pytest.mark.parametrize(("kind", "field"), YOKAI_FIELDS)
def test_yokai_septet_forms_refuse_odd_values_with_a_sentence(
    client: FlaskClient, kind: str, field: str
) -> None:
    table = start(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    for value in ODD:
        extra = {"decision": "accept"} if kind == "revoke" else {}
        assert_refused_cleanly(table.act(type=kind, **{field: value}, **extra))
    table.act(type="trump", card="red 9")
    for value in ODD:
        assert_refused_cleanly(table.act(type=kind, **{field: value}))


@pytest.mark.parametrize(("kind", "field"), CRYPTRUCK_FIELDS)
def test_cryptruck_forms_refuse_odd_values_with_a_sentence(
    client: FlaskClient, kind: str, field: str
) -> None:
    table = start(client, "cryptruck", ["Ann", "Bo", "Cy"], option_first_dealer="0")
    for value in ODD:
        assert_refused_cleanly(table.act(type=kind, **{field: value}))
    table.act(type="reveal", card="green 2")
    for value in ODD:
        assert_refused_cleanly(table.act(type=kind, **{field: value}))


@pytest.mark.parametrize("seq", ["1", "99999"])
def test_correcting_with_an_odd_card_is_refused_cleanly(client: FlaskClient, seq: str) -> None:
    table = start(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    table.act(type="trump", card="red 9")
    for value in ODD:
        response = table.post(f"/events/{seq}/correct", {"card": value})
        assert response.status_code in (404, 422)
        assert "Traceback" not in response.get_data(as_text=True)
