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
    MINUS,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    and_list,
    check_seat_option,
    int_option,
    names_option,
    plural,
    rank_by_score,
    resolve_options,
)
from scorekeeper.games.cards import Card
from scorekeeper.games.cryptruck.cards import CRYPTRUCK, cryptruck_trick
from scorekeeper.games.engine import CARDS, CHOICES, Engine, on
from scorekeeper.games.follow import ResolveRevoke, RevokeFlag
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve

# Re-exported: the play action and a completed trick live in trickplay.py, shared with Yokai Septet.
from scorekeeper.games.trickplay import CompletedTrick as CompletedTrick
from scorekeeper.games.trickplay import Play as Play

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

_TIMES = "\u00d7"  # the multiplication sign, as in "2 blocks ... 2 x 2 = 4"

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
        CardText, Ask("the revealed card"), BeforeValidator(lambda raw: _parse_card(raw, "card"))
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class DealerCard:
    """The card the dealer reveals from hand: it leads trick 1."""

    type: Literal["dealer-card"] = field(default="dealer-card", kw_only=True, repr=False)
    card: Annotated[
        CardText,
        Ask("the card the dealer reveals"),
        BeforeValidator(lambda raw: _parse_card(raw, "card")),
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Bid:
    """The next seat from the dealer's left says it wants the dealer's card, or passes."""

    type: Literal["bid"] = field(default="bid", kw_only=True, repr=False)
    want: Annotated[bool, Ask("want (true) or pass (false)"), BeforeValidator(_parse_want)]


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
        Ask("each seat's cards won"),
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


def score_blocks(cards: Sequence[Card]) -> tuple[int, str]:
    """A seat's points for its cards won this round, and the sentence that shows the sum.

    0 blocks: 5. 1 to 3 blocks: blocks times colours among them (white is a
    colour of its own). 4 or more: the number of blocks.
    """
    blocks = CRYPTRUCK.in_order([card for card in cards if card.number in BLOCK_NUMBERS])
    count = len(blocks)
    if not count:
        return NO_BLOCKS_POINTS, f"no blocks: {NO_BLOCKS_POINTS}"
    if count >= MANY_BLOCKS:
        return count, f"{count} blocks: {count}"
    colours = len({card.colour for card in blocks})
    listed = ", ".join(str(card) for card in blocks)
    points = count * colours
    return points, (
        f"{plural(count, 'block')} ({listed}) in {plural(colours, 'colour')}: "
        f"{count} {_TIMES} {colours} = {points}"
    )


# --- Sentences -----------------------------------------------------------------


def _trump_text(trump: str) -> str:
    if trump == WHITE:
        return "white the only trump"
    return f"{trump} trump, with white"


def _totals_text(state: State) -> str:
    listed = ", ".join(
        f"{name} {total}" for name, total in zip(state.players, state.totals, strict=True)
    )
    return f"Totals: {listed}."


def _game_over_text(state: State) -> str:
    top = max(state.totals)
    names = [state.players[seat] for seat in _top_seats(state)]
    if len(names) == 1:
        return f"Game over: {names[0]} wins with {plural(top, 'point')}."
    return f"Game over: {and_list(names)} share the win with {plural(top, 'point')}."


def _top_seats(state: State) -> list[int]:
    top = max(state.totals)
    return [seat for seat, total in enumerate(state.totals) if total == top]


def _next_text(state: State) -> str:
    """What happens next, as a sentence."""
    step = next_step(state)
    rnd = state.round
    players = state.players
    dealer = players[rnd.dealer]
    if step == "over":
        return _game_over_text(state)
    if step == "reveal":
        return f"Round {rnd.number}: {dealer} deals. Turn up one of the two undealt cards."
    if step == "dealer-card":
        return f"{dealer} reveals a card from hand."
    if step == "bid":
        seat = bidder(state)
        assert seat is not None
        return f"{players[seat]}: want {rnd.dealer_card} or pass?"
    if step == "give":
        assert rnd.taker is not None
        return f"{players[rnd.taker]} takes {rnd.dealer_card} and gives {dealer} a card."
    return trickplay.turn_text(rnd, players)


def _wrong_step(state: State, field: str) -> IllegalAction:
    """Why an action is not due yet: what the table enters first."""
    step = next_step(state)
    rnd = state.round
    dealer = state.players[rnd.dealer]
    if step == "over":
        return IllegalAction("The game is over.", field)
    if step == "reveal":
        return trickplay.turn_up_first("revealed card", rnd.number, bool(state.rounds), field)
    if step == "dealer-card":
        return IllegalAction(f"{dealer} (the dealer) reveals a card from hand first.", field)
    if step == "bid":
        seat = bidder(state)
        assert seat is not None
        return IllegalAction(
            f"The bidding is not over: {state.players[seat]} says want or pass first.", field
        )
    if step == "give":
        assert rnd.taker is not None
        return IllegalAction(
            f"{state.players[rnd.taker]} takes {rnd.dealer_card} and gives {dealer} a card first.",
            field,
        )
    return IllegalAction(f"Round {rnd.number} is under way: {_next_text(state)}", field)


def _require(state: State, wanted: Step, field: str, already: str) -> Round:
    """The round, when ``wanted`` is the next step; else why not (``already``: it is past)."""
    step = next_step(state)
    if step == wanted:
        return state.round
    if step != "over" and _STEP_ORDER.index(step) > _STEP_ORDER.index(wanted):
        raise IllegalAction(f"{already} {_next_text(state)}", field)
    raise _wrong_step(state, field)


# --- Cards ---------------------------------------------------------------------


def _check_card(state: State, card: object, field: str) -> Card:
    """A card of this game's deck: a known card of one of its colours, or white 3."""
    parsed = CRYPTRUCK.parse(str(card) if isinstance(card, Card) else card, field)
    if parsed.colour != WHITE and parsed.colour not in state.colours:
        raise IllegalAction(
            f"{parsed}: {parsed.colour} is not in this game's colours "
            f"({', '.join(state.colours)}).",
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


def _use_text(state: State, use: _Use, one_of_two: bool) -> str:
    card, what, trick, seat = use
    if what == "revealed":
        return "one is the revealed card" if one_of_two else f"{card} is the revealed card"
    if what == "dealer":
        return "one is the dealer's card" if one_of_two else f"{card} is the dealer's card"
    verb = "one was" if one_of_two else f"{card} was"
    return f"{verb} {trickplay.played_in(trick, state.players[seat])}"


def _check_free(state: State, card: Card, field: str) -> None:
    """Refuse a card no copy of which is left to play this round, saying where it went."""
    uses = [use for use in _uses(state) if use[0] == card]
    copies = CRYPTRUCK.copies_of(card)
    if len(uses) < copies:
        return
    if copies > 1:
        whys = and_list([_use_text(state, use, one_of_two=True) for use in uses])
        raise IllegalAction(f"Both {card}s are out this round: {whys}.", field)
    use = uses[0]
    why = _use_text(state, use, one_of_two=False)
    if use[1] == "revealed":
        raise IllegalAction(f"{why}: it is out of play this round.", field)
    if use[1] == "dealer":
        raise IllegalAction(f"{why}: it leads trick 1; give another card.", field)
    raise trickplay.already_played(card, use[2], state.players[use[3]], field)


def _check_won(state: State, raw: object) -> tuple[tuple[Card, ...], ...]:
    count = len(state.players)
    lists = _won_lists(raw)
    if len(lists) != count:
        raise IllegalAction(
            f"List the cards won by each of the {count} players, one list per seat "
            f"({count} lists); {len(lists)} given.",
            "cards",
        )
    won = tuple(tuple(_check_card(state, card, "cards") for card in seat) for seat in lists)
    revealed = state.round.revealed
    listed = [card for seat in won for card in seat]
    for card in dict.fromkeys(listed):
        times = listed.count(card)
        copies = CRYPTRUCK.copies_of(card)
        if times + (card == revealed) <= copies:
            continue
        if card == revealed and copies == 1:
            raise IllegalAction(
                f"{card} is the revealed card: it is out of play this round.", "cards"
            )
        if card == revealed:
            raise IllegalAction(
                f"{card} is listed {_times(times)}, but one {card} is the revealed card: "
                "only one more is in play.",
                "cards",
            )
        only = "there is only one" if copies == 1 else "there are only two"
        raise IllegalAction(f"{card} is listed {_times(times)}; {only}.", "cards")
    most = TRICKS_PER_ROUND * count
    if len(listed) > most:
        raise IllegalAction(
            f"At most {most} cards are won in a {count}-player round "
            f"({TRICKS_PER_ROUND} tricks of {count}); {len(listed)} listed.",
            "cards",
        )
    return won


def _times(number: int) -> str:
    return {1: "once", 2: "twice"}.get(number, f"{number} times")


def _won_lists(raw: object) -> list[list[object]]:
    shape = 'List each seat\'s cards won, like [["red 3", "white 3"], [], ["blue 4"]].'
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
        f"Round {state.round.number} already has its revealed card ({state.round.revealed}).",
    )
    card = _check_card(state, action.card, "card")
    started = evolve(state, round=evolve(rnd, revealed=card, trump=card.colour))
    ruling = (
        f"Round {rnd.number}: {state.players[rnd.dealer]} deals; the revealed card {card} "
        f"makes {_trump_text(card.colour)}. {_next_text(started)}"
    )
    return evolve(started, last_ruling=ruling)


def _apply_dealer_card(state: State, action: DealerCard) -> State:
    dealer = state.players[state.round.dealer]
    rnd = _require(
        state, "dealer-card", "card", f"{dealer} already revealed {state.round.dealer_card}."
    )
    card = _check_card(state, action.card, "card")
    _check_free(state, card, "card")
    revealed = evolve(state, round=evolve(rnd, dealer_card=card))
    return evolve(revealed, last_ruling=f"{dealer} reveals {card}. {_next_text(revealed)}")


def _apply_bid(state: State, action: Bid) -> State:
    rnd = _require(state, "bid", "want", "The bidding is over.")
    if not isinstance(action.want, bool):
        raise IllegalAction("want must be true or false.", "want")
    seat = bidder(state)
    assert seat is not None
    players = state.players
    bids = (*rnd.bids, action.want)
    sentences = [f"{players[seat]} wants it." if action.want else f"{players[seat]} passes."]
    if len(bids) < len(players) - 1:
        bidding = evolve(state, round=evolve(rnd, bids=bids))
        sentences.append(_next_text(bidding))
        return evolve(bidding, last_ruling=" ".join(sentences))
    wanters = [index for index, want in enumerate(bids) if want]
    if wanters:
        taker = (rnd.dealer + 1 + wanters[-1]) % len(players)
        told = evolve(state, round=evolve(rnd, bids=bids, taker=taker))
        sentences.append(_next_text(told))
        return evolve(told, last_ruling=" ".join(sentences))
    led = _lead_dealer_card(evolve(state, round=evolve(rnd, bids=bids)), rnd.dealer)
    sentences.append(
        f"Nobody wants {rnd.dealer_card}: {players[rnd.dealer]} (the dealer) leads it."
    )
    sentences.append(_next_text(led))
    return evolve(led, last_ruling=" ".join(sentences))


def _lead_dealer_card(state: State, leader: int) -> State:
    """The dealer's card, played by ``leader`` as the first card of trick 1."""
    rnd = state.round
    assert rnd.dealer_card is not None
    return evolve(state, round=evolve(rnd, leader=leader, current=(rnd.dealer_card,)))


def _apply_give(state: State, action: Give) -> State:
    rnd = state.round
    if rnd.leader is not None and rnd.dealer_card is not None:
        if rnd.taker is None:
            already = f"Nobody wanted {rnd.dealer_card}: no card changes hands."
        else:
            already = f"{state.players[rnd.taker]} already took {rnd.dealer_card}."
    else:
        already = ""
    rnd = _require(state, "give", "card", already)
    taker, card = rnd.taker, rnd.dealer_card
    assert taker is not None and card is not None
    given = None if action.card is None else _check_card(state, action.card, "card")
    if given is not None:
        _check_free(state, given, "card")
    led = _lead_dealer_card(evolve(state, round=evolve(rnd, given=given)), taker)
    players = state.players
    what = "a card" if given is None else str(given)
    ruling = (
        f"{players[taker]} takes {card}, gives {players[rnd.dealer]} {what} and leads {card}. "
        f"{_next_text(led)}"
    )
    return evolve(led, last_ruling=ruling)


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


def _complete_trick(state: State, sentences: list[str]) -> State:
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
    sentences.append(
        f"{trickplay.taken_text(trick.number, name, judged)} "
        f"{name} has {plural(blocks, 'block')} this round."
    )
    if len(done.tricks) < TRICKS_PER_ROUND:
        sentences.append(_next_text(state))
        return evolve(state, last_ruling=" ".join(sentences))
    return _finish_round(state, won, fast=False, sentences=sentences)


def _apply_won(state: State, action: WonCards) -> State:
    rnd = _require(
        state,
        "dealer-card",
        "type",
        "The cards won are entered right after the revealed card, instead of the tricks; "
        f"round {state.round.number}'s cards are already being entered.",
    )
    won = _check_won(state, action.cards)
    entered = evolve(state, round=evolve(rnd, won=won))
    return _finish_round(entered, won, fast=True, sentences=[])


def _penalties(state: State, number: int) -> tuple[int, ...]:
    """What each seat loses to accepted revoke flags of round ``number``."""
    lost = [0] * len(state.players)
    for flag in state.flags:
        if flag.status == "accepted" and flag.round == number:
            lost[flag.seat] += flag.penalty
    return tuple(lost)


def _seat_result_text(name: str, record: RoundRecord, seat: int) -> str:
    penalty = record.penalties[seat]
    lost = f"; revoke penalty {MINUS}{penalty}" if penalty else ""
    return f"{name} {record.points(seat)} ({record.breakdown[seat]}{lost})"


def _finish_round(
    state: State, won: tuple[tuple[Card, ...], ...], *, fast: bool, sentences: list[str]
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
    listed = ", ".join(
        _seat_result_text(name, record, seat) for seat, name in enumerate(state.players)
    )
    entered = " (entered as the cards won)" if fast else ""
    sentences.append(f"Round {rnd.number} scores{entered}: {listed}.")
    sentences.append(_totals_text(ended))
    sentences.append(_next_text(ended))
    return evolve(ended, last_ruling=" ".join(sentences))


def _apply_revoke(state: State, action: ResolveRevoke) -> State:
    """Settle a flag; its penalty counts in the flag's own round.

    Allowed after the game too: round 3's last trick ends the game at once.
    """
    settled = follow.settle(state.flags, action, state.players, MAX_PENALTY)
    if not settled.accepted:
        dismissed = evolve(state, flags=settled.flags)
        return evolve(dismissed, last_ruling=f"{settled.dismissed_text()} {_next_text(dismissed)}")
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
        loses = f"{name} loses {plural(flag.penalty, 'point')} in round {flag.round}"
    else:
        loses = "no points lost"
    ruling = f"{settled.accepted_text(loses)} {_totals_text(accepted)} {_next_text(accepted)}"
    return evolve(accepted, last_ruling=ruling)


# --- JSON ------------------------------------------------------------------------


def _parse_card(raw: object, field: str) -> Card:
    return CRYPTRUCK.parse(raw, field)


def _parse_want(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction("want must be true (wants the card) or false (passes).", "want")
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
        raise IllegalAction(
            f"A {seats}-player game uses {seats} colours; you ticked {len(ticked)}.",
            "options.colours",
        )
    return ticked


def _describe_give(give: Give) -> str:
    return "give a card" if give.card is None else f"give {give.card}"


def _describe_won(won: WonCards) -> str:
    return f"cards won: {plural(sum(len(seat) for seat in won.cards), 'card')}"


class Cryptruck(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names. Play again keeps the seats in order: the options move the
    first dealer on (``rematch_options``).
    """

    slug = "cryptruck"
    title = "Cryptruck"
    min_players = MIN_SEATS
    max_players = MAX_SEATS
    options = (
        OptionSpec(
            "colours",
            "Colours in use",
            "multi",
            (),
            help="As many as players; none ticked = the first ones in this order.",
            choices=tuple((colour, colour) for colour in COLOURS),
            summary="colours: {}",
            blank="the first ones",
        ),
        OptionSpec(
            "first_dealer",
            "First dealer",
            "seat",
            0,
            help="The seat that deals round 1; the deal passes clockwise.",
            maximum=MAX_SEATS - 1,
            summary="{} deals first",
        ),
    )
    actions = ACTIONS
    handlers = (
        on(Reveal, _apply_reveal, lambda reveal: f"revealed card {reveal.card}"),
        on(DealerCard, _apply_dealer_card, lambda dealt: f"dealer's card {dealt.card}"),
        on(Bid, _apply_bid, lambda bid: "want" if bid.want else "pass"),
        on(Give, _apply_give, _describe_give),
        on(Play, _apply_play, lambda play: f"play {play.card}"),
        on(WonCards, _apply_won, _describe_won),
        on(ResolveRevoke, _apply_revoke, follow.describe_resolve),
    )
    listed = (CARDS, CHOICES)
    expected_actions = staticmethod(expected_actions)

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        seats = len(players)
        colours = _colours_option(names_option(options, "colours"), seats)
        first = int_option(options, "first_dealer")
        check_seat_option(first, seats, "First dealer", "options.first_dealer")
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
                note = record.breakdown[seat]
                if penalty:
                    note += f"; revoke penalty {MINUS}{penalty}"
                rows.append(ScoreRow(record.number, seat, name, points, totals[seat], note))
        return rows


GAME = Cryptruck()
