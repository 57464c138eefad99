"""A certificate for serving HTTPS on the local network (``make run HTTPS=1``).

Phones open the app at the computer's network address, which no public
certificate authority will vouch for. So the app makes its own, on this
computer, without the internet: a local authority (``https-ca.pem``, the file a
phone may install as trusted, so its browser stops warning) and the server's
certificate signed by it for every address the phones may use. The server's
certificate is made again when the computer's addresses change; the authority
is kept, so a phone that trusts it goes on trusting the new one.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# Apple's browsers refuse a server certificate valid for more than 825 days.
SERVER_DAYS = 825
AUTHORITY_DAYS = 3650

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Files:
    """Where the certificate files of one instance folder live."""

    folder: Path

    @property
    def authority(self) -> Path:
        return self.folder / "https-ca.pem"

    @property
    def authority_key(self) -> Path:
        return self.folder / "https-ca-key.pem"

    @property
    def server(self) -> Path:
        return self.folder / "https-cert.pem"

    @property
    def server_key(self) -> Path:
        return self.folder / "https-key.pem"


def names_for(hostname: str, addresses: list[str]) -> tuple[list[str], list[Address]]:
    """The host names and addresses the server's certificate must name."""
    names = ["localhost", hostname, f"{hostname}.local"] if hostname else ["localhost"]
    found = [ipaddress.ip_address(address) for address in ("127.0.0.1", "::1", *addresses)]
    return sorted(set(names)), sorted(set(found), key=str)


def named(certificate: x509.Certificate) -> tuple[list[str], list[Address]]:
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return (
        sorted(names.get_values_for_type(x509.DNSName)),
        # Only addresses: a certificate's names hold no networks (those belong to name
        # constraints, which cryptography's type for an IP name covers too).
        sorted(
            (
                address
                for address in names.get_values_for_type(x509.IPAddress)
                if isinstance(address, Address)
            ),
            key=str,
        ),
    )


def write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def builder(
    common_name: str, issuer: x509.Name | None, key: ec.EllipticCurvePrivateKey, days: int
) -> x509.CertificateBuilder:
    """A certificate for ``key`` valid ``days`` from now (``issuer`` None: self-signed)."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer or subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )


def authority(files: Files) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The local authority, made the first time."""
    if files.authority.exists() and files.authority_key.exists():
        key = serialization.load_pem_private_key(files.authority_key.read_bytes(), None)
        assert isinstance(key, ec.EllipticCurvePrivateKey)
        return x509.load_pem_x509_certificate(files.authority.read_bytes()), key
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        builder("Tabletop Scorekeeper local CA", None, key, AUTHORITY_DAYS)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    write_key(files.authority_key, key)
    files.authority.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate, key


def ensure(folder: Path, hostname: str, addresses: list[str]) -> bool:
    """Make the server's certificate unless one naming every address is still valid
    for a month; True when it was made."""
    files = Files(folder)
    now = datetime.datetime.now(datetime.UTC)
    wanted = names_for(hostname, addresses)
    if files.server.exists() and files.server_key.exists():
        current = x509.load_pem_x509_certificate(files.server.read_bytes())
        lasts = current.not_valid_after_utc - now > datetime.timedelta(days=30)
        if lasts and named(current) == wanted:
            return False
    issuer, issuer_key = authority(files)
    key = ec.generate_private_key(ec.SECP256R1())
    dns, ips = wanted
    certificate = (
        builder(dns[0], issuer.subject, key, SERVER_DAYS)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName(
                [*(x509.DNSName(name) for name in dns), *(x509.IPAddress(ip) for ip in ips)]
            ),
            critical=False,
        )
        .sign(issuer_key, hashes.SHA256())
    )
    write_key(files.server_key, key)
    files.server.write_bytes(
        certificate.public_bytes(serialization.Encoding.PEM)
        + issuer.public_bytes(serialization.Encoding.PEM)
    )
    return True
