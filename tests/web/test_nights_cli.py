"""The command line of game nights: backup and restore, export and import; a file that cannot be used
exits with status 2 and the reason, never a traceback."""
from __future__ import annotations

import json

import pytest

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
    assert result.exit_code == 0 and ": 1 match, " in result.output and "1 matches" not in result.output  # one match
    result = CliRunner().invoke(main, ["restore", str(copy), "--db", str(tmp_path / "fresh.sqlite"), "--yes"])
    assert result.exit_code == 0 and ": 1 match, " in result.output, result.output
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    result = CliRunner().invoke(main, ["restore", str(junk), "--db", str(live), "--yes"])
    assert result.exit_code == 2 and "not an SQLite database" in result.output
    assert "Traceback" not in result.output


def test_export_and_import_commands(tmp_path):
    live, other = tmp_path / "live.sqlite", tmp_path / "other.sqlite"
    _club(live)
    out = tmp_path / "club.json"
    exported = CliRunner().invoke(main, ["export", "club", str(out), "--db", str(live)])
    assert exported.exit_code == 0 and f"Wrote the history of Club to {out}." in exported.output  # said, as backup is
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


# --- A transcript edited after its match was imported (each failed before its fix) ---------------------------


def _groups_and_matches(path):
    database = dbmod.connect(path)
    try:
        groups = [row[0] for row in database.execute("SELECT name FROM groups ORDER BY id").fetchall()]
        matches = database.execute("SELECT m.id, g.name, m.players FROM matches m LEFT JOIN groups g"
                                   " ON g.id = m.group_id").fetchall()
        return groups, [(i, g, json.loads(p)) for i, g, p in matches]
    finally:
        database.close()


def _imported_into_night_crew(tmp_path):
    from tests.web.nights_helpers import renamed

    path = tmp_path / "r.sqlite"
    doc = {**example("flag-at-reveal"), "match": "abcd2345", "date": "2026-11-29"}
    original = tmp_path / "match.json"
    original.write_text(json.dumps(doc))
    first = CliRunner().invoke(main, ["import", str(original), "--group", "Night Crew", "--db", str(path)])
    assert first.exit_code == 0 and "1 match imported (group Night Crew)" in first.output, first.output
    return path, doc, original, renamed


def test_an_edited_transcript_of_a_match_here_is_refused_saying_what_differs(tmp_path):
    path, doc, _, renamed = _imported_into_night_crew(tmp_path)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(renamed(doc, {"Ana": "Zoe", "Ben": "Yan"})))
    result = CliRunner().invoke(main, ["import", str(edited), "--group", "Fam", "--db", str(path)])
    assert result.exit_code == 2, result.output
    assert (f"{edited}: match abcd2345 is already here with other players (Ana, Ben); it was not changed"
            in result.output), result.output
    assert "already here (group Fam)" not in result.output and "Traceback" not in result.output
    # nothing changed, and no empty group "Fam" left behind
    assert _groups_and_matches(path) == (["Night Crew"], [("abcd2345", "Night Crew", ["Ana", "Ben"])])


@pytest.mark.parametrize("change, words", [
    (lambda d: {**d, "rules": {**d.get("rules", {}), "dealer_rotation": "fixed"}}, "with other house rules"),
    (lambda d: {**d, "date": "2026-12-24"}, "with another date (2026-11-29)"),
    (lambda d: {**d, "entries": [{**e, "card": "9"} if e == {"seat": "Ben", "move": "discard", "card": "8"} else e
                                 for e in d["entries"]]}, "with other entries (entry 5 differs)"),  # from 0
])
def test_other_rules_a_date_or_entries_are_refused_too(tmp_path, change, words):
    path, doc, _, _ = _imported_into_night_crew(tmp_path)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(change(doc)))
    result = CliRunner().invoke(main, ["import", str(edited), "--group", "Fam", "--db", str(path)])
    assert result.exit_code == 2 and "match abcd2345 is already here " + words in result.output, result.output
    assert _groups_and_matches(path)[0] == ["Night Crew"]


def test_the_same_transcript_again_says_which_group_it_is_in_and_makes_no_group(tmp_path):
    path, _, original, _ = _imported_into_night_crew(tmp_path)
    result = CliRunner().invoke(main, ["import", str(original), "--group", "Fam", "--db", str(path)])
    assert result.exit_code == 0
    assert result.output.strip() == "0 matches imported, 1 already here, in Night Crew."
    assert _groups_and_matches(path)[0] == ["Night Crew"]
    plain = CliRunner().invoke(main, ["import", str(original), "--db", str(path)])  # no group named
    assert plain.output.strip() == "0 matches imported, 1 already here, in Night Crew."


def test_an_export_with_one_match_edited_imports_the_others_and_says_which_was_refused(tmp_path):
    live, other = tmp_path / "live.sqlite", tmp_path / "other.sqlite"
    _club(live)
    database = dbmod.connect(live)
    try:
        play(database, example("three-rounds"), people.find_or_create_group(database, "Club").id)
    finally:
        database.close()
    out = tmp_path / "club.json"
    assert CliRunner().invoke(main, ["export", "Club", str(out), "--db", str(live)]).exit_code == 0
    data = json.loads(out.read_text())
    first = data["matches"][0]["transcript"]
    one = tmp_path / "one.json"
    one.write_text(json.dumps({**data, "matches": data["matches"][:1]}))
    assert CliRunner().invoke(main, ["import", str(one), "--db", str(other)]).exit_code == 0
    first["players"] = [p + "x" for p in first["players"]]
    for entry in first["entries"]:
        if isinstance(entry.get("seat"), str):
            entry["seat"] += "x"
    if isinstance(first.get("dealer"), str):
        first["dealer"] += "x"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["import", str(edited), "--db", str(other)])
    assert result.exit_code == 0, result.output  # the other match came in
    assert "matches[0].transcript" not in result.output  # said by its id, in words
    assert f"match {first['match']} is already here with other players" in result.output
    assert "1 match imported (group Club), 0 already here." in result.output
    # and the same file again: nothing comes in, the edited match is still refused, the other is here
    again = CliRunner().invoke(main, ["import", str(edited), "--db", str(other)])
    assert again.exit_code == 2 and f"match {first['match']} is already here with other players" in again.output
    assert "0 matches imported, 1 already here, in Club." in again.output


def test_a_group_export_imported_again_into_its_own_database_is_the_same(tmp_path):
    """Its matches' transcripts leave out what only one seat saw in a round still being played (GEN-6): the
    same matches all the same, not "other entries"."""
    live = tmp_path / "live.sqlite"
    _club(live)
    database = dbmod.connect(live)
    try:
        play(database, example("tie"), people.find_or_create_group(database, "Club").id)  # not finished
    finally:
        database.close()
    out = tmp_path / "club.json"
    assert CliRunner().invoke(main, ["export", "Club", str(out), "--db", str(live)]).exit_code == 0
    result = CliRunner().invoke(main, ["import", str(out), "--db", str(live)])
    assert result.exit_code == 0 and result.output.strip() == "0 matches imported, 2 already here, in Club."


def test_a_night_without_a_group_is_refused_not_dropped(tmp_path):
    """A night is a group's evening: `--night` alone once imported the match with no night, saying nothing."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "flag-at-reveal.json"
    db = tmp_path / "db.sqlite"
    result = CliRunner().invoke(main, ["import", str(example), "--night", "2026-11-27", "--db", str(db)])
    assert result.exit_code == 2 and "--night needs --group" in result.output
    assert not db.exists()
