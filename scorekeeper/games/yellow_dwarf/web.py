"""Yellow Dwarf on the web: the card form with its "Called?" step, the end of a round,
and the API's stateless settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, create_model
from werkzeug.datastructures import MultiDict

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import parse_playing_card
from scorekeeper.games.web_interface import (
    ActionsDoc,
    ApiModel,
    ApiRoute,
    AskFirst,
    FieldNote,
    GameAdapter,
    json_body,
    judge_operation,
    only_fields,
)
from scorekeeper.games.words import phrase
from scorekeeper.games.yellow_dwarf import rules, settlement

if TYPE_CHECKING:
    from scorekeeper.games.web_interface import SessionView


CHOOSE_WHO_WENT_OUT = phrase(
    "web.yellow-dwarf.choose-who-went-out", "Choose the player who went out."
)
CHOOSE_WHAT_HAPPENED = phrase(
    "web.yellow-dwarf.choose-what-happened",
    "Choose what happened: a card, “without”, the hands or the round's result.",
)


def read_form(form: MultiDict[str, str], view: SessionView) -> dict[str, object]:
    kind = form.get("type", "")
    if kind == "play":
        text = form.get("card", "")
        if form.get("called") in ("1", "0"):
            return {"type": kind, "card": text, "called": form.get("called") == "1"}
        play = view.expected.accepts("play")
        if play is not None and play.choices is not None:
            # "Called?" is asked only of a taker card the engine accepts now: any other
            # card goes on as it is, for the engine to record or refuse with its reason.
            card = parse_playing_card(text, "card")
            accepted = play.cards is None or str(card) in play.cards  # None: any card
            if card in settlement.TAKER_CARDS and accepted:
                raise AskFirst(called_for=str(card))
        return {"type": kind, "card": text}
    if kind == "without":
        return {"type": kind, "rank": form.get("rank", "")} if form.get("rank") else {"type": kind}
    seats = range(len(view.seats))
    if kind == "reveal":
        action: dict[str, object] = {"type": kind, "kept": taker_fates(form)["kept"]}
        if view.state.options.payout == "points":
            action["left"] = [form.get(f"left-{seat}", "").strip() or "0" for seat in seats]
        return action
    if kind == "round":
        winner = form.get("winner", "")
        if not winner:
            raise IllegalAction(CHOOSE_WHO_WENT_OUT(), "winner")
        return {
            "type": kind,
            "winner": winner,
            "left": [form.get(f"left-{seat}", "").strip() or "0" for seat in seats],
            **taker_fates(form),
            "grand_opera": form.get("grand_opera") == "1",
        }
    raise IllegalAction(CHOOSE_WHAT_HAPPENED(), "type")


def taker_fates(form: MultiDict[str, str]) -> dict[str, list[dict[str, object]]]:
    """Each taker card's fate as the form's select says: "kept:2", "called:0", "forgot:1"."""
    fates: dict[str, list[dict[str, object]]] = {"kept": [], "played": []}
    for card in settlement.TAKER_CARDS:
        how, _, seat = form.get(f"taker-{card}", "").partition(":")
        if how == "kept":
            fates["kept"].append({"player": seat, "card": str(card)})
        elif how in ("called", "forgot"):
            fates["played"].append({"player": seat, "card": str(card), "called": how == "called"})
    return fates


def settle() -> dict[str, object]:
    """Who pays whom at the end of a round, from the hands as they were (no session): the
    answer as data, its explanation a phrase (the API writes it in the asked language)."""
    body = json_body()
    only_fields(body, "winner", "trays", "hands", "forgot", "grand_opera", "payout")
    return settlement.settle(
        body.get("winner"),
        body.get("trays"),
        body.get("hands"),
        body.get("forgot", []),
        body.get("grand_opera", False),
        body.get("payout", "cards"),
    ).to_json()


# --- In the API document ------------------------------------------------------------


_SEAT = FieldNote("A seat index (0 is the first seat).")
TAKERS = tuple(str(card) for card in settlement.TAKER_CARDS)
Taker = Literal[TAKERS]  # type: ignore[valid-type]
Chips = Annotated[int, Field(ge=0)]
Seat = Annotated[int, Field(ge=0)]
# How the API reads a card of the 52-card deck (answers write it `<rank><suit>` in letters).
PLAYING_CARD_READ = (
    "or the suit symbol first (`♠Q`), and the faces in another language's letters too "
    "(French `V`, `D`, `R` for J, Q, K)"
)
PlayingCard = Annotated[
    str,
    Field(
        description=(
            f"A card as `<rank><suit>`: `10D`, `QS`, `7♦`, `ac` (ace low); {PLAYING_CARD_READ}."
        )
    ),
]
# The chips on each taker card's tray.
Trays = create_model(
    "Trays",
    __base__=ApiModel,
    **{card: (Chips, ...) for card in TAKERS},  # type: ignore[call-overload]
)


class Forgotten(ApiModel):
    player: Seat
    card: Taker


class YellowDwarfSettleRequest(ApiModel):
    winner: Seat = Field(description="Who went out.")
    trays: Trays  # type: ignore[valid-type]
    hands: list[list[PlayingCard]] = Field(
        min_length=rules.GAME.min_players,
        max_length=rules.GAME.max_players,
        description="Each player's cards left, in seat order; the winner's is [].",
    )
    forgot: list[Forgotten] = Field(
        default=[], description="Taker cards played without calling “who takes”."
    )
    grand_opera: bool = False
    payout: Literal["cards", "points"] = "cards"


class YellowDwarfSettlement(ApiModel):
    chips: list[int] = Field(description="Each player's change in chips (with the trays' gain: 0).")
    trays: Trays  # type: ignore[valid-type]
    explanation: str


ADAPTER = GameAdapter(
    read_form=read_form,
    template_rules=rules,
    api_actions=ActionsDoc(
        (
            "One thing that happened at a Yellow Dwarf table. Card by card: play, without, "
            "then reveal once someone goes out. Or a whole round at once: round."
        ),
        {
            "play": "The player whose turn it is lays a card.",
            "without": "The player says “without N” and play passes on.",
            "reveal": "After a player went out: the hands, to settle.",
            "round": "A whole round's result, before any card of it was laid.",
        },
        {
            "card": FieldNote(
                f"A card of the 52-card deck as `<rank><suit>`: `10D`, `QS`, `7♦`, `A♠`; "
                f"{PLAYING_CARD_READ}.",
                ("10D",),
            ),
            "called": FieldNote(
                "Taker cards only (and required for them in play): whether the player "
                "called “who takes” and so collects the tray."
            ),
            "rank": FieldNote("The rank said (checked against the one due)."),
            "winner": _SEAT,
            "player": _SEAT,
            "left": FieldNote(
                "Per seat: cards left (payout by cards) or points left (payout by points)."
            ),
            "kept": FieldNote("Taker cards still in a hand: each pays its tray what it holds."),
            "played": FieldNote("Taker cards laid: by whom, and whether called."),
        },
    ),
    options_description="Yellow Dwarf's options; each one left out takes its default.",
    no_correction=(
        "A Yellow Dwarf card cannot be swapped on its own: each card sets the rank due "
        "next and may take a tray. Tap Undo until the mistyped card is gone, then lay it "
        "and the cards after it again."
    ),
    forced=rules.forced_action,
    api_routes=(ApiRoute("/judge/yellow-dwarf/settle", "judge_yellow_dwarf_settle", settle),),
    api_operations=(
        judge_operation(
            "/judge/yellow-dwarf/settle",
            "settleYellowDwarf",
            "Who pays whom at the end of a Yellow Dwarf round",
            YellowDwarfSettleRequest,
            YellowDwarfSettlement,
            (
                {
                    "winner": 0,
                    "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
                    "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
                    "forgot": [{"player": 1, "card": "JC"}],
                    "grand_opera": False,
                    "payout": "cards",
                },
                {
                    "chips": [5, -26, -14, -1],
                    "trays": {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20},
                    "explanation": "Player 0 went out: player 1 pays 2 (2 cards), …",
                },
            ),
        ),
    ),
)
