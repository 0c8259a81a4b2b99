"""``referee check``: exit status, text and JSON output, on the documented examples and on bad files."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.transcript_cli import check_command

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_check_json_on_every_example(path):
    result = CliRunner().invoke(check_command, [str(path), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.output.strip().splitlines()[-1])
    assert set(report) == {"ok", "rulings", "result"}
    for ruling in report["rulings"]:
        assert ruling["verdict"] in ("reject", "flag") and ruling["rule"] and ruling["message"]
        assert isinstance(ruling["event"], int)


def test_check_text_names_rules_and_the_winner():
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/rejected-entry.json")])
    assert result.exit_code == 0
    assert "entry 5: REJECT RTC-34" in result.output and "entry 8: REJECT RTC-12" in result.output
    assert "Ana wins the match" in result.output


@pytest.mark.parametrize("content,message", [
    (b"{\"game\": ", "not valid JSON"),
    (b"", "not valid JSON"),
    (b"\xff\xfe\x00garbage", "not a text file"),
    (b'{"game": "ratatat", "players": ["Ana", "Ben"], "entries": [{"move": "replace", "seat": "Ana", '
     b'"slot": 9}]}', "entries[0].slot"),
])
def test_bad_files_exit_2_with_the_place_at_fault(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 2
    assert message in result.output


def test_missing_file_exits_2(tmp_path):
    result = CliRunner().invoke(check_command, [str(tmp_path / "nope.json")])
    assert result.exit_code == 2


def test_console_script_runs_check():
    """The installed ``referee`` command, in a real process."""
    path = ROOT / "docs/examples/tie.json"
    proc = subprocess.run([sys.executable, "-m", "referee", "check", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["result"]["rounds"][0]["winners"] == ["Dee"]


def test_check_text_lists_an_overridden_reject_with_who_and_why(tmp_path):
    path = tmp_path / "override.json"
    path.write_text(json.dumps({"game": "ratatat", "players": ["Ana", "Ben"], "entries": [
        {"move": "turn_up", "card": "5"},
        {"move": "override", "rule": "GEN-7", "reason": "Ana let him go first", "seat": "Ana",
         "entry": {"move": "draw", "seat": "Ben"}}]}))
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 0
    assert ("entry 1: REJECT GEN-7: It is Ana's turn, not Ben's. [overridden by Ana: Ana let him go first]"
            in result.output)
    result = CliRunner().invoke(check_command, [str(path), "--json"])
    ruling = json.loads(result.output)["rulings"][0]
    assert ruling["status"] == "overridden" and ruling["by"] == "Ana"
