"""What may go on the pile, as the status line says it and as refusals say it, is exactly what the engine
accepts (SH-12, SH-30..34; SH-V1 a plain 3, SH-V2 jokers, SH-V4 specials on anything, SH-V5 the 9 that
reverses, SH-V6 same suit after a 9, SH-V15 no 10 on a 7): every combination of those house rules, every
top of the pile, every card played through the engine."""
from __future__ import annotations

import itertools
import os
from dataclasses import replace
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import ARI, BEA, CAL, table  # noqa: E402

from referee.games import shithead as sh  # noqa: E402
from referee.games.base import Ruling  # noqa: E402
from referee.games.shithead_state import PileCard  # noqa: E402

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SIGNS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "J": 11, "Q": 12, "K": 13, "A": 14}


def _combos():
    for three, jokers, anytime, reverse, same, ten in itertools.product(
            (False, True), (False, True), (False, True), ("off", "strong", "normal"), (False, True),
            ("allowed", "blocked")):
        if reverse != "off" and same:
            continue  # SH-V6 cannot be combined with a 9 that reverses
        yield {"three_is_normal": three, "jokers": jokers, "specials_anytime": anytime, "nine_reverse": reverse,
               "nine_same_suit": same, "ten_after_seven": ten, "decks": 2}


def _tops(rules):
    """Piles to play on (bottom first): empty, each rank, a rank under a see-through 3, a joker named a 9."""
    yield ()
    for rank in RANKS:
        if rank != "10":  # a 10 burns the pile: it is never on top
            yield ((BEA, rank + "H"),)
    if not rules["three_is_normal"]:
        yield ((BEA, "8H"), (CAL, "3S"))
        yield ((BEA, "7D"), (CAL, "3S"))
        yield ((BEA, "9C"), (CAL, "3S"))
    if rules["jokers"]:
        yield "joker as 9"


def _natural(rank: str, rules) -> bool:
    return rank in VALUE and (rank != "3" or rules["three_is_normal"])


def _anywhere(text: str) -> tuple[set[str], bool]:
    """ "a 2, 3, 9 or 10, or a joker" -> ({"2", "3", "9", "10"}, True)."""
    joker = False
    if text == "a joker":
        return set(), True
    if text.endswith(", or a joker"):
        text, joker = text[:-len(", or a joker")], True
    found = re.fullmatch(r"an? (\w+)((?:, \w+)*)(?: or (\w+))?", text)
    assert found, text
    ranks = {found[1], *[r for r in found[2].split(", ") if r], *([found[3]] if found[3] else [])}
    return ranks, joker


def _allowed(phrase: str, rules) -> tuple[set[str], bool]:
    """The cards (codes) and whether a joker, that a hint or a refusal's list says may go."""
    every = {r + s for r in RANKS for s in SUITS}
    if phrase in ("anything", "anything (a 2 is on top)"):
        return every, bool(rules["jokers"])
    found = re.fullmatch(r"a card of the 9's suit \((.)\), or (.+)", phrase)
    if found:
        ranks, joker = _anywhere(found[2])
        return {c for c in every if c[-1] == SIGNS[found[1]] or c[:-1] in ranks}, joker
    found = re.fullmatch(r"a 7 or lower, or (.+)", phrase)
    if found:
        ranks, joker = _anywhere(found[1])
        return {c for c in every if (_natural(c[:-1], rules) and VALUE[c[:-1]] <= 7) or c[:-1] in ranks}, joker
    found = re.fullmatch(r"an? (\w+) or higher, or (.+)", phrase)
    assert found, phrase
    ranks, joker = _anywhere(found[2])
    return {c for c in every
            if (_natural(c[:-1], rules) and VALUE[c[:-1]] >= VALUE[found[1]]) or c[:-1] in ranks}, joker


def _refusal_phrase(message: str) -> str | None:
    """The list a refusal gives of what may go instead, said as the status line says it."""
    found = re.search(r"\(play (.+)\)\.$", message)
    if found:
        return found[1]
    found = re.search(r"the next card must be (a 7 or lower, or .+)\.$", message)
    if found:
        return found[1]
    found = re.search(r"must be of its suit \((.)\), or (.+)\.$", message)
    if found:
        return f"a card of the 9's suit ({found[1]}), or {found[2]}"
    return None


def _engine_accepts(state, card: str, rank: str | None = None) -> tuple[bool, Ruling | None]:
    try:
        sh.apply(state, sh.Play(ARI, (card,), rank))
    except Ruling as ruling:
        return False, ruling
    return True, None


@pytest.mark.parametrize("rules", list(_combos()), ids=lambda r: "-".join(str(v) for v in r.values()))
def test_SH_12_the_hint_and_every_refusal_list_exactly_what_the_engine_accepts(rules):
    for plays in _tops(rules):
        if plays == "joker as 9":  # a joker on the pile plays as the rank named (SH-A13): no suit
            state = replace(table(4, rules, stock=10), pile=(PileCard("JOKER", "9", BEA, 0),))
        else:
            state = table(4, rules, plays=plays, stock=10)  # two decks: a second copy of the top may go
        accepted, refusals = set(), []
        for rank in RANKS:
            for suit in SUITS:
                card = rank + suit
                ok, ruling = _engine_accepts(state, card)
                if ok:
                    accepted.add(card)
                else:
                    assert ruling.rule in ("SH-12", "SH-31", "SH-33", "SH-34", "SH-V6", "SH-V15"), ruling
                    refusals.append((card, ruling))
        joker = rules["jokers"] and any(_engine_accepts(state, "JOKER", r)[0] for r in RANKS)
        hint = sh.view(state, ARI)["beat"]
        cards, says_joker = _allowed(hint, rules)
        assert (cards, says_joker) == (accepted, joker), (plays, hint)
        for card, ruling in refusals:
            phrase = _refusal_phrase(ruling.message)
            if phrase is None:
                assert ruling.rule == "SH-V15" and card.startswith("10"), ruling.message
                continue
            listed, listed_joker = _allowed(phrase, rules)
            assert (listed, listed_joker) == (accepted, joker), (plays, card, ruling.message)


def test_SH_T34_a_nine_that_goes_on_anything_is_in_the_hint():
    """The play-tester's table: the 9 goes on anything (SH-V5 strong); a J on top."""
    state = table(4, {"nine_reverse": "strong"}, plays=[(BEA, "JH")])
    assert sh.view(state, ARI)["beat"] == "a J or higher, or a 2, 3, 9 or 10"
    ruling = pytest.raises(Ruling, sh.apply, state, sh.Play(ARI, ("5S",))).value
    assert ruling.message == "The card to beat is the J: a 5 is lower (play a J or higher, or a 2, 3, 9 or 10)."


def test_SH_T35_sevens_and_eights_that_go_on_anything_are_in_the_hint():
    state = table(4, {"specials_anytime": True}, plays=[(BEA, "AH")])
    assert sh.view(state, ARI)["beat"] == "an A or higher, or a 2, 3, 7, 8 or 10"


def test_SH_V2_a_joker_goes_on_anything_and_the_hint_says_so():
    state = table(4, {"jokers": True}, plays=[(BEA, "QH")])
    assert sh.view(state, ARI)["beat"] == "a Q or higher, or a 2, 3 or 10, or a joker"


def test_SH_V15_a_blocked_ten_is_not_offered_on_a_seven():
    state = table(4, {"ten_after_seven": "blocked"}, plays=[(BEA, "7H")])
    assert sh.view(state, ARI)["beat"] == "a 7 or lower, or a 2 or 3"


def test_SH_V6_after_a_nine_the_hint_asks_for_its_suit():
    state = table(4, {"nine_same_suit": True}, plays=[(BEA, "9H")])
    assert sh.view(state, ARI)["beat"] == "a card of the 9's suit (♥), or a 2, 3 or 10"


def test_the_default_words_are_unchanged():
    assert sh.view(table(4, plays=[(BEA, "5H")]), ARI)["beat"] == "a 5 or higher, or a 2, 3 or 10"
    assert sh.view(table(4, {"three_is_normal": True}, plays=[(BEA, "5H")]), ARI)["beat"] == \
        "a 5 or higher, or a 2 or 10"
    assert sh.view(table(4, plays=[(BEA, "7H")]), ARI)["beat"] == "a 7 or lower, or a 2, 3 or 10"
