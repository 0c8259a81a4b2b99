"""``referee check --lang`` (referee/i18n_report.py): the text report's words in Hebrew or Italian, each
ruling, round and result said in that language and each ruling followed by its rule's sentence; English and
the JSON report unchanged."""
from __future__ import annotations

import json
import re
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
    assert lines[0].startswith("רישום 5: נדחה RTC-34: ") and "Draw 2 is over" not in lines[0]  # said in Hebrew
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


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["he", "it"])
def test_no_english_sentence_is_left_in_a_translated_report(path, lang):
    """Rulings, rounds, each game's result and the match's: all in the chosen language (names, rule IDs,
    card codes and numbers stay as they are)."""
    for line in run(str(path), "--lang", lang).splitlines():
        assert not re.search(r"\b(the|and|wins?|game|round|entry|totals|tally|points?|is|are|not|cards?)\b", line), line


def test_a_spite_and_malice_game_that_ran_out_of_stock_reports_in_italian_and_hebrew():
    stock_out = str(ROOT / "docs/examples/spite-malice-stock-out.json")
    lines = run(stock_out, "--lang", "it").splitlines()
    assert "partita 1: il mazzo finisce (SM-41); Ann ha meno carte nel mazzo personale e vince, 2 punti; carte " \
           "rimaste nei mazzi personali: Ann 24, Bob 26." in lines
    assert "totali: Ann 2, Bob 0" in lines
    assert lines[-2].startswith("Il mazzo non può dare a Ann le 5 carte dovute (ne ha 2): ")
    lines = run(stock_out, "--lang", "he").splitlines()
    assert lines[-4].startswith("משחק 1: הקופה נגמרת (SM-41); ל־Ann נשארו הכי מעט קלפים בערימה האישית")


def test_a_shithead_evening_reports_each_game_and_the_tally_in_hebrew():
    from referee.i18n_report import text_lines

    res = {"rounds": [{"number": 1, "order": ["Ben", "Cy"], "shithead": "Ana", "winner": None},
                      {"number": 2, "order": ["Ana"], "shithead": None, "winner": "Ana"}],
           "totals": {"Ana": 1, "Ben": 0, "Cy": 0}, "house_rules": {"end_mode": "last_is_loser"},
           "over": True, "outcome": "Ana is the Shithead. Finishing order: Ben, Cy."}
    lines = list(text_lines(iter(()), 0, res, 30, 30, "shithead", "he"))
    assert lines[:4] == ["משחק 1: Ana הוא/היא השיטהד (SH-51); סדר הסיום: Ben, Cy.",
                         "משחק 2: Ana יוצא/ת ראשון/ה ומנצח/ת (SH-52).",
                         "נקודות שיטהד (נקודה לכל משחק שהפסידו בו, הכי מעט עדיף): Ana 1, Ben 0, Cy 0",
                         "Ana הוא/היא השיטהד. סדר הסיום: Ben, Cy."]


def test_a_dismissed_dispute_is_said_as_the_table_screen_says_it(tmp_path):
    """The engine records a dismissed dispute as "overridden": the report says "dismissed" (Italian "Respinta",
    as the screen's Dismiss), never the bare English status on a translated report."""
    example = json.loads((ROOT / "docs/examples/flag-at-reveal.json").read_text())
    for item in example["entries"]:
        if item["move"] == "resolve_flag":
            item["decision"] = "override"
    path = tmp_path / "dismissed.json"
    path.write_text(json.dumps(example))
    assert run(str(path)).splitlines()[0].endswith("[dismissed]")
    first = run(str(path), "--lang", "it").splitlines()[0]
    assert first.endswith("[Respinta]") and "overridden" not in first
