"""Yellow Dwarf (Nain Jaune): the trays of the taker cards and settling a round.

Rule sheet: shared/rules/yellow-dwarf.txt and NOTES.md. Settling follows the
order the judge contract fixes: a Grand Opera first empties every tray to the
winner; then each other hand pays the winner (a chip a card, or card points);
then each taker card kept in a hand, or played without calling "who takes",
pays into its tray as many chips as the tray holds. Chips are conserved: what
the players lose, the winner and the trays gain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scorekeeper.games.base import IllegalAction, and_list, parse_whole_number, plural
from scorekeeper.games.cards import PlayingCard, parse_playing_card

MIN_PLAYERS = 3
MAX_PLAYERS = 8
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


def card_points(card: PlayingCard) -> int:
    """The points variant: ace 1, 2 to 10 their number, jack, queen and king 10."""
    return min(card.rank, 10)


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


def _forgotten(raw: object, players: int) -> list[tuple[int, PlayingCard]]:
    if not isinstance(raw, list):
        raise IllegalAction("“forgot” must be a list of {player, card}.", "forgot")
    forgotten = []
    for index, entry in enumerate(raw):
        field = f"forgot.{index}"
        if not isinstance(entry, Mapping):
            raise IllegalAction(f"Entry {index} of “forgot” must be {{player, card}}.", field)
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

    chips = [0] * players
    sentences = []
    if grand_opera:
        total = sum(held.values())
        chips[seat] += total
        held = dict.fromkeys(held, 0)
        sentences.append(f"Grand Opera: player {seat} takes all five trays ({total} chips).")
    payments = []
    for other, hand in enumerate(players_hands):
        if other == seat or not hand:
            continue
        owed = len(hand) if payout == "cards" else sum(card_points(card) for card in hand)
        unit = plural(len(hand), "card") if payout == "cards" else f"{owed} points in hand"
        chips[other] -= owed
        chips[seat] += owed
        payments.append(f"player {other} pays {owed} ({unit})")
    if payments:
        sentences.append(f"Player {seat} went out: {and_list(payments)}.")
    penalties = [
        (other, card, "kept")
        for other, hand in enumerate(players_hands)
        for card in hand
        if str(card) in TRAY_STAKES
    ] + [(other, card, "played without calling") for other, card in forgotten]
    for other, card, how in penalties:
        tray = str(card)
        doubled = held[tray]
        chips[other] -= doubled
        held[tray] += doubled
        sentences.append(
            f"Player {other} {how} {card}: pays the {TRAY_NAMES[tray]} tray what it holds, "
            f"{doubled}."
        )
    if not sentences:
        sentences.append(f"Player {seat} went out and nobody owes anything.")
    return Settlement(tuple(chips), held, " ".join(sentences))
