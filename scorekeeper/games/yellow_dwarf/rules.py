"""Yellow Dwarf (Nain Jaune) as a session: the bank for a whole game.

Rule sheet: shared/rules/yellow-dwarf.txt and NOTES.md. The session takes the
stakes, collects the trays of called taker cards as they are laid, knows whose
turn it is and which rank is due, and settles each round with ``settlement``
out of the chips the players really hold (a player pays what they can, down
to 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Annotated, Literal

from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    ValidationInfo,
    WithJsonSchema,
    with_config,
)

from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask, PlayingCardText
from scorekeeper.games.base import (
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    check_known_fields,
    parse_whole_number,
    rank_by_score,
)
from scorekeeper.games.cards import PlayingCard, parse_playing_card, rank_words
from scorekeeper.games.engine import CARDS, CHOICES, GAME_OVER, Engine, Listed, on
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Listing, Text, all_of, counted, each_of, in_turn, phrase
from scorekeeper.games.yellow_dwarf.settlement import (
    ACE,
    CHIPS,
    DECK,
    ENTRY_LABEL,
    ENTRY_MUST_BE,
    GRAND_OPERA_BOOL,
    KING,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOST_POINTS,
    MUST_BE_LIST,
    NO_SUCH_PLAYER,
    NOT_A_TAKER,
    POINTS_IN_HAND,
    STAKE,
    TAKER_CARDS,
    THE_PLAYER,
    THE_WINNER,
    TRAY_NAMES,
    TRAY_STAKES,
    GameEnd,
    Payout,
    Penalty,
    Step,
    a_rank,
    card_points,
    deal_size,
    is_taker,
    notes_line,
    rank_name,
    settle_core,
    takers_listed,
)
from scorekeeper.games.yellow_dwarf.settlement import CARDS as CARD_COUNT

# --- The session: actions ------------------------------------------------------------

# What a play or a round summary left without a required field asks for ("Enter …").
ASK_CARD_LAID = phrase("yellow-dwarf.ask-card-laid", "the card laid")
ASK_WHO_WENT_OUT = phrase("yellow-dwarf.ask-who-went-out", "the seat that went out")
ASK_LEFT = phrase("yellow-dwarf.ask-left", "what each seat has left")


def _called_of_card(raw: object, info: ValidationInfo) -> bool | None:
    card = info.data.get("card")
    # Left out, or after a card refused (the error to show): nothing to check.
    return None if raw is None or card is None else _check_called(card, raw)


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Play:
    """The player whose turn it is lays ``card``.

    ``called``: whether the player called "… who takes"; true or false for a
    taker card, None for any other card.
    """

    type: Literal["play"] = dataclass_field(default="play", kw_only=True, repr=False)
    card: Annotated[
        PlayingCardText,
        Ask(ASK_CARD_LAID()),
        BeforeValidator(lambda raw: parse_playing_card(raw, "card")),
    ]
    called: Annotated[bool | None, BeforeValidator(_called_of_card)] = None


# A rank as said: A, 2 to 10, J, Q or K (or its number); written back by name. (The
# parsers of these aliases come further down, with the JSON: hence the lambdas.)
SaidRank = Annotated[
    Annotated[int, PlainSerializer(rank_name, return_type=str)] | None,
    BeforeValidator(lambda raw: _parse_rank(raw)),
    WithJsonSchema({"type": ["string", "integer", "null"]}),
]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Without:
    """The player whose turn it is says "without N" and the turn passes.

    ``rank`` is N when the table entered it: it must be the rank due, so a
    stale tap on a second phone is refused instead of passing the wrong turn.
    """

    type: Literal["without"] = dataclass_field(default="without", kw_only=True, repr=False)
    rank: SaidRank = None


# A seat index, from 0 (checked against the seats of the session when applied).
Seat = Annotated[int, Field(json_schema_extra={"minimum": 0})]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Kept:
    """A taker card still in ``player``'s hand when the round ends."""

    player: Seat
    card: PlayingCardText


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Played:
    """A taker card laid in a round entered as a summary, and whether it was called."""

    player: Seat
    card: PlayingCardText
    called: bool


# Per seat: cards left (payout by cards) or points left (payout by points).
Counts = tuple[Annotated[int, Field(json_schema_extra={"minimum": 0})], ...]
KeptCards = Annotated[tuple[Kept, ...], BeforeValidator(lambda raw: _parse_kept(raw))]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Reveal:
    """After a player went out, card by card: what the other hands still hold.

    ``left``: each seat's cards left (the "cards" payout; None lets the engine
    count them) or points left (the "points" payout).
    """

    type: Literal["reveal"] = dataclass_field(default="reveal", kw_only=True, repr=False)
    left: Annotated[
        Counts | None,
        BeforeValidator(lambda raw: None if raw is None else _parse_numbers(raw, "left")),
    ] = None
    kept: KeptCards = ()


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class RoundSummary:
    """A whole round at once: who went out, what each seat has left, the taker cards.

    ``played`` lists only the taker cards laid (in the order they were laid:
    called ones collect their trays in this order); ``left`` is cards or
    points left per seat, as the payout option counts.
    """

    type: Literal["round"] = dataclass_field(default="round", kw_only=True, repr=False)
    winner: Annotated[
        Seat,
        Ask(ASK_WHO_WENT_OUT()),
        BeforeValidator(lambda raw: parse_whole_number(raw, THE_WINNER(), "winner")),
    ]
    left: Annotated[
        Counts,
        Ask(ASK_LEFT()),
        BeforeValidator(lambda raw: _parse_numbers(raw, "left")),
    ]
    kept: KeptCards = ()
    played: Annotated[tuple[Played, ...], BeforeValidator(lambda raw: _parse_played(raw))] = ()
    grand_opera: Annotated[bool, BeforeValidator(_check_grand_opera)] = False


Action = Play | Without | Reveal | RoundSummary


# --- The session: state --------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """The session's options, checked: chips each at the start, payout and game end."""

    starting_chips: int
    payout: Payout
    game_end: GameEnd


@dataclass(frozen=True)
class Laid:
    """A card laid this round, by ``seat``; ``called`` as in ``Play`` (None: not a taker card)."""

    seat: int
    card: PlayingCard
    called: bool | None


@dataclass(frozen=True)
class Taking:
    """A tray collected by a called taker card: who, which tray, how many chips."""

    seat: int
    tray: str
    chips: int


@dataclass(frozen=True)
class RoundRecord:
    """A settled round.

    ``first``: the seat that started it. ``summary``: entered as a round
    summary (``laid`` is then empty). ``left``: cards or points left per seat,
    as the payout counts. ``stakes``: what each seat staked at the start
    (0 for a seat out of the game); ``takings``: trays collected by called
    cards; ``settled``: each seat's change from settling; ``changes``: the
    round's whole change per seat (takings + settled - stake); ``chips`` and
    ``trays``: after settling, before the next round's stakes. ``notes``: per
    seat, the short reason for the score row; ``explanation``: the sentences.
    """

    number: int
    first: int
    winner: int
    grand_opera: bool
    summary: bool
    laid: tuple[Laid, ...]
    left: tuple[int, ...]
    kept: tuple[Kept, ...]
    uncalled: tuple[Laid, ...]
    stakes: tuple[int, ...]
    takings: tuple[Taking, ...]
    settled: tuple[int, ...]
    changes: tuple[int, ...]
    chips: tuple[int, ...]
    trays: dict[str, int]
    # Said as Texts (each a str: its English words).
    notes: tuple[str, ...]
    explanation: str


@dataclass(frozen=True)
class Now:
    """What the table needs of the scored rounds now: the newest one's result (None before
    the first is scored)."""

    last_round: RoundRecord | None


@dataclass(frozen=True)
class State:
    """A session: seats in the order the table entered them, from 0.

    ``chips``: what each seat holds now (after the round's stake); ``trays``:
    the five trays in board order; ``active``: False for a seat that dropped
    out (the last-standing variant). ``round`` is the round in progress (the
    last one played once the game is over), ``first`` the seat that started
    it, ``turn`` the seat to lay a card or say without (None when no card is
    due) and ``required`` the rank due (None: a free start, any rank).
    ``laid``: this round's cards in order; ``laid_counts``: cards laid per
    seat; ``went_out``: the seat that laid its last card, while the reveal is
    awaited. ``stakes`` and ``takings``: this round's stakes and trays
    collected so far. ``start_total``: the chips in play, which never change.
    """

    players: tuple[str, ...]
    options: Options
    chips: tuple[int, ...]
    trays: dict[str, int]
    active: tuple[bool, ...]
    round: int
    first: int
    turn: int | None
    required: int | None
    laid: tuple[Laid, ...]
    laid_counts: tuple[int, ...]
    went_out: int | None
    stakes: tuple[int, ...]
    takings: tuple[Taking, ...]
    rounds: tuple[RoundRecord, ...] = dataclass_field(metadata=HISTORY)
    finished: bool
    winners: tuple[int, ...]
    last_ruling: str
    start_total: int

    def now(self) -> Now:
        """What the table needs of ``rounds`` (history: see games.history)."""
        return Now(last_round=self.rounds[-1] if self.rounds else None)


# --- Helpers the app reads -----------------------------------------------------------


def expected(state: State) -> Step:
    """What the table enters next.

    "play": a card, "without", or (before the round's first card) a round
    summary; "reveal": the hands, after a player went out card by card;
    "over": nothing more.
    """
    if state.finished:
        return "over"
    if state.went_out is not None:
        return "reveal"
    return "play"


def turn_seat(state: State) -> int | None:
    """The seat to lay a card or say without, or None when no card is due.

    Play follows the seats in the order the table entered them (seat 0, 1, 2 …
    and round again), skipping a seat out of the game. The sheet passes play
    "to his right"; the app takes the table's own order, so whoever entered the
    seats decides which way round that is.
    """
    return state.turn if expected(state) == "play" else None


def required_rank(state: State) -> int | None:
    """The rank due (1 ace … 13 king); None for a free start or when no card is due."""
    return state.required if expected(state) == "play" else None


def dealt(state: State) -> int:
    """The cards dealt to each player this round (by the number of players still in); 0 once
    the game is over, as no round is dealt then (fewer than 3 may be left)."""
    if state.finished:
        return 0
    return deal_size(sum(state.active))[0]


def hand_counts(state: State) -> tuple[int, ...]:
    """Cards left in each hand this round: dealt less laid (0 out of the game or once over)."""
    if state.finished:
        return (0,) * len(state.players)
    each = dealt(state)
    return tuple(
        each - count if active else 0
        for active, count in zip(state.active, state.laid_counts, strict=True)
    )


def played_this_round(state: State) -> frozenset[PlayingCard]:
    """The cards laid this round (a card picker greys these out)."""
    return frozenset(laid.card for laid in state.laid)


def unplayed_taker_cards(state: State) -> tuple[PlayingCard, ...]:
    """The taker cards not laid this round, in board order: the ones a hand may keep."""
    played = played_this_round(state)
    return tuple(card for card in TAKER_CARDS if card not in played)


def summary_allowed(state: State) -> bool:
    """Whether a round summary may be entered: a card is due and none is laid this round."""
    return expected(state) == "play" and not state.laid


def is_grand_opera(state: State) -> bool:
    """Whether the player who went out laid every card of the round (the reveal is due)."""
    return state.went_out is not None and all(laid.seat == state.went_out for laid in state.laid)


def playable_cards(state: State) -> tuple[PlayingCard, ...]:
    """The cards the seat whose turn it is may lay now, in deck order: any card not laid
    this round of the rank due (of any rank on a free start); none when no card is due.

    The engine does not know the hands, so these are the cards it would accept, not
    the ones the player holds; when every card of the rank due is laid, only
    "without" is left.
    """
    if expected(state) != "play":
        return ()
    assert state.turn is not None
    if state.laid_counts[state.turn] >= dealt(state):
        return ()
    due = state.required
    laid = played_this_round(state)
    return tuple(card for card in DECK if card not in laid and (due is None or card.rank == due))


def expected_actions(state: State) -> Expected:
    """What the engine accepts now, and whose move it is.

    While cards are laid, the seat is the one to lay a card or say without
    (``turn_seat``), and the actions are: "play", its ``cards`` those of
    ``playable_cards``; "without" when a rank is due, its ``ranks`` that one
    rank (the rank may also be left out); and, before the round's first card,
    "round", the whole round entered by the table at once. A taker card must
    carry ``called`` (true or false: "who takes" called or not) and any other
    card must not, so "play" lists ``choices`` (true, false) only when a taker
    card is among its cards, and the question is asked of those cards alone.

    Once a player has gone out the seat is None: the table enters the other hands
    ("reveal"), which is nobody's move in particular. The ``cards`` of a reveal
    are the taker cards not laid this round, those a hand may have kept; the
    ``cards`` of a round summary are the five taker cards, those its "played" and
    "kept" entries name. Once the game is over: seat None and no actions.
    """
    step = expected(state)
    if step == "over":
        return NOTHING_EXPECTED
    if step == "reveal":
        kept = tuple(str(card) for card in unplayed_taker_cards(state))
        return Expected(None, (Accepts("reveal", cards=kept),))
    actions = []
    playable = playable_cards(state)
    if playable:
        asks_called = any(is_taker(card) for card in playable)
        actions.append(
            Accepts(
                "play",
                cards=tuple(str(card) for card in playable),
                choices=(True, False) if asks_called else None,
            )
        )
    if state.required is not None:
        actions.append(Accepts("without", ranks=(rank_name(state.required),)))
    if summary_allowed(state):
        actions.append(Accepts("round", cards=tuple(str(card) for card in TAKER_CARDS)))
    return Expected(turn_seat(state), tuple(actions))


def forced_action(state: State) -> dict[str, object] | None:
    """The action the table has no say in now, as JSON, or None while it has a choice.

    Every card of the rank due laid this round: nobody can lay one, so each player in
    turn says "without" until the turn is back with the last card's player. Someone
    went out, the payout is a chip a card and every taker card is laid: the reveal asks
    for nothing. A phone records these by itself, so no tap only confirms the rules.
    """
    expected = expected_actions(state)
    without = expected.accepts("without")
    if without is not None and expected.types == {"without"}:
        assert without.ranks is not None
        return {"type": "without", "rank": without.ranks[0]}
    reveal = expected.accepts("reveal")
    if reveal is not None and not reveal.cards and state.options.payout == "cards":
        return {"type": "reveal", "kept": []}
    return None


def active_seats(state: State) -> tuple[int, ...]:
    """The seats still in the game."""
    return tuple(seat for seat, active in enumerate(state.active) if active)


def _next_active(active: Sequence[bool], seat: int) -> int:
    """The first seat in the game after ``seat`` in table order (``seat`` -1: from seat 0)."""
    seats = len(active)
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if active[candidate]:
            return candidate
    raise RuntimeError("Yellow Dwarf: no seat is left in the game.")


# --- Sentences -----------------------------------------------------------------------

TRAY_CHIPS = phrase("yellow-dwarf.tray-chips", "{card} {chips}")
GAME_OVER_WINS = counted(
    "yellow-dwarf.game-over-wins",
    "Game over: {winner} wins with {count} chip.",
    "Game over: {winner} wins with {count} chips.",
)
GAME_OVER_SHARED = counted(
    "yellow-dwarf.game-over-shared",
    "Game over: {winners} share the win with {count} chip each.",
    "Game over: {winners} share the win with {count} chips each.",
)
REVEAL_DUE = phrase(
    "yellow-dwarf.reveal-due",
    "{name} is out: enter the taker cards still in a hand to settle the round.",
)
REVEAL_DUE_POINTS = phrase(
    "yellow-dwarf.reveal-due-points",
    "{name} is out: enter each player's points left in hand and the taker cards still in "
    "a hand to settle the round.",
)
ALL_LAID_SAY_WITHOUT = phrase(
    "yellow-dwarf.all-laid-say-without",
    "{name}: every {rank} is laid this round, so say “without {rank}”.",
)
LAY_OR_WITHOUT = phrase(
    "yellow-dwarf.lay-or-without", "{name}: lay {a_rank} or say “without {rank}”."
)
STARTS_THE_ROUND = phrase("yellow-dwarf.starts-the-round", "{name} starts the round with any card.")
STARTS_AGAIN = phrase("yellow-dwarf.starts-again", "{name} starts again with any card.")
REVEAL_FIRST = phrase(
    "yellow-dwarf.reveal-first",
    "{name} went out: enter the hands (reveal) to settle the round first.",
)


def _trays_text(trays: Mapping[str, int]) -> Listing:
    """The trays as the board holds them: "10D 3, JC 6, …"."""
    return each_of(
        TRAY_CHIPS(card=_TAKER_BY_NAME[name], chips=chips) for name, chips in trays.items()
    )


_TAKER_BY_NAME = {str(card): card for card in TAKER_CARDS}


def _game_over_text(state: State) -> Text:
    names = [state.players[seat] for seat in state.winners]
    top = state.chips[state.winners[0]]
    if len(names) == 1:
        return GAME_OVER_WINS(winner=names[0], count=top)
    return GAME_OVER_SHARED(winners=all_of(names), count=top)


def _next_text(state: State) -> Text:
    """What happens next, as a sentence."""
    step = expected(state)
    if step == "over":
        return _game_over_text(state)
    if step == "reveal":
        assert state.went_out is not None
        went_out = state.players[state.went_out]
        if state.options.payout == "points":
            return REVEAL_DUE_POINTS(name=went_out)
        return REVEAL_DUE(name=went_out)
    assert state.turn is not None
    name = state.players[state.turn]
    if state.required is not None:
        due = rank_words(state.required)
        if not playable_cards(state):
            return ALL_LAID_SAY_WITHOUT(name=name, rank=due)
        return LAY_OR_WITHOUT(name=name, a_rank=a_rank(state.required), rank=due)
    if not state.laid:
        return STARTS_THE_ROUND(name=name)
    return STARTS_AGAIN(name=name)


def _refuse_unless_play(state: State, field: str) -> None:
    if state.finished:
        raise IllegalAction(GAME_OVER(), field)
    if state.went_out is not None:
        raise IllegalAction(REVEAL_FIRST(name=state.players[state.went_out]), field)


def _check_conserved(state: State) -> State:
    """A bug guard: the bank neither makes nor loses chips."""
    held = sum(state.chips) + sum(state.trays.values())
    if held != state.start_total or min(state.chips) < 0:
        raise RuntimeError(
            f"Yellow Dwarf lost track of chips: players {list(state.chips)} and trays "
            f"{state.trays} hold {held}, not {state.start_total}."
        )
    return state


# --- Rounds: the stakes and the end of the game -------------------------------------

NAME_CHIPS = phrase("yellow-dwarf.name-chips", "{name} ({chips})")
CANNOT_PAY_ENDS = phrase(
    "yellow-dwarf.cannot-pay-stake-ends",
    "{players} cannot pay the {stake}-chip stake for round {round}.",
)
# One player who drops out, or more (the sentence names them, not how many).
DROPS_OUT = phrase(
    "yellow-dwarf.drops-out",
    "{players} cannot pay the {stake}-chip stake and drops out, keeping their chips.",
)
DROP_OUT = phrase(
    "yellow-dwarf.drop-out",
    "{players} cannot pay the {stake}-chip stake and drop out, keeping their chips.",
)
LAST_WHO_CAN_PAY = phrase(
    "yellow-dwarf.last-who-can-pay", "{name} is the last player who can pay the stake."
)
ONLY_THEY_CAN_PAY = phrase(
    "yellow-dwarf.only-they-can-pay",
    "Only {players} can still pay, and a deal needs {fewest} players: the one with more "
    "chips wins.",
)
NOBODY_CAN_PAY = phrase(
    "yellow-dwarf.nobody-can-pay",
    "Nobody can pay the stake any more: of those who dropped out last, the one with the "
    "most chips wins.",
)
ROUND_BEGINS = phrase(
    "yellow-dwarf.round-begins",
    "Round {round}: everyone stakes {stake} chips; the trays hold {trays}. "
    "Deal {each} cards each and set {aside} aside.",
)
ROUND_BEGINS_FOR = phrase(
    "yellow-dwarf.round-begins-for",
    "Round {round}: {players} each stake {stake} chips; the trays hold {trays}. "
    "Deal {each} cards each and set {aside} aside.",
)
STAKE_NOTE = phrase("yellow-dwarf.stake-note", "\u2212{stake} stake")
OUT_OF_THE_GAME_NOTE = phrase("yellow-dwarf.out-of-the-game-note", "out of the game")
TAKING_NOTE = phrase("yellow-dwarf.taking-note", "+{chips} {card} tray")


def _end(state: State, group: Sequence[int], sentences: list[Text]) -> State:
    """The game is over: the most chips within ``group`` wins, ties share."""
    top = max(state.chips[seat] for seat in group)
    winners = tuple(seat for seat in group if state.chips[seat] == top)
    over = evolve(state, finished=True, winners=winners, turn=None, required=None)
    sentences.append(_game_over_text(over))
    return evolve(over, last_ruling=in_turn(*sentences))


def _begin_round(state: State, number: int, sentences: list[Text]) -> State:
    """Round ``number``: every player still in stakes 15 chips, or the game ends.

    The stakes are taken by the bank, not entered: the sheet has every player
    bet at the start of each round, and nothing is left to choose.
    """
    names = state.players
    seats = range(len(names))
    short = [seat for seat in seats if state.active[seat] and state.chips[seat] < STAKE]
    listed = all_of(
        [NAME_CHIPS(name=names[seat], chips=CHIPS(count=state.chips[seat])) for seat in short]
    )
    if short and state.options.game_end == "first-broke":
        sentences.append(CANNOT_PAY_ENDS(players=listed, stake=STAKE, round=number))
        return _end(state, list(seats), sentences)
    active = tuple(state.active[seat] and seat not in short for seat in seats)
    if short:
        drops = DROPS_OUT if len(short) == 1 else DROP_OUT
        sentences.append(drops(players=listed, stake=STAKE))
    remaining = [seat for seat in seats if active[seat]]
    if len(remaining) < MIN_PLAYERS:
        state = evolve(state, active=active)
        if len(remaining) == 1:
            sentences.append(LAST_WHO_CAN_PAY(name=names[remaining[0]]))
        elif remaining:
            sentences.append(
                ONLY_THEY_CAN_PAY(
                    players=all_of([names[seat] for seat in remaining]), fewest=MIN_PLAYERS
                )
            )
        else:
            sentences.append(NOBODY_CAN_PAY())
        return _end(state, remaining or short, sentences)
    stakes = tuple(STAKE if active[seat] else 0 for seat in seats)
    trays = {name: state.trays[name] + bet * len(remaining) for name, bet in TRAY_STAKES.items()}
    first = _next_active(active, -1 if number == 1 else state.first)
    started = evolve(
        state,
        chips=tuple(chips - stake for chips, stake in zip(state.chips, stakes, strict=True)),
        trays=trays,
        active=active,
        round=number,
        first=first,
        turn=first,
        required=None,
        laid=(),
        laid_counts=(0,) * len(names),
        went_out=None,
        stakes=stakes,
        takings=(),
    )
    each, aside = deal_size(len(remaining))
    trays_held = _trays_text(trays)
    if all(active):
        begins = ROUND_BEGINS(round=number, stake=STAKE, trays=trays_held, each=each, aside=aside)
    else:
        begins = ROUND_BEGINS_FOR(
            round=number,
            players=all_of([names[seat] for seat in remaining]),
            stake=STAKE,
            trays=trays_held,
            each=each,
            aside=aside,
        )
    sentences.append(begins)
    sentences.append(_next_text(started))
    return evolve(started, last_ruling=in_turn(*sentences))


def _finish_round(
    state: State,
    winner: int,
    left: tuple[int, ...],
    kept: tuple[Kept, ...],
    grand_opera: bool,
    summary: bool,
    sentences: list[Text],
    uncalled: tuple[Laid, ...],
) -> State:
    """Settle the round with the contract's order, out of the chips the seats hold."""
    names = state.players
    reason = POINTS_IN_HAND if state.options.payout == "points" else CARD_COUNT
    reasons = [reason(count=count) for count in left]
    # The contract's order for the kept cards: seat by seat (as listed within a seat).
    in_seat_order = tuple(sorted(kept, key=lambda entry: entry.player))
    penalties: list[Penalty] = [(entry.player, entry.card, "kept") for entry in in_seat_order]
    penalties += [(laid.seat, laid.card, "played without calling") for laid in uncalled]
    ledger = settle_core(
        winner, left, reasons, penalties, state.trays, grand_opera, names, names, state.chips
    )
    settled = ledger.settlement
    chips = tuple(held + change for held, change in zip(state.chips, settled.chips, strict=True))
    changes = []
    notes = []
    for seat in range(len(names)):
        takings = [taking for taking in state.takings if taking.seat == seat]
        stake = state.stakes[seat]
        changes.append(-stake + sum(taking.chips for taking in takings) + settled.chips[seat])
        parts = [STAKE_NOTE(stake=stake) if stake else OUT_OF_THE_GAME_NOTE()]
        parts += [
            TAKING_NOTE(chips=taking.chips, card=_TAKER_BY_NAME[taking.tray]) for taking in takings
        ]
        parts += ledger.notes[seat]
        notes.append(notes_line(parts))
    sentences.append(settled.explanation)
    explanation = in_turn(*sentences)
    record = RoundRecord(
        number=state.round,
        first=state.first,
        winner=winner,
        grand_opera=grand_opera,
        summary=summary,
        laid=state.laid,
        left=left,
        kept=in_seat_order,
        uncalled=uncalled,
        stakes=state.stakes,
        takings=state.takings,
        settled=settled.chips,
        changes=tuple(changes),
        chips=chips,
        trays=dict(settled.trays),
        notes=tuple(notes),
        explanation=explanation,
    )
    settled_state = evolve(
        state,
        chips=chips,
        trays=dict(settled.trays),
        rounds=(*state.rounds, record),
        turn=None,
        required=None,
        laid=(),
        laid_counts=(0,) * len(names),
        went_out=None,
        takings=(),
    )
    return _begin_round(settled_state, state.round + 1, [explanation])


# --- Card by card ----------------------------------------------------------------------

SAY_CALLED = phrase(
    "yellow-dwarf.say-called",
    "{card} is a taker card: say whether “who takes” was called (called true or false).",
)
CALLED_ONLY_TAKERS = phrase(
    "yellow-dwarf.called-only-takers",
    "“called” is only for the taker cards ({takers}); {card} is not one.",
)
CALLED_BOOL = phrase("yellow-dwarf.called-bool", "“called” must be true or false.")
ALREADY_LAID = phrase("yellow-dwarf.already-laid", "{card} was already laid this round, by {name}.")
ONLY_WITHOUT = phrase(
    "yellow-dwarf.only-without",
    "Every {rank} is laid this round, so {name} can only say “without {rank}”: "
    "{card} cannot be laid.",
)
MUST_LAY = phrase(
    "yellow-dwarf.must-lay",
    "{name} must lay {a_rank} or say “without {rank}”: {card} is not {a_rank}.",
)
ALL_DEALT_LAID = phrase(
    "yellow-dwarf.all-dealt-laid", "{name} has already laid all {each} cards dealt."
)
LAYS_AND_CALLS = counted(
    "yellow-dwarf.lays-and-calls",
    "{name} lays {card} and calls “who takes”: {name} takes the {tray} tray, {count} chip.",
    "{name} lays {card} and calls “who takes”: {name} takes the {tray} tray, {count} chips.",
)
LAYS_WITHOUT_CALLING = phrase(
    "yellow-dwarf.lays-without-calling",
    "{name} lays {card} without calling “who takes”: the {tray} tray stays, and when the "
    "round is settled {name} pays into it what it holds.",
)
LAYS = phrase("yellow-dwarf.lays", "{name} lays {card}.")
GOES_OUT_GRAND_OPERA = phrase(
    "yellow-dwarf.goes-out-grand-opera",
    "{name} has laid every card and goes out: a Grand Opera, as nobody else laid a card.",
)
GOES_OUT = phrase("yellow-dwarf.goes-out", "{name} has laid every card and goes out.")
AFTER_A_KING = phrase(
    "yellow-dwarf.after-a-king", "After a king, {name} starts again with any card."
)
NO_RANK_TO_BE_WITHOUT = phrase(
    "yellow-dwarf.no-rank-to-be-without",
    "{name} has a free start and may lay any card: there is no rank to be without.",
)
NOT_THE_RANK_DUE = phrase(
    "yellow-dwarf.not-the-rank-due",
    "The rank due is {due}, not {said}: {name} may say “without {due}”.",
)
WITHOUT = phrase("yellow-dwarf.without", "{name}: without {rank}.")
NOBODY_STARTS_AGAIN = phrase(
    "yellow-dwarf.nobody-else-starts-again",
    "Nobody else could lay {a_rank}: {name}, who laid the last card, starts again with any "
    "card, as there is no rank after K.",
)
NOBODY_GOES_ON = phrase(
    "yellow-dwarf.nobody-else-goes-on",
    "Nobody else could lay {a_rank}: {name}, who laid the last card, goes on at {rank}.",
)


def _check_taker(card: PlayingCard, field: str) -> PlayingCard:
    if not is_taker(card):
        raise IllegalAction(NOT_A_TAKER(card=card, takers=takers_listed()), field)
    return card


def _check_called(card: PlayingCard, called: object) -> bool | None:
    """``called`` as the play carries it: true or false for a taker card, absent otherwise."""
    if called is None:
        if is_taker(card):
            raise IllegalAction(SAY_CALLED(card=card), "called")
        return None
    if not is_taker(card):
        raise IllegalAction(CALLED_ONLY_TAKERS(takers=takers_listed(), card=card), "called")
    if not isinstance(called, bool):
        raise IllegalAction(CALLED_BOOL(), "called")
    return called


def _apply_play(state: State, action: Play) -> State:
    _refuse_unless_play(state, "card")
    seat = state.turn
    assert seat is not None
    name = state.players[seat]
    card = action.card
    for earlier in state.laid:
        if earlier.card == card:
            raise IllegalAction(ALREADY_LAID(card=card, name=state.players[earlier.seat]), "card")
    due = state.required
    if due is not None and not playable_cards(state):
        raise IllegalAction(ONLY_WITHOUT(rank=rank_words(due), name=name, card=card), "card")
    if due is not None and card.rank != due:
        raise IllegalAction(
            MUST_LAY(name=name, a_rank=a_rank(due), rank=rank_words(due), card=card), "card"
        )
    each = dealt(state)
    # A player goes out on the last card dealt, so this holds by itself; checked here all
    # the same, as the one place that says a hand cannot give more cards than were dealt.
    if state.laid_counts[seat] >= each:
        raise IllegalAction(ALL_DEALT_LAID(name=name, each=each), "card")
    # Asked last: a phone learns "called?" is needed only for a card that can be laid.
    called = _check_called(card, action.called)
    counts = list(state.laid_counts)
    counts[seat] += 1
    laid = evolve(state, laid=(*state.laid, Laid(seat, card, called)), laid_counts=tuple(counts))
    tray = str(card)
    sentences: list[Text]
    if called:
        taken = state.trays[tray]
        chips = list(state.chips)
        chips[seat] += taken
        laid = evolve(
            laid,
            chips=tuple(chips),
            trays={**state.trays, tray: 0},
            takings=(*state.takings, Taking(seat, tray, taken)),
        )
        sentences = [LAYS_AND_CALLS(name=name, card=card, tray=TRAY_NAMES[tray], count=taken)]
    elif called is False:
        sentences = [LAYS_WITHOUT_CALLING(name=name, card=card, tray=TRAY_NAMES[tray])]
    else:
        sentences = [LAYS(name=name, card=card)]
    if counts[seat] == each:
        out = evolve(laid, went_out=seat, turn=None, required=None)
        if is_grand_opera(out):
            sentences.append(GOES_OUT_GRAND_OPERA(name=name))
        else:
            sentences.append(GOES_OUT(name=name))
        sentences.append(_next_text(out))
        return evolve(out, last_ruling=in_turn(*sentences))
    if card.rank == KING:
        going_on = evolve(laid, required=None)
        sentences.append(AFTER_A_KING(name=name))
    else:
        going_on = evolve(laid, required=card.rank + 1)
        sentences.append(_next_text(going_on))
    return evolve(going_on, last_ruling=in_turn(*sentences))


def _apply_without(state: State, action: Without) -> State:
    _refuse_unless_play(state, "type")
    seat = state.turn
    assert seat is not None
    name = state.players[seat]
    due = state.required
    if due is None:
        raise IllegalAction(NO_RANK_TO_BE_WITHOUT(name=name), "type")
    if action.rank is not None and action.rank != due:
        raise IllegalAction(
            NOT_THE_RANK_DUE(due=rank_words(due), said=rank_words(action.rank), name=name),
            "rank",
        )
    sentences = [WITHOUT(name=name, rank=rank_words(due))]
    # Whoever lays a card holds the turn, so the last card's player is always known here.
    last = state.laid[-1].seat
    following = _next_active(state.active, seat)
    if following != last:
        passed = evolve(state, turn=following)
        sentences.append(_next_text(passed))
        return evolve(passed, last_ruling=in_turn(*sentences))
    last_name = state.players[last]
    if due == KING:
        back = evolve(state, turn=last, required=None)
        sentences.append(NOBODY_STARTS_AGAIN(a_rank=a_rank(due), name=last_name))
        return evolve(back, last_ruling=in_turn(*sentences))
    back = evolve(state, turn=last, required=due + 1)
    sentences.append(NOBODY_GOES_ON(a_rank=a_rank(due), name=last_name, rank=rank_words(due + 1)))
    sentences.append(_next_text(back))
    return evolve(back, last_ruling=in_turn(*sentences))


# --- The end of a round: reveal or summary ---------------------------------------------

WENT_OUT_CANNOT_KEEP = phrase(
    "yellow-dwarf.went-out-cannot-keep",
    "{name} went out and holds no cards, so cannot keep {card}.",
)
OUT_HOLDS_NO_CARDS = phrase(
    "yellow-dwarf.out-holds-no-cards", "{name} is out of the game and holds no cards."
)
LISTED_TWICE = phrase("yellow-dwarf.listed-twice", "{card} is listed twice in “{field}”.")
LEFT_PER_SEAT_CARDS = phrase(
    "yellow-dwarf.left-per-seat-cards",
    "“left” lists the cards left of each of the {seats} seats, in seat order; {given} given.",
)
LEFT_PER_SEAT_POINTS = phrase(
    "yellow-dwarf.left-per-seat-points",
    "“left” lists the points left of each of the {seats} seats, in seat order; {given} given.",
)
WENT_OUT_NO_CARDS_LEFT = phrase(
    "yellow-dwarf.went-out-no-cards-left", "{name} went out and has no cards left; {count} entered."
)
WENT_OUT_NO_POINTS_LEFT = phrase(
    "yellow-dwarf.went-out-no-points-left",
    "{name} went out and has no points left; {count} entered.",
)
OUT_NO_CARDS_LEFT = phrase(
    "yellow-dwarf.out-no-cards-left",
    "{name} is out of the game and has no cards left; {count} entered.",
)
OUT_NO_POINTS_LEFT = phrase(
    "yellow-dwarf.out-no-points-left",
    "{name} is out of the game and has no points left; {count} entered.",
)
FEWER_THAN_KEPT = counted(
    "yellow-dwarf.fewer-than-kept",
    "{name} has {count} card left, fewer than the {kept} taker cards listed as kept.",
    "{name} has {count} cards left, fewer than the {kept} taker cards listed as kept.",
)
ENTER_POINTS_LEFT = phrase(
    "yellow-dwarf.enter-points-left", "Enter each player's points left in hand, in seat order."
)
CARDS_LEFT_ENTERED = counted(
    "yellow-dwarf.cards-left-entered",
    "{name} has {count} card left ({each} dealt, {laid} laid); {entered} entered.",
    "{name} has {count} cards left ({each} dealt, {laid} laid); {entered} entered.",
)
POINTS_LEFT_RANGE = counted(
    "yellow-dwarf.points-left-range",
    "{name} has {count} card left, worth {lowest} to {highest} points; {entered} entered.",
    "{name} has {count} cards left, worth {lowest} to {highest} points; {entered} entered.",
)
POINTS_LEFT_RANGE_KEPT = counted(
    "yellow-dwarf.points-left-range-kept",
    "{name} has {count} card left, {kept} among them, worth {lowest} to {highest} points; "
    "{entered} entered.",
    "{name} has {count} cards left, {kept} among them, worth {lowest} to {highest} points; "
    "{entered} entered.",
)
NOBODY_OUT_YET = phrase("yellow-dwarf.nobody-out-yet", "Nobody has gone out yet. {next}")
LAID_IN_NO_HAND = phrase(
    "yellow-dwarf.laid-in-no-hand", "{card} was laid this round, by {name}, so it is in no hand."
)
GRAND_OPERA_HOLDS_ALL = phrase(
    "yellow-dwarf.grand-opera-holds-all",
    "In a Grand Opera nobody else lays a card, so {name} still holds all {each} cards; "
    "{entered} entered.",
)
GRAND_OPERA_HOLDS_ALL_POINTS = phrase(
    "yellow-dwarf.grand-opera-holds-all-points",
    "In a Grand Opera nobody else lays a card, so {name} still holds all {each} cards, "
    "worth {each} to {most} points; {entered} entered.",
)
NOT_OUT_CARDS_LEFT = phrase(
    "yellow-dwarf.not-out-cards-left",
    "{name} did not go out, so has 1 to {most} cards left ({each} cards dealt); {entered} entered.",
)
NOT_OUT_POINTS_LEFT = phrase(
    "yellow-dwarf.not-out-points-left",
    "{name} did not go out, so has 1 to {most} points left ({each} cards dealt); "
    "{entered} entered.",
)
KEEPS_WORTH_MORE = phrase(
    "yellow-dwarf.keeps-worth-more",
    "{name} keeps {kept}, worth {known} points, but has only {entered} points left.",
)
TAKER_CARD_COUNT = counted("yellow-dwarf.taker-cards", "{count} taker card", "{count} taker cards")
KEEPS_MORE_THAN_LEFT = phrase(
    "yellow-dwarf.keeps-more-than-left", "{name} keeps {takers} but has only {cards} left."
)
MORE_THAN_DEALT = phrase(
    "yellow-dwarf.more-than-dealt",
    "{name} would have held more than the {each} cards dealt: {cards} left and {takers} laid.",
)
SUMMARY_TOO_LATE = counted(
    "yellow-dwarf.summary-too-late",
    "A round summary comes instead of the round's cards, so before the first one; "
    "round {round} already has {count} card laid.",
    "A round summary comes instead of the round's cards, so before the first one; "
    "round {round} already has {count} cards laid.",
)
OUT_CANNOT_GO_OUT = phrase(
    "yellow-dwarf.out-cannot-go-out", "{name} is out of the game and cannot go out."
)
OUT_LAYS_NO_CARDS = phrase(
    "yellow-dwarf.out-lays-no-cards", "{name} is out of the game and lays no cards."
)
GRAND_OPERA_ONLY_WINNER = phrase(
    "yellow-dwarf.grand-opera-only-winner",
    "In a Grand Opera only {winner} lays cards; {card} is listed as laid by {name}.",
)
PLAYED_AND_KEPT = phrase(
    "yellow-dwarf.played-and-kept", "{card} is listed both in “played” and in “kept”."
)
CALLED_AND_TOOK = counted(
    "yellow-dwarf.called-and-took",
    "{name} called {card} “who takes” and took the {tray} tray, {count} chip.",
    "{name} called {card} “who takes” and took the {tray} tray, {count} chips.",
)


def _seat_in_range(state: State, seat: int, field: str) -> None:
    if not 0 <= seat < len(state.players):
        raise IllegalAction(NO_SUCH_PLAYER(seat=seat, highest=len(state.players) - 1), field)


def _check_holder(state: State, seat: int, winner: int, card: PlayingCard, field: str) -> None:
    """A seat that may still hold a card: in the game, and not the one who went out."""
    _seat_in_range(state, seat, field)
    name = state.players[seat]
    if seat == winner:
        raise IllegalAction(WENT_OUT_CANNOT_KEEP(name=name, card=card), field)
    if not state.active[seat]:
        raise IllegalAction(OUT_HOLDS_NO_CARDS(name=name), field)


def _check_kept(
    state: State, kept: Sequence[Kept], winner: int, taken: Mapping[PlayingCard, Text]
) -> None:
    """Each kept card once, a taker card, in a hand that can hold it; ``taken``: cards
    that cannot be in a hand, with the sentence that says why."""
    seen: set[PlayingCard] = set()
    for index, entry in enumerate(kept):
        field = f"kept.{index}"
        _check_holder(state, entry.player, winner, entry.card, f"{field}.player")
        _check_taker(entry.card, f"{field}.card")
        if entry.card in taken:
            raise IllegalAction(taken[entry.card], f"{field}.card")
        if entry.card in seen:
            raise IllegalAction(LISTED_TWICE(card=entry.card, field="kept"), f"{field}.card")
        seen.add(entry.card)


def _kept_by(kept: Sequence[Kept], seat: int) -> list[PlayingCard]:
    return [entry.card for entry in kept if entry.player == seat]


def _check_seat_count(state: State, left: Sequence[int]) -> None:
    seats = len(state.players)
    if len(left) != seats:
        per_seat = LEFT_PER_SEAT_POINTS if state.options.payout == "points" else LEFT_PER_SEAT_CARDS
        raise IllegalAction(per_seat(seats=seats, given=len(left)), "left")


def _check_nothing_left(state: State, seat: int, count: int, winner: int) -> None:
    """The winner and a seat out of the game hold nothing."""
    name = state.players[seat]
    points = state.options.payout == "points"
    if seat == winner and count:
        went_out = WENT_OUT_NO_POINTS_LEFT if points else WENT_OUT_NO_CARDS_LEFT
        raise IllegalAction(went_out(name=name, count=count), f"left.{seat}")
    if not state.active[seat] and count:
        out = OUT_NO_POINTS_LEFT if points else OUT_NO_CARDS_LEFT
        raise IllegalAction(out(name=name, count=count), f"left.{seat}")


def _reveal_left(
    state: State, raw: tuple[int, ...] | None, kept: Sequence[Kept]
) -> tuple[int, ...]:
    """Each seat's cards or points left, checked against the cards each hand holds."""
    assert state.went_out is not None
    winner = state.went_out
    counts = hand_counts(state)
    points = state.options.payout == "points"
    for seat, count in enumerate(counts):
        held = _kept_by(kept, seat)
        if len(held) > count:
            raise IllegalAction(
                FEWER_THAN_KEPT(name=state.players[seat], count=count, kept=len(held)), "kept"
            )
    if raw is None:
        if points:
            raise IllegalAction(ENTER_POINTS_LEFT(), "left")
        return counts
    _check_seat_count(state, raw)
    each = dealt(state)
    for seat, (count, entered) in enumerate(zip(counts, raw, strict=True)):
        _check_nothing_left(state, seat, entered, winner)
        if seat == winner or not state.active[seat]:
            continue
        name = state.players[seat]
        if not points:
            if entered != count:
                raise IllegalAction(
                    CARDS_LEFT_ENTERED(
                        name=name,
                        count=count,
                        each=each,
                        laid=state.laid_counts[seat],
                        entered=entered,
                    ),
                    f"left.{seat}",
                )
            continue
        held = _kept_by(kept, seat)
        known = sum(card_points(card) for card in held)
        lowest = known + (count - len(held))
        highest = known + MOST_POINTS * (count - len(held))
        if not lowest <= entered <= highest:
            values = {"lowest": lowest, "highest": highest, "entered": entered}
            if held:
                said = POINTS_LEFT_RANGE_KEPT(name=name, count=count, kept=all_of(held), **values)
            else:
                said = POINTS_LEFT_RANGE(name=name, count=count, **values)
            raise IllegalAction(said, f"left.{seat}")
    return raw


def _apply_reveal(state: State, action: Reveal) -> State:
    if state.finished:
        raise IllegalAction(GAME_OVER(), "type")
    winner = state.went_out
    if winner is None:
        raise IllegalAction(NOBODY_OUT_YET(next=_next_text(state)), "type")
    names = state.players
    taken = {
        laid.card: LAID_IN_NO_HAND(card=laid.card, name=names[laid.seat]) for laid in state.laid
    }
    _check_kept(state, action.kept, winner, taken)
    left = _reveal_left(state, action.left, action.kept)
    uncalled = tuple(laid for laid in state.laid if laid.called is False)
    return _finish_round(
        state,
        winner,
        left,
        action.kept,
        is_grand_opera(state),
        summary=False,
        sentences=[],
        uncalled=uncalled,
    )


def _summary_left(state: State, action: RoundSummary) -> None:
    """Each seat's cards or points left: none for the winner, 1 to a full hand for the rest."""
    _check_seat_count(state, action.left)
    each = dealt(state)
    points = state.options.payout == "points"
    most = MOST_POINTS * each if points else each
    for seat, entered in enumerate(action.left):
        _check_nothing_left(state, seat, entered, action.winner)
        if seat == action.winner or not state.active[seat]:
            continue
        name = state.players[seat]
        field = f"left.{seat}"
        held = _kept_by(action.kept, seat)
        if action.grand_opera and not each <= entered <= most:
            if points:
                holds = GRAND_OPERA_HOLDS_ALL_POINTS(
                    name=name, each=each, most=most, entered=entered
                )
            else:
                holds = GRAND_OPERA_HOLDS_ALL(name=name, each=each, entered=entered)
            raise IllegalAction(holds, field)
        if not 1 <= entered <= most:
            not_out = NOT_OUT_POINTS_LEFT if points else NOT_OUT_CARDS_LEFT
            raise IllegalAction(not_out(name=name, most=most, each=each, entered=entered), field)
        if points:
            known = sum(card_points(card) for card in held)
            if entered < known:
                raise IllegalAction(
                    KEEPS_WORTH_MORE(name=name, kept=all_of(held), known=known, entered=entered),
                    field,
                )
            continue
        if len(held) > entered:
            raise IllegalAction(
                KEEPS_MORE_THAN_LEFT(
                    name=name,
                    takers=TAKER_CARD_COUNT(count=len(held)),
                    cards=CARD_COUNT(count=entered),
                ),
                field,
            )
        laid = sum(1 for entry in action.played if entry.player == seat)
        if entered + laid > each:
            raise IllegalAction(
                MORE_THAN_DEALT(
                    name=name,
                    each=each,
                    cards=CARD_COUNT(count=entered),
                    takers=TAKER_CARD_COUNT(count=laid),
                ),
                field,
            )


def _apply_summary(state: State, action: RoundSummary) -> State:
    _refuse_unless_play(state, "type")
    if state.laid:
        raise IllegalAction(SUMMARY_TOO_LATE(round=state.round, count=len(state.laid)), "type")
    names = state.players
    winner = action.winner
    _seat_in_range(state, winner, "winner")
    if not state.active[winner]:
        raise IllegalAction(OUT_CANNOT_GO_OUT(name=names[winner]), "winner")
    taken: dict[PlayingCard, Text] = {}
    for index, entry in enumerate(action.played):
        field = f"played.{index}"
        _seat_in_range(state, entry.player, f"{field}.player")
        if not state.active[entry.player]:
            raise IllegalAction(OUT_LAYS_NO_CARDS(name=names[entry.player]), f"{field}.player")
        if action.grand_opera and entry.player != winner:
            raise IllegalAction(
                GRAND_OPERA_ONLY_WINNER(
                    winner=names[winner], card=entry.card, name=names[entry.player]
                ),
                f"{field}.player",
            )
        _check_taker(entry.card, f"{field}.card")
        if entry.card in taken:
            raise IllegalAction(LISTED_TWICE(card=entry.card, field="played"), f"{field}.card")
        taken[entry.card] = PLAYED_AND_KEPT(card=entry.card)
    _check_kept(state, action.kept, winner, taken)
    # The cards left come last: their bounds depend on the taker cards laid and kept.
    _summary_left(state, action)
    chips = list(state.chips)
    trays = dict(state.trays)
    takings = list(state.takings)
    sentences: list[Text] = []
    for entry in action.played:
        if not entry.called:
            continue
        tray = str(entry.card)
        collected = trays[tray]
        chips[entry.player] += collected
        trays[tray] = 0
        takings.append(Taking(entry.player, tray, collected))
        sentences.append(
            CALLED_AND_TOOK(
                name=names[entry.player], card=entry.card, tray=TRAY_NAMES[tray], count=collected
            )
        )
    collected_state = evolve(state, chips=tuple(chips), trays=trays, takings=tuple(takings))
    uncalled = tuple(
        Laid(entry.player, entry.card, False) for entry in action.played if not entry.called
    )
    return _finish_round(
        collected_state,
        winner,
        action.left,
        action.kept,
        action.grand_opera,
        summary=True,
        sentences=sentences,
        uncalled=uncalled,
    )


# --- JSON ------------------------------------------------------------------------------

_RANKS_BY_NAME = {rank_name(rank): rank for rank in range(ACE, KING + 1)}
RANK_SAID_WITHOUT = phrase(
    "yellow-dwarf.rank-said-without", "“rank” is the rank said without: A, 2 to 10, J, Q or K."
)
NUMBER_PER_SEAT = phrase(
    "yellow-dwarf.number-per-seat", "“{field}” must list a whole number for each seat."
)
SEAT_ENTRY = phrase("yellow-dwarf.seat-entry", "Seat {seat}'s entry in “{field}”")
SAY_WHETHER_CALLED = phrase(
    "yellow-dwarf.say-whether-called",
    "Say whether {card} was called “who takes”: called must be true or false.",
)


def rank_shown(name: str) -> Text | str:
    """A rank written by name ("J", as the API writes it) in the reader's letters ("V")."""
    return rank_words(_RANKS_BY_NAME[name])


def _parse_rank(raw: object) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and ACE <= raw <= KING:
        return raw
    if isinstance(raw, str) and raw.strip().upper() in _RANKS_BY_NAME:
        return _RANKS_BY_NAME[raw.strip().upper()]
    raise IllegalAction(RANK_SAID_WITHOUT(), "rank")


def _parse_numbers(raw: object, field: str) -> tuple[int, ...]:
    if not isinstance(raw, list | tuple):
        raise IllegalAction(NUMBER_PER_SEAT(field=field), field)
    return tuple(
        parse_whole_number(value, SEAT_ENTRY(seat=seat, field=field), f"{field}.{seat}")
        for seat, value in enumerate(raw)
    )


def _entries(
    raw: object, field: str, keys: frozenset[str], shape: str
) -> list[Mapping[str, object]]:
    if raw is None:
        return []
    if not isinstance(raw, list | tuple):
        raise IllegalAction(MUST_BE_LIST(field=field, shape=shape), field)
    entries: list[Mapping[str, object]] = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise IllegalAction(
                ENTRY_MUST_BE(index=index, field=field, shape=shape), f"{field}.{index}"
            )
        label = ENTRY_LABEL(index=index, field=field)
        check_known_fields(entry, keys, label, f"{field}.{index}")
        entries.append(entry)
    return entries


def _parse_kept(raw: object) -> tuple[Kept, ...]:
    kept = []
    for index, entry in enumerate(
        _entries(raw, "kept", frozenset({"player", "card"}), "{player, card}")
    ):
        field = f"kept.{index}"
        player = parse_whole_number(entry.get("player"), THE_PLAYER(), f"{field}.player")
        card = parse_playing_card(entry.get("card"), f"{field}.card")
        kept.append(Kept(player, _check_taker(card, f"{field}.card")))
    return tuple(kept)


def _parse_played(raw: object) -> tuple[Played, ...]:
    played = []
    keys = frozenset({"player", "card", "called"})
    for index, entry in enumerate(_entries(raw, "played", keys, "{player, card, called}")):
        field = f"played.{index}"
        player = parse_whole_number(entry.get("player"), THE_PLAYER(), f"{field}.player")
        card = _check_taker(parse_playing_card(entry.get("card"), f"{field}.card"), f"{field}.card")
        called = entry.get("called")
        if not isinstance(called, bool):
            raise IllegalAction(SAY_WHETHER_CALLED(card=card), f"{field}.called")
        played.append(Played(player, card, called))
    return tuple(played)


def _check_grand_opera(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction(GRAND_OPERA_BOOL(), "grand_opera")
    return raw


ACTIONS: ActionSet[Action] = ActionSet(Action)


# --- The game ----------------------------------------------------------------------------


LOG_CALLED = phrase("yellow-dwarf.log-called", "{card}, called")
LOG_NOT_CALLED = phrase("yellow-dwarf.log-not-called", "{card}, not called")
LOG_WITHOUT = phrase("yellow-dwarf.log-without", "without")
LOG_WITHOUT_RANK = phrase("yellow-dwarf.log-without-rank", "without {rank}")
LOG_REVEAL = phrase("yellow-dwarf.log-reveal", "reveal")
LOG_SUMMARY = phrase("yellow-dwarf.log-summary", "round summary: seat {seat} went out")
LOG_SUMMARY_GRAND_OPERA = phrase(
    "yellow-dwarf.log-summary-grand-opera", "round summary: seat {seat} went out, Grand Opera"
)


def _describe_play(play: Play) -> Text:
    if play.called is None:
        return play.card.said()
    return (LOG_CALLED if play.called else LOG_NOT_CALLED)(card=play.card)


def _describe_without(without: Without) -> Text:
    if without.rank is None:
        return LOG_WITHOUT()
    return LOG_WITHOUT_RANK(rank=rank_words(without.rank))


def _describe_summary(summary: RoundSummary) -> Text:
    said = LOG_SUMMARY_GRAND_OPERA if summary.grand_opera else LOG_SUMMARY
    return said(seat=summary.winner + 1)


TITLE = phrase("yellow-dwarf.title", "Yellow Dwarf")
STARTING_CHIPS = phrase("yellow-dwarf.option-starting-chips", "Chips each at the start")
STARTING_CHIPS_HELP = phrase(
    "yellow-dwarf.option-starting-chips-help",
    "Every player starts with this many chips and stakes {stake} a round.",
)
# An option's summary keeps "{}" for the value (the new-session page puts it there): the
# phrase is said with "{}" as its value.
STARTING_CHIPS_SUMMARY = phrase("yellow-dwarf.option-starting-chips-summary", "{value} chips each")
PAYOUT = phrase("yellow-dwarf.option-payout", "The winner of a round is paid")
PAYOUT_HELP = phrase(
    "yellow-dwarf.option-payout-help",
    "One chip per card left in each hand, or the points of those cards "
    "(ace 1, 2 to 10 their number, jack, queen and king 10).",
)
PAYOUT_CARDS = phrase("yellow-dwarf.payout-cards", "1 chip per card left")
PAYOUT_POINTS = phrase("yellow-dwarf.payout-points", "the points left in hand")
PAYOUT_SUMMARY = phrase("yellow-dwarf.option-payout-summary", "winner paid {value}")
GAME_END = phrase("yellow-dwarf.option-game-end", "The game ends")
GAME_END_HELP = phrase(
    "yellow-dwarf.option-game-end-help",
    "When a player cannot pay the {stake}-chip stake and the most chips wins; "
    "or the variant: who cannot pay drops out, and play goes on until one player "
    "can pay; as a deal needs {fewest} players, it also ends when only 2 can "
    "pay, and the one with more chips wins.",
)
ENDS_FIRST_BROKE = phrase("yellow-dwarf.ends-first-broke", "when a player cannot pay the stake")
ENDS_LAST_STANDING = phrase("yellow-dwarf.ends-last-standing", "when only one player can pay")
GAME_END_SUMMARY = phrase("yellow-dwarf.option-game-end-summary", "ends {value}")
STARTING_CHIPS_LABEL = STARTING_CHIPS()

# The rank a "without" may name.
RANKS = Listed("ranks", str, "The ranks accepted (Yellow Dwarf's “without”).")


class YellowDwarf(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names (the log has no state): seats count from 1 in them. Seat 1
    starts round 1 and the sheet names no other first player: Play again keeps the
    options.
    """

    slug = "yellow-dwarf"
    title = TITLE()
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "starting_chips",
            STARTING_CHIPS_LABEL,
            "int",
            50,
            help=STARTING_CHIPS_HELP(stake=STAKE),
            minimum=STAKE,
            maximum=10000,
            summary=STARTING_CHIPS_SUMMARY(value="{}"),
        ),
        OptionSpec(
            "payout",
            PAYOUT(),
            "choice",
            "cards",
            help=PAYOUT_HELP(),
            choices=(("cards", PAYOUT_CARDS()), ("points", PAYOUT_POINTS())),
            summary=PAYOUT_SUMMARY(value="{}"),
        ),
        OptionSpec(
            "game_end",
            GAME_END(),
            "choice",
            "first-broke",
            help=GAME_END_HELP(stake=STAKE, fewest=MIN_PLAYERS),
            choices=(
                ("first-broke", ENDS_FIRST_BROKE()),
                ("last-standing", ENDS_LAST_STANDING()),
            ),
            summary=GAME_END_SUMMARY(value="{}"),
        ),
    )
    actions = ACTIONS
    handlers = (
        on(Play, _apply_play, _describe_play),
        on(Without, _apply_without, _describe_without),
        on(Reveal, _apply_reveal, lambda _reveal: LOG_REVEAL()),
        on(RoundSummary, _apply_summary, _describe_summary),
    )
    listed = (CARDS, RANKS, CHOICES)
    expected_actions = staticmethod(expected_actions)

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        seats = len(players)
        each = parse_whole_number(
            options["starting_chips"], STARTING_CHIPS_LABEL, "options.starting_chips"
        )
        chosen = Options(
            starting_chips=each,
            payout="points" if options["payout"] == "points" else "cards",
            game_end="last-standing" if options["game_end"] == "last-standing" else "first-broke",
        )
        state = State(
            players=players,
            options=chosen,
            chips=(each,) * seats,
            trays=dict.fromkeys(TRAY_STAKES, 0),
            active=(True,) * seats,
            round=0,
            first=0,
            turn=None,
            required=None,
            laid=(),
            laid_counts=(0,) * seats,
            went_out=None,
            stakes=(0,) * seats,
            takings=(),
            rounds=(),
            finished=False,
            winners=(),
            last_ruling="",
            start_total=each * seats,
        )
        return _check_conserved(_begin_round(state, 1, []))

    def apply(self, state: State, action: Action) -> State:
        return _check_conserved(super().apply(state, action))

    def winners(self, state: State) -> list[int]:
        """Once over: the most chips (ties share); in the last-standing variant, among
        those still in at the end (or, if nobody could pay, those who dropped out last)."""
        return list(state.winners) if state.finished else []

    def standings(self, state: State) -> list[Standing]:
        """Everyone by the chips they hold, seats out of the game included."""
        return rank_by_score(state.players, state.chips)

    def rematch_first_seat(self, state: State) -> int:
        """Each round is started by the seat after the last round's first player, all seats
        playing: the next game goes on from there."""
        return (state.first + 1) % len(state.players)

    def score_rows(self, state: State) -> list[ScoreRow]:
        """One row per seat per settled round: the round's whole change and the chips after."""
        return [
            ScoreRow(
                record.number,
                seat,
                name,
                record.changes[seat],
                record.chips[seat],
                record.notes[seat],
            )
            for record in state.rounds
            for seat, name in enumerate(state.players)
        ]


GAME = YellowDwarf()
