"""`vision` command group (mounted by the app as `referee vision`; also `python -m vision`)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import click

from .errors import UploadError
from .evaluate import PARTS, composed_samples, evaluate, part_of


class FolderProblem(click.ClickException):
    """A labelled folder that cannot be measured: one line saying which file and what, status 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(self.format_message(), err=True)


def checked_labels(folder: Path) -> list[tuple[str, list[str]]]:
    """folder/labels.csv's rows (file name, expected cards), each photo present; else FolderProblem
    naming the file (and line) at fault."""
    labels = folder / "labels.csv"
    if not labels.is_file():
        raise FolderProblem(f"{folder}: no labels.csv (a CSV file with the header file,cards: each photo's file "
                            "name and the cards it shows). See docs/vision.md.")
    try:
        with open(labels, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = reader.fieldnames or []
            if "file" not in header or "cards" not in header:
                found = ",".join(header) if header else "nothing"
                raise FolderProblem(f"{labels}: the first line must be the header file,cards (found {found}).")
            rows = []
            for row in reader:
                line = reader.line_num
                name, cards = (row.get("file") or "").strip(), (row.get("cards") or "").split()
                if not name:
                    raise FolderProblem(f"{labels} line {line}: no file name.")
                if not cards:
                    raise FolderProblem(f"{labels} line {line}: no cards for {name}.")
                if not (folder / name).is_file():
                    raise FolderProblem(f"{labels} line {line}: {name} is not in {folder}.")
                rows.append((name, cards))
    except UnicodeDecodeError:
        raise FolderProblem(f"{labels}: not a text file (expected UTF-8 CSV).") from None
    except csv.Error as err:
        raise FolderProblem(f"{labels}: not a readable CSV file ({err}).") from None
    except OSError as err:
        raise FolderProblem(f"{labels}: cannot be read ({err.strerror or err}).") from None
    if not rows:
        raise FolderProblem(f"{labels}: lists no photos.")
    return rows


def _photos(folder: Path, rows, part: str | None, current: list):
    """(photo bytes, expected cards) of the rows, the file being measured kept in ``current``."""
    for name, cards in rows:
        if part is None or part_of(name) == part:
            current[:] = [folder / name]
            yield (folder / name).read_bytes(), cards


def _taught(folder: Path, rows):
    """References taught from a folder's one-card photos (as evaluate.teach_folder), naming a bad photo."""
    from .decode import decode_upload
    from .recognise import teach
    from .taught import References

    refs = References()
    for name, cards in rows:
        try:
            image = decode_upload((folder / name).read_bytes())
        except UploadError as err:
            raise FolderProblem(f"{folder / name}: {err}") from None
        refs = teach(image, cards, refs)
    return refs


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
    rows = checked_labels(folder)
    teach_rows = checked_labels(teach_dir) if teach_dir else None
    if compose:
        for name, _ in rows:
            if cv2.imread(str(folder / name)) is None:
                raise FolderProblem(f"{folder / name}: not an image OpenCV can read.")
    references = _taught(teach_dir, teach_rows) if teach_dir else None
    current: list = []
    samples = composed_samples(folder, compose) if compose else _photos(folder, rows, part, current)
    try:
        result = evaluate(samples, deck, references)
    except UploadError as err:
        raise FolderProblem(f"{current[0] if current else folder}: {err}") from None
    name = folder.name + (" (composed scenes)" if compose else f" ({part})" if part else "")
    click.echo(f"{name}: deck={deck}" + (f", taught from {teach_dir.name}" if teach_dir else ""))
    for key, value in result.items():
        click.echo(f"  {key:16} {value}")
    if as_json:
        click.echo(json.dumps(result))
