"""The stored data: sessions, their seats, the append-only event log.

The state of a session is never stored: it is the replay of its live events
through the game's engine (see ``scorekeeper.store``, which keeps it in memory).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from peewee import (
    AutoField,
    BigIntegerField,
    BlobField,
    BooleanField,
    CharField,
    CompositeKey,
    DateTimeField,
    DoubleField,
    ForeignKeyField,
    IntegerField,
    Model,
    ModelSelect,
    TextField,
)

from scorekeeper.db import database

NAME_MAX_LENGTH = 40


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def json_text(value: object) -> str:
    """``value`` as a ``JSONField`` stores it."""
    return json.dumps(value, separators=(",", ":"))


class JSONField(TextField):
    def db_value(self, value: Any) -> str | None:
        return None if value is None else json_text(value)

    def python_value(self, value: str | None) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(Model):
    class Meta:
        database = database


# peewee adds some attributes to a model class itself: the ``id`` primary key of a model
# that declares none, a ``<name>_id`` holding the raw key of each foreign key ``<name>``,
# and each foreign key's ``backref`` query on the model it points to. The models below
# declare those the code reads (annotations only: peewee still makes them).


class PlayerGroup(BaseModel):
    """Friends who play together: their players and the sessions they played as a group."""

    # Unguessable like a session id: the group's view link.
    id = CharField(primary_key=True, max_length=32)
    # The right to change the group and start its sessions (like DeckProfile.edit_key).
    edit_key = CharField(max_length=64)
    name = CharField(max_length=NAME_MAX_LENGTH)
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "player_group"


class GroupPlayer(BaseModel):
    id: AutoField[int]
    group = ForeignKeyField(PlayerGroup, backref="players", on_delete="CASCADE")
    group_id: str
    name = CharField(max_length=NAME_MAX_LENGTH)
    colour = CharField(max_length=7, default="")  # "#rrggbb" or ""
    emoji = CharField(max_length=16, default="")  # one emoji or ""
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "group_player"
        indexes = ((("group", "name"), True),)


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
    # The version made by the newest write that changed an event already logged (an undo,
    # a redo, a correction, an append ending a redo trail). A view built at this version or
    # later is brought to the current one by applying only the events logged since.
    rewritten_at = IntegerField(default=0)
    finished = BooleanField(default=False)
    # Made by an import of an exported file (the home list marks it apart from its original).
    imported = BooleanField(default=False)
    # The group that played it; a deleted group leaves its sessions as they were.
    group = ForeignKeyField(PlayerGroup, null=True, backref="sessions", on_delete="SET NULL")
    group_id: str | None
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)
    # When a write made the session finished; None while it is in play (an undo clears it).
    finished_at = DateTimeField(null=True)
    # The finished session this one is the rematch of ("Play again"), if any: a session
    # has one rematch at most (its next game), which a unique index keeps so.
    rematch_of = ForeignKeyField(
        "self", null=True, unique=True, backref="rematches", on_delete="SET NULL"
    )
    rematch_of_id: str | None
    # What lists and statistics read of a finished session (scorekeeper/read_model.py),
    # written by the write that ends it; None while it is in play.
    rounds_played = IntegerField(null=True)
    lower_is_better = BooleanField(null=True)
    seats: ModelSelect[Seat]
    events: ModelSelect[Event]

    class Meta:
        table_name = "game_session"


class Seat(BaseModel):
    id: AutoField[int]
    session = ForeignKeyField(GameSession, backref="seats", on_delete="CASCADE")
    session_id: str
    position = IntegerField()
    # The name shown in the game: copied from the player when the session starts, so a
    # player renamed or removed later leaves the past sessions as they were played.
    name = CharField(max_length=NAME_MAX_LENGTH)
    # The group player in that seat.
    player = ForeignKeyField(GroupPlayer, null=True, on_delete="SET NULL")
    player_id: int | None
    # The seat's end of a finished session (scorekeeper/read_model.py): its final score,
    # its place (1 the lead, ties share one) and whether it won; None while in play, and
    # for a seat the engine does not rank.
    score = IntegerField(null=True)
    place = IntegerField(null=True)
    won = BooleanField(null=True)

    class Meta:
        table_name = "seat"
        indexes = ((("session", "position"), True),)


# A group's running totals of its finished sessions (scorekeeper/group_totals.py), kept by
# the writes that end, change or reopen them: what its statistics read instead of every seat.
# A session counts once it is finished with its end recorded (lower_is_better not NULL).
# Days are date ordinals (``date.toordinal`` of the UTC day it ended), with the week (from
# Monday: ``(day - 1) // 7``), the month (``year * 12 + month - 1``) and the year it is in.


class GroupGame(BaseModel):
    """A game's sessions in a group (its "lowest wins" ones apart)."""

    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE", index=False)
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    played = IntegerField()
    last_ended = DateTimeField()

    class Meta:
        table_name = "group_game"
        primary_key = CompositeKey("group", "game", "lower_is_better")


class GroupPlayerGame(BaseModel):
    """One player's ranked seats in one game (as ``GroupGame``): their count, wins and
    scores."""

    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE")
    group_id: str
    # A removed player's totals go with them: their seats count for no one.
    player = ForeignKeyField(GroupPlayer, on_delete="CASCADE", index=False)
    player_id: int
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    played = IntegerField()
    won = IntegerField()
    score_sum = BigIntegerField()
    score_min = IntegerField()
    score_max = IntegerField()
    last_ended = DateTimeField()

    class Meta:
        table_name = "group_player_game"
        primary_key = CompositeKey("player", "game", "lower_is_better")


class GroupDay(BaseModel):
    """The sessions of a group that ended on one day."""

    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE", index=False)
    day = IntegerField()
    week = IntegerField()
    month = IntegerField()
    year = IntegerField()
    played = IntegerField()

    class Meta:
        table_name = "group_day"
        primary_key = CompositeKey("group", "day")


class GroupPlayerDay(BaseModel):
    """A player's wins on one day (a day without one has no row)."""

    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE")
    player = ForeignKeyField(GroupPlayer, on_delete="CASCADE", index=False)
    player_id: int
    day = IntegerField()
    week = IntegerField()
    month = IntegerField()
    year = IntegerField()
    won = IntegerField()

    class Meta:
        table_name = "group_player_day"
        primary_key = CompositeKey("player", "day")


class Rating(BaseModel):
    """A player's rating (scorekeeper/ratings.py) in one game, or over all the group's
    games, after one finished session: written by the write that ends the session (or
    changes or reopens it, or imports the group), never by a read. The row of the newest
    session a player played of each game is ``latest``: what the statistics read."""

    id: AutoField[int]
    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE")
    group_id: str
    session = ForeignKeyField(GameSession, on_delete="CASCADE")
    session_id: str
    # The session's finished_at: ratings follow the order sessions ended (then their ids).
    ended_at = DateTimeField()
    player = ForeignKeyField(GroupPlayer, on_delete="CASCADE")
    player_id: int
    # The game's slug and whether its lowest score won (a score sheet set so counts apart),
    # or "" and False: the rating over all the group's games.
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    # OpenSkill's estimate after the session, and how much the shown rating moved with it.
    mu = DoubleField()
    sigma = DoubleField()
    moved = DoubleField()
    # The player's games of this kind so far, their wins and the sum of their places.
    played = IntegerField()
    won = IntegerField()
    places = IntegerField()
    latest = BooleanField()

    class Meta:
        table_name = "rating"
        indexes = (
            (("group", "latest"), False),
            (("group", "ended_at", "session"), False),
        )


class Event(BaseModel):
    id: AutoField[int]
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


class Snapshot(BaseModel):
    """A session's state after its first ``count`` events (to ``seq``), saved every
    ``snapshots.EVERY`` events so that a worker without a kept view, and an undo, replay
    a bounded tail of the log instead of all of it. The log stays the truth: a rewrite of
    history deletes the snapshots it makes wrong, and one of another engine is never used.

    The state is pickled: it is the engine's own dataclasses, which JSON would need each
    game to rebuild by hand. Only this app writes the column, and ``fingerprint`` (the
    hash of the engine's source that wrote it) keeps a snapshot from ever being read by
    other classes than those it was made with.
    """

    id: AutoField[int]
    session = ForeignKeyField(GameSession, on_delete="CASCADE")
    session_id: str
    seq = IntegerField()
    count = IntegerField()
    # Whether an event up to ``seq`` is live (an undo could take it).
    live = BooleanField()
    fingerprint = CharField(max_length=64)
    state = BlobField()

    class Meta:
        table_name = "snapshot"
        indexes = ((("session", "seq"), True),)


class ExportText(BaseModel):
    """A finished session's part of its group's JSON export, as the file writes it
    (``scorekeeper/export_texts.py``): kept so that an export reads it instead of replaying
    the session. Used only while the session is at ``version``, by code of the same
    ``fingerprint`` and with the same ``context``; otherwise made again and kept in its place."""

    session = ForeignKeyField(GameSession, primary_key=True, on_delete="CASCADE")
    session_id: str
    version = IntegerField()
    # The hash of the engine's source and of the export's code that made it.
    fingerprint = CharField(max_length=64)
    # What the part takes from outside the session's log: its seats' players' and its
    # deck's numbers in the file, and its deck profile's hash.
    context = TextField()
    text = TextField()

    class Meta:
        table_name = "export_text"


class Correction(BaseModel):
    """An action a correction replaced: the event keeps the replacement, this row what it
    said before, so the history shows both and when the change was made."""

    id: AutoField[int]
    session = ForeignKeyField(GameSession, on_delete="CASCADE")
    seq = IntegerField()
    # The event's action before this correction (its action after it is the next
    # correction's, or the event's own for the newest one).
    action = JSONField()
    corrected_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "correction"
        indexes = ((("session", "seq"), False),)


class RequestKey(BaseModel):
    """A one-time key of a write (a form's hidden key, the API's ``request_key``).

    Keys are scoped to the session written to ("" for a new session or an
    import), so a key reused on another session is another write. The same
    key twice in one scope records once: a repeat of the identical request is
    answered as the first one was, a different request under it is refused.
    """

    scope = CharField(max_length=32)
    key = CharField(max_length=64)
    # SHA-256 of the request as sent (the API); "" for a form, whose key is never reused.
    fingerprint = CharField(max_length=64, default="")
    # The session the write went to (or created).
    session = ForeignKeyField(GameSession, null=True, on_delete="CASCADE")
    session_id: str | None
    # What the API answered the first time, to answer a retry the same way.
    answer = JSONField(null=True)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "request_key"
        primary_key = CompositeKey("scope", "key")


class DeckProfile(BaseModel):
    """The sizes printed on the cards of one physical deck, shared by its sessions.

    The rule sheet lists no sizes: sessions learn them from the table and
    write them here, so the next session with this deck needs no size taps.
    """

    # Unguessable like a session id: the profile's page is reached by its link,
    # which lets anyone read the sizes (they are printed on the cards anyway).
    id = CharField(primary_key=True, max_length=32)
    # The right to change the profile: held by the phone that made it, by the
    # scorers of its sessions and by whoever opens its "edit this deck" link.
    edit_key = CharField(max_length=64)
    # The slug of the game whose deck it describes (see games.engine.Engine.sized_cards).
    game = CharField(max_length=32)
    name = CharField(max_length=NAME_MAX_LENGTH)
    # {"green 25": 3, ...}: only the cards whose size is known.
    sizes = JSONField(default=dict)
    # The group whose deck it is (made for it, or the first deck its sessions played with):
    # every phone that may change the group may change it. A deleted group leaves it to
    # the phones that hold it.
    group = ForeignKeyField(PlayerGroup, null=True, backref="decks", on_delete="SET NULL")
    group_id: str | None
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "deck_profile"


class SessionDeck(BaseModel):
    """Which deck profile a session plays with (at most one, of the session's game)."""

    session = ForeignKeyField(GameSession, primary_key=True, on_delete="CASCADE")
    profile = ForeignKeyField(DeckProfile, backref="sessions", on_delete="CASCADE")
    profile_id: str

    class Meta:
        table_name = "session_deck"


class Device(BaseModel):
    """A phone or a browser: the rights it holds are the rows below, and its cookie carries
    only this id. Stored here rather than in the cookie, whose 4 KB held a few dozen."""

    # Unguessable like an edit key (192 random bits): whoever holds it holds the rights.
    id = CharField(primary_key=True, max_length=32)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device"


class DeviceSession(BaseModel):
    """A session on a device's list: watched ("view") or scored there ("edit")."""

    # Not indexed apart: the primary key starts with it.
    device = ForeignKeyField(Device, on_delete="CASCADE", index=False)
    session = ForeignKeyField(GameSession, on_delete="CASCADE")
    role = CharField(max_length=4)
    # When the device was given it, or the right to record in it.
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_session"
        primary_key = CompositeKey("device", "session")


class DeviceGroup(BaseModel):
    """A group on a device's list: seen ("view") or changed from there ("edit")."""

    device = ForeignKeyField(Device, on_delete="CASCADE", index=False)
    group = ForeignKeyField(PlayerGroup, on_delete="CASCADE")
    group_id: str
    role = CharField(max_length=4)
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_group"
        primary_key = CompositeKey("device", "group")


class DeviceDeck(BaseModel):
    """A deck profile a device may change (seeing one needs only its link)."""

    device = ForeignKeyField(Device, on_delete="CASCADE", index=False)
    profile = ForeignKeyField(DeckProfile, on_delete="CASCADE")
    # When the device was last given it (it made the profile, opened its link, scored a
    # session played with it): the newest is the one a new session offers first.
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_deck"
        primary_key = CompositeKey("device", "profile")
