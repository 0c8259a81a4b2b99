"""The command line: group, join URL, init-db, and a real `referee serve`."""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from referee.cli import join_url_for, lan_address, main
from referee.server import default_screen_processes


def test_main_is_an_extensible_click_group():
    assert isinstance(main, click.Group)
    assert {"serve", "init-db"} <= set(main.commands)

    @click.command("hello")
    def hello():
        click.echo("hi")

    group = click.Group(commands=dict(main.commands))  # extend a copy, not the real one
    group.add_command(hello)
    assert CliRunner().invoke(group, ["hello"]).output == "hi\n"


def test_lan_address_is_an_ipv4_address():
    assert isinstance(ipaddress.ip_address(lan_address()), ipaddress.IPv4Address)


def test_join_url_for():
    assert join_url_for("127.0.0.1", 8123) == "http://127.0.0.1:8123/"
    assert join_url_for("0.0.0.0", 8000) == f"http://{lan_address()}:8000/"
    assert join_url_for("::1", 8000) == "http://[::1]:8000/"


def test_serve_help_lists_options():
    output = CliRunner().invoke(main, ["serve", "--help"]).output
    for option in ["--host", "--port", "--db", "--threads", "--connection-limit", "--https", "--allow-host"]:
        assert option in output
    assert "0.0.0.0" in output and "8000" in output and "5000" in output


def test_python_dash_m_referee():
    result = subprocess.run([sys.executable, "-m", "referee", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "serve" in result.stdout and "init-db" in result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def screen_processes_of(pid: int, wait: float = 15) -> int:
    """How many screen processes `referee serve` (pid) runs, once they have started (Linux /proc)."""
    deadline = time.monotonic() + wait
    while True:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        found = 0
        for child in children:
            try:
                found += "screen_process_main" in Path(f"/proc/{child}/cmdline").read_text()
            except OSError:
                continue
        if found == default_screen_processes() or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_referee_serve_prints_join_url_and_serves(tmp_path):
    port = free_port()
    db_path = tmp_path / "served.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_INSTANCE": str(tmp_path / "instance")},
    )
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl+C" in line:
                break
        output = "".join(lines)
        assert f"http://127.0.0.1:{port}/" in output
        assert "phones cannot join" in output and "█" not in output  # a loopback link: no QR code
        body = b""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    body = response.read()
                    assert response.headers["Server"] == "referee"
                break
            except OSError:
                time.sleep(0.1)
        assert b"Join a table" in body
        assert db_path.is_file()
        assert (tmp_path / "instance" / "secret_key").is_file()
        assert screen_processes_of(proc.pid) == default_screen_processes()  # the app's config reached them
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def test_referee_serve_https_makes_a_certificate_and_serves_tls(tmp_path):
    import ssl

    port = free_port()
    instance = tmp_path / "instance"
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--https", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(tmp_path / "served.sqlite"), "--no-qr", "--threads", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_INSTANCE": str(instance)},
    )
    try:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # self-signed: each phone accepts it once
        body = b""
        for _ in range(150):
            try:
                with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=5, context=context) as r:
                    body = r.read()
                break
            except OSError:
                time.sleep(0.1)
        assert body == b'{"ok":true}\n'
        key = instance / "https-key.pem"
        assert (instance / "https-cert.pem").is_file() and oct(key.stat().st_mode & 0o777) == "0o600"
        request = urllib.request.Request(f"https://127.0.0.1:{port}/m/nosuch")
        with pytest.raises(urllib.error.HTTPError) as err:  # served over HTTPS by the app: its own 404
            urllib.request.urlopen(request, timeout=5, context=context)
        assert err.value.code == 404 and b"Back to the start" in err.value.read()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            output = proc.communicate(timeout=15)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            output = proc.communicate()[0]
    assert f"https://127.0.0.1:{port}/" in output


def test_the_join_link_is_printed_with_its_qr_code(capsys):
    from referee.cli import announce

    announce("0.0.0.0", "http://192.168.1.20:8000/")
    output = capsys.readouterr().out
    assert output.startswith("Phones on the same Wi-Fi join at: http://192.168.1.20:8000/\n")
    assert "█" in output or "▀" in output  # the terminal QR code
    announce("0.0.0.0", "http://192.168.1.20:8000/", qr=False)
    assert "█" not in capsys.readouterr().out


def test_certificate_is_reused_and_covers_the_hosts(tmp_path):
    from referee.https import ensure_certificate

    cert, key = ensure_certificate(tmp_path, ["localhost", "127.0.0.1", "192.168.1.20"])
    first = open(cert, "rb").read()
    assert ensure_certificate(tmp_path, ["localhost", "127.0.0.1"])[0] == cert
    assert open(cert, "rb").read() == first
    ensure_certificate(tmp_path, ["10.0.0.7"])
    assert open(cert, "rb").read() != first


def test_serve_reads_the_instance_config_and_its_options_win(tmp_path, monkeypatch):
    from referee.cli import build_app

    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(
        "SSE_KEEPALIVE = 7.5\nDATABASE = %r\nALLOWED_HOSTS = ['referee.lan']\nJOIN_URL = 'http://wrong/'\n"
        % str(tmp_path / "from-config.sqlite"))
    monkeypatch.setenv("REFEREE_INSTANCE", str(instance))
    app = build_app("127.0.0.1", 8123, allow_hosts=("table.example",))
    assert app.config["SSE_KEEPALIVE"] == 7.5  # from config.py
    assert app.config["DATABASE"] == str(tmp_path / "from-config.sqlite")
    assert app.config["JOIN_URL"] == "http://127.0.0.1:8123/"  # the option wins
    assert app.config["ALLOWED_HOSTS"] == ["referee.lan", "table.example"]  # --allow-host adds
    client = app.test_client()
    for host in ["referee.lan", "table.example:8123", "127.0.0.1:8123"]:
        assert client.get("/healthz", headers={"Host": host}).status_code == 200
    assert client.get("/healthz", headers={"Host": "other.example"}).status_code == 400
    again = build_app("127.0.0.1", 8123, db_path=str(tmp_path / "option.sqlite"))
    assert again.config["DATABASE"] == str(tmp_path / "option.sqlite")  # --db wins over config.py


def test_serve_allows_its_host_option(tmp_path, monkeypatch):
    from referee.cli import build_app

    monkeypatch.setenv("REFEREE_INSTANCE", str(tmp_path / "instance"))
    app = build_app("10.20.30.40", 8000, db_path=str(tmp_path / "db.sqlite"))
    assert app.test_client().get("/healthz", headers={"Host": "10.20.30.40:8000"}).status_code == 200


def test_make_serve_takes_port_and_host():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    dry = subprocess.run(["make", "-n", "-C", root, "serve", "PORT=8123", "HOST=127.0.0.1"], capture_output=True,
                         text=True, timeout=60)
    assert dry.returncode == 0
    assert "referee serve --host 127.0.0.1 --port 8123" in dry.stdout
    default = subprocess.run(["make", "-n", "-C", root, "serve"], capture_output=True, text=True, timeout=60)
    assert "referee serve --host 0.0.0.0 --port 8000" in default.stdout
