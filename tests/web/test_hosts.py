"""The Host allow-list's pieces: parsing a Host header, this machine's names, the decision."""

from __future__ import annotations

import ipaddress

import pytest

from referee.hosts import allowed_hosts, host_allowed, host_name, lan_address, machine_hosts


@pytest.mark.parametrize("header, name", [
    ("localhost", "localhost"), ("LocalHost:8000", "localhost"), ("192.168.1.20:8000", "192.168.1.20"),
    ("[::1]:8000", "::1"), ("[FE80::1]", "fe80::1"), ("referee.lan.", "referee.lan"),
    ("", None), (None, None), ("a b", None), ("evil.com/x", None), ("user@evil.com", None),
    ("host:99999", None), ("host:port", None), ("[::1", None),
])
def test_host_name_parses_host_headers(header, name):
    assert host_name(header) == name


def test_lan_address_is_an_ipv4_address():
    assert isinstance(ipaddress.ip_address(lan_address()), ipaddress.IPv4Address)


def test_machine_hosts_include_loopback_and_lan_address():
    hosts = machine_hosts()
    assert {"localhost", "127.0.0.1", "::1", lan_address()} <= hosts


def test_allowed_hosts_adds_listen_host_and_extras_but_not_any_address():
    hosts = allowed_hosts("10.9.8.7", ["Referee.Lan", " ", "[fd00::2]"])
    assert {"10.9.8.7", "referee.lan", "fd00::2", "localhost"} <= hosts
    assert "0.0.0.0" not in allowed_hosts("0.0.0.0") and "" not in allowed_hosts("0.0.0.0", [""])


def test_rebinding_names_are_refused_and_own_names_accepted():
    allowed = allowed_hosts("0.0.0.0")
    assert host_allowed("localhost:8000", allowed)
    assert host_allowed("127.0.0.1:8000", allowed)
    assert host_allowed(f"{lan_address()}:8000", allowed)
    assert not host_allowed("attacker.example:8000", allowed)
    assert not host_allowed("192.168.77.77:8000", allowed)
    assert not host_allowed(None, allowed)


def test_the_address_the_request_arrived_at_is_always_fine():
    assert host_allowed("192.168.77.77:8000", set(), arrived_at="192.168.77.77")
    assert host_allowed("[fe80::5]:8000", set(), arrived_at="FE80::5")
    # a name is never trusted for arriving somewhere: that is exactly the rebinding attack
    assert not host_allowed("evil.example:8000", set(), arrived_at="evil.example")


def test_star_allows_any_host():
    assert host_allowed("anything.example", {"*"})
    assert not host_allowed("bad host", {"*"})
