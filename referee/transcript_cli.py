"""``referee check FILE [--json] [--lang en|he|it]``: replay a transcript and print its rulings and result.

Exit status 0 whenever the file was read (rulings or not); 2 when it is not valid JSON or not a valid
transcript, with the field and position at fault. Nothing is printed before the whole file has been
checked, and the rulings go through a temporary file, so a long transcript needs little memory.
"""
from __future__ import annotations

import sys

import click

from .transcript import TranscriptError, check_stream, json_chunks, open_spill, printable, text_lines


@click.command("check")
@click.argument("file", type=click.File("r", encoding="utf-8-sig"))
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON document.")
@click.option("--lang", type=click.Choice(["en", "he", "it"]), default="en", show_default=True,
              help="The language of the text report's words (rule IDs, cards and the JSON stay as they are).")
def check_command(file, as_json: bool, lang: str) -> None:
    """Replay a table log (transcript) and print every ruling and the result."""
    name = printable(getattr(file, "name", "FILE"))
    try:
        text = file.read()
    except UnicodeDecodeError:
        click.echo(f"{name}: not a text file (expected UTF-8 JSON)", err=True)
        sys.exit(2)
    with open_spill() as spill:
        try:
            checked = check_stream(text, spill)
        except TranscriptError as err:
            click.echo(f"{name}: {printable(err.where)}: {printable(err.message)}", err=True)
            sys.exit(2)
        del text
        out = sys.stdout
        if as_json:
            for chunk in json_chunks(checked):
                out.write(chunk)
            out.write("\n")
        else:
            from .i18n_report import text_lines as report_lines

            lines = (text_lines(checked.rulings, checked.count, checked.result, checked.entries, checked.accepted,
                                checked.game) if lang == "en" else
                     report_lines(checked.rulings, checked.count, checked.result, checked.entries, checked.accepted,
                                  checked.game, lang))
            for line in lines:
                out.write(line + "\n")
        out.flush()
