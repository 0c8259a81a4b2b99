"""Shithead's engine checked rule by rule against RULES.md §4 (SH-1..SH-53, the SH-V switches, the SH-A
defaults): each test sets up the situation from the rule's words and checks the engine's answer."""
from __future__ import annotations

import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import ARI, BEA, CAL, DOV, NAMES, go, refused, table  # noqa: E402

from referee.games import shithead as sh  # noqa: E402
from referee.games.shithead_state import Seat  # noqa: E402

P, I, A, U = sh.Play, sh.Interrupt, sh.Add, sh.Pickup


def c(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def faceup_phase(*faceup: str, down: int = 3) -> Seat:
    return Seat(0, (), tuple(faceup), down, True)


def facedown_phase(down: int = 3) -> Seat:
    return Seat(0, (), (), down, True)


def hand(*known: str, count: int | None = None, faceup=(None, None, None), down: int = 3) -> Seat:
    return Seat(len(known) if count is None else count, tuple(sorted(known)), tuple(faceup), down, True)


# --- SH-12 / SH-30..SH-34: what goes on what -----------------------------------------------------------

def test_SH_30_a_two_on_a_seven_lifts_the_restriction():
    s = go(table(plays=[(DOV, "7H")]), P(ARI, c("2S")))
    assert go(s, P(BEA, c("AS"))).pile[-1].card == "AS"


def test_SH_33_restriction_lasts_until_the_next_natural_card_then_normal_order():
    s = go(table(plays=[(DOV, "7H")]), P(ARI, c("5S")))
    assert refused(s, P(BEA, c("4D"))).rule == "SH-12"
    assert go(s, P(BEA, c("KD"))).pile[-1].card == "KD"


def test_SH_33_a_seven_on_a_seven_is_legal():
    assert go(table(plays=[(DOV, "7H")]), P(ARI, c("7S"))).pile[-1].card == "7S"


def test_SH_A17_ace_after_a_seven_refused():
    assert refused(table(plays=[(DOV, "7H")]), P(ARI, c("AS"))).rule == "SH-33"


def test_SH_31_two_threes_on_a_seven_keep_the_restriction():
    s = table(plays=[(CAL, "7H"), (DOV, "3S"), (DOV, "3C")])
    assert refused(s, P(ARI, c("9D"))).rule == "SH-33"
    assert go(s, P(ARI, c("6D"))).pile[-1].card == "6D"


def test_SH_31_a_three_on_an_eight_does_not_skip_again():
    s = go(table(plays=[(DOV, "8H")]), P(ARI, c("3S")))
    assert s.turn == BEA
    assert refused(s, P(BEA, c("7D"))).rule == "SH-31"


def test_SH_31_only_threes_on_the_pile_anything_goes():
    s = table(plays=[(DOV, "3H")])
    assert go(s, P(ARI, c("4S"))).pile[-1].card == "4S"


def test_SH_34_an_eight_on_a_seven_is_refused_but_not_on_a_six():
    assert refused(table(plays=[(DOV, "7H")]), P(ARI, c("8S"))).rule == "SH-33"
    assert go(table(plays=[(DOV, "6H")]), P(ARI, c("8S"))).turn == CAL


def test_SH_V1_three_is_normal_goes_on_a_seven():
    s = table({"three_is_normal": True}, plays=[(DOV, "7H")])
    s = go(s, P(ARI, c("3S")))
    # an ordinary 3 is the card to beat now, no longer the 7
    assert go(s, P(BEA, c("9D"))).pile[-1].card == "9D"


def test_SH_V1_three_is_normal_is_not_transparent_for_the_eight():
    s = table({"three_is_normal": True}, plays=[(DOV, "8H")])
    assert refused(s, P(ARI, c("3S"))).rule == "SH-34"


def test_SH_V4_specials_anytime_an_eight_on_an_ace_skips():
    s = go(table({"specials_anytime": True}, plays=[(DOV, "AH")]), P(ARI, c("8S")))
    assert s.turn == CAL


def test_SH_V4_specials_anytime_a_nine_is_not_special_without_its_variant():
    assert refused(table({"specials_anytime": True}, plays=[(DOV, "AH")]), P(ARI, c("9S"))).rule == "SH-12"


def test_SH_V5_normal_nine_only_by_rank_and_reverses():
    assert refused(table({"nine_reverse": "normal"}, plays=[(DOV, "QH")]), P(ARI, c("9S"))).rule == "SH-12"
    s = go(table({"nine_reverse": "normal"}, plays=[(DOV, "5H")], turn=BEA), P(BEA, c("9S")))
    assert s.turn == ARI and s.direction == -1


def test_SH_A12_reversing_with_two_players_changes_nothing():
    s = go(table(2, {"nine_reverse": "strong"}, plays=[(BEA, "QH")]), P(ARI, c("9S")))
    assert s.turn == BEA


def test_SH_V6_after_a_nine_the_same_suit_replaces_the_rank():
    s = table({"nine_same_suit": True}, plays=[(DOV, "9H")])
    assert go(s, P(ARI, c("4H"))).pile[-1].card == "4H"
    assert refused(s, P(ARI, c("KS"))).rule == "SH-V6"
    assert go(s, P(ARI, c("2S"))).pile[-1].card == "2S"
    assert go(s, P(ARI, c("10C"))).burned


def test_SH_V15_blocked_ten_under_a_three_on_a_seven():
    s = table({"ten_after_seven": "blocked"}, plays=[(CAL, "7H"), (DOV, "3S")])
    assert refused(s, P(ARI, c("10S"))).rule == "SH-V15"


def test_SH_V15_blocked_ten_goes_on_an_eight():
    assert go(table({"ten_after_seven": "blocked"}, plays=[(DOV, "8H")]), P(ARI, c("10S"))).burned


# --- SH-34 / SH-V16: skipping ---------------------------------------------------------------------

def test_SH_34_capped_three_eights_with_three_players_play_again():
    s = go(table(3, plays=[(CAL, "5H")]), P(ARI, c("8S 8H 8D")))
    assert s.turn == ARI


def test_SH_V16_modular_three_eights_with_three_players():
    s = go(table(3, {"eight_skip_mode": "modular"}, plays=[(CAL, "5H")]), P(ARI, c("8S 8H 8D")))
    assert s.turn == BEA


def test_SH_34_skips_count_only_players_still_in():
    s = table(4, plays=[(DOV, "5H")], out=(BEA,), seats={BEA: Seat(0, (), (), 0, True)})
    s = go(s, P(ARI, c("8S")))
    assert s.turn == DOV  # Cal skipped, Bea is out


def test_SH_37_going_out_on_an_eight_still_skips():
    s = table(4, stock=0, plays=[(DOV, "5H")], seats={ARI: hand("8S", faceup=(), down=0)})
    s = go(s, P(ARI, c("8S")))
    assert ARI in s.out and s.turn == CAL


def test_SH_37_going_out_on_a_seven_still_restricts():
    s = table(4, stock=0, plays=[(DOV, "5H")], seats={ARI: hand("7S", faceup=(), down=0)})
    s = go(s, P(ARI, c("7S")))
    assert ARI in s.out and s.turn == BEA
    assert refused(s, P(BEA, c("9D"))).rule == "SH-33"


# --- SH-32 / SH-35 / SH-36: burns ------------------------------------------------------------------

def test_SH_36_several_tens_burn_once():
    s = go(table(plays=[(DOV, "5H")]), P(ARI, c("10S 10H")))
    assert s.pile == () and s.turn == ARI and sorted(s.burned) == ["10H", "10S", "5H"]


def test_SH_A18_two_decks_five_sevens_at_once_burn():
    s = table(6, stock=20, plays=[(DOV, "5H")], seats={ARI: hand("7S", "7S", "7H", "7H", "7D")})
    s = go(s, P(ARI, c("7S 7S 7H 7H 7D")))
    assert s.pile == () and s.turn == ARI


def test_SH_35_four_threes_in_a_row_burn():
    s = go(table(plays=[(BEA, "3H"), (CAL, "3S"), (DOV, "3D")]), P(ARI, c("3C")))
    assert s.pile == () and s.turn == ARI


def test_SH_V18_burn_passes_the_turn():
    s = go(table({"burn_plays_again": False}, plays=[(DOV, "5H")]), P(ARI, c("10S")))
    assert s.pile == () and s.turn == BEA


def test_SH_A15_burn_on_the_last_card_the_next_active_player_leads():
    s = table(4, stock=0, plays=[(DOV, "5H")], seats={ARI: hand("10S", faceup=(), down=0)})
    s = go(s, P(ARI, c("10S")))
    assert ARI in s.out and s.pile == () and s.turn == BEA


def test_SH_15_refill_comes_before_playing_again_after_a_burn():
    s = table(stock=5, plays=[(DOV, "5H")], seats={ARI: hand("10S", count=3)})
    s = go(s, P(ARI, c("10S")))
    assert s.seats[ARI].count == 3 and s.stock == 4 and s.turn == ARI


def test_SH_V14_copies_below_a_three_on_three_fives_burns():
    s = table({"three_in_quartet": "copies_below"}, plays=[(BEA, "5H"), (CAL, "5S"), (DOV, "5D")])
    s = go(s, P(ARI, c("3C")))
    assert s.pile == () and s.turn == ARI


# --- SH-14 / SH-16..SH-20: picking up and the table phases -------------------------------------------

def test_SH_14_after_a_pickup_the_next_player_leads_anything():
    s = go(table(plays=[(DOV, "AH")]), U(ARI))
    assert s.turn == BEA and s.pile == () and s.seats[ARI].count == 4
    assert go(s, P(BEA, c("4S"))).pile[-1].card == "4S"


def test_SH_16_face_up_cards_while_the_stock_lasts_are_refused():
    s = table(stock=3, seats={ARI: Seat(0, (), ("5H", "6H", "7H"), 3, True)})
    # a hand of 0 with a stock cannot happen in play, but the face-up card is still not playable
    assert refused(s, P(ARI, c("5H"))).rule in ("SH-16", "SH-K2")


def test_SH_18_one_at_a_time_two_face_up_cards_refused():
    s = table(stock=0, plays=[(DOV, "4H")], seats={ARI: faceup_phase("5H", "5S", "KD")})
    assert refused(s, P(ARI, c("5H 5S"))).rule == "SH-18"


def test_SH_18_legal_face_up_card_is_played_and_the_turn_passes():
    s = go(table(stock=0, plays=[(DOV, "4H")], seats={ARI: faceup_phase("5H", "5S", "KD")}), P(ARI, c("KD")))
    assert s.seats[ARI].faceup == ("5H", "5S") and s.turn == BEA


def test_SH_20_after_a_table_pickup_the_hand_is_played_first():
    s = table(stock=0, plays=[(DOV, "KH")], seats={ARI: faceup_phase("5H", "5S", "QD")})
    s = go(s, P(ARI, c("5H")))
    assert s.seats[ARI].count == 2 and s.seats[ARI].faceup == ("5S", "QD")
    # back to Ari later: the face-up Q waits for the hand (the hand holds the K and the 5, not a Q)
    s = replace(s, turn=ARI)
    assert refused(s, P(ARI, c("QD"))).rule == "SH-K4"


def test_SH_19_face_down_card_that_goes_is_played():
    s = go(table(stock=0, plays=[(DOV, "4H")], seats={ARI: facedown_phase(2)}), P(ARI, c("9S")))
    assert s.seats[ARI].facedown == 1 and s.pile[-1].card == "9S" and s.turn == BEA


def test_SH_19_face_down_eight_on_a_seven_picks_up_the_pile_and_the_card():
    s = go(table(stock=0, plays=[(DOV, "7H")], seats={ARI: facedown_phase(2)}), P(ARI, c("8S")))
    st = s.seats[ARI]
    assert st.facedown == 1 and st.count == 2 and sorted(st.known) == ["7H", "8S"] and s.pile == ()
    assert s.turn == BEA


def test_SH_19_face_down_ten_burns_and_the_player_goes_again():
    s = go(table(stock=0, plays=[(DOV, "KH")], seats={ARI: facedown_phase(2)}), P(ARI, c("10S")))
    assert s.pile == () and s.turn == ARI and s.seats[ARI].facedown == 1


def test_SH_19_last_face_down_card_that_goes_puts_the_player_out():
    s = go(table(stock=0, plays=[(DOV, "4H")], seats={ARI: facedown_phase(1)}), P(ARI, c("9S")))
    assert ARI in s.out and s.turn == BEA


def test_SH_19_two_face_down_cards_refused():
    s = table(stock=0, plays=[(DOV, "4H")], seats={ARI: facedown_phase(2)})
    assert refused(s, P(ARI, c("9S 9H"))).rule == "SH-19"


def test_SH_A8_voluntary_pickup_in_the_face_down_phase():
    s = go(table(stock=0, plays=[(DOV, "4H")], seats={ARI: facedown_phase(2)}), U(ARI))
    assert s.seats[ARI].count == 1 and s.seats[ARI].facedown == 2


def test_SH_V12_same_rank_set_illegal_face_up_refused():
    s = table({"faceup_play": "same_rank_set"}, stock=0, plays=[(DOV, "KH")],
              seats={ARI: faceup_phase("5H", "5S", "QD")})
    assert refused(s, P(ARI, c("5H 5S"))).rule == "SH-12"


# --- SH-40..SH-43: interrupts ------------------------------------------------------------------

def test_SH_40_interrupt_from_face_up_cards():
    s = table(stock=0, turn=CAL, plays=[(BEA, "QH QS")], seats={DOV: faceup_phase("QD", "QC", "4S")})
    s = go(s, I(DOV, c("QD QC")))
    assert s.pile == () and s.turn == DOV and s.seats[DOV].faceup == ("4S",)


def test_SH_A9_interrupt_with_face_down_cards_refused():
    s = table(stock=0, turn=CAL, plays=[(BEA, "QH QS QD")], seats={DOV: facedown_phase(2)})
    assert refused(s, I(DOV, c("QC"))).rule == "SH-40"


def test_SH_40_interrupt_that_does_not_make_four_refused():
    s = table(turn=CAL, plays=[(BEA, "QH")], seats={DOV: hand("QD", count=3)})
    assert refused(s, I(DOV, c("QD"))).rule == "SH-40"


def test_SH_40_play_continues_from_the_interrupter_after_playing_again():
    s = table(turn=CAL, plays=[(BEA, "QH QS")], seats={DOV: hand("QD", "QC", count=3)})
    s = go(s, I(DOV, c("QD QC")), P(DOV, c("4S")))
    assert s.turn == ARI


def test_SH_40_interrupt_refills_the_interrupter():
    s = table(turn=CAL, stock=5, plays=[(BEA, "QH QS")], seats={DOV: hand("QD", "QC", count=3)})
    s = go(s, I(DOV, c("QD QC")))
    assert s.seats[DOV].count == 3 and s.stock == 3


def test_SH_41_added_eight_adds_a_skip():
    s = table(stock=5, plays=[(DOV, "5H")], seats={ARI: hand("8S", count=1)})
    s = go(s, P(ARI, c("8S")))
    assert s.turn == CAL and s.last is not None and s.last.drawn == 3
    s = go(s, A(ARI, c("8H")))
    assert s.turn == DOV


def test_SH_41_added_card_completing_four_burns_and_the_adder_plays_again():
    s = table(stock=5, plays=[(CAL, "6H"), (DOV, "6D")], seats={ARI: hand("6S", count=3)})
    s = go(s, P(ARI, c("6S")))
    s = go(s, A(ARI, c("6C")))
    assert s.pile == () and s.turn == ARI


def test_SH_41_add_after_the_next_play_is_too_late():
    s = table(stock=5, plays=[(DOV, "5H")], seats={ARI: hand("6S", count=3)})
    s = go(s, P(ARI, c("6S")), P(BEA, c("9D")))
    assert refused(s, A(ARI, c("6C"))).rule == "SH-43"


def test_SH_41_only_the_player_who_just_played_may_add():
    """Cal never played on this pile: his "add" is not too late (SH-43), it is not his to make (SH-41), and
    the ruling points at the play it would add to."""
    s = go(table(stock=5, plays=[(DOV, "5H")], seats={ARI: hand("6S", count=3)}), P(ARI, c("6S")))
    ruling = refused(s, A(CAL, c("6C")))
    assert ruling.rule == "SH-41" and ruling.message == "Only Ari, who just played, may add to that play; Cal did not play it."
    assert s.last_entry in ruling.entries


def test_SH_41_add_of_a_rank_not_played_refused():
    s = go(table(stock=5, plays=[(DOV, "5H")], seats={ARI: hand("6S", count=3)}), P(ARI, c("6S")))
    assert refused(s, A(ARI, c("7C"))).rule == "SH-41"


def test_SH_41_nothing_drawn_nothing_to_add():
    s = go(table(stock=0, plays=[(DOV, "5H")], seats={ARI: hand("6S", "6C", count=3)}), P(ARI, c("6S")))
    assert refused(s, A(ARI, c("6C"))).rule == "SH-43"


def test_SH_42_adding_with_two_players_refused():
    s = go(table(2, stock=5, plays=[(BEA, "5H")], seats={ARI: hand("6S", count=3)}), P(ARI, c("6S")))
    assert refused(s, A(ARI, c("6C"))).rule == "SH-42"


def test_SH_V3_interrupts_off():
    s = table({"interrupts": False}, turn=CAL, plays=[(BEA, "QH QS")], seats={DOV: hand("QD", "QC", count=3)})
    assert refused(s, I(DOV, c("QD QC"))).rule == "SH-V3"


# --- SH-4 / SH-K7: the start ------------------------------------------------------------------

def test_SH_K7_own_face_up_card_declared_as_the_lowest_is_not_a_fifth_copy():
    """SH-V19 hand_and_faceup: the starter's lowest card may be one of their own face-up cards."""
    s = sh.new_match(NAMES[:4], {"start_rank_zones": "hand_and_faceup"})
    s = go(s, sh.FaceUp(ARI, c("4H KS KD")), sh.FaceUp(BEA, c("QH QS QD")), sh.FaceUp(CAL, c("JH JS JD")),
           sh.FaceUp(DOV, c("AH AS AD")))
    s = go(s, sh.Start(ARI, "4H"))
    assert s.phase == "play" and s.turn == ARI and not s.flags
    # the 4 lies face up, so the first play from the hand need not include a 4 (SH-V17 cannot bind)
    assert go(s, P(ARI, c("9S"))).pile[-1].card == "9S"


def test_SH_K7_equal_face_up_card_nearer_the_dealers_left_starts():
    """SH-4: of several players with the lowest card, the first clockwise from the dealer's left
    starts; with face-up cards counting (SH-V19), an equal public card earlier in that order is flagged."""
    def started(declarer, card, faceup_fives, dealer=ARI):
        s = sh.new_match(NAMES[:4], {"start_rank_zones": "hand_and_faceup"}, dealer=dealer)
        others = ("QH QS KH", "JH JS KS", "AH AS KD", "9H 9S KC")
        for seat in range(4):
            s = go(s, sh.FaceUp(seat, c("5S 10H 10S") if seat in faceup_fives else c(others[seat])))
        return go(s, sh.Start(declarer, card))
    flagged = started(CAL, "5C", {BEA})  # dealer Ari: Bea is first from the dealer's left
    assert [f.rule for f in flagged.flags] == ["SH-K7"]
    assert flagged.flags[0].message.startswith("Bea shows 5♠ face up, as low as Cal's 5♣")
    assert "Bea starts" in flagged.flags[0].message
    assert started(BEA, "5C", {CAL}).flags == ()  # Cal's 5 comes after Bea's
    assert started(ARI, "5C", {DOV}).flags != ()  # Ari is the dealer: last in the order, after Dov
    assert started(ARI, "5C", {DOV}, dealer=DOV).flags == ()  # the dealer Dov's left is Ari: Ari first
    lower = started(CAL, "6C", {BEA})
    assert "lower than Cal's 6♣" in lower.flags[0].message


def test_SH_V11_dealer_left_starts():
    s = sh.new_match(NAMES[:4], {"start_rank_rule": "dealer_left"}, dealer=BEA)
    for seat in range(4):
        s = go(s, sh.FaceUp(seat, c("KH KS KD") if seat == 0 else (None, None, None)))
    assert refused(s, sh.Start(ARI)).rule == "SH-V11"
    assert go(s, sh.Start(CAL)).turn == CAL


def test_SH_V7_no_swapping():
    s = sh.new_match(NAMES[:2], {"faceup_swap_allowed": False})
    s = go(s, sh.FaceUp(ARI, c("KH KS KD")))
    assert refused(s, sh.Swap(ARI, "4H", "KH")).rule == "SH-V7"


# --- SH-50..SH-53: the end ---------------------------------------------------------------------

def test_SH_52_first_out_wins_ends_at_once():
    s = table(4, {"end_mode": "first_out_wins"}, stock=0, plays=[(DOV, "5H")],
              seats={ARI: hand("9S", faceup=(), down=0)})
    s = go(s, P(ARI, c("9S")))
    assert s.over and s.winners == (ARI,)


def test_SH_53_the_shithead_deals_the_next_game():
    s = table(2, {"games": 2}, stock=0, plays=[(BEA, "5H")], seats={ARI: hand("9S", faceup=(), down=0)})
    s = go(s, P(ARI, c("9S")))
    assert not s.over and s.number == 2 and s.dealer == BEA and s.tally == (0, 1)


# --- SH-1 / SH-V9 / SH-A14: decks ----------------------------------------------------------------

def test_SH_A14_six_players_with_jokers_still_take_two_decks():
    s = sh.new_match(NAMES[:6], {"jokers": True})
    assert s.decks == 2 and s.stock == 108 - 54


def test_SH_V9_five_players_one_deck_and_more_face_down_cards_need_two():
    assert sh.new_match(NAMES[:5]).decks == 1 and sh.new_match(NAMES[:5]).stock == 7
    assert sh.new_match(NAMES[:5], {"facedown_count": 4}).decks == 1  # 50 cards dealt: one deck holds them
    s = sh.new_match(NAMES[:5], {"facedown_count": 5})
    assert s.decks == 2 and s.stock == 104 - 55


# --- SH-A13 / SH-35 / SH-40: jokers, runs and skipped interrupters ------------------------------------

def test_SH_A13_a_joker_named_as_the_run_rank_completes_four():
    s = table({"jokers": True}, plays=[(BEA, "9H"), (CAL, "9S"), (DOV, "9D")], seats={ARI: hand("JOKER", count=3)})
    s = go(s, P(ARI, c("JOKER"), "9"))
    assert s.pile == () and s.turn == ARI and "JOKER" in s.burned


def test_SH_A13_a_joker_named_as_a_ten_burns():
    s = go(table({"jokers": True}, plays=[(DOV, "KH")], seats={ARI: hand("JOKER", count=3)}),
           P(ARI, c("JOKER"), "10"))
    assert s.pile == () and s.turn == ARI


def test_SH_13_a_joker_without_its_rank_refused():
    s = table({"jokers": True}, plays=[(DOV, "KH")], seats={ARI: hand("JOKER", count=3)})
    assert refused(s, P(ARI, c("JOKER"))).rule == "SH-13"


def test_SH_13_mixed_ranks_refused():
    assert refused(table(plays=[(DOV, "5H")]), P(ARI, c("9S 9H 8D"))).rule == "SH-13"


def test_SH_35_four_twos_across_plays_burn():
    s = go(table(plays=[(BEA, "2H"), (CAL, "2S"), (DOV, "2D")]), P(ARI, c("2C")))
    assert s.pile == () and s.turn == ARI


def test_SH_40_a_skipped_player_may_interrupt():
    s = go(table(plays=[(DOV, "5H")], turn=BEA), P(BEA, c("8H 8S")))
    assert s.turn == ARI  # Cal and Dov skipped
    s = go(s, I(CAL, c("8D 8C")))
    assert s.pile == () and s.turn == CAL


def test_SH_43_an_interrupt_after_a_pickup_is_too_late():
    s = go(table(turn=CAL, plays=[(BEA, "QH QS")]), U(CAL))
    assert refused(s, I(DOV, c("QD QC"))).rule == "SH-43"


# --- SH-K1..K11 (§4.11): what the referee can check; a card turned up that contradicts the table -------

def test_SH_K1_every_play_is_checked_against_the_public_pile():
    s = table(plays=[(DOV, "QH")])
    r = refused(s, P(ARI, c("9S")))
    assert r.rule == "SH-12" and r.overridable


def test_SH_K2_a_face_up_card_is_only_one_the_table_saw_there():
    s = table(stock=0, plays=[(DOV, "4H")], seats={ARI: faceup_phase("5H", "6S", "KD")})
    assert refused(s, P(ARI, c("9C"))).rule == "SH-16"


def test_SH_K4_picked_up_cards_are_known_to_all():
    s = go(table(plays=[(DOV, "KH"), (ARI, "KS")], turn=BEA), U(BEA))
    assert s.seats[BEA].known == ("KH", "KS") and s.seats[BEA].count == 5
    seen = sh.view(s, CAL)["seats"][BEA]
    assert seen["known"] == ["KH", "KS"] and seen["unknown"] == 3


def test_SH_K4_a_known_hand_cannot_play_a_card_it_does_not_hold():
    s = table(stock=0, plays=[(DOV, "4H")], seats={ARI: Seat(2, ("9S", "KD"), (), 3, True)})
    assert refused(s, P(ARI, c("7C"))).rule == "SH-K4"
    assert go(s, P(ARI, c("9S"))).seats[ARI].known == ("KD",)


def test_SH_K5_every_copy_known_elsewhere_makes_the_play_impossible():
    s = table(plays=[(DOV, "5H 5S 5D")], seats={BEA: Seat(3, ("5C",), (None, None, None), 3, True)})
    r = refused(s, P(ARI, c("5C")))
    assert r.rule in ("SH-K5", "GEN-3") and r.overridable


def test_SH_K6_the_referee_burns_a_ten_itself():
    s, events = sh.apply(table(plays=[(DOV, "9H")]), P(ARI, c("10S")))
    assert s.pile == () and s.burned[-2:] == ("9H", "10S")
    assert s.turn == ARI, "the player who burns plays again"


def test_SH_K6_the_referee_burns_four_of_a_kind_across_plays():
    s = go(table(plays=[(CAL, "8H"), (DOV, "8S")]), P(ARI, c("8D 8C")))
    assert s.pile == () and s.turn == ARI


def test_SH_K9_a_face_down_card_that_cannot_go_is_picked_up_with_the_pile():
    s = table(stock=0, plays=[(DOV, "KH")], seats={ARI: Seat(0, (), (), 2, True)})
    s, events = sh.apply(s, P(ARI, c("4S")))
    assert [e["rule"] for e in events if e.get("kind") == "fail"] == ["SH-19"]
    assert s.seats[ARI].known == ("4S", "KH") and s.seats[ARI].facedown == 1 and s.pile == ()


def test_SH_K9_a_revealed_face_down_card_beyond_the_deck_is_refused_not_counted():
    s = table(stock=0, plays=[(CAL, "KH KS KD"), (DOV, "KC")], seats={ARI: Seat(0, (), (), 2, True)})
    s = replace(s, pile=s.pile[-1:], burned=tuple(p.card for p in s.pile[:-1]))
    r = refused(s, P(ARI, c("KH")))
    assert r.rule in ("SH-K5", "GEN-3", "SH-K11")


def test_SH_K11_conservation_after_a_pickup_and_a_burn():
    def total(st):
        return (st.stock + len(st.pile) + len(st.burned)
                + sum(x.count + len(x.faceup) + x.facedown for x in st.seats))
    s = table(stock=10, plays=[(DOV, "9H")])
    start = total(s)
    s = go(s, P(ARI, c("10S")), P(ARI, c("5D")), U(BEA))
    assert total(s) == start


def test_SH_12_rule_text_follows_the_tables_three():
    """Where a 3 is an ordinary card (SH-V1), the rule text shown with an SH-12 ruling does not name it
    among the cards that go on anything (nor SH-11 as see-through, nor SH-33 as allowed after a 7)."""
    from referee.games import shithead as SH

    plain = SH.rule_text("SH-12")
    assert "a 2, 3 or 10 goes on anything" in plain
    assert SH.rule_text("SH-12", {**SH.new_match(("Ana", "Ben")).rules}) == plain  # the default: 3 is special
    normal = {**SH.new_match(("Ana", "Ben")).rules, "three_is_normal": True}
    text = SH.rule_text("SH-12", normal)
    assert "2, 3 or 10" not in text and "a 2 or 10 goes on anything" in text and "3 lowest" in text
    assert "see-through" not in SH.rule_text("SH-11", normal) and "3" not in SH.rule_text("SH-33", normal)
    assert SH.rule_text("SH-10", normal) == SH.rule_text("SH-10")
