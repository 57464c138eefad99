"""A scorer who only taps what a session page offers: every way a page's recording forms
can be sent using their offered controls, for the web tests to try each one and for the
browser tests to walk a game from step to step."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from html.parser import HTMLParser

# A short session of each game (and Yadokarick mode) to walk: its game, seats and the
# new-session page's fields (one round, few chips, a low target).
WALKS: dict[str, tuple[str, list[str], dict[str, str]]] = {
    "yokai-septet": ("yokai-septet", ["Ann", "Bo", "Cy", "Di"], {}),
    "cryptruck": ("cryptruck", ["Ann", "Bo", "Cy"], {}),
    "yadokarick": ("yadokarick", ["Ann", "Bo", "Cy", "Di"], {"option_rounds": "1"}),
    "yadokarick-npc": ("yadokarick", ["Ann", "Bo"], {"option_rounds": "1"}),
    "yadokarick-solo": ("yadokarick", ["Ann"], {"option_rounds": "1"}),
    "yardkle": ("yardkle", ["Ann", "Bo"], {"option_winning_score": "1000"}),
    "yellow-dwarf": ("yellow-dwarf", ["Ann", "Bo", "Cy"], {"option_starting_chips": "20"}),
    "score-sheet": ("score-sheet", ["Ann", "Bo"], {"option_target": "5"}),
}


@dataclass(frozen=True)
class Submission:
    """One way to send a form: where, with which fields, and what was tapped to get there."""

    method: str
    action: str
    fields: tuple[tuple[str, str], ...]
    tapped: str
    # Whether a field was typed (a number), not picked: a typed value may rightly be refused.
    typed: bool

    def data(self, version: int | None = None) -> dict[str, list[str]]:
        """The fields as a form post sends them, with a fresh one-time key (each
        submission is a tap of its own, never a repeat of another) and ``version`` as the
        session version seen, when given (the session moved on since the page was read)."""
        fresh = {"form_key": secrets.token_urlsafe(8)}
        if version is not None:
            fresh["version"] = str(version)
        sent: dict[str, list[str]] = {name: [value] for name, value in fresh.items()}
        for name, value in self.fields:
            if name in fresh:
                continue
            sent.setdefault(name, []).append(value)
        return sent


@dataclass
class _Form:
    method: str
    action: str
    fixed: list[tuple[str, str]] = field(default_factory=list)  # hidden and checked boxes
    radios: dict[str, list[str]] = field(default_factory=dict)  # enabled values, in order
    checked: dict[str, str] = field(default_factory=dict)  # radio name: the value checked
    typed: list[tuple[str, str]] = field(default_factory=list)  # text inputs, value as shown
    boxes: int = 0  # checkboxes
    ticked: int = 0  # checkboxes the page ticked already
    selects: dict[str, list[str]] = field(default_factory=dict)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # enabled submit buttons


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[_Form] = []
        self.inside = False
        self.select: str | None = None

    def parse_all(self, html: str) -> list[_Form]:
        self.feed(html)
        return self.forms

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(_Form(found.get("method", "get").lower(), found.get("action", "")))
            self.inside = True
            return
        if not self.inside or "disabled" in found:
            return
        form, name, value = self.forms[-1], found.get("name", ""), found.get("value", "")
        kind = found.get("type", "text" if tag == "input" else "submit")
        if tag == "button" and kind == "submit":
            form.buttons.append((name, value))
        elif tag == "select":
            self.select = name
            form.selects[name] = []
        elif tag == "option" and self.select is not None:
            form.selects[self.select].append(value)
        elif tag != "input" or not name:
            return
        if kind == "checkbox":
            form.boxes += 1
            form.ticked += "checked" in found
        if kind == "hidden" or (kind == "checkbox" and "checked" in found):
            form.fixed.append((name, value))
        elif kind == "radio":
            form.radios.setdefault(name, []).append(value)
            if "checked" in found:
                form.checked[name] = value
        elif kind == "text":
            form.typed.append((name, value))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def _needs_input(form: _Form) -> bool:
    """Whether the scorer must type or tick something the page does not choose: a text
    field, or checkboxes none of which the page ticked (the page may rightly refuse
    what a filler sends there)."""
    return bool(form.typed) or (form.boxes > 0 and not form.ticked)


def _numbers(typed: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    """A value for each text input: the one shown, or a small number when it is blank."""
    return [(name, value or str(rng.choice((0, 1, 2, 3)))) for name, value in typed]


def submissions(html: str, rng: random.Random) -> list[Submission]:
    """Every way to send the page's POST forms but undo, redo and play again (no move of
    the game), each offered value of each radio group in at least one of them, with each
    enabled submit button."""
    sent: list[Submission] = []
    for form in _Forms().parse_all(html):
        if form.method != "post" or form.action.endswith(("/undo", "/redo", "/rematch")):
            continue
        groups = list(form.radios.items())
        variants = max((len(values) for _, values in groups), default=1)
        for index in range(variants):
            picked = [
                (name, values[index] if index < len(values) else form.checked.get(name, values[0]))
                for name, values in groups
            ]
            chosen = [
                (name, options[index % len(options)])
                for name, options in form.selects.items()
                if options
            ]
            for button, value in form.buttons or [("", "")]:
                pressed = [(button, value)] if button else []
                fields = form.fixed + picked + chosen + _numbers(form.typed, rng) + pressed
                tapped = ", ".join(f"{name}={value}" for name, value in picked + chosen + pressed)
                sent.append(
                    Submission(form.method, form.action, tuple(fields), tapped, _needs_input(form))
                )
    return sent
