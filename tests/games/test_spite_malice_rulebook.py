"""Spite & Malice's engine checked rule by rule against RULES.md §3 (SM-1..SM-43, the SM-V switches, the
SM-A defaults, the SM-K checks): each test sets up the situation from the rule's words."""
from __future__ import annotations

import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(__file__))
from spite_malice_helpers import ANN, BOB, CY, go, refused, seat, table  # noqa: E402

from referee.games import spite_malice as sm  # noqa: E402

B, D, W, T = sm.Build, sm.Discard, sm.Draw, sm.Top


# --- SM-7: who starts ---------------------------------------------------------------------------

def tops(rules, a, b):
    s = sm.new_match(["Ann", "Bob"], rules)
    return go(s, T(ANN, a), T(BOB, b))


def test_SM_7_higher_top_starts():
    s = tops(None, "4H", "9S")
    assert s.phase == "play" and s.turn == BOB
    _, events = sm.apply(go(sm.new_match(["Ann", "Bob"]), T(ANN, "QS")), T(BOB, "7H"))
    said = [e["message"] for e in events if e.get("rule") == "SM-7"]
    assert said and "(Ann Q♠, Bob 7♥)" in said[0], "the tops are named as cards, not as codes"


def test_SM_3_the_tops_turned_up_at_the_deal_are_owed_under_the_deal_not_the_pay_off_reveal():
    s = go(sm.new_match(["Ann", "Bob"]), T(ANN, "4H"))
    assert s.reminders == (("SM-3", "Bob: turn up the pay-off top and enter it."),)
    r = refused(s, T(ANN, "5H"))
    assert r.rule == "SM-3" and "already entered" in r.message


def test_SM_V10_king_low_loses_to_a_queen():
    s = tops({"king_rank_for_start": "low"}, "KH", "QS")
    assert s.turn == BOB


def test_SM_V10_king_redo_turns_the_king_again():
    s = tops({"king_rank_for_start": "redo"}, "KH", "QS")
    assert s.phase == "setup" and s.seats[ANN].top_owed and not s.seats[BOB].top_owed
    s = go(s, T(ANN, "2D"))
    assert s.turn == BOB


def test_SM_V10_a_king_high_ties_a_king():
    s = tops(None, "KH", "KS")
    assert s.phase == "setup" and s.seats[ANN].top_owed and s.seats[BOB].top_owed


def test_SM_V9_coin_flip_either_tied_player_starts_but_not_another():
    s = sm.new_match(["Ann", "Bob", "Cy"], {"start_tie": "coin_flip"})
    s = go(s, T(ANN, "9H"), T(BOB, "9S"), T(CY, "4D"))
    assert s.phase == "setup"
    assert refused(s, sm.Start(CY)).rule == "SM-V9"
    assert go(s, sm.Start(BOB)).turn == BOB


# --- SM-11..SM-21: building and discarding ---------------------------------------------------------

def test_SM_12_a_king_on_a_jack_needs_no_queen():
    s = go(table(center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",)), B(ANN, 1, "hand", "KS"))
    assert s.center == () and s.completed == 1


def test_SM_12_a_queen_on_an_empty_space_refused():
    assert refused(table(), B(ANN, 1, "hand", "QS")).rule == "SM-12"


def test_SM_V4_king_cannot_start_a_pile():
    assert refused(table({"king_can_start_stack": False}), B(ANN, 1, "hand", "KS")).rule == "SM-12"


def test_SM_12_king_after_king_counts_on():
    s = go(table(center=("AH",)), B(ANN, 1, "hand", "KS"), B(ANN, 1, "hand", "KD"))
    assert len(s.center[0]) == 3
    assert refused(s, B(ANN, 1, "hand", "3C")).rule == "SM-12"
    assert len(go(s, B(ANN, 1, "hand", "4C")).center[0]) == 4


def test_SM_13_a_new_pile_after_one_completes():
    s = table(center=("AH", "AS", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"))
    s = go(s, B(ANN, 3, "hand", "QD"))
    assert len([x for x in s.center if x]) == 2
    s = go(s, B(ANN, 3, "hand", "AC"))
    assert len([x for x in s.center if x]) == 3


def test_SM_V2_unlimited_piles():
    s = table({"max_center_stacks": None}, center=("AH", "AS", "AD", "AC"))
    assert len(go(s, B(ANN, 5, "hand", "AH")).center) == 5


def test_SM_14_completed_pile_goes_into_the_stock_at_once():
    s = table(center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",), stock=30)
    s = go(s, B(ANN, 1, "hand", "QD"))
    assert s.stock == 42 and s.center == ()


def test_SM_V13_held_piles_are_shuffled_in_when_the_stock_is_short():
    s = table({"completed_stack_handling": "hold_until_stock_empty"},
              center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",), stock=2,
              seats={ANN: seat(hand=1)})
    s = go(s, B(ANN, 1, "hand", "QD"))
    # Ann's hand is empty: 5 are owed and the stock holds 2, so the held pile is shuffled in
    assert s.stock == 14 and s.held == () and s.owed == 5 and not s.over


def test_SM_V13_held_piles_wait_while_the_stock_lasts():
    s = table({"completed_stack_handling": "hold_until_stock_empty"},
              center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",), stock=20)
    s = go(s, B(ANN, 1, "hand", "QD"))
    assert s.stock == 20 and len(s.held) == 12 and s.center == ()


def test_SM_16_empty_hand_draws_five_and_carries_on():
    s = table(center=("AH",), seats={ANN: seat(hand=1)}, stock=30)
    s = go(s, B(ANN, 1, "hand", "2C"))
    assert s.owed == 5
    assert refused(s, B(ANN, 1, "payoff", "9H")).rule == "SM-16"
    s = go(s, W(ANN))
    assert s.seats[ANN].hand == 5 and s.turn == ANN


def test_SM_17_build_after_the_discard_refused():
    s = go(table(center=("AH",)), D(ANN, 1, "5S"))
    assert s.turn == BOB
    assert refused(s, B(ANN, 1, "hand", "2C")).rule == "SM-17"


def test_SM_19_center_card_never_moves():
    assert refused(table(center=("AH",)), D(ANN, 1, "AH", "pile1")).rule == "SM-19"


def test_SM_20_a_card_under_a_side_stack_top_refused():
    s = table(center=("AH",), seats={ANN: seat(sides=("2C 7D",))})
    assert refused(s, B(ANN, 1, "side1", "2C")).rule == "SM-20"
    assert refused(s, B(ANN, 1, "side1", "2H")).rule in ("SM-20", "SM-K2")


def test_SM_11_side_stack_top_builds():
    s = go(table(center=("AH",), seats={ANN: seat(sides=("7D 2C",))}), B(ANN, 1, "side1", "2C"))
    assert s.seats[ANN].sides[0] == ("7D",)


def test_SM_21_king_from_a_side_stack_is_wild():
    s = go(table(center=("AH 2H 3H",), seats={ANN: seat(sides=("KC",))}), B(ANN, 1, "side1", "KC"))
    assert len(s.center[0]) == 4


def test_SM_21_king_on_the_pay_off_pile_builds():
    s = go(table(center=("AH 2H",), seats={ANN: seat(top="KS")}), B(ANN, 1, "payoff", "KS"))
    assert len(s.center[0]) == 3 and s.seats[ANN].payoff == 19 and s.seats[ANN].top_owed


def test_SM_K8_pay_off_build_before_the_new_top_is_entered():
    s = go(table(center=("AH",), seats={ANN: seat(top="2S")}), B(ANN, 1, "payoff", "2S"))
    assert refused(s, B(ANN, 1, "payoff", "3S")).rule == "SM-K8"
    s = go(s, T(ANN, "3S"), B(ANN, 1, "payoff", "3S"))
    assert len(s.center[0]) == 3


def test_SM_V12_book_side_stacks():
    s = table({"side_stack_order": "same_or_one_lower"}, seats={ANN: seat(sides=("6D",))})
    assert go(s, D(ANN, 1, "5C")).seats[ANN].sides[0] == ("6D", "5C")
    assert go(s, D(ANN, 1, "6C")).seats[ANN].sides[0] == ("6D", "6C")
    assert refused(s, D(ANN, 1, "7C")).rule == "SM-V12"
    assert go(s, D(ANN, 1, "KC")).seats[ANN].sides[0] == ("6D", "KC")
    assert go(s, D(ANN, 2, "QC")).seats[ANN].sides[1] == ("QC",)


def test_SM_A9_payoff_compulsory_only_when_it_fits():
    s = table({"payoff_compulsory": True}, center=("AH",), seats={ANN: seat(top="2S")})
    assert refused(s, D(ANN, 1, "5C")).rule == "SM-A9"
    s2 = table({"payoff_compulsory": True}, center=("AH",), seats={ANN: seat(top="7S")})
    assert go(s2, D(ANN, 1, "5C")).turn == BOB


def test_SM_23_building_never_compulsory():
    s = table(center=("AH",), seats={ANN: seat(top="2S")})
    assert go(s, D(ANN, 1, "5C")).turn == BOB


# --- SM-10 / SM-K3 / SM-V5: refills ---------------------------------------------------------------

def test_SM_10_refill_at_the_start_of_the_next_turn():
    s = go(table(seats={ANN: seat(hand=5), BOB: seat(hand=5)}, stock=20), B(ANN, 1, "hand", "AS"),
           D(ANN, 1, "5C"))
    assert s.turn == BOB and s.owed == 0
    s = go(s, D(BOB, 1, "6C"))
    assert s.turn == ANN and s.owed == 2


def test_SM_V5_end_of_turn_refill_before_the_turn_passes():
    s = table({"refill_timing": "end_of_turn"}, stock=20)
    s = go(s, D(ANN, 1, "5C"))
    assert s.turn == ANN and s.owed == 1
    assert refused(s, B(ANN, 1, "hand", "AS")).rule == "SM-17"
    s = go(s, W(ANN))
    assert s.turn == BOB and s.seats[ANN].hand == 5 and s.owed == 0


# --- SM-40..SM-43: the end ----------------------------------------------------------------------

def test_SM_40_win_with_the_pay_off_pile_completing_a_pile():
    s = table(center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",), seats={ANN: seat(payoff=1, top="QS"),
                                                                   BOB: seat(payoff=7)},
              rules={"match_target": None})
    s = go(s, B(ANN, 1, "payoff", "QS"))
    assert s.over and s.winners == (ANN,) and s.history[-1].points == 12


def test_SM_42_cards_left_scoring():
    s = table({"scoring": "cards_left", "match_target": None}, center=("AH",),
              seats={ANN: seat(payoff=1, top="2S"), BOB: seat(payoff=7)})
    s = go(s, B(ANN, 1, "payoff", "2S"))
    assert s.over and s.history[-1].points == 7


def test_SM_42_no_points_a_win_is_still_recorded():
    s = table({"scoring": "none"}, center=("AH",), seats={ANN: seat(payoff=1, top="2S"), BOB: seat(payoff=7)})
    s = go(s, B(ANN, 1, "payoff", "2S"))
    assert s.over and s.winners == (ANN,)


def test_SM_A6_a_win_in_the_turn_the_stock_runs_out():
    s = table({"match_target": None}, center=("AH",), seats={ANN: seat(payoff=1, top="2S", hand=5),
                                                         BOB: seat(payoff=7)}, stock=0)
    s = go(s, B(ANN, 1, "payoff", "2S"))
    assert s.over and s.winners == (ANN,)


def test_SM_41_exhaustion_mid_turn_when_the_hand_empties():
    s = table(center=("AH",), seats={ANN: seat(hand=1, payoff=3), BOB: seat(payoff=5)}, stock=4,
              rules={"match_target": None})
    s = go(s, B(ANN, 1, "hand", "2C"))
    assert s.over and s.winners == (ANN,) and s.history[-1].how == "exhaustion"


def test_SM_V15_difference_points_on_exhaustion():
    s = table({"exhaustion_points": "difference", "match_target": None}, turn=BOB,
              seats={ANN: seat(payoff=3, hand=4), BOB: seat(payoff=5, hand=3)}, stock=0)
    s = go(s, D(BOB, 1, "5C"))
    assert s.over and s.winners == (ANN,) and s.history[-1].points == 2


def test_SM_43_a_match_ends_as_soon_as_a_player_reaches_the_target():
    s = table(center=("AH",), seats={ANN: seat(payoff=1, top="2S"), BOB: seat(payoff=7)})
    s = replace(s, totals=(39, 45))
    s = go(s, B(ANN, 1, "payoff", "2S"))
    assert s.over and s.winners == (ANN,) and s.totals == (51, 45)


def test_SM_43_below_the_target_a_new_game_is_dealt():
    s = table(center=("AH",), seats={ANN: seat(payoff=1, top="2S"), BOB: seat(payoff=7)})
    s = go(s, B(ANN, 1, "payoff", "2S"))
    assert not s.over and s.number == 2 and s.totals == (12, 0) and s.phase == "setup"


# --- SM-K7: ranks seen since they last entered the stock ---------------------------------------------

def test_SM_K7_cards_of_a_completed_pile_may_be_seen_again():
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"
    s = table(center=(full,), seats={ANN: seat(sides=("7C 7D 7S 7H", "7C 7D")), BOB: seat(sides=("7S",))})
    s = go(s, B(ANN, 1, "hand", "QD"))  # the pile with its 7 goes back into the stock
    assert go(s, D(ANN, 3, "7H")).seats[ANN].sides[2] == ("7H",)


def test_SM_V14_three_players_turns_go_round():
    s = table(n=3, stock=40)
    s = go(s, D(ANN, 1, "5C"))
    assert s.turn == BOB
    s = go(s, W(BOB), D(BOB, 1, "5D")) if s.owed else go(s, D(BOB, 1, "5D"))
    assert s.turn == CY


# --- SM-1..SM-6, SM-V1, SM-V11, SM-V14: the deal ------------------------------------------------------

def test_SM_V1_five_card_pay_off_piles_leave_84_in_the_stock():
    s = sm.new_match(["Ann", "Bob"], {"payoff_size": 5})
    assert s.stock == 84 and all(st.payoff == 5 and st.hand == 5 for st in s.seats)


def test_SM_V11_jokers_make_108_cards():
    s = sm.new_match(["Ann", "Bob"], {"jokers_wild": True})
    assert s.stock == 108 - 50


def test_SM_V14_three_players_deal_from_three_decks():
    s = sm.new_match(["Ann", "Bob", "Cy"])
    assert s.decks == 3 and s.stock == 156 - 75


def test_SM_V11_joker_is_wild_on_a_pile():
    s = go(table({"jokers_wild": True}, center=("AH 2H",)), B(ANN, 1, "hand", "JOKER"))
    assert len(s.center[0]) == 3


# --- SM-K1..K9 (§3.9): what the referee can check, and cards seen that contradict the table ----------

def test_SM_K1_every_build_is_checked_against_the_public_pile():
    s = table(center=("AH 2H 3H",))
    r = refused(s, B(ANN, 1, "hand", "5C"))
    assert r.rule == "SM-12" and r.overridable
    assert go(s, B(ANN, 1, "hand", "4C")).center[0][-1] == "4C"


def test_SM_K2_a_hand_build_costs_one_hand_card_and_an_empty_hand_has_none():
    s = go(table(center=("AH",)), B(ANN, 1, "hand", "2C"))
    assert s.seats[ANN].hand == 4
    empty = table(center=("AH",), seats={ANN: seat(hand=0)})
    assert refused(empty, B(ANN, 1, "hand", "2C")).rule == "SM-K3"


def test_SM_K2_a_side_stack_claim_must_be_its_public_top():
    s = table(center=("AH",), seats={ANN: seat(sides=("9C 2D",))})
    assert refused(s, B(ANN, 1, "side1", "2S")).rule == "SM-K2"
    s = go(s, B(ANN, 1, "side1", "2D"))
    assert s.seats[ANN].sides[0] == ("9C",) and s.seats[ANN].hand == 5


def test_SM_K3_a_refill_never_takes_the_hand_above_five():
    s = go(table(seats={BOB: seat(hand=5)}, stock=10), D(ANN, 1, "4C"))
    assert s.turn == BOB and s.owed == 0
    r = refused(s, W(BOB, 1))
    assert r.rule in ("SM-K3", "SM-10")


def test_SM_K4_one_discard_ends_the_turn_and_nothing_follows_it():
    s = go(table(), D(ANN, 1, "5C"))
    assert refused(s, D(ANN, 2, "6C")).rule in ("SM-17", "SM-K4")
    assert refused(s, B(ANN, 1, "hand", "AH")).rule in ("SM-17", "SM-K4")


def test_SM_K5_no_fifth_side_stack_and_no_fourth_building_pile():
    s = table(seats={ANN: seat(sides=("2C", "3C", "4C", "5C"))})
    assert refused(s, D(ANN, 5, "6C")).rule in ("SM-18", "SM-K5", "SM-V3")
    piles = table(center=("AH", "AS", "AD"))
    assert refused(piles, B(ANN, 4, "hand", "AC")).rule in ("SM-13", "SM-K5", "SM-V2")


def test_SM_K6_a_pile_completes_at_exactly_twelve_and_the_stock_rises_by_twelve():
    s = table(center=("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",))
    stock = s.stock
    s = go(s, B(ANN, 1, "hand", "QS"))
    assert s.center == () and s.stock == stock + 12


def test_SM_K7_a_pay_off_top_that_would_be_a_ninth_copy_is_refused_not_recorded():
    seats = {ANN: seat(sides=("7H 7S", "7D"), top="7C"), BOB: seat(sides=("7C 7H", "7S 7D"))}
    s = table(seats=seats, center=("AS 2S 3S 4S 5S 6S",))  # eight sevens face up, one of them Ann's top
    s = go(s, B(ANN, 1, "payoff", "7C"))
    r = refused(s, T(ANN, "7H"))
    assert r.rule == "SM-K7" and s.seats[ANN].top is None, "the contradiction is refused, never recorded"


def test_SM_K8_a_pay_off_top_entered_once_cannot_be_silently_replaced():
    s = table(seats={ANN: seat(top="9H")})
    r = refused(s, T(ANN, "4C"))
    assert r.rule == "SM-15" and "correct" in r.message
