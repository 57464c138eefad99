"""Cryptruck, a trick-taking game for 3 to 5: the dealer's card, blocks and three rounds.

The table plays real cards and enters them one by one (or only each seat's
cards won at the end of a round). The engine knows whose turn it is to say
want or pass, plays the dealer's card as the first lead, judges every trick
with ``cards.cryptruck_trick``, scores each seat's blocks (the 3s, 4s and 5s)
and flags a possible revoke it can see from the cards alone (``follow``).
Rule sheet: shared/rules/cryptruck.md and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BeforeValidator, with_config

from scorekeeper.games import follow, trickplay
from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask, CardText
from scorekeeper.games.base import (
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    check_seat_option,
    int_option,
    names_option,
    rank_by_score,
    resolve_options,
)
from scorekeeper.games.cards import Card
from scorekeeper.games.cards import colour_words as colour_words
from scorekeeper.games.cryptruck.cards import CRYPTRUCK, TITLE, cryptruck_trick
from scorekeeper.games.engine import CARDS, CHOICES, GAME_OVER, Engine, on
from scorekeeper.games.follow import ResolveRevoke, RevokeFlag
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve

# Re-exported: the play action and a completed trick live in trickplay.py, shared with Yokai Septet.
from scorekeeper.games.trickplay import CompletedTrick as CompletedTrick
from scorekeeper.games.trickplay import Play as Play
from scorekeeper.games.trickplay import sentences
from scorekeeper.games.trickplay import trick_headline as trick_headline
from scorekeeper.games.trickplay import trick_reason as trick_reason
from scorekeeper.games.words import Signed, Text, all_of, counted, each_of, phrase
from scorekeeper.games.words import first_sentence as first_sentence

MIN_SEATS = 3
MAX_SEATS = 5
ROUNDS = 3
TRICKS_PER_ROUND = 6
BLOCK_NUMBERS = (3, 4, 5)
NO_BLOCKS_POINTS = 5
MANY_BLOCKS = 4
MAX_PENALTY = 10

WHITE = "white"
WHITE_THREE = Card(WHITE, 3)
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")


# --- What the game says ----------------------------------------------------------

ASK_REVEALED = phrase("cryptruck.ask-revealed-card", "the revealed card")
ASK_DEALER_CARD = phrase("cryptruck.ask-dealer-card", "the card the dealer reveals")
ASK_WANT = phrase("cryptruck.ask-want", "want (true) or pass (false)")
ASK_WON = phrase("cryptruck.ask-won", "each seat's cards won")
REVEALED_CARD = phrase("cryptruck.revealed-card", "revealed card")
# Lists said with commas: "red 3, blue 4", "Ann 6, Bo 4".
NO_BLOCKS = phrase("cryptruck.no-blocks", "no blocks: {points}")
MANY_BLOCKS_SUM = phrase("cryptruck.many-blocks", "{blocks} blocks: {points}")
BLOCKS = counted("cryptruck.blocks", "{count} block", "{count} blocks")
COLOURS_COUNT = counted("cryptruck.colours", "{count} colour", "{count} colours")
# The multiplication sign (U+00D7), between the numbers of a sum.
BLOCKS_SUM = phrase(
    "cryptruck.blocks-sum",
    "{blocks} ({cards}) in {colours}: {count} \u00d7 {colour_count} = {points}",
)
TOTALS = phrase("cryptruck.totals", "Totals: {totals}.")
NAME_POINTS = phrase("cryptruck.name-points", "{name} {points}")
WINS = counted(
    "cryptruck.game-over",
    "Game over: {name} wins with {count} point.",
    "Game over: {name} wins with {count} points.",
)
SHARE_WIN = counted(
    "cryptruck.game-over-shared",
    "Game over: {names} share the win with {count} point.",
    "Game over: {names} share the win with {count} points.",
)
DEALS = phrase("cryptruck.deals", "Round {number}: {dealer} deals.")
TURN_UP_UNDEALT = phrase("cryptruck.turn-up-undealt", "Turn up one of the two undealt cards.")
REVEALS_FROM_HAND = phrase("cryptruck.reveals-from-hand", "{dealer} reveals a card from hand.")
WANT_OR_PASS = phrase("cryptruck.want-or-pass", "{name}: want {card} or pass?")
TAKES_AND_GIVES = phrase(
    "cryptruck.takes-and-gives", "{taker} takes {card} and gives {dealer} a card."
)
DEALER_REVEALS_FIRST = phrase(
    "cryptruck.dealer-reveals-first", "{dealer} (the dealer) reveals a card from hand first."
)
BIDDING_NOT_OVER = phrase(
    "cryptruck.bidding-not-over", "The bidding is not over: {name} says want or pass first."
)
TAKES_AND_GIVES_FIRST = phrase(
    "cryptruck.takes-and-gives-first", "{taker} takes {card} and gives {dealer} a card first."
)
UNDER_WAY = phrase("cryptruck.under-way", "Round {number} is under way: {next}")
NOT_IN_COLOURS = phrase(
    "cryptruck.not-in-colours", "{card}: {colour} is not in this game's colours ({colours})."
)
ONE_IS_REVEALED = phrase("cryptruck.one-is-revealed", "one is the revealed card")
IS_REVEALED = phrase("cryptruck.is-revealed", "{card} is the revealed card")
ONE_IS_DEALERS = phrase("cryptruck.one-is-dealers", "one is the dealer's card")
ONE_WAS = phrase("cryptruck.one-was", "one was {where}")
BOTH_OUT = phrase("cryptruck.both-out", "Both {card}s are out this round: {whys}.")
REVEALED_OUT = phrase(
    "cryptruck.revealed-out", "{card} is the revealed card: it is out of play this round."
)
DEALERS_LEADS = phrase(
    "cryptruck.dealers-card-leads",
    "{card} is the dealer's card: it leads trick 1; give another card.",
)
WON_LISTS = phrase(
    "cryptruck.won-lists",
    "List the cards won by each of the {count} players, one list per seat ({count} lists); "
    "{given} given.",
)
LISTED_BUT_REVEALED = phrase(
    "cryptruck.listed-but-revealed",
    "{card} is listed {times}, but one {card} is the revealed card: only one more is in play.",
)
LISTED_ONLY_ONE = phrase(
    "cryptruck.listed-only-one", "{card} is listed {times}; there is only one."
)
LISTED_ONLY_TWO = phrase(
    "cryptruck.listed-only-two", "{card} is listed {times}; there are only two."
)
AT_MOST_WON = phrase(
    "cryptruck.at-most-won",
    "At most {most} cards are won in a {count}-player round ({tricks} tricks of {count}); "
    "{listed} listed.",
)
ONCE = phrase("cryptruck.once", "once")
TWICE = phrase("cryptruck.twice", "twice")
TIMES = counted("cryptruck.times", "{count} time", "{count} times")
WON_SHAPE = phrase(
    "cryptruck.won-shape",
    'List each seat\'s cards won, like [["red 3", "white 3"], [], ["blue 4"]].',
)
HAS_REVEALED = phrase(
    "cryptruck.has-revealed-card", "Round {number} already has its revealed card ({card})."
)
REVEALED_WHITE = phrase(
    "cryptruck.revealed-white",
    "Round {number}: {dealer} deals; the revealed card {card} makes white the only trump.",
)
REVEALED_TRUMP = phrase(
    "cryptruck.revealed-trump",
    "Round {number}: {dealer} deals; the revealed card {card} makes {colour} trump, with white.",
)
ALREADY_REVEALED = phrase("cryptruck.already-revealed", "{dealer} already revealed {card}.")
REVEALS = phrase("cryptruck.reveals", "{dealer} reveals {card}.")
BIDDING_OVER = phrase("cryptruck.bidding-over", "The bidding is over.")
WANT_BOOLEAN = phrase("cryptruck.want-boolean", "want must be true or false.")
WANTS = phrase("cryptruck.wants", "{name} wants it.")
PASSES = phrase("cryptruck.passes", "{name} passes.")
NOBODY_WANTS = phrase(
    "cryptruck.nobody-wants", "Nobody wants {card}: {dealer} (the dealer) leads it."
)
NOBODY_WANTED = phrase("cryptruck.nobody-wanted", "Nobody wanted {card}: no card changes hands.")
ALREADY_TOOK = phrase("cryptruck.already-took", "{taker} already took {card}.")
TAKES_GIVES_CARD = phrase(
    "cryptruck.takes-gives-card",
    "{taker} takes {card}, gives {dealer} {given} and leads {card}.",
)
TAKES_GIVES_A_CARD = phrase(
    "cryptruck.takes-gives-a-card", "{taker} takes {card}, gives {dealer} a card and leads {card}."
)
HAS_BLOCKS = counted(
    "cryptruck.has-blocks",
    "{name} has {count} block this round.",
    "{name} has {count} blocks this round.",
)
WON_TOO_LATE = phrase(
    "cryptruck.won-too-late",
    "The cards won are entered right after the revealed card, instead of the tricks; "
    "round {number}'s cards are already being entered.",
)
SEAT_RESULT = phrase("cryptruck.seat-result", "{name} {points} ({breakdown})")
SEAT_RESULT_PENALTY = phrase(
    "cryptruck.seat-result-penalty", "{name} {points} ({breakdown}; revoke penalty {penalty})"
)
ROUND_SCORES = phrase("cryptruck.round-scores", "Round {number} scores: {scores}.")
ROUND_SCORES_FAST = phrase(
    "cryptruck.round-scores-fast",
    "Round {number} scores (entered as the cards won): {scores}.",
)
LOSES = counted(
    "cryptruck.loses",
    "{name} loses {count} point in round {round}",
    "{name} loses {count} points in round {round}",
)
NO_POINTS_LOST = phrase("cryptruck.no-points-lost", "no points lost")
WANT_TRUE_OR_FALSE = phrase(
    "cryptruck.want-true-or-false", "want must be true (wants the card) or false (passes)."
)
COLOURS_TICKED = phrase(
    "cryptruck.colours-ticked", "A {seats}-player game uses {seats} colours; you ticked {ticked}."
)
NOTE_PENALTY = phrase("cryptruck.note-penalty", "{note}; revoke penalty {penalty}")
# Log lines: short, no names.
LOG_REVEALED = phrase("cryptruck.log-revealed", "revealed card {card}")
LOG_DEALER_CARD = phrase("cryptruck.log-dealer-card", "dealer's card {card}")
LOG_WANT = phrase("cryptruck.log-want", "want")
LOG_PASS = phrase("cryptruck.log-pass", "pass")
LOG_GIVE_A_CARD = phrase("cryptruck.log-give-a-card", "give a card")
LOG_GIVE = phrase("cryptruck.log-give", "give {card}")
LOG_PLAY = phrase("cryptruck.log-play", "play {card}")
LOG_WON = counted("cryptruck.log-won", "cards won: {count} card", "cards won: {count} cards")
# Options.
COLOURS_OPTION = phrase("cryptruck.option-colours", "Colours in use")
COLOURS_HELP = phrase(
    "cryptruck.option-colours-help",
    "As many as players; none ticked = the first ones in this order.",
)
COLOURS_SUMMARY = phrase("cryptruck.option-colours-summary", "colours: {{}}")
THE_FIRST_ONES = phrase("cryptruck.option-colours-blank", "the first ones")
FIRST_DEALER = phrase("cryptruck.option-first-dealer", "First dealer")
FIRST_DEALER_HELP = phrase(
    "cryptruck.option-first-dealer-help", "The seat that deals round 1; the deal passes clockwise."
)
FIRST_DEALER_SUMMARY = phrase("cryptruck.option-first-dealer-summary", "{{}} deals first")


Step = Literal["reveal", "dealer-card", "bid", "give", "play", "over"]
_STEP_ORDER: tuple[Step, ...] = ("reveal", "dealer-card", "bid", "give", "play", "over")


# --- Actions -------------------------------------------------------------------


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Reveal:
    """One of the two undealt cards, turned up at the start of a round.

    Its colour is trump, with white (a white card: only white is trump); it
    is out of play this round.
    """

    type: Literal["reveal"] = field(default="reveal", kw_only=True, repr=False)
    card: Annotated[
        CardText, Ask(ASK_REVEALED()), BeforeValidator(lambda raw: _parse_card(raw, "card"))
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class DealerCard:
    """The card the dealer reveals from hand: it leads trick 1."""

    type: Literal["dealer-card"] = field(default="dealer-card", kw_only=True, repr=False)
    card: Annotated[
        CardText,
        Ask(ASK_DEALER_CARD()),
        BeforeValidator(lambda raw: _parse_card(raw, "card")),
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Bid:
    """The next seat from the dealer's left says it wants the dealer's card, or passes."""

    type: Literal["bid"] = field(default="bid", kw_only=True, repr=False)
    want: Annotated[bool, Ask(ASK_WANT()), BeforeValidator(_parse_want)]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Give:
    """The taker takes the dealer's card and gives the dealer a card (None: not recorded)."""

    type: Literal["give"] = field(default="give", kw_only=True, repr=False)
    card: Annotated[CardText | None, BeforeValidator(_parse_given)] = None


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class WonCards:
    """A whole round as each seat's cards won, one tuple per seat (block cards are enough)."""

    type: Literal["won"] = field(default="won", kw_only=True, repr=False)
    cards: Annotated[
        tuple[tuple[CardText, ...], ...],
        Ask(ASK_WON()),
        BeforeValidator(_parse_won),
    ]


Action = Reveal | DealerCard | Bid | Give | Play | WonCards | ResolveRevoke


# --- State ---------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """The round in progress (or about to start: nothing revealed yet).

    ``trump`` is the revealed card's colour ("white": white only; otherwise
    white is trump too). ``bids`` are in bidding order, from the dealer's
    left. ``taker`` is the seat that takes the dealer's card, known once every
    bid is in (None if nobody wanted it); ``given`` the card it gave the
    dealer, if recorded. The dealer's card is played as trick 1's lead by the
    taker (or the dealer) as soon as that is settled; ``leader`` leads the
    trick in progress, whose cards so far are ``current``. ``voids``: (seat,
    colour) pairs a seat showed it lacks this round. ``won``: each seat's
    cards won so far this round.
    """

    number: int
    dealer: int
    trump: str | None
    revealed: Card | None
    dealer_card: Card | None
    bids: tuple[bool, ...]
    taker: int | None
    given: Card | None
    tricks: tuple[CompletedTrick, ...]
    current: tuple[Card, ...]
    leader: int | None
    voids: follow.Voids
    won: tuple[tuple[Card, ...], ...]

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (or the next one)."""
        return len(self.tricks) + 1


@dataclass(frozen=True)
class RoundRecord:
    """A scored round, per seat: cards won, block points, the sentence, penalties lost.

    ``scores`` are the block points alone; a seat's round result is its score
    minus its penalty. ``fast``: entered as cards won rather than trick by trick.
    """

    number: int
    dealer: int
    trump: str
    won: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    breakdown: tuple[str, ...]
    penalties: tuple[int, ...]
    fast: bool

    def points(self, seat: int) -> int:
        """The seat's result this round: its block points less its revoke penalties."""
        return self.scores[seat] - self.penalties[seat]


@dataclass(frozen=True)
class Now:
    """What the table needs of the scored rounds and the revoke flags now: the newest
    round's result (None before the first is scored) and the flags still to settle."""

    last_round: RoundRecord | None
    open_flags: tuple[follow.OpenFlag, ...]


@dataclass(frozen=True)
class State:
    """A session: seats in table order, from 0.

    ``colours`` are the colours in play (white is always in it too);
    ``first_dealer`` is the seat (from 0) that deals round 1. ``totals`` count
    every scored round and every accepted revoke penalty. Once the game is
    over, ``round`` is the last round played; otherwise it is the round in
    progress or the next one to start.
    """

    players: tuple[str, ...]
    colours: tuple[str, ...]
    first_dealer: int
    round: Round
    rounds: tuple[RoundRecord, ...] = field(metadata=HISTORY)
    totals: tuple[int, ...]
    flags: tuple[RevokeFlag, ...] = field(metadata=HISTORY)
    finished: bool
    last_ruling: str

    def now(self) -> Now:
        """What the table needs of ``rounds`` and ``flags`` (history: see games.history)."""
        return Now(
            last_round=self.rounds[-1] if self.rounds else None,
            open_flags=follow.open_flag_records(self.flags),
        )


# --- Helpers the app reads -----------------------------------------------------


def dealer_of(state: State, round_number: int) -> int:
    """The seat dealing round ``round_number``: the deal passes clockwise."""
    return (state.first_dealer + round_number - 1) % len(state.players)


def next_step(state: State) -> Step:
    """What the app asks for next ("dealer-card" also allows the cards won)."""
    rnd = state.round
    if state.finished:
        return "over"
    if rnd.revealed is None:
        return "reveal"
    if rnd.dealer_card is None:
        return "dealer-card"
    if len(rnd.bids) < len(state.players) - 1:
        return "bid"
    if rnd.leader is None:
        return "give"
    return "play"


def bidder(state: State) -> int | None:
    """The seat to say want or pass next, or None outside the bidding."""
    if next_step(state) != "bid":
        return None
    return (state.round.dealer + 1 + len(state.round.bids)) % len(state.players)


def turn_seat(state: State) -> int | None:
    """The seat to play the next card, or None when no card is due."""
    if next_step(state) != "play":
        return None
    return trickplay.next_seat(state.round, len(state.players))


def deck_cards(state: State) -> tuple[Card, ...]:
    """The cards in play this game, each once: the colours' 1 to 6, then the white 3.

    The deck holds two white 3s, so it is 6 cards a player, plus 2.
    """
    coloured = (Card(colour, number) for colour in state.colours for number in range(1, 7))
    return (*coloured, WHITE_THREE)


def block_cards(state: State) -> tuple[Card, ...]:
    """The cards that score as blocks this game (the 3s, 4s and 5s, white 3 included)."""
    return tuple(card for card in deck_cards(state) if card.number in BLOCK_NUMBERS)


def played_cards(state: State) -> frozenset[Card]:
    """The cards no copy of which is left to play this round.

    The revealed card, the dealer's card and every card played; the white 3
    only once both white 3s are out.
    """
    uses = _uses(state)
    return frozenset(
        card
        for card, *_ in uses
        if sum(1 for other, *_ in uses if other == card) >= CRYPTRUCK.copies_of(card)
    )


def can_enter_won(state: State) -> bool:
    """Whether the round's cards won may be entered now: right after the revealed card."""
    return next_step(state) == "dealer-card"


def open_flags(state: State) -> list[tuple[int, RevokeFlag]]:
    """The revoke flags still to settle, with their index in ``state.flags``."""
    return follow.open_flags(state.flags)


def expected_actions(state: State) -> Expected:
    """What the engine accepts now, and whose move it is.

    The seat is the one the step waits for: the dealer revealing a card from
    hand (or the table entering the round's cards won instead, the fast path),
    the seat to say want or pass, the taker giving the dealer a card, the seat
    to play. It is None while the table turns up the revealed card (an undealt
    card, in nobody's hand) and once the game is over. The cards listed are
    those still in play this round (``played_cards``): following the led
    colour is watched with revoke flags, never enforced by refusing a card. A
    give may also carry no card (the card given is not recorded).

    Open revoke flags are the table's to settle at any point, after the game
    too (a revoke in the last trick ends the game with the flag open): then
    ``revoke`` is listed, its choices the open flags' indices, so a finished
    game lists nothing only once every flag is settled.
    """
    step = next_step(state)
    out = played_cards(state)
    in_play = tuple(str(card) for card in deck_cards(state) if card not in out)
    seat: int | None = None
    actions: list[Accepts] = []
    if step == "reveal":
        actions.append(Accepts("reveal", cards=in_play))
    elif step == "dealer-card":
        seat = state.round.dealer
        actions += [Accepts("dealer-card", cards=in_play), Accepts("won", cards=in_play)]
    elif step == "bid":
        seat = bidder(state)
        actions.append(Accepts("bid", choices=(True, False)))
    elif step == "give":
        seat = state.round.taker
        actions.append(Accepts("give", cards=in_play))
    elif step == "play":
        seat = turn_seat(state)
        actions.append(Accepts("play", cards=in_play))
    flags = open_flags(state)
    if flags:
        actions.append(Accepts("revoke", choices=tuple(index for index, _ in flags)))
    return Expected(seat, tuple(actions))


def score_blocks(cards: Sequence[Card]) -> tuple[int, Text]:
    """A seat's points for its cards won this round, and the sentence that shows the sum.

    0 blocks: 5. 1 to 3 blocks: blocks times colours among them (white is a
    colour of its own). 4 or more: the number of blocks.
    """
    blocks = CRYPTRUCK.in_order([card for card in cards if card.number in BLOCK_NUMBERS])
    count = len(blocks)
    if not count:
        return NO_BLOCKS_POINTS, NO_BLOCKS(points=NO_BLOCKS_POINTS)
    if count >= MANY_BLOCKS:
        return count, MANY_BLOCKS_SUM(blocks=count, points=count)
    colours = len({card.colour for card in blocks})
    points = count * colours
    return points, BLOCKS_SUM(
        blocks=BLOCKS(count=count),
        cards=each_of(blocks),
        colours=COLOURS_COUNT(count=colours),
        count=count,
        colour_count=colours,
        points=points,
    )


# --- Sentences -----------------------------------------------------------------


def _totals_text(state: State) -> Text:
    listed = each_of(
        [
            NAME_POINTS(name=name, points=total)
            for name, total in zip(state.players, state.totals, strict=True)
        ]
    )
    return TOTALS(totals=listed)


def _game_over_text(state: State) -> Text:
    top = max(state.totals)
    names = [state.players[seat] for seat in _top_seats(state)]
    if len(names) == 1:
        return WINS(name=names[0], count=top)
    return SHARE_WIN(names=all_of(names), count=top)


def _top_seats(state: State) -> list[int]:
    top = max(state.totals)
    return [seat for seat, total in enumerate(state.totals) if total == top]


def _next_text(state: State) -> Text | str:
    """What happens next, as a sentence."""
    step = next_step(state)
    rnd = state.round
    players = state.players
    dealer = players[rnd.dealer]
    if step == "over":
        return _game_over_text(state)
    if step == "reveal":
        return sentences(DEALS(number=rnd.number, dealer=dealer), TURN_UP_UNDEALT())
    if step == "dealer-card":
        return REVEALS_FROM_HAND(dealer=dealer)
    if step == "bid":
        seat = bidder(state)
        assert seat is not None
        return WANT_OR_PASS(name=players[seat], card=rnd.dealer_card)
    if step == "give":
        assert rnd.taker is not None
        return TAKES_AND_GIVES(taker=players[rnd.taker], card=rnd.dealer_card, dealer=dealer)
    return trickplay.turn_text(rnd, players)


def _wrong_step(state: State, field: str) -> IllegalAction:
    """Why an action is not due yet: what the table enters first."""
    step = next_step(state)
    rnd = state.round
    dealer = state.players[rnd.dealer]
    if step == "over":
        return IllegalAction(GAME_OVER(), field)
    if step == "reveal":
        return trickplay.turn_up_first(REVEALED_CARD(), rnd.number, bool(state.rounds), field)
    if step == "dealer-card":
        return IllegalAction(DEALER_REVEALS_FIRST(dealer=dealer), field)
    if step == "bid":
        seat = bidder(state)
        assert seat is not None
        return IllegalAction(BIDDING_NOT_OVER(name=state.players[seat]), field)
    if step == "give":
        assert rnd.taker is not None
        return IllegalAction(
            TAKES_AND_GIVES_FIRST(
                taker=state.players[rnd.taker], card=rnd.dealer_card, dealer=dealer
            ),
            field,
        )
    return IllegalAction(UNDER_WAY(number=rnd.number, next=_next_text(state)), field)


def _require(state: State, wanted: Step, field: str, already: Text | str) -> Round:
    """The round, when ``wanted`` is the next step; else why not (``already``: it is past)."""
    step = next_step(state)
    if step == wanted:
        return state.round
    if step != "over" and _STEP_ORDER.index(step) > _STEP_ORDER.index(wanted):
        said = sentences(already, _next_text(state))
        assert isinstance(said, Text)  # before the game is over, what comes next is a phrase
        raise IllegalAction(said, field)
    raise _wrong_step(state, field)


# --- Cards ---------------------------------------------------------------------


def _check_card(state: State, card: object, field: str) -> Card:
    """A card of this game's deck: a known card of one of its colours, or white 3."""
    parsed = CRYPTRUCK.parse(str(card) if isinstance(card, Card) else card, field)
    if parsed.colour != WHITE and parsed.colour not in state.colours:
        colours = each_of([colour_words(colour) for colour in state.colours])
        raise IllegalAction(
            NOT_IN_COLOURS(card=parsed, colour=colour_words(parsed.colour), colours=colours),
            field,
        )
    return parsed


# A copy of a card that is out of the hands this round: the card, and what
# became of it ("revealed", "dealer", "played") with the trick and seat.
_Use = tuple[Card, str, int, int]


def _uses(state: State) -> list[_Use]:
    rnd = state.round
    uses: list[_Use] = []
    if rnd.revealed is not None:
        uses.append((rnd.revealed, "revealed", 0, 0))
    if rnd.dealer_card is not None and rnd.leader is None:
        uses.append((rnd.dealer_card, "dealer", 0, rnd.dealer))
    uses.extend(
        (card, "played", trick, seat)
        for card, trick, seat in trickplay.plays(rnd, len(state.players))
    )
    return uses


def _use_text(state: State, use: _Use) -> Text:
    """Where one of two copies of a card went ("one is the revealed card")."""
    _card, what, trick, seat = use
    if what == "revealed":
        return ONE_IS_REVEALED()
    if what == "dealer":
        return ONE_IS_DEALERS()
    return ONE_WAS(where=trickplay.played_in(trick, state.players[seat]))


def _check_free(state: State, card: Card, field: str) -> None:
    """Refuse a card no copy of which is left to play this round, saying where it went."""
    uses = [use for use in _uses(state) if use[0] == card]
    copies = CRYPTRUCK.copies_of(card)
    if len(uses) < copies:
        return
    if copies > 1:
        whys = all_of(_use_text(state, use) for use in uses)
        raise IllegalAction(BOTH_OUT(card=card, whys=whys), field)
    use = uses[0]
    if use[1] == "revealed":
        raise IllegalAction(REVEALED_OUT(card=card), field)
    if use[1] == "dealer":
        raise IllegalAction(DEALERS_LEADS(card=card), field)
    raise trickplay.already_played(card, use[2], state.players[use[3]], field)


def _check_won(state: State, raw: object) -> tuple[tuple[Card, ...], ...]:
    count = len(state.players)
    lists = _won_lists(raw)
    if len(lists) != count:
        raise IllegalAction(WON_LISTS(count=count, given=len(lists)), "cards")
    won = tuple(tuple(_check_card(state, card, "cards") for card in seat) for seat in lists)
    revealed = state.round.revealed
    listed = [card for seat in won for card in seat]
    for card in dict.fromkeys(listed):
        times = listed.count(card)
        copies = CRYPTRUCK.copies_of(card)
        if times + (card == revealed) <= copies:
            continue
        if card == revealed and copies == 1:
            raise IllegalAction(REVEALED_OUT(card=card), "cards")
        if card == revealed:
            raise IllegalAction(LISTED_BUT_REVEALED(card=card, times=_times(times)), "cards")
        only = LISTED_ONLY_ONE if copies == 1 else LISTED_ONLY_TWO
        raise IllegalAction(only(card=card, times=_times(times)), "cards")
    most = TRICKS_PER_ROUND * count
    if len(listed) > most:
        raise IllegalAction(
            AT_MOST_WON(most=most, count=count, tricks=TRICKS_PER_ROUND, listed=len(listed)),
            "cards",
        )
    return won


def _times(number: int) -> Text:
    if number == 1:
        return ONCE()
    if number == 2:
        return TWICE()
    return TIMES(count=number)


def _won_lists(raw: object) -> list[list[object]]:
    shape = WON_SHAPE()
    if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
        raise IllegalAction(shape, "cards")
    lists: list[list[object]] = []
    for seat in raw:
        if isinstance(seat, (str, bytes, Mapping)) or not isinstance(seat, Sequence):
            raise IllegalAction(shape, "cards")
        lists.append(list(seat))
    return lists


# --- Rules ---------------------------------------------------------------------


def _new_round(number: int, dealer: int, seats: int) -> Round:
    return Round(
        number=number,
        dealer=dealer,
        trump=None,
        revealed=None,
        dealer_card=None,
        bids=(),
        taker=None,
        given=None,
        tricks=(),
        current=(),
        leader=None,
        voids=frozenset(),
        won=((),) * seats,
    )


def _apply_reveal(state: State, action: Reveal) -> State:
    rnd = _require(
        state,
        "reveal",
        "card",
        HAS_REVEALED(number=state.round.number, card=state.round.revealed),
    )
    card = _check_card(state, action.card, "card")
    started = evolve(state, round=evolve(rnd, revealed=card, trump=card.colour))
    dealer = state.players[rnd.dealer]
    revealed = (
        REVEALED_WHITE(number=rnd.number, dealer=dealer, card=card)
        if card.colour == WHITE
        else REVEALED_TRUMP(
            number=rnd.number, dealer=dealer, card=card, colour=colour_words(card.colour)
        )
    )
    return evolve(started, last_ruling=sentences(revealed, _next_text(started)))


def _apply_dealer_card(state: State, action: DealerCard) -> State:
    dealer = state.players[state.round.dealer]
    rnd = _require(
        state, "dealer-card", "card", ALREADY_REVEALED(dealer=dealer, card=state.round.dealer_card)
    )
    card = _check_card(state, action.card, "card")
    _check_free(state, card, "card")
    revealed = evolve(state, round=evolve(rnd, dealer_card=card))
    ruling = sentences(REVEALS(dealer=dealer, card=card), _next_text(revealed))
    return evolve(revealed, last_ruling=ruling)


def _apply_bid(state: State, action: Bid) -> State:
    rnd = _require(state, "bid", "want", BIDDING_OVER())
    if not isinstance(action.want, bool):
        raise IllegalAction(WANT_BOOLEAN(), "want")
    seat = bidder(state)
    assert seat is not None
    players = state.players
    bids = (*rnd.bids, action.want)
    said = WANTS(name=players[seat]) if action.want else PASSES(name=players[seat])
    if len(bids) < len(players) - 1:
        bidding = evolve(state, round=evolve(rnd, bids=bids))
        return evolve(bidding, last_ruling=sentences(said, _next_text(bidding)))
    wanters = [index for index, want in enumerate(bids) if want]
    if wanters:
        taker = (rnd.dealer + 1 + wanters[-1]) % len(players)
        told = evolve(state, round=evolve(rnd, bids=bids, taker=taker))
        return evolve(told, last_ruling=sentences(said, _next_text(told)))
    led = _lead_dealer_card(evolve(state, round=evolve(rnd, bids=bids)), rnd.dealer)
    nobody = NOBODY_WANTS(card=rnd.dealer_card, dealer=players[rnd.dealer])
    return evolve(led, last_ruling=sentences(said, nobody, _next_text(led)))


def _lead_dealer_card(state: State, leader: int) -> State:
    """The dealer's card, played by ``leader`` as the first card of trick 1."""
    rnd = state.round
    assert rnd.dealer_card is not None
    return evolve(state, round=evolve(rnd, leader=leader, current=(rnd.dealer_card,)))


def _apply_give(state: State, action: Give) -> State:
    rnd = state.round
    already: Text | str = ""
    if rnd.leader is not None and rnd.dealer_card is not None:
        if rnd.taker is None:
            already = NOBODY_WANTED(card=rnd.dealer_card)
        else:
            already = ALREADY_TOOK(taker=state.players[rnd.taker], card=rnd.dealer_card)
    rnd = _require(state, "give", "card", already)
    taker, card = rnd.taker, rnd.dealer_card
    assert taker is not None and card is not None
    given = None if action.card is None else _check_card(state, action.card, "card")
    if given is not None:
        _check_free(state, given, "card")
    led = _lead_dealer_card(evolve(state, round=evolve(rnd, given=given)), taker)
    players = state.players
    took = (
        TAKES_GIVES_A_CARD(taker=players[taker], card=card, dealer=players[rnd.dealer])
        if given is None
        else TAKES_GIVES_CARD(
            taker=players[taker], card=card, dealer=players[rnd.dealer], given=given
        )
    )
    return evolve(led, last_ruling=sentences(took, _next_text(led)))


def _apply_play(state: State, action: Play) -> State:
    rnd = _require(state, "play", "card", "")
    card = _check_card(state, action.card, "card")
    _check_free(state, card, "card")
    play = trickplay.play(rnd, state.flags, state.players, card)
    played = evolve(
        state, flags=play.flags, round=evolve(rnd, current=play.current, voids=play.voids)
    )
    if play.ends_trick:
        return _complete_trick(played, [*play.sentences])
    return evolve(played, last_ruling=play.ruling(_next_text(played)))


def _complete_trick(state: State, said: list[Text | str]) -> State:
    rnd = state.round
    leader, trump = rnd.leader, rnd.trump
    assert leader is not None and trump is not None
    winner, judged = trickplay.judge(rnd, state.players, cryptruck_trick, trump)
    trick = CompletedTrick(
        rnd.trick_number, leader, rnd.current, winner, judged.rule, judged.explanation
    )
    won = tuple(
        (*cards, *rnd.current) if seat == winner else cards for seat, cards in enumerate(rnd.won)
    )
    done = evolve(rnd, tricks=(*rnd.tricks, trick), current=(), leader=winner, won=won)
    state = evolve(state, round=done)
    name = state.players[winner]
    blocks = sum(1 for card in won[winner] if card.number in BLOCK_NUMBERS)
    said.append(trickplay.taken_text(trick.number, name, judged))
    said.append(HAS_BLOCKS(name=name, count=blocks))
    if len(done.tricks) < TRICKS_PER_ROUND:
        said.append(_next_text(state))
        return evolve(state, last_ruling=sentences(*said))
    return _finish_round(state, won, fast=False, said=said)


def _apply_won(state: State, action: WonCards) -> State:
    rnd = _require(
        state,
        "dealer-card",
        "type",
        WON_TOO_LATE(number=state.round.number),
    )
    won = _check_won(state, action.cards)
    entered = evolve(state, round=evolve(rnd, won=won))
    return _finish_round(entered, won, fast=True, said=[])


def _penalties(state: State, number: int) -> tuple[int, ...]:
    """What each seat loses to accepted revoke flags of round ``number``."""
    lost = [0] * len(state.players)
    for flag in state.flags:
        if flag.status == "accepted" and flag.round == number:
            lost[flag.seat] += flag.penalty
    return tuple(lost)


def _seat_result_text(name: str, record: RoundRecord, seat: int) -> Text:
    penalty = record.penalties[seat]
    points, breakdown = record.points(seat), record.breakdown[seat]
    if penalty:
        return SEAT_RESULT_PENALTY(
            name=name, points=points, breakdown=breakdown, penalty=Signed(-penalty)
        )
    return SEAT_RESULT(name=name, points=points, breakdown=breakdown)


def _finish_round(
    state: State, won: tuple[tuple[Card, ...], ...], *, fast: bool, said: list[Text | str]
) -> State:
    rnd = state.round
    assert rnd.trump is not None
    scored = [score_blocks(cards) for cards in won]
    record = RoundRecord(
        number=rnd.number,
        dealer=rnd.dealer,
        trump=rnd.trump,
        won=won,
        scores=tuple(points for points, _ in scored),
        breakdown=tuple(text for _, text in scored),
        penalties=_penalties(state, rnd.number),
        fast=fast,
    )
    # Accepted penalties are already off the totals; the block points come now.
    totals = tuple(
        total + points for total, points in zip(state.totals, record.scores, strict=True)
    )
    finished = rnd.number >= ROUNDS
    seats = len(state.players)
    ended = evolve(
        state,
        rounds=(*state.rounds, record),
        totals=totals,
        finished=finished,
        round=rnd
        if finished
        else _new_round(rnd.number + 1, dealer_of(state, rnd.number + 1), seats),
    )
    listed = each_of(
        [_seat_result_text(name, record, seat) for seat, name in enumerate(state.players)]
    )
    scores = ROUND_SCORES_FAST if fast else ROUND_SCORES
    said.append(scores(number=rnd.number, scores=listed))
    said.append(_totals_text(ended))
    said.append(_next_text(ended))
    return evolve(ended, last_ruling=sentences(*said))


def _apply_revoke(state: State, action: ResolveRevoke) -> State:
    """Settle a flag; its penalty counts in the flag's own round.

    Allowed after the game too: round 3's last trick ends the game at once.
    """
    settled = follow.settle(state.flags, action, state.players, MAX_PENALTY)
    if not settled.accepted:
        dismissed = evolve(state, flags=settled.flags)
        ruling = sentences(settled.dismissed_text(), _next_text(dismissed))
        return evolve(dismissed, last_ruling=ruling)
    flag = settled.flag
    totals = list(state.totals)
    totals[flag.seat] -= flag.penalty
    accepted = evolve(state, flags=settled.flags, totals=tuple(totals))
    rounds = tuple(
        evolve(record, penalties=_penalties(accepted, record.number))
        if record.number == flag.round
        else record
        for record in state.rounds
    )
    accepted = evolve(accepted, rounds=rounds)
    name = state.players[flag.seat]
    if flag.penalty:
        loses = LOSES(name=name, count=flag.penalty, round=flag.round)
    else:
        loses = NO_POINTS_LOST()
    ruling = sentences(settled.accepted_text(loses), _totals_text(accepted), _next_text(accepted))
    return evolve(accepted, last_ruling=ruling)


# --- JSON ------------------------------------------------------------------------


def _parse_card(raw: object, field: str) -> Card:
    return CRYPTRUCK.parse(raw, field)


def _parse_want(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction(WANT_TRUE_OR_FALSE(), "want")
    return raw


def _parse_given(raw: object) -> Card | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return _parse_card(raw, "card")


def _parse_won(raw: object) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(_parse_card(card, "cards") for card in seat) for seat in _won_lists(raw))


# The deck of a card played and the highest revoke penalty, for the shared declarations.
ACTIONS: ActionSet[Action] = ActionSet(
    Action, context={"deck": CRYPTRUCK, "max_penalty": MAX_PENALTY}
)


# --- The game ------------------------------------------------------------------------


def _colours_option(ticked: tuple[str, ...], seats: int) -> tuple[str, ...]:
    if not ticked:
        return COLOURS[:seats]
    if len(ticked) != seats:
        raise IllegalAction(COLOURS_TICKED(seats=seats, ticked=len(ticked)), "options.colours")
    return ticked


def _describe_give(give: Give) -> Text:
    return LOG_GIVE_A_CARD() if give.card is None else LOG_GIVE(card=give.card)


def _describe_won(won: WonCards) -> Text:
    return LOG_WON(count=sum(len(seat) for seat in won.cards))


class Cryptruck(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names. Play again keeps the seats in order: the options move the
    first dealer on (``rematch_options``).
    """

    slug = "cryptruck"
    title = TITLE()
    min_players = MIN_SEATS
    max_players = MAX_SEATS
    options = (
        OptionSpec(
            "colours",
            COLOURS_OPTION(),
            "multi",
            (),
            help=COLOURS_HELP(),
            choices=tuple((colour, colour_words(colour)) for colour in COLOURS),
            summary=COLOURS_SUMMARY(),
            blank=THE_FIRST_ONES(),
        ),
        OptionSpec(
            "first_dealer",
            FIRST_DEALER(),
            "seat",
            0,
            help=FIRST_DEALER_HELP(),
            maximum=MAX_SEATS - 1,
            summary=FIRST_DEALER_SUMMARY(),
        ),
    )
    actions = ACTIONS
    handlers = (
        on(Reveal, _apply_reveal, lambda reveal: LOG_REVEALED(card=reveal.card)),
        on(DealerCard, _apply_dealer_card, lambda dealt: LOG_DEALER_CARD(card=dealt.card)),
        on(Bid, _apply_bid, lambda bid: LOG_WANT() if bid.want else LOG_PASS()),
        on(Give, _apply_give, _describe_give),
        on(Play, _apply_play, lambda play: LOG_PLAY(card=play.card)),
        on(WonCards, _apply_won, _describe_won),
        on(ResolveRevoke, _apply_revoke, follow.describe_resolve),
    )
    listed = (CARDS, CHOICES)
    expected_actions = staticmethod(expected_actions)

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        seats = len(players)
        colours = _colours_option(names_option(options, "colours"), seats)
        first = int_option(options, "first_dealer")
        check_seat_option(first, seats, FIRST_DEALER(), "options.first_dealer")
        state = State(
            players=players,
            colours=colours,
            first_dealer=first,
            round=_new_round(1, first, seats),
            rounds=(),
            totals=(0,) * seats,
            flags=(),
            finished=False,
            last_ruling="",
        )
        return evolve(state, last_ruling=_next_text(state))

    def standings(self, state: State) -> list[Standing]:
        return rank_by_score(state.players, state.totals)

    def rematch_options(
        self, options: Mapping[str, OptionValue], seats: Sequence[str]
    ) -> dict[str, OptionValue]:
        """The deal passes clockwise: the next game's first dealer sits left of the dealer
        of this game's last round."""
        resolved = resolve_options(self.options, options)
        dealer = (int_option(resolved, "first_dealer") + ROUNDS) % len(seats)
        return {**resolved, "first_dealer": dealer}

    def score_rows(self, state: State) -> list[ScoreRow]:
        """One row per seat per scored round: its points less penalties, and the sum."""
        totals = [0] * len(state.players)
        rows: list[ScoreRow] = []
        for record in state.rounds:
            for seat, name in enumerate(state.players):
                points = record.points(seat)
                totals[seat] += points
                penalty = record.penalties[seat]
                note: Text | str = record.breakdown[seat]
                if penalty:
                    note = NOTE_PENALTY(note=note, penalty=Signed(-penalty))
                rows.append(ScoreRow(record.number, seat, name, points, totals[seat], note))
        return rows


GAME = Cryptruck()
