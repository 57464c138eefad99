"""Every phrase an engine or page can say reads in every language, with example values."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

import scorekeeper
from scorekeeper.games.words import ENGLISH, Phrase, Reader

TRANSLATIONS = Path(scorekeeper.__file__).resolve().parent / "translations"
PLACEHOLDER = re.compile(r"\{([a-z_]+)(:[^}]*)?\}")


def every_phrase() -> list[Phrase]:
    """Each phrase declared in the app's modules (at module level, or in a dict there)."""
    found: dict[int, Phrase] = {}
    for module in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            values = value.values() if isinstance(value, dict) else [value]
            for candidate in values:
                if isinstance(candidate, Phrase):
                    found[id(candidate)] = candidate
    return sorted(found.values(), key=lambda phrase: phrase.code)


PHRASES = every_phrase()


def example_values(phrase: Phrase, count: int) -> dict[str, object]:
    values: dict[str, object] = {}
    for name, spec in PLACEHOLDER.findall(phrase.english + (phrase.english_plural or "")):
        values[name] = count if name == "count" else (1234 if spec else f"⟨{name}⟩")
    return values


def test_a_code_names_one_phrase() -> None:
    by_code: dict[str, Phrase] = {}
    for phrase in PHRASES:
        assert by_code.setdefault(phrase.code, phrase) == phrase, phrase.code
    assert len(by_code) == len(PHRASES)


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_every_phrase_reads_with_every_value_in_every_language(language: str) -> None:
    reader = (
        ENGLISH
        if language == "en"
        else Reader(Locale.parse(language), Translations.load(str(TRANSLATIONS), [language]))
    )
    lost = []
    for phrase in PHRASES:
        for count in (1, 2, 5) if phrase.english_plural else (1,):
            values = example_values(phrase, count)
            words = reader.read(phrase(**values))
            shown = [value for name, value in values.items() if isinstance(value, str)]
            if not words or any(value not in words for value in shown):
                lost.append((phrase.code, words))
    assert lost == []
