"""Every rule the engine can cite has its plain sentence."""
from __future__ import annotations

import re
from pathlib import Path

from referee.games.rulebook import RULES, rule_text

ENGINE = Path(__file__).resolve().parents[2] / "referee" / "games"


def test_every_rule_cited_by_the_engine_is_stated():
    cited = set()
    for module in [*ENGINE.glob("ratatat*.py"), ENGINE / "log.py"]:
        cited |= set(re.findall(r'"((?:RTC|GEN)-\d+)"', module.read_text()))
    missing = sorted(cited - set(RULES))
    assert not missing, missing
    assert rule_text("RTC-34").startswith("Draw 2") and rule_text("XYZ-1") == ""
