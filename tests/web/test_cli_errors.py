"""The command line on bad files and conditions: a file that is not a database, truncated or damaged, a
read-only file or folder, a database that is missing, a busy port, a loopback join link, a second server on
one database, and stopping. Each is said in one line (which file, what is wrong, what to do) with status 2,
never a traceback; the server stops cleanly on Ctrl+C and SIGTERM."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import db as dbmod
from referee import people
from referee.cli import join_url_for, main
from tests.web.nights_helpers import example, play
from tests.web.test_cli import free_port

COMMANDS = {  # every command that opens the database, as the operator types it (FILE: the command's own file)
    "serve": ["serve", "--host", "127.0.0.1", "--port", "{port}", "--no-qr"],
    "init-db": ["init-db"],
    "export": ["export", "Night Crew", "{out}"],
    "import": ["import", "{transcript}", "--group", "G"],
}


def _club(path: Path) -> None:
    dbmod.migrate(path)
    database = dbmod.connect(path)
    try:
        play(database, example("flag-at-reveal"), people.find_or_create_group(database, "Night Crew").id)
    finally:
        database.close()
    dbmod.close_idle(path)


def _run(tmp_path: Path, args: list[str], db: Path, **env) -> subprocess.CompletedProcess:
    """`python -m referee ARGS --db DB`, for real, in its own instance folder."""
    transcript = Path(__file__).resolve().parents[2] / "docs" / "examples" / "flag-at-reveal.json"
    args = [a.format(port=free_port(), out=tmp_path / "out.json", transcript=transcript) for a in args]
    return subprocess.run([sys.executable, "-m", "referee", *args, "--db", str(db)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                                          "REFEREE_INSTANCE": str(tmp_path / "instance"), **env})


def _one_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "Error" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip() and "onnxruntime" not in line]
    assert len(lines) == 1, result.stderr
    assert "Press Ctrl+C" not in result.stdout and "join" not in result.stdout
    return lines[0]


def _damaged(tmp_path: Path) -> Path:
    """A real database of a few matches, 40 KB of it overwritten past its first pages (as a failing disk)."""
    path = tmp_path / "corrupt.sqlite"
    _club(path)
    database = dbmod.connect(path)
    try:
        group = people.find_or_create_group(database, "Night Crew").id
        for _ in range(12):
            play(database, example("flag-at-reveal"), group)
    finally:
        database.close()
    dbmod.close_idle(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 120_000
    data[60_000:100_000] = os.urandom(40_000)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_is_not_a_database_is_said_in_one_line(tmp_path, command):
    notdb = tmp_path / "notdb.txt"
    notdb.write_text("hello\n")
    line = _one_line(_run(tmp_path, COMMANDS[command], notdb))
    assert str(notdb) in line and "not an SQLite database" in line and "referee restore" in line
    assert notdb.read_text() == "hello\n"


@pytest.mark.parametrize("command", ["serve", "init-db", "export"])
def test_a_truncated_database_is_said_in_one_line(tmp_path, command):
    path = tmp_path / "trunc.sqlite"
    _club(path)
    with open(path, "r+b") as handle:
        handle.truncate(50_000)
    line = _one_line(_run(tmp_path, COMMANDS[command], path))
    assert str(path) in line and "damaged" in line and "referee restore" in line


def test_a_damaged_database_is_refused_by_serve_and_init_db(tmp_path):
    path = _damaged(tmp_path)
    for command in ("serve", "init-db"):
        line = _one_line(_run(tmp_path, COMMANDS[command], path))
        assert str(path) in line and "damaged" in line and "referee restore" in line


def test_quick_check_of_a_home_database_is_quick(tmp_path):
    """`serve` checks the whole file (PRAGMA quick_check) before it starts: a few thousand entries take
    milliseconds."""
    path = tmp_path / "big.sqlite"
    _club(path)
    database = dbmod.connect(path)
    try:
        group = people.find_or_create_group(database, "Night Crew").id
        transcript = example("three-rounds")
        entries = 0
        while entries < 3000:
            play(database, transcript, group)
            entries = database.execute("SELECT count(*) FROM entries").fetchone()[0]
    finally:
        database.close()
    dbmod.close_idle(path)
    started = time.perf_counter()
    dbmod.check_database(path)
    took = time.perf_counter() - started
    print(f"check_database on {entries} entries ({path.stat().st_size // 1024} KB): {took * 1000:.1f} ms")
    assert took < 1.0


def test_an_empty_file_is_a_new_database(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    result = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert result.exit_code == 0 and "migration(s) applied" in result.output


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE notes (body TEXT)").connection.close()
    result = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert result.exit_code == 2 and "another program" in result.output and str(path) in result.output


@pytest.mark.parametrize("command", [["export", "Night Crew", "{out}"], ["backup", "{out}"]])
def test_a_missing_database_is_said_and_not_made(tmp_path, command):
    nothere = tmp_path / "nothere.sqlite"
    args = [a.format(out=tmp_path / "x.out") for a in command]
    result = CliRunner().invoke(main, [*args, "--db", str(nothere)])
    assert result.exit_code == 2, result.output
    assert f"No database at {nothere}" in result.output and "No group" not in result.output
    assert not nothere.exists() and not (tmp_path / "x.out").exists()


def test_import_into_a_new_database_says_it_made_one(tmp_path):
    transcript = Path(__file__).resolve().parents[2] / "docs" / "examples" / "flag-at-reveal.json"
    new = tmp_path / "new.sqlite"
    result = CliRunner().invoke(main, ["import", str(transcript), "--group", "G", "--db", str(new)])
    assert result.exit_code == 0, result.output
    assert f"No database at {new} yet: made a new one." in result.output
    nodir = tmp_path / "nodir" / "new.sqlite"
    result = CliRunner().invoke(main, ["import", str(transcript), "--group", "G", "--db", str(nodir)])
    assert result.exit_code == 0, result.output


# --- Read-only file or folder ----------------------------------------------------------------------------

NOBODY = 65534


@pytest.fixture
def shared_dir(tmp_path):
    """A folder another user can reach (pytest's tmp_path is private to its owner): for running as a user
    without rights, when the tests run as root (for whom chmod stops nothing)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-ro-"))
    os.chmod(folder, 0o755)
    yield folder
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
    shutil.rmtree(folder, ignore_errors=True)


def _as_user_without_rights(function, *args) -> str:
    """``function(*args)`` run for real where chmod applies: in this process unless it is root's, else in
    a forked child that has become the user nobody (which cannot read root's Python installation: every
    module is imported first). Returns what it printed or raised, as text."""
    if os.geteuid() != 0:
        try:
            return str(function(*args))
        except Exception as err:  # noqa: BLE001 - the words are the test's subject
            return f"{type(err).__name__}: {err}"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            try:
                words = str(function(*args))
            except BaseException as err:  # noqa: BLE001
                words = f"{type(err).__name__}: {err}"
            os.write(write, words.encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        words = pipe.read().decode()
    os.waitpid(pid, 0)
    return words


def _warm_up(args, tmp_path) -> None:
    """Run the same command once on a file that is no database: every module it imports is loaded."""
    notdb = tmp_path / "warm-up.txt"
    notdb.write_text("hello\n")
    at = args.index("--db")
    assert "not an SQLite database" in _invoke([*args[:at + 1], str(notdb), *args[at + 2:]])


def _invoke(args):
    result = CliRunner().invoke(main, args)
    failed = "" if result.exception is None or isinstance(result.exception, SystemExit) else repr(result.exception)
    return f"exit {result.exit_code}: {result.output}{failed}"


@pytest.fixture
def instance_for_anyone(shared_dir, monkeypatch):
    instance = shared_dir / "instance"
    instance.mkdir()
    os.chmod(instance, 0o777)
    (instance / "config.py").write_text("SECRET_KEY = 'test-secret'\n")  # readable by anyone, unlike secret_key
    monkeypatch.setenv("REFEREE_INSTANCE", str(instance))
    return instance


def test_a_read_only_database_is_refused_at_start(shared_dir, instance_for_anyone):
    path = shared_dir / "r.sqlite"
    _club(path)
    os.chmod(shared_dir, 0o777)
    os.chmod(path, 0o444)
    args = ["serve", "--host", "127.0.0.1", "--port", str(free_port()), "--db", str(path), "--no-qr"]
    _warm_up(args, shared_dir)
    said = _as_user_without_rights(_invoke, args)
    assert said.startswith("exit 2: "), said
    assert f"Cannot write {path}" in said and "chmod u+w" in said and "Traceback" not in said
    assert "Ctrl+C" not in said


def test_a_read_only_folder_is_named_at_start(shared_dir, instance_for_anyone):
    folder = shared_dir / "ro"
    folder.mkdir()
    path = folder / "r.sqlite"
    _club(path)
    os.chmod(path, 0o666)
    os.chmod(folder, 0o555)
    said = _as_user_without_rights(dbmod.check_database, path)
    assert f"Cannot write in the folder {folder}" in said and "journal" in said, said
    _warm_up(["init-db", "--db", str(path)], shared_dir)
    said = _as_user_without_rights(_invoke, ["init-db", "--db", str(path)])
    assert said.startswith("exit 2: ") and f"Cannot write in the folder {folder}" in said, said


# --- The port, the join link, a second server, stopping ------------------------------------------------------

def test_a_busy_port_is_said_before_anything_is_printed(tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        port = other.getsockname()[1]
        result = _run(tmp_path, ["serve", "--host", "127.0.0.1", "--port", str(port)], tmp_path / "p.sqlite")
    line = _one_line(result)
    assert line.startswith(f"Port {port} is already in use (another Referee, or another program). Start with --port ")
    assert line.endswith(", or stop the other one.")
    suggested = int(line.split("--port ")[1].split(",")[0])
    assert suggested > port
    assert sorted(p.name for p in tmp_path.iterdir() if "sqlite" in p.name) == []  # no lock file left behind


def test_a_loopback_join_link_says_phones_cannot_join():
    from referee.cli import join_lines

    lines, qr = join_lines("127.0.0.1", join_url_for("127.0.0.1", 8785))
    assert not qr and "phones cannot join" in lines[0] and "--host 0.0.0.0" in lines[0]
    assert not any("Phones on the same Wi-Fi join at" in line for line in lines)
    lines, qr = join_lines("0.0.0.0", "http://127.0.0.1:8785/")  # what join_url_for gives with no network
    assert not qr and lines[0].startswith("No network found") and "phones cannot join" in lines[0]
    lines, qr = join_lines("0.0.0.0", "http://192.168.1.20:8000/")
    assert qr and lines == ["Phones on the same Wi-Fi join at: http://192.168.1.20:8000/"]


def _start(tmp_path: Path, db: Path, port: int, **popen) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path, **popen,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_INSTANCE": str(tmp_path / "instance")})
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if "Ctrl+C" in line:
            break
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
            break
        except OSError:
            time.sleep(0.1)
    return proc, "".join(lines)


def _screen_processes(pid: int) -> int:
    found = 0
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            found += "screen_process_main" in Path(f"/proc/{child}/cmdline").read_text()
        except OSError:
            continue
    return found


def test_serve_on_loopback_a_second_server_and_ctrl_c(tmp_path):
    db, port = tmp_path / "a.sqlite", free_port()
    proc, said = _start(tmp_path, db, port)
    try:
        assert "phones cannot join at a loopback address" in said and "Phones on the same Wi-Fi" not in said
        assert "█" not in said and "▀" not in said  # no QR code for a link no phone can open
        second = _run(tmp_path, ["serve", "--host", "127.0.0.1", "--port", str(free_port())], db)
        line = _one_line(second)
        assert "another Referee is already serving this database" in line
        assert f"pid {proc.pid}" in line and f"port {port}" in line
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        try:
            rest = proc.communicate(timeout=20)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            rest = proc.communicate()[0]
    assert proc.returncode == 0, rest
    assert rest.strip().endswith("Referee stopped.") and "Aborted" not in rest and "Traceback" not in rest


def test_sigterm_to_the_process_group_stops_cleanly(tmp_path):
    port = free_port()
    proc, _ = _start(tmp_path, tmp_path / "t.sqlite", port, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while _screen_processes(proc.pid) == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGTERM)  # as a service manager stops it
        rest = proc.communicate(timeout=20)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, rest
    assert "starting another" not in rest and "Traceback" not in rest
    assert rest.strip().endswith("Referee stopped.")
