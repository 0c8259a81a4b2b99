"""Cabo / Cambio fulfils the game interface (referee/games/interface.py) before it is registered: random
complete matches of every preset through tests/games/test_conformance.py's ``play`` (entries offered by
``legal_moves``, through the phone's form and back, JSON round trips, replay equal to the live state, each
seat's view equal to the view after replaying its redacted log, every ruling naming a rule of the book),
and the rule book itself (every rule the engine cites has one to three plain sentences)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.games import cabo, ratatat
from referee.games.base import resolve_rules
from referee.games.interface import Game
from referee.games.rulebook import GENERAL, book

from .test_conformance import play

GAMES_DIR = Path(__file__).resolve().parents[2] / "referee" / "games"
PAGE = set(book(cabo))
# Every rule ID of RULES.md §2 (rules, switches, ambiguities, knowledge checks).
CAB_IDS = ([f"CAB-{n}" for n in (*range(1, 8), 20, 21, 22, *range(40, 46))] + [f"CAB-V{n}" for n in range(1, 15)]
           + [f"CAB-A{n}" for n in range(1, 7)] + [f"CAB-K{n}" for n in range(1, 6)])


def test_the_module_has_the_shape_of_a_game():
    assert isinstance(cabo, Game)
    assert (cabo.NAME, cabo.TITLE, cabo.TEMPLATES, cabo.ENGINE_VERSION) == ("cabo", "Cabo / Cambio", "cabo", 11)
    assert [p.key for p in cabo.PRESETS] == ["cabo_2e", "cabo_1e", "cambio_common"]
    for preset in cabo.PRESETS:
        assert preset.name and preset.description
        rules = resolve_rules(cabo.VARIANTS, dict(preset.rules))
        state = cabo.new_match(["Ana", "Ben"], rules)
        assert all(cabo.card_label(c) for c in cabo.cards(state))
    for v in cabo.VARIANTS:
        assert v.rule in PAGE and cabo.rule_text(v.rule), v.rule
        words = cabo.SWITCH_WORDS.get(v.key, {})
        assert set(words) == set(v.choices) if v.choices else v.key in cabo.NUMBER_WORDS, v.key
        assert v.key not in cabo.APPLIES_WHEN or cabo.APPLIES_WHEN[v.key][0] in {x.key for x in cabo.VARIANTS}


def test_rat_a_tat_cat_is_unchanged_by_the_family_core():
    # 2: the shared core no longer flags a private note that agrees with the public value (GEN-4, GEN-6);
    # 3: the round keeps its Swaps, so a first peek noted late lands on the dealt card (RTC-6, RTC-K4);
    # 4: a seat's notes on one card are one claim at the reveal; 5: a GEN-4 dispute says whose slot;
    # 6: a GEN-3 ruling points at the entries where the copies known were seen (GEN-13);
    # 7: a GEN-3 ruling says "1 is already known"; 8: a round tied by two says they "both" win (RTC-V1);
    # 9: a GEN-3 ruling names a power card as printed ("3 × Swap")
    assert ratatat.ENGINE_VERSION == 10 and ratatat.NAME == "ratatat"
    from referee.games.hidden4_entry import Entry
    from referee.games.ratatat_apply import _Turn
    from referee.games.cabo_apply import _Entry
    assert issubclass(_Turn, Entry) and issubclass(_Entry, Entry)
    assert _Turn.OVER_RULE == "RTC-52" and _Entry.OVER_RULE == "CAB-43"


def test_the_rule_book_covers_rules_md_and_every_rule_the_engine_cites():
    sentences = book(cabo)
    assert set(CAB_IDS) <= set(sentences)
    own = [rule for section in cabo.RULE_BOOK for rule, _ in section.rules]
    assert len(own) == len(set(own)) and all(rule.startswith("CAB-") for rule in own)
    assert not set(own) & {rule for s in (*GENERAL, *ratatat.RULE_BOOK) for rule, _ in s.rules}
    for rule in own:
        text = sentences[rule]
        assert 1 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 3, (rule, text)
        assert "_" not in text and "`" not in text, (rule, text)
    cited: set[str] = set()
    for module in GAMES_DIR.glob("cabo*.py"):
        cited |= set(re.findall(r"\b((?:CAB|GEN|RTC)-[AKV]?\d+)\b", module.read_text()))
    assert {"CAB-6", "CAB-21", "GEN-7", "CAB-V4"} <= cited
    for rule in cited:  # Rat-a-Tat Cat's IDs appear only where the family core is explained
        assert rule in PAGE if not rule.startswith("RTC-") else ratatat.rule_text(rule), rule


@pytest.mark.parametrize("preset", range(3), ids=["cabo_2e", "cabo_1e", "cambio_common"])
@pytest.mark.parametrize("n_players", (2, 3, 5))
def test_random_complete_matches_through_the_interface(preset, n_players):
    finished = 0
    for seed in range(3):
        state, entries = play(cabo, 1000 * preset + 10 * n_players + seed, n_players, preset, PAGE)
        finished += bool(state.over)
        assert entries > 10
    assert finished == 3
