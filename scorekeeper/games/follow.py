"""Following the led colour, shared by the trick games that enter every card.

A seat that does not follow the led colour shows it is void in that colour
for the rest of the round. Playing that colour later in the round can only be
a revoke (or a mistyped card), so the play counts and a revoke flag opens for
the table to accept, with a penalty, or dismiss. Who the penalty goes to is
each game's own rule; this module keeps the voids, raises the flags, checks
how a flag is settled and writes the sentences the games share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, Protocol

from pydantic import BeforeValidator, Field, ValidationInfo, with_config

from scorekeeper.games.actions import ACTION_CONFIG, Ask, game_fact
from scorekeeper.games.base import IllegalAction, parse_whole_number
from scorekeeper.games.cards import Card, colour_words
from scorekeeper.games.records import evolve
from scorekeeper.games.words import THEN, Text, counted, phrase

# Sentences said one after the other: a ruling is its sentences, each a phrase
# (trickplay.sentences chains them).
# What following the led colour and settling a revoke flag say, in both trick games.
REVOKE_SEEN = phrase(
    "trick.revoke-seen",
    "Revoke? {name} did not follow {colour} in trick {failed} but now plays {card}.",
)
REVOKE_FLAG_OPEN = phrase(
    "trick.revoke-flag-open",
    "The play counts; revoke flag {number} is open for the table to accept (with a penalty) "
    "or dismiss.",
)
PLAYS = phrase("trick.plays", "{name} plays {card}.")
PLAYS_SHOWING_VOID = phrase(
    "trick.plays-showing-void", "{name} plays {card} and shows no {colour}."
)
SHOWS_VOID = phrase("trick.shows-void", "{name} shows no {colour}.")
ASK_FLAG = phrase("trick.ask-revoke-flag", "the revoke flag")
ASK_ACCEPT = phrase("trick.ask-revoke-accepted", "whether the revoke is accepted")
THE_FLAG = phrase("trick.label-revoke-flag", "The revoke flag")
THE_PENALTY = phrase("trick.label-penalty", "The penalty")
FLAG_INDEX = phrase(
    "trick.revoke-flag-index", "A revoke flag is given by its index, from 0; {number} is not one."
)
PENALTY_RANGE = phrase(
    "trick.revoke-penalty-range",
    "A revoke penalty is 0 to {maximum} points; you entered {number}.",
)
ACCEPT_TRUE_OR_FALSE = phrase("trick.revoke-accept-boolean", "accept must be true or false.")
LOG_ACCEPTED = counted(
    "trick.log-revoke-accepted",
    "revoke flag {flag} accepted, {count} point",
    "revoke flag {flag} accepted, {count} points",
)
LOG_DISMISSED = phrase("trick.log-revoke-dismissed", "revoke flag {flag} dismissed")
DISMISSED = phrase("trick.revoke-dismissed", "{what} dismissed: no penalty.")
ACCEPTED = phrase("trick.revoke-accepted", "{what} accepted: {outcome}.")
NO_FLAGS = phrase(
    "trick.no-revoke-flags",
    "There is no revoke flag {index}: this game has no revoke flags, counted from 0.",
)
NO_SUCH_FLAG = counted(
    "trick.no-such-revoke-flag",
    "There is no revoke flag {index}: this game has {count} revoke flag, counted from 0.",
    "There is no revoke flag {index}: this game has {count} revoke flags, counted from 0.",
)
ALREADY_ACCEPTED = phrase(
    "trick.revoke-already-accepted", "Revoke flag {index} (by {name}) was already accepted."
)
ALREADY_DISMISSED = phrase(
    "trick.revoke-already-dismissed", "Revoke flag {index} (by {name}) was already dismissed."
)
DISMISSED_WITH_PENALTY = phrase(
    "trick.revoke-dismissed-penalty",
    "A dismissed revoke carries no penalty: enter 0, or accept the revoke.",
)
REVOKE_BY = phrase("trick.revoke-by", "Revoke by {name} ({colour}, round {round}, trick {trick})")

FlagStatus = Literal["open", "accepted", "dismissed"]
Voids = frozenset[tuple[int, str]]


@dataclass(frozen=True)
class RevokeFlag:
    """A seat played a colour it had shown void in earlier that round.

    ``failed_trick`` is where it did not follow ``colour``; ``trick`` and
    ``card`` where it played that colour after all. ``settled_in``, set once
    the flag is accepted or dismissed, is the round its penalty counts in
    (Yokai Septet: the latest round begun when it was settled; Cryptruck: the
    flag's own round).
    """

    round: int
    seat: int
    colour: str
    failed_trick: int
    trick: int
    card: Card
    status: FlagStatus
    penalty: int
    settled_in: int | None = None


def _game_penalty(raw: object, info: ValidationInfo) -> int:
    return check_penalty(raw, game_fact(info, "max_penalty"))


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class ResolveRevoke:
    """Settle revoke flag ``flag`` (its index, from 0): accept with a penalty, or dismiss.

    The highest penalty is the game's (``max_penalty`` in its ActionSet's context).
    JSON: {"type": "revoke", "flag": 0, "accept": true, "penalty": 2}.
    """

    type: Literal["revoke"] = field(default="revoke", kw_only=True, repr=False)
    flag: Annotated[int, Field(ge=0), Ask(ASK_FLAG()), BeforeValidator(check_flag_index)]
    accept: Annotated[bool, Ask(ASK_ACCEPT()), BeforeValidator(check_accept)]
    penalty: Annotated[int, Field(ge=0), BeforeValidator(_game_penalty)] = 0


class PlayedTrick(Protocol):
    """A completed trick as the void tracking reads it: one card per seat, lead first."""

    @property
    def number(self) -> int: ...

    @property
    def cards(self) -> tuple[Card, ...]: ...

    def card_of(self, seat: int) -> Card: ...


# --- Following -------------------------------------------------------------------


@dataclass(frozen=True)
class Followed:
    """A play seen against the led colour: the round's voids and the game's flags after it.

    ``raised`` is the flag this play opened (the last of ``flags``), if any;
    ``shows_void`` says the seat did not follow ``led``.
    """

    voids: Voids
    flags: tuple[RevokeFlag, ...]
    raised: RevokeFlag | None
    led: str
    shows_void: bool


def follow(
    voids: Voids,
    flags: tuple[RevokeFlag, ...],
    tricks: Sequence[PlayedTrick],
    *,
    round_number: int,
    trick_number: int,
    seat: int,
    card: Card,
    led: str,
) -> Followed:
    """``seat`` plays ``card`` in a trick whose led colour is ``led`` (its own when it leads).

    A card of a colour the seat showed void in raises one flag and clears that
    void, so playing the colour again raises nothing until the seat fails to
    follow it once more; not following ``led`` makes the seat void in it.
    """
    left = set(voids)
    raised: RevokeFlag | None = None
    if (seat, card.colour) in left:
        failed = _failed_trick(flags, tricks, round_number, seat, card.colour)
        raised = RevokeFlag(round_number, seat, card.colour, failed, trick_number, card, "open", 0)
        flags = (*flags, raised)
        left.discard((seat, card.colour))
    shows_void = card.colour != led
    if shows_void:
        left.add((seat, led))
    return Followed(frozenset(left), flags, raised, led, shows_void)


def _failed_trick(
    flags: Sequence[RevokeFlag],
    tricks: Sequence[PlayedTrick],
    round_number: int,
    seat: int,
    colour: str,
) -> int:
    """The trick where ``seat`` first did not follow ``colour`` since its last flag for it."""
    after = max(
        (
            flag.trick
            for flag in flags
            if (flag.round, flag.seat, flag.colour) == (round_number, seat, colour)
        ),
        default=0,
    )
    for trick in tricks:
        if (
            trick.number > after
            and trick.cards[0].colour == colour
            and trick.card_of(seat).colour != colour
        ):
            return trick.number
    return after


def revoke_text(name: str, flag: RevokeFlag, number: int) -> Text:
    """The sentences that open revoke flag ``number``: its index, counted from 0 as the
    revoke action and the expected choices count it."""
    seen = REVOKE_SEEN(
        name=name, colour=colour_words(flag.colour), failed=flag.failed_trick, card=flag.card
    )
    return THEN(first=seen, second=REVOKE_FLAG_OPEN(number=number))


def play_sentences(name: str, card: Card, followed: Followed, *, ends_trick: bool) -> list[Text]:
    """What a play says: the revoke it raises, else the card (and a void it shows).

    The play that ends a trick says only its revoke: the trick's ruling follows.
    """
    sentences: list[Text] = []
    if followed.raised is not None:
        sentences.append(revoke_text(name, followed.raised, len(followed.flags) - 1))
    if ends_trick:
        return sentences
    led = colour_words(followed.led)
    if followed.raised is None:
        if followed.shows_void:
            sentences.append(PLAYS_SHOWING_VOID(name=name, card=card, colour=led))
        else:
            sentences.append(PLAYS(name=name, card=card))
    elif followed.shows_void:
        sentences.append(SHOWS_VOID(name=name, colour=led))
    return sentences


def open_flags(flags: Sequence[RevokeFlag]) -> list[tuple[int, RevokeFlag]]:
    """The revoke flags still to settle, with their index in ``flags``."""
    return [(index, flag) for index, flag in enumerate(flags) if flag.status == "open"]


@dataclass(frozen=True)
class OpenFlag:
    """A revoke flag still to settle, and its index: what a revoke action's ``flag`` names."""

    index: int
    flag: RevokeFlag


def open_flag_records(flags: Sequence[RevokeFlag]) -> tuple[OpenFlag, ...]:
    """``open_flags`` as records, as the API's state carries them (the flags are history)."""
    return tuple(OpenFlag(index, flag) for index, flag in open_flags(flags))


# --- Settling a flag -----------------------------------------------------------------


def check_flag_index(raw: object) -> int:
    number = parse_whole_number(raw, THE_FLAG(), "flag")
    if number < 0:
        raise IllegalAction(FLAG_INDEX(number=number), "flag")
    return number


def check_penalty(raw: object, maximum: int) -> int:
    number = parse_whole_number(raw, THE_PENALTY(), "penalty")
    if not 0 <= number <= maximum:
        raise IllegalAction(PENALTY_RANGE(maximum=maximum, number=number), "penalty")
    return number


def check_accept(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction(ACCEPT_TRUE_OR_FALSE(), "accept")
    return raw


def describe_resolve(action: ResolveRevoke) -> Text:
    """A short log line, no names; flags counted from 0, as the action counts them."""
    if action.accept:
        return LOG_ACCEPTED(flag=action.flag, count=action.penalty)
    return LOG_DISMISSED(flag=action.flag)


@dataclass(frozen=True)
class Settled:
    """A flag just settled: its index, the flag as settled, every flag after it."""

    index: int
    flag: RevokeFlag
    flags: tuple[RevokeFlag, ...]
    what: Text

    @property
    def accepted(self) -> bool:
        return self.flag.status == "accepted"

    def dismissed_text(self) -> Text:
        return DISMISSED(what=self.what)

    def accepted_text(self, outcome: Text) -> Text:
        """ "Revoke by Ann (...) accepted: <outcome>.": what the penalty does is the game's."""
        return ACCEPTED(what=self.what, outcome=outcome)


def settle(
    flags: tuple[RevokeFlag, ...],
    action: ResolveRevoke,
    players: Sequence[str],
    max_penalty: int,
    settled_in: int | None = None,
) -> Settled:
    """Accept or dismiss an open flag, or IllegalAction saying why not.

    The flag must exist and be open; a dismissed flag carries no penalty.
    ``settled_in`` is recorded on the flag as the round its penalty counts in
    (None: the flag's own round).
    """
    index = check_flag_index(action.flag)
    accept = check_accept(action.accept)
    penalty = check_penalty(action.penalty, max_penalty)
    if index >= len(flags):
        count = len(flags)
        if not count:
            raise IllegalAction(NO_FLAGS(index=index), "flag")
        raise IllegalAction(NO_SUCH_FLAG(index=index, count=count), "flag")
    flag = flags[index]
    if flag.status != "open":
        already = ALREADY_ACCEPTED if flag.status == "accepted" else ALREADY_DISMISSED
        raise IllegalAction(already(index=index, name=players[flag.seat]), "flag")
    if not accept and penalty:
        raise IllegalAction(DISMISSED_WITH_PENALTY(), "penalty")
    settled = evolve(
        flag,
        status="accepted" if accept else "dismissed",
        penalty=penalty if accept else 0,
        settled_in=flag.round if settled_in is None else settled_in,
    )
    what = REVOKE_BY(
        name=players[flag.seat],
        colour=colour_words(flag.colour),
        round=flag.round,
        trick=flag.trick,
    )
    return Settled(index, settled, (*flags[:index], settled, *flags[index + 1 :]), what)
