"""The command line of game nights: backup and restore, export and import; a file that cannot be used
exits with status 2 and the reason, never a traceback."""
from __future__ import annotations

import json

from click.testing import CliRunner

from referee import db as dbmod
from referee import people
from referee.cli import main
from tests.web.nights_helpers import EXAMPLES, example, play


def _club(path):
    dbmod.migrate(path)
    database = dbmod.connect(path)
    try:
        g = people.find_or_create_group(database, "Club")
        play(database, example("flag-at-reveal"), g.id)
    finally:
        database.close()


def test_backup_and_restore_commands(tmp_path):
    live, copy = tmp_path / "live.sqlite", tmp_path / "copy.sqlite"
    _club(live)
    result = CliRunner().invoke(main, ["backup", str(copy), "--db", str(live)])
    assert result.exit_code == 0 and "1 matches" in result.output
    result = CliRunner().invoke(main, ["restore", str(copy), "--db", str(tmp_path / "fresh.sqlite"), "--yes"])
    assert result.exit_code == 0, result.output
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    result = CliRunner().invoke(main, ["restore", str(junk), "--db", str(live), "--yes"])
    assert result.exit_code == 2 and "not an SQLite database" in result.output
    assert "Traceback" not in result.output


def test_export_and_import_commands(tmp_path):
    live, other = tmp_path / "live.sqlite", tmp_path / "other.sqlite"
    _club(live)
    out = tmp_path / "club.json"
    assert CliRunner().invoke(main, ["export", "club", str(out), "--db", str(live)]).exit_code == 0
    assert json.loads(out.read_text())["group"] == {"name": "Club"}
    first = CliRunner().invoke(main, ["import", str(out), "--db", str(other)])
    assert first.exit_code == 0 and "1 match imported" in first.output
    second = CliRunner().invoke(main, ["import", str(out), "--db", str(other)])
    assert "0 matches imported, 1 already here" in second.output
    csv_out = CliRunner().invoke(main, ["export", "Club", "-", "--csv", "--db", str(live)])
    assert csv_out.output.startswith("group,night,match,")
    assert CliRunner().invoke(main, ["export", "Nobody", "-", "--db", str(live)]).exit_code == 2


def test_import_a_single_transcript_and_hostile_files(tmp_path):
    path = tmp_path / "x.sqlite"
    ok = CliRunner().invoke(main, ["import", str(EXAMPLES / "flag-at-reveal.json"), "--group", "Club",
                                   "--night", "2026-11-30", "--db", str(path)])
    assert ok.exit_code == 0 and "(group Club)" in ok.output
    bad_night = CliRunner().invoke(main, ["import", str(EXAMPLES / "flag-at-reveal.json"), "--group", "Club",
                                          "--night", "someday", "--db", str(path)])
    assert bad_night.exit_code == 2 and "night:" in bad_night.output
    hostile = tmp_path / "hostile.json"
    hostile.write_bytes(b'{"format": "referee-group/1", "group": {"name": "G"}, "profiles": [{"id": true}]}')
    result = CliRunner().invoke(main, ["import", str(hostile), "--db", str(path)])
    assert result.exit_code == 2 and "profiles[0].id" in result.output and "Traceback" not in result.output


def test_restore_exits_2_while_referee_serve_runs_on_the_database(tmp_path):
    """A real `referee serve` on the database: `referee restore` refuses it, saying so, and leaves it be."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from tests.web.test_cli import free_port

    live, copy = tmp_path / "live.sqlite", tmp_path / "copy.sqlite"
    _club(live)
    assert CliRunner().invoke(main, ["backup", str(copy), "--db", str(live)]).exit_code == 0
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_INSTANCE": str(tmp_path / "instance")}
    server = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--db", str(live), "--no-qr"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, cwd=tmp_path, env=env)
    try:
        for line in server.stdout:
            if "Ctrl+C" in line:
                break
        for _ in range(100):  # until it answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
                break
            except OSError:
                import time
                time.sleep(0.1)
        result = subprocess.run([sys.executable, "-m", "referee", "restore", str(copy), "--db", str(live), "--yes"],
                                capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "`referee serve` is using this database" in result.stderr and "Traceback" not in result.stderr
        assert not list(tmp_path.glob("*.before-restore-*"))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()
    result = CliRunner().invoke(main, ["restore", str(copy), "--db", str(live), "--yes"])  # stopped: restored
    assert result.exit_code == 0, result.output
