"""Serving over HTTPS on the LAN, for the live camera preview (browsers allow ``getUserMedia`` only in
secure contexts). The certificate is self-signed, made locally on first use and kept in the instance
folder; each phone accepts it once. The same server serves HTTP and HTTPS (`referee.server`), with
the same options."""
from __future__ import annotations

import datetime as dt
import ipaddress
import os
from pathlib import Path

CERT_FILE = "https-cert.pem"
KEY_FILE = "https-key.pem"
VALID_DAYS = 825


def ensure_certificate(folder: str | os.PathLike, hosts: list[str]) -> tuple[str, str]:
    """A self-signed certificate for ``hosts`` (names or IP addresses), made once; its paths."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder = Path(folder)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        known = {str(v) for v in names.get_values_for_type(x509.IPAddress)} | set(
            names.get_values_for_type(x509.DNSName))
        if set(hosts) <= known and cert.not_valid_after_utc > dt.datetime.now(dt.timezone.utc):
            return str(cert_path), str(key_path)
    key = ec.generate_private_key(ec.SECP256R1())
    alt = []
    for host in hosts:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            alt.append(x509.DNSName(host))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Referee on this table")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .sign(key, hashes.SHA256()))
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return str(cert_path), str(key_path)
