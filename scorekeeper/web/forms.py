"""Forms: CSRF, rendering and the raw values; the rules are checked by the store.

The new-session form does not repeat the game's checks: the store validates
seats and options with the game's own specs, and its IllegalAction names the
field to mark.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    Field,
    FieldList,
    HiddenField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)

# types-WTForms, at WTForms 3.2 still, has no SelectChoice (new in 3.3, the type of choices).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper import decks
from scorekeeper.games.base import IllegalAction, OptionSpec, is_digits
from scorekeeper.games.engine import Game
from scorekeeper.games.words import phrase
from scorekeeper.models import NAME_MAX_LENGTH
from scorekeeper.web.language import words


def new_form_key() -> str:
    return secrets.token_urlsafe(16)


class KeyedForm(FlaskForm):
    form_key = HiddenField(default=new_form_key)


class NewSessionForm(KeyedForm):
    seats = FieldList(
        StringField(render_kw={"maxlength": NAME_MAX_LENGTH, "autocomplete": "off"}),
        min_entries=1,
    )

    def filled_seats(self) -> list[tuple[int, str]]:
        """(index of the input, name) of every seat given a name, in table order."""
        return [
            (index, entry.data.strip())
            for index, entry in enumerate(self.seats.entries)
            if entry.data and entry.data.strip()
        ]

    def deck_choice(self) -> dict[str, str]:
        """The store's deck arguments: an existing profile, or the name of a new one."""
        if "deck" not in self._fields:
            return {}
        if self["deck"].data != NEW_DECK:
            return {"deck_profile": self["deck"].data}
        return {"new_deck_name": self["new_deck_name"].data or ""}

    def option_values(self, game: Game) -> dict[str, object]:
        return {spec.name: self[f"option_{spec.name}"].data or "" for spec in game.options}

    def deck_label(self) -> str:
        """The deck profile the form holds, by its name (or "A new deck profile")."""
        deck = self["deck"]
        assert isinstance(deck, SelectField)
        return next((str(label) for _, label, selected, *_ in deck.iter_choices() if selected), "")

    def summary_words(self, spec: OptionSpec) -> str:
        """How the one-line summary words the option, "{}" standing for its value's text,
        in the reader's language."""
        return words(spec.summary) if spec.summary else f"{words(spec.label)} {{}}"

    def option_summary(self, spec: OptionSpec) -> str:
        """The option's words in the page's one-line summary of the options, with the
        value the form holds: "3 rounds", "Seat 1 deals first"."""
        field = self[f"option_{spec.name}"]
        if spec.kind == "multi":
            labels = {value: words(label) for value, label in spec.choices}
            text = gettext(", ").join(labels.get(value, value) for value in field.data or ())
        elif isinstance(field, SelectField):
            labels = {str(value): str(label) for value, label, *_ in field.iter_choices()}
            text = labels.get(str(field.data), str(field.data or ""))
        else:
            text = str(field.data or "").strip()
        return self.summary_words(spec).replace("{}", text or words(spec.blank))

    def options_refused(self) -> bool:
        """Whether an option or the deck is marked: the page shows them open."""
        return any(
            self[name].errors
            for name in self._fields
            if name.startswith("option_") or name in ("deck", "new_deck_name")
        )

    def mark(self, field: str | None, message: str) -> None:
        """Show ``message`` beside the input the store's ``field`` names."""
        target: Field | None = None
        if field and field.startswith("seats."):
            index = int(field.removeprefix("seats."))
            filled = self.filled_seats()
            if 0 <= index < len(filled):
                target = self.seats.entries[filled[index][0]]
        elif field and field.startswith("options."):
            target = self._fields.get("option_" + field.removeprefix("options."))
        elif field in ("deck_profile", "new_deck_name"):
            target = self._fields.get("deck" if field == "deck_profile" else field)
        if target is None:
            self.form_errors.append(message)
        else:
            target.errors = [*target.errors, message]


NEW_DECK = "new"
NO_SUCH_SEAT = phrase(
    "web.forms.no-such-seat",
    "{game} seats at most {most} players: the form has no seat input “{name}”.",
)


def check_seat_fields(posted: Iterable[str], game: Game) -> None:
    """Refuse a seat input the form never has, before the form reads any of them.

    The form makes one input per seat the game can have; reading thousands
    more would cost the worker seconds.
    """
    for name in posted:
        index = name.removeprefix("seats-")
        if index != name and not (
            is_digits(index) and len(index) <= 3 and int(index) < game.max_players
        ):
            raise IllegalAction(
                NO_SUCH_SEAT(game=game.title, most=game.max_players, name=name[:20]), "seats"
            )


def new_session_form(
    game: Game, deck_choices: list[tuple[str, str]] | None = None
) -> NewSessionForm:
    """The form for ``game``: one input per possible seat, one per option.

    ``deck_choices`` ((id, name) of this device's deck profiles) adds the
    choice of the physical deck, for a game played with a deck profile.
    """

    class GameSessionForm(NewSessionForm):
        pass

    if deck_choices is not None:
        GameSessionForm.deck = SelectField(
            gettext("Deck profile"),
            choices=[
                *(SelectChoice(value, label) for value, label in deck_choices),
                SelectChoice(NEW_DECK, gettext("A new deck profile")),
            ],
            default=deck_choices[0][0] if deck_choices else NEW_DECK,
            description=gettext(
                "The sizes printed on your cards, remembered from earlier sessions with this deck."
            ),
        )
        GameSessionForm.new_deck_name = StringField(
            gettext("New deck's name"),
            default=words(decks.default_name(game)),
            description=gettext("Only for a new deck profile."),
            render_kw={"maxlength": NAME_MAX_LENGTH, "autocomplete": "off"},
        )

    for spec in game.options:
        field: Field
        if spec.kind == "choice":
            field = SelectField(
                words(spec.label),
                choices=[SelectChoice(value, words(label)) for value, label in spec.choices],
                default=spec.default,
                description=words(spec.help),
            )
        elif spec.kind == "multi":
            field = SelectMultipleField(
                words(spec.label),
                choices=[SelectChoice(value, words(label)) for value, label in spec.choices],
                default=list(spec.default) if isinstance(spec.default, tuple) else [],
                description=words(spec.help),
                widget=ListWidget(prefix_label=False),
                option_widget=CheckboxInput(),
                validate_choice=False,
            )
        elif spec.kind == "seat":
            # The value is the seat's index; the table reads seat numbers from 1.
            field = SelectField(
                words(spec.label),
                choices=[
                    SelectChoice(str(seat), gettext("Seat %(number)s", number=seat + 1))
                    for seat in range((spec.maximum or 0) + 1)
                ],
                default=str(spec.default),
                description=words(spec.help),
            )
        elif spec.kind == "text":
            field = StringField(
                words(spec.label),
                default=str(spec.default),
                description=words(spec.help),
                render_kw={"maxlength": spec.maximum or NAME_MAX_LENGTH, "autocomplete": "off"},
            )
        else:
            field = StringField(
                words(spec.label),
                default=str(spec.default),
                description=words(spec.help),
                render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "maxlength": 9},
            )
        setattr(GameSessionForm, f"option_{spec.name}", field)
    form = GameSessionForm()
    while len(form.seats.entries) < game.max_players:
        form.seats.append_entry()
    return form


class ImportForm(KeyedForm):
    file = FileField("Session file (JSON, as exported)")
    text = TextAreaField("…or paste its text", render_kw={"rows": 4})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The labels in the reader's language (the class, and its labels, are made once).
        self.file.label.text = self.file_label()
        self.text.label.text = gettext("…or paste its text")

    def file_label(self) -> str:
        return gettext("Session file (JSON, as exported)")


class GroupImportForm(ImportForm):
    file = FileField("Group file (JSON or CSV, as exported)")

    def file_label(self) -> str:
        return gettext("Group file (JSON or CSV, as exported)")
