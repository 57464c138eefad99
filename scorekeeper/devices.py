"""Devices and the rights each holds: the sessions it scores or watches, the groups it
changes or sees, the deck profiles it may change.

No accounts: a phone is known by the unguessable id its signed cookie carries
(see ``web.access``), and its rights are rows here, as many as it gathers. A
device is made when it is first given a right, so a browser that only reads
pages costs no row. Lists show the rights a page at a time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from peewee import JOIN, SQL, Case, Field, SelectBase

from scorekeeper import keys
from scorekeeper.db import Statement, write_transaction
from scorekeeper.models import (
    DeckProfile,
    Device,
    DeviceDeck,
    DeviceGroup,
    DeviceSession,
    GameSession,
    PlayerGroup,
    SessionDeck,
    utc_now,
)

EDIT = "edit"
VIEW = "view"


@dataclass(frozen=True)
class Page:
    """One page of a device's list: id → "edit" or "view", in the list's order, and
    whether more follow."""

    roles: dict[str, str]
    more: bool


# What a device may do with one thing: each page asks one of these, by the primary key.
_SESSION_ROLE = Statement(
    lambda: DeviceSession.select(DeviceSession.role).where(
        (DeviceSession.device == "") & (DeviceSession.session == "")
    )
)
_GROUP_ROLE = Statement(
    lambda: DeviceGroup.select(DeviceGroup.role).where(
        (DeviceGroup.device == "") & (DeviceGroup.group == "")
    )
)
# A deck the device holds, or the deck of a group it may change: one row (any) or none.
_DECK_HELD = Statement(
    lambda: (
        DeckProfile.select(DeckProfile.id)
        .join(
            DeviceDeck,
            JOIN.LEFT_OUTER,
            on=(DeviceDeck.profile == DeckProfile.id) & (DeviceDeck.device == ""),
        )
        .join(
            DeviceGroup,
            JOIN.LEFT_OUTER,
            on=(DeviceGroup.group == DeckProfile.group)
            & (DeviceGroup.device == "")
            & (DeviceGroup.role == EDIT),
            src=DeckProfile,
        )
        .where(
            (DeckProfile.id == "")
            & (DeviceDeck.device.is_null(False) | DeviceGroup.device.is_null(False))
        )
    )
)
# A session's version with the device's role in it (None: not on its list). A session's
# page and every write from one need both: one round trip instead of two on PostgreSQL,
# where these waits were half of a watcher's page's time in a worker.
_VERSION_AND_SESSION_ROLE = Statement(
    lambda: (
        GameSession.select(GameSession.version, DeviceSession.role)
        .join(
            DeviceSession,
            JOIN.LEFT_OUTER,
            on=(DeviceSession.session == GameSession.id) & (DeviceSession.device == ""),
        )
        .where(GameSession.id == "")
    )
)
STATEMENTS = (_SESSION_ROLE, _GROUP_ROLE, _DECK_HELD, _VERSION_AND_SESSION_ROLE)


def _found(statement: Statement, device_id: str, thing_id: str) -> str | None:
    row = statement.execute(device_id, thing_id).fetchone()
    return None if row is None else str(row[0])


def session_role(device_id: str, session_id: str) -> str | None:
    """ "edit", "view", or None: the session is not on the device's list."""
    return _found(_SESSION_ROLE, device_id, session_id)


def version_and_session_role(device_id: str, session_id: str) -> tuple[int, str | None] | None:
    """The session's version and the device's role in it, read at once; None: no such
    session."""
    row = _VERSION_AND_SESSION_ROLE.execute(device_id, session_id).fetchone()
    return None if row is None else (int(row[0]), None if row[1] is None else str(row[1]))


def group_role(device_id: str, group_id: str) -> str | None:
    return _found(_GROUP_ROLE, device_id, group_id)


def holds_deck(device_id: str, profile_id: str) -> bool:
    """Whether the device may change the deck profile: it holds it, or the profile is the
    deck of a group the device may change."""
    row = _DECK_HELD.execute(device_id, device_id, EDIT, profile_id).fetchone()
    return row is not None


def _device(device_id: str | None) -> str:
    """(Inside a write.) The device ``device_id``, or a new one when there is none or the
    database does not know it (restored from an older copy): its rights start afresh."""
    if device_id is not None and Device.select().where(Device.id == device_id).exists():
        return device_id
    return str(Device.create(id=keys.new_key()).id)


def _give_role(
    model: type[DeviceSession] | type[DeviceGroup],
    thing: Field,
    device: str,
    thing_id: str,
    role: str,
) -> None:
    """Give a session or a group with ``role``; "view" never takes back an "edit"."""
    now = utc_now()
    given = model.insert(
        {model.device: device, thing: thing_id, model.role: role, model.given_at: now}
    )
    if role == EDIT:
        given = given.on_conflict(
            conflict_target=[model.device, thing],
            update={model.role: EDIT, model.given_at: now},
        )
    else:
        given = given.on_conflict_ignore()
    given.execute()


def _give_deck(device: str, profile_id: str) -> None:
    now = utc_now()
    DeviceDeck.insert(device=device, profile=profile_id, given_at=now).on_conflict(
        conflict_target=[DeviceDeck.device, DeviceDeck.profile], update={DeviceDeck.given_at: now}
    ).execute()


def give_session(device_id: str | None, session_id: str, role: str) -> str:
    """List the session on the device ("view"), or let it record there ("edit"). Returns
    the device's id (a new one, see ``_device``)."""
    with write_transaction():
        device = _device(device_id)
        _give_role(DeviceSession, DeviceSession.session, device, session_id, role)
    return device


def give_scorer(device_id: str | None, session_id: str) -> str:
    """Let the device record in the session and change the deck profile it plays with."""
    with write_transaction():
        device = _device(device_id)
        _give_role(DeviceSession, DeviceSession.session, device, session_id, EDIT)
        played_with = (
            SessionDeck.select(SessionDeck.profile).where(SessionDeck.session == session_id)
        ).scalar()
        if played_with is not None:
            _give_deck(device, str(played_with))
    return device


def give_group(device_id: str | None, group_id: str, role: str) -> str:
    with write_transaction():
        device = _device(device_id)
        _give_role(DeviceGroup, DeviceGroup.group, device, group_id, role)
    return device


def give_deck(device_id: str | None, profile_id: str) -> str:
    with write_transaction():
        device = _device(device_id)
        _give_deck(device, profile_id)
    return device


def take_session(device_id: str, session_id: str) -> None:
    """Take the session off the device's list, and with it the right to record there."""
    with write_transaction():
        DeviceSession.delete().where(
            (DeviceSession.device == device_id) & (DeviceSession.session == session_id)
        ).execute()


def carry_over(
    sessions: Sequence[tuple[str, str]],
    groups: Sequence[tuple[str, str]],
    profiles: Sequence[str],
    device_id: str | None = None,
) -> str | None:
    """A device holding what a cookie of before held, each list newest first; returns its
    id: ``device_id`` when the cookie names the device it is to be (made here, or by a
    request sent at the same time with the same cookie), else a new one. The order is kept
    by the times each right is given; what no longer exists, or was never an id, is left
    out. A right the device holds already stays as it is, but a "view" becomes an "edit".
    None, and no device made, when nothing is left: a device is made when it is first
    given a right."""
    with write_transaction():
        device = keys.new_key() if device_id is None else device_id
        inserts = []
        for model, thing, things, roles in (
            (DeviceSession, DeviceSession.session, GameSession, dict(sessions)),
            (DeviceGroup, DeviceGroup.group, PlayerGroup, dict(groups)),
        ):
            existing = _existing(things, list(roles))
            given = [
                {model.device: device, thing: thing_id, model.role: role, model.given_at: at}
                for (thing_id, role), at in zip(roles.items(), _newest_first(), strict=False)
                if thing_id in existing and role in (EDIT, VIEW)
            ]
            for role in (EDIT, VIEW):
                rows = [row for row in given if row[model.role] == role]
                if not rows:
                    continue
                insert = model.insert_many(rows)
                inserts.append(
                    insert.on_conflict(
                        conflict_target=[model.device, thing], update={model.role: EDIT}
                    )
                    if role == EDIT
                    else insert.on_conflict_ignore()
                )
        existing = _existing(DeckProfile, profiles)
        held = [
            {DeviceDeck.device: device, DeviceDeck.profile: profile_id, DeviceDeck.given_at: at}
            for profile_id, at in zip(dict.fromkeys(profiles), _newest_first(), strict=False)
            if profile_id in existing
        ]
        if held:
            inserts.append(DeviceDeck.insert_many(held).on_conflict_ignore())
        if not inserts:
            return None
        Device.insert(id=device).on_conflict_ignore().execute()
        for insert in inserts:
            insert.execute()
    return device


def _newest_first() -> Iterator[datetime]:
    """Now, a second before, two seconds before …"""
    now = utc_now()
    return (now - timedelta(seconds=before) for before in itertools.count())


def _existing(
    model: type[GameSession] | type[PlayerGroup] | type[DeckProfile], ids: Sequence[str]
) -> set[str]:
    """Those of ``ids`` that are ids of rows of ``model``."""
    asked = [thing_id for thing_id in ids if keys.is_id(thing_id)]
    if not asked:
        return set()
    return {str(row.id) for row in model.select(model.id).where(model.id.in_(asked))}


def sessions_page(device_id: str, page: int, size: int) -> Page:
    """The device's sessions, the latest changed first."""
    rows = (
        DeviceSession.select(DeviceSession.session, DeviceSession.role)
        .join(GameSession)
        .where(DeviceSession.device == device_id)
        .order_by(GameSession.updated_at.desc(), GameSession.id)
    )
    return _page(
        [(str(session), str(role)) for session, role in _one_more(rows, page, size).tuples()], size
    )


def groups_page(device_id: str, page: int, size: int) -> Page:
    """The device's groups: those it may change first, each kind the newest given first."""
    rows = (
        DeviceGroup.select(DeviceGroup.group, DeviceGroup.role)
        .where(DeviceGroup.device == device_id)
        .order_by(
            Case(None, [(DeviceGroup.role == EDIT, 0)], 1),
            DeviceGroup.given_at.desc(),
            DeviceGroup.group,
        )
    )
    return _page([(str(row.group_id), str(row.role)) for row in _one_more(rows, page, size)], size)


def _decks(device_id: str, game: str | None) -> SelectBase:
    """The deck profiles the device may change (of ``game``, when given): those it holds,
    the newest given first, and the decks of the groups it may change that it does not
    hold, by their last change (a group's deck is played with on another phone)."""
    held = DeviceDeck.select(
        DeviceDeck.profile.alias("profile"), DeviceDeck.given_at.alias("given")
    ).where(DeviceDeck.device == device_id)
    holds = DeviceDeck.select(DeviceDeck.profile).where(DeviceDeck.device == device_id)
    of_groups = (
        DeckProfile.select(DeckProfile.id.alias("profile"), DeckProfile.updated_at.alias("given"))
        .join(DeviceGroup, on=DeviceGroup.group == DeckProfile.group)
        .where(
            (DeviceGroup.device == device_id)
            & (DeviceGroup.role == EDIT)
            & DeckProfile.id.not_in(holds)
        )
    )
    if game is not None:
        held = held.join(DeckProfile).where(DeckProfile.game == game)
        of_groups = of_groups.where(DeckProfile.game == game)
    both = held.union_all(of_groups)
    return both.order_by(SQL("given").desc(), SQL("profile"))


def decks_page(device_id: str, page: int, size: int, game: str | None = None) -> Page:
    """A page of the deck profiles the device may change, the newest first."""
    rows = _one_more(_decks(device_id, game), page, size).tuples()
    return _page([(str(profile), EDIT) for profile, _ in rows], size)


def all_decks(device_id: str, game: str) -> list[str]:
    """Every deck profile of ``game`` the device may change, the newest first: a new
    session may be dealt any of them, however many the phone holds."""
    return [str(profile) for profile, _ in _decks(device_id, game).tuples()]


def all_changeable_groups(device_id: str) -> list[str]:
    """Every group the device may change, the newest given first: a new session may be
    played in any of them."""
    rows = (
        DeviceGroup.select(DeviceGroup.group)
        .where((DeviceGroup.device == device_id) & (DeviceGroup.role == EDIT))
        .order_by(DeviceGroup.given_at.desc(), DeviceGroup.group)
    )
    return [str(row.group_id) for row in rows]


def _one_more(rows: SelectBase, page: int, size: int) -> SelectBase:
    """The rows of page ``page`` (from 1) of ``size`` rows, and the first of the next if any."""
    return rows.limit(size + 1).offset((page - 1) * size)


def _page(rows: list[tuple[str, str]], size: int) -> Page:
    """A page from its rows as read: one more than ``size`` when more follow."""
    return Page(dict(rows[:size]), len(rows) > size)
