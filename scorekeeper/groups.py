"""Groups: friends who play together, their players and the sessions they played.

Like a deck profile, a group needs no account: its unguessable id is the link
that shows it (read only), and its edit key, held by the phones that made or
joined it, is the right to change its players and to start its sessions. A
session started from a group seats its players: each seat keeps a copy of its
player's name, so renaming or removing a player later leaves the past sessions
as they were played.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeGuard

from peewee import IntegrityError

from scorekeeper import decks, group_totals, keys, ratings
from scorekeeper.db import write_transaction
from scorekeeper.games.base import IllegalAction, is_digits, parse_name
from scorekeeper.games.engine import Game
from scorekeeper.games.words import phrase
from scorekeeper.models import NAME_MAX_LENGTH, GameSession, GroupPlayer, PlayerGroup, Seat, utc_now

# What a group's refusals say (the pages read them in their reader's language).
NO_SUCH_GROUP = phrase(
    "group.no-such-group", "No group has this link. Check the address, or make a new group."
)()
GROUP_NAME = phrase("group.name-label", "The group's name")
PLAYER_NAME = phrase("group.player-name-label", "The player's name")
NAME_THE_GROUP = phrase("group.name-missing", "Give the group a name, like “Friday night”.")
NAME_THE_PLAYER = phrase("group.player-name-missing", "Give the player a name.")
COLOUR_SHAPED = phrase(
    "group.colour-shape", "The colour must be written #rrggbb, like #1f77b4, or left empty."
)
EMOJI_NOT_TEXT = phrase("group.emoji-not-text", "The emoji must be text.")
EMOJI_TOO_LONG = phrase(
    "group.emoji-too-long",
    "The emoji is {length} characters long; one emoji takes at most {maximum}.",
)
ONE_EMOJI = phrase("group.one-emoji", "Choose one emoji, like 🦊, or leave it empty.")
SAME_NAME = phrase(
    "group.same-name-twice",
    "The group already has a player called {name}; give each player their own name.",
)
TOO_MANY_PLAYERS = phrase("group.too-many-players", "A group has at most {maximum} players.")
PLAYERS_A_LIST = phrase("group.players-not-a-list", "“players” must be a list of names.")
NO_PLAYER_ID = phrase("group.no-such-player-id", "No player has the id {id}.")
OTHER_GROUP = phrase(
    "group.player-of-another-group", "{player} plays in another group; choose a player of this one."
)
NOT_THE_GROUP_S = phrase("group.not-a-player-of-group", "No player of {group} has the id {id}.")
IDS_A_LIST = phrase(
    "group.seats-not-a-list", "“{field}” must be a list of player ids in seat order."
)
NEEDS_PLAYERS = phrase("group.needs-players", "{game} needs {count} players; you chose {chosen}.")
NEEDS_PLAYERS_RANGE = phrase(
    "group.needs-players-range", "{game} needs {fewest} to {most} players; you chose {chosen}."
)
CHOSEN_TWICE = phrase(
    "group.player-chosen-twice", "{player} is chosen twice; each player takes one seat."
)
REMOVED_MEANWHILE = phrase(
    "group.player-removed-meanwhile", "A player was removed from the group meanwhile; choose again."
)
COLOUR_SHAPE = re.compile(r"#[0-9a-f]{6}")
EMOJI_MAX_LENGTH = 16
# A group made on a page names its first players in this many inputs; more are added later.
FIRST_PLAYERS = 8
# More than any table seats: a group's page and its seating stay small.
MAX_PLAYERS = 50


class GroupNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    # "#rrggbb", or "" for none.
    colour: str
    # One emoji, or "" for none.
    emoji: str


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    players: tuple[Player, ...]
    # The right to change it: never shown to a device that only watches.
    edit_key: str

    def player(self, player_id: int) -> Player | None:
        return next((player for player in self.players if player.id == player_id), None)


@dataclass(frozen=True)
class Seating:
    """Players of one group in seat order, checked: what a session started from it seats."""

    group_id: str
    players: tuple[Player, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)


def check_group_name(raw: object, field: str = "name") -> str:
    name = parse_name(raw, GROUP_NAME(), field, NAME_MAX_LENGTH) if raw is not None else ""
    if not name:
        raise IllegalAction(NAME_THE_GROUP(), field)
    return name


def check_player_name(raw: object, field: str = "name") -> str:
    name = parse_name(raw, PLAYER_NAME(), field, NAME_MAX_LENGTH) if raw is not None else ""
    if not name:
        raise IllegalAction(NAME_THE_PLAYER(), field)
    return name


def check_colour(raw: object, field: str = "colour") -> str:
    """A colour as "#rrggbb" (any case, written lower case), or "" for none."""
    colour = raw.strip().lower() if isinstance(raw, str) else raw
    if colour != "" and not (isinstance(colour, str) and COLOUR_SHAPE.fullmatch(colour)):
        raise IllegalAction(COLOUR_SHAPED(), field)
    return str(colour)


# What an emoji is made of: symbols, their modifiers (skin tones), the joiner and the
# variation selectors that combine several into one, and keycap marks.
_EMOJI_PARTS = {"So", "Sk", "Mn", "Me", "Cf"}


def check_emoji(raw: object, field: str = "emoji") -> str:
    """One emoji (a symbol, possibly joined from several), or "" for none."""
    if not isinstance(raw, str):
        raise IllegalAction(EMOJI_NOT_TEXT(), field)
    emoji = raw.strip()
    if len(emoji) > EMOJI_MAX_LENGTH:
        raise IllegalAction(EMOJI_TOO_LONG(length=len(emoji), maximum=EMOJI_MAX_LENGTH), field)
    categories = {unicodedata.category(char) for char in emoji}
    if emoji and ("So" not in categories or not categories <= _EMOJI_PARTS):
        raise IllegalAction(ONE_EMOJI(), field)
    return emoji


def _player(row: GroupPlayer) -> Player:
    return Player(int(row.id), str(row.name), str(row.colour), str(row.emoji))


def _same_name_twice(name: str, field: str) -> IllegalAction:
    return IllegalAction(SAME_NAME(name=name), field)


def _check_new_names(names: Sequence[str], taken: Sequence[str], field: str) -> None:
    """Refuse a name twice (ignoring case, as seat names are), here or among ``taken``."""
    seen = {name.casefold() for name in taken}
    for index, name in enumerate(names):
        if name.casefold() in seen:
            raise _same_name_twice(name, field.format(index=index))
        seen.add(name.casefold())


def _check_room(players: int, field: str) -> None:
    if players > MAX_PLAYERS:
        raise IllegalAction(TOO_MANY_PLAYERS(maximum=MAX_PLAYERS), field)


def create(name: object, player_names: object) -> Group:
    """A new group with its first players (names in the order given, blanks skipped)."""
    checked_name = check_group_name(name)
    if not isinstance(player_names, list):
        raise IllegalAction(PLAYERS_A_LIST(), "players")
    names = [
        check_player_name(raw, f"players.{index}")
        for index, raw in enumerate(player_names)
        if not (isinstance(raw, str) and not raw.strip())
    ]
    _check_new_names(names, (), "players.{index}")
    _check_room(len(names), "players")
    group_id = keys.new_id()
    with write_transaction():
        PlayerGroup.create(id=group_id, edit_key=keys.new_key(), name=checked_name)
        if names:
            GroupPlayer.insert_many([{"group": group_id, "name": n} for n in names]).execute()
    return load(group_id)


def _row(group_id: str) -> PlayerGroup | None:
    """The stored group, or None; an id of the wrong shape is not looked up."""
    return PlayerGroup.get_or_none(PlayerGroup.id == group_id) if keys.is_id(group_id) else None


def _players(group_ids: Sequence[str]) -> dict[str, list[Player]]:
    """Each group's players, in the order they joined it."""
    players: dict[str, list[Player]] = {}
    rows = GroupPlayer.select().where(GroupPlayer.group.in_(group_ids)).order_by(GroupPlayer.id)
    for row in rows:
        players.setdefault(str(row.group_id), []).append(_player(row))
    return players


def load(group_id: str) -> Group:
    row = _row(group_id)
    if row is None:
        raise GroupNotFound(group_id)
    players = _players([group_id]).get(group_id, [])
    return Group(str(row.id), str(row.name), tuple(players), str(row.edit_key))


def of_session(session_id: str) -> tuple[str, str] | None:
    """The id and name of the group a session was played by (None: by no group)."""
    row = (
        PlayerGroup.select(PlayerGroup.id, PlayerGroup.name)
        .join(GameSession, on=GameSession.group == PlayerGroup.id)
        .where(GameSession.id == session_id)
        .first()
    )
    return None if row is None else (str(row.id), str(row.name))


def find(group_ids: Sequence[str]) -> list[Group]:
    """The groups with these ids that exist, in the order given."""
    if not group_ids:
        return []
    rows = {row.id: row for row in PlayerGroup.select().where(PlayerGroup.id.in_(group_ids))}
    players = _players(list(rows))
    return [
        Group(gid, str(rows[gid].name), tuple(players.get(gid, [])), str(rows[gid].edit_key))
        for gid in group_ids
        if gid in rows
    ]


def key_matches(group_id: str, key: object) -> bool:
    row = _row(group_id)
    return row is not None and keys.same_key(str(row.edit_key), key)


def _touch(group_id: str) -> None:
    PlayerGroup.update(updated_at=utc_now()).where(PlayerGroup.id == group_id).execute()


def add_player(group_id: str, name: object, colour: object = "", emoji: object = "") -> Player:
    checked = (check_player_name(name), check_colour(colour), check_emoji(emoji))
    try:
        with write_transaction():
            group = load(group_id)
            _check_new_names(checked[:1], [p.name for p in group.players], "name")
            _check_room(len(group.players) + 1, "name")
            row = GroupPlayer.create(
                group=group_id, name=checked[0], colour=checked[1], emoji=checked[2]
            )
            _touch(group_id)
    except IntegrityError:
        # Another phone added the same name at the same moment.
        raise _same_name_twice(checked[0], "name") from None
    return _player(row)


def is_player_id(raw: object) -> TypeGuard[int]:
    # JSON's true is no id, though Python counts it as the int 1.
    return isinstance(raw, int) and not isinstance(raw, bool) and 0 < raw < 2**31


def player_id_as_sent(raw: str) -> int | str:
    """A player id as a form or an address sends it: a number when it is one (the checks
    of this module say why anything else is no player of the group)."""
    return int(raw) if is_digits(raw) and len(raw) < 10 else raw[:20]


def _player_row(group_id: str, player_id: object, field: str = "player") -> GroupPlayer:
    """The group's player ``player_id`` (an id as sent), or IllegalAction naming ``field``."""
    row = GroupPlayer.get_or_none(GroupPlayer.id == player_id) if is_player_id(player_id) else None
    if row is None:
        raise IllegalAction(NO_PLAYER_ID(id=str(player_id)[:20]), field)
    if row.group_id != group_id:
        raise IllegalAction(OTHER_GROUP(player=str(row.name)), field)
    return row


def change_player(
    group_id: str,
    player_id: object,
    name: object = None,
    colour: object = None,
    emoji: object = None,
) -> Player:
    """Rename, recolour or change the emoji of a player (None: leave it as it is).

    Their past sessions keep the name each seat was played under.
    """
    try:
        with write_transaction():
            row = _player_row(group_id, player_id)
            if name is not None:
                row.name = check_player_name(name)
                others = GroupPlayer.select(GroupPlayer.name).where(
                    (GroupPlayer.group == group_id) & (GroupPlayer.id != row.id)
                )
                _check_new_names([row.name], [other.name for other in others], "name")
            if colour is not None:
                row.colour = check_colour(colour)
            if emoji is not None:
                row.emoji = check_emoji(emoji)
            row.save()
            _touch(group_id)
    except IntegrityError:
        raise _same_name_twice(str(name), "name") from None
    return _player(row)


def remove_player(group_id: str, player_id: object) -> Player:
    """Take a player out of the group; the seats they played keep their name."""
    with write_transaction():
        row = _player_row(group_id, player_id)
        removed = _player(row)
        # The group's row first, as a write to its totals locks it first (group_totals.lock):
        # then the player's row and seats.
        _touch(group_id)
        # The seats' link to the player is set to NULL by the database (ON DELETE SET NULL),
        # and the player's totals go (ON DELETE CASCADE): their seats count for no one.
        row.delete_instance()
        # Their seats are no one's now: the others' ratings met a newcomer there instead.
        ratings.rate_group(group_id)
    return removed


def player_of(group: Group, player_id: object, field: str) -> Player:
    """The player ``player_id`` (an id as sent) of ``group``, or IllegalAction naming
    ``field`` and saying why: no such player, or one of another group."""
    player = group.player(player_id) if is_player_id(player_id) else None
    if player is None:
        _player_row(group.id, player_id, field)  # says why: unknown, or another group's
        raise IllegalAction(NOT_THE_GROUP_S(group=group.name, id=str(player_id)), field)
    return player


def seating(group: Group, player_ids: object, game: Game, field: str = "players") -> Seating:
    """The players ``player_ids`` (ids in seat order) of ``group``, checked for ``game``."""
    if not isinstance(player_ids, list):
        raise IllegalAction(IDS_A_LIST(field=field), field)
    if not game.min_players <= len(player_ids) <= game.max_players:
        fewest, most, chosen = game.min_players, game.max_players, len(player_ids)
        raise IllegalAction(
            NEEDS_PLAYERS(game=game.title, count=fewest, chosen=chosen)
            if fewest == most
            else NEEDS_PLAYERS_RANGE(game=game.title, fewest=fewest, most=most, chosen=chosen),
            field,
        )
    players: list[Player] = []
    for index, player_id in enumerate(player_ids):
        where = f"{field}.{index}"
        player = player_of(group, player_id, where)
        if player in players:
            raise IllegalAction(CHOSEN_TWICE(player=player.name), where)
        players.append(player)
    return Seating(group.id, tuple(players))


def seat(session: GameSession, seated: Seating) -> None:
    """Make ``session`` the group's, each seat its player's (inside the store's transaction).

    The players were checked before the transaction: one removed since then
    refuses the session, as its seat would name a player the group no longer has.
    """
    ids = [player.id for player in seated.players]
    still_there = (
        GroupPlayer.select()
        .where((GroupPlayer.group == seated.group_id) & GroupPlayer.id.in_(ids))
        .count()
    )
    if still_there != len(ids):
        raise IllegalAction(REMOVED_MEANWHILE(), "players")
    link_seats(session.id, seated.group_id, ids)
    _touch(seated.group_id)


def seat_again(played_id: str, session: GameSession, order: Sequence[int]) -> None:
    """Make ``session``, the next game after session ``played_id``, the same group's, each
    seat the player of seat ``order[position]`` of the game played (inside the store's
    transaction). A session of no group stays of none; a player removed since is no one's."""
    played = GameSession.select(GameSession.group).where(GameSession.id == played_id).get()
    if played.group_id is None:
        return
    players = {
        row.position: row.player_id
        for row in Seat.select(Seat.position, Seat.player).where(Seat.session == played_id)
    }
    link_seats(session.id, played.group_id, [players.get(seat) for seat in order])
    _touch(played.group_id)


def link_seats(session_id: str, group_id: str, players: Sequence[int | None]) -> None:
    """Make a session of no group yet the group's, each seat the player at its position in
    ``players`` (None: no player's), and the deck it plays with the group's if no group's
    yet, inside the caller's transaction. A finished one (an import's) counts in the
    group's totals from now on."""
    GameSession.update(group=group_id).where(GameSession.id == session_id).execute()
    decks.give_to_group(session_id, group_id)
    for position, player in enumerate(players):
        if player is not None:
            Seat.update(player=player).where(
                (Seat.session == session_id) & (Seat.position == position)
            ).execute()
    ended = group_totals.counted(session_id)
    if ended is not None:
        group_totals.put_in(ended)


def names_used(session_ids: Sequence[str]) -> list[str]:
    """The seat names of these sessions, each once (ignoring case, as last written),
    alphabetical: what a phone suggests when naming seats by hand."""
    if not session_ids:
        return []
    names: dict[str, str] = {}
    newest_first = Seat.select(Seat.name).where(Seat.session.in_(session_ids)).order_by(-Seat.id)
    for row in newest_first:
        names.setdefault(str(row.name).casefold(), str(row.name))
    return sorted(names.values(), key=str.casefold)
