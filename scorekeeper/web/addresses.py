"""The addresses absolute links name: ``PUBLIC_URL`` whenever it is set.

Unset, a link names the address its request was sent to (the Host header, which
``TRUSTED_HOSTS`` limits: hosts.py). Share links and QR codes are for other phones:
a page opened on the server's own computer (127.0.0.1, localhost) has an address
no phone can open, so theirs name the computer's address on the local network
instead.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request, url_for
from werkzeug.sansio.utils import host_is_trusted

from scorekeeper.games.words import Text, phrase

# Any address outside this machine: connecting a UDP socket to it only picks the
# route (and so the local address) the machine would use; no packet is sent.
ROUTE_PROBE = ("10.255.255.255", 1)


def checked_public_url(app: Flask) -> None:
    """Refuse at start-up a ``PUBLIC_URL`` that is no http(s) address."""
    url = app.config.get("PUBLIC_URL") or ""
    parts = urlsplit(url)
    if url and (parts.scheme not in ("http", "https") or not parts.hostname):
        raise ValueError(
            f"PUBLIC_URL must be the app's address as phones open it, such as "
            f"http://192.168.1.20:5000, not {url!r}."
        )


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this computer only."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(host).is_loopback
    return False


def lan_address() -> str | None:
    """This computer's IPv4 address on its local network, if it has one."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)
        address = str(probe.getsockname()[0])
        if not is_loopback(address) and address != "0.0.0.0":
            return address
    return None


def configured_base() -> str | None:
    """``PUBLIC_URL`` without its trailing slash, or None when it is not set."""
    configured = current_app.config.get("PUBLIC_URL")
    return str(configured).rstrip("/") if configured else None


def public_base() -> str:
    """What every absolute link starts with (scheme, host, port and the path the app is
    served under, no trailing slash): ``PUBLIC_URL``, never the Host header, when set."""
    configured = configured_base()
    if configured:
        return configured
    sent = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    return f"{sent.scheme}://{sent.host}{sent.script_root}"


def external_url(endpoint: str, **values: Any) -> str:
    """The absolute address of ``endpoint`` (``url_for``'s ``_external``, on ``public_base``)."""
    return public_base() + url_for(endpoint, **values).removeprefix(request.script_root)


@dataclass(frozen=True)
class Reachable:
    """The app's address for other phones (scheme, host, port and path prefix, no
    trailing slash) and, when they cannot use it, why."""

    base: str
    unreachable: Text | None = None

    def url(self, path: str) -> str:
        """The address of ``path``, a path of this app (``url_for`` without ``_external``)."""
        return self.base + path.removeprefix(request.script_root)


LOCAL_ONLY = phrase(
    "web.share.local-only",
    "This server answers this computer only, so no phone can open these links: "
    "restart it with “make run HOST=0.0.0.0”, or set PUBLIC_URL.",
)
NO_NETWORK = phrase(
    "web.share.no-network",
    "This computer has no address on a network, so no phone can open these links: "
    "connect it to the Wi-Fi, or set PUBLIC_URL.",
)

HOST_NOT_TRUSTED = phrase(
    "web.share.host-not-trusted",
    "TRUSTED_HOSTS does not list {address}, this computer's network address, so the "
    "server refuses the phones that open these links: add it, or set PUBLIC_URL.",
)


def reachable() -> Reachable:
    """Where other phones open this app, for the current request."""
    configured = configured_base()
    if configured:
        return Reachable(configured)
    here = Reachable(request.host_url.rstrip("/") + request.script_root)
    opened = urlsplit(f"//{request.host}")
    if opened.hostname is None or not is_loopback(opened.hostname):
        return here
    # The address the server listens on (flask run and gunicorn both put it here).
    if is_loopback(request.environ.get("SERVER_NAME", "")):
        return Reachable(here.base, LOCAL_ONLY())
    lan = lan_address()
    if lan is None:
        return Reachable(here.base, NO_NETWORK())
    port = f":{opened.port}" if opened.port else ""
    on_the_lan = f"{request.scheme}://{lan}{port}{request.script_root}"
    trusted = current_app.config["TRUSTED_HOSTS"]
    if trusted and not host_is_trusted(lan, trusted):
        return Reachable(
            on_the_lan,
            HOST_NOT_TRUSTED(address=lan),
        )
    return Reachable(on_the_lan)
