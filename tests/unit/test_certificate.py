"""The certificate `make run HTTPS=1` serves: made on this computer, for every address
a phone may use, signed by a local authority that stays the same."""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store

from scorekeeper import certificate


def verifies(folder: Path, name: x509.GeneralName) -> bool:
    """Whether a phone that trusts the local authority accepts the server's certificate
    for ``name``."""
    files = certificate.Files(folder)
    authority = x509.load_pem_x509_certificate(files.authority.read_bytes())
    leaf, *chain = x509.load_pem_x509_certificates(files.server.read_bytes())
    verifier = PolicyBuilder().store(Store([authority])).build_server_verifier(name)
    try:
        verifier.verify(leaf, chain)
    except x509.verification.VerificationError:
        return False
    return True


def test_the_certificate_names_the_lan_address_and_this_computer(tmp_path: Path) -> None:
    assert certificate.ensure(tmp_path, "laptop", ["192.168.1.20"]) is True

    for name in (
        x509.IPAddress(ipaddress.ip_address("192.168.1.20")),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.DNSName("localhost"),
        x509.DNSName("laptop.local"),
    ):
        assert verifies(tmp_path, name), name
    assert not verifies(tmp_path, x509.IPAddress(ipaddress.ip_address("192.168.1.21")))


def test_python_ssl_serves_with_the_files_made(tmp_path: Path) -> None:
    certificate.ensure(tmp_path, "laptop", ["192.168.1.20"])
    files = certificate.Files(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(files.server, files.server_key)
    assert files.server_key.stat().st_mode & 0o777 == 0o600
    assert files.authority_key.stat().st_mode & 0o777 == 0o600


def test_a_certificate_naming_every_address_is_kept(tmp_path: Path) -> None:
    certificate.ensure(tmp_path, "laptop", ["192.168.1.20"])
    made = certificate.Files(tmp_path).server.read_bytes()

    assert certificate.ensure(tmp_path, "laptop", ["192.168.1.20"]) is False
    assert certificate.Files(tmp_path).server.read_bytes() == made


def test_a_new_lan_address_gets_a_new_certificate_from_the_same_authority(
    tmp_path: Path,
) -> None:
    certificate.ensure(tmp_path, "laptop", ["192.168.1.20"])
    authority = certificate.Files(tmp_path).authority.read_bytes()

    assert certificate.ensure(tmp_path, "laptop", ["10.0.0.7"]) is True

    assert certificate.Files(tmp_path).authority.read_bytes() == authority
    assert verifies(tmp_path, x509.IPAddress(ipaddress.ip_address("10.0.0.7")))
    assert not verifies(tmp_path, x509.IPAddress(ipaddress.ip_address("192.168.1.20")))
