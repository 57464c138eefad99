"""Yokai Septet, a partnership trick-taking game: rounds, tricks, Boss Yokai and stars.

The table plays real cards and enters them one by one (or only each round's
result). The engine judges every trick with ``cards.yokai_septet_trick``,
counts tricks and Boss Yokai (the 7s), ends the round, scores the winners'
stars and flags a possible revoke it can see from the cards alone. Rule
sheet: shared/rules/yokai-septet.html and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, with_config

from scorekeeper.games import follow, trickplay
from scorekeeper.games.actions import ACTION_CONFIG, AS_TEXT, ActionSet, Ask, CardText
from scorekeeper.games.base import (
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    and_list,
    capitalised,
    parse_whole_number,
    plural,
    rank_by_score,
)
from scorekeeper.games.cards import Card
from scorekeeper.games.engine import CARDS, CHOICES, Engine, on

# Re-exported: the revoke flag and its action live in follow.py, shared with Cryptruck.
from scorekeeper.games.follow import FlagStatus as FlagStatus
from scorekeeper.games.follow import ResolveRevoke as ResolveRevoke
from scorekeeper.games.follow import RevokeFlag as RevokeFlag
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve

# Re-exported: the play action lives in trickplay.py, shared with Cryptruck.
from scorekeeper.games.trickplay import Play as Play
from scorekeeper.games.words import Text, phrase
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET, yokai_septet_trick

SEATS = 4
TARGET = 7
TRICKS_PER_ROUND = 12
BOSS_NUMBER = 7
BOSS_TO_WIN = 4
TRICKS_TO_LOSE = 7
MAX_PENALTY = 7

STARS: Mapping[str, int] = MappingProxyType(
    {"green": 0, "purple": 0, "pink": 1, "yellow": 1, "black": 1, "red": 2, "blue": 2}
)
GREEN_ONE = Card("green", 1)
BLUE_THIRTEEN = Card("blue", 13)
BOSS_YOKAI = tuple(Card(colour, BOSS_NUMBER) for colour in YOKAI_SEPTET.colours)

How = Literal["four-boss", "seven-tricks", "last-trick"]
HOWS: tuple[How, ...] = ("four-boss", "seven-tricks", "last-trick")
Step = Literal["trump", "first-lead", "play", "over"]

_ORDINALS = ("0th", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th")


# --- Actions -------------------------------------------------------------------


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class TrumpCard:
    """The face-up card that starts a round: its colour is trump; it is out of play."""

    type: Literal["trump"] = field(default="trump", kw_only=True, repr=False)
    card: Annotated[
        CardText, Ask("the trump card"), BeforeValidator(lambda raw: _check_card(raw, "card"))
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class FirstLead:
    """Round 1 only: the seat (from 0) holding the green 1 (blue 13 if the green 1 is trump)."""

    type: Literal["first-lead"] = field(default="first-lead", kw_only=True, repr=False)
    seat: Annotated[
        int, Field(ge=0, le=SEATS - 1), Ask("the seat that leads"), BeforeValidator(_check_seat)
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Pass:
    """Partners passed 3 cards each (optional; changes no score)."""

    type: Literal["pass"] = field(default="pass", kw_only=True, repr=False)


# A Boss Yokai: a 7, of any colour.
BossCard = Annotated[
    Card,
    AS_TEXT,
    WithJsonSchema({"type": "string", "enum": [f"{colour} {BOSS_NUMBER}" for colour in STARS]}),
]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class RoundResult:
    """A whole round as its result: the winning team, how, and the Boss Yokai it ends with."""

    type: Literal["result"] = field(default="result", kw_only=True, repr=False)
    team: Annotated[
        int, Field(ge=0, le=1), Ask("the team that won the round"), BeforeValidator(_check_team)
    ]
    how: Annotated[How, Ask("how the round was won"), BeforeValidator(_check_how)]
    boss: Annotated[
        tuple[BossCard, ...],
        Ask("the winners' Boss Yokai"),
        BeforeValidator(_check_boss),
        Field(json_schema_extra={"uniqueItems": True}),
    ]


Action = TrumpCard | FirstLead | Pass | Play | RoundResult | ResolveRevoke


# --- State ---------------------------------------------------------------------


@dataclass(frozen=True)
class CompletedTrick(trickplay.CompletedTrick):
    """A finished trick (see trickplay.CompletedTrick) and the Boss Yokai (7s) in it."""

    boss: tuple[Card, ...]


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: the winning team, how, its Boss Yokai and points; fast = result only."""

    number: int
    trump_card: Card
    winner: int
    how: How
    boss: tuple[Card, ...]
    points: int
    tricks: tuple[int, int]
    fast: bool


@dataclass(frozen=True)
class Round:
    """The round in progress (or about to start: no trump card yet).

    ``first_lead`` is the seat leading this round's first trick (known once
    round 1's first lead is entered); ``leader`` leads the trick in progress,
    whose cards so far are ``current``. ``voids``: (seat, colour) pairs a seat
    showed it lacks this round.
    """

    number: int
    trump_card: Card | None
    first_lead: int | None
    passed: bool
    tricks: tuple[CompletedTrick, ...]
    current: tuple[Card, ...]
    leader: int | None
    voids: frozenset[tuple[int, str]]

    @property
    def trump(self) -> str | None:
        return None if self.trump_card is None else self.trump_card.colour

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or the next one)."""
        return len(self.tricks) + 1


@dataclass(frozen=True)
class Now:
    """What the table needs of the scored rounds and the revoke flags now: the newest
    round's result (None before the first is scored) and the flags still to settle."""

    last_round: RoundRecord | None
    open_flags: tuple[follow.OpenFlag, ...]


@dataclass(frozen=True)
class State:
    """A session: seats in table order; team 0 = seats 0 & 2, team 1 = seats 1 & 3.

    Once the game is over, ``round`` is the last round played; otherwise it is
    the round in progress or the next one to start.
    """

    players: tuple[str, ...]
    team_names: tuple[str, str]
    scores: tuple[int, int]
    rounds: tuple[RoundRecord, ...] = field(metadata=HISTORY)
    round: Round
    flags: tuple[RevokeFlag, ...] = field(metadata=HISTORY)
    first_lead: int | None
    finished: bool
    last_ruling: str

    def now(self) -> Now:
        """What the table needs of ``rounds`` and ``flags`` (history: see games.history)."""
        return Now(
            last_round=self.rounds[-1] if self.rounds else None,
            open_flags=follow.open_flag_records(self.flags),
        )


# --- Helpers the app reads -----------------------------------------------------


def team_of(seat: int) -> int:
    """Team 0 = seats 0 & 2, team 1 = seats 1 & 3."""
    return seat % 2


def team_label(state: State, team: int) -> str:
    """The team's name: the option given, else its two players ("Ann & Cy")."""
    return state.team_names[team]


def stars(card: Card, trump_colour: str) -> int:
    """The stars a captured card scores: only 7s score, and the trump colour's 7 scores 0."""
    if card.number != BOSS_NUMBER or card.colour == trump_colour:
        return 0
    return STARS.get(card.colour, 0)


def next_step(state: State) -> Step:
    """What the app asks for next; "play" also covers passing and the fast result."""
    if state.finished:
        return "over"
    if state.round.trump_card is None:
        return "trump"
    if state.round.leader is None:
        return "first-lead"
    return "play"


def turn_seat(state: State) -> int | None:
    """The seat to play the next card, or None when no card is due."""
    if next_step(state) != "play":
        return None
    return trickplay.next_seat(state.round, SEATS)


def round_first_lead(state: State) -> int | None:
    """Who leads this round's first trick (None while round 1's first lead is unknown)."""
    if state.round.first_lead is not None:
        return state.round.first_lead
    if state.first_lead is None:
        return None
    return (state.first_lead + state.round.number - 1) % SEATS


def played_cards(state: State) -> frozenset[Card]:
    """This round's played cards, plus its trump card."""
    rnd = state.round
    cards = {card for trick in rnd.tricks for card in trick.cards} | set(rnd.current)
    if rnd.trump_card is not None:
        cards.add(rnd.trump_card)
    return frozenset(cards)


def team_tricks(state: State) -> tuple[int, int]:
    """Tricks each team has taken this round."""
    return _tricks_of(state.round.tricks)


def team_boss(state: State) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The Boss Yokai each team has captured this round, so far."""
    return _boss_of(state.round.tricks)


def open_flags(state: State) -> list[tuple[int, RevokeFlag]]:
    """The revoke flags still to settle, with their index in ``state.flags``."""
    return follow.open_flags(state.flags)


def can_record_result(state: State) -> bool:
    """Whether the round's result may be entered now: trump known, no card played yet."""
    rnd = state.round
    return next_step(state) == "play" and not rnd.tricks and not rnd.current


def can_pass(state: State) -> bool:
    """Whether the pass may be recorded: once a round, before any card."""
    return can_record_result(state) and not state.round.passed


def expected_actions(state: State) -> Expected:
    """What the engine accepts now, and whose move it is.

        The seat is the one to play the next card (the fast paths before the
        round's first card, the pass and the result, come at the same point). It is
        None when the entry is the table's: the trump card turned up from the deck,
        round 1's first lead (whoever holds the green 1, or the blue 13), and once
        the game is over. ``play`` lists every card not yet played this round, the
        trump card excluded: the engine watches following suit with revoke flags,
        it does not refuse a card for it. ``result`` lists the Boss Yokai it may
        name (the trump card is out of play) and, as ``choices``, the ways the round can
    have been won; ``first-lead`` the seats.

        Open revoke flags are the table's to settle at any point, after the game
        too (a revoke in the last trick must still be settled): then ``revoke`` is
        listed, its choices the open flags' indices, so a finished game lists
        nothing only once every flag is settled.
    """
    step = next_step(state)
    seat: int | None = None
    actions: list[Accepts] = []
    if step == "trump":
        actions.append(Accepts("trump", cards=tuple(str(card) for card in YOKAI_SEPTET.cards())))
    elif step == "first-lead":
        actions.append(Accepts("first-lead", choices=tuple(range(SEATS))))
    elif step == "play":
        seat = turn_seat(state)
        out = played_cards(state)
        in_play = tuple(str(card) for card in YOKAI_SEPTET.cards() if card not in out)
        actions.append(Accepts("play", cards=in_play))
        if can_pass(state):
            actions.append(Accepts("pass"))
        if can_record_result(state):
            trump_card = state.round.trump_card
            boss = tuple(str(card) for card in BOSS_YOKAI if card != trump_card)
            # The last trick is reached only when a 7 is the trump card (six in play).
            last_trick = trump_card is not None and trump_card.number == BOSS_NUMBER
            hows = tuple(how for how in HOWS if how != "last-trick" or last_trick)
            actions.append(Accepts("result", cards=boss, choices=hows))
    flags = open_flags(state)
    if flags:
        actions.append(Accepts("revoke", choices=tuple(index for index, _ in flags)))
    return Expected(seat, tuple(actions))


# --- Sentences -----------------------------------------------------------------


def _stars_text(boss: Sequence[Card], trump_colour: str) -> str:
    """ "3 stars (red 7: 2, pink 7: 1; green 7 has no stars; the trump colour's 7 ...)"."""
    total = sum(stars(card, trump_colour) for card in boss)
    parts: list[str] = []
    scoring = [f"{card}: {stars(card, trump_colour)}" for card in boss if stars(card, trump_colour)]
    if scoring:
        parts.append(", ".join(scoring))
    blank = [card for card in boss if card.colour != trump_colour and not STARS.get(card.colour)]
    if blank:
        verb = "has" if len(blank) == 1 else "have"
        parts.append(f"{and_list(blank)} {verb} no stars")
    if any(card.colour == trump_colour for card in boss):
        parts.append("the trump colour's 7 scores nothing")
    detail = f" ({'; '.join(parts)})" if parts else ""
    return f"{plural(total, 'star')}{detail}"


def _score_text(state: State) -> str:
    return (
        f"Score: {state.team_names[0]} {state.scores[0]}, {state.team_names[1]} {state.scores[1]}."
    )


def _game_over_text(state: State) -> str:
    first, second = state.scores
    if first == second:
        return f"Game over: both teams have {plural(first, 'point')}, so both win."
    top = 0 if first > second else 1
    return (
        f"Game over: {state.team_names[top]} win with {plural(state.scores[top], 'point')} "
        f"to {state.scores[1 - top]}."
    )


def _lead_holder_text(trump_card: Card | None) -> str:
    if trump_card == GREEN_ONE:
        return f"the holder of the {BLUE_THIRTEEN} (the {GREEN_ONE} is the trump card)"
    return f"the holder of the {GREEN_ONE}"


def _next_text(state: State) -> str:
    """What happens next, as a sentence."""
    step = next_step(state)
    rnd = state.round
    if step == "over":
        return _game_over_text(state)
    if step == "trump":
        lead = round_first_lead(state)
        who = f"; {state.players[lead]} leads it" if lead is not None and rnd.number > 1 else ""
        return f"Turn up the trump card to start round {rnd.number}{who}."
    if step == "first-lead":
        holder = _lead_holder_text(rnd.trump_card)
        return f"Who leads round 1? {capitalised(holder)}."
    return trickplay.turn_text(rnd, state.players)


def _ordinal(number: int) -> str:
    return _ORDINALS[number] if number < len(_ORDINALS) else f"{number}th"


# --- Counting ------------------------------------------------------------------


def _tricks_of(tricks: Sequence[CompletedTrick]) -> tuple[int, int]:
    won = [team_of(trick.winner) for trick in tricks]
    return won.count(0), won.count(1)


def _boss_of(tricks: Sequence[CompletedTrick]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    first = tuple(card for trick in tricks if team_of(trick.winner) == 0 for card in trick.boss)
    second = tuple(card for trick in tricks if team_of(trick.winner) == 1 for card in trick.boss)
    return first, second


def _where_played(rnd: Round, card: Card) -> tuple[int, int] | None:
    """(trick number, seat) where ``card`` was played this round, or None."""
    for played, number, seat in trickplay.plays(rnd, SEATS):
        if played == card:
            return number, seat
    return None


# --- Checks ----------------------------------------------------------------------


def _check_card(card: object, field: str) -> Card:
    if not isinstance(card, Card):
        return YOKAI_SEPTET.parse(card, field)
    return YOKAI_SEPTET.parse(str(card), field)


def _check_seat(seat: object) -> int:
    number = parse_whole_number(seat, "The seat", "seat")
    if not 0 <= number < SEATS:
        raise IllegalAction(
            f"Seats are numbered 0 to 3 in table order; there is no seat {number}.", "seat"
        )
    return number


def _check_team(team: object) -> int:
    number = parse_whole_number(team, "The team", "team")
    if number not in (0, 1):
        raise IllegalAction(
            f"The team is 0 (seats 1 & 3) or 1 (seats 2 & 4); there is no team {number}.", "team"
        )
    return number


def _check_how(how: object) -> How:
    for known in HOWS:
        if how == known:
            return known
    raise IllegalAction(
        "How the round was won: four-boss, seven-tricks or last-trick.",
        "how",
    )


def _check_boss(raw: object) -> tuple[Card, ...]:
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise IllegalAction(
            'List the winners\' Boss Yokai as cards, like ["red 7", "pink 7"].', "boss"
        )
    return tuple(_check_card(item, "boss") for item in raw)


def _require_cards_due(state: State, field: str) -> Round:
    """The round, when its trump card and first lead are known; else why not."""
    rnd = state.round
    step = next_step(state)
    if step == "over":
        raise IllegalAction("The game is over.", field)
    if step == "trump":
        raise trickplay.turn_up_first("trump card", rnd.number, bool(state.rounds), field)
    if step == "first-lead":
        raise IllegalAction(
            f"Say who leads round 1 first: {_lead_holder_text(rnd.trump_card)}.", field
        )
    return rnd


# --- Rules -----------------------------------------------------------------------


def _new_round(number: int, first_lead: int | None) -> Round:
    lead = None if first_lead is None else (first_lead + number - 1) % SEATS
    return Round(number, None, lead, False, (), (), lead, frozenset())


def _apply_trump(state: State, action: TrumpCard) -> State:
    if state.finished:
        raise IllegalAction("The game is over.", "card")
    rnd = state.round
    if rnd.trump_card is not None:
        raise IllegalAction(
            f"Round {rnd.number} already has its trump card ({rnd.trump_card}); "
            "one is turned up at the start of each round.",
            "card",
        )
    card = _check_card(action.card, "card")
    started = evolve(state, round=evolve(rnd, trump_card=card))
    sentences = [f"Round {rnd.number}: the trump card is {card}, so {card.colour} is trump."]
    if card.number == BOSS_NUMBER:
        sentences.append("The trump card is out of play, so 6 Boss Yokai are in play this round.")
    if rnd.number > 1:
        sentences.append("The lead moves one seat clockwise each round.")
    sentences.append(_next_text(started))
    return evolve(started, last_ruling=" ".join(sentences))


def _apply_first_lead(state: State, action: FirstLead) -> State:
    if state.finished:
        raise IllegalAction("The game is over.", "seat")
    rnd = state.round
    if rnd.number > 1 or state.first_lead is not None:
        lead = round_first_lead(state)
        who = "" if lead is None else f": {state.players[lead]} leads round {rnd.number}"
        raise IllegalAction(
            f"Only round 1 needs a first lead; after it the lead moves one seat clockwise "
            f"each round{who}.",
            "seat",
        )
    if rnd.trump_card is None:
        raise IllegalAction(
            "Turn up the trump card first: it decides who leads "
            "(the holder of the green 1, or of the blue 13 when the green 1 is the trump card).",
            "seat",
        )
    seat = _check_seat(action.seat)
    name = state.players[seat]
    if rnd.trump_card == GREEN_ONE:
        ruling = (
            f"The green 1 is the trump card, so the blue 13 leads: {name} holds it "
            f"and leads trick 1."
        )
    else:
        ruling = f"{name} holds the green 1 and leads trick 1."
    return evolve(
        state,
        first_lead=seat,
        round=evolve(rnd, first_lead=seat, leader=seat),
        last_ruling=ruling,
    )


def _apply_pass(state: State) -> State:
    rnd = _require_cards_due(state, "type")
    if rnd.tricks or rnd.current:
        raise IllegalAction(
            "Partners pass before the first card of the round; this round's cards are "
            "already being played.",
            "type",
        )
    if rnd.passed:
        raise IllegalAction("The pass of this round is already recorded.", "type")
    passed = evolve(state, round=evolve(rnd, passed=True))
    ruling = f"Partners passed 3 cards each. {_next_text(passed)}"
    return evolve(passed, last_ruling=ruling)


def _apply_play(state: State, action: Play) -> State:
    rnd = _require_cards_due(state, "card")
    card = _check_card(action.card, "card")
    if card == rnd.trump_card:
        raise IllegalAction(f"{card} is the face-up trump card: it is out of play.", "card")
    where = _where_played(rnd, card)
    if where is not None:
        number, by = where
        raise trickplay.already_played(card, number, state.players[by], "card")
    play = trickplay.play(rnd, state.flags, state.players, card)
    played = evolve(
        state, flags=play.flags, round=evolve(rnd, current=play.current, voids=play.voids)
    )
    if play.ends_trick:
        return _complete_trick(played, [*play.sentences])
    return evolve(played, last_ruling=play.ruling(_next_text(played)))


def _complete_trick(state: State, sentences: list[str]) -> State:
    rnd = state.round
    trump_card, leader = rnd.trump_card, rnd.leader
    assert trump_card is not None and leader is not None
    winner, judged = trickplay.judge(rnd, state.players, yokai_septet_trick, trump_card.colour)
    boss = tuple(card for card in rnd.current if card.number == BOSS_NUMBER)
    trick = CompletedTrick(
        rnd.trick_number,
        leader,
        rnd.current,
        winner,
        judged.rule,
        judged.explanation,
        boss,
    )
    tricks = (*rnd.tricks, trick)
    done = evolve(rnd, tricks=tricks, current=(), leader=winner)
    state = evolve(state, round=done)
    team = team_of(winner)
    label = state.team_names[team]
    taken = _tricks_of(tricks)[team]
    held = _boss_of(tricks)[team]
    capture = f" capture {and_list(boss)}" if boss else ""
    sentences.append(
        f"{trickplay.taken_text(trick.number, state.players[winner], judged)} "
        f"{label}{capture}: {plural(taken, 'trick')}, {len(held)} Boss Yokai."
    )
    record = _round_end(state, trick)
    if record is None:
        sentences.append(_next_text(state))
        return evolve(state, last_ruling=" ".join(sentences))
    sentences.append(_round_end_text(state, record, len(boss)))
    return _finish_round(state, record, sentences)


def _round_end(state: State, last: CompletedTrick) -> RoundRecord | None:
    """The round's result after trick ``last``, or None while it goes on."""
    rnd = state.round
    trump_card = rnd.trump_card
    assert trump_card is not None
    tricks = _tricks_of(rnd.tricks)
    boss = _boss_of(rnd.tricks)
    team = team_of(last.winner)
    how: How
    if len(boss[team]) >= BOSS_TO_WIN:
        winner, how, won = team, "four-boss", boss[team]
    elif tricks[team] >= TRICKS_TO_LOSE:
        winner, how = 1 - team, "seven-tricks"
        played = played_cards(state)
        in_hand = tuple(card for card in BOSS_YOKAI if card not in played)
        won = (*boss[winner], *in_hand)
    elif len(rnd.tricks) >= TRICKS_PER_ROUND:
        winner, how, won = team, "last-trick", boss[team]
    else:
        return None
    won = YOKAI_SEPTET.in_order(won)
    points = sum(stars(card, trump_card.colour) for card in won)
    return RoundRecord(rnd.number, trump_card, winner, how, won, points, tricks, fast=False)


def _round_end_text(state: State, record: RoundRecord, captured_now: int) -> str:
    winner = state.team_names[record.winner]
    loser = state.team_names[1 - record.winner]
    stars_text = _stars_text(record.boss, record.trump_card.colour)
    number = record.number
    if record.how == "four-boss":
        count = len(record.boss)
        if captured_now == 1 or count == BOSS_TO_WIN:
            reach = f"capture their {_ordinal(count)} Boss Yokai"
        else:
            reach = f"reach {count} Boss Yokai"
        return f"{winner} {reach} and win round {number}: {stars_text}."
    if record.how == "seven-tricks":
        held = _boss_of(state.round.tricks)
        losers_boss = len(held[1 - record.winner])
        only = "no Boss Yokai" if not losers_boss else f"only {losers_boss} Boss Yokai"
        from_hands = [card for card in record.boss if card not in held[record.winner]]
        take = (
            f"{winner} take the Boss Yokai still in hand ({and_list(from_hands)}) and win"
            if from_hands
            else f"{winner} win"
        )
        return (
            f"{loser} take their 7th trick with {only} and lose round {number}. "
            f"{take}: {stars_text}."
        )
    return f"That was the last trick: {winner} took it and win round {number}: {stars_text}."


def _finish_round(state: State, record: RoundRecord, sentences: list[str]) -> State:
    scores = list(state.scores)
    scores[record.winner] += record.points
    finished = max(scores) >= TARGET
    ended = evolve(
        state,
        scores=(scores[0], scores[1]),
        rounds=(*state.rounds, record),
        finished=finished,
        round=state.round if finished else _new_round(record.number + 1, state.first_lead),
    )
    sentences.append(_score_text(ended))
    sentences.append(_next_text(ended))
    return evolve(ended, last_ruling=" ".join(sentences))


def _how_text(how: How, loser: str) -> str:
    if how == "four-boss":
        return "with four or more Boss Yokai"
    if how == "seven-tricks":
        return f"because {loser} took 7 tricks with 3 or fewer Boss Yokai"
    return "by taking the last trick"


def _check_result(state: State, action: RoundResult) -> tuple[int, How, tuple[Card, ...]]:
    team = _check_team(action.team)
    how = _check_how(action.how)
    boss = _check_boss(action.boss)
    trump_card = state.round.trump_card
    assert trump_card is not None
    seen: set[Card] = set()
    for card in boss:
        if card.number != BOSS_NUMBER:
            raise IllegalAction(f"The Boss Yokai are the 7s; {card} is not one.", "boss")
        if card in seen:
            raise IllegalAction(f"{card} is listed twice.", "boss")
        if card == trump_card:
            raise IllegalAction(
                f"{card} is the face-up trump card: it is out of play, so no team captures it.",
                "boss",
            )
        seen.add(card)
    trump_seven = trump_card.number == BOSS_NUMBER
    if how == "four-boss" and len(boss) < BOSS_TO_WIN:
        raise IllegalAction(
            f"A win by four Boss Yokai needs at least 4 of them; {len(boss)} listed.", "boss"
        )
    if how == "seven-tricks":
        needed = BOSS_NUMBER - (BOSS_TO_WIN - 1) - (1 if trump_seven else 0)
        if len(boss) < needed:
            raise IllegalAction(
                f"The losers took 7 tricks with at most 3 Boss Yokai, so the winners end the "
                f"round with at least {needed} (counting those taken from the hands); "
                f"{len(boss)} listed.",
                "boss",
            )
    if how == "last-trick":
        if not trump_seven:
            raise IllegalAction(
                f"A round cannot reach the last trick when the trump card ({trump_card}) is "
                "not a 7: all seven Boss Yokai are in play, so one team captures its 4th "
                "before trick 12.",
                "how",
            )
        if len(boss) != BOSS_TO_WIN - 1:
            raise IllegalAction(
                "A round that reaches the last trick ends with 3 Boss Yokai for each team "
                f"(6 are in play); {len(boss)} listed.",
                "boss",
            )
    return team, how, YOKAI_SEPTET.in_order(boss)


def _apply_result(state: State, action: RoundResult) -> State:
    rnd = _require_cards_due(state, "type")
    if rnd.tricks or rnd.current:
        raise IllegalAction(
            "A round's result is entered before any card is played; this round's cards are "
            "already being entered one by one.",
            "type",
        )
    team, how, boss = _check_result(state, action)
    trump_card = rnd.trump_card
    assert trump_card is not None
    points = sum(stars(card, trump_card.colour) for card in boss)
    record = RoundRecord(rnd.number, trump_card, team, how, boss, points, (0, 0), fast=True)
    winner, loser = state.team_names[team], state.team_names[1 - team]
    sentences = [
        f"Round {rnd.number} result: {winner} win {_how_text(how, loser)}: "
        f"{_stars_text(boss, trump_card.colour)}."
    ]
    return _finish_round(state, record, sentences)


def _settle_round(state: State) -> int:
    """The round a penalty settled now counts in: the latest round that has begun."""
    rnd = state.round
    if rnd.trump_card is None and state.rounds:
        return state.rounds[-1].number
    return rnd.number


def _apply_revoke(state: State, action: ResolveRevoke) -> State:
    # Allowed after the game ended too: a revoke in the last trick must still be settled.
    settled = follow.settle(state.flags, action, state.players, MAX_PENALTY, _settle_round(state))
    flags, flag, penalty = settled.flags, settled.flag, settled.flag.penalty
    if not settled.accepted:
        dismissed = evolve(state, flags=flags)
        ruling = f"{settled.dismissed_text()} {_next_text(dismissed)}"
        return evolve(dismissed, last_ruling=ruling)
    to = 1 - team_of(flag.seat)
    scores = list(state.scores)
    scores[to] += penalty
    # A penalty can end the game; one settled after the game is over never reopens it.
    finished = state.finished or scores[to] >= TARGET
    accepted = evolve(state, flags=flags, scores=(scores[0], scores[1]), finished=finished)
    given = f"{plural(penalty, 'penalty point')} to {state.team_names[to]}"
    ruling = f"{settled.accepted_text(given)} {_score_text(accepted)} {_next_text(accepted)}"
    return evolve(accepted, last_ruling=ruling)


# --- JSON --------------------------------------------------------------------------

# The deck of a card played and the highest revoke penalty, for the shared declarations.
ACTIONS: ActionSet[Action] = ActionSet(
    Action, context={"deck": YOKAI_SEPTET, "max_penalty": MAX_PENALTY}
)


# --- The game ------------------------------------------------------------------------


def _how_note(how: How) -> str:
    if how == "four-boss":
        return "won by four Boss Yokai"
    if how == "seven-tricks":
        return "won: the other team took 7 tricks"
    return "won the last trick"


def _text_option(options: Mapping[str, OptionValue], name: str) -> str:
    value = options[name]
    return value if isinstance(value, str) else str(value)


def _describe_result(result: RoundResult) -> str:
    how = {
        "four-boss": "by four Boss Yokai",
        "seven-tricks": "as the other team took seven tricks",
        "last-trick": "by the last trick",
    }[result.how]
    return f"result: team {result.team + 1} {how}"


PLAYERS_NEEDED = phrase(
    "yokai-septet.players-needed",
    "Yokai Septet is for exactly 4 players, two teams of partners sitting across",
)


class YokaiSeptet(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names; seats and teams count from 1 in them. Play again keeps the
    options and the seats in order: the green 1, wherever it was dealt, leads round 1.
    """

    slug = "yokai-septet"
    title = "Yokai Septet"
    min_players = SEATS
    max_players = SEATS
    partners = tuple(tuple(s for s in range(SEATS) if team_of(s) == t) for t in (0, 1))
    options = (
        OptionSpec(
            "team_a",
            "Team of seats 1 & 3",
            "text",
            "",
            help="A name for the partners in seats 1 and 3; blank shows their two names.",
            maximum=40,
            summary="seats 1 & 3: {}",
            blank="their names",
        ),
        OptionSpec(
            "team_b",
            "Team of seats 2 & 4",
            "text",
            "",
            help="A name for the partners in seats 2 and 4; blank shows their two names.",
            maximum=40,
            summary="seats 2 & 4: {}",
            blank="their names",
        ),
    )
    actions = ACTIONS
    handlers = (
        on(TrumpCard, _apply_trump, lambda trump: f"trump card {trump.card}"),
        on(FirstLead, _apply_first_lead, lambda lead: f"first lead: seat {lead.seat + 1}"),
        on(Pass, lambda state, _pass: _apply_pass(state), lambda _pass: "pass"),
        on(Play, _apply_play, lambda play: f"play {play.card}"),
        on(RoundResult, _apply_result, _describe_result),
        on(ResolveRevoke, _apply_revoke, follow.describe_resolve),
    )
    listed = (CARDS, CHOICES)
    expected_actions = staticmethod(expected_actions)

    def players_needed(self) -> Text:
        return PLAYERS_NEEDED()

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        team_a = _text_option(options, "team_a") or f"{players[0]} & {players[2]}"
        team_b = _text_option(options, "team_b") or f"{players[1]} & {players[3]}"
        return State(
            players=players,
            team_names=(team_a, team_b),
            scores=(0, 0),
            rounds=(),
            round=_new_round(1, None),
            flags=(),
            first_lead=None,
            finished=False,
            last_ruling="Turn up the trump card to start round 1.",
        )

    def standings(self, state: State) -> list[Standing]:
        return rank_by_score(state.players, [state.scores[team_of(s)] for s in range(SEATS)])

    def score_rows(self, state: State) -> list[ScoreRow]:
        """One row per seat per round with points: the round's result plus its penalties."""
        records = {record.number: record for record in state.rounds}
        penalties: dict[int, list[RevokeFlag]] = {}
        for flag in state.flags:
            if flag.status == "accepted" and flag.settled_in is not None:
                penalties.setdefault(flag.settled_in, []).append(flag)
        totals = [0, 0]
        rows: list[ScoreRow] = []
        for number in sorted(set(records) | set(penalties)):
            points = [0, 0]
            notes: list[list[str]] = [[], []]
            record = records.get(number)
            if record is not None:
                points[record.winner] += record.points
                entered = " (entered as a result)" if record.fast else ""
                notes[record.winner].append(_how_note(record.how) + entered)
                notes[1 - record.winner].append("lost")
            for flag in penalties.get(number, []):
                to = 1 - team_of(flag.seat)
                name = state.players[flag.seat]
                points[to] += flag.penalty
                notes[to].append(f"revoke penalty +{flag.penalty} ({name} revoked)")
                notes[1 - to].append(f"{name} revoked: {flag.penalty} to the other team")
            for team in (0, 1):
                totals[team] += points[team]
            for seat, name in enumerate(state.players):
                team = team_of(seat)
                rows.append(
                    ScoreRow(number, seat, name, points[team], totals[team], "; ".join(notes[team]))
                )
        return rows


GAME = YokaiSeptet()
