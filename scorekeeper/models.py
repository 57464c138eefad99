"""The stored data: sessions, their seats, the append-only event log.

The state of a session is never stored: it is the replay of its live events
through the game's engine (see ``scorekeeper.store``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from peewee import (
    BooleanField,
    CharField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)

from scorekeeper.db import database

NAME_MAX_LENGTH = 40


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class JSONField(TextField):
    def db_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def python_value(self, value: str | None) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(Model):
    class Meta:
        database = database


class GameSession(BaseModel):
    # The id is the view link: unguessable (128 random bits), never listed.
    id = CharField(primary_key=True, max_length=32)
    game = CharField(max_length=32)
    options = JSONField()
    # The right to record, handed out in the "score with me" link and used as the
    # API's Bearer token. Stored as is: whoever reads the database can already
    # change it, and a hash could not be shown again in a new link.
    edit_key = CharField(max_length=64)
    # Bumped by every change; a client that saw an older one gets 409.
    version = IntegerField(default=0)
    finished = BooleanField(default=False)
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "game_session"


class Seat(BaseModel):
    session = ForeignKeyField(GameSession, backref="seats", on_delete="CASCADE")
    position = IntegerField()
    name = CharField(max_length=NAME_MAX_LENGTH)

    class Meta:
        table_name = "seat"
        indexes = ((("session", "position"), True),)


class Event(BaseModel):
    session = ForeignKeyField(GameSession, backref="events", on_delete="CASCADE")
    seq = IntegerField()
    action = JSONField()
    undone = BooleanField(default=False)
    # Undone and still restorable: a new action after an undo ends the redo trail.
    redoable = BooleanField(default=False)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "event"
        indexes = ((("session", "seq"), True),)


class FormKey(BaseModel):
    """A one-time key of a submitted form: the same key twice records once."""

    key = CharField(primary_key=True, max_length=64)
    session = ForeignKeyField(GameSession, null=True, on_delete="CASCADE")
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "form_key"


class DeckProfile(BaseModel):
    """The house sizes printed on one physical Yadokarick deck, shared by its sessions.

    The rule sheet lists no sizes: sessions learn them from the table and
    write them here, so the next session with this deck needs no size taps.
    """

    # Unguessable like a session id: the profile's page is reached by its link.
    id = CharField(primary_key=True, max_length=32)
    name = CharField(max_length=NAME_MAX_LENGTH)
    # {"green 25": 3, ...}: only the cards whose size is known.
    sizes = JSONField(default=dict)
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "deck_profile"


class SessionDeck(BaseModel):
    """Which deck profile a session plays with (a Yadokarick session has at most one)."""

    session = ForeignKeyField(GameSession, primary_key=True, on_delete="CASCADE")
    profile = ForeignKeyField(DeckProfile, backref="sessions", on_delete="CASCADE")

    class Meta:
        table_name = "session_deck"


# The tables of migration 1, as they shipped; later tables come with their own migration.
INITIAL_MODELS = (GameSession, Seat, Event, FormKey)
ALL_MODELS = (*INITIAL_MODELS, DeckProfile, SessionDeck)
