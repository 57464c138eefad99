"""Every move a session page offers is one the engine accepts: seeded walks through each
game send every way each page's forms can be sent with what the page picked or offers
(each card, each button, each answer), and none is refused."""

from __future__ import annotations

import random
from html import unescape

import pytest
from conftest import SQLITE_ONLY, Table, page_error, start
from flask.testing import FlaskClient
from page_player import WALKS, Submission, submissions

STEPS = 60
# Ways of sending a move tried at each step, for each form and button: the engine's
# own tests prove every listed card is accepted; these prove the page lists no other.
TRIES = 2


def sample(offered: list[Submission], rng: random.Random) -> list[Submission]:
    """Up to TRIES submissions of each form and set of fields tapped, picked at random."""
    groups: dict[tuple[str, ...], list[Submission]] = {}
    for sent in offered:
        tapped = tuple(part.split("=")[0] for part in sent.tapped.split(", "))
        groups.setdefault((sent.action, dict(sent.fields).get("type", ""), *tapped), []).append(
            sent
        )
    return [sent for group in groups.values() for sent in rng.sample(group, min(TRIES, len(group)))]


def version(client: FlaskClient, table: Table) -> int:
    return int(client.get(f"/api/v1/sessions/{table.id}/version").get_json()["version"])


def tried(client: FlaskClient, table: Table, sent: Submission) -> tuple[bool, str]:
    """Sends one offered move and takes it back: whether it was accepted, and why not."""
    answer = client.post(sent.action, data=sent.data(version(client, table)))
    if answer.status_code != 303:
        return False, unescape(page_error(answer.get_data(as_text=True)))
    if "?" not in answer.location:  # recorded (not a question asked first): undo it
        undo = {"version": version(client, table), "form_key": f"undo-{random.random()}"}
        assert client.post(f"{table.url}/undo", data=undo).status_code == 303
    return True, ""


@SQLITE_ONLY
@pytest.mark.parametrize("game", list(WALKS))
def test_every_move_a_page_offers_is_accepted(client: FlaskClient, game: str) -> None:
    slug, seats, fields = WALKS[game]
    table = start(client, slug, seats, **fields)
    rng = random.Random(game)
    url, refused, kinds = table.url, [], set()
    for step in range(STEPS):
        offered = submissions(client.get(url).get_data(as_text=True), rng)
        if not offered:
            break
        accepted = []
        for sent in sample(offered, rng):
            ok, why = tried(client, table, sent)
            if ok:
                accepted.append(sent)
            elif not sent.typed:  # a typed number may rightly be refused; a tap may not
                refused.append(f"step {step}: {sent.tapped or sent.action} refused: {why}")
        assert accepted, f"step {step}: nothing the page offers is accepted"
        # A kind of action first, so that a round's result entered at once comes up too.
        by_type: dict[str, list[Submission]] = {}
        for sent in accepted:
            by_type.setdefault(dict(sent.fields).get("type", ""), []).append(sent)
        kind = rng.choice(sorted(by_type))
        kinds.add(kind)
        chosen = rng.choice(by_type[kind])
        answer = client.post(chosen.action, data=chosen.data(version(client, table)))
        assert answer.status_code == 303
        url = answer.location if "?" in answer.location else table.url
    assert refused == []
    assert kinds, "the walk sent nothing"
