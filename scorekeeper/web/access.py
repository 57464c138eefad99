"""Who may do what: the device's signed cookie and the API's Bearer key.

No accounts. The session id is the view link. The right to record lives in
this device's signed cookie (set for the creator and for whoever opens the
"score with me" link) or, for the API, in ``Authorization: Bearer <edit key>``.
A deck profile's link shows its sizes; the right to change them lives in the
cookie too (the phone that made it, the scorers of its sessions, whoever
opens its "edit this deck" link). So with a group: its link shows it, and the
cookie remembers the groups this device has seen and those it may change (the
phone that made it, whoever opens its "join this group" link).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec

from flask import abort, current_app, make_response, request, session
from werkzeug.wrappers import Response

from scorekeeper import decks, groups, keys, store
from scorekeeper.web import https

# The cookie must stay under the 4 KB browsers keep. Sessions this device may
# record in are kept first: opening watch links never pushes one out.
REMEMBERED_SCORING = 60
REMEMBERED_WATCHING = 20
REMEMBERED_DECKS = 10
REMEMBERED_GROUPS = 10
EDIT = "edit"
VIEW = "view"
# Cookie entries: a list of [session id, role], newest first. (A dict lost its
# order: the cookie's JSON sorts keys.)
SESSIONS_COOKIE = "seen"
DECKS_COOKIE = "deck_rights"
GROUPS_COOKIE = "groups"


# What cookies written before held: {id: role} (sorted by id) and the deck
# profiles the device had opened, which did not all carry the right to change.
OLD_SESSIONS_COOKIE = "sessions"
OLD_DECKS_COOKIE = "decks"


def upgrade_old_cookie() -> None:
    """Carry an old cookie's sessions over (their order is lost) and keep of its decks
    only those this device scores a session of."""
    # Without a cookie there is nothing to carry over, and looking into the session would
    # mark the answer as depending on the cookie (Vary: Cookie): an API client sends none.
    sent = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    if not https.sends_cookies(sent):
        return
    if current_app.session_interface.get_cookie_name(current_app) not in sent.cookies:
        return
    if OLD_SESSIONS_COOKIE not in session and OLD_DECKS_COOKIE not in session:
        return
    old_sessions = session.pop(OLD_SESSIONS_COOKIE, {})
    old_decks = session.pop(OLD_DECKS_COOKIE, [])
    if isinstance(old_sessions, dict):
        session[SESSIONS_COOKIE] = [
            [str(key), role] for key, role in old_sessions.items() if role in (EDIT, VIEW)
        ]
    scoring = [key for key, role in remembered().items() if role == EDIT]
    if isinstance(old_decks, list):
        rights = decks.of_sessions(scoring)
        session[DECKS_COOKIE] = [str(item) for item in old_decks if item in rights]


def remembered() -> dict[str, str]:
    """This device's sessions, newest first: id → "edit" or "view"."""
    return _roles(SESSIONS_COOKIE)


def _roles(cookie: str) -> dict[str, str]:
    """The [id, role] entries of a cookie list, newest first: id → "edit" or "view"."""
    value = session.get(cookie, [])
    if not isinstance(value, list):
        return {}
    return {
        entry[0]: entry[1]
        for entry in value
        if isinstance(entry, list) and len(entry) == 2 and entry[1] in (EDIT, VIEW)
    }


def remember(session_id: str, role: str) -> None:
    known = remembered()
    if known.get(session_id) == EDIT:
        role = EDIT
    newest_first = [(session_id, role), *((k, v) for k, v in known.items() if k != session_id)]
    scoring = [entry for entry in newest_first if entry[1] == EDIT][:REMEMBERED_SCORING]
    watching = [entry for entry in newest_first if entry[1] == VIEW][:REMEMBERED_WATCHING]
    kept = set(scoring) | set(watching)
    value = [list(entry) for entry in newest_first if entry in kept]
    # Unchanged (the page seen again) leaves the cookie as it is: nothing to sign or send.
    if session.get(SESSIONS_COOKIE) != value or not session.permanent:
        session[SESSIONS_COOKIE] = value
        session.permanent = True


def forget(session_id: str) -> None:
    """This device no longer lists the session, nor may it record in it."""
    session[SESSIONS_COOKIE] = [
        [key, role] for key, role in remembered().items() if key != session_id
    ]


def remember_scorer(session_id: str) -> None:
    """This device may record in the session, and change its deck profile."""
    remember(session_id, EDIT)
    profile = decks.of_session(session_id)
    if profile is not None:
        remember_deck(profile.id)


def remembered_decks() -> list[str]:
    """The deck profiles this device may change, newest first."""
    value = session.get(DECKS_COOKIE, [])
    return [str(item) for item in value] if isinstance(value, list) else []


def remember_deck(profile_id: str) -> None:
    known = [item for item in remembered_decks() if item != profile_id]
    session[DECKS_COOKIE] = [profile_id, *known][:REMEMBERED_DECKS]
    session.permanent = True


def remembered_groups() -> dict[str, str]:
    """This device's groups, newest first: id → "edit" or "view"."""
    return _roles(GROUPS_COOKIE)


def remember_group(group_id: str, role: str) -> None:
    """List the group on this device; "edit": this device may change it from now on."""
    known = remembered_groups()
    if known.get(group_id) == EDIT:
        role = EDIT
    value = [[group_id, role], *([k, v] for k, v in known.items() if k != group_id)]
    # A group this device may change is never pushed out by groups it only watches.
    value.sort(key=lambda entry: entry[1] != EDIT)
    kept = value[:REMEMBERED_GROUPS]
    if session.get(GROUPS_COOKIE) != kept or not session.permanent:
        session[GROUPS_COOKIE] = kept
        session.permanent = True


def device_may_edit_group(group_id: str) -> bool:
    return remembered_groups().get(group_id) == EDIT


def device_may_edit(session_id: str) -> bool:
    return remembered().get(session_id) == EDIT


def device_may_edit_deck(profile_id: str) -> bool:
    return profile_id in remembered_decks()


Params = ParamSpec("Params")


def no_store(view: Callable[Params, object]) -> Callable[Params, Response]:
    """A page or redirect that carries a key: no browser or proxy may keep a copy."""

    @wraps(view)
    def answer(*args: Params.args, **kwargs: Params.kwargs) -> Response:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return answer


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


def require_device_deck_edit(profile_id: str) -> None:
    if not device_may_edit_deck(profile_id):
        abort(
            403,
            "This device can see this deck's sizes but not change them. Open the deck's "
            "“edit this deck” link, or score a session that plays with it.",
        )


def require_device_group_edit(group_id: str) -> None:
    if not device_may_edit_group(group_id):
        abort(
            403,
            "This device can see this group but not change it. Open the group's "
            "“join this group” link on a phone of the group.",
        )


def _require_bearer(of: str, matches: Callable[[str], bool]) -> None:
    """401 without a Bearer key, 403 with one that ``matches`` refuses (the key of another
    ``of``: session or group)."""
    key = bearer_key()
    if key is None:
        abort(401, f"Send the {of}'s edit key as “Authorization: Bearer <key>”.")
    if not matches(key):
        abort(403, f"That edit key does not belong to this {of}.")


def require_bearer_group_edit(group_id: str) -> None:
    _require_bearer("group", lambda key: groups.key_matches(group_id, key))


def require_bearer_edit(session_id: str, not_found: str) -> None:
    """404 (``not_found``) for no such session, then 401 without a Bearer key and 403 with
    another session's: one read of the session's key."""
    try:
        stored = store.edit_key(session_id)
    except store.SessionNotFound:
        abort(404, not_found)
    _require_bearer("session", lambda key: keys.same_key(stored, key))
