"""Yellow Dwarf's settlement: the trays of the taker cards and who pays whom at a round's end.

Rule sheet: shared/rules/yellow-dwarf.txt and NOTES.md. Settling follows the
order the judge contract fixes: a Grand Opera first empties every tray to the
winner; then each other hand pays the winner (a chip a card, or card points);
then each taker card kept in a hand, or played without calling "who takes",
pays into its tray as many chips as the tray holds. Chips are conserved: what
the players lose, the winner and the trays gain.

Two callers share that order through ``settle_core``: the judge contract's
stateless ``settle`` here (chip changes only, a player may go below zero) and
the session game in ``rules``, which settles each round out of the chips the
players really hold (a player pays what they can, down to 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scorekeeper.games.base import (
    IllegalAction,
    check_known_fields,
    parse_whole_number,
)
from scorekeeper.games.cards import STANDARD_52, PlayingCard, parse_playing_card
from scorekeeper.games.words import Text, all_of, counted, in_turn, phrase

MIN_PLAYERS = 3
MAX_PLAYERS = 8
# The whole 52-card deck is dealt every round (what is not dealt is set aside).
DECK: tuple[PlayingCard, ...] = STANDARD_52
# The five trays, in the order of the board, with each player's stake per round.
TRAY_STAKES: dict[str, int] = {"10D": 1, "JC": 2, "QS": 3, "KH": 4, "7D": 5}
# Each tray as the board names it (the French board: « le dix de carreau » … « le Nain
# Jaune »).
TRAY_PHRASES = {
    "10D": phrase("yellow-dwarf.tray-10d", "10 of Diamonds"),
    "JC": phrase("yellow-dwarf.tray-jc", "Jack of Clubs"),
    "QS": phrase("yellow-dwarf.tray-qs", "Queen of Spades"),
    "KH": phrase("yellow-dwarf.tray-kh", "King of Hearts"),
    "7D": phrase("yellow-dwarf.tray-7d", "7 of Diamonds (the Yellow Dwarf)"),
}
TRAY_NAMES: dict[str, Text] = {card: said() for card, said in TRAY_PHRASES.items()}
Payout = Literal["cards", "points"]
GameEnd = Literal["first-broke", "last-standing"]
Step = Literal["play", "reveal", "over"]

# What each player puts into the five trays at the start of a round.
STAKE = sum(TRAY_STAKES.values())
ACE = 1
KING = 13
# The most a card is worth in the points variant (10 and the faces).
MOST_POINTS = 10
# Cards dealt to each player and cards set aside, by the number of players dealt in.
_DEALS: dict[int, tuple[int, int]] = {
    3: (15, 7),
    4: (12, 4),
    5: (9, 7),
    6: (8, 4),
    7: (7, 3),
    8: (6, 4),
}
TAKER_CARDS: tuple[PlayingCard, ...] = tuple(
    parse_playing_card(name, "card") for name in TRAY_STAKES
)


# --- What the settlement says ---------------------------------------------------------

CHIPS = counted("yellow-dwarf.chips", "{count} chip", "{count} chips")
CARDS = counted("yellow-dwarf.cards", "{count} card", "{count} cards")
POINTS_IN_HAND = counted(
    "yellow-dwarf.points-in-hand", "{count} point in hand", "{count} points in hand"
)
# The judge contract's wording, "1 points" included (its explanations do not change): the
# same words for one and for more in English, a language's own plural in the others.
CONTRACT_POINTS = counted(
    "yellow-dwarf.contract-points-in-hand", "{count} points in hand", "{count} points in hand"
)
PLAYER = phrase("yellow-dwarf.player", "player {seat}")
PLAYER_OPENING = phrase("yellow-dwarf.player-opening", "Player {seat}")
NOTES = phrase("yellow-dwarf.notes", "{first}; {second}")
GRAND_OPERA_TAKES = phrase(
    "yellow-dwarf.grand-opera-takes", "Grand Opera: {winner} takes all five trays ({chips} chips)."
)
GRAND_OPERA_NOTE = phrase("yellow-dwarf.grand-opera-note", "+{chips} Grand Opera")
PAYS = phrase("yellow-dwarf.pays", "{player} pays {due} ({reason})")
PAYS_ONLY = phrase("yellow-dwarf.pays-only", "{player} can pay only {paid} of {due} ({reason})")
PAID_NOTE = phrase("yellow-dwarf.paid-note", "\u2212{paid} to {winner} ({reason})")
PAID_SHORT_NOTE = phrase(
    "yellow-dwarf.paid-short-note", "\u2212{paid} of {due} owed to {winner} ({reason})"
)
WENT_OUT_PAID = phrase("yellow-dwarf.went-out-paid", "{winner} went out: {payments}.")
WENT_OUT_NOTE = phrase("yellow-dwarf.went-out-note", "+{chips} went out")
NOBODY_OWES = phrase("yellow-dwarf.nobody-owes", "{winner} went out and nobody owes anything.")
KEPT_PAYS = phrase(
    "yellow-dwarf.kept-pays-tray",
    "{player} kept {card}: pays the {tray} tray what it holds, {due}.",
)
UNCALLED_PAYS = phrase(
    "yellow-dwarf.uncalled-pays-tray",
    "{player} played without calling {card}: pays the {tray} tray what it holds, {due}.",
)
KEPT_OWES = phrase(
    "yellow-dwarf.kept-owes-tray",
    "{player} kept {card}: owes the {tray} tray what it holds, {due}, but can pay only {paid}.",
)
UNCALLED_OWES = phrase(
    "yellow-dwarf.uncalled-owes-tray",
    "{player} played without calling {card}: owes the {tray} tray what it holds, {due}, "
    "but can pay only {paid}.",
)
KEPT_NOTE = phrase("yellow-dwarf.kept-note", "\u2212{paid} to the {tray} tray (kept {card})")
KEPT_SHORT_NOTE = phrase(
    "yellow-dwarf.kept-short-note", "\u2212{paid} of {due} owed to the {tray} tray (kept {card})"
)
UNCALLED_NOTE = phrase(
    "yellow-dwarf.uncalled-note",
    "\u2212{paid} to the {tray} tray (played without calling {card})",
)
UNCALLED_SHORT_NOTE = phrase(
    "yellow-dwarf.uncalled-short-note",
    "\u2212{paid} of {due} owed to the {tray} tray (played without calling {card})",
)
DEALS_TO = phrase(
    "yellow-dwarf.deals-to", "Yellow Dwarf deals to {fewest} to {most} players, not {count}."
)
TRAYS_MAP = phrase(
    "yellow-dwarf.trays-map",
    "“trays” must map each taker card (10D, JC, QS, KH, 7D) to its chips.",
)
NO_SUCH_TRAY = phrase(
    "yellow-dwarf.no-such-tray", "There is no {given} tray: the trays are {trays}."
)
TRAY_MISSING = phrase("yellow-dwarf.tray-missing", "The {tray} tray ({card}) is missing.")
TRAY_LABEL = phrase("yellow-dwarf.tray-label", "The {card} tray")
TRAY_NEGATIVE = phrase(
    "yellow-dwarf.tray-negative", "The {card} tray cannot hold fewer than 0 chips."
)
HANDS_LIST = phrase(
    "yellow-dwarf.hands-list", "“hands” must list each player's cards left, in seat order."
)
HANDS_COUNT = phrase(
    "yellow-dwarf.hands-count", "Yellow Dwarf is played by {fewest} to {most}; “hands” has {count}."
)
MUST_BE_LIST = phrase("yellow-dwarf.must-be-list", "“{field}” must be a list of {shape}.")
ENTRY_MUST_BE = phrase("yellow-dwarf.entry-must-be", "Entry {index} of “{field}” must be {shape}.")
ENTRY_LABEL = phrase("yellow-dwarf.entry-label", "Entry {index} of “{field}”")
THE_PLAYER = phrase("yellow-dwarf.the-player", "The player")
THE_WINNER = phrase("yellow-dwarf.the-winner", "The winner")
NO_SUCH_PLAYER = phrase(
    "yellow-dwarf.no-such-player", "There is no player {seat}: players are 0 to {highest}."
)
NOT_A_TAKER = phrase(
    "yellow-dwarf.not-a-taker", "{card} is not a taker card: only {takers} have a tray."
)
IN_HAND = phrase("yellow-dwarf.in-hand", "player {seat}'s hand")
IN_THE_CARDS_PLAYED = phrase("yellow-dwarf.in-the-cards-played", "the cards played")
TWICE = phrase("yellow-dwarf.card-in-two-places", "{card} is both in {first} and in {second}.")
WINNER_HAND_NOT_EMPTY = counted(
    "yellow-dwarf.winner-hand-not-empty",
    "Player {seat} went out, so their hand must be empty; it lists {count} card.",
    "Player {seat} went out, so their hand must be empty; it lists {count} cards.",
)
GRAND_OPERA_BOOL = phrase("yellow-dwarf.grand-opera-bool", "“grand_opera” must be true or false.")
PAYOUT_CHOICE = phrase("yellow-dwarf.payout-choice", "“payout” must be “cards” or “points”.")


def notes_line(said: Sequence[Text]) -> Text:
    """A score row's short notes, one after the other (at least one)."""
    whole = said[0]
    for following in said[1:]:
        whole = NOTES(first=whole, second=following)
    return whole


def takers_listed() -> object:
    """The taker cards, as a sentence lists them ("10D, JC, QS, KH and 7D")."""
    return all_of(TAKER_CARDS)


def card_points(card: PlayingCard) -> int:
    """The points variant: ace 1, 2 to 10 their number, jack, queen and king 10."""
    return min(card.rank, MOST_POINTS)


def is_taker(card: PlayingCard) -> bool:
    """Whether the card has a tray (10D, JC, QS, KH, 7D)."""
    return str(card) in TRAY_STAKES


def deal_size(players: int) -> tuple[int, int]:
    """Cards dealt to each of ``players`` and cards set aside (the sheet's table)."""
    if players not in _DEALS:
        raise IllegalAction(
            DEALS_TO(fewest=MIN_PLAYERS, most=MAX_PLAYERS, count=players), "players"
        )
    return _DEALS[players]


def rank_name(rank: int) -> str:
    """How a rank is written: A, 2 to 10, J, Q, K."""
    return {ACE: "A", 11: "J", 12: "Q", KING: "K"}.get(rank, str(rank))


# A rank with its article, by rank: a face has its own (French "une D", "un R").
_A_RANK = {
    ACE: phrase("yellow-dwarf.an-ace", "an A"),
    8: phrase("yellow-dwarf.an-eight", "an 8"),
    11: phrase("yellow-dwarf.a-jack", "a J"),
    12: phrase("yellow-dwarf.a-queen", "a Q"),
    KING: phrase("yellow-dwarf.a-king", "a K"),
}
A_NUMBER = phrase("yellow-dwarf.a-number", "a {rank}")


def a_rank(rank: int) -> Text:
    """The rank with its article, as said aloud: "an A", "an 8", "a 6", "a J"."""
    said = _A_RANK.get(rank)
    return A_NUMBER(rank=rank) if said is None else said()


@dataclass(frozen=True)
class Settlement:
    """Each player's change in chips, the trays after settling, and why."""

    chips: tuple[int, ...]
    trays: dict[str, int]
    explanation: Text

    def to_json(self) -> dict[str, object]:
        return {
            "chips": list(self.chips),
            "trays": dict(self.trays),
            "explanation": self.explanation,
        }


# A taker card that pays into its tray: who pays, the card, and why ("kept" or
# "played without calling").
Penalty = tuple[int, PlayingCard, str]
# What a penalty says, by its why: paid in full, paid in part, its notes in full and in part.
_PENALTY_WORDS = {
    "kept": (KEPT_PAYS, KEPT_OWES, KEPT_NOTE, KEPT_SHORT_NOTE),
    "played without calling": (UNCALLED_PAYS, UNCALLED_OWES, UNCALLED_NOTE, UNCALLED_SHORT_NOTE),
}


@dataclass(frozen=True)
class _Ledger:
    """A settled round: the contract's Settlement and, per seat, short notes for a score row."""

    settlement: Settlement
    notes: tuple[tuple[Text, ...], ...]


def settle_core(
    winner: int,
    owed: Sequence[int],
    reasons: Sequence[Text],
    penalties: Sequence[Penalty],
    trays: Mapping[str, int],
    grand_opera: bool,
    names: Sequence[str | Text],
    openers: Sequence[str | Text],
    held: Sequence[int] | None = None,
) -> _Ledger:
    """The settling order both the judge contract and the session use.

    ``owed``: what each seat owes the winner (cards or points left; the
    winner's own entry is ignored), ``reasons`` the words in brackets after
    it ("3 cards"). ``names`` name each seat inside a sentence, ``openers``
    at its start (the contract says "player 1" and "Player 1"). ``held``: the
    chips each seat has before settling; with it a seat pays what it can,
    down to 0 (the session's bank), without it the changes are unbounded
    (the stateless contract).
    """
    chips = [0] * len(owed)
    notes: list[list[Text]] = [[] for _ in owed]
    after = dict(trays)
    said: list[Text] = []

    def payable(seat: int, due: int) -> int:
        if held is None:
            return due
        return max(0, min(due, held[seat] + chips[seat]))

    if grand_opera:
        total = sum(after.values())
        chips[winner] += total
        after = dict.fromkeys(after, 0)
        said.append(GRAND_OPERA_TAKES(winner=names[winner], chips=total))
        notes[winner].append(GRAND_OPERA_NOTE(chips=total))
    payments: list[Text] = []
    received = 0
    for other, due in enumerate(owed):
        if other == winner or not due:
            continue
        paid = payable(other, due)
        chips[other] -= paid
        chips[winner] += paid
        received += paid
        reason = reasons[other]
        if paid == due:
            payments.append(PAYS(player=names[other], due=due, reason=reason))
            note = PAID_NOTE(paid=paid, winner=names[winner], reason=reason)
        else:
            payments.append(PAYS_ONLY(player=names[other], paid=paid, due=due, reason=reason))
            note = PAID_SHORT_NOTE(paid=paid, due=due, winner=names[winner], reason=reason)
        notes[other].append(note)
    if payments:
        said.append(WENT_OUT_PAID(winner=openers[winner], payments=all_of(payments)))
        notes[winner].append(WENT_OUT_NOTE(chips=received))
    for other, card, how in penalties:
        tray = str(card)
        doubled = after[tray]
        paid = payable(other, doubled)
        chips[other] -= paid
        after[tray] += paid
        pays, owes, note_paid, note_short = _PENALTY_WORDS[how]
        if paid == doubled:
            said.append(pays(player=openers[other], card=card, tray=TRAY_NAMES[tray], due=doubled))
            notes[other].append(note_paid(paid=paid, tray=card, card=card))
        else:
            said.append(
                owes(
                    player=openers[other], card=card, tray=TRAY_NAMES[tray], due=doubled, paid=paid
                )
            )
            notes[other].append(note_short(paid=paid, due=doubled, tray=card, card=card))
    if not said:
        said.append(NOBODY_OWES(winner=openers[winner]))
    return _Ledger(
        Settlement(tuple(chips), after, in_turn(*said)),
        tuple(tuple(seat_notes) for seat_notes in notes),
    )


def _trays(raw: object) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise IllegalAction(TRAYS_MAP(), "trays")
    trays: dict[str, int] = {}
    for key in raw:
        if str(key) not in TRAY_STAKES:
            raise IllegalAction(
                NO_SUCH_TRAY(given=repr(str(key)[:20]), trays=takers_listed()),
                f"trays.{str(key)[:20]}",
            )
    for name in TRAY_STAKES:
        card = parse_playing_card(name, "card")
        if name not in raw:
            raise IllegalAction(TRAY_MISSING(tray=TRAY_NAMES[name], card=card), f"trays.{name}")
        chips = parse_whole_number(raw[name], TRAY_LABEL(card=card), f"trays.{name}")
        if chips < 0:
            raise IllegalAction(TRAY_NEGATIVE(card=card), f"trays.{name}")
        trays[name] = chips
    return trays


def _hands(raw: object) -> list[list[PlayingCard]]:
    if not isinstance(raw, list) or not all(isinstance(hand, list) for hand in raw):
        raise IllegalAction(HANDS_LIST(), "hands")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise IllegalAction(
            HANDS_COUNT(fewest=MIN_PLAYERS, most=MAX_PLAYERS, count=len(raw)), "hands"
        )
    return [
        [parse_playing_card(card, f"hands.{seat}.{index}") for index, card in enumerate(hand)]
        for seat, hand in enumerate(raw)
    ]


# The properties of an entry of "forgot": who played which taker card without calling.
FORGOT_FIELDS = frozenset({"player", "card"})


def _forgotten(raw: object, players: int) -> list[tuple[int, PlayingCard]]:
    if not isinstance(raw, list):
        raise IllegalAction(MUST_BE_LIST(field="forgot", shape="{player, card}"), "forgot")
    forgotten = []
    for index, entry in enumerate(raw):
        field = f"forgot.{index}"
        if not isinstance(entry, Mapping):
            raise IllegalAction(
                ENTRY_MUST_BE(index=index, field="forgot", shape="{player, card}"), field
            )
        label = ENTRY_LABEL(index=index, field="forgot")
        check_known_fields(entry, FORGOT_FIELDS, label, field)
        seat = parse_whole_number(entry.get("player"), THE_PLAYER(), f"{field}.player")
        if not 0 <= seat < players:
            raise IllegalAction(NO_SUCH_PLAYER(seat=seat, highest=players - 1), f"{field}.player")
        card = parse_playing_card(entry.get("card"), f"{field}.card")
        if str(card) not in TRAY_STAKES:
            raise IllegalAction(NOT_A_TAKER(card=card, takers=takers_listed()), f"{field}.card")
        forgotten.append((seat, card))
    return forgotten


def _check_each_card_once(
    hands: Sequence[Sequence[PlayingCard]], forgotten: Sequence[tuple[int, PlayingCard]]
) -> None:
    seen: dict[PlayingCard, Text] = {}
    places = [
        (card, f"hands.{seat}.{index}", IN_HAND(seat=seat))
        for seat, hand in enumerate(hands)
        for index, card in enumerate(hand)
    ] + [(card, f"forgot.{i}.card", IN_THE_CARDS_PLAYED()) for i, (_, card) in enumerate(forgotten)]
    for card, field, where in places:
        if card in seen:
            raise IllegalAction(TWICE(card=card, first=seen[card], second=where), field)
        seen[card] = where


def settle(
    winner: object,
    trays: object,
    hands: object,
    forgot: object = (),
    grand_opera: object = False,
    payout: object = "cards",
) -> Settlement:
    """Who pays whom when ``winner`` has gone out (the judge contract's settle)."""
    players_hands = _hands(hands)
    players = len(players_hands)
    seat = parse_whole_number(winner, THE_WINNER(), "winner")
    if not 0 <= seat < players:
        raise IllegalAction(NO_SUCH_PLAYER(seat=seat, highest=players - 1), "winner")
    if players_hands[seat]:
        raise IllegalAction(
            WINNER_HAND_NOT_EMPTY(seat=seat, count=len(players_hands[seat])), f"hands.{seat}"
        )
    if not isinstance(grand_opera, bool):
        raise IllegalAction(GRAND_OPERA_BOOL(), "grand_opera")
    if payout not in ("cards", "points"):
        raise IllegalAction(PAYOUT_CHOICE(), "payout")
    forgotten = _forgotten(list(forgot) if isinstance(forgot, tuple) else forgot, players)
    _check_each_card_once(players_hands, forgotten)
    held = _trays(trays)

    if payout == "cards":
        owed = [len(hand) for hand in players_hands]
        reasons = [CARDS(count=len(hand)) for hand in players_hands]
    else:
        owed = [sum(card_points(card) for card in hand) for hand in players_hands]
        # The contract's wording, "1 points" included: its explanations do not change.
        reasons = [CONTRACT_POINTS(count=points) for points in owed]
    penalties: list[Penalty] = [
        (other, card, "kept")
        for other, hand in enumerate(players_hands)
        for card in hand
        if is_taker(card)
    ] + [(other, card, "played without calling") for other, card in forgotten]
    return settle_core(
        seat,
        owed,
        reasons,
        penalties,
        held,
        grand_opera,
        [PLAYER(seat=other) for other in range(players)],
        [PLAYER_OPENING(seat=other) for other in range(players)],
    ).settlement
