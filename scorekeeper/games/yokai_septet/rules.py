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
from typing import Annotated, Literal, TypeVar

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
    parse_whole_number,
    rank_by_score,
)
from scorekeeper.games.cards import Card
from scorekeeper.games.cards import colour_words as colour_words
from scorekeeper.games.engine import CARDS, CHOICES, GAME_OVER, Engine, on

# Re-exported: the revoke flag and its action live in follow.py, shared with Cryptruck.
from scorekeeper.games.follow import FlagStatus as FlagStatus
from scorekeeper.games.follow import ResolveRevoke as ResolveRevoke
from scorekeeper.games.follow import RevokeFlag as RevokeFlag
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve

# Re-exported: the play action lives in trickplay.py, shared with Cryptruck.
from scorekeeper.games.trickplay import Play as Play
from scorekeeper.games.trickplay import sentences
from scorekeeper.games.trickplay import trick_headline as trick_headline
from scorekeeper.games.trickplay import trick_reason as trick_reason
from scorekeeper.games.words import Listing, Phrase, Text, all_of, counted, each_of, phrase
from scorekeeper.games.words import first_sentence as first_sentence
from scorekeeper.games.yokai_septet.cards import TITLE, YOKAI_SEPTET, yokai_septet_trick

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


# --- What the game says ----------------------------------------------------------

ASK_TRUMP = phrase("yokai-septet.ask-trump-card", "the trump card")
ASK_LEAD = phrase("yokai-septet.ask-first-lead", "the seat that leads")
ASK_TEAM = phrase("yokai-septet.ask-team", "the team that won the round")
ASK_HOW = phrase("yokai-septet.ask-how", "how the round was won")
ASK_BOSS = phrase("yokai-septet.ask-boss", "the winners' Boss Yokai")
THE_SEAT = phrase("yokai-septet.label-seat", "The seat")
THE_TEAM = phrase("yokai-septet.label-team", "The team")
TRUMP_CARD = phrase("yokai-septet.trump-card", "trump card")
# A round's stars: "3 stars (red 7: 2, pink 7: 1; green 7 has no stars)".
STARS_COUNT = counted("yokai-septet.stars", "{count} star", "{count} stars")
STARS_DETAILED = phrase("yokai-septet.stars-detailed", "{stars} ({detail})")
CARD_STARS = phrase("yokai-septet.card-stars", "{card}: {stars}")
DETAIL_AND = phrase("yokai-septet.detail-and", "{first}; {then}")
# Green and purple 7s: one card "has", two "have".
NO_STARS_ONE = phrase("yokai-septet.no-stars-one", "{cards} has no stars")
NO_STARS = phrase("yokai-septet.no-stars", "{cards} have no stars")
TRUMP_SEVEN_NOTHING = phrase(
    "yokai-septet.trump-seven-nothing", "the trump colour's 7 scores nothing"
)
SCORE = phrase("yokai-septet.score", "Score: {team_a} {score_a}, {team_b} {score_b}.")
BOTH_WIN = counted(
    "yokai-septet.game-over-tie",
    "Game over: both teams have {count} point, so both win.",
    "Game over: both teams have {count} points, so both win.",
)
TEAM_WINS = counted(
    "yokai-septet.game-over",
    "Game over: {team} win with {count} point to {other}.",
    "Game over: {team} win with {count} points to {other}.",
)
HOLDER = phrase("yokai-septet.holder", "the holder of the {card}")
HOLDER_GREEN_TRUMP = phrase(
    "yokai-septet.holder-green-trump", "the holder of the {card} (the {green} is the trump card)"
)
TURN_UP_TRUMP = phrase(
    "yokai-septet.turn-up-trump", "Turn up the trump card to start round {number}."
)
TURN_UP_TRUMP_LEADS = phrase(
    "yokai-septet.turn-up-trump-leads",
    "Turn up the trump card to start round {number}; {name} leads it.",
)
WHO_LEADS = phrase("yokai-septet.who-leads", "Who leads round 1? The holder of the {card}.")
WHO_LEADS_GREEN_TRUMP = phrase(
    "yokai-septet.who-leads-green-trump",
    "Who leads round 1? The holder of the {card} (the {green} is the trump card).",
)
SEATS_ARE = phrase(
    "yokai-septet.no-such-seat",
    "Seats are numbered 0 to 3 in table order; there is no seat {number}.",
)
TEAMS_ARE = phrase(
    "yokai-septet.no-such-team",
    "The team is 0 (seats 1 & 3) or 1 (seats 2 & 4); there is no team {number}.",
)
HOW_IS = phrase(
    "yokai-septet.how-won", "How the round was won: four-boss, seven-tricks or last-trick."
)
LIST_BOSS = phrase(
    "yokai-septet.list-boss", 'List the winners\' Boss Yokai as cards, like ["red 7", "pink 7"].'
)
SAY_WHO_LEADS = phrase("yokai-septet.say-who-leads", "Say who leads round 1 first: {holder}.")
HAS_TRUMP = phrase(
    "yokai-septet.has-trump-card",
    "Round {number} already has its trump card ({card}); one is turned up at the start of "
    "each round.",
)
TRUMP_IS = phrase(
    "yokai-septet.trump-is", "Round {number}: the trump card is {card}, so {colour} is trump."
)
SIX_BOSS = phrase(
    "yokai-septet.six-boss",
    "The trump card is out of play, so 6 Boss Yokai are in play this round.",
)
LEAD_MOVES = phrase("yokai-septet.lead-moves", "The lead moves one seat clockwise each round.")
ONLY_ROUND_ONE = phrase(
    "yokai-septet.only-round-one",
    "Only round 1 needs a first lead; after it the lead moves one seat clockwise each round.",
)
ONLY_ROUND_ONE_LEADS = phrase(
    "yokai-septet.only-round-one-leads",
    "Only round 1 needs a first lead; after it the lead moves one seat clockwise each round: "
    "{name} leads round {number}.",
)
TRUMP_FIRST = phrase(
    "yokai-septet.trump-first",
    "Turn up the trump card first: it decides who leads (the holder of the {green}, or of the "
    "{blue} when the {green} is the trump card).",
)
BLUE_LEADS = phrase(
    "yokai-septet.blue-leads",
    "The {green} is the trump card, so the {blue} leads: {name} holds it and leads trick 1.",
)
GREEN_LEADS = phrase("yokai-septet.green-leads", "{name} holds the {green} and leads trick 1.")
PASS_TOO_LATE = phrase(
    "yokai-septet.pass-too-late",
    "Partners pass before the first card of the round; this round's cards are already being "
    "played.",
)
PASS_DONE = phrase("yokai-septet.pass-done", "The pass of this round is already recorded.")
PASSED = phrase("yokai-septet.passed", "Partners passed 3 cards each.")
OUT_OF_PLAY = phrase(
    "yokai-septet.trump-out-of-play", "{card} is the face-up trump card: it is out of play."
)
TEAM_TALLY = counted(
    "yokai-septet.team-tally",
    "{team}: {count} trick, {boss} Boss Yokai.",
    "{team}: {count} tricks, {boss} Boss Yokai.",
)
TEAM_CAPTURE_TALLY = counted(
    "yokai-septet.team-capture-tally",
    "{team} capture {cards}: {count} trick, {boss} Boss Yokai.",
    "{team} capture {cards}: {count} tricks, {boss} Boss Yokai.",
)
CAPTURE_NTH = phrase(
    "yokai-septet.capture-nth",
    "{team} capture their {count}th Boss Yokai and win round {number}: {stars}.",
)
REACH = phrase(
    "yokai-septet.reach", "{team} reach {count} Boss Yokai and win round {number}: {stars}."
)
LOSE_SEVEN_NONE = phrase(
    "yokai-septet.lose-seven-none",
    "{team} take their 7th trick with no Boss Yokai and lose round {number}.",
)
LOSE_SEVEN_ONLY = phrase(
    "yokai-septet.lose-seven-only",
    "{team} take their 7th trick with only {count} Boss Yokai and lose round {number}.",
)
WIN_FROM_HANDS = phrase(
    "yokai-septet.win-from-hands",
    "{team} take the Boss Yokai still in hand ({cards}) and win: {stars}.",
)
WIN_PLAIN = phrase("yokai-septet.win", "{team} win: {stars}.")
LAST_TRICK = phrase(
    "yokai-septet.last-trick-won",
    "That was the last trick: {team} took it and win round {number}: {stars}.",
)
RESULT_FOUR = phrase(
    "yokai-septet.result-four-boss",
    "Round {number} result: {team} win with four or more Boss Yokai: {stars}.",
)
RESULT_SEVEN = phrase(
    "yokai-septet.result-seven-tricks",
    "Round {number} result: {team} win because {loser} took 7 tricks with 3 or fewer Boss "
    "Yokai: {stars}.",
)
RESULT_LAST = phrase(
    "yokai-septet.result-last-trick",
    "Round {number} result: {team} win by taking the last trick: {stars}.",
)
NOT_A_BOSS = phrase("yokai-septet.not-boss", "The Boss Yokai are the 7s; {card} is not one.")
LISTED_TWICE = phrase("yokai-septet.listed-twice", "{card} is listed twice.")
TRUMP_NOT_CAPTURED = phrase(
    "yokai-septet.trump-not-captured",
    "{card} is the face-up trump card: it is out of play, so no team captures it.",
)
FOUR_NEEDED = phrase(
    "yokai-septet.four-needed",
    "A win by four Boss Yokai needs at least 4 of them; {count} listed.",
)
SEVEN_NEEDS = phrase(
    "yokai-septet.seven-tricks-needs",
    "The losers took 7 tricks with at most 3 Boss Yokai, so the winners end the round with "
    "at least {needed} (counting those taken from the hands); {count} listed.",
)
NO_LAST_TRICK = phrase(
    "yokai-septet.no-last-trick",
    "A round cannot reach the last trick when the trump card ({card}) is not a 7: all seven "
    "Boss Yokai are in play, so one team captures its 4th before trick 12.",
)
LAST_TRICK_THREE = phrase(
    "yokai-septet.last-trick-three",
    "A round that reaches the last trick ends with 3 Boss Yokai for each team (6 are in play); "
    "{count} listed.",
)
RESULT_TOO_LATE = phrase(
    "yokai-septet.result-too-late",
    "A round's result is entered before any card is played; this round's cards are already "
    "being entered one by one.",
)
PENALTY_TO = counted(
    "yokai-septet.penalty-to",
    "{count} penalty point to {team}",
    "{count} penalty points to {team}",
)
# Score notes, one a team a round.
NOTE_FOUR = phrase("yokai-septet.note-four-boss", "won by four Boss Yokai")
NOTE_SEVEN = phrase("yokai-septet.note-seven-tricks", "won: the other team took 7 tricks")
NOTE_LAST = phrase("yokai-septet.note-last-trick", "won the last trick")
NOTE_ENTERED = phrase("yokai-septet.note-entered", "{note} (entered as a result)")
NOTE_LOST = phrase("yokai-septet.note-lost", "lost")
NOTE_PENALTY = phrase("yokai-septet.note-penalty", "revoke penalty +{penalty} ({name} revoked)")
NOTE_REVOKED = phrase("yokai-septet.note-revoked", "{name} revoked: {penalty} to the other team")
# Log lines: short, no names.
LOG_TRUMP = phrase("yokai-septet.log-trump", "trump card {card}")
LOG_FIRST_LEAD = phrase("yokai-septet.log-first-lead", "first lead: seat {seat}")
LOG_PASS = phrase("yokai-septet.log-pass", "pass")
LOG_PLAY = phrase("yokai-septet.log-play", "play {card}")
LOG_FOUR = phrase("yokai-septet.log-result-four-boss", "result: team {team} by four Boss Yokai")
LOG_SEVEN = phrase(
    "yokai-septet.log-result-seven-tricks",
    "result: team {team} as the other team took seven tricks",
)
LOG_LAST = phrase("yokai-septet.log-result-last-trick", "result: team {team} by the last trick")
# How a round was won, as the table of rounds says it.
HOW_WORDS: Mapping[str, Phrase] = MappingProxyType(
    {
        "four-boss": phrase("yokai-septet.how-four-boss", "four boss"),
        "seven-tricks": phrase("yokai-septet.how-seven-tricks", "seven tricks"),
        "last-trick": phrase("yokai-septet.how-last-trick", "last trick"),
    }
)
# Options.
TEAM_A = phrase("yokai-septet.option-team-a", "Team of seats 1 & 3")
TEAM_A_HELP = phrase(
    "yokai-septet.option-team-a-help",
    "A name for the partners in seats 1 and 3; blank shows their two names.",
)
TEAM_A_SUMMARY = phrase("yokai-septet.option-team-a-summary", "seats 1 & 3: {{}}")
TEAM_B = phrase("yokai-septet.option-team-b", "Team of seats 2 & 4")
TEAM_B_HELP = phrase(
    "yokai-septet.option-team-b-help",
    "A name for the partners in seats 2 and 4; blank shows their two names.",
)
TEAM_B_SUMMARY = phrase("yokai-septet.option-team-b-summary", "seats 2 & 4: {{}}")
THEIR_NAMES = phrase("yokai-septet.option-their-names", "their names")


# --- Actions -------------------------------------------------------------------


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class TrumpCard:
    """The face-up card that starts a round: its colour is trump; it is out of play."""

    type: Literal["trump"] = field(default="trump", kw_only=True, repr=False)
    card: Annotated[
        CardText, Ask(ASK_TRUMP()), BeforeValidator(lambda raw: _check_card(raw, "card"))
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class FirstLead:
    """Round 1 only: the seat (from 0) holding the green 1 (blue 13 if the green 1 is trump)."""

    type: Literal["first-lead"] = field(default="first-lead", kw_only=True, repr=False)
    seat: Annotated[int, Field(ge=0, le=SEATS - 1), Ask(ASK_LEAD()), BeforeValidator(_check_seat)]


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
    team: Annotated[int, Field(ge=0, le=1), Ask(ASK_TEAM()), BeforeValidator(_check_team)]
    how: Annotated[How, Ask(ASK_HOW()), BeforeValidator(_check_how)]
    boss: Annotated[
        tuple[BossCard, ...],
        Ask(ASK_BOSS()),
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


def how_words(how: How) -> Text:
    """How a round was won, in a few words: "four boss", "seven tricks", "last trick"."""
    return HOW_WORDS[how]()


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

# A part of a sentence: a phrase said, or a list said as one (each_of).
Said = TypeVar("Said", Text, Text | Listing)


def _chained(parts: Sequence[Said], joined_by: Phrase) -> Said | Text:
    """Parts said one after another, each pair joined by ``joined_by`` ("{first}; {then}")."""
    said = parts[-1]
    for part in reversed(parts[:-1]):
        said = joined_by(first=part, then=said)
    return said


def _stars_text(boss: Sequence[Card], trump_colour: str) -> Text:
    """ "3 stars (red 7: 2, pink 7: 1; green 7 has no stars; the trump colour's 7 ...)"."""
    total = sum(stars(card, trump_colour) for card in boss)
    parts: list[Text | Listing] = []
    scoring = [
        CARD_STARS(card=card, stars=stars(card, trump_colour))
        for card in boss
        if stars(card, trump_colour)
    ]
    if scoring:
        parts.append(each_of(scoring))
    blank = [card for card in boss if card.colour != trump_colour and not STARS.get(card.colour)]
    if blank:
        no_stars = NO_STARS_ONE if len(blank) == 1 else NO_STARS
        parts.append(no_stars(cards=all_of(blank)))
    if any(card.colour == trump_colour for card in boss):
        parts.append(TRUMP_SEVEN_NOTHING())
    counted_stars = STARS_COUNT(count=total)
    if not parts:
        return counted_stars
    return STARS_DETAILED(stars=counted_stars, detail=_chained(parts, DETAIL_AND))


def _score_text(state: State) -> Text:
    return SCORE(
        team_a=state.team_names[0],
        score_a=state.scores[0],
        team_b=state.team_names[1],
        score_b=state.scores[1],
    )


def _game_over_text(state: State) -> Text:
    first, second = state.scores
    if first == second:
        return BOTH_WIN(count=first)
    top = 0 if first > second else 1
    return TEAM_WINS(
        team=state.team_names[top], count=state.scores[top], other=state.scores[1 - top]
    )


def _lead_holder_text(trump_card: Card | None) -> Text:
    if trump_card == GREEN_ONE:
        return HOLDER_GREEN_TRUMP(card=BLUE_THIRTEEN, green=GREEN_ONE)
    return HOLDER(card=GREEN_ONE)


def _next_text(state: State) -> Text:
    """What happens next, as a sentence."""
    step = next_step(state)
    rnd = state.round
    if step == "over":
        return _game_over_text(state)
    if step == "trump":
        lead = round_first_lead(state)
        if lead is not None and rnd.number > 1:
            return TURN_UP_TRUMP_LEADS(number=rnd.number, name=state.players[lead])
        return TURN_UP_TRUMP(number=rnd.number)
    if step == "first-lead":
        if rnd.trump_card == GREEN_ONE:
            return WHO_LEADS_GREEN_TRUMP(card=BLUE_THIRTEEN, green=GREEN_ONE)
        return WHO_LEADS(card=GREEN_ONE)
    return trickplay.turn_text(rnd, state.players)


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
    number = parse_whole_number(seat, THE_SEAT(), "seat")
    if not 0 <= number < SEATS:
        raise IllegalAction(SEATS_ARE(number=number), "seat")
    return number


def _check_team(team: object) -> int:
    number = parse_whole_number(team, THE_TEAM(), "team")
    if number not in (0, 1):
        raise IllegalAction(TEAMS_ARE(number=number), "team")
    return number


def _check_how(how: object) -> How:
    for known in HOWS:
        if how == known:
            return known
    raise IllegalAction(HOW_IS(), "how")


def _check_boss(raw: object) -> tuple[Card, ...]:
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise IllegalAction(LIST_BOSS(), "boss")
    return tuple(_check_card(item, "boss") for item in raw)


def _require_cards_due(state: State, field: str) -> Round:
    """The round, when its trump card and first lead are known; else why not."""
    rnd = state.round
    step = next_step(state)
    if step == "over":
        raise IllegalAction(GAME_OVER(), field)
    if step == "trump":
        raise trickplay.turn_up_first(TRUMP_CARD(), rnd.number, bool(state.rounds), field)
    if step == "first-lead":
        raise IllegalAction(SAY_WHO_LEADS(holder=_lead_holder_text(rnd.trump_card)), field)
    return rnd


# --- Rules -----------------------------------------------------------------------


def _new_round(number: int, first_lead: int | None) -> Round:
    lead = None if first_lead is None else (first_lead + number - 1) % SEATS
    return Round(number, None, lead, False, (), (), lead, frozenset())


def _apply_trump(state: State, action: TrumpCard) -> State:
    if state.finished:
        raise IllegalAction(GAME_OVER(), "card")
    rnd = state.round
    if rnd.trump_card is not None:
        raise IllegalAction(HAS_TRUMP(number=rnd.number, card=rnd.trump_card), "card")
    card = _check_card(action.card, "card")
    started = evolve(state, round=evolve(rnd, trump_card=card))
    said = [TRUMP_IS(number=rnd.number, card=card, colour=colour_words(card.colour))]
    if card.number == BOSS_NUMBER:
        said.append(SIX_BOSS())
    if rnd.number > 1:
        said.append(LEAD_MOVES())
    said.append(_next_text(started))
    return evolve(started, last_ruling=sentences(*said))


def _apply_first_lead(state: State, action: FirstLead) -> State:
    if state.finished:
        raise IllegalAction(GAME_OVER(), "seat")
    rnd = state.round
    if rnd.number > 1 or state.first_lead is not None:
        lead = round_first_lead(state)
        if lead is None:
            raise IllegalAction(ONLY_ROUND_ONE(), "seat")
        raise IllegalAction(
            ONLY_ROUND_ONE_LEADS(name=state.players[lead], number=rnd.number), "seat"
        )
    if rnd.trump_card is None:
        raise IllegalAction(TRUMP_FIRST(green=GREEN_ONE, blue=BLUE_THIRTEEN), "seat")
    seat = _check_seat(action.seat)
    name = state.players[seat]
    ruling: Text
    if rnd.trump_card == GREEN_ONE:
        ruling = BLUE_LEADS(green=GREEN_ONE, blue=BLUE_THIRTEEN, name=name)
    else:
        ruling = GREEN_LEADS(name=name, green=GREEN_ONE)
    return evolve(
        state,
        first_lead=seat,
        round=evolve(rnd, first_lead=seat, leader=seat),
        last_ruling=ruling,
    )


def _apply_pass(state: State) -> State:
    rnd = _require_cards_due(state, "type")
    if rnd.tricks or rnd.current:
        raise IllegalAction(PASS_TOO_LATE(), "type")
    if rnd.passed:
        raise IllegalAction(PASS_DONE(), "type")
    passed = evolve(state, round=evolve(rnd, passed=True))
    ruling = sentences(PASSED(), _next_text(passed))
    return evolve(passed, last_ruling=ruling)


def _apply_play(state: State, action: Play) -> State:
    rnd = _require_cards_due(state, "card")
    card = _check_card(action.card, "card")
    if card == rnd.trump_card:
        raise IllegalAction(OUT_OF_PLAY(card=card), "card")
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


def _complete_trick(state: State, said: list[Text | str]) -> State:
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
    said.append(trickplay.taken_text(trick.number, state.players[winner], judged))
    if boss:
        said.append(TEAM_CAPTURE_TALLY(team=label, cards=all_of(boss), count=taken, boss=len(held)))
    else:
        said.append(TEAM_TALLY(team=label, count=taken, boss=len(held)))
    record = _round_end(state, trick)
    if record is None:
        said.append(_next_text(state))
        return evolve(state, last_ruling=sentences(*said))
    said.append(_round_end_text(state, record, len(boss)))
    return _finish_round(state, record, said)


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


def _round_end_text(state: State, record: RoundRecord, captured_now: int) -> Text | str:
    winner = state.team_names[record.winner]
    loser = state.team_names[1 - record.winner]
    stars_text = _stars_text(record.boss, record.trump_card.colour)
    number = record.number
    if record.how == "four-boss":
        count = len(record.boss)
        # Four Boss Yokai at least: their 4th to 7th.
        reach = CAPTURE_NTH if captured_now == 1 or count == BOSS_TO_WIN else REACH
        return reach(team=winner, count=count, number=number, stars=stars_text)
    if record.how == "seven-tricks":
        held = _boss_of(state.round.tricks)
        losers_boss = len(held[1 - record.winner])
        lose = (
            LOSE_SEVEN_NONE(team=loser, number=number)
            if not losers_boss
            else LOSE_SEVEN_ONLY(team=loser, count=losers_boss, number=number)
        )
        from_hands = [card for card in record.boss if card not in held[record.winner]]
        take = (
            WIN_FROM_HANDS(team=winner, cards=all_of(from_hands), stars=stars_text)
            if from_hands
            else WIN_PLAIN(team=winner, stars=stars_text)
        )
        return sentences(lose, take)
    return LAST_TRICK(team=winner, number=number, stars=stars_text)


def _finish_round(state: State, record: RoundRecord, said: list[Text | str]) -> State:
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
    said.append(_score_text(ended))
    said.append(_next_text(ended))
    return evolve(ended, last_ruling=sentences(*said))


def _check_result(state: State, action: RoundResult) -> tuple[int, How, tuple[Card, ...]]:
    team = _check_team(action.team)
    how = _check_how(action.how)
    boss = _check_boss(action.boss)
    trump_card = state.round.trump_card
    assert trump_card is not None
    seen: set[Card] = set()
    for card in boss:
        if card.number != BOSS_NUMBER:
            raise IllegalAction(NOT_A_BOSS(card=card), "boss")
        if card in seen:
            raise IllegalAction(LISTED_TWICE(card=card), "boss")
        if card == trump_card:
            raise IllegalAction(TRUMP_NOT_CAPTURED(card=card), "boss")
        seen.add(card)
    trump_seven = trump_card.number == BOSS_NUMBER
    if how == "four-boss" and len(boss) < BOSS_TO_WIN:
        raise IllegalAction(FOUR_NEEDED(count=len(boss)), "boss")
    if how == "seven-tricks":
        needed = BOSS_NUMBER - (BOSS_TO_WIN - 1) - (1 if trump_seven else 0)
        if len(boss) < needed:
            raise IllegalAction(SEVEN_NEEDS(needed=needed, count=len(boss)), "boss")
    if how == "last-trick":
        if not trump_seven:
            raise IllegalAction(NO_LAST_TRICK(card=trump_card), "how")
        if len(boss) != BOSS_TO_WIN - 1:
            raise IllegalAction(LAST_TRICK_THREE(count=len(boss)), "boss")
    return team, how, YOKAI_SEPTET.in_order(boss)


def _apply_result(state: State, action: RoundResult) -> State:
    rnd = _require_cards_due(state, "type")
    if rnd.tricks or rnd.current:
        raise IllegalAction(RESULT_TOO_LATE(), "type")
    team, how, boss = _check_result(state, action)
    trump_card = rnd.trump_card
    assert trump_card is not None
    points = sum(stars(card, trump_card.colour) for card in boss)
    record = RoundRecord(rnd.number, trump_card, team, how, boss, points, (0, 0), fast=True)
    winner, loser = state.team_names[team], state.team_names[1 - team]
    stars_text = _stars_text(boss, trump_card.colour)
    result: Text
    if how == "four-boss":
        result = RESULT_FOUR(number=rnd.number, team=winner, stars=stars_text)
    elif how == "seven-tricks":
        result = RESULT_SEVEN(number=rnd.number, team=winner, loser=loser, stars=stars_text)
    else:
        result = RESULT_LAST(number=rnd.number, team=winner, stars=stars_text)
    return _finish_round(state, record, [result])


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
        ruling = sentences(settled.dismissed_text(), _next_text(dismissed))
        return evolve(dismissed, last_ruling=ruling)
    to = 1 - team_of(flag.seat)
    scores = list(state.scores)
    scores[to] += penalty
    # A penalty can end the game; one settled after the game is over never reopens it.
    finished = state.finished or scores[to] >= TARGET
    accepted = evolve(state, flags=flags, scores=(scores[0], scores[1]), finished=finished)
    given = PENALTY_TO(count=penalty, team=state.team_names[to])
    ruling = sentences(settled.accepted_text(given), _score_text(accepted), _next_text(accepted))
    return evolve(accepted, last_ruling=ruling)


# --- JSON --------------------------------------------------------------------------

# The deck of a card played and the highest revoke penalty, for the shared declarations.
ACTIONS: ActionSet[Action] = ActionSet(
    Action, context={"deck": YOKAI_SEPTET, "max_penalty": MAX_PENALTY}
)


# --- The game ------------------------------------------------------------------------


def _how_note(how: How) -> Text:
    if how == "four-boss":
        return NOTE_FOUR()
    if how == "seven-tricks":
        return NOTE_SEVEN()
    return NOTE_LAST()


def _text_option(options: Mapping[str, OptionValue], name: str) -> str:
    value = options[name]
    return value if isinstance(value, str) else str(value)


def _describe_result(result: RoundResult) -> Text:
    said = {"four-boss": LOG_FOUR, "seven-tricks": LOG_SEVEN, "last-trick": LOG_LAST}[result.how]
    return said(team=result.team + 1)


PLAYERS_NEEDED = phrase(
    "yokai-septet.players-needed",
    "Yokai Septet is for exactly 4 players, two teams of partners sitting across",
)


def _notes(notes: Sequence[Text]) -> Text | str:
    """A team's notes of a round, one after another ("won the last trick; ...")."""
    return _chained(notes, DETAIL_AND) if notes else ""


class YokaiSeptet(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names; seats and teams count from 1 in them. Play again keeps the
    options and the seats in order: the green 1, wherever it was dealt, leads round 1.
    """

    slug = "yokai-septet"
    title = TITLE()
    min_players = SEATS
    max_players = SEATS
    partners = tuple(tuple(s for s in range(SEATS) if team_of(s) == t) for t in (0, 1))
    options = (
        OptionSpec(
            "team_a",
            TEAM_A(),
            "text",
            "",
            help=TEAM_A_HELP(),
            maximum=40,
            summary=TEAM_A_SUMMARY(),
            blank=THEIR_NAMES(),
        ),
        OptionSpec(
            "team_b",
            TEAM_B(),
            "text",
            "",
            help=TEAM_B_HELP(),
            maximum=40,
            summary=TEAM_B_SUMMARY(),
            blank=THEIR_NAMES(),
        ),
    )
    actions = ACTIONS
    handlers = (
        on(TrumpCard, _apply_trump, lambda trump: LOG_TRUMP(card=trump.card)),
        on(FirstLead, _apply_first_lead, lambda lead: LOG_FIRST_LEAD(seat=lead.seat + 1)),
        on(Pass, lambda state, _pass: _apply_pass(state), lambda _pass: LOG_PASS()),
        on(Play, _apply_play, lambda play: LOG_PLAY(card=play.card)),
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
            last_ruling=TURN_UP_TRUMP(number=1),
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
            notes: list[list[Text]] = [[], []]
            record = records.get(number)
            if record is not None:
                points[record.winner] += record.points
                note = _how_note(record.how)
                notes[record.winner].append(NOTE_ENTERED(note=note) if record.fast else note)
                notes[1 - record.winner].append(NOTE_LOST())
            for flag in penalties.get(number, []):
                to = 1 - team_of(flag.seat)
                name = state.players[flag.seat]
                points[to] += flag.penalty
                notes[to].append(NOTE_PENALTY(penalty=flag.penalty, name=name))
                notes[1 - to].append(NOTE_REVOKED(name=name, penalty=flag.penalty))
            for team in (0, 1):
                totals[team] += points[team]
            for seat, name in enumerate(state.players):
                team = team_of(seat)
                rows.append(
                    ScoreRow(number, seat, name, points[team], totals[team], _notes(notes[team]))
                )
        return rows


GAME = YokaiSeptet()
