"""Deck profiles: the sizes printed on the cards of one physical deck.

A profile belongs to a game whose cards carry printed sizes (see
``house_sizes.SizedCards``; Yadokarick's house sizes). The rule sheet gives no
size table, so the table tells the app a card's size
the first time it meets the card. A session's events carry those sizes (its
replay never depends on a profile); the profile is the app's memory of them
across sessions: it pre-fills sizes, learns every size a session records, and
can be edited on its own page.

A profile's link lets anyone read its sizes; changing them takes a key: the
profile's own (held by the phone that made it and handed on by its "edit
this deck" link) or the edit key of a session that plays with it.

A profile may be a group's: made for the group, or the first deck one of its
sessions played with. The group's deck is then every member's: each phone
that may change the group may play with it and change it, as its group key
may in the API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper import keys
from scorekeeper.db import write_transaction
from scorekeeper.games import GAMES
from scorekeeper.games.base import IllegalAction, parse_name
from scorekeeper.games.cards import Card
from scorekeeper.games.engine import Game
from scorekeeper.games.house_sizes import SizedCards, parse_size
from scorekeeper.games.words import Text, phrase
from scorekeeper.models import NAME_MAX_LENGTH, DeckProfile, GameSession, SessionDeck, utc_now

MY_DECK = phrase("deck.default-name", "My {game} deck")
# What a deck profile refuses.
NOT_SIZED = phrase("deck.not-sized", "{game} is not played with a deck profile.")
THE_NAME = phrase("deck.label-name", "The deck's name")
NAME_NEEDED = phrase("deck.name-needed", "Give the deck a name, like “Blue box”.")
SIZES_NOT_A_MAP = phrase("deck.sizes-not-a-map", "The sizes must map cards to numbers.")
SIZE_DIFFERS = phrase(
    "deck.size-differs",
    "{card} has size {known} in the deck profile “{profile}”; you entered {given}. If the "
    "card says {given}, fix it on the deck's page first.",
)
NO_SUCH_PROFILE = phrase(
    "deck.no-such-profile", "That deck profile does not exist; choose another."
)()
KEY_NEEDED = phrase(
    "deck.key-needed",
    "To play with a deck profile, send its key as “deck_key” (the “deck_profile.edit_key” "
    "the session that made it was answered with), or start a session of the group whose "
    "deck it is.",
)
OTHER_GAME = phrase(
    "deck.other-game", "That deck profile is a {deck_game} deck; choose one of {game}."
)


def default_name(game: Game) -> Text:
    """The name of a deck profile nobody named, in the words of whoever makes it."""
    return MY_DECK(game=game.title)


def sized_games() -> list[Game]:
    """The games played with a deck profile, in the registry's order."""
    return [game for game in GAMES.values() if game.sized_cards is not None]


def sized_cards(slug: str) -> SizedCards:
    """The printed sizes of game ``slug``'s cards, which its deck profiles describe."""
    sized = GAMES[slug].sized_cards
    if sized is None:
        raise IllegalAction(NOT_SIZED(game=GAMES[slug].title), "game")
    return sized


class ProfileNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Profile:
    id: str
    # The slug of the game whose deck it describes.
    game: str
    name: str
    # Card as written ("green 25") → its printed size; only known cards.
    sizes: Mapping[str, int]
    # The right to change it: never shown to someone who only watches.
    edit_key: str
    # The id of the group whose deck it is, if any.
    group: str | None = None

    def size_of(self, card: Card) -> int | None:
        return self.sizes.get(str(card))

    @property
    def sized_cards(self) -> SizedCards:
        return sized_cards(self.game)

    @property
    def game_title(self) -> str:
        return GAMES[self.game].title


def check_name(raw: object, field: str = "name") -> str:
    name = parse_name(raw, THE_NAME(), field, NAME_MAX_LENGTH) if raw is not None else ""
    if not name:
        raise IllegalAction(NAME_NEEDED(), field)
    return name


def check_sizes(raw: object, sized: SizedCards, field: str = "sizes") -> dict[str, int]:
    """Sizes as given ({"green 25": "3", …}; blank = unknown), checked and written tidily."""
    if not isinstance(raw, Mapping):
        raise IllegalAction(SIZES_NOT_A_MAP(), field)
    sizes: dict[str, int] = {}
    for key, value in raw.items():
        card = sized.deck.parse(key, f"{field}.{str(key)[:20]}")
        size = parse_size(value, card, f"{field}.{card}")
        if size is not None:
            sizes[str(card)] = size
    return dict(sorted(sizes.items(), key=lambda item: sized.deck.parse(item[0], field)))


def with_known_size(
    profile: Profile, session_sizes: Mapping[Card, int], data: Mapping[str, object]
) -> Mapping[str, object]:
    """``data`` (an action as sent) with the size the profile knows for its card.

    A later session with the deck needs no size, as the pages never ask for
    one; a size that contradicts the profile is refused (fix the profile on its
    page if the card really says otherwise). Cards the session knows already,
    and actions the engine will refuse anyway, are left to the engine.
    """
    sized = profile.sized_cards
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in sized.actions:
        return data
    try:
        card = sized.deck.parse(data.get("card"), "card")
    except IllegalAction:
        return data
    known = profile.size_of(card)
    if known is None or card in session_sizes:
        return data
    given = parse_size(data.get("size"), card)
    if given is None:
        return {**data, "size": known}
    if given != known:
        refusal = SIZE_DIFFERS(card=card, known=known, profile=profile.name, given=given)
        raise IllegalAction(refusal, "size")
    return data


def _profile(row: DeckProfile) -> Profile:
    return Profile(
        str(row.id),
        str(row.game),
        str(row.name),
        dict(row.sizes or {}),
        str(row.edit_key),
        None if row.group_id is None else str(row.group_id),
    )


def create(game: Game, name: object, sizes: object = None, group: str | None = None) -> Profile:
    """A new profile, the group ``group``'s when given."""
    with write_transaction():
        return insert(game, name, sizes, group=group)


def insert(
    game: Game,
    name: object,
    sizes: object = None,
    field: str = "name",
    sizes_field: str = "sizes",
    group: str | None = None,
) -> Profile:
    """A new profile of ``game``'s deck (the group ``group``'s when given), inside the
    caller's write transaction."""
    sized = sized_cards(game.slug)
    checked_name = check_name(name, field)
    checked_sizes = check_sizes(sizes or {}, sized, sizes_field)
    row = DeckProfile.create(
        id=keys.new_id(),
        edit_key=keys.new_key(),
        game=game.slug,
        name=checked_name,
        sizes=checked_sizes,
        group=group,
    )
    return _profile(row)


def load(profile_id: str) -> Profile:
    row = _row(profile_id)
    if row is None:
        raise ProfileNotFound(profile_id)
    return _profile(row)


def find(profile_ids: Sequence[str], game: str | None = None) -> list[Profile]:
    """The profiles with these ids that exist (of ``game``, when given), in the order given."""
    if not profile_ids:
        return []
    query = DeckProfile.select().where(DeckProfile.id.in_(profile_ids))
    if game is not None:
        query = query.where(DeckProfile.game == game)
    rows = {row.id: row for row in query}
    return [_profile(rows[pid]) for pid in profile_ids if pid in rows]


def update(profile_id: str, name: object, sizes: object) -> Profile:
    """Rename a profile and replace its sizes (a blank size forgets that card)."""
    checked_name = check_name(name)
    checked_sizes = check_sizes(sizes, load(profile_id).sized_cards)
    with write_transaction():
        changed = (
            DeckProfile.update(name=checked_name, sizes=checked_sizes, updated_at=utc_now())
            .where(DeckProfile.id == profile_id)
            .execute()
        )
    if not changed:
        raise ProfileNotFound(profile_id)
    return load(profile_id)


def _row(profile_id: str) -> DeckProfile | None:
    """The stored profile, or None; an id of the wrong shape is not looked up."""
    return DeckProfile.get_or_none(DeckProfile.id == profile_id) if keys.is_id(profile_id) else None


def key_matches(profile_id: str, key: object) -> bool:
    row = _row(profile_id)
    return row is not None and keys.same_key(str(row.edit_key), key)


def check_key(profile_id: str, key: object, group: str | None = None) -> None:
    """IllegalAction unless ``key`` is the key of the existing profile ``profile_id``, or
    the profile is the deck of ``group``, the group whose key the caller has checked."""
    row = _row(profile_id)
    if row is None:
        raise IllegalAction(NO_SUCH_PROFILE, "deck_profile")
    if group is not None and row.group_id == group:
        return
    if not keys.same_key(str(row.edit_key), key):
        # The profile's id is no secret (watchers see it): playing with it changes it.
        raise IllegalAction(KEY_NEEDED(), "deck_key")


def of_group(group_id: str) -> list[Profile]:
    """The group's deck profiles, the latest changed first."""
    rows = (
        DeckProfile.select()
        .where(DeckProfile.group == group_id)
        .order_by(DeckProfile.updated_at.desc(), DeckProfile.id)
    )
    return [_profile(row) for row in rows]


def give_to_group(session_id: str, group_id: str) -> None:
    """The deck the group's session ``session_id`` plays with becomes the group's, unless
    it is a group's already (inside the write transaction): the table's deck is known to
    every phone at the table from now on."""
    played_with = SessionDeck.select(SessionDeck.profile).where(SessionDeck.session == session_id)
    DeckProfile.update(group=group_id).where(
        DeckProfile.id.in_(played_with) & DeckProfile.group.is_null()
    ).execute()


def of_sessions(session_ids: Sequence[str]) -> set[str]:
    """The ids of the profiles the sessions ``session_ids`` play with."""
    if not session_ids:
        return set()
    rows = SessionDeck.select(SessionDeck.profile).where(SessionDeck.session.in_(session_ids))
    return {str(row.profile_id) for row in rows}


def of_session(session_id: str) -> Profile | None:
    row = DeckProfile.select().join(SessionDeck).where(SessionDeck.session == session_id).first()
    return None if row is None else _profile(row)


def link(session: GameSession, profile_id: str) -> None:
    """Play ``session`` with a profile (inside the store's write transaction)."""
    row = _row(profile_id)
    if row is None:
        raise IllegalAction(NO_SUCH_PROFILE, "deck_profile")
    if row.game != session.game:
        refusal = OTHER_GAME(deck_game=GAMES[row.game].title, game=GAMES[session.game].title)
        raise IllegalAction(refusal, "deck_profile")
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
        row.sizes = check_sizes(learned, sized_cards(row.game))
        row.updated_at = utc_now()
        row.save()
