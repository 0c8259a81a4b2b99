"""``referee backup FILE``, ``referee restore FILE``, ``referee export GROUP FILE`` and
``referee import FILE``: a consistent copy of the database while the server runs, a checked restore,
and a group's history out and in. A file that cannot be used exits with status 2 and says why (the
field at fault, for an import)."""
from __future__ import annotations

import json
import os
import sys

import click

from .db import DB_HELP

DB_OPTION = click.option("--db", "db_path", type=click.Path(dir_okay=False), help=DB_HELP)


def _counted(found: dict) -> str:
    """ "1 match, 79 entries": the counts a backup or a restore found, each in its own number."""
    def of(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    return f"{of(found['matches'], 'match', 'matches')}, {of(found['entries'], 'entry', 'entries')}"


def _database_path(db_path: str | None) -> str:
    from . import create_app

    overrides = {"MIGRATE_ON_START": False}
    if db_path:
        overrides["DATABASE"] = os.path.abspath(db_path)
    return create_app(overrides).config["DATABASE"]


def _open(db_path: str | None, *, create: bool = False, write: bool = True):
    """The database for a command that reads or adds to it: checked first (no database at the path, a
    file that is not one or is damaged, a file or folder that cannot be written: one line, status 2),
    brought up to date, then opened."""
    from . import db as dbmod

    path = _database_path(db_path)
    existed = os.path.exists(path)
    dbmod.check_database(path, create=create, write=write)
    dbmod.migrate_checked(path)
    if not existed:
        click.echo(f"No database at {path} yet: made a new one.", err=True)
    return dbmod.connect(path)


def _fail(message: str) -> None:
    from .transcript import printable

    click.echo(printable(message), err=True)
    sys.exit(2)


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
@DB_OPTION
@click.option("--force", is_flag=True, help="Overwrite FILE even if it is not a Referee backup.")
def backup_command(file: str, db_path: str | None, force: bool) -> None:
    """Copy the database to FILE, consistently, even while `referee serve` runs (an older backup at FILE is
    replaced; any other file only with --force)."""
    from .backup import BackupProblem, backup

    path = _database_path(db_path)
    try:
        found = backup(path, file, force=force)
    except BackupProblem as err:
        _fail(str(err))
    click.echo(f"Backed up {path} to {file}: {_counted(found)}.")


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False))
@DB_OPTION
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
def restore_command(file: str, db_path: str | None, yes: bool) -> None:
    """Check the backup FILE, then put it in place of the database (stop `referee serve` first; the
    current database is kept beside it)."""
    from .backup import BackupProblem, check, not_serving, restore

    path = _database_path(db_path)
    try:
        found = check(file)
        with not_serving(path):  # said before asking; restore() takes the lock again for the copy
            pass
    except BackupProblem as err:
        _fail(str(err))
    if not yes:
        click.confirm(f"Replace {path} with {file} ({_counted(found).split(', ')[0]})? Stop `referee serve` first.",
                      abort=True)
    try:
        done = restore(file, path)
    except BackupProblem as err:
        _fail(str(err))
    kept = f" The database it replaced is kept as {done['kept']}." if done["kept"] else ""
    click.echo(f"Restored {file} to {path}: {_counted(done)}.{kept}")


@click.command("export")
@click.argument("group")
@click.argument("file", type=click.File("w", encoding="utf-8"))
@click.option("--csv", "as_csv", is_flag=True, help="One row per player per round, instead of the whole history as JSON.")
@DB_OPTION
def export_command(group: str, file, as_csv: bool, db_path: str | None) -> None:
    """Write the history of GROUP (its name) to FILE ('-' for the screen)."""
    from . import exports, people
    from .games.base import name_key

    database = _open(db_path, write=False)  # only read (a backup on a read-only disk exports too)
    try:
        found = next((g for g in people.groups(database) if name_key(g.name) == name_key(group)), None)
        if found is None:
            _fail(f"No group is called {group!r}.")
        if as_csv:
            file.write(exports.export_csv(database, found.id))
        else:
            file.write(json.dumps(exports.export_group(database, found.id), ensure_ascii=False, indent=1) + "\n")
    finally:
        database.close()
    if getattr(file, "name", "-") not in ("-", "<stdout>"):  # said where it went, as backup and import say
        click.echo(f"Wrote the history of {found.name} to {file.name}{' (one row per player per round)' if as_csv else ''}.",
                   err=True)


@click.command("import")
@click.argument("file", type=click.File("rb"))
@click.option("--group", default=None, help="For a single transcript: the group it was played in.")
@click.option("--night", default=None, metavar="YYYY-MM-DD", help="For a single transcript: the night (with --group).")
@DB_OPTION
def import_command(file, group: str | None, night: str | None, db_path: str | None) -> None:
    """Bring in a group's export, or one finished match's transcript. Importing again changes nothing; a
    match already here with other content (players, entries, house rules, date) is refused, saying what
    differs, and left as it is (status 2 when nothing was imported)."""
    from . import exports
    from .transcript import printable

    name = getattr(file, "name", "FILE")
    if night is not None and group is None:  # a night is a group's evening: alone it would be dropped unsaid
        _fail("--night needs --group: a night is the evening of a group (say which group played it).")
    database = _open(db_path, create=True)  # a group's history may start a new database
    try:
        try:
            done = exports.import_data(database, exports.read(file.read()), group, night)
        except exports.AlreadyHere as err:  # nothing came in: each match refused, one line each
            for _, message in err.refused:
                click.echo(printable(f"{name}: {message}"), err=True)
            if err.done.skipped:
                click.echo(printable(err.done.words() + "."), err=True)
            sys.exit(2)
        except exports.ImportProblem as err:
            _fail(f"{name}: {err.field}: {err.message}")
    finally:
        database.close()
    for _, message in done.refused:  # the others came in
        click.echo(printable(f"{name}: {message}"), err=True)
    click.echo(printable(done.words() + "."))
