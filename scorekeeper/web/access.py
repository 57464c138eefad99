"""Who may do what: the device's rights and the API's Bearer key.

No accounts. The session id is the view link. The right to record is this
device's (given to the creator and to whoever opens the "score with me" link)
or, for the API, in ``Authorization: Bearer <edit key>``. A deck profile's
link shows its sizes; the right to change them is the device's too (the phone
that made it, the scorers of its sessions, whoever opens its "edit this deck"
link, every phone that may change the group whose deck it is). So with a group:
its link shows it, and the device remembers the groups it has seen and those it
may change (the phone that made it, whoever opens its "join this group" link).

A device's rights are stored on the server (``scorekeeper.devices``), as many
as it gathers; its signed cookie carries only its unguessable id.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Literal, ParamSpec, TypeVar

from flask import abort, after_this_request, current_app, g, make_response, request, session
from werkzeug.wrappers import Response

from scorekeeper import decks, devices, groups, keys, session_views
from scorekeeper.devices import EDIT as EDIT
from scorekeeper.devices import VIEW as VIEW
from scorekeeper.games.words import phrase
from scorekeeper.web import https

# The cookie's one entry: the id of this device, whose rights are stored with it
# (``scorekeeper.devices``). Its size stays the same however many rights it holds.
DEVICE_COOKIE = "device"
# Lists show this many of a device's sessions, groups or deck profiles at a time.
LIST_PAGE_SIZE = 30
# The list of a device that has none yet.
NOTHING = devices.Page({}, more=False)
# The sessions, and the groups, a browser without a device keeps in its cookie at most.
WATCHED_BEFORE_A_DEVICE = 8

# What a device may do with a thing: a role, or whether it holds a deck profile.
Right = TypeVar("Right", str | None, bool)

# What cookies held before rights were kept on the server. The first ones: {session
# id: role} (sorted by id) and the deck profiles the device had opened, which did not
# all carry the right to change. Then: lists of [id, role] of sessions and groups, and
# the ids of the deck profiles it may change, each newest first. The lists of sessions
# and groups still hold what a browser without a device has watched, until it comes
# back with its cookie: a visitor that keeps no cookie (a link preview, a crawler)
# makes no row.
FIRST_SESSIONS_COOKIE = "sessions"
FIRST_DECKS_COOKIE = "decks"
SESSIONS_COOKIE = "seen"
GROUPS_COOKIE = "groups"
DECKS_COOKIE = "deck_rights"
OLD_COOKIES = (
    FIRST_SESSIONS_COOKIE,
    FIRST_DECKS_COOKIE,
    SESSIONS_COOKIE,
    GROUPS_COOKIE,
    DECKS_COOKIE,
)
# Beside the lists of a browser without a device: the id its device will have. Requests
# the browser sends at once with that cookie (tabs restored together, a "score with me"
# link opened while a page loads) each carry it over, and all to the same device: the
# cookie each answer names is the same, so a right one of them gives is not lost to the
# cookie of another, whichever answer comes last.
WATCHER_COOKIE = "watcher"


def upgrade_old_cookie() -> None:
    """Carry the rights a cookie of before holds over to a new device, which the cookie
    names from now on (none when none of them still exists). Of the first cookies' decks,
    only those this device scores a session of are carried over."""
    # Without a cookie there is nothing to carry over, and looking into the session would
    # mark the answer as depending on the cookie (Vary: Cookie): an API client sends none.
    sent = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    if not https.sends_cookies(sent):
        return
    if current_app.session_interface.get_cookie_name(current_app) not in sent.cookies:
        return
    if not any(name in session for name in OLD_COOKIES):
        return
    old = {name: session.pop(name, None) for name in OLD_COOKIES}
    named = session.pop(WATCHER_COOKIE, None)
    first_sessions = old[FIRST_SESSIONS_COOKIE]
    listed = (
        [[key, role] for key, role in first_sessions.items()]
        if isinstance(first_sessions, dict)
        else old[SESSIONS_COOKIE]
    )
    sessions = _roles(listed)
    profiles = _ids(old[DECKS_COOKIE])
    if old[FIRST_DECKS_COOKIE] is not None:
        played = decks.of_sessions([key for key, role in sessions if role == EDIT])
        profiles += [item for item in _ids(old[FIRST_DECKS_COOKIE]) if item in played]
    device = devices.carry_over(
        sessions,
        _roles(old[GROUPS_COOKIE]),
        profiles,
        named if keys.is_key(named) else None,
    )
    # Nothing left to carry over (what it named was deleted): no device, and the cookie
    # is sent again without the old lists.
    if device is not None:
        _hold(device)


def _roles(value: object) -> list[tuple[str, str]]:
    """The [id, role] entries of an old cookie's list, in its order."""
    if not isinstance(value, list):
        return []
    return [
        (entry[0], entry[1])
        for entry in value
        if isinstance(entry, list)
        and len(entry) == 2
        and isinstance(entry[0], str)
        and entry[1] in (EDIT, VIEW)
    ]


def _ids(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def device_id() -> str | None:
    """This device's id, as its cookie names it (None: it has none yet)."""
    value = session.get(DEVICE_COOKIE)
    return value if keys.is_key(value) else None


def _hold(device: str) -> None:
    """Name ``device`` in the cookie, which is sent again: each right given starts its
    lifetime over, so a phone in use keeps its device."""
    session[DEVICE_COOKIE] = device
    session.permanent = True
    # What this request learned of the rights may no longer hold.
    g.pop("device_rights", None)


def _asked(kind: str, thing_id: str, look_up: Callable[[str, str], Right]) -> Right | None:
    """What this device may do with one thing (None: it has no device yet), looked up
    once a request: a page asks it again and again."""
    device = device_id()
    if device is None:
        return None
    known: dict[tuple[str, str], Right] = g.setdefault("device_rights", {})
    if (kind, thing_id) not in known:
        known[kind, thing_id] = look_up(device, thing_id)
    return known[kind, thing_id]


def session_role(session_id: str) -> str | None:
    """ "edit", "view", or None: the session is not on this device's list."""
    return _asked("session", session_id, devices.session_role)


def session_version(session_id: str) -> int | None:
    """The session's version, read with this device's role in it, which the request then
    knows without asking again (None: no such session, or a request from no device, whose
    role is none: the version is read alone)."""
    # A request without cookies (the API's) has no device: its session is not looked into,
    # so that its answer does not vary by cookie.
    if not https.sends_cookies(request):
        return None
    device = device_id()
    if device is None:
        return None
    found = devices.version_and_session_role(device, session_id)
    if found is None:
        return None
    version, role = found
    g.setdefault("device_rights", {})["session", session_id] = role
    return version


def group_role(group_id: str) -> str | None:
    return _asked("group", group_id, devices.group_role)


def remember(session_id: str, role: str) -> None:
    """List the session on this device ("view"), or let it record there ("edit")."""
    # Seen again, or seen by a scorer: nothing to write, no cookie to sign or send.
    if session_role(session_id) in (role, EDIT):
        return
    if role == VIEW and device_id() is None:
        _watched_before_a_device(SESSIONS_COOKIE, session_id)
        return
    _hold(devices.give_session(device_id(), session_id, role))


def _watched_before_a_device(cookie_list: str, thing_id: str) -> None:
    """Note in the cookie that this browser, which has no device yet, watched a session or
    a group: its next request carries it over to a new device (``upgrade_old_cookie``)."""
    watched = [[key, role] for key, role in _roles(session.get(cookie_list)) if key != thing_id]
    session[cookie_list] = [[thing_id, VIEW], *watched][:WATCHED_BEFORE_A_DEVICE]
    if not keys.is_key(session.get(WATCHER_COOKIE)):
        session[WATCHER_COOKIE] = keys.new_key()
        # The id is this browser's alone: no shared cache may hand the answer to another
        # visitor without a cookie, who would then hold the same device.
        after_this_request(_kept_private)
    session.permanent = True


def _kept_private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private"
    return response


def forget(session_id: str) -> None:
    """This device no longer lists the session, nor may it record in it."""
    device = device_id()
    if device is not None:
        devices.take_session(device, session_id)
        g.pop("device_rights", None)


def remember_scorer(session_id: str) -> None:
    """This device may record in the session, and change its deck profile."""
    _hold(devices.give_scorer(device_id(), session_id))


def remember_deck(profile_id: str) -> None:
    _hold(devices.give_deck(device_id(), profile_id))


def remember_group(group_id: str, role: str) -> None:
    """List the group on this device; "edit": this device may change it from now on."""
    if group_role(group_id) in (role, EDIT):
        return
    if role == VIEW and device_id() is None:
        _watched_before_a_device(GROUPS_COOKIE, group_id)
        return
    _hold(devices.give_group(device_id(), group_id, role))


def sessions_page(page: int, size: int = LIST_PAGE_SIZE) -> devices.Page:
    """A page of this device's sessions, the latest changed first."""
    device = device_id()
    return devices.sessions_page(device, page, size) if device else NOTHING


def groups_page(page: int, size: int = LIST_PAGE_SIZE) -> devices.Page:
    """A page of this device's groups, those it may change first."""
    device = device_id()
    return devices.groups_page(device, page, size) if device else NOTHING


def decks_page(page: int, game: str | None = None, size: int = LIST_PAGE_SIZE) -> devices.Page:
    """A page of the deck profiles this device may change, the newest given first."""
    device = device_id()
    return devices.decks_page(device, page, size, game) if device else NOTHING


def all_decks(game: str) -> list[str]:
    """Every deck profile of ``game`` this device may change, the newest given first."""
    device = device_id()
    return devices.all_decks(device, game) if device else []


def all_changeable_groups() -> list[str]:
    """Every group this device may change, the newest given first."""
    device = device_id()
    return devices.all_changeable_groups(device) if device else []


def device_may_edit_group(group_id: str) -> bool:
    return group_role(group_id) == EDIT


def device_may_edit(session_id: str) -> bool:
    return session_role(session_id) == EDIT


def device_may_edit_deck(profile_id: str) -> bool:
    return _asked("deck", profile_id, devices.holds_deck) is True


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


WATCHING_ONLY = phrase(
    "web.access.watching-only",
    "This device can watch this session but not record in it. "
    "Ask the scorer for the “score with me” link.",
)
DECK_SEEN_ONLY = phrase(
    "web.access.deck-seen-only",
    "This device can see this deck's sizes but not change them. Open the deck's "
    "“edit this deck” link, join the group whose deck it is, or score a session "
    "that plays with it.",
)
GROUP_SEEN_ONLY = phrase(
    "web.access.group-seen-only",
    "This device can see this group but not change it. Open the group's "
    "“join this group” link on a phone of the group.",
)
# The API's refusals of a missing or wrong Bearer key, for a session and for a group.
SEND_KEY = {
    "session": phrase(
        "web.access.send-session-key",
        "Send the session's edit key as “Authorization: Bearer <key>”.",
    ),
    "group": phrase(
        "web.access.send-group-key", "Send the group's edit key as “Authorization: Bearer <key>”."
    ),
}
WRONG_KEY = {
    "session": phrase(
        "web.access.wrong-session-key", "That edit key does not belong to this session."
    ),
    "group": phrase("web.access.wrong-group-key", "That edit key does not belong to this group."),
}


def require_device_edit(session_id: str) -> None:
    if not device_may_edit(session_id):
        abort(403, WATCHING_ONLY())


def require_device_deck_edit(profile_id: str) -> None:
    if not device_may_edit_deck(profile_id):
        abort(403, DECK_SEEN_ONLY())


def require_device_group_edit(group_id: str) -> None:
    if not device_may_edit_group(group_id):
        abort(403, GROUP_SEEN_ONLY())


def _require_bearer(of: Literal["session", "group"], matches: Callable[[str], bool]) -> None:
    """401 without a Bearer key, 403 with one that ``matches`` refuses (the key of another
    ``of``: session or group)."""
    key = bearer_key()
    if key is None:
        abort(401, SEND_KEY[of]())
    if not matches(key):
        abort(403, WRONG_KEY[of]())


def require_bearer_group_edit(group_id: str) -> None:
    _require_bearer("group", lambda key: groups.key_matches(group_id, key))


def require_bearer_edit(session_id: str, not_found: str) -> None:
    """404 (``not_found``) for no such session, then 401 without a Bearer key and 403 with
    another session's: one read of the session's key."""
    try:
        stored = session_views.edit_key(session_id)
    except session_views.SessionNotFound:
        abort(404, not_found)
    _require_bearer("session", lambda key: keys.same_key(stored, key))
