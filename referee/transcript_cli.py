"""``referee check FILE [--json]``: replay a transcript and print its rulings and result.

Exit status 0 whenever the file was read (rulings or not); 2 when it is not valid JSON or not a valid
transcript, with the field and position at fault.
"""
from __future__ import annotations

import json
import sys

import click

from .transcript import TranscriptError, check, format_text, loads


@click.command("check")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON document.")
def check_command(file, as_json: bool) -> None:
    """Replay a table log (transcript) and print every ruling and the result."""
    name = getattr(file, "name", "FILE")
    try:
        transcript = loads(file.read())
    except UnicodeDecodeError:
        click.echo(f"{name}: not a text file (expected UTF-8 JSON)", err=True)
        sys.exit(2)
    except TranscriptError as err:
        click.echo(f"{name}: {err.where}: {err.message}", err=True)
        sys.exit(2)
    _, steps, report = check(transcript)
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    else:
        click.echo(format_text(transcript, steps, report))
