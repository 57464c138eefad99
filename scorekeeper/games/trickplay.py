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
from scorekeeper.games.cards import Card, Deck, TrickWinner, colour_words
from scorekeeper.games.words import THEN, Listing, Text, all_of, phrase

# What the trick games say alike: a turn, a card played twice, a trick taken and why.
CARD_PLAYED = phrase("trick.ask-card-played", "the card played")
PLAYS_NEXT = phrase("trick.plays-next", "{name} plays next.")
LEADS_TRICK = phrase("trick.leads-trick", "{name} leads trick {number}.")
PLAYED_IN = phrase("trick.played-in", "played in trick {trick} (by {name})")
ALREADY_PLAYED = phrase(
    "trick.already-played", "{card} was {where}; each card is played once a round."
)
TURN_UP_FIRST = phrase("trick.turn-up-first", "Turn up the {card} of round {number} first.")
TURN_UP_FIRST_OVER = phrase(
    "trick.turn-up-first-round-over",
    "Turn up the {card} of round {number} first: round {previous} is over.",
)
TAKEN = phrase("trick.taken", "Trick {number}: {name} takes it with {card}.")
# How a judge's explanation names a card played, with its seat's name when it has one.
CARD_BY = phrase("trick.card-by", "{card} ({name})")
NO_TRUMP_NOT_FOLLOWED = phrase(
    "trick.no-trump-not-followed",
    "No trump was played and no one followed {colour}, so the lead wins: {play}.",
)
NO_TRUMP_LED_SUIT = phrase(
    "trick.no-trump-led-suit",
    "No trump was played, so the highest card of the led suit ({colour}) wins: {play}.",
)
NO_TRUMP_LED_COLOUR = phrase(
    "trick.no-trump-led-colour",
    "No trump was played, so the highest card of the led colour ({colour}) wins: {play}.",
)
ONLY_TRUMP_LEADS = phrase("trick.only-trump-leads", "Trump wins: {play} is the only trump.")
ONLY_TRUMP_SUIT = phrase(
    "trick.only-trump-beats-suit", "Trump beats the led suit: {play} is the only trump."
)
ONLY_TRUMP_COLOUR = phrase(
    "trick.only-trump-beats-colour", "Trump beats the led colour: {play} is the only trump."
)
HIGHEST_TRUMP = phrase("trick.highest-trump", "The highest trump wins: {play} beats {beaten}.")


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
    card: Annotated[CardText, Ask(CARD_PLAYED()), BeforeValidator(_game_card)]


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


def sentences(*said: Text | str) -> Text | str:
    """Sentences said one after the other ("" says nothing): in English, joined by a space;
    a language writes its own ``sentence.then``. The first is what a headline shows
    (``words.first_sentence``)."""
    parts = [part for part in said if part]
    if not parts:
        return ""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = THEN(first=part, second=joined)
    return joined


def turn_text(rnd: TrickRound, players: Sequence[str]) -> Text:
    """Who plays next, when a card is due: "Ann plays next." or "Ann leads trick 3."."""
    seat = next_seat(rnd, len(players))
    assert seat is not None
    if rnd.current:
        return PLAYS_NEXT(name=players[seat])
    return LEADS_TRICK(name=players[seat], number=rnd.trick_number)


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


def played_in(trick: int, name: str) -> Text:
    """ "played in trick 3 (by Ann)"."""
    return PLAYED_IN(trick=trick, name=name)


def already_played(card: Card, trick: int, name: str, field: str) -> IllegalAction:
    """The refusal of a card already played this round, saying where."""
    return IllegalAction(ALREADY_PLAYED(card=card, where=played_in(trick, name)), field)


def turn_up_first(card: Text, number: int, after_round: bool, field: str) -> IllegalAction:
    """Why round ``number``'s cards cannot come yet: its face-up ``card`` is not turned up."""
    if after_round:
        return IllegalAction(
            TURN_UP_FIRST_OVER(card=card, number=number, previous=number - 1), field
        )
    return IllegalAction(TURN_UP_FIRST(card=card, number=number), field)


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
    sentences: tuple[Text, ...]
    ends_trick: bool

    def ruling(self, next_text: Text | str) -> Text | str:
        """The ruling of a play that leaves the trick open: the play, then what comes next."""
        return sentences(*self.sentences, next_text)


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


def taken_text(number: int, name: str, judged: TrickWinner) -> Text:
    """ "Trick 3: Ann takes it with red 9." and why: what every completed trick says first."""
    return THEN(first=TAKEN(number=number, name=name, card=judged.card), second=judged.explanation)


# --- Why a trick's winner takes it (the trick judges of Yokai Septet and Cryptruck) ------


class PlayLabels:
    """How an explanation names a played card: "red 6", or "red 6 (Cy)" with seat names."""

    def __init__(self, cards: Sequence[Card], names: tuple[str, ...] | None) -> None:
        self.cards = cards
        self.names = names

    def __call__(self, index: int) -> Card | Text:
        card = self.cards[index]
        return CARD_BY(card=card, name=self.names[index]) if self.names else card

    def all(self, indexes: Sequence[int]) -> Listing:
        return all_of(self(index) for index in indexes)


Noun = Literal["suit", "colour"]


def lead_suit_win(cards: Sequence[Card], label: PlayLabels, noun: Noun) -> TrickWinner:
    """No trump in the trick: the highest card of the led colour takes it."""
    led = cards[0].colour
    following = [i for i, card in enumerate(cards) if card.colour == led]
    winner = max(following, key=lambda i: cards[i].number)
    why: Text
    if len(following) == 1:
        why = NO_TRUMP_NOT_FOLLOWED(colour=colour_words(led), play=label(0))
    else:
        highest = NO_TRUMP_LED_SUIT if noun == "suit" else NO_TRUMP_LED_COLOUR
        why = highest(colour=colour_words(led), play=label(winner))
    return TrickWinner(winner, cards[winner], "lead-suit", why)


def only_trump_text(winner: int, label: PlayLabels, noun: Noun) -> Text:
    """Why the one trump in the trick takes it."""
    if winner == 0:
        return ONLY_TRUMP_LEADS(play=label(0))
    beats = ONLY_TRUMP_SUIT if noun == "suit" else ONLY_TRUMP_COLOUR
    return beats(play=label(winner))


def highest_trump_text(winner: int, beaten: Sequence[int], label: PlayLabels) -> Text:
    return HIGHEST_TRUMP(play=label(winner), beaten=label.all(beaten))


# --- What the pages say of a trick (the games' templates call these as ``rules``) ------

HEADLINE_TAKES = phrase("trick.headline-takes", "{name} takes trick {number}: {card},")
HEADLINE_GREEN_ONE = phrase("trick.headline-green-one", "the {card} always wins")
HEADLINE_TRUMP = phrase("trick.headline-trump", "highest trump")
HEADLINE_LED = phrase("trick.headline-led", "highest {colour}")


def trick_headline(players: Sequence[str], trick: CompletedTrick) -> Text:
    """ "Ann takes trick 3: red 9,": the start of the line a trick's last card shows."""
    card = trick.card_of(trick.winner)
    return HEADLINE_TAKES(name=players[trick.winner], number=trick.number, card=card)


def trick_reason(trick: CompletedTrick) -> Text:
    """The trick's rule in a few words: "highest trump", "highest red"."""
    if trick.rule == "green-one":
        return HEADLINE_GREEN_ONE(card=trick.card_of(trick.winner))
    if trick.rule == "trump":
        return HEADLINE_TRUMP()
    return HEADLINE_LED(colour=colour_words(trick.cards[0].colour))
