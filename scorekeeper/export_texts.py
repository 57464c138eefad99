"""Finished sessions' parts of their group's JSON export, kept as text (``ExportText``).

Making a session's part replays its log and describes every event with its ruling: a
group's export did that for each of its sessions, each time. A finished session's part
changes only with its version (a correction or an undo raises it), with the code that
makes it (``fingerprint``: its game's engine and the export's own modules) and with what
it takes from outside its log (``context``): the export keeps each finished session's text
and uses it while all three are as they were, and otherwise makes the part again and keeps
the new text in its place. The export writes them, in short transactions of its own once it
has made them: the tap that ends a game does not pay for a replay. A session in play is
always made anew.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from peewee import EXCLUDED

from scorekeeper import snapshots
from scorekeeper.db import write_transaction
from scorekeeper.games.engine import Game
from scorekeeper.models import ExportText

# The modules a part's text is made by besides its game's engine: a change to one of them
# may change the text, so it changes every fingerprint.
EXPORT_MODULES = tuple(
    Path(__file__).parent / name for name in ("export.py", "group_export.py", "session_log.py")
)
# How much text one transaction writes at most (a part larger than this alone): each is
# short, so writers of sessions never wait long behind an export.
WRITTEN_AT_ONCE = 1_000_000


@functools.cache
def fingerprint(game: Game) -> str:
    """The hash of what makes a session of ``game``'s part: the engine's source (as its
    snapshots are stamped) and the export's modules."""
    digest = hashlib.sha256(snapshots.fingerprint(game).encode())
    for path in EXPORT_MODULES:
        digest.update(b"\0" + path.read_bytes())
    return digest.hexdigest()


class Kept(NamedTuple):
    """A session's part of the export as text, with what it was made from."""

    session: str
    version: int
    fingerprint: str
    context: str
    text: str


def keep(made: Sequence[Kept]) -> None:
    """Keep the texts ``made``, each in place of its session's older one. Two exports at
    once may make the same text: the second writes it again; one made from an older
    version than the kept one (a correction committed meanwhile) is not written."""
    batch: list[Kept] = []
    size = 0
    for kept in made:
        batch.append(kept)
        size += len(kept.text)
        if size >= WRITTEN_AT_ONCE:
            _write(batch)
            batch, size = [], 0
    if batch:
        _write(batch)


def _write(batch: Sequence[Kept]) -> None:
    rows = [
        {
            "session": kept.session,
            "version": kept.version,
            "fingerprint": kept.fingerprint,
            "context": kept.context,
            "text": kept.text,
        }
        for kept in batch
    ]
    with write_transaction():
        ExportText.insert_many(rows).on_conflict(
            conflict_target=[ExportText.session],
            update={
                ExportText.version: EXCLUDED.version,
                ExportText.fingerprint: EXCLUDED.fingerprint,
                ExportText.context: EXCLUDED.context,
                ExportText.text: EXCLUDED.text,
            },
            where=ExportText.version <= EXCLUDED.version,
        ).execute()
