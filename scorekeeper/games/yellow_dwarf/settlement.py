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
    MINUS,
    IllegalAction,
    and_list,
    check_known_fields,
    parse_whole_number,
    plural,
)
from scorekeeper.games.cards import STANDARD_52, PlayingCard, parse_playing_card

MIN_PLAYERS = 3
MAX_PLAYERS = 8
# The whole 52-card deck is dealt every round (what is not dealt is set aside).
DECK: tuple[PlayingCard, ...] = STANDARD_52
# The five trays, in the order of the board, with each player's stake per round.
TRAY_STAKES: dict[str, int] = {"10D": 1, "JC": 2, "QS": 3, "KH": 4, "7D": 5}
TRAY_NAMES: dict[str, str] = {
    "10D": "10 of Diamonds",
    "JC": "Jack of Clubs",
    "QS": "Queen of Spades",
    "KH": "King of Hearts",
    "7D": "7 of Diamonds (the Yellow Dwarf)",
}
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
            f"Yellow Dwarf deals to {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.",
            "players",
        )
    return _DEALS[players]


def rank_name(rank: int) -> str:
    """How a rank is written: A, 2 to 10, J, Q, K."""
    return {ACE: "A", 11: "J", 12: "Q", KING: "K"}.get(rank, str(rank))


def a_rank(rank: int) -> str:
    """The rank with its article, as said aloud: "an A", "an 8", "a 6", "a J"."""
    name = rank_name(rank)
    return f"an {name}" if rank in (ACE, 8) else f"a {name}"


@dataclass(frozen=True)
class Settlement:
    """Each player's change in chips, the trays after settling, and why."""

    chips: tuple[int, ...]
    trays: dict[str, int]
    explanation: str

    def to_json(self) -> dict[str, object]:
        return {
            "chips": list(self.chips),
            "trays": dict(self.trays),
            "explanation": self.explanation,
        }


# A taker card that pays into its tray: who pays, the card, and why ("kept" or
# "played without calling"), worded to follow the player's name.
Penalty = tuple[int, PlayingCard, str]


@dataclass(frozen=True)
class _Ledger:
    """A settled round: the contract's Settlement and, per seat, short notes for a score row."""

    settlement: Settlement
    notes: tuple[tuple[str, ...], ...]


def settle_core(
    winner: int,
    owed: Sequence[int],
    reasons: Sequence[str],
    penalties: Sequence[Penalty],
    trays: Mapping[str, int],
    grand_opera: bool,
    names: Sequence[str],
    openers: Sequence[str],
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
    notes: list[list[str]] = [[] for _ in owed]
    after = dict(trays)
    sentences = []

    def payable(seat: int, due: int) -> int:
        if held is None:
            return due
        return max(0, min(due, held[seat] + chips[seat]))

    if grand_opera:
        total = sum(after.values())
        chips[winner] += total
        after = dict.fromkeys(after, 0)
        sentences.append(f"Grand Opera: {names[winner]} takes all five trays ({total} chips).")
        notes[winner].append(f"+{total} Grand Opera")
    payments = []
    received = 0
    for other, due in enumerate(owed):
        if other == winner or not due:
            continue
        paid = payable(other, due)
        chips[other] -= paid
        chips[winner] += paid
        received += paid
        if paid == due:
            payments.append(f"{names[other]} pays {due} ({reasons[other]})")
        else:
            payments.append(f"{names[other]} can pay only {paid} of {due} ({reasons[other]})")
        short = "" if paid == due else f" of {due} owed"
        notes[other].append(f"{MINUS}{paid}{short} to {names[winner]} ({reasons[other]})")
    if payments:
        sentences.append(f"{openers[winner]} went out: {and_list(payments)}.")
        notes[winner].append(f"+{received} went out")
    for other, card, how in penalties:
        tray = str(card)
        doubled = after[tray]
        paid = payable(other, doubled)
        chips[other] -= paid
        after[tray] += paid
        what = f"{openers[other]} {how} {card}: "
        if paid == doubled:
            sentences.append(f"{what}pays the {TRAY_NAMES[tray]} tray what it holds, {doubled}.")
        else:
            sentences.append(
                f"{what}owes the {TRAY_NAMES[tray]} tray what it holds, {doubled}, "
                f"but can pay only {paid}."
            )
        short = "" if paid == doubled else f" of {doubled} owed"
        notes[other].append(f"{MINUS}{paid}{short} to the {tray} tray ({how} {card})")
    if not sentences:
        sentences.append(f"{openers[winner]} went out and nobody owes anything.")
    return _Ledger(
        Settlement(tuple(chips), after, " ".join(sentences)),
        tuple(tuple(seat_notes) for seat_notes in notes),
    )


def _trays(raw: object) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise IllegalAction(
            "“trays” must map each taker card (10D, JC, QS, KH, 7D) to its chips.", "trays"
        )
    trays: dict[str, int] = {}
    for key in raw:
        if str(key) not in TRAY_STAKES:
            raise IllegalAction(
                f"There is no {str(key)[:20]!r} tray: the trays are {and_list(list(TRAY_STAKES))}.",
                f"trays.{str(key)[:20]}",
            )
    for name in TRAY_STAKES:
        if name not in raw:
            raise IllegalAction(
                f"The {TRAY_NAMES[name]} tray ({name}) is missing.", f"trays.{name}"
            )
        chips = parse_whole_number(raw[name], f"The {name} tray", f"trays.{name}")
        if chips < 0:
            raise IllegalAction(f"The {name} tray cannot hold fewer than 0 chips.", f"trays.{name}")
        trays[name] = chips
    return trays


def _hands(raw: object) -> list[list[PlayingCard]]:
    if not isinstance(raw, list) or not all(isinstance(hand, list) for hand in raw):
        raise IllegalAction("“hands” must list each player's cards left, in seat order.", "hands")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise IllegalAction(
            f"Yellow Dwarf is played by {MIN_PLAYERS} to {MAX_PLAYERS}; “hands” has {len(raw)}.",
            "hands",
        )
    return [
        [parse_playing_card(card, f"hands.{seat}.{index}") for index, card in enumerate(hand)]
        for seat, hand in enumerate(raw)
    ]


# The properties of an entry of "forgot": who played which taker card without calling.
FORGOT_FIELDS = frozenset({"player", "card"})


def _forgotten(raw: object, players: int) -> list[tuple[int, PlayingCard]]:
    if not isinstance(raw, list):
        raise IllegalAction("“forgot” must be a list of {player, card}.", "forgot")
    forgotten = []
    for index, entry in enumerate(raw):
        field = f"forgot.{index}"
        if not isinstance(entry, Mapping):
            raise IllegalAction(f"Entry {index} of “forgot” must be {{player, card}}.", field)
        check_known_fields(entry, FORGOT_FIELDS, f"Entry {index} of “forgot”", field)
        seat = parse_whole_number(entry.get("player"), "The player", f"{field}.player")
        if not 0 <= seat < players:
            raise IllegalAction(
                f"There is no player {seat}: players are 0 to {players - 1}.", f"{field}.player"
            )
        card = parse_playing_card(entry.get("card"), f"{field}.card")
        if str(card) not in TRAY_STAKES:
            raise IllegalAction(
                f"{card} is not a taker card: only {and_list(list(TRAY_STAKES))} have a tray.",
                f"{field}.card",
            )
        forgotten.append((seat, card))
    return forgotten


def _check_each_card_once(
    hands: Sequence[Sequence[PlayingCard]], forgotten: Sequence[tuple[int, PlayingCard]]
) -> None:
    seen: dict[PlayingCard, str] = {}
    places = [
        (card, f"hands.{seat}.{index}", f"player {seat}'s hand")
        for seat, hand in enumerate(hands)
        for index, card in enumerate(hand)
    ] + [(card, f"forgot.{i}.card", "the cards played") for i, (_, card) in enumerate(forgotten)]
    for card, field, where in places:
        if card in seen:
            raise IllegalAction(f"{card} is both in {seen[card]} and in {where}.", field)
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
    seat = parse_whole_number(winner, "The winner", "winner")
    if not 0 <= seat < players:
        raise IllegalAction(f"There is no player {seat}: players are 0 to {players - 1}.", "winner")
    if players_hands[seat]:
        raise IllegalAction(
            f"Player {seat} went out, so their hand must be empty; it lists "
            f"{plural(len(players_hands[seat]), 'card')}.",
            f"hands.{seat}",
        )
    if not isinstance(grand_opera, bool):
        raise IllegalAction("“grand_opera” must be true or false.", "grand_opera")
    if payout not in ("cards", "points"):
        raise IllegalAction("“payout” must be “cards” or “points”.", "payout")
    forgotten = _forgotten(list(forgot) if isinstance(forgot, tuple) else forgot, players)
    _check_each_card_once(players_hands, forgotten)
    held = _trays(trays)

    if payout == "cards":
        owed = [len(hand) for hand in players_hands]
        reasons = [plural(len(hand), "card") for hand in players_hands]
    else:
        owed = [sum(card_points(card) for card in hand) for hand in players_hands]
        # The contract's wording, "1 points" included: its explanations do not change.
        reasons = [f"{points} points in hand" for points in owed]
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
        [f"player {other}" for other in range(players)],
        [f"Player {other}" for other in range(players)],
    ).settlement
