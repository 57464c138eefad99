"""Every phrase an engine or page can say reads in every language, with example values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale
from babel.support import Translations

import scorekeeper
from scorekeeper.games.words import ENGLISH, Phrase, Reader
from scorekeeper.web.openapi_parts import declared_phrases

TRANSLATIONS = Path(scorekeeper.__file__).resolve().parent / "translations"
PLACEHOLDER = re.compile(r"\{([a-z_]+)(:[^}]*)?\}")


# Every phrase declared in the app's modules, as the API document lists their codes (two
# phrases under one code are refused there).
PHRASES = list(declared_phrases().values())


def example_values(phrase: Phrase, count: int) -> dict[str, object]:
    values: dict[str, object] = {}
    for name, spec in PLACEHOLDER.findall(phrase.english + (phrase.english_plural or "")):
        values[name] = count if name == "count" else (1234 if spec else f"⟨{name}⟩")
    return values


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
