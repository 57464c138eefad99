"""Trick play: the card-by-card round shared by the trick games that enter every card.

Yokai Septet and Cryptruck both take a round's cards one by one: the seat
after the last one plays next, following the led colour is watched
(``follow``), a full trick is judged by the game's own trick rule
(``yokai_septet.cards``, ``cryptruck.cards``) and its winner leads
the next. This module keeps those mechanics and the sentences the games share;
what differs comes in as arguments: the seats (the players), the trick rule
and its trump, the name of the face-up card. Each game keeps its own state,
its checks before a card and what a trick, a round and a revoke penalty score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, Protocol

from pydantic import BeforeValidator, ValidationInfo, with_config

from scorekeeper.games import follow
from scorekeeper.games.actions import ACTION_CONFIG, Ask, CardText, game_fact
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import Card, Deck, TrickWinner


def _game_card(raw: object, info: ValidationInfo) -> Card:
    deck: Deck = game_fact(info, "deck")
    return deck.parse(raw, "card")


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Play:
    """The next card of the trick in progress, by the seat whose turn it is.

    The card is of the game's deck (``deck`` in its ActionSet's context).
    """

    type: Literal["play"] = field(default="play", kw_only=True, repr=False)
    card: Annotated[CardText, Ask("the card played"), BeforeValidator(_game_card)]


# A game's trick rule: (trump, the cards in play order, the players' names) -> who takes it.
TrickRule = Callable[[object, Sequence[object], Sequence[str]], TrickWinner]


@dataclass(frozen=True)
class CompletedTrick:
    """A finished trick: cards in play order from the leader, the winning seat and why."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    rule: str
    explanation: str

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % len(self.cards)

    def card_of(self, seat: int) -> Card:
        """The card ``seat`` played in this trick."""
        return self.cards[(seat - self.leader) % len(self.cards)]


class TrickRound(Protocol):
    """A game's round in progress, as the trick mechanics read it.

    ``leader`` leads the trick in progress (None until someone leads), whose
    cards so far are ``current``; ``voids`` are the (seat, colour) pairs a
    seat showed it lacks this round.
    """

    @property
    def number(self) -> int: ...

    @property
    def tricks(self) -> Sequence[CompletedTrick]: ...

    @property
    def current(self) -> tuple[Card, ...]: ...

    @property
    def leader(self) -> int | None: ...

    @property
    def voids(self) -> follow.Voids: ...

    @property
    def trick_number(self) -> int: ...


def next_seat(rnd: TrickRound, seats: int) -> int | None:
    """The seat to play the next card of the trick in progress (None: nobody leads yet)."""
    if rnd.leader is None:
        return None
    return (rnd.leader + len(rnd.current)) % seats


def turn_text(rnd: TrickRound, players: Sequence[str]) -> str:
    """Who plays next, when a card is due: "Ann plays next." or "Ann leads trick 3."."""
    seat = next_seat(rnd, len(players))
    assert seat is not None
    if rnd.current:
        return f"{players[seat]} plays next."
    return f"{players[seat]} leads trick {rnd.trick_number}."


def plays(rnd: TrickRound, seats: int) -> list[tuple[Card, int, int]]:
    """Every card played this round so far, in play order: (card, trick number, seat)."""
    played = [
        (card, trick.number, trick.seat_of(index))
        for trick in rnd.tricks
        for index, card in enumerate(trick.cards)
    ]
    if rnd.leader is not None:
        played.extend(
            (card, rnd.trick_number, (rnd.leader + index) % seats)
            for index, card in enumerate(rnd.current)
        )
    return played


def played_in(trick: int, name: str) -> str:
    """ "played in trick 3 (by Ann)"."""
    return f"played in trick {trick} (by {name})"


def already_played(card: Card, trick: int, name: str, field: str) -> IllegalAction:
    """The refusal of a card already played this round, saying where."""
    return IllegalAction(
        f"{card} was {played_in(trick, name)}; each card is played once a round.", field
    )


def turn_up_first(card: str, number: int, after_round: bool, field: str) -> IllegalAction:
    """Why round ``number``'s cards cannot come yet: its face-up ``card`` is not turned up."""
    over = f": round {number - 1} is over" if after_round else ""
    return IllegalAction(f"Turn up the {card} of round {number} first{over}.", field)


@dataclass(frozen=True)
class Played:
    """A card added to the trick in progress.

    ``current`` is the trick so far, ``voids`` and ``flags`` what following
    the led colour made of them; ``sentences`` say the play (only its revoke,
    if any, when it ends the trick: the trick's ruling follows).
    """

    current: tuple[Card, ...]
    voids: follow.Voids
    flags: tuple[follow.RevokeFlag, ...]
    sentences: tuple[str, ...]
    ends_trick: bool

    def ruling(self, next_text: str) -> str:
        """The ruling of a play that leaves the trick open: the play, then what comes next."""
        return " ".join((*self.sentences, next_text))


def play(
    rnd: TrickRound, flags: tuple[follow.RevokeFlag, ...], players: Sequence[str], card: Card
) -> Played:
    """The seat whose turn it is plays ``card``, already checked, into the trick in progress."""
    seat = next_seat(rnd, len(players))
    assert seat is not None
    current = (*rnd.current, card)
    followed = follow.follow(
        rnd.voids,
        flags,
        rnd.tricks,
        round_number=rnd.number,
        trick_number=rnd.trick_number,
        seat=seat,
        card=card,
        led=current[0].colour,
    )
    ends_trick = len(current) == len(players)
    sentences = follow.play_sentences(players[seat], card, followed, ends_trick=ends_trick)
    return Played(current, followed.voids, followed.flags, tuple(sentences), ends_trick)


def judge(
    rnd: TrickRound, players: Sequence[str], rule: TrickRule, trump: str
) -> tuple[int, TrickWinner]:
    """The full trick in progress judged by the game's ``rule``: the winning seat, and why."""
    leader = rnd.leader
    assert leader is not None
    seats = len(players)
    names = [players[(leader + index) % seats] for index in range(seats)]
    judged = rule(trump, [str(card) for card in rnd.current], names)
    return (leader + judged.winner) % seats, judged


def taken_text(number: int, name: str, judged: TrickWinner) -> str:
    """ "Trick 3: Ann takes it with red 9. <why>": what every completed trick says first."""
    return f"Trick {number}: {name} takes it with {judged.card}. {judged.explanation}"
