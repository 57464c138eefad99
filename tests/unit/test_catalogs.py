"""The message catalogs are whole: made from today's code, every entry translated."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ("fr", "ja")
PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:[:!][^}]*)?\}")


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {
        (message.context, message.id if isinstance(message.id, str) else message.id[0])
        for message in catalog
        if message.id
    }


def test_the_catalogs_template_holds_what_the_code_says_today(tmp_path: Path) -> None:
    made = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [
            str(pybabel),
            "extract",
            "--no-wrap",
            "-F",
            "babel.cfg",
            "-k",
            "phrase:1c,2",
            "-k",
            "counted:1c,2,3",
            "--omit-header",
            "-o",
            str(made),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    missing = keys(read_catalog(made)) - keys(read_catalog(TRANSLATIONS / "messages.pot"))
    stale = keys(read_catalog(TRANSLATIONS / "messages.pot")) - keys(read_catalog(made))
    assert (sorted(missing, key=str), sorted(stale, key=str)) == ([], []), "run `make translations`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    template = read_catalog(TRANSLATIONS / "messages.pot")
    catalog = read_catalog(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    assert keys(catalog) >= keys(template)
    untranslated = [
        message.id
        for message in catalog
        if message.id
        and (
            not message.string or (not isinstance(message.string, str) and not all(message.string))
        )
    ]
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_keeps_every_value_of_its_message(language: str) -> None:
    catalog = read_catalog(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    wrong = []
    for message in catalog:
        if not message.id or "python-brace-format" not in message.flags:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            # A plural form for one may leave the count out ("un point"); no other value.
            given = set(PLACEHOLDER.findall(string))
            if not given <= wanted or not (wanted - {"count"}) <= given:
                wrong.append((message.context, ids[0], string))
    assert wrong == []
