"""Who may do what: the device's signed cookie and the API's Bearer key.

No accounts. The session id is the view link. The right to record lives in
this device's signed cookie (set for the creator and for whoever opens the
"score with me" link) or, for the API, in ``Authorization: Bearer <edit key>``.
"""

from __future__ import annotations

from flask import abort, request, session

from scorekeeper import decks, store

# The cookie must stay under the 4 KB browsers keep: about 40 bytes a session.
REMEMBERED_SESSIONS = 40
REMEMBERED_DECKS = 10
EDIT = "edit"
VIEW = "view"


def remembered() -> dict[str, str]:
    """This device's sessions, newest first: id → "edit" or "view"."""
    value = session.get("sessions", {})
    return value if isinstance(value, dict) else {}


def remember(session_id: str, role: str) -> None:
    known = remembered()
    if known.get(session_id) == EDIT:
        role = EDIT
    updated = {session_id: role, **{k: v for k, v in known.items() if k != session_id}}
    session["sessions"] = dict(list(updated.items())[:REMEMBERED_SESSIONS])
    session.permanent = True


def remember_scorer(session_id: str) -> None:
    """This device may record in the session, and keeps its deck profile for later sessions."""
    remember(session_id, EDIT)
    profile = decks.of_session(session_id)
    if profile is not None:
        remember_deck(profile.id)


def remembered_decks() -> list[str]:
    """The deck profiles this device has made or opened, newest first."""
    value = session.get("decks", [])
    return [str(item) for item in value] if isinstance(value, list) else []


def remember_deck(profile_id: str) -> None:
    known = [item for item in remembered_decks() if item != profile_id]
    session["decks"] = [profile_id, *known][:REMEMBERED_DECKS]
    session.permanent = True


def device_may_edit(session_id: str) -> bool:
    return remembered().get(session_id) == EDIT


def bearer_key() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() if scheme.lower() == "bearer" and key.strip() else None


def require_device_edit(session_id: str) -> None:
    if not device_may_edit(session_id):
        abort(
            403,
            "This device can watch this session but not record in it. "
            "Ask the scorer for the “score with me” link.",
        )


def require_bearer_edit(session_id: str) -> None:
    key = bearer_key()
    if key is None:
        abort(401, "Send the session's edit key as “Authorization: Bearer <key>”.")
    if not store.edit_key_matches(session_id, key):
        abort(403, "That edit key does not belong to this session.")
