"""Each session's state saved every ``EVERY`` events (``models.Snapshot``).

A worker that keeps no view of a session (a restart, a new worker, an evicted view)
and an undo start from the newest snapshot at or before the event they need and replay
the events after it: a bounded tail, however long the log. The log stays the truth: a
write that rewrites history at an event deletes the snapshots from that event on, in its
own transaction, and a replay that passes a boundary whose snapshot is missing saves it.

A snapshot is only read by the engine that wrote it: each is stamped with the hash of
the source of its game's package and of the engine modules every game shares, worked
out once per process. One of another hash is never used; the log is replayed instead,
and the snapshot written again.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import inspect
import io
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scorekeeper.db import Statement
from scorekeeper.games.engine import Game
from scorekeeper.models import Snapshot

# A snapshot every so many events of a session's log (undone ones count too): an undo or a
# cold read replays at most this many events less one. 100 keeps an undo at 20,000 events
# within 3 times one at 50, which replays 49 (bench/snapshots.py's goal): at 200, the worst
# case replays four times as many.
EVERY = 100
# The newest snapshots kept at every boundary (an undo after undos goes back through
# them); older ones are kept at every SPARSE-th boundary only: a state holds its game's
# history (a Yardkle state keeps every turn), so keeping all would store about
# n² / EVERY of it.
DENSE = 5
SPARSE = 20

GAMES_FOLDER = Path(__file__).parent / "games"


def is_boundary(count: int) -> bool:
    """Whether the state after a log's first ``count`` events is one to save."""
    return count > 0 and count % EVERY == 0


def _kept_beside(count: int, newest: int) -> bool:
    """Whether the snapshot after ``count`` events stays once one after ``newest`` is saved."""
    return count > newest - DENSE * EVERY or count % (SPARSE * EVERY) == 0


@dataclass(frozen=True)
class Passed:
    """A state a replay passed at a boundary: the state after the first ``count`` events,
    up to ``seq``; ``live``: one of them is live."""

    seq: int
    count: int
    live: bool
    state: Any


@functools.cache
def fingerprint(game: Game) -> str:
    """The hash of the source ``game``'s engine is made of: the modules every game shares
    (those directly in ``scorekeeper/games``) and its own package (or, for a game kept
    elsewhere, the file its engine is written in)."""
    source = Path(inspect.getfile(type(game))).resolve()
    own = sorted(source.parent.rglob("*.py")) if source.parent.parent == GAMES_FOLDER else [source]
    digest = hashlib.sha256()
    for path in [*sorted(GAMES_FOLDER.glob("*.py")), *own]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _newest_before(with_fingerprint: bool) -> Statement:
    def build() -> Any:
        where = (Snapshot.session == "") & (Snapshot.seq < 0)
        if with_fingerprint:
            where &= Snapshot.fingerprint == ""
        return (
            Snapshot.select(
                Snapshot.seq,
                Snapshot.count,
                Snapshot.live,
                Snapshot.fingerprint,
                Snapshot.state,
            )
            .where(where)
            .order_by(Snapshot.seq.desc())
            .limit(1)
        )

    return Statement(build)


_NEWEST = _newest_before(with_fingerprint=False)
_NEWEST_OF_ENGINE = _newest_before(with_fingerprint=True)
# No event is numbered this high (export.MAX_SEQ is far below).
AFTER_EVERY_EVENT = 2**31 - 1


def newest(
    session_id: str, game: Game, before: int = AFTER_EVERY_EVENT
) -> tuple[Passed | None, bool]:
    """The newest snapshot of ``game``'s engine covering events before ``before`` (None:
    none), and whether a newer one of another engine was found (then to be written again)."""
    row = _NEWEST.execute(session_id, before, 1).fetchone()
    if row is None:
        return None, False
    if row[3] == fingerprint(game):
        return _saved(row), False
    row = _NEWEST_OF_ENGINE.execute(session_id, before, fingerprint(game), 1).fetchone()
    return (None if row is None else _saved(row)), True


def _saved(row: Sequence[Any]) -> Passed:
    seq, count, live, _fingerprint, state = row
    # Safe to unpickle: written by this app, with the classes its fingerprint names.
    return Passed(seq, count, bool(live), pickle.loads(state))


def save(session_id: str, game: Game, passed: Sequence[Passed], stale: bool = False) -> None:
    """Save the snapshots ``passed`` (in the write that holds the session's row), in place
    of any at the same events, and of the older ones keep only those ``_kept_beside`` the
    newest; ``stale``: and delete those of another engine."""
    if stale:
        Snapshot.delete().where(
            (Snapshot.session == session_id) & (Snapshot.fingerprint != fingerprint(game))
        ).execute()
    if not passed:
        return
    newest = max(p.count for p in passed)
    passed = [p for p in passed if _kept_beside(p.count, newest)]
    sparse = SPARSE * EVERY
    # (peewee's % is LIKE: the remainder is written out, in integers on both databases.)
    off_sparse = Snapshot.count - Snapshot.count / sparse * sparse != 0
    Snapshot.delete().where(
        (Snapshot.session == session_id)
        & (
            Snapshot.seq.in_([p.seq for p in passed])
            | ((Snapshot.count <= newest - DENSE * EVERY) & off_sparse)
        )
    ).execute()
    Snapshot.insert_many(
        [
            {
                "session": session_id,
                "seq": p.seq,
                "count": p.count,
                "live": p.live,
                "fingerprint": fingerprint(game),
                "state": _pickled(p.state),
            }
            for p in passed
        ]
    ).execute()


def _pickled(state: Any) -> bytes:
    written = io.BytesIO()
    pickler = pickle.Pickler(written, protocol=pickle.HIGHEST_PROTOCOL)
    # Engines freeze their tables (a deck's colours, a house's sizes) as read-only mappings,
    # which pickle does not take as they are: each is saved as the dict it shows.
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _proxy_parts}
    pickler.dump(state)
    return written.getvalue()


def _proxy_parts(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(proxy),)


def read_only(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping unpickled (named by the pickle: the type itself cannot be)."""
    return MappingProxyType(items)


def forget_from(session_id: str, seq: int) -> None:
    """Delete the snapshots that cover event ``seq``, which a write is rewriting."""
    Snapshot.delete().where((Snapshot.session == session_id) & (Snapshot.seq >= seq)).execute()
