"""Following the led colour, shared by Yokai Septet and Cryptruck: voids, revoke flags, settling."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scorekeeper.games import follow
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.cryptruck import rules as cryptruck
from scorekeeper.games.follow import Followed, ResolveRevoke, RevokeFlag
from scorekeeper.games.yokai_septet import rules as yokai_septet

NAMES = ("Ann", "Bo", "Cy")


@dataclass(frozen=True)
class Trick:
    """A completed trick as a game keeps it: one card per seat, the leader's first."""

    number: int
    leader: int
    cards: tuple[Card, ...]

    def card_of(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) % len(self.cards)]


def card(text: str) -> Card:
    colour, number = text.split()
    return Card(colour, int(number))


def trick(number: int, leader: int, *texts: str) -> Trick:
    return Trick(number, leader, tuple(card(text) for text in texts))


class Table:
    """Three seats playing tricks one card at a time through follow.follow."""

    def __init__(self, round_number: int = 1) -> None:
        self.round_number = round_number
        self.voids: follow.Voids = frozenset()
        self.flags: tuple[RevokeFlag, ...] = ()
        self.tricks: list[Trick] = []
        self.last: Followed | None = None

    def trick(self, leader: int, *texts: str) -> None:
        played: list[str] = []
        for index, text in enumerate(texts):
            led = card(texts[0]).colour
            self.last = follow.follow(
                self.voids,
                self.flags,
                self.tricks,
                round_number=self.round_number,
                trick_number=len(self.tricks) + 1,
                seat=(leader + index) % 3,
                card=card(text),
                led=led,
            )
            self.voids, self.flags = self.last.voids, self.last.flags
            played.append(text)
        self.tricks.append(trick(len(self.tricks) + 1, leader, *played))


# --- Voids -------------------------------------------------------------------------


def test_a_seat_that_does_not_follow_the_led_colour_is_void_in_it() -> None:
    table = Table()
    table.trick(0, "red 5", "blue 2", "red 1")
    assert table.voids == frozenset({(1, "red")})
    assert table.last is not None and not table.last.shows_void
    assert table.flags == ()


def test_the_leader_and_followers_show_no_void() -> None:
    followed = follow.follow(
        frozenset(),
        (),
        [],
        round_number=1,
        trick_number=1,
        seat=2,
        card=card("green 4"),
        led="green",
    )
    assert (followed.voids, followed.flags, followed.raised) == (frozenset(), (), None)


def test_white_led_is_followed_only_by_white() -> None:
    table = Table()
    table.trick(0, "white 3", "red 3", "white 3")
    assert table.voids == frozenset({(1, "white")})


# --- Flags ---------------------------------------------------------------------------


def test_playing_a_colour_shown_void_raises_one_open_flag() -> None:
    table = Table(round_number=2)
    table.trick(0, "red 5", "blue 2", "red 1")  # Bo: no red
    table.trick(0, "green 5", "red 2", "green 1")  # Bo plays red after all, shows no green
    assert table.flags == (RevokeFlag(2, 1, "red", 1, 2, card("red 2"), "open", 0),)
    assert table.voids == frozenset({(1, "green")})  # the red void is used up by the flag
    table.trick(1, "red 6", "red 4", "red 3")  # red again: no second flag for the same revoke
    assert len(table.flags) == 1


def test_a_second_failure_to_follow_then_a_play_raises_a_second_flag() -> None:
    table = Table()
    table.trick(0, "red 5", "blue 2", "red 1")  # Bo: no red (trick 1)
    table.trick(1, "red 2", "red 3", "red 4")  # Bo leads red: flag 0, from trick 1
    table.trick(0, "red 6", "blue 3", "red 7")  # Bo: no red again (trick 3)
    table.trick(1, "red 8", "red 9", "red 10")  # Bo leads red again: flag 1, from trick 3
    assert [(flag.failed_trick, flag.trick) for flag in table.flags] == [(1, 2), (3, 4)]


def test_flags_of_another_round_do_not_move_the_failed_trick() -> None:
    old = RevokeFlag(1, 1, "red", 1, 5, card("red 1"), "accepted", 2, 1)
    table = Table(round_number=2)
    table.flags = (old,)
    table.trick(0, "red 5", "blue 2", "red 1")
    table.trick(1, "red 2", "green 1", "green 2")
    assert table.flags[1].failed_trick == 1


def test_play_sentences_name_the_revoke_the_card_and_the_void() -> None:
    plain = follow.follow(
        frozenset(), (), [], round_number=1, trick_number=1, seat=1, card=card("blue 2"), led="red"
    )
    assert follow.play_sentences("Bo", card("blue 2"), plain, ends_trick=False) == [
        "Bo plays blue 2 and shows no red."
    ]
    assert follow.play_sentences("Bo", card("blue 2"), plain, ends_trick=True) == []
    revoking = follow.follow(
        frozenset({(1, "blue")}),
        (),
        [trick(1, 0, "blue 5", "red 1", "blue 1")],
        round_number=1,
        trick_number=2,
        seat=1,
        card=card("blue 2"),
        led="red",
    )
    sentences = follow.play_sentences("Bo", card("blue 2"), revoking, ends_trick=False)
    assert sentences == [
        "Revoke? Bo did not follow blue in trick 1 but now plays blue 2. The play counts; "
        "revoke flag 0 is open for the table to accept (with a penalty) or dismiss.",
        "Bo shows no red.",
    ]
    assert len(follow.play_sentences("Bo", card("blue 2"), revoking, ends_trick=True)) == 1


def test_open_flags_keeps_the_index_of_each_open_flag() -> None:
    flags = (
        RevokeFlag(1, 0, "red", 1, 2, card("red 1"), "accepted", 1, 1),
        RevokeFlag(1, 2, "blue", 1, 3, card("blue 1"), "open", 0),
    )
    assert follow.open_flags(flags) == [(1, flags[1])]


# --- Settling ------------------------------------------------------------------------

OPEN = RevokeFlag(2, 1, "red", 1, 2, card("red 2"), "open", 0)


def test_accepting_a_flag_records_the_penalty_and_the_round_it_counts_in() -> None:
    settled = follow.settle((OPEN,), ResolveRevoke(0, True, 3), NAMES, 5)
    assert settled.accepted
    assert settled.flag == RevokeFlag(2, 1, "red", 1, 2, card("red 2"), "accepted", 3, 2)
    assert settled.flags == (settled.flag,)
    assert settled.what == "Revoke by Bo (red, round 2, trick 2)"
    later = follow.settle((OPEN,), ResolveRevoke(0, True, 3), NAMES, 5, settled_in=3)
    assert later.flag.settled_in == 3


def test_dismissing_a_flag_carries_no_penalty() -> None:
    settled = follow.settle((OPEN,), ResolveRevoke(0, False), NAMES, 5)
    assert (settled.accepted, settled.flag.status, settled.flag.penalty) == (False, "dismissed", 0)
    assert settled.dismissed_text() == "Revoke by Bo (red, round 2, trick 2) dismissed: no penalty."
    with pytest.raises(IllegalAction) as error:
        follow.settle((OPEN,), ResolveRevoke(0, False, 1), NAMES, 5)
    assert error.value.field == "penalty"


@pytest.mark.parametrize(
    ("flags", "action", "field", "words"),
    [
        ((), ResolveRevoke(0, True, 1), "flag", "this game has no revoke flags"),
        ((OPEN,), ResolveRevoke(1, True, 1), "flag", "There is no revoke flag 1: this game has 1"),
        ((OPEN,), ResolveRevoke(-1, True, 1), "flag", "from 0"),
        ((OPEN,), ResolveRevoke(0, True, 6), "penalty", "0 to 5 points"),
        ((OPEN,), ResolveRevoke(0, True, -1), "penalty", "0 to 5 points"),
        (
            (RevokeFlag(2, 1, "red", 1, 2, card("red 2"), "dismissed", 0, 2),),
            ResolveRevoke(0, True, 1),
            "flag",
            "Revoke flag 0 (by Bo) was already dismissed.",
        ),
    ],
)
def test_settling_refuses_a_missing_settled_or_out_of_range_flag(
    flags: tuple[RevokeFlag, ...], action: ResolveRevoke, field: str, words: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        follow.settle(flags, action, NAMES, 5)
    assert caught.value.field == field
    assert words in caught.value.message


def test_the_revoke_action_json_round_trips_and_defaults_the_penalty() -> None:
    # The revoke is declared once (follow.ResolveRevoke) and parsed through a game's
    # actions, which give its highest penalty: Cryptruck's is 10.
    action = ResolveRevoke(0, True, 2)
    data = cryptruck.GAME.action_to_json(action)
    assert data == {"type": "revoke", "flag": 0, "accept": True, "penalty": 2}
    assert cryptruck.GAME.parse_action(data) == action
    assert cryptruck.GAME.parse_action({"type": "revoke", "flag": 3, "accept": False}) == (
        ResolveRevoke(3, False, 0)
    )
    with pytest.raises(IllegalAction) as caught:
        cryptruck.GAME.parse_action({"type": "revoke", "flag": 0, "accept": "yes"})
    assert caught.value.field == "accept"
    with pytest.raises(IllegalAction) as caught:
        cryptruck.GAME.parse_action({"type": "revoke", "flag": 0, "accept": True, "penalty": 11})
    assert caught.value.field == "penalty"
    assert follow.describe_resolve(action) == "revoke flag 0 accepted, 2 points"
    assert follow.describe_resolve(ResolveRevoke(0, True, 1)) == "revoke flag 0 accepted, 1 point"
    assert follow.describe_resolve(ResolveRevoke(3, False)) == "revoke flag 3 dismissed"


def test_both_trick_games_use_the_shared_flag_and_action() -> None:
    assert yokai_septet.RevokeFlag is follow.RevokeFlag is cryptruck.RevokeFlag
    assert yokai_septet.ResolveRevoke is follow.ResolveRevoke is cryptruck.ResolveRevoke
