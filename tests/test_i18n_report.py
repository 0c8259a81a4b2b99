"""``referee check --lang`` (referee/i18n_report.py): the text report's words in Hebrew or Italian, each
ruling followed by its rule's sentence in that language; English and the JSON report unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.i18n_report import rule_sentence
from referee.transcript_cli import check_command

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
REJECTED = str(ROOT / "docs/examples/rejected-entry.json")


def run(*args: str):
    result = CliRunner().invoke(check_command, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_english_is_the_default_and_unchanged():
    assert run(REJECTED) == run(REJECTED, "--lang", "en")


def test_the_hebrew_report_names_each_rule_and_states_it_in_hebrew():
    lines = run(REJECTED, "--lang", "he").splitlines()
    assert lines[0].startswith("רישום 5: נדחה RTC-34: Ana's Draw 2 is over")  # the ruling as recorded
    assert lines[1] == "    RTC-34: " + rule_sentence("RTC-34", "he")
    assert lines[1].startswith("    RTC-34: משוך 2:")
    assert "סה״כ: Ana 9, Ben 16" in lines
    assert lines[-1] == "16 רישומים, 14 התקבלו, 2 נדחו; שתי פסיקות"


def test_the_italian_report_says_its_counts_with_italian_plurals():
    lines = run(str(ROOT / "docs/examples/shithead-burn-four.json"), "--lang", "it").splitlines()
    assert lines[0].startswith("registrazione 8: RIFIUTATA GEN-7: ")
    assert lines[1] == "    GEN-7: Si gioca in senso orario; ognuno agisce nel proprio turno."
    assert lines[-1].endswith("1 rifiutata; 1 decisione")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["he", "it"])
def test_every_example_reports_in_every_language_with_the_same_rulings(path, lang):
    english = run(str(path))
    translated = run(str(path), "--lang", lang)
    rules_en = [line.split(": ")[1].split()[-1] for line in english.splitlines() if line.startswith("entry ")]
    entry = {"he": "רישום ", "it": "registrazione "}[lang]
    rules = [line.split(": ")[1].split()[-1] for line in translated.splitlines() if line.startswith(entry)]
    assert rules == rules_en


def test_the_json_report_has_no_language():
    assert run(REJECTED, "--json") == run(REJECTED, "--json", "--lang", "he")
    assert json.loads(run(REJECTED, "--json", "--lang", "it"))["rulings"][0]["rule"] == "RTC-34"


def test_an_unknown_language_is_refused_by_the_command():
    result = CliRunner().invoke(check_command, [REJECTED, "--lang", "fr"])
    assert result.exit_code == 2 and "--lang" in result.output
