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
    (b'{"format": "referee-group/1", "group": {"name": "Club"}, "matches": []}',
     "format: this is a group's whole history (referee-group/1), not one match's transcript: bring it in with "
     "`referee import`"),
])
def test_bad_files_exit_2_with_the_place_at_fault(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 2
    assert message in result.output


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Some editors save UTF-8 with a BOM; the import on the web reads such a file, and so does check."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (ROOT / "docs/examples/tie.json").read_bytes())
    result = CliRunner().invoke(check_command, [str(path), "--json"])
    assert result.exit_code == 0 and json.loads(result.output.strip().splitlines()[-1])["ok"] is not None


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


def _doc(**overrides) -> dict:
    doc = {"game": "ratatat", "players": ["Ana", "Ben"], "entries": [{"move": "turn_up", "card": "5"}]}
    doc.update(overrides)
    return doc


def _override_chain(depth: int) -> dict:
    entry = {"move": "draw", "seat": "Ben"}
    for _ in range(depth):
        entry = {"move": "override", "rule": "GEN-7", "entry": entry}
    return entry


@pytest.mark.parametrize("content,where", [
    ('{"game": "ratatat", "entries": [' + "[" * 100_000 + "]" * 100_000 + "]}", "entries[0]"),
    ("[" * 100_000 + "]" * 100_000, "(top level)"),
    ('{"game": ' + "[" * 100_000 + "]" * 100_000 + "}", "game"),
    (json.dumps(_doc(entries=[_override_chain(500)])), "entries[0].entry.entry.entry"),
    ('{"game": "ratatat", "players": ["Ana", "Ben"], "entries": [{"move": "turn_up", "card": '
     + "7" * 5000 + "}]}", "entries[0]"),
    (json.dumps(_doc(entries=[{"move": "correct", "target": 10 ** 300, "entry": {"move": "turn_up", "card": "5"}}])),
     "entries[0].target"),
    (json.dumps(_doc(game=[])), "game"),
    (json.dumps(_doc(game={"a": 1})), "game"),
    (json.dumps(_doc(players=[1, 2])), "players"),
    (json.dumps(_doc(players=["Ana", None])), "players"),
    (json.dumps(_doc(players=["Ana", "Ben\nentry 0: REJECT X"])), "players[1]"),
    (json.dumps(_doc(players=["Ana", "ANA"])), "players"),
    (json.dumps(_doc(players=["Ana"] * 100_000)), "players"),
    (json.dumps(_doc(rules=[])), "rules"),
    (json.dumps(_doc(rules={"rounds_n": 10 ** 100})), "rules.rounds_n"),
    (json.dumps(_doc(rules={"rounds_n": [[[]]]})), "rules.rounds_n"),
    (json.dumps(_doc(dealer={"x": [1]})), "dealer"),
    (json.dumps(_doc(entries=[{"move": "draw", "seat": "Ana", "note": "x" * 1000}])), "entries[0].note"),
    ('{"game": "ratatat", "players": ["Ana", "Ben"], "entries": [1 2]}', "line 1 column 62"),
    ('{"game": "ratatat"} trailing', "line 1 column 21"),
    ('{"game": "ratatat", "players": ["Ana", "Ben"], "entries": NaN}', "entries"),
])
def test_hostile_files_exit_2_naming_the_field(tmp_path, content, where):
    path = tmp_path / "hostile.json"
    path.write_text(content)
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    first = result.output.strip().splitlines()
    assert len(first) == 1 and first[0].startswith(f"{path}: {where}: "), result.output
    assert len(first[0]) < 400


def test_names_and_messages_cannot_forge_a_line_of_the_report(tmp_path):
    path = tmp_path / "names.json"
    path.write_text(json.dumps(_doc(players=["Ana", "Ben"], entries=[
        {"move": "turn_up", "card": "5"},
        {"move": "override", "rule": "GEN-7", "seat": "Ana", "reason": "ok\nentry 9: REJECT RTC-1: forged\x1b[2J",
         "entry": {"move": "draw", "seat": "Ben"}}])))
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert not any(line.startswith("entry 9") for line in lines) and "\x1b" not in result.output
    assert "ok\\nentry 9: REJECT RTC-1: forged\\x1b[2J]" in lines[0]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_streamed_report_is_the_report(path):
    from referee.transcript import check, loads
    result = CliRunner().invoke(check_command, [str(path), "--json"])
    assert json.loads(result.output) == check(loads(path.read_text()))[2]


def test_check_text_of_a_rat_a_tat_cat_match_is_rounds_scores_and_totals():
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/rejected-entry.json")])
    assert result.output.splitlines()[2:] == [
        "round 1: Ana 9, Ben 16 — Ana has the lowest score, 9, and wins the round (RTC-51).",
        "totals: Ana 9, Ben 16",
        "Ana wins the match with 9 (lowest total after 1 round, RTC-53).",
        "16 entries, 14 accepted, 2 refused; 2 rulings",
    ]


def test_check_text_of_an_unfinished_shithead_game_has_no_scores():
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/shithead-facedown.json")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "entry 27: REJECT SH-K4: The table knows every card in Ari's hand (2♦ 6♣ A♣ K♣ K♥ Q♥): "
        "5♣ is not among them. Table cards wait until the hand is empty (SH-20).",
        "match not finished",
        "29 entries, 28 accepted, 1 refused; 1 ruling",
    ]


def test_check_text_of_a_finished_shithead_game_says_who_went_out(tmp_path):
    """A finished Shithead game has a finishing order, not scores (RULES.md §4.7): the report says it
    in words (first_out_wins: the face-down example played on until Ari turns over her last card)."""
    doc = json.loads((ROOT / "docs/examples/shithead-facedown.json").read_text())
    doc["rules"] = {"end_mode": "first_out_wins"}
    doc["entries"] = doc["entries"][:18] + [
        {"seat": seat, "move": "play", "cards": [card]} for seat, card in [
            ("Bea", "AC"), ("Cal", "2D"), ("Dov", "4D"), ("Eve", "7D"), ("Ari", "10D"), ("Ari", "5C"),
            ("Bea", "6C"), ("Cal", "QH"), ("Dov", "KH"), ("Eve", "QD"), ("Ari", "2S")]]
    path = tmp_path / "shithead.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "game 1: Ari goes out first and wins (SH-52).",
        "tally (a point for each game won, most is best): Ari 1, Bea 0, Cal 0, Dov 0, Eve 0",
        "Ari goes out first and wins (SH-52).",
        "29 entries, 29 accepted, 0 refused; no rulings",
    ]


def test_shithead_text_names_each_game_s_shithead_and_the_tally():
    """§4.12 H1 and H2: each game's Shithead and finishing order, then the tally (fewest is best)."""
    from referee.transcript import text_lines
    res = {"house_rules": {"games": 2},
           "rounds": [{"number": 1, "order": ["Bea", "Dov", "Ari"], "shithead": "Cal", "winner": None},
                      {"number": 2, "order": ["Bea", "Cal", "Dov"], "shithead": "Ari", "winner": None}],
           "totals": {"Ari": 1, "Bea": 0, "Cal": 1, "Dov": 0}, "standings": [], "over": True,
           "winners": ["Bea", "Dov"], "outcome": "Ari is the Shithead. Finishing order: Bea, Cal, Dov."}
    assert list(text_lines(iter([]), 0, res, 40, 40, "shithead"))[:3] == [
        "game 1: Cal is the Shithead (SH-51); finishing order: Bea, Dov, Ari.",
        "game 2: Ari is the Shithead (SH-51); finishing order: Bea, Cal, Dov.",
        "Shithead tally (a point for each game lost, fewest is best): Ari 1, Bea 0, Cal 1, Dov 0",
    ]


def test_check_text_of_a_spite_malice_game_says_how_it_ended_and_the_points():
    """Spite & Malice has games, not rounds: the stock running out (SM-41, S2) with the pay-off cards
    left and the points (SM-V15 difference), then the totals."""
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/spite-malice-stock-out.json")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "game 1: the stock runs out (SM-41); Ann has the fewest pay-off cards left and wins, 2 points; "
        "pay-off cards left: Ann 24, Bob 26.",
        "totals: Ann 2, Bob 0",
        "The stock cannot give Ann the 5 cards owed (it holds 2): Ann has the fewest pay-off cards left "
        "(Ann 24, Bob 26) and wins, 2 points.",
        "60 entries, 60 accepted, 0 refused; no rulings",
    ]


def test_check_text_of_an_unfinished_spite_malice_match_has_its_rulings_and_no_scores():
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/spite-malice-side-stack.json")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "entry 10: REJECT SM-19: A pay-off card goes only onto a building pile, never onto a side stack.",
        "entry 11: REJECT SM-19: Cards never move from one side stack to another: only a hand card goes onto "
        "a side stack.",
        "match not finished",
        "14 entries, 12 accepted, 2 refused; 2 rulings",
    ]


def test_spite_malice_text_names_each_game_s_end():
    """SM-40 with points (S1), a stock-exhaustion win with none (SM-V15), equal piles and SM-V6's draw;
    no points at all under scoring none."""
    from referee.transcript import text_lines

    def game(number, winner, how, left, points):
        return {"number": number, "winner": winner, "how": how, "payoff_left": dict(zip(("Ann", "Bob"), left)),
                "points": points, "scores": {}}

    res = {"house_rules": {"stock_exhaustion": "fewest_payoff_wins"}, "totals": {"Ann": 12, "Bob": 0},
           "rounds": [game(1, "Ann", "payoff", (0, 7), 12), game(2, "Bob", "exhaustion", (5, 3), 0),
                      game(3, None, "exhaustion", (4, 4), 0)],
           "standings": [], "over": False, "winners": [], "outcome": ""}
    assert list(text_lines(iter([]), 0, res, 90, 90, "spite_malice")) == [
        "game 1: Ann builds the last pay-off card and wins (SM-40), 12 points; pay-off cards left: Ann 0, Bob 7.",
        "game 2: the stock runs out (SM-41); Bob has the fewest pay-off cards left and wins, no points (SM-V15); "
        "pay-off cards left: Ann 5, Bob 3.",
        "game 3: the stock runs out (SM-41); equal pay-off piles, the game is a draw; pay-off cards left: "
        "Ann 4, Bob 4.",
        "totals: Ann 12, Bob 0",
        "match not finished",
        "90 entries, 90 accepted, 0 refused; no rulings",
    ]
    res["house_rules"] = {"stock_exhaustion": "draw", "scoring": "none"}
    res["rounds"] = [game(1, None, "exhaustion", (3, 5), 0), game(2, "Ann", "payoff", (0, 7), 0)]
    assert list(text_lines(iter([]), 0, res, 90, 90, "spite_malice"))[:2] == [
        "game 1: the stock runs out (SM-41); the game is a draw (SM-V6); pay-off cards left: Ann 3, Bob 5.",
        "game 2: Ann builds the last pay-off card and wins (SM-40); pay-off cards left: Ann 0, Bob 7.",
    ]


def test_check_text_of_a_cabo_match_says_each_round_s_scores_and_why():
    """Cabo, 2nd edition (RULES.md §2.6 C2–C4): the caller's +10, Kamikaze, exactly 100 → 50 and the end
    over 100, each round's scores with the rule behind them, then the totals and the winner."""
    result = CliRunner().invoke(check_command, [str(ROOT / "docs/examples/cabo-scoring.json")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("round 1: Ana 18, Ben 5, Cy 20 — Ana called with 8, not the lowest sum (5), so "
                               "scores 8 + 10 = 18 (CAB-40).")
    assert "Kamikaze: Cy ended on 12, 12, 13 and 13" in lines[1] and "(CAB-42)" in lines[1]
    assert lines[2].endswith("Ana reached exactly 100 and drops to 50 (CAB-43).")
    assert lines[4:] == ["totals: Ana 56, Ben 105, Cy 49",
                         "Cy wins the match with 49 (Ben went over 100 and the lowest total wins, CAB-43).",
                         "38 entries, 38 accepted, 0 refused; no rulings"]
