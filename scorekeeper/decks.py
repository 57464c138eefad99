"""Deck profiles: the house sizes printed on one physical Yadokarick deck.

The rule sheet gives no size table, so the table tells the app a card's size
the first time it meets the card. A session's events carry those sizes (its
replay never depends on a profile); the profile is the app's memory of them
across sessions: it pre-fills sizes, learns every size a session records, and
can be edited on its own page.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.db import write_transaction
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import YADOKARICK, Card
from scorekeeper.games.house_sizes import parse_size
from scorekeeper.models import NAME_MAX_LENGTH, DeckProfile, GameSession, SessionDeck, utc_now

DEFAULT_NAME = "My Yadokarick deck"


class ProfileNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    # Card as written ("green 25") → its printed size; only known cards.
    sizes: Mapping[str, int]

    def size_of(self, card: Card) -> int | None:
        return self.sizes.get(str(card))


def check_name(raw: object, field: str = "name") -> str:
    name = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not name:
        raise IllegalAction("Give the deck a name, like “Blue box”.", field)
    if len(name) > NAME_MAX_LENGTH:
        raise IllegalAction(
            f"The deck's name is {len(name)} characters long; at most {NAME_MAX_LENGTH} fit.",
            field,
        )
    return name


def check_sizes(raw: object, field: str = "sizes") -> dict[str, int]:
    """Sizes as given ({"green 25": "3", …}; blank = unknown), checked and written tidily."""
    if not isinstance(raw, Mapping):
        raise IllegalAction("The sizes must map cards to numbers.", field)
    sizes: dict[str, int] = {}
    for key, value in raw.items():
        card = YADOKARICK.parse(key, f"{field}.{str(key)[:20]}")
        size = parse_size(value, card, f"{field}.{card}")
        if size is not None:
            sizes[str(card)] = size
    return dict(sorted(sizes.items(), key=lambda item: YADOKARICK.parse(item[0], field)))


def _profile(row: DeckProfile) -> Profile:
    return Profile(str(row.id), str(row.name), dict(row.sizes or {}))


def create(name: object, sizes: object = None) -> Profile:
    with write_transaction():
        return insert(name, sizes)


def insert(
    name: object, sizes: object = None, field: str = "name", sizes_field: str = "sizes"
) -> Profile:
    """A new profile, inside the caller's write transaction."""
    checked_name = check_name(name, field)
    checked_sizes = check_sizes(sizes or {}, sizes_field)
    row = DeckProfile.create(id=secrets.token_urlsafe(16), name=checked_name, sizes=checked_sizes)
    return _profile(row)


def load(profile_id: str) -> Profile:
    row = DeckProfile.get_or_none(DeckProfile.id == profile_id)
    if row is None:
        raise ProfileNotFound(profile_id)
    return _profile(row)


def find(profile_ids: Sequence[str]) -> list[Profile]:
    """The profiles with these ids that exist, in the order given."""
    if not profile_ids:
        return []
    rows = {row.id: row for row in DeckProfile.select().where(DeckProfile.id.in_(profile_ids))}
    return [_profile(rows[pid]) for pid in profile_ids if pid in rows]


def update(profile_id: str, name: object, sizes: object) -> Profile:
    """Rename a profile and replace its sizes (a blank size forgets that card)."""
    checked_name = check_name(name)
    checked_sizes = check_sizes(sizes)
    with write_transaction():
        changed = (
            DeckProfile.update(name=checked_name, sizes=checked_sizes, updated_at=utc_now())
            .where(DeckProfile.id == profile_id)
            .execute()
        )
    if not changed:
        raise ProfileNotFound(profile_id)
    return load(profile_id)


def of_session(session_id: str) -> Profile | None:
    row = DeckProfile.select().join(SessionDeck).where(SessionDeck.session == session_id).first()
    return None if row is None else _profile(row)


def link(session: GameSession, profile_id: str) -> None:
    """Play ``session`` with a profile (inside the store's write transaction)."""
    if DeckProfile.get_or_none(DeckProfile.id == profile_id) is None:
        raise IllegalAction("That deck profile does not exist; choose another.", "deck_profile")
    SessionDeck.create(session=session, profile=profile_id)


def learn(profile_id: str, sizes: Mapping[str, int]) -> None:
    """Write the sizes a session knows into its profile (inside the write transaction).

    The table has just read these from the cards, so they win over what the
    profile held.
    """
    row = DeckProfile.get_or_none(DeckProfile.id == profile_id)
    if row is None or not sizes:
        return
    known = dict(row.sizes or {})
    learned = {**known, **sizes}
    if learned != known:
        row.sizes = check_sizes(learned)
        row.updated_at = utc_now()
        row.save()
