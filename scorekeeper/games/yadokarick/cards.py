"""Yadokarick's cards: its deck of two colours, 1 to 36, and what a trick does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from scorekeeper.games.base import (
    IllegalAction,
    and_list,
    capitalised,
    check_known_fields,
    parse_whole_number,
)
from scorekeeper.games.cards import (
    Card,
    PlayLabels,
    check_copies,
    coloured_deck,
    play_list,
    seat_names,
)

YADOKARICK = coloured_deck("Yadokarick", {"green": range(1, 37), "pink": range(1, 37)})


@dataclass(frozen=True)
class YadokarickTrick:
    """A Yadokarick trick's outcome: who moves the size marker, who leads, who takes what."""

    movers: tuple[int, ...]
    next_lead: int
    takes: Mapping[int, tuple[Card, ...]]
    discarded: tuple[Card, ...]
    explanation: str

    def to_json(self) -> dict[str, object]:
        return {
            "movers": list(self.movers),
            "next_lead": self.next_lead,
            "takes": {
                str(taker): [str(card) for card in cards] for taker, cards in self.takes.items()
            },
            "discarded": [str(card) for card in self.discarded],
            "explanation": self.explanation,
        }


# The properties of a play the Yadokarick judge rules on: a card and its printed size.
HOUSE_PLAY_FIELDS = frozenset({"card", "size"})


def _house_card(raw: object, index: int) -> tuple[Card, object]:
    if not isinstance(raw, Mapping):
        raise IllegalAction(
            f'Play {index} must be a card with its size, like {{"card": "green 25", "size": 3}}.',
            f"plays.{index}",
        )
    check_known_fields(raw, HOUSE_PLAY_FIELDS, f"Play {index}", f"plays.{index}")
    if raw.get("card") in (None, ""):
        raise IllegalAction(f"Enter the card of play {index}.", f"plays.{index}.card")
    return YADOKARICK.parse(raw["card"], f"plays.{index}.card"), raw.get("size")


def _blank(raw: object) -> bool:
    """No size given: absent, null, or an empty form field."""
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _house_size(card: Card, raw: object, index: int) -> int:
    field, label = f"plays.{index}.size", f"The size printed on {card}"
    if _blank(raw):
        raise IllegalAction(f"{label} is missing.", field)
    size = parse_whole_number(raw, label, field)
    if size < 1:
        raise IllegalAction(f"{label} must be at least 1; you entered {size}.", field)
    return size


def _lowest_text(movers: Sequence[int], label: PlayLabels) -> str:
    if len(movers) == 1:
        return (
            f"{capitalised(label(movers[0]))} is the lowest: "
            "it moves the size marker and leads next."
        )
    return (
        f"{capitalised(label.all(movers))} tie for lowest: each moves the size marker, "
        f"in play order, and {label(movers[-1])}, the last, leads next."
    )


def yadokarick_trick(
    plays: Sequence[object], names: Sequence[str] | None = None
) -> YadokarickTrick:
    """Who moves the size marker, who leads next and who takes which cards of a trick.

    Three plays are the one-colour game (the highest takes every card, sizes
    optional); four to seven use both colours and the printed sizes.
    """
    deck = YADOKARICK
    raw_plays = play_list(plays, deck.title, 3, 7)
    one_colour = len(raw_plays) == 3
    parsed = [_house_card(raw, index) for index, raw in enumerate(raw_plays)]
    cards = tuple(card for card, _ in parsed)
    sizes = [
        None if one_colour and _blank(raw_size) else _house_size(card, raw_size, index)
        for index, (card, raw_size) in enumerate(parsed)
    ]
    check_copies(deck, cards, ".card")
    label = PlayLabels(cards, seat_names(names, len(cards)))
    colours = [colour for colour in deck.colours if any(card.colour == colour for card in cards)]
    lowest = min(card.number for card in cards)
    movers = tuple(i for i, card in enumerate(cards) if card.number == lowest)
    if one_colour:
        if len(colours) > 1:
            raise IllegalAction(
                f"The 3-player game uses one colour; this trick mixes {and_list(colours)}.", "plays"
            )
        highest = max(range(len(cards)), key=lambda i: cards[i].number)
        return YadokarickTrick(
            movers,
            movers[-1],
            MappingProxyType({highest: cards}),
            (),
            f"{_lowest_text(movers, label)} {capitalised(label(highest))} is the highest "
            f"and takes all {len(cards)} cards.",
        )
    takes: dict[int, tuple[Card, ...]] = {}
    taken_plays: set[int] = set()
    sentences = [_lowest_text(movers, label)]
    for colour in colours:
        own = [i for i, card in enumerate(cards) if card.colour == colour]
        highest = max(own, key=lambda i: cards[i].number)
        largest = max(sizes[i] or 0 for i in own)
        taken = [i for i in own if sizes[i] == largest]
        takes[highest] = tuple(cards[i] for i in taken)
        taken_plays.update(taken)
        if len(own) == 1:
            also = " and, as the lowest, also moves the size marker" if highest in movers else ""
            sentences.append(
                f"{capitalised(colour)}: {label(highest)} is the only {colour}, "
                f"so its player takes it{also}."
            )
        else:
            plural = "s" if len(taken) > 1 else ""
            sentences.append(
                f"{capitalised(colour)}: {label(highest)} is highest and takes "
                f"{and_list([cards[i] for i in taken])}, "
                f"the largest {colour}{plural} (size {largest})."
            )
    discarded = tuple(card for i, card in enumerate(cards) if i not in taken_plays)
    sentences.append(
        f"Discarded: {', '.join(str(card) for card in discarded)}."
        if discarded
        else "Nothing is discarded."
    )
    return YadokarickTrick(
        movers,
        movers[-1],
        MappingProxyType(dict(sorted(takes.items()))),
        discarded,
        " ".join(sentences),
    )
