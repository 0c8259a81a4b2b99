"""Transcripts: validation with the field at fault, replay with rulings, and the documented examples."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.transcript import TranscriptError, check, dumps, loads

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "transcripts.md"
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


def minimal(**overrides):
    doc = {"format": "referee-transcript/1", "game": "ratatat", "players": ["Ana", "Ben"],
           "entries": [{"move": "turn_up", "card": "5"}]}
    doc.update(overrides)
    return json.dumps(doc)


def documented_examples():
    """(path, transcript block, report block) for every example in docs/transcripts.md."""
    text = DOC.read_text()
    pattern = re.compile(r"`(docs/examples/[\w-]+\.json)`:\n\n```json\n(.*?)\n```\n\n"
                         r"`referee check \1 --json`:\n\n```json\n(.*?)\n```", re.S)
    return pattern.findall(text)


def test_every_example_file_is_documented():
    documented = {path for path, _, _ in documented_examples()}
    assert documented == {f"docs/examples/{p.name}" for p in EXAMPLES}
    assert len(documented) >= 7


@pytest.mark.parametrize("path,block,report", documented_examples(), ids=lambda v: str(v)[:40])
def test_documented_example_gives_the_documented_report(path, block, report):
    assert json.loads(block) == json.loads((ROOT / path).read_text())
    _, _, actual = check(loads(block))
    assert actual == json.loads(report)


def test_rejected_entries_are_reported_and_skipped():
    _, steps, report = check(loads((ROOT / "docs/examples/rejected-entry.json").read_text()))
    rejected = [(r["event"], r["rule"]) for r in report["rulings"] if r["verdict"] == "reject"]
    assert rejected == [(5, "RTC-34"), (8, "RTC-12")]
    assert [s.position for s in steps if not s.accepted] == [5, 8]
    assert report["result"]["over"] and not report["ok"]


@pytest.mark.parametrize("text,where", [
    ("{not json", "line 1 column 2"),
    ("[]", "(top level)"),
    (minimal(game="chess"), "game"),
    (minimal(format="pgn"), "format"),
    (minimal(players="Ana"), "players"),
    (minimal(players=["Ana"]), "players"),
    (minimal(players=["Ana", "ana"]), "players"),
    (minimal(rules={"tie_policy": "coin_toss"}), "rules.tie_policy"),
    (minimal(rules={"no_such_rule": 1}), "rules.no_such_rule"),
    (minimal(rules={"rounds_n": 0}), "rules.rounds_n"),
    (minimal(entries={}), "entries"),
    (minimal(entries=[{"move": "fly"}]), "entries[0].move"),
    (minimal(entries=[5]), "entries[0]"),
    (minimal(entries=[{"move": "draw"}]), "entries[0].seat"),
    (minimal(entries=[{"move": "draw", "seat": "Zed"}]), "entries[0].seat"),
    (minimal(entries=[{"move": "draw", "seat": 7}]), "entries[0].seat"),
    (minimal(entries=[{"move": "replace", "seat": "Ana", "slot": 5}]), "entries[0].slot"),
    (minimal(entries=[{"move": "turn_up", "card": "11"}]), "entries[0].card"),
    (minimal(entries=[{"move": "turn_up", "card": "5", "colour": "red"}]), "entries[0].colour"),
    (minimal(entries=[{"move": "reveal", "seat": "Ana", "cards": "1234"}]), "entries[0].cards"),
    (minimal(entries=[{"move": "override", "rule": "GEN-3", "entry": {"move": "x"}}]), "entries[0].entry.move"),
    (minimal(surprise=1), "surprise"),
    (minimal(dealer="Zed"), "dealer"),
])
def test_invalid_transcripts_name_the_field_at_fault(text, where):
    with pytest.raises(TranscriptError) as info:
        loads(text)
    assert info.value.where == where


def test_dumps_round_trips_through_loads():
    text = dumps("ratatat", ("Ana", "Ben"), {"rounds_n": 2}, "Ben",
                 [{"move": "turn_up", "card": "5"}, {"seat": "Ana", "move": "draw"}], title="Friday")
    transcript = loads(text)
    assert transcript.players == ("Ana", "Ben") and len(transcript.moves) == 2
    assert transcript.meta == {"title": "Friday"}


@pytest.mark.parametrize("game, dealer", [("ratatat", "Cy"), ("cabo", "Cy"), ("shithead", "Ana")])
def test_dumps_names_the_dealer_of_a_match_dealt_by_the_default_dealer(game, dealer):
    """A transcript always says who dealt the first game (it named only a rematch's dealer); one written
    without the field still loads, dealt by the game's default dealer."""
    text = dumps(game, ("Ana", "Ben", "Cy"), {}, None, [])
    assert json.loads(text)["dealer"] == dealer
    assert loads(text).dealer == dealer and loads(text).start() == loads(text.replace(f'"dealer": "{dealer}"',
                                                                                     '"note": "old"')).start()
    assert json.loads(dumps(game, ("Ana", "Ben", "Cy"), {}, "Ben", []))["dealer"] == "Ben"
    old = {k: v for k, v in json.loads(text).items() if k != "dealer"}
    assert loads(json.dumps(old)).dealer is None


def test_a_game_whose_deal_nobody_makes_names_no_dealer():
    """Spite & Malice: the pay-off tops decide who starts (SM-7), so who dealt is not part of the match."""
    assert "dealer" not in json.loads(dumps("spite_malice", ("Ann", "Bob"), {}, None, []))


CORRECTED_THEN_UNDONE = {
    "format": "referee-transcript/1", "game": "cabo", "players": ["Ana", "Ben"], "rules": {},
    "entries": [{"card": "4", "move": "turn_up"}, {"card": "3", "move": "draw", "seat": "Ana"},
                {"move": "replace", "out": "6", "seat": "Ana", "slot": 1}, {"move": "draw", "seat": "Ben"},
                {"card": "8", "move": "discard", "seat": "Ben"},
                {"entry": {"move": "call", "seat": "Ana"}, "move": "correct", "reason": "she called", "seat": "Ana",
                 "target": 1},
                {"move": "undo", "seat": "Ana"}]}


def test_GEN_13_a_correction_taken_back_by_an_undo_sets_nothing_aside_in_the_report():
    """The correction of entry 1 set entry 2 aside (CAB-3); the undo right after took the correction back,
    so entry 2 stands again and the report has no ruling, as the history says (both ways of checking)."""
    import io

    from referee.transcript import check_stream

    text = json.dumps(CORRECTED_THEN_UNDONE)
    _, _, report = check(loads(text))
    assert report["rulings"] == [] and report["ok"]
    checked = check_stream(text, io.StringIO())
    assert (list(checked.rulings), checked.count) == ([], 0)
    kept = json.loads(text)
    kept["entries"].pop()  # without the undo the set-aside is a ruling
    _, _, report = check(loads(json.dumps(kept)))
    assert [(r["event"], r["rule"]) for r in report["rulings"]] == [(5, "CAB-3")]
    checked = check_stream(json.dumps(kept), io.StringIO())
    assert [(r["event"], r["rule"]) for r in checked.rulings] == [(5, "CAB-3")] and checked.count == 1
