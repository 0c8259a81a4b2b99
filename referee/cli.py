"""Command line: `referee serve`, `referee init-db` (others add more commands).

`main` is a plain click group; other modules extend it with
`main.add_command(...)`.
"""

from __future__ import annotations

import errno
import os
import socket
from urllib.parse import urlsplit

import click
import segno

from .db import DB_HELP, DatabaseProblem, init_db_command
from .hosts import ANY_ADDRESS, is_loopback, lan_address
from .server import DEFAULT_CONNECTION_LIMIT, DEFAULT_THREADS


def join_url_for(host: str, port: int, scheme: str = "http") -> str:
    """The URL phones open: the LAN address when listening on all interfaces."""
    if host in ("0.0.0.0", "", "::"):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}/"


@click.group()
def main() -> None:
    """Referee: referee card games played with a real deck, over the LAN."""


class StartProblem(click.ClickException):
    """Why `referee serve` cannot start (the port, the address): one line, status 2, no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(self.format_message(), err=True)


def join_lines(host: str, url: str) -> tuple[list[str], bool]:
    """What `referee serve` says about joining, and whether to print the link's QR code: a loopback link
    (no network found, or ``--host 127.0.0.1``) is no use to a phone, so it says why and what to do."""
    if not is_loopback(urlsplit(url).hostname):
        return [f"Phones on the same Wi-Fi join at: {url}"], True
    if host in ANY_ADDRESS:
        return [("No network found: this computer has no address on a Wi-Fi or wired network, so phones cannot "
                 "join. Connect it to the Wi-Fi the phones use, then start the referee again."),
                f"Open on this computer only: {url}"], False
    return [(f"Listening on this computer only (--host {host}): phones cannot join at a loopback address. To let "
             "phones join, start without --host (or with --host 0.0.0.0)."),
            f"Open on this computer only: {url}"], False


def announce(host: str, url: str, qr: bool = True) -> None:
    """Print how phones join (`join_lines`), with the link's QR code when a phone can open it."""
    lines, show_qr = join_lines(host, url)
    for line in lines:
        click.echo(line)
    if show_qr and qr:
        segno.make(url, error="m").terminal(compact=True)


def _free_port_near(host: str, port: int) -> int | None:
    """The first port after ``port`` that can be listened on (a suggestion), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in range(port + 1, min(port + 50, 65536)):
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((host, candidate))
            except OSError:
                continue
            return candidate
    return None


def listening_socket(host: str, port: int):
    """The server's socket, bound and listening before anything is printed: a port another program holds
    (or one this user may not take, or an address this computer does not have) is said in one line."""
    from .server import bound_socket

    try:
        return bound_socket(host, port)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            other = _free_port_near(host, port)
            instead = f"Start with --port {other}" if other else "Start with another --port"
            raise StartProblem(f"Port {port} is already in use (another Referee, or another program). {instead}, "
                               "or stop the other one.") from None
        if err.errno == errno.EACCES:
            raise StartProblem(f"Port {port} may only be used by an administrator on this computer. Start with "
                               "--port 8000.") from None
        if err.errno == errno.EADDRNOTAVAIL:
            raise StartProblem(f"This computer has no address {host} (--host). Start without --host to listen on "
                               "every network.") from None
        raise StartProblem(f"Cannot listen on {host} port {port} (--host, --port): {err.strerror or err}.") from None
    except UnicodeError as err:  # a --host no address can be made of
        raise StartProblem(f"Cannot listen on {host!r} (--host): {err}.") from None


def build_app(host: str, port: int, db_path: str | None = None, use_https: bool = False,
              allow_hosts: tuple[str, ...] = (), migrate: bool = True):
    """The app `referee serve` runs: the instance folder's config.py applies, these options win
    (``--allow-host`` adds to config ``ALLOWED_HOSTS``). ``migrate=False``: the database is not touched
    (`serve` checks it first)."""
    from . import create_app

    url = join_url_for(host, port, "https" if use_https else "http")
    overrides = {"JOIN_URL": url, "SERVER_HOST": host}
    if not migrate:
        overrides["MIGRATE_ON_START"] = False
    if use_https:
        overrides["SESSION_COOKIE_SECURE"] = True
    if db_path:
        overrides["DATABASE"] = os.path.abspath(db_path)
    app = create_app(overrides)
    if allow_hosts:
        from .security import configured_hosts

        app.config["ALLOWED_HOSTS"] = [*configured_hosts(app.config.get("ALLOWED_HOSTS")), *allow_hosts]
    return app


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help=DB_HELP)
@click.option("--threads", default=DEFAULT_THREADS, show_default=True, type=click.IntRange(1, 512),
              help="Worker threads for page loads and entries (live-update streams need none).")
@click.option("--connection-limit", default=DEFAULT_CONNECTION_LIMIT, show_default=True,
              type=click.IntRange(10, 100_000),
              help="Open connections at most, live-update streams included (each phone keeps one); "
                   "past it, new requests get 503.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer to this host name (repeatable; added to config ALLOWED_HOSTS). The server "
                   "answers to its own names and addresses, localhost and --host; other Host headers get 400.")
@click.option("--no-qr", is_flag=True, help="Do not print the QR code.")
@click.option("--https", "use_https", is_flag=True,
              help="Serve over HTTPS with a self-signed certificate made locally (for the live camera preview).")
def serve(host: str, port: int, db_path: str | None, threads: int, connection_limit: int,
          allow_hosts: tuple[str, ...], no_qr: bool, use_https: bool) -> None:
    """Serve the app on the LAN (uvicorn, HTTP or HTTPS) and print the join link and QR."""
    try:
        _serve(host, port, db_path, threads, connection_limit, allow_hosts, no_qr, use_https)
    except KeyboardInterrupt:  # Ctrl+C while starting (the running server stops by itself, below)
        click.echo("\nReferee stopped.")


def _serve(host: str, port: int, db_path: str | None, threads: int, connection_limit: int,
           allow_hosts: tuple[str, ...], no_qr: bool, use_https: bool) -> None:
    from . import db as dbmod
    from .backup import BackupProblem, lock_path, serving_lock
    from .server import make_server, raise_file_limit, settle_heap

    app = build_app(host, port, db_path, use_https, allow_hosts, migrate=False)
    path = app.config["DATABASE"]
    # Everything that can stop the server is checked before a word is printed: the database file (and its
    # folder), another server on it, the port. Each says in one line what is wrong, with status 2.
    dbmod.check_database(path)
    lock_file = lock_path(path)
    lock_was_there = lock_file.exists()
    try:  # held while serving: a restore, or a second server, is refused on this database
        app.extensions["referee.serving_lock"] = serving_lock(path, wait=False, port=port)  # not in the config:
        # the config is sent to the screen processes, and an open file cannot be
    except BackupProblem as err:
        raise DatabaseProblem(str(err)) from None
    except OSError as err:
        raise DatabaseProblem(f"{path}: cannot take its lock file ({err.strerror or err}).") from None
    try:
        sock = listening_socket(host, port)
    except StartProblem:  # refused before serving: the lock file this start made goes with it
        app.extensions.pop("referee.serving_lock").close()
        if not lock_was_there:
            lock_file.unlink(missing_ok=True)
        raise
    dbmod.migrate_checked(path)
    from .stats import count_in_background
    from .views.nights import STANDINGS_BATCH

    count_in_background(path, app.config.get("STANDINGS_BATCH", STANDINGS_BATCH))  # after an upgrade
    url = app.config["JOIN_URL"]
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)  # compiled now, not under the first phones' taps
    import vision

    vision.warm_up()  # likewise the card reader, before the first scan
    settle_heap()
    files = raise_file_limit(connection_limit + 256)
    click.echo(f"Referee is serving {path}")
    announce(host, url, qr=not no_qr)
    if files < connection_limit + 64:
        click.echo(f"Note: this system allows {files} open files, fewer than --connection-limit {connection_limit}.")
    cert = key = None
    if use_https:
        from .https import ensure_certificate

        names = sorted({"localhost", "127.0.0.1", lan_address()} | ({host} if host not in ANY_ADDRESS else set()))
        cert, key = ensure_certificate(app.instance_path, names)
        click.echo(f"HTTPS with a self-signed certificate ({cert}): each phone accepts it once.")
    click.echo("Press Ctrl+C to stop.", err=False)
    server = make_server(app, host, port, threads=threads, connection_limit=connection_limit, certfile=cert,
                         keyfile=key)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    click.echo("Referee stopped.")


main.add_command(init_db_command)

from .transcript_cli import check_command  # noqa: E402  (commands of other modules)

main.add_command(check_command)

from .nights_cli import backup_command, export_command, import_command, restore_command  # noqa: E402

for _command in (backup_command, restore_command, export_command, import_command):
    main.add_command(_command)

from vision.cli import vision as vision_group  # noqa: E402

main.add_command(vision_group)
