"""Yadokarick for 2 players against the NPC crab: what sets it apart from the standard game.

The crab is a third seat with a name, a house and a place in the play order
(the ``npc_position`` option); its card each trick is the top card of the
draw deck. One colour, one round of 10 tricks, no dealer, no size marker, no
roofs. The highest number takes every card of the largest size, and the seat
after the taker leads. After the 10th trick the crab's house size is the
target: the player closer to it without going over wins (``npc_score``).

The tricks are played and the houses built as in every trick game
(``tricks``); ``rules`` runs the play and calls here where this game differs.
Rule sheet: shared/rules/yadokarick.txt ("2 players") and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.cards import Card
from scorekeeper.games.house_sizes import NO_SIZES
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Text, all_of, phrase
from scorekeeper.games.yadokarick.said import (
    CARD_OF,
    TRICK_EXPLAINED,
    OneOrSeveral,
    card_first,
    discarded_text,
    semicolon_list,
    sentences,
)
from scorekeeper.games.yadokarick.tricks import (
    TRICKS_PER_ROUND,
    House,
    RoundRecord,
    SeatResult,
    State,
    Trick,
    place_winnings,
    trick_number,
)

NPC_PLAYERS = 2
NPC_SEAT = 2
# The crab's name at the table, as each reader's language says it.
NPC_NAME = phrase("yadokarick.npc-crab", "NPC crab")()
# The people at the table; the crab's seat comes after theirs.
PLAYER_SEATS: tuple[int, ...] = tuple(range(NPC_PLAYERS))
NO_SIZE_MARKER = phrase(
    "yadokarick.npc-no-size-marker",
    "The game with the NPC crab has no size marker: enter the next card.",
)

# Where the crab plays, by its place in the play order (1 = first).
_PLAYS_AT = (
    phrase("yadokarick.npc-plays-first", "The NPC crab plays first: the order is {names}."),
    phrase("yadokarick.npc-plays-second", "The NPC crab plays second: the order is {names}."),
    phrase("yadokarick.npc-plays-third", "The NPC crab plays third: the order is {names}."),
)
HOUSE_IS_TARGET = phrase("yadokarick.npc-house-is-target", "Its house size will be the target.")
CRAB_PLAYS_NEXT = phrase(
    "yadokarick.npc-plays-next", "{name} plays next: enter the top card of the draw deck."
)
CRAB_LEADS_TRICK = phrase(
    "yadokarick.npc-leads-trick",
    "{name} leads trick {number}: enter the top card of the draw deck.",
)
TURNS_UP = phrase("yadokarick.npc-turns-up", "{name} turns up {card} (size {size}).")
WINS = phrase("yadokarick.npc-game-over-wins", "Game over: {name} wins.")
SHARE_WIN = phrase("yadokarick.npc-game-over-share", "Game over: {names} share the win.")
TAKES_LARGEST_ONE = phrase(
    "yadokarick.npc-takes-largest-one",
    "{taker} is the highest and takes {taken}, the card of the largest size ({size}).",
)
TAKES_LARGEST_SEVERAL = phrase(
    "yadokarick.npc-takes-largest-several",
    "{taker} is the highest and takes {taken}, the cards of the largest size ({size}).",
)
TAKES_LARGEST = OneOrSeveral(TAKES_LARGEST_ONE, TAKES_LARGEST_SEVERAL)
PLAYS_AFTER_TAKER = phrase(
    "yadokarick.npc-plays-after-taker", "{name} plays after the taker, {taker}."
)
NOTE_EXACT = phrase("yadokarick.npc-note-exact", "house {size} = target {target}: exact")
NOTE_UNDER = phrase(
    "yadokarick.npc-note-under", "house {size}, target {target}: {difference} under"
)
NOTE_OVER = phrase(
    "yadokarick.npc-note-over", "house {size}, target {target}: {difference} over, bust"
)
NOTE_TARGET = phrase("yadokarick.npc-note-target", "the target: house {size}")
NOTE_OF = phrase("yadokarick.npc-player-note", "{name}: {note}")
CRAB_TARGET = phrase(
    "yadokarick.npc-crab-target",
    "The NPC crab's house is size {target}: that is the target. {notes}.",
)


# --- Setup -----------------------------------------------------------------------------


def start(
    players: Sequence[str],
    *,
    colours: tuple[str, ...],
    highest_number: int,
    advanced: bool,
    first_dealer: int,
    npc_position: int,
) -> State:
    """The game before its first card: the crab in the play order at ``npc_position``
    (1 = first), the players in seat order around it, the first in the order leading.
    ``colours`` is the one colour played."""
    order = [0, 1]
    order.insert(npc_position - 1, NPC_SEAT)
    return State(
        players=(*players, NPC_NAME),
        mode="npc",
        play_order=tuple(order),
        colours=colours,
        highest_number=highest_number,
        advanced=advanced,
        rounds_to_play=1,
        first_dealer=first_dealer,
        size_row=None,
        marker_start=None,
        sizes=NO_SIZES,
        round=1,
        dealer=None,
        lead=order[0],
        marker=None,
        current=(),
        tricks=(),
        movers=(),
        houses=(House(),) * (NPC_PLAYERS + 1),
        discarded=(),
        records=(),
        totals=(0,) * (NPC_PLAYERS + 1),
        finished=False,
        last_ruling="",
    )


def start_text(state: State) -> str:
    """Where the crab plays and what its house is for (the caller adds who leads)."""
    names = [state.players[seat] for seat in state.play_order]
    plays_at = _PLAYS_AT[state.play_order.index(NPC_SEAT)]
    return sentences(plays_at(names=all_of(names)), HOUSE_IS_TARGET())


# --- The crab's card -------------------------------------------------------------------


def crab_card_text(name: str, card: Card, size: int) -> Text:
    """The crab's card as entered: turned up from the draw deck, not played from a hand."""
    return TURNS_UP(name=name, card=card, size=size)


# --- Scores ----------------------------------------------------------------------------


def npc_score(house_size: int, target: int) -> int:
    """A player's standing in the NPC game: higher is better, equal is a tie.

    At or under the target: minus the distance to it (0 when exact). Over it
    (bust): minus the house size, that is minus (target + excess), which is
    below every player not over and puts the smaller excess first.
    """
    if house_size <= target:
        return house_size - target
    return -house_size


def npc_scores(state: State) -> tuple[int, ...]:
    """Each player's ``npc_score`` against the NPC crab's house as it stands now."""
    target = state.houses[NPC_SEAT].size
    return tuple(npc_score(state.houses[seat].size, target) for seat in PLAYER_SEATS)


def game_over_text(winners: Sequence[str]) -> Text:
    """ "Game over: Ann wins." The scores are the distances said just before."""
    if len(winners) == 1:
        return WINS(name=winners[0])
    return SHARE_WIN(names=all_of(winners))


# --- Tricks ----------------------------------------------------------------------------


def _trick_rule(
    state: State, plays: Sequence[tuple[int, Card]]
) -> tuple[int, tuple[Card, ...], tuple[Card, ...], str]:
    """The NPC game's trick: the highest number takes every card of the largest size.

    Returns the taking seat, the cards it takes and those discarded (both in
    play order), and the sentence that says why.
    """
    sizes = state.sizes

    taker, top = max(plays, key=lambda play: play[1].number)
    largest = max(sizes[card] for _, card in plays)
    taken = [(seat, card) for seat, card in plays if sizes[card] == largest]
    discarded = tuple(card for _, card in plays if sizes[card] != largest)
    takes = TAKES_LARGEST(
        taker=CARD_OF(card=card_first(top), name=state.players[taker]),
        taken=all_of(CARD_OF(card=card, name=state.players[seat]) for seat, card in taken),
        size=largest,
        count=len(taken),
    )
    explanation = sentences(takes, discarded_text(discarded))
    return taker, tuple(card for _, card in taken), discarded, explanation


def complete_trick(state: State) -> tuple[State, list[str]]:
    """The full trick in ``state.current`` taken by this game's rule, and the sentences that say
    so; after the 10th trick, the game scored too. The caller adds what comes next."""
    taker, taken, discarded, explanation = _trick_rule(state, state.current)
    houses, _, placed = place_winnings(state, ((taker, taken),), roofs_close=False)
    order = state.play_order
    next_lead = order[(order.index(taker) + 1) % len(order)]
    trick = Trick(
        number=trick_number(state),
        plays=state.current,
        movers=(),
        takes=((taker, taken),),
        discarded=discarded,
        roofed_out=(),
        next_lead=next_lead,
        explanation=explanation,
    )
    done = evolve(
        state,
        current=(),
        tricks=(*state.tricks, trick),
        lead=next_lead,
        houses=houses,
        discarded=(*state.discarded, *discarded),
    )
    told: list[str] = [TRICK_EXPLAINED(number=trick.number, explanation=explanation), *placed]
    if len(done.tricks) < TRICKS_PER_ROUND:
        told.append(PLAYS_AFTER_TAKER(name=state.players[next_lead], taker=state.players[taker]))
        return done, told
    return _finish_game(done, told)


def _result_note(house_size: int, target: int) -> Text:
    if house_size == target:
        return NOTE_EXACT(size=house_size, target=target)
    if house_size < target:
        return NOTE_UNDER(size=house_size, target=target, difference=target - house_size)
    return NOTE_OVER(size=house_size, target=target, difference=house_size - target)


def _finish_game(state: State, told: list[str]) -> tuple[State, list[str]]:
    """The game over after its only round: each player scored against the crab's house."""
    target = state.houses[NPC_SEAT].size
    results: list[SeatResult] = []
    for seat, house in enumerate(state.houses):
        if seat == NPC_SEAT:
            points, note = 0, NOTE_TARGET(size=house.size)
        else:
            points, note = npc_score(house.size, target), _result_note(house.size, target)
        results.append(
            SeatResult(
                seat, house.cards, house.size, house.collapsed, house.collapsed_size, points, note
            )
        )
    record = RoundRecord(state.round, target, tuple(results))
    ended = evolve(
        state,
        records=(record,),
        totals=tuple(result.points for result in results),
        finished=True,
    )
    listed = semicolon_list(
        [NOTE_OF(name=state.players[seat], note=results[seat].note) for seat in PLAYER_SEATS]
    )
    told.append(CRAB_TARGET(target=target, notes=listed))
    return ended, told
