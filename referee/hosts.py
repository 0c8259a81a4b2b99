"""The names and addresses this server answers to (the DNS-rebinding guard's allow-list).

A page on another site can point its own DNS name at the laptop's LAN address and then drive the
app from a phone's browser ("DNS rebinding"); the browser sends that name as the Host header. So
the server answers only to the hosts it was started for: its names, its LAN addresses, localhost,
127.0.0.1, ``--host``, plus ``--allow-host`` / config ``ALLOWED_HOSTS`` (``*`` allows any host).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

PROBE_ADDRESS = ("10.255.255.255", 1)  # never contacted: UDP connect sends nothing
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
ANY_ADDRESS = frozenset({"0.0.0.0", "", "::"})


def lan_address() -> str:
    """This machine's LAN IPv4 address, found without sending any traffic
    (a UDP socket's connect only picks a route); 127.0.0.1 if there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            address = probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    return address if address and not address.startswith("0.") else "127.0.0.1"


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` names this computer only (127.0.0.0/8, ::1, localhost): no phone can reach it."""
    if not host:
        return False
    host = normalize(host)
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def normalize(host: str) -> str:
    """A host name or address as compared: lower case, no trailing dot, IPv6 without brackets."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host


def host_name(header: str | None) -> str | None:
    """The host of a Host header (``name``, ``name:port``, ``[v6]:port``); None if malformed: among
    others a name with an empty label (``a..b``) or a label over 63 characters, which no DNS name has
    and which the URL building of every page (werkzeug's, by IDNA) cannot take."""
    if not header or any(c in header for c in "/\\?#@ \t"):
        return None
    try:
        parts = urlsplit(f"http://{header}")
        parts.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError:
        return None
    if not parts.hostname or not (is_ip_literal(parts.hostname) or _well_formed_name(parts.hostname)):
        return None
    return normalize(parts.hostname)


def _well_formed_name(name: str) -> bool:
    """A DNS name by IDNA's rules (one trailing dot allowed), both ways: what werkzeug encodes to route a
    request and decodes to show its URL."""
    try:
        name.encode("idna").decode("idna")
    except UnicodeError:
        return False
    return True


def machine_hosts() -> set[str]:
    """This machine's own names and addresses: localhost, its host name (and ``.local``),
    its fully qualified name and every address they resolve to, and its LAN address."""
    hosts = set(LOOPBACK_HOSTS) | {lan_address()}
    try:
        name = socket.gethostname()
    except OSError:
        name = ""
    names = {n for n in (name, f"{name}.local" if name and "." not in name else "", socket.getfqdn()) if n}
    hosts |= {normalize(n) for n in names}
    for n in names:
        try:
            hosts |= {normalize(info[4][0]) for info in socket.getaddrinfo(n, None)}
        except (OSError, UnicodeError):
            continue
    return hosts


def allowed_hosts(listen_host: str | None = None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The allow-list for a server listening on ``listen_host``, plus ``extra``."""
    hosts = machine_hosts() | {normalize(h) for h in extra if h and h.strip()}
    if listen_host and listen_host not in ANY_ADDRESS:
        hosts.add(normalize(listen_host))
    return frozenset(hosts)


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_allowed(header: str | None, allowed: Iterable[str], arrived_at: str | None = None) -> bool:
    """Whether a request with this Host header may be served.

    ``arrived_at`` is the local address the connection came in on (ASGI ``server``, WSGI
    ``SERVER_NAME``): naming the server by that IP address is always fine, so every LAN
    address is accepted, even one the laptop got after the server started.
    """
    name = host_name(header)
    if name is None:
        return False
    allowed = allowed if isinstance(allowed, (set, frozenset)) else set(allowed)
    if "*" in allowed or name in allowed:
        return True
    return arrived_at is not None and is_ip_literal(name) and name == normalize(arrived_at)
