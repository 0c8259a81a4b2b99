"""Cabo / Cambio (RULES.md §2): every CAB-T case by ID, the worked examples of §2.6, the knowledge checks
CAB-K1..K5, and the rules around them (powers, matching, snapping, calling, the deck running out)."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from referee.games import cabo as C
from referee.games.base import Correct, Override, Undo
from referee.games.cabo_cards import CABO_DECK, DECKS, points, power, rank
from referee.games.cabo_moves import (Call, Discard, Draw, Give, InitialPeek, LookSwap, Match, Peek, Replace,
                                      Reshuffle, Reveal, Snap, Swap, TakeDiscard, TurnUp, UsePower)
from referee.games.log import Log

from .cabo_helpers import (ANA, BEN, CY, DEE, match, plain_turn, play, refused, score_round, started, to_reveal,
                           with_totals)


def last(state):
    return state.history[-1]


def deck_total(state) -> int:
    return sum(C.zone_counts(state).values())


# --- CAB-T01, CAB-T02: the decks and the value map ------------------------------------------------

def test_CAB_T01_the_cabo_deck():
    assert sum(CABO_DECK.values()) == 52
    assert CABO_DECK["0"] == 2 and CABO_DECK["13"] == 2
    assert all(CABO_DECK[str(n)] == 4 for n in range(1, 13))
    state = match(3)
    assert sum(points(c, state.rules) * n for c, n in state.deck.items()) == 338
    assert state.rules["deck"] == "cabo52" and dict(state.deck) == dict(CABO_DECK)


def test_CAB_T02_cambio_scores_a_layout_by_its_value_map():
    state = match(2, "cambio_common")
    assert sum(state.deck.values()) == 54 and state.deck["JOKER"] == 2 and state.deck["KH"] == 1
    layout = ("KH", "KS", "JOKER", "AS")
    assert [points(c, state.rules) for c in layout] == [-1, 13, 0, 1]
    state = score_round(state, {ANA: layout, BEN: ("2C", "3C", "4C", "5C")}, caller=ANA)
    assert last(state).sums[ANA] == 13
    assert points("KD", state.rules) == -1 and points("KC", state.rules) == 13
    assert points("QH", state.rules) == 12 and points("JD", state.rules) == 11 and points("10S", state.rules) == 10
    assert points("KH", {**state.rules, "red_king": -2}) == -2


# --- CAB-T03, CAB-T04: powers ---------------------------------------------------------------------

def test_CAB_T03_a_card_taken_from_the_discard_pile_gives_no_power():
    state = play(match(2), TurnUp("9"), TakeDiscard(ANA))
    ruling = refused(state, UsePower(ANA, "9"))
    assert ruling.rule == "CAB-7" and "discard pile gives no power" in ruling.message
    assert C.rule_text("CAB-7") and C.rule_text("CAB-3")
    assert Replace(ANA, 1) in C.legal_moves(state, ANA) and Discard(ANA) not in C.legal_moves(state, ANA)
    assert refused(state, Discard(ANA)).rule == "CAB-3"  # it must be kept


def test_CAB_T04_a_drawn_7_discarded_peeks_at_an_own_card():
    state = play(match(2), TurnUp("5"), Draw(ANA, "7"))
    assert UsePower(ANA, "7") in C.legal_moves(state, ANA)
    state = play(state, UsePower(ANA, "7"))
    assert state.round.step == "peek" and state.round.discard[-1].value == "7"
    assert refused(state, Peek(ANA, 1, BEN, "3")).rule == "CAB-7"  # a Peek is one's own card
    state = play(state, Peek(ANA, 2, None, "3"))
    assert state.round.turn == BEN and state.round.rows[ANA][1].noted_by(ANA) == "3"
    assert C.view(state, BEN)["round"]["rows"]["Ana"]["slots"][1]["mine"] is None  # private (GEN-6)
    assert C.view(state, ANA)["round"]["rows"]["Ana"]["slots"][1]["mine"] == "3"


def test_a_spy_looks_at_another_players_card_and_a_number_without_power_has_none():
    state = play(match(2), TurnUp("5"), Draw(ANA, "10"), UsePower(ANA, "10"))
    assert state.round.step == "spy"
    assert refused(state, Peek(ANA, 1)).rule == "CAB-7"
    state = play(state, Peek(ANA, 4, BEN, "12"))
    assert state.round.rows[BEN][3].noted_by(ANA) == "12" and state.round.rows[BEN][3].noted_by(BEN) is None
    state = play(state, Draw(BEN, "5"))
    ruling = refused(state, UsePower(BEN, "5"))
    assert ruling.rule == "CAB-7" and "no power" in ruling.message
    assert power("11", state.rules) == "swap" and power("13", state.rules) is None and power("0", state.rules) is None


def test_a_blind_swap_is_own_card_with_another_players_and_knowledge_follows_the_cards():
    state = play(match(3), TurnUp("4"), TakeDiscard(ANA), Replace(ANA, 1, "8"))  # Ana's 4 is public
    assert state.round.rows[ANA][0].value == "4" and state.round.rows[ANA][0].face_up  # CAB-4
    state = play(state, Draw(BEN, "11"), UsePower(BEN, "11"))
    assert refused(state, Swap(BEN, 1, BEN, 2)).rule == "CAB-V14"
    assert refused(state, Swap(BEN, 1, CY, 2, ANA)).rule == "CAB-V14"  # own_other: one card is the swapper's
    state = play(state, Swap(BEN, 3, ANA, 1))
    assert state.round.rows[BEN][2].value == "4" and not state.round.rows[BEN][2].face_up  # CAB-K3
    assert state.round.rows[ANA][0].value is None


def test_any_two_swap_scope_swaps_two_other_players():
    state = play(match(3, swap_power_scope="any_two"), TurnUp(None), Draw(ANA, "12"), UsePower(ANA, "12"))
    state = play(state, Swap(ANA, 2, CY, 3, BEN))
    assert state.round.turn == BEN
    state = play(state, Draw(BEN, "11"), UsePower(BEN, "11"))
    assert refused(state, Swap(BEN, 1, CY, 2, CY)).rule == "CAB-V14"


def test_look_and_swap_with_a_black_king_keeps_the_two_sights_private():
    state = play(match(2, "cambio_common"), TurnUp(None), Draw(ANA, "KS"), UsePower(ANA, "KS"))
    assert state.round.step == "look_swap"
    assert refused(play(match(2, "cambio_common"), TurnUp(None), Draw(ANA, "KH")), UsePower(ANA, "KH")).rule == "CAB-7"
    state = play(state, LookSwap(ANA, 3, BEN, 4, True, "9D", "2C"))
    mine, theirs = state.round.rows[ANA][2], state.round.rows[BEN][3]
    assert mine.noted_by(ANA) == "2C" and theirs.noted_by(ANA) == "9D"  # the sights moved with the cards
    assert mine.value is None and theirs.value is None
    assert power("QH", {**state.rules, "look_and_swap": "queens"}) == "look_swap"
    assert power("KH", {**state.rules, "look_and_swap": "all_kings"}) == "look_swap"


# --- CAB-T05, CAB-T06: matching exchanges -----------------------------------------------------------

def test_CAB_T05_a_wrong_claim_keeps_both_face_up_and_adds_the_card_kept():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"))
    state = play(state, Match(ANA, (1, 3), ("6", "9")))
    row = state.round.rows[ANA]
    assert len([t for t in row if t is not None]) == 5  # CAB-5: the layout grows
    assert (row[0].value, row[0].face_up, row[2].value, row[2].face_up) == ("6", True, "9", True)
    assert row[4].noted_by(ANA) == "2" and row[4].value is None and not row[4].face_up
    assert deck_total(state) == 52  # CAB-K1
    assert state.round.discard[-1].value == "5" and state.round.turn == BEN
    spectator = C.view(state, None)["round"]["rows"]["Ana"]  # CAB-K2: the wrong claim is seen by all
    assert [s["card"] for s in spectator["slots"]] == ["6", None, "9", None, None]
    assert spectator["cards"] == 5 and spectator["known_subtotal"] == 15


def test_CAB_T06_a_good_claim_discards_both_and_the_layout_shrinks():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"), Match(ANA, (1, 3), ("6", "6")))
    row = state.round.rows[ANA]
    assert row[0].noted_by(ANA) == "2" and row[2] is None
    assert len([t for t in row if t is not None]) == 3
    assert [t.value for t in state.round.discard[-2:]] == ["6", "6"]
    assert deck_total(state) == 52


def test_a_three_card_wrong_claim_costs_a_penalty_card_in_the_2nd_edition():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"))
    draw = state.round.draw
    state = play(state, Match(ANA, (1, 2, 3), ("6", "6", "9")))
    assert len([t for t in state.round.rows[ANA] if t is not None]) == 6 and state.round.draw == draw - 1
    assert state.round.rows[ANA][5].origin == "penalty"


def test_a_wrong_claim_in_the_1st_edition_loses_the_card_kept():
    state = play(match(2, "cabo_1e"), TurnUp("5"), Draw(ANA, "2"), Match(ANA, (1, 3), ("6", "9")))
    row = state.round.rows[ANA]
    assert len([t for t in row if t is not None]) == 4
    assert (row[0].value, row[0].face_up, row[2].value) == ("6", False, "9")  # back face down, known to all
    assert state.round.discard[-1].value is None and len(state.round.discard) == 2  # the 2 went on the pile


def test_a_claim_needs_its_cards_or_its_outcome():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"))
    assert refused(state, Match(ANA, (1, 3))).rule == "CAB-5"
    assert refused(state, Match(ANA, (1, 3), ("6", "9"), matched=True)).rule == "CAB-5"
    assert refused(state, Match(ANA, (1,), ("6",))).rule == "CAB-5"
    assert refused(state, Match(ANA, (1, 3), ("6", "6"), slot=2)).rule == "CAB-5"
    state = play(state, Match(ANA, (1, 3), (), slot=3, matched=True))  # nothing entered but the outcome
    assert state.round.rows[ANA][0] is None and state.round.rows[ANA][2].noted_by(ANA) == "2"


def test_cambio_plays_without_matching_exchanges():
    state = play(match(2, "cambio_common"), TurnUp(None), Draw(ANA, "2H"))
    ruling = refused(state, Match(ANA, (1, 3), ("6H", "6S")))
    assert ruling.rule == "CAB-V4" and ruling.overridable
    assert not any(isinstance(m, Match) for m in C.legal_moves(state, ANA))


# --- CAB-T07: cards taken from the discard pile stay face up (2nd edition) -------------------------

def test_CAB_T07_a_card_taken_from_the_discard_pile_is_public_and_face_up():
    state = play(match(2), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN), Replace(BEN, 2, "7"))
    slot = C.view(state, None)["round"]["rows"]["Ben"]["slots"][1]
    assert slot == {"empty": False, "card": "4", "mine": None, "face_up": True}
    state1 = play(match(2, "cabo_1e"), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN),
                  Replace(BEN, 2, "7"))
    slot = C.view(state1, None)["round"]["rows"]["Ben"]["slots"][1]
    assert slot["card"] == "4" and not slot["face_up"]  # still known to all (RTC-K2), but face down


# --- CAB-T08..T12, §2.6 C1..C4: scoring ------------------------------------------------------------

C1 = {ANA: ("0", "1", "2", "3"), BEN: ("1", "1", "2", "2"), CY: ("3", "4", "4", "4")}
C2 = {ANA: ("1", "2", "2", "3"), BEN: ("0", "1", "1", "3"), CY: ("5", "5", "5", "5")}


def test_CAB_T08_C1_a_caller_tied_for_lowest_scores_0():
    state = score_round(match(3), C1, caller=ANA)
    res = last(state)
    assert dict(res.sums) == {ANA: 6, BEN: 6, CY: 15}
    assert dict(res.scores) == {ANA: 0, BEN: 6, CY: 15} and res.winners == (ANA,)
    assert state.totals == (0, 6, 15) and "CAB-40" in res.explanation


def test_CAB_T09_C2_a_caller_not_lowest_pays_10_and_the_1st_edition_pays_5():
    res = last(score_round(match(3), C2, caller=ANA))
    assert dict(res.scores) == {ANA: 18, BEN: 5, CY: 20} and res.winners == (BEN,)
    res = last(score_round(match(3, "cabo_1e"), C2, caller=ANA))
    assert dict(res.scores) == {ANA: 13, BEN: 0, CY: 20} and res.winners == (BEN,)


def test_CAB_T10_C3_kamikaze():
    cards = {ANA: ("0", "1", "2", "3"), BEN: ("1", "2", "3", "4"), CY: ("5", "6", "7", "8"),
             DEE: ("12", "13", "12", "13")}
    state = to_reveal(match(4), caller=ANA)
    for seat in (ANA, BEN, CY):
        state = play(state, Reveal(seat, cards[seat]))
        assert not state.history  # CAB-K5: Kamikaze is only known once every card is turned up
    state = play(state, Reveal(DEE, cards[DEE]))
    res = last(state)
    assert res.kamikaze == DEE and dict(res.scores) == {ANA: 50, BEN: 50, CY: 50, DEE: 0}
    assert res.winners == (DEE,) and "CAB-42" in res.explanation
    res = last(score_round(match(4, kamikaze=False), cards, caller=ANA))
    assert res.kamikaze is None and res.scores[DEE] == 50 and res.scores[ANA] == 0


HIGH = {ANA: ("1", "2", "3", "4"), BEN: ("0", "0", "1", "1"), CY: ("2", "3", "3", "4")}  # 10, 2 (caller), 12


def test_CAB_T11_C4_exactly_100_drops_to_50_once_in_the_2nd_edition():
    state = score_round(with_totals(match(3), (90, 20, 20)), HIGH, caller=BEN)
    assert state.totals == (50, 20, 32) and last(state).reset == (ANA,) and state.resets_used == {ANA}
    assert "CAB-43" in last(state).explanation and not state.over
    state = score_round(with_totals(state, (90, 20, 20), used=(ANA,)), HIGH, caller=BEN)
    assert state.totals[ANA] == 100 and last(state).reset == () and not state.over  # CAB-A3: play goes on
    ones = {ANA: ("0", "1", "1", "1"), BEN: ("0", "1", "2", "2"), CY: ("3", "3", "4", "4")}  # 3, 5, 14
    state = score_round(state, ones, caller=ANA)
    assert state.totals[ANA] == 100  # the caller with the lowest sum scores 0
    state = score_round(with_totals(state, (97, 20, 20), used=(ANA,)), ones, caller=BEN)
    assert state.totals == (100, 35, 34) and not state.over
    state = score_round(state, ones, caller=BEN)
    assert state.totals[ANA] == 103 and state.over and state.winners == (CY,)  # C4: 103 > 100 ends it


def test_exactly_100_under_the_1st_edition_and_cambio():
    state = score_round(with_totals(match(3, "cabo_1e"), (90, 20, 20), used=(ANA,)), HIGH, caller=BEN)
    assert state.totals[ANA] == 50  # unlimited
    cards = {ANA: ("AS", "2S", "3S", "4S"), BEN: ("AH", "AD", "JOKER", "JOKER"), CY: ("2H", "3H", "3D", "4D")}
    state = score_round(with_totals(match(3, "cambio_common"), (90, 20, 20)), cards, caller=BEN)
    assert state.totals[ANA] == 100  # off


def test_CAB_T12_going_over_100_ends_the_match_and_the_lowest_total_wins():
    state = score_round(with_totals(match(3), (91, 60, 40)), HIGH, caller=BEN)
    assert state.over and state.totals == (101, 60, 52) and state.winners == (CY,)
    assert "over 100" in state.outcome and C.legal_moves(state, None) == []
    assert refused(state, Draw(ANA)).rule == "CAB-43"
    assert C.result(state)["winners"] == ["Cy"]


def test_equal_lowest_totals_share_the_win():
    state = score_round(with_totals(match(3), (91, 50, 48)), HIGH, caller=BEN)
    assert state.over and state.totals == (101, 50, 60)
    state = score_round(with_totals(match(3), (91, 48, 38)), HIGH, caller=BEN)
    assert state.totals == (101, 48, 50) and state.winners == (BEN,)
    state = score_round(with_totals(match(3), (91, 48, 36)), HIGH, caller=BEN)
    assert state.totals == (101, 48, 48) and state.winners == (BEN, CY) and "share" in state.outcome


# --- CAB-T13, CAB-T14: snapping ------------------------------------------------------------------

def cambio_discarded_5(n=3):
    """Cambio: Ana draws a 5 and discards it; nobody has moved since."""
    return play(match(n, "cambio_common"), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"))


def test_CAB_T13_only_the_first_good_snap_counts():
    state = cambio_discarded_5()
    assert set(C.may_act(state)) == {ANA, BEN, CY} and C.may_act(state)[0] == BEN
    state = play(state, Snap(BEN, 2, None, "5H"))  # Ben's own known 5
    assert state.round.rows[BEN][1] is None and state.round.discard[-1].value == "5H"
    assert deck_total(state) == 54
    ruling = refused(state, Snap(CY, 1, None, "5D"))
    assert ruling.rule == "CAB-6" and "already snapped" in ruling.message and not ruling.overridable
    assert C.may_act(state) == (BEN,)


def test_CAB_T14_a_wrong_snap_goes_back_and_costs_a_penalty_card():
    state = cambio_discarded_5()
    draw = state.round.draw
    state = play(state, Snap(BEN, 1, ANA, "9C"))
    assert state.round.rows[ANA][0].value == "9C" and not state.round.rows[ANA][0].face_up  # back, now known
    assert len(state.round.rows[BEN]) == 5 and state.round.rows[BEN][4].origin == "penalty"
    assert state.round.draw == draw - 1 and deck_total(state) == 54
    assert refused(state, Snap(BEN, 2, None, "5H")).rule == "CAB-6"  # one try per discard
    state = play(state, Snap(CY, 4, None, "5C"))  # the discard is still open to a good snap
    assert state.round.discard[-1].value == "5C"
    two = play(match(3, "cambio_common", snap_penalty=2), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"),
               Snap(BEN, 1, ANA, "9C"))
    assert len(two.round.rows[BEN]) == 6


def test_snapping_another_players_card_gives_them_one_of_yours():
    state = play(cambio_discarded_5(), Snap(CY, 2, ANA, "5H"))
    assert state.round.rows[ANA][1] is None and state.round.give_owed == (CY, ANA, 2)
    assert C.may_act(state) == (CY,) and C.legal_moves(state, BEN) == []
    assert refused(state, Draw(BEN)).rule == "CAB-6"
    assert refused(state, Give(BEN, 1)).rule == "CAB-6"
    state = play(state, Give(CY, 4))
    assert state.round.rows[CY][3] is None and state.round.rows[ANA][1] is not None
    assert [len([t for t in state.round.rows[s] if t is not None]) for s in (ANA, BEN, CY)] == [4, 4, 3]
    assert state.round.give_owed is None and state.round.turn == BEN


def test_CAB_6_the_card_turned_up_to_start_the_pile_is_not_snapped_and_the_ruling_says_so():
    """CAB-6 answers a card a player discards; right after the turn-up nobody has discarded, and the ruling
    says that rather than "a snap comes before the next move" (no move was made)."""
    state = play(match(3, "cambio_common"), TurnUp("4C"))
    ruling = refused(state, Snap(BEN, 1, None, "4D"))
    assert ruling.rule == "CAB-6" and ruling.message.startswith("No player has discarded onto this discard pile yet")


def test_a_snap_comes_before_the_next_move_and_needs_its_card_or_outcome():
    state = cambio_discarded_5()
    assert refused(state, Snap(BEN, 2)).rule == "CAB-6"  # card unknown, outcome not said
    assert play(state, Snap(BEN, 2, matched=True)).round.rows[BEN][1] is None
    assert refused(state, Snap(BEN, 2, None, "5H", matched=False)).rule == "CAB-6"
    later = play(state, Draw(BEN))
    ruling = refused(later, Snap(CY, 1, None, "5D"))
    assert ruling.rule == "CAB-6" and "next move" in ruling.message
    assert refused(play(match(2), TurnUp("5"), Draw(ANA, "5"), Discard(ANA, "5")), Snap(BEN, 1, None, "5")).rule == "CAB-V5"


def test_a_snapped_card_may_empty_a_layout_which_scores_0():
    state = play(match(2, "cambio_common"), TurnUp(None))
    for i, (a, b) in enumerate((("5S", "5H"), ("6S", "6H"), ("7S", "7H"), ("8S", "8H"))):
        state = play(state, Draw(ANA, a), Discard(ANA, a), Snap(BEN, i + 1, None, b), Draw(BEN), Discard(BEN))
    assert all(t is None for t in state.round.rows[BEN]) and C.zone_counts(state)["layout:Ben"] == 0
    state = play(state, Draw(ANA), Discard(ANA))
    assert not any(isinstance(m, TakeDiscard) for m in C.legal_moves(state, BEN))
    assert refused(state, TakeDiscard(BEN)).rule == "CAB-3"
    state = play(state, Call(BEN), Draw(ANA), Discard(ANA))
    assert state.round.step == "reveal" and BEN in state.round.revealed  # nothing to turn up
    state = play(state, Reveal(ANA, ("AS", "2S", "3S", "4S")))
    assert last(state).sums[BEN] == 0 and last(state).winners == (BEN,)


def test_the_last_discard_may_be_snapped_until_the_first_card_is_turned_up():
    state = play(match(2, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "5S"), Discard(BEN, "5S"))
    assert state.round.step == "reveal"
    state = play(state, Snap(BEN, 1, None, "5H"))
    assert state.round.rows[BEN][0] is None
    state = play(state, Reveal(ANA, ("AS", "2S", "3S", "4S")))
    state2 = play(match(2, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "5S"), Discard(BEN, "5S"),
                  Reveal(BEN, ("AH", "2H", "3H", "4H")))
    assert refused(state2, Snap(ANA, 1, None, "5H")).rule == "CAB-6"  # not once scoring has started


# --- CAB-T15: the caller's cards are locked --------------------------------------------------------

def test_CAB_T15_nobody_may_swap_or_snap_the_callers_cards():
    state = play(match(3, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "JH"), UsePower(BEN, "JH"))
    ruling = refused(state, Swap(BEN, 1, ANA, 1))
    assert ruling.rule == "CAB-21" and ruling.overridable
    assert all(m.target != ANA for m in C.legal_moves(state, BEN) if isinstance(m, Swap) and m.target is not None)
    state = play(state, Swap(BEN, 1, CY, 1))
    state = play(state, Draw(CY, "7D"), Discard(CY, "7D"))
    assert state.round.step == "reveal"
    # Snapping from, or by, the caller
    state = play(match(3, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "5S"), Discard(BEN, "5S"))
    assert refused(state, Snap(CY, 1, ANA, "5H")).rule == "CAB-21"
    assert refused(state, Snap(ANA, 1, None, "5H")).rule == "CAB-21"
    assert ANA not in C.may_act(state)
    # Looking is not changing: a look-and-swap may look at the caller's card, not swap it
    state = play(match(3, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "KC"), UsePower(BEN, "KC"))
    assert refused(state, LookSwap(BEN, 1, ANA, 1, True)).rule == "CAB-21"
    state = play(state, LookSwap(BEN, 1, ANA, 1, False, "3C", "4C"))
    assert state.round.rows[ANA][0].noted_by(BEN) == "4C"
    unlocked = play(match(3, "cambio_common", caller_lock=False), TurnUp(None), Call(ANA), Draw(BEN, "QH"),
                    UsePower(BEN, "QH"), Swap(BEN, 1, ANA, 1))
    assert unlocked.round.turn == CY


# --- CAB-T16: the draw pile runs out ---------------------------------------------------------------

def test_CAB_T16_the_deck_running_out_ends_the_round_with_no_caller():
    state = started(match(2))
    while state.round.step != "reveal":
        state = plain_turn(state)
    r = state.round
    assert r.draw == 0 and r.deck_out and r.caller is None
    state = play(state, Reveal(ANA, ("0", "1", "1", "2")), Reveal(BEN, ("5", "5", "6", "6")))
    res = last(state)
    assert dict(res.scores) == {ANA: 4, BEN: 22} and res.caller is None and res.deck_out  # nobody gets 0
    assert "CAB-22" in res.explanation and res.winners == (ANA,)


def test_CAB_T16_a_draw_after_the_deck_ran_out_is_refused_by_CAB_22_and_a_short_reveal_by_the_scoring_rule():
    state = started(match(2))
    while state.round.step != "reveal":
        state = plain_turn(state)
    assert refused(state, Draw(state.round.turn if state.round.turn is not None else ANA, "5")).rule == "CAB-22"
    assert refused(state, Reveal(ANA, ("0", "1"))).rule == "CAB-40"  # Cabo 2nd edition counts every card
    cambio = to_reveal(match(2, "cambio_common"), caller=ANA)
    assert refused(cambio, Reveal(ANA, ("0",))).rule == "CAB-44"


def test_without_deck_out_the_discard_pile_is_reshuffled_under_its_top_card():
    state = started(match(2, "cabo_1e"), "7")
    while state.round.draw:
        state = plain_turn(state)
    seat = state.round.turn
    assert refused(state, Draw(seat)).rule == "CAB-22"
    assert Reshuffle() in C.legal_moves(state, None)
    top = state.round.discard[-1]
    size = len(state.round.discard)
    state = play(state, Reshuffle())
    assert state.round.draw == size - 1 and state.round.discard == (top,) and deck_total(state) == 52
    assert refused(state, Reshuffle()).rule == "CAB-22"
    assert refused(play(match(2), TurnUp("5")), Reshuffle()).rule == "CAB-22"  # deck-out tables never reshuffle


def test_deck_out_during_the_last_turns_ends_the_round_and_the_caller_is_scored_as_caller():
    state = started(match(3))
    while state.round.draw > 1:
        state = plain_turn(state)
    seat = state.round.turn
    state = play(state, Call(seat))
    state = plain_turn(state)  # the last card: one player still had a last turn to come
    r = state.round
    assert r.step == "reveal" and r.caller == seat and r.deck_out and r.final_left >= 1
    cards = {ANA: ("0", "1", "1", "2"), BEN: ("5", "5", "6", "6"), CY: ("3", "3", "4", "4")}
    state = play(state, *(Reveal(s, cards[s]) for s in (ANA, BEN, CY)))
    assert last(state).caller == seat and last(state).scores[seat] == (0 if seat == ANA else
                                                                         last(state).sums[seat] + 10)


# --- §2.6 C5: Cambio ties --------------------------------------------------------------------------

C5 = {ANA: ("KH", "2S", "AS", "2H"), BEN: ("AC", "AD", "2D", "JOKER")}  # 4 (with a red king at -1), 4


@pytest.mark.parametrize("policy, winners", [("all_lowest_except_caller", (BEN,)), ("caller_wins_ties", (ANA,)),
                                             ("all_lowest", (ANA, BEN)), ("no_winner", ())])
def test_C5_cambio_ties_follow_rat_a_tat_cats_tie_switch(policy, winners):
    res = last(score_round(match(2, "cambio_common", tie_policy=policy), C5, caller=ANA))
    assert dict(res.sums) == {ANA: 4, BEN: 4} and dict(res.scores) == {ANA: 4, BEN: 4}
    assert res.winners == winners


def test_cambio_plays_four_rounds_and_the_lowest_total_wins():
    state = match(2, "cambio_common")
    for i in range(4):
        assert not state.over and state.round.number == i + 1
        state = score_round(state, C5 if i else {ANA: ("KH", "2S", "AS", "2H"), BEN: ("AC", "AD", "2D", "3D")},
                            caller=state.round.turn)
    assert state.over and state.totals == (16, 19) and state.winners == (ANA,)


# --- CAB-K1..K5 and conservation of a standard deck ------------------------------------------------

def test_CAB_K1_layouts_shrink_and_grow_but_the_cards_add_up():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"), Match(ANA, (1, 3), ("6", "6")))
    assert C.zone_counts(state)["layout:Ana"] == 3 and deck_total(state) == 52
    state = play(state, Draw(BEN, "3"), Match(BEN, (1, 2, 4), ("7", "7", "8")))
    assert C.zone_counts(state)["layout:Ben"] == 6 and deck_total(state) == 52


def test_CAB_K4_a_snap_race_is_decided_by_the_log_and_a_snap_can_be_undone():
    state = cambio_discarded_5()
    log = Log.start(C, state)
    log, _ = log.feed(Snap(CY, 3, None, "5D"))
    with pytest.raises(C.Ruling) as info:
        log.feed(Snap(BEN, 2, None, "5H"))
    assert info.value.rule == "CAB-6"
    log, step = log.feed(Undo(BEN, "Ben was first"))
    log, _ = log.feed(Snap(BEN, 2, None, "5H"))
    assert log.state.round.rows[BEN][1] is None and log.state.round.rows[CY][2] is not None


def test_a_standard_deck_has_one_king_of_hearts():
    state = play(match(2, "cambio_common"), TurnUp("KH"))
    ruling = refused(state, Draw(ANA, "KH", shown=True))
    assert ruling.rule == "GEN-3" and "1 × K♥" in ruling.message
    assert ruling.entries == (1, 0)  # this entry, and the one that turned the K♥ up (GEN-13)
    assert "KH" not in C.still_possible(state) and "KD" in C.still_possible(state)
    state = play(state, Draw(ANA, "KD", shown=True), Discard(ANA, "KD"))
    assert refused(state, Snap(BEN, 1, None, "KH")).rule == "GEN-3"  # KH is already on the discard pile
    assert play(state, Snap(BEN, 1, None, "KS")).round.discard[-1].value == "KS"  # a king snaps a king
    assert rank("KS") == rank("KD") == "K"


def test_a_known_card_turned_up_as_another_is_flagged():
    state = play(match(2), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN), Replace(BEN, 2))
    state = to_reveal(state, caller=state.round.turn)
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")))
    state, evs = C.apply(state, Reveal(BEN, ("2", "3", "2", "3")))
    assert state.flags[-1].rule == "GEN-4" and not state.history  # held until the table decides (GEN-5)
    state = play(state, C.ResolveFlag(state.flags[-1].id, "accept"))
    assert last(state).sums[BEN] == 10


# --- Calling (CAB-20) ------------------------------------------------------------------------------

def test_CAB_20_a_call_replaces_a_turn_and_everyone_else_gets_one_more():
    state = play(match(3), TurnUp("5"), Draw(ANA), Discard(ANA))
    assert refused(state, Call(ANA)).rule == "CAB-20"  # not Ana's turn
    state = play(state, Call(BEN))
    assert state.round.caller == BEN and state.round.turn == CY
    assert refused(state, Call(CY)).rule == "CAB-20"
    state = plain_turn(state)
    assert refused(state, Draw(BEN)).rule == "CAB-20"
    state = plain_turn(state)
    assert state.round.step == "reveal" and refused(state, Draw(CY)).rule == "CAB-20"
    mid = play(match(3), TurnUp("5"), Draw(ANA))
    assert refused(mid, Call(ANA)).rule == "CAB-20"


def test_calling_at_the_end_of_a_turn_when_the_table_says_so():
    state = play(match(2, call_timing="end_of_turn"), TurnUp("5"))
    assert refused(state, Call(ANA)).rule == "CAB-V7"
    state = play(state, Draw(ANA), Discard(ANA))
    assert Call(ANA) in C.legal_moves(state, ANA) and ANA in C.may_act(state)
    state = play(state, Call(ANA))
    assert state.round.turn == BEN and state.round.final_left == 1


def test_turn_order_and_the_first_look():
    state = play(match(3), TurnUp("5"))
    ruling = refused(state, Draw(BEN))
    assert ruling.rule == "GEN-7" and ruling.overridable
    state = play(state, InitialPeek(ANA, (2, 4), ("3", "9")))
    assert state.round.rows[ANA][1].noted_by(ANA) == "3" and state.round.rows[ANA][1].value is None
    assert refused(state, InitialPeek(ANA, (1, 3))).rule == "CAB-2"
    cambio = play(match(2, "cambio_common"), TurnUp(None))
    assert refused(cambio, InitialPeek(ANA, (1, 2))).rule == "CAB-2"
    assert InitialPeek(ANA, (3, 4)) in C.legal_moves(cambio, ANA)
    over = play(state, Override(Draw(BEN), "GEN-7", "Cy let Ben go first"))
    assert over.round.turn == BEN and over.overrides[-1][1] == "GEN-7"


def test_CAB_45_the_winner_plays_first_and_the_loser_deals():
    state = score_round(match(3), C2, caller=ANA)  # Ben lowest (5), Cy highest (20)
    assert state.round.turn == BEN and state.round.dealer == CY
    cambio = score_round(match(3, "cambio_common"), {ANA: ("AS", "2S", "3S", "4S"), BEN: ("AH", "2H", "3H", "4H"),
                                                      CY: ("5S", "5H", "6S", "6H")}, caller=ANA)
    assert cambio.round.dealer == ANA and cambio.round.turn == BEN  # the deal passes to the left


def test_player_counts_follow_the_deck():
    assert C.new_match(["A", "B", "C", "D", "E"]).round.draw == 32
    with pytest.raises(C.Ruling) as info:
        C.new_match(["A", "B", "C", "D", "E", "F"])
    assert info.value.rule == "CAB-1"
    assert C.new_match(list("ABCDEFGH"), {"deck": "standard_jokers"}).round.draw == 22
    with pytest.raises(C.Ruling):
        C.new_match(["Solo"])


def test_a_reveal_names_every_card_but_a_known_card_may_stay_unknown():
    state = play(match(2), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN), Replace(BEN, 2))
    state = to_reveal(state, caller=state.round.turn)
    assert refused(state, Reveal(BEN, ("2", "4", "2"))).rule == "CAB-40"
    assert refused(state, Reveal(BEN, ("2", None, "2", None))).rule == "CAB-40"
    assert Reveal(BEN, (None, "4", None, None)) in C.legal_moves(state, None)
    state = play(state, Reveal(BEN, ("2", None, "2", "3")), Reveal(ANA, ("1", "1", "1", "1")))
    assert last(state).cards[BEN] == ("2", "4", "2", "3")
    assert refused(play(match(2), TurnUp("5")), Reveal(ANA, ("1", "1", "1", "1"))).rule == "CAB-20"


# --- Entries: JSON, forms, words ------------------------------------------------------------------

EVERY_ENTRY = [
    TurnUp("5"), TurnUp(None), InitialPeek(ANA, (1, 2), ("3", None)), InitialPeek(BEN, (3, 4)),
    Draw(ANA), Draw(ANA, "7"), Draw(ANA, "7", True), TakeDiscard(BEN, "4"), Replace(ANA, 3, "9"),
    Match(ANA, (1, 3), ("6", "6"), 3), Match(ANA, (1, 2, 4), (), None, False), Match(ANA, (1, 3), ("6", "9"), out="2"),
    Discard(ANA, "12"),
    UsePower(ANA, "11"), Peek(ANA, 2, None, "8"), Peek(ANA, 2, BEN, None), Swap(ANA), Swap(ANA, 1, BEN, 2),
    Swap(ANA, 1, CY, 2, BEN), LookSwap(ANA, 1, BEN, 2, True, "3", "13"), Snap(BEN, 2, ANA, "5", None),
    Snap(CY, 7, None, None, True), Give(CY, 1), Call(ANA), Reshuffle(), Reveal(ANA, ("1", "2", "3", "4", "5")),
    Reveal(BEN, ()), Override(Draw(BEN), "GEN-7", "why"), C.ResolveFlag(0, "accept", "ok", ANA),
    Undo(ANA), Correct(3, Replace(ANA, 1, "7"), "mis-tap", ANA),
]


@pytest.mark.parametrize("move", EVERY_ENTRY, ids=lambda m: type(m).__name__)
def test_every_entry_round_trips_through_json_and_the_form(move):
    players = ("Ana", "Ben", "Cy")
    rules = match(3).rules
    data = C.move_to_dict(move, players)
    assert C.parse_move(data, players, rules) == move
    form = C.entry_to_form(data)
    assert all(isinstance(v, str) for v in form.values())
    seat = data.get("seat")
    seat = players.index(seat) if isinstance(seat, str) else seat  # a correction keeps the seat's number
    back = C.entry_from_form(form, players, seat)
    assert C.parse_move(back, players, rules) == move, (data, back)
    assert C.describe(move, players)


def test_the_call_is_said_without_naming_the_game():
    """A Cambio table's record must not say "Cabo": the call is said the same way under either name."""
    words = C.describe(Call(ANA), ("Ana", "Ben"))
    assert words == "Ana calls!" and "Cabo" not in words


def test_hostile_entries_are_entry_errors():
    players = ("Ana", "Ben")
    rules = match(2).rules
    for data in ({"move": "snap", "seat": "Ana", "slot": 0}, {"move": "snap", "seat": "Ana", "slot": 61},
                 {"move": "match", "seat": "Ana", "slots": list(range(1, 70))},
                 {"move": "reveal", "seat": "Ana", "cards": ["KH"]}, {"move": "snap", "seat": "Ana", "slot": 1,
                                                                       "matched": "yes"},
                 {"move": "look_swap", "seat": "Ana", "slot": 1, "target": "Ben", "target_slot": 1, "swap": 1},
                 {"move": "power", "seat": "Ana", "card": "unknown"}, {"move": "nope"}, [],
                 {"move": "give", "seat": "Zed", "slot": 1}, {"move": "call", "seat": "Ana", "extra": 1}):
        with pytest.raises(C.EntryError):
            C.parse_move(data, players, rules)
    std = match(2, "cambio_common").rules
    assert C.parse_move({"move": "draw", "seat": "Ana", "card": "kh"}, players, std).card == "KH"
    assert C.parse_move({"move": "draw", "seat": "Ana", "card": "unknown"}, players, std).card is None


def test_state_round_trips_through_json():
    import json

    state = play(cambio_discarded_5(), Snap(CY, 2, ANA, "5H"))
    data = C.state_to_dict(state)
    assert data["game"] == "cabo"
    assert C.state_to_dict(C.state_from_dict(json.loads(json.dumps(data)))) == data
    done = score_round(match(3), C1, caller=ANA)
    data = C.state_to_dict(done)
    assert C.state_from_dict(json.loads(json.dumps(data))) == done


def test_the_result_shows_the_tie_rule_and_every_changed_switch():
    state = score_round(match(2, "cambio_common"), C5, caller=ANA)
    result = C.result(state)
    assert result["house_rules"]["tie_policy"] == "all_lowest_except_caller"
    assert result["house_rules"]["deck"] == "standard_jokers" and "red_king" not in result["house_rules"]
    assert result["rounds"][0]["scores"] == {"Ana": 4, "Ben": 4} and result["rounds"][0]["winners"] == ["Ben"]


def test_cards_and_labels():
    assert C.cards(match(2)) == [str(n) for n in range(14)]
    std = C.cards(match(2, "cambio_common"))
    assert len(std) == 53 and std[0] == "AS" and std[-1] == "JOKER"
    assert len(C.cards(match(2, "cambio_common", deck="standard"))) == 52
    assert C.card_label("10H") == "10♥" and C.card_label("JOKER") == "Joker" and C.card_label(None) == "unknown"
    assert Counter(DECKS["standard"].values()) == Counter({1: 52})


# --- The reveal, one card at a time -----------------------------------------------------------------

def test_cards_may_be_turned_up_one_at_a_time_and_a_face_up_card_is_already_up():
    state = play(match(2), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN), Replace(BEN, 2))
    state = to_reveal(state, caller=state.round.turn)
    assert Reveal(BEN, ("4",), 2) not in C.legal_moves(state, None)  # Ben's 4 lies face up already (CAB-4)
    assert refused(state, Reveal(BEN, ("4",), 2)).rule == "CAB-40"
    assert refused(state, Reveal(BEN, ("3", "3"), 1)).rule == "CAB-40"
    state = play(state, Reveal(BEN, ("3",), 1), Reveal(BEN, ("2",), 3))
    assert BEN not in state.round.revealed and refused(state, Snap(ANA, 1, None, "3")).rule in ("CAB-6", "CAB-V5")
    state = play(state, Reveal(BEN, ("1",), 4))
    assert BEN in state.round.revealed and not state.history
    state = play(state, Reveal(ANA, ("0", "1", "1", "2")))
    assert last(state).cards[BEN] == ("3", "4", "2", "1") and last(state).sums == {ANA: 4, BEN: 10}


# --- Private sightings stay private (GEN-6) ---------------------------------------------------------

def test_a_download_hides_every_private_sighting_of_the_round_from_the_others():
    moves = [TurnUp("5"), InitialPeek(ANA, (1, 2), ("3", "4")), Draw(ANA, "10"), UsePower(ANA, "10"),
             Peek(ANA, 1, BEN, "12"), Draw(BEN, "13"), Discard(BEN, "13"), Draw(ANA, "6"), Replace(ANA, 3, "7")]
    cambio = [TurnUp(None), Draw(ANA, "KC"), UsePower(ANA, "KC"), LookSwap(ANA, 1, BEN, 2, True, "9D", "2C")]
    for preset, script in (("cabo_2e", moves), ("cambio_common", cambio)):
        state = match(2, preset)
        start, entries = state, []
        for move in script:
            state = play(state, move)
            entries.append(C.move_to_dict(move, state.players))
        for viewer in (None, ANA, BEN):
            redacted = C.redact(state, entries, viewer)
            text = repr(redacted)
            if viewer != ANA:
                assert "'seen': '3'" not in text and "'12'" not in text and "'6'" not in text
                assert "9D" not in text and "2C" not in text
            replayed = start
            for entry in redacted:
                replayed = play(replayed, C.parse_move(entry, replayed.players, replayed.rules))
            assert C.view(replayed, viewer) == C.view(state, viewer)
        assert C.redact(state, entries, ANA)[:5] == entries[:5]  # Ana's own sightings stay in her download


# --- Rare corners of snapping ----------------------------------------------------------------------

def test_a_snap_that_takes_the_last_card_a_spy_could_look_at_ends_the_turn():
    state = play(match(2, "cambio_common"), TurnUp(None))
    for i, (a, b) in enumerate((("5S", "5H"), ("6S", "6H"), ("7S", "7H"))):  # Ben snaps three of his cards
        state = play(state, Draw(ANA, a), Discard(ANA, a), Snap(BEN, i + 1, None, b), Draw(BEN), Discard(BEN))
    state = play(state, Draw(ANA, "9S"), UsePower(ANA, "9S"))
    assert state.round.step == "spy"
    state, evs = C.apply(state, Snap(BEN, 4, None, "9H"))  # Ben's last card: nothing left to spy on
    assert [e["kind"] for e in evs][-2:] == ["power_lapsed", "turn_over"] and state.round.turn == BEN


def test_a_wrong_snap_with_an_empty_draw_pile_costs_what_is_left():
    state = play(match(2, "cambio_common"), TurnUp(None))
    while state.round.draw:
        state = plain_turn(state)
    seat = state.round.turn
    other = 1 - seat
    state = play(state, TakeDiscard(seat), Replace(seat, 1, "QS"))
    state, evs = C.apply(state, Snap(other, 1, None, "2D"))
    assert any(e["kind"] == "penalty_short" for e in evs) and len(state.round.rows[other]) == 4


def test_a_snap_entered_with_the_wrong_card_can_be_corrected():
    state = cambio_discarded_5()
    log = Log.start(C, state)
    log, _ = log.feed(Snap(BEN, 2, None, "9H"), 0)  # a mis-tap: the table saw a 5
    assert len(log.state.round.rows[BEN]) == 5
    log, step = log.feed(Draw(BEN), 1)
    log, step = log.feed(Correct(0, Snap(BEN, 2, None, "5H"), "it was the 5 of hearts", BEN), 2)
    r = log.state.round
    assert r.rows[BEN][1] is None and len(r.rows[BEN]) == 4 and r.discard[-1].value == "5H"
    assert r.step == "holding" and r.turn == BEN and not step.later


def test_the_winner_plays_first_and_a_tie_after_the_totals_goes_to_the_left_of_the_last_dealer():
    from referee.games.cabo_scoring import next_order

    assert next_order({0: 5, 1: 5, 2: 9}, (5, 5, 9), (0, 1, 2), 2, 3, "winner_first") == (2, 0)
    assert next_order({0: 5, 1: 5}, (5, 5), (0, 1), 1, 2, "winner_first") == (1, 0)  # one player: Ben deals
    assert next_order({0: 5, 1: 5}, (7, 5), (0, 1), 1, 2, "winner_first") == (0, 1)
    assert next_order({0: 1, 1: 9, 2: 9}, (1, 20, 30), (0, 1, 2), 0, 3, "winner_first") == (2, 0)
    assert next_order({0: 1, 1: 9, 2: 9}, (1, 20, 30), (0, 1, 2), 0, 3, "clockwise") == (1, 2)


def test_a_four_card_wrong_claim_costs_two_penalty_cards():
    state = play(match(2), TurnUp("5"), Draw(ANA, "2"))
    draw = state.round.draw
    state = play(state, Match(ANA, (1, 2, 3, 4), ("6", "6", "6", "9")))
    assert len(state.round.rows[ANA]) == 7 and state.round.draw == draw - 2
    assert all(state.round.rows[ANA][i].face_up for i in range(4)) and deck_total(state) == 52


def test_the_worked_examples_play_the_presets_as_documented():
    """docs/transcripts.md: the Cambio example's rules are the cambio_common preset written out, and the
    Cabo examples play the 2nd edition's defaults (the examples' reports are checked in test_transcript)."""
    import json
    from pathlib import Path

    from referee.games.cabo_presets import BY_KEY

    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    cambio = json.loads((examples / "cambio-snap.json").read_text())
    assert cambio["game"] == "cabo" and cambio["rules"] == dict(BY_KEY["cambio_common"].rules)
    for name in ("cabo-peek-spy-swap.json", "cabo-scoring.json"):
        doc = json.loads((examples / name).read_text())
        assert doc["game"] == "cabo" and doc.get("rules", {}) == dict(BY_KEY["cabo_2e"].rules) == {}


# --- Play-test fixes -------------------------------------------------------------------------------

def test_CAB_2_first_look_after_swap_lands_on_the_dealt_card():
    """Ana swaps her place 2 with Ben's place 1 before Ben notes his first look: the 8 he saw at the deal
    is now Ana's place 2 (knowledge follows the cards, RTC-K4), and revealing it there raises no dispute."""
    state = play(match(2), TurnUp("5"), Draw(ANA, "11"), UsePower(ANA, "11"), Swap(ANA, 2, BEN, 1),
                 InitialPeek(BEN, (1, 4), ("8", "2")))
    rows = state.round.rows
    assert rows[ANA][1].noted_by(BEN) == "8" and rows[BEN][0].noted_by(BEN) is None
    assert rows[BEN][3].noted_by(BEN) == "2"
    assert C.view(state, BEN)["round"]["rows"]["Ana"]["slots"][1]["mine"] == "8"
    state = play(state, Draw(BEN), Discard(BEN, "3"), Call(ANA), Draw(BEN), Discard(BEN, "4"))
    state = play(state, Reveal(ANA, ("1", "8", "1", "2")), Reveal(BEN, ("0", "3", "9", "2")))
    assert state.flags == () and len(state.history) == 1


def test_CAB_2_first_look_after_a_snap_and_give_follows_the_dealt_cards():
    """Cambio: Ben snaps his own place 3, then Cy snaps Ana's place 2 and gives her his place 4. Their first
    looks, noted afterwards, land on the cards dealt to them: Ben's place-3 card has left the layouts (its
    note is dropped), and Cy's place-4 card is now Ana's place 2."""
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"),
                 Snap(BEN, 3, None, "5C"), InitialPeek(BEN, (3, 4), ("5C", "KS")))
    rows = state.round.rows
    assert rows[BEN][2] is None and rows[BEN][3].noted_by(BEN) == "KS"
    assert not any(t is not None and t.noted_by(BEN) == "5C" for row in rows for t in row)
    state = play(state, Draw(BEN, "9H"), Discard(BEN, "9H"), Snap(CY, 2, ANA, "9C"), Give(CY, 4),
                 InitialPeek(CY, (3, 4), ("JD", "2C")))
    rows = state.round.rows
    assert rows[CY][3] is None and rows[ANA][1].noted_by(CY) == "2C" and rows[CY][2].noted_by(CY) == "JD"
    from referee.games.cabo_apply import dealt_card_now
    assert dealt_card_now(state.round.swaps, CY, 4) == (ANA, 2)
    assert refused(state, InitialPeek(ANA, (4, 5))).rule == "CAB-2"


def test_CAB_6_a_snap_without_its_card_shows_every_seat_the_same_discard_pile():
    """Cambio: Ben noted his place 3 as the 5♣ at his first look, then snaps it onto Ana's 5♠ saying only
    that it matched. What he noted is his alone (GEN-6): the pile's top is unknown to every seat alike, and
    the redacted log of any seat replays to the same view (a private note never becomes public knowledge)."""
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"),
                 InitialPeek(BEN, (3, 4), ("5C", "KS")), Snap(BEN, 3, matched=True))
    assert state.round.discard[-1].value is None and state.flags == ()
    assert {C.view(state, seat)["round"]["discard_top"] for seat in (ANA, BEN, CY, None)} == {None}
    # the Cabo deck has one card of each number: a snap that matched a known 7 shows that 7 to everyone
    cabo = play(match(2, snap_enabled=True), TurnUp("5"), Draw(ANA, "7", True), Discard(ANA, "7"),
                Snap(BEN, 1, matched=True))
    assert {C.view(cabo, seat)["round"]["discard_top"] for seat in (ANA, BEN, None)} == {"7"}


def test_GEN_4_the_dispute_says_whose_place_the_card_showed_in():
    """Ben noted an 8 in his place 1; Ana swapped it into her place 2, where it shows a 3 at the reveal: the
    dispute names Ben's note and Ana's place 2, not just 'the card'."""
    state = play(match(2), TurnUp("5"), InitialPeek(BEN, (1, 4), ("8", "2")), Draw(ANA, "11"),
                 UsePower(ANA, "11"), Swap(ANA, 2, BEN, 1), Draw(BEN), Discard(BEN, "4"), Call(ANA),
                 Draw(BEN), Discard(BEN, "4"))
    state = play(state, Reveal(ANA, ("1", "3", "1", "2")), Reveal(BEN, ("0", "6", "9", "2")))
    (flag,) = state.flags
    assert flag.rule == "GEN-4"
    assert flag.message == "Ben noted an 8 at entry 1, but the card in Ana's place 2 showed a 3 at entry 10."


# --- The discard pile's top after a failed claim, a snap that matched, a take --------------------------

def test_CAB_5_a_failed_1st_edition_claim_names_the_card_it_discards():
    """Cabo 1st edition: a claim that fails puts the card in hand onto the discard pile, face up. Ana drew
    the 2 unseen; the entry may name it (the table saw it land), and the pile's top is then the 2 for every
    seat. Left unnamed, the top stays unknown, as before."""
    before = play(match(2, "cabo_1e"), TurnUp("5"), Draw(ANA, "2"))
    state = play(before, Match(ANA, (1, 3), ("6", "9"), out="2"))
    assert state.round.discard[-1].value == "2" and len(state.round.discard) == 2
    assert {C.view(state, seat)["round"]["discard_top"] for seat in (ANA, BEN, None)} == {"2"}
    assert play(before, Match(ANA, (1, 3), ("6", "9"))).round.discard[-1].value is None
    unknown = play(before, Match(ANA, (1, 3), (), matched=False, out="2"))
    assert unknown.round.discard[-1].value == "2"
    # what Ana noted privately and what the table saw differ: the end-of-round check keeps it (GEN-6)
    other = play(before, Match(ANA, (1, 3), ("6", "9"), out="3"))
    assert other.round.discard[-1].value == "3" and other.round.conflicts[0][:2] == (ANA, "2")
    assert C.describe(Match(ANA, (1, 3), ("6", "9"), out="2"), ("Ana", "Ben")) == (
        "Ana claims places 1, 3 match, showing 6, 9, and discards a 2.")
    assert C.describe(Match(ANA, (1, 3), (), matched=False, out="8"), ("Ana", "Ben")) == (
        "Ana claims places 1, 3 match, and discards an 8.")


def test_CAB_5_only_a_failed_1st_edition_claim_discards_the_card_in_hand():
    """A claim that matched keeps the card in hand, and a failed 2nd-edition claim adds it to the layout:
    an entry naming a card put onto the discard pile is refused there (CAB-5)."""
    first = play(match(2, "cabo_1e"), TurnUp("5"), Draw(ANA, "2"))
    ruling = refused(first, Match(ANA, (1, 3), ("6", "6"), out="2"))
    assert ruling.rule == "CAB-5" and "discard pile" in ruling.message
    assert refused(first, Match(ANA, (1, 3), (), matched=True, out="2")).rule == "CAB-5"
    second = play(match(2), TurnUp("5"), Draw(ANA, "2"))
    assert refused(second, Match(ANA, (1, 3), ("6", "9"), out="2")).rule == "CAB-5"


def cambio_snapped_unknown_5():
    """Cambio: Ana discards the 5♠, Ben snaps his place 2 saying only that it matched: the pile's top is a
    5 of a suit nobody entered. It is Ben's turn."""
    state = play(cambio_discarded_5(), Snap(BEN, 2, matched=True))
    assert state.round.discard[-1].value is None and state.round.turn == BEN
    return state


def test_CAB_6_a_matched_snap_tells_the_table_the_rank_of_the_discard_top():
    state = cambio_snapped_unknown_5()
    assert {C.view(state, seat)["round"]["discard_top_rank"] for seat in (ANA, BEN, CY, None)} == {"5"}
    assert C.view(cambio_discarded_5(), None)["round"]["discard_top_rank"] is None  # the 5♠ itself is known
    ruling = refused(state, TakeDiscard(BEN, "7H"))
    assert ruling.rule == "CAB-6" and ruling.overridable
    assert ruling.message == ("The top of the discard pile is a 5 (snapped onto a card of that rank at entry 3): "
                              "it cannot be a 7♥.")
    assert ruling.entries == (4, 3)
    taken = play(state, TakeDiscard(BEN, "5H"))  # the same rank: now known as the 5♥
    assert taken.round.pending.value == "5H" and C.view(taken, CY)["round"]["holding"]["card"] == "5H"
    assert play(state, TakeDiscard(BEN)).round.pending.value is None  # still fine unnamed
    # the table may still let it stand (GEN-5)
    assert play(state, Override(TakeDiscard(BEN, "7H"), "CAB-6", "the snap was a 7")).round.pending.value == "7H"


def test_CAB_6_the_rank_of_a_snapped_top_lasts_while_that_card_is_the_top():
    state = cambio_snapped_unknown_5()
    # once taken and another card discarded, the new top is not a 5 any more
    state = play(state, TakeDiscard(BEN), Replace(BEN, 1))
    assert C.view(state, None)["round"]["discard_top_rank"] is None
    assert play(state, TakeDiscard(CY, "7H")).round.pending.value == "7H"
    # a reshuffle leaves the top card where it is: still a 5
    kept = cambio_snapped_unknown_5()
    kept = dataclasses.replace(kept, round=dataclasses.replace(kept.round, draw=0))
    kept = play(kept, Reshuffle())
    assert len(kept.round.discard) == 1 and C.view(kept, None)["round"]["discard_top_rank"] == "5"
    assert refused(kept, TakeDiscard(BEN, "7H")).rule == "CAB-6"
    # a snap that did not match says nothing of the top
    wrong = play(cambio_discarded_5(), Snap(BEN, 1, matched=False))
    assert C.view(wrong, None)["round"]["discard_top_rank"] is None


def test_CAB_3_taking_the_discard_names_the_card_when_the_table_knows_it():
    """The history names the card taken from the discard pile when the entry says it (it lay face up, so
    every seat knows it: each seat's view shows it in hand); unknown, the words stay as they were."""
    players = ("Ana", "Ben")
    assert C.describe(TakeDiscard(BEN, "4"), players) == "Ben takes the top card of the discard pile, a 4."
    assert C.describe(TakeDiscard(BEN, "8H"), players) == "Ben takes the top card of the discard pile, an 8♥."
    assert C.describe(TakeDiscard(BEN), players) == "Ben takes the top card of the discard pile."
    state = play(match(2), TurnUp("5"), Draw(ANA), Discard(ANA, "4"))
    assert TakeDiscard(BEN, "4") in C.legal_moves(state, BEN)  # the public top, offered to the taker
    state = play(state, TakeDiscard(BEN, "4"))
    assert {C.view(state, seat)["round"]["holding"]["card"] for seat in (ANA, BEN, None)} == {"4"}


def test_CAB_V12_a_match_of_one_round_is_won_on_the_total_after_1_round():
    state = score_round(match(3, game_end="rounds", rounds_n=1), C1, caller=ANA)
    assert state.over and "lowest total after 1 round, CAB-V12" in state.outcome, state.outcome


def test_CAB_2_a_first_look_at_one_place_twice_is_refused_and_no_override_takes_it():
    """A first look at place 1 twice, as a 3 and a 5: refused (one card cannot show two faces), and never
    let stand by an override, which kept the 5 alone without a word."""
    state = play(match(2), TurnUp("5"))
    ruling = refused(state, InitialPeek(ANA, (1, 1), ("3", "5")))
    assert ruling.rule == "CAB-2" and not ruling.overridable and "given twice" in ruling.message
    assert refused(state, Override(InitialPeek(ANA, (1, 1), ("3", "5")), "CAB-2", "we agreed")).rule == "CAB-2"
