"""Share links and QR codes name an address other phones can open: the computer's
address on the local network when the page was opened on the computer itself, or
PUBLIC_URL when it is set."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import make_app
from flask import Flask

from scorekeeper.web import addresses
from scorekeeper.web.sessions import qr_svg

LAN = "192.168.1.20"
# What flask run and gunicorn put in SERVER_NAME: the address the server listens on.
EVERY_INTERFACE = {"SERVER_NAME": "0.0.0.0"}
THIS_COMPUTER_ONLY = {"SERVER_NAME": "127.0.0.1"}


@pytest.fixture
def on_a_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "lan_address", lambda: LAN)


def share_page(app: Flask, base_url: str, environ: dict[str, str]) -> tuple[str, str, str]:
    """The scorer's share page opened at ``base_url``: its text, the session id and the
    edit key of its join link."""
    client = app.test_client()
    opened = {"base_url": base_url, "environ_overrides": environ}
    started = client.post(
        "/new/score-sheet", data={"seats-0": "Ann", "seats-1": "Bo", "form_key": "k"}, **opened
    )
    assert started.status_code == 303
    session_id = started.location.rsplit("/", 1)[1]
    page = client.get(f"/s/{session_id}/share", **opened)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    key = re.search(r"/join/([A-Za-z0-9_-]+)", html)
    assert key, "the scorer's share page shows no join link"
    return html, session_id, key.group(1)


def links_in(html: str) -> list[str]:
    return re.findall(r'class="link-box">([^<]+)<', html)


@pytest.mark.usefixtures("on_a_lan")
@pytest.mark.parametrize("opened_at", ["http://127.0.0.1:5000", "http://localhost:5000"])
def test_a_page_opened_on_the_computer_itself_shares_its_lan_address(
    app: Flask, opened_at: str
) -> None:
    html, session_id, key = share_page(app, opened_at, EVERY_INTERFACE)
    join = f"http://{LAN}:5000/s/{session_id}/join/{key}"
    view = f"http://{LAN}:5000/s/{session_id}"
    assert links_in(html) == [join, view]
    assert qr_svg(join) in html
    assert qr_svg(view) in html
    assert 'id="unreachable"' not in html


@pytest.mark.usefixtures("on_a_lan")
def test_a_page_opened_at_the_lan_address_shares_that_address(app: Flask) -> None:
    html, session_id, _ = share_page(app, "http://192.168.1.7:8000", EVERY_INTERFACE)
    assert links_in(html)[1] == f"http://192.168.1.7:8000/s/{session_id}"


@pytest.mark.usefixtures("on_a_lan")
@pytest.mark.parametrize(
    ("public_url", "base"),
    [
        ("https://scores.example", "https://scores.example"),
        ("http://10.0.0.5:8000/club/", "http://10.0.0.5:8000/club"),
    ],
)
def test_public_url_names_the_address_of_every_share_link(
    database_url: str, public_url: str, base: str
) -> None:
    app = make_app(database_url, PUBLIC_URL=public_url)
    html, session_id, key = share_page(app, "http://127.0.0.1:5000", EVERY_INTERFACE)
    view = f"{base}/s/{session_id}"
    assert links_in(html) == [f"{base}/s/{session_id}/join/{key}", view]
    assert qr_svg(view) in html


@pytest.mark.usefixtures("on_a_lan")
def test_a_server_listening_on_this_computer_only_says_phones_cannot_open_its_links(
    app: Flask,
) -> None:
    html, session_id, _ = share_page(app, "http://127.0.0.1:5000", THIS_COMPUTER_ONLY)
    assert links_in(html)[1] == f"http://127.0.0.1:5000/s/{session_id}"
    assert "This server answers this computer only" in html
    assert "make run HOST=0.0.0.0" in html


@pytest.mark.usefixtures("on_a_lan")
def test_a_lan_address_trusted_hosts_leaves_out_says_phones_are_refused(
    database_url: str,
) -> None:
    app = make_app(database_url, TRUSTED_HOSTS="localhost 127.0.0.1")
    html, session_id, _ = share_page(app, "http://127.0.0.1:5000", EVERY_INTERFACE)
    assert links_in(html)[1] == f"http://{LAN}:5000/s/{session_id}"
    assert f"TRUSTED_HOSTS does not list {LAN}, this computer&#39;s network address" in html


@pytest.mark.usefixtures("on_a_lan")
def test_a_lan_address_trusted_hosts_lists_is_shared_without_a_warning(database_url: str) -> None:
    app = make_app(database_url, TRUSTED_HOSTS=f"localhost 127.0.0.1 {LAN}")
    html, session_id, _ = share_page(app, "http://127.0.0.1:5000", EVERY_INTERFACE)
    assert links_in(html)[1] == f"http://{LAN}:5000/s/{session_id}"
    assert 'id="unreachable"' not in html


def test_a_computer_on_no_network_says_phones_cannot_open_its_links(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "lan_address", lambda: None)
    html, _, _ = share_page(app, "http://127.0.0.1:5000", EVERY_INTERFACE)
    assert "This computer has no address on a network" in html


@pytest.mark.parametrize("public_url", ["scores.example", "ftp://scores.example", "https://"])
def test_a_public_url_that_is_no_web_address_stops_the_app_at_start(
    database_url: str, public_url: str
) -> None:
    with pytest.raises(ValueError, match="PUBLIC_URL must be the app's address") as refused:
        make_app(database_url, PUBLIC_URL=public_url)
    assert repr(public_url) in str(refused.value)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("::1", True),
        ("localhost", True),
        ("app.localhost", True),
        ("192.168.1.20", False),
        ("scores.example", False),
    ],
)
def test_loopback_hosts_are_told_from_network_ones(host: str, loopback: bool) -> None:
    assert addresses.is_loopback(host) is loopback


def test_the_lan_address_is_found_without_sending_a_packet(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []

    class Probe:
        def __init__(self, family: int, kind: int) -> None:
            calls.append(("socket", (family, kind)))

        def __enter__(self) -> Probe:
            return self

        def __exit__(self, *exc: object) -> None:
            calls.append(("close", None))

        def connect(self, address: tuple[str, int]) -> None:
            calls.append(("connect", address))

        def getsockname(self) -> tuple[str, int]:
            return (LAN, 40000)

        def send(self, data: bytes) -> None:
            calls.append(("send", data))

    monkeypatch.setattr(addresses.socket, "socket", Probe)
    assert addresses.lan_address() == LAN
    assert [name for name, _ in calls] == ["socket", "connect", "close"]
    assert calls[0][1] == (addresses.socket.AF_INET, addresses.socket.SOCK_DGRAM)
