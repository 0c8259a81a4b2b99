"""The rule book in plain words: every rule the engine can cite has a sentence, and an anchor on the page."""

from __future__ import annotations

import re
from pathlib import Path

from referee.games import GAMES
from referee.games.rulebook import BOOKS, GENERAL, RULES, describe_switch, game_of, rule_text
from referee.games.ratatat_rules import NUMBER_WORDS, VARIANTS, WORDS

GAMES_DIR = Path(__file__).resolve().parents[2] / "referee" / "games"
# Every rule ID of RULES.md §0.3, §1 and §5 (its rules, ambiguities, knowledge checks, switches).
RULES_MD_IDS = (
    [f"GEN-{n}" for n in (*range(1, 8), *range(10, 15))]
    + [f"RTC-{n}" for n in (*range(1, 10), *range(10, 21), *range(30, 39), *range(40, 47), *range(50, 56))]
    + [f"RTC-A{n}" for n in range(1, 17)] + [f"RTC-K{n}" for n in range(1, 13)]
    + [f"RTC-V{n}" for n in range(1, 21)]
)


def cited_by_the_engine() -> set[str]:
    """Every rule ID written in the engine's modules (rulings, checks, refusals, flags, messages)."""
    cited: set[str] = set()
    for module in GAMES_DIR.glob("*.py"):
        if module.name != "rulebook.py":
            cited |= set(re.findall(r"\b((?:RTC|GEN)-[AKV]?\d+)\b", module.read_text()))
    return cited


def test_every_rule_the_engine_cites_has_a_sentence():
    cited = cited_by_the_engine()
    assert {"RTC-34", "GEN-7", "GEN-13", "RTC-V5"} <= cited  # the scan finds them
    missing = sorted(rule_id for rule_id in cited if not rule_text(rule_id))
    assert not missing, missing


def test_every_rule_of_the_rule_book_has_one_or_two_plain_sentences():
    for rule_id in RULES_MD_IDS:
        text = rule_text(rule_id)
        assert text, rule_id
        assert 1 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 3, (rule_id, text)
        assert "_" not in text and "`" not in text, (rule_id, text)  # no config keys or code
    assert rule_text("RTC-34").startswith("Draw 2") and rule_text("XYZ-1") == ""


def test_sections_follow_the_rule_book_order_and_ids_are_unique():
    ids = [rule_id for book in (GENERAL, *BOOKS.values()) for s in book for rule_id, _ in s.rules]
    assert len(ids) == len(set(ids))
    titles = [s.title for s in BOOKS["ratatat"]]
    assert titles[:5] == ["Setting up", "A turn", "Power cards", "Calling and the end of a round",
                          "Scoring and the end of the match"]
    ratatat = {rule_id for book in (GENERAL, BOOKS["ratatat"]) for s in book for rule_id, _ in s.rules}
    assert ratatat | {v.rule for v in VARIANTS} == set(RULES_MD_IDS)
    assert set(RULES) == set(ids) | {v.rule for game in GAMES.values() for v in game.VARIANTS}


def test_every_house_rule_choice_is_in_words():
    for v in VARIANTS:
        values = v.choices or (v.default, v.minimum or 1, 7)
        for value in values:
            words = describe_switch(v, value)
            assert words and words not in ("True", "False", "None") and "_" not in words, (v.key, value)
        if not v.choices:
            assert v.key in NUMBER_WORDS
        else:
            assert set(WORDS[v.key]) == set(v.choices), v.key
    tie = VARIANTS[0]
    assert describe_switch(tie, "all_lowest") == "everyone on the lowest score wins the round"
    rounds = next(v for v in VARIANTS if v.key == "rounds_n")
    assert (describe_switch(rounds, 1), describe_switch(rounds, 5)) == ("1 round", "5 rounds")


def test_rules_are_found_on_their_games_page():
    assert game_of("RTC-34") == "ratatat" and game_of("GEN-3") == "ratatat"
