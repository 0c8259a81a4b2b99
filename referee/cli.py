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


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="SQLite file (default: instance/referee.sqlite).")
@click.option("--threads", default=256, show_default=True, type=click.IntRange(4, 2000),
              help="Worker threads; each phone's open live-update stream holds one while it waits.")
@click.option("--connection-limit", default=1000, show_default=True, type=click.IntRange(10, 10000),
              help="Open connections at most (every phone keeps one for live updates).")
@click.option("--no-qr", is_flag=True, help="Do not print the QR code.")
@click.option("--https", "use_https", is_flag=True,
              help="Serve over HTTPS with a self-signed certificate made locally (for the live camera preview).")
def serve(host: str, port: int, db_path: str | None, threads: int, connection_limit: int, no_qr: bool,
          use_https: bool) -> None:
    """Serve the app on the LAN with waitress (or gunicorn, for --https) and print the join link and QR."""
    from waitress import serve as waitress_serve

    from . import create_app

    url = join_url_for(host, port, "https" if use_https else "http")
    config = {"JOIN_URL": url, "SESSION_COOKIE_SECURE": use_https}
    if db_path:
        config["DATABASE"] = os.path.abspath(db_path)
    app = create_app(config)
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)  # compiled now, not under the first phones' taps
    import vision

    vision.warm_up()  # likewise the card reader, before the first scan
    click.echo(f"Referee is serving {app.config['DATABASE']}")
    click.echo(f"Phones on the same Wi-Fi join at: {url}")
    if not no_qr:
        segno.make(url, error="m").terminal(compact=True)
    click.echo("Press Ctrl+C to stop.", err=False)
    if use_https:
        from .https import ensure_certificate, serve_https

        hosts = sorted({"localhost", "127.0.0.1", lan_address()} | ({host} if host not in ("0.0.0.0", "", "::") else set()))
        cert, key = ensure_certificate(app.instance_path, hosts)
        click.echo(f"HTTPS with a self-signed certificate ({cert}): each phone accepts it once.")
        serve_https(app, host, port, threads, cert, key)
        return
    waitress_serve(app, host=host, port=port, threads=threads, connection_limit=connection_limit, ident="referee",
                   asyncore_use_poll=True)


main.add_command(init_db_command)

from .transcript_cli import check_command  # noqa: E402  (commands of other modules)

main.add_command(check_command)

from vision.cli import vision as vision_group  # noqa: E402

main.add_command(vision_group)
