"""`vision` command group (mounted by the app as `referee vision`; also `python -m vision`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .evaluate import PARTS, composed_samples, evaluate, folder_samples, teach_folder


@click.group(name="vision")
def vision() -> None:
    """Card recognition tools."""


@vision.command(name="eval")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--deck", type=click.Choice(["standard", "ratatat"]), default="standard", show_default=True)
@click.option("--teach", "teach_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of one-card photos (with labels.csv) to teach the deck from first.")
@click.option("--compose", type=int, default=0,
              help="Instead of FOLDER's photos, measure on this many table scenes composed in code "
                   "from FOLDER's flat card images.")
@click.option("--part", type=click.Choice(PARTS), default=None,
              help="Only the tuning photos, or only the held-out ones (see vision.evaluate.part_of).")
@click.option("--threads", type=int, default=1, show_default=True, help="OpenCV threads.")
@click.option("--json", "as_json", is_flag=True, help="End with one line of JSON.")
def eval_command(folder: Path, deck: str, teach_dir: Path | None, compose: int, part: str | None, threads: int,
                 as_json: bool) -> None:
    """Measure recognition on FOLDER (images + labels.csv). Writes nothing."""
    import cv2

    cv2.setNumThreads(threads)
    references = teach_folder(teach_dir) if teach_dir else None
    samples = composed_samples(folder, compose) if compose else folder_samples(folder, part)
    result = evaluate(samples, deck, references)
    name = folder.name + (" (composed scenes)" if compose else f" ({part})" if part else "")
    click.echo(f"{name}: deck={deck}" + (f", taught from {teach_dir.name}" if teach_dir else ""))
    for key, value in result.items():
        click.echo(f"  {key:16} {value}")
    if as_json:
        click.echo(json.dumps(result))
