"""Command line: `referee serve`, `referee init-db` (others add more commands).

`main` is a plain click group; other modules extend it with
`main.add_command(...)`.
"""

from __future__ import annotations

import os

import click
import segno

from .db import init_db_command
from .hosts import lan_address
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


def build_app(host: str, port: int, db_path: str | None = None, use_https: bool = False,
              allow_hosts: tuple[str, ...] = ()):
    """The app `referee serve` runs: the instance folder's config.py applies, these options win
    (``--allow-host`` adds to config ``ALLOWED_HOSTS``)."""
    from . import create_app

    url = join_url_for(host, port, "https" if use_https else "http")
    overrides = {"JOIN_URL": url, "SERVER_HOST": host}
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
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="SQLite file (default: instance/referee.sqlite).")
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
    from .hosts import ANY_ADDRESS
    from .server import make_server, raise_file_limit, settle_heap

    app = build_app(host, port, db_path, use_https, allow_hosts)
    from .backup import BackupProblem, serving_lock

    try:  # held while serving: `referee restore` refuses to replace the database under a running server
        app.extensions["referee.serving_lock"] = serving_lock(app.config["DATABASE"], wait=False)  # not in
        # the config: the config is sent to the screen processes, and an open file cannot be
    except BackupProblem as err:
        raise click.ClickException(str(err)) from None
    from .stats import count_in_background
    from .views.nights import STANDINGS_BATCH

    count_in_background(app.config["DATABASE"], app.config.get("STANDINGS_BATCH", STANDINGS_BATCH))  # after an upgrade
    url = app.config["JOIN_URL"]
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)  # compiled now, not under the first phones' taps
    import vision

    vision.warm_up()  # likewise the card reader, before the first scan
    settle_heap()
    files = raise_file_limit(connection_limit + 256)
    click.echo(f"Referee is serving {app.config['DATABASE']}")
    click.echo(f"Phones on the same Wi-Fi join at: {url}")
    if not no_qr:
        segno.make(url, error="m").terminal(compact=True)
    if files < connection_limit + 64:
        click.echo(f"Note: this system allows {files} open files, fewer than --connection-limit {connection_limit}.")
    cert = key = None
    if use_https:
        from .https import ensure_certificate

        names = sorted({"localhost", "127.0.0.1", lan_address()} | ({host} if host not in ANY_ADDRESS else set()))
        cert, key = ensure_certificate(app.instance_path, names)
        click.echo(f"HTTPS with a self-signed certificate ({cert}): each phone accepts it once.")
    click.echo("Press Ctrl+C to stop.", err=False)
    make_server(app, host, port, threads=threads, connection_limit=connection_limit, certfile=cert,
                keyfile=key).run()


main.add_command(init_db_command)

from .transcript_cli import check_command  # noqa: E402  (commands of other modules)

main.add_command(check_command)

from .nights_cli import backup_command, export_command, import_command, restore_command  # noqa: E402

for _command in (backup_command, restore_command, export_command, import_command):
    main.add_command(_command)

from vision.cli import vision as vision_group  # noqa: E402

main.add_command(vision_group)
