"""Rat-a-Tat Cat checked rule by rule against RULES.md §1 (RTC-1..RTC-55, the RTC-V switches away from
their defaults, the RTC-A defaults, the worked examples and the knowledge rules RTC-K1..K12): each test sets
up the situation from the rule's words and checks the engine's answer."""
from __future__ import annotations

from referee.games import ratatat as R
from referee.games.base import Override, ResolveFlag
from referee.games.ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle, Reveal,
                                         RevealDraw, Stalemate, Swap, TakeDiscard, TimeUp, TurnUp, UsePower)

from .ratatat_helpers import ANA, BEN, CY, DEE, match, plain_turn, play, refused, score_round


def started(n=2, top="5", **rules):
    return play(match(n, **rules), TurnUp(top))


def top(state):
    return state.round.discard[-1].value


def rows_known(state, seat):
    return [t.value for t in state.round.rows[seat]]


def to_reveal(state):
    while state.round.step != "reveal":
        state = plain_turn(state, state.round.turn)
    return state


def count_total(state):
    c = R.zone_counts(state)
    return sum(c.values())


# --- 1.3 Setup ---------------------------------------------------------------------------------------

def test_RTC_1_fewer_than_two_players_cannot_start():
    import pytest

    from referee.games.base import Ruling
    with pytest.raises(Ruling) as info:
        R.new_match(["Ana"])
    assert info.value.rule == "RTC-1"


def test_RTC_4_slots_numbered_from_the_owners_left_keep_their_cards():
    state = started(2, "3")
    state = play(state, TakeDiscard(ANA), Replace(ANA, 4, "7"))
    assert rows_known(state, ANA) == [None, None, None, "3"]
    assert top(state) == "7"


def test_RTC_5_power_card_turned_up_is_returned_until_a_number_card():
    state = match(2)
    for power in ("PEEK", "DRAW2"):
        state, events = R.apply(state, TurnUp(power))
        assert events[0]["rule"] == "RTC-5" and state.round.awaiting_turn_up
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-5"
    state = play(state, TurnUp("0"))
    assert top(state) == "0" and state.round.draw == 54 - 8 - 1


def test_RTC_6_initial_peek_is_private_to_its_owner():
    state = play(match(2), InitialPeek(ANA, (1, 4), ("2", "9")), TurnUp("5"))
    assert rows_known(state, ANA) == [None] * 4, "a private look is not public knowledge (GEN-6)"
    assert refused(state, InitialPeek(ANA, (1, 4))).rule == "RTC-6"
    assert refused(state, InitialPeek(BEN, (1, 2))).rule == "RTC-6"


def test_RTC_6_no_peek_after_the_players_first_turn():
    state = plain_turn(started(2), ANA)
    assert refused(state, InitialPeek(ANA, (1, 4))).rule == "RTC-6"


def test_RTC_7_power_card_from_the_deal_stays_without_power():
    state = play(started(2), Draw(ANA))
    assert refused(state, UsePower(ANA, "SWAP", from_slot=1)).rule == "RTC-7"


def test_RTC_8_player_left_of_the_dealer_starts_and_play_goes_clockwise():
    state = R.new_match(["Ana", "Ben", "Cy"], None, dealer="Ana")
    state = play(state, TurnUp("5"))
    assert state.round.turn == BEN
    state = plain_turn(state, BEN)
    assert state.round.turn == CY
    state = plain_turn(state, CY)
    assert state.round.turn == ANA


def test_RTC_9_deal_passes_one_seat_clockwise_each_round():
    state = match(3)
    dealer = state.round.dealer
    state = score_round(state, {ANA: 10, BEN: 12, CY: 14})
    assert state.round.dealer == (dealer + 1) % 3
    assert state.round.turn == (dealer + 2) % 3
    assert state.round.draw == 54 - 12 and not state.round.discard, "the whole deck is gathered again"


# --- 1.4 Turn ----------------------------------------------------------------------------------------

def test_RTC_10_a_player_may_not_pass_or_take_two_cards():
    state = play(started(2), Draw(ANA))
    assert refused(state, Draw(ANA)).rule == "RTC-10"
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-10"
    assert refused(started(2), Call(ANA)).rule == "RTC-40", "a call does not replace taking a card (RTC-20)"


def test_RTC_11_a_card_from_the_discard_pile_must_replace_a_row_card():
    state = play(started(2, "4"), TakeDiscard(ANA))
    assert refused(state, Discard(ANA, "4")).rule == "RTC-11"
    assert refused(state, UsePower(ANA, "PEEK")).rule in ("RTC-13", "RTC-19")
    state = play(state, Replace(ANA, 2, "6"))
    assert rows_known(state, ANA)[1] == "4" and top(state) == "6" and state.round.turn == BEN


def test_RTC_12_power_card_on_the_discard_top_cannot_be_taken_but_the_table_can_override():
    state = play(started(2), Draw(ANA), Discard(ANA, "SWAP"))
    ruling = refused(state, TakeDiscard(BEN))
    assert ruling.rule == "RTC-12" and ruling.overridable
    state = play(state, Override(TakeDiscard(BEN), "RTC-12", "we allow it"))
    assert state.overrides[0][1] == "RTC-12"
    # The override waives RTC-12 for that entry only: the card still gives no power (RTC-19).
    assert refused(state, UsePower(BEN, "SWAP")).rule == "RTC-19"


def test_RTC_13_drawn_card_is_seen_only_by_the_drawer():
    state = play(started(2), Draw(ANA, "3"))
    assert state.round.pending.value is None and state.round.pending.noted_by(ANA) == "3"
    assert R.view(state, BEN)["round"]["rows"]["Ana"]["slots"][0]["card"] is None
    state = play(state, Replace(ANA, 1, "8"))
    assert rows_known(state, ANA)[0] is None, "the placed card stays unknown to the table (RTC-K11)"


def test_RTC_13_shown_card_is_public():
    state = play(started(2), Draw(ANA, "3", shown=True), Replace(ANA, 1, "8"))
    assert rows_known(state, ANA)[0] == "3"


def test_RTC_14_replacement_records_slot_incoming_and_outgoing():
    state, events = R.apply(play(started(2), Draw(ANA)), Replace(ANA, 2, "6"))
    assert {"kind": "replaced", "seat": ANA, "slot": 2, "out": "6"} in events
    assert top(state) == "6" and len(state.round.rows[ANA]) == 4


def test_RTC_15_drawn_power_card_may_go_into_the_row_by_default():
    state = play(started(2), Draw(ANA, "DRAW2"), Replace(ANA, 2, "9"))
    assert state.round.turn == BEN and not state.flags


def test_RTC_15_V5_forbidden_refuses_a_known_power_into_the_row():
    state = play(started(2, power_into_row="forbidden"), Draw(ANA, "PEEK"))
    assert refused(state, Replace(ANA, 2, "9")).rule == "RTC-15"
    state = play(state, Discard(ANA, "PEEK"))
    assert state.round.turn == BEN


def test_RTC_16_plain_turn_adds_exactly_one_card_to_the_discard_pile():
    state = started(2)
    before = len(state.round.discard)
    state = play(state, Draw(ANA), Replace(ANA, 1, "7"))
    assert len(state.round.discard) == before + 1
    state = play(state, Draw(BEN), UsePower(BEN, "PEEK"), Peek(BEN, 2))
    assert len(state.round.discard) == before + 2, "Peek: the power card only"


def test_RTC_17_rows_always_hold_four_cards():
    state = play(started(3), Draw(ANA), UsePower(ANA, "SWAP"), Swap(ANA, 1, CY, 4),
                 Draw(BEN), Replace(BEN, 3, "2"))
    assert all(len(row) == 4 for row in state.round.rows)


def test_RTC_18_empty_draw_pile_is_remade_from_the_discard_pile_and_a_new_discard_turned():
    state = started(2)
    state = R.state_from_dict({**R.state_to_dict(state)})
    # Play until the draw pile is empty: every turn draws one card and discards it.
    while state.round.draw:
        state = plain_turn(state, state.round.turn)
    seat = state.round.turn
    assert refused(state, Draw(seat)).rule == "RTC-18"
    discards = len(state.round.discard)
    state = play(state, Reshuffle())
    assert state.round.draw == discards and not state.round.discard and state.round.awaiting_turn_up
    assert refused(state, Draw(seat)).rule == "RTC-18"
    state, events = R.apply(state, TurnUp("SWAP"))
    assert events[0]["rule"] == "RTC-5", "a power card turned up is handled as at the deal"
    state = play(state, TurnUp("1"), Draw(seat))
    assert count_total(state) == 54


def test_RTC_19_power_of_a_card_taken_from_the_discard_pile_does_not_work():
    state = play(started(2, power_from_discard="allowed_no_power"), Draw(ANA), Discard(ANA, "PEEK"),
                 TakeDiscard(BEN))
    assert refused(state, UsePower(BEN, "PEEK")).rule == "RTC-19"


def test_RTC_19_replacement_drawn_at_reveal_has_no_power():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("1", "SWAP", "2", "3")), Reveal(BEN, ("4", "4", "4", "4")))
    state = play(state, RevealDraw(ANA, 2, "PEEK"))
    assert refused(state, Peek(ANA, 1)).rule == "RTC-31"
    state = play(state, RevealDraw(ANA, 2, "0"))
    assert state.history[-1].scores[ANA] == 6


def test_RTC_20_call_comes_after_a_complete_turn():
    state = play(started(2), Draw(ANA), Discard(ANA))
    state = play(state, Call(ANA))
    assert state.round.caller == ANA and state.round.turn == BEN


# --- 1.5 Powers --------------------------------------------------------------------------------------

def test_RTC_30_drawn_power_may_be_discarded_with_no_effect():
    state = play(started(2), Draw(ANA), Discard(ANA, "SWAP"))
    assert state.round.turn == BEN and top(state) == "SWAP"


def test_RTC_30_V6_false_a_drawn_power_must_be_used():
    state = play(started(2, power_use_optional=False), Draw(ANA, "SWAP"))
    assert refused(state, Discard(ANA, "SWAP")).rule == "RTC-30"
    state = play(state, UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA)).rule == "RTC-30"
    state = play(state, Swap(ANA, 1, BEN, 1))
    assert state.round.turn == BEN


def test_RTC_31_peek_looks_at_one_own_card_privately():
    state = play(started(2), Draw(ANA), UsePower(ANA, "PEEK"))
    assert refused(state, Peek(ANA, 2, BEN)).rule == "RTC-31"
    state = play(state, Peek(ANA, 2, None, "7"))
    assert rows_known(state, ANA)[1] is None and state.round.rows[ANA][1].noted_by(ANA) == "7"
    assert state.round.turn == BEN


def test_RTC_31_V7_any_table_card():
    state = play(started(2, peek_scope="any_table_card"), Draw(ANA), UsePower(ANA, "PEEK"),
                 Peek(ANA, 2, BEN, "4"))
    assert state.round.rows[BEN][1].noted_by(ANA) == "4" and state.round.rows[BEN][1].value is None


def test_RTC_32_swap_exchanges_slots_blind_and_ends_the_turn():
    state = play(started(2, "2"), TakeDiscard(ANA), Replace(ANA, 3, "6"))
    state = play(state, Draw(BEN), UsePower(BEN, "SWAP"), Swap(BEN, 1, ANA, 3))
    assert rows_known(state, BEN)[0] == "2" and rows_known(state, ANA)[2] is None
    assert state.round.turn == ANA


def test_RTC_32_swap_may_resolve_as_no_swap():
    state = play(started(2), Draw(ANA), UsePower(ANA, "SWAP"), Swap(ANA))
    assert state.round.turn == BEN


def test_RTC_33_two_opponents_cards_cannot_be_swapped():
    state = play(started(3), Draw(ANA), UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA, 1, ANA, 2)).rule == "RTC-33"
    # There is no way to name two opponents: the first card is always the swapper's own.
    state = play(state, Swap(ANA, 1, CY, 2))
    assert state.round.turn == BEN


def test_RTC_33_A11_caller_may_be_targeted_after_the_call_by_default():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA), Draw(BEN), UsePower(BEN, "SWAP"),
                 Swap(BEN, 2, ANA, 2))
    assert state.round.step == "reveal"


def test_RTC_V11_caller_locked_after_the_call():
    state = play(started(2, caller_protected_after_call=True), Draw(ANA), Discard(ANA), Call(ANA),
                 Draw(BEN), UsePower(BEN, "SWAP"))
    assert refused(state, Swap(BEN, 2, ANA, 2)).rule == "RTC-33"


def test_RTC_V8_outer_face_up_only_face_down_cards_swap():
    state = play(started(2, initial_peek="outer_face_up"), InitialPeek(ANA, (1, 4), ("3", "8")),
                 InitialPeek(BEN, (1, 4), ("1", "2")))
    assert rows_known(state, ANA) == ["3", None, None, "8"]
    state = play(state, Draw(ANA), UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA, 1, BEN, 2)).rule == "RTC-33"
    assert refused(state, Swap(ANA, 2, BEN, 4)).rule == "RTC-33"
    state = play(state, Swap(ANA, 2, BEN, 3))
    assert state.round.turn == BEN


def test_RTC_V8_any_two():
    state = match(2, initial_peek="any_two")
    state = play(state, InitialPeek(ANA, (2, 3)))
    assert refused(state, InitialPeek(BEN, (2, 2))).rule == "RTC-6"


def test_RTC_34_first_draw2_card_used_by_its_power_forfeits_the_second():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), UsePower(ANA, "PEEK"),
                 Peek(ANA, 1))
    assert state.round.turn == BEN
    ruling = refused(state, Draw(ANA))
    assert ruling.rule == "RTC-34"


def test_RTC_34_E6_discarded_first_card_second_card_replaces():
    state = started(2)
    draw0, disc0 = state.round.draw, len(state.round.discard)
    state = play(state, Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA, "7"), Draw(ANA, "0"),
                 Replace(ANA, 2, "9"))
    assert state.round.draw == draw0 - 3 and len(state.round.discard) == disc0 + 3
    assert [t.value for t in state.round.discard[-3:]] == ["DRAW2", "7", "9"]
    assert state.round.turn == BEN and len(state.round.rows[ANA]) == 4


def test_RTC_34_after_the_second_card_no_third_draw():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA), Draw(ANA),
                 Discard(ANA))
    assert state.round.turn == BEN
    assert refused(state, Draw(ANA)).rule == "RTC-34"


def test_RTC_34_the_table_may_override_a_forfeited_draw():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Replace(ANA, 1, "8"))
    state = play(state, Override(Draw(ANA), "RTC-34", "house rule"))
    assert state.round.turn == ANA and state.round.step == "holding"


def test_RTC_35_draw2_cards_come_from_the_draw_pile_only():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"))
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-35"


def test_RTC_V3_discard_allowed_then_the_taken_card_must_be_placed():
    state = play(started(2, draw2_source="discard_allowed"), Draw(ANA), UsePower(ANA, "DRAW2"),
                 Draw(ANA), Discard(ANA, "7"), TakeDiscard(ANA))
    assert refused(state, Discard(ANA, "7")).rule == "RTC-11"
    state = play(state, Replace(ANA, 1, "2"))
    assert state.round.turn == BEN and rows_known(state, ANA)[0] == "7"


def test_RTC_36_nested_draw2_used_as_the_second_card_starts_a_fresh_sequence():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA), Draw(ANA),
                 UsePower(ANA, "DRAW2"))
    assert state.round.turn == ANA and state.round.d2_left == 2
    state = play(state, Draw(ANA), Discard(ANA), Draw(ANA), Replace(ANA, 1))
    assert state.round.turn == BEN


def test_RTC_37_V2_seed_two_turns_both_happen_whatever_the_first_did():
    state = play(started(2, draw2_mode="seed_two_turns"), Draw(ANA), UsePower(ANA, "DRAW2"))
    state = play(state, Draw(ANA), Replace(ANA, 1))  # extra turn 1 uses its card
    assert state.round.turn == ANA
    assert refused(state, Call(ANA)).rule == "RTC-40", "the Draw 2 turn is not over yet"
    state = play(state, Draw(ANA), Replace(ANA, 2))  # extra turn 2 still happens
    assert state.round.turn == BEN
    state = play(state, Call(ANA))
    assert state.round.caller == ANA


def test_RTC_38_power_drawn_in_a_final_turn_works():
    state = play(started(3), Draw(ANA), Discard(ANA), Call(ANA), Draw(BEN), UsePower(BEN, "SWAP"),
                 Swap(BEN, 1, ANA, 1))
    assert state.round.turn == CY
    state = play(state, Draw(CY), UsePower(CY, "PEEK"), Peek(CY, 3))
    assert state.round.step == "reveal"


def test_RTC_A12_draw2_in_a_final_turn_gives_its_draws_within_that_turn():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA), Draw(BEN), UsePower(BEN, "DRAW2"))
    assert state.round.step == "start" and state.round.turn == BEN
    state = play(state, Draw(BEN), Discard(BEN), Draw(BEN), Replace(BEN, 3))
    assert state.round.step == "reveal"


# --- 1.6 Calling -------------------------------------------------------------------------------------

def test_RTC_40_call_only_at_the_end_of_the_callers_own_turn():
    state = plain_turn(started(3), ANA)
    assert refused(state, Call(CY)).rule == "RTC-40"
    state = play(state, Draw(BEN))
    assert refused(state, Call(ANA)).rule == "RTC-40", "the next player has acted: too late"
    assert refused(state, Call(BEN)).rule == "RTC-40", "in the middle of the turn"


def test_RTC_40_not_during_a_draw2_sequence():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA))
    assert state.round.turn == ANA
    assert refused(state, Call(ANA)).rule == "RTC-40"


def test_RTC_41_one_call_per_round():
    state = play(started(3), Draw(ANA), Discard(ANA), Call(ANA), Draw(BEN), Discard(BEN))
    assert refused(state, Call(BEN)).rule == "RTC-41"


def test_RTC_42_every_other_player_one_more_turn_then_reveal():
    state = play(started(4), Draw(ANA), Discard(ANA), Draw(BEN), Discard(BEN), Call(BEN))
    order = []
    while state.round.step != "reveal":
        order.append(state.round.turn)
        state = plain_turn(state, state.round.turn)
    assert order == [CY, DEE, ANA]
    assert refused(state, Draw(BEN)).rule == "RTC-42"
    assert refused(state, Draw(CY)).rule == "RTC-43"


def test_RTC_43_reveal_only_after_the_final_turns():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    assert refused(state, Reveal(ANA, ("1", "1", "1", "1"))).rule == "RTC-43"


def test_RTC_44_E2_chain_of_replacements_and_the_discard_pile():
    state = play(started(3), Draw(ANA), Discard(ANA), Call(ANA))
    state = to_reveal(state)
    draw0, disc0 = state.round.draw, len(state.round.discard)
    state = play(state, Reveal(ANA, ("3", "3", "3", "3")), Reveal(BEN, ("2", "2", "2", "2")),
                 Reveal(CY, ("4", "PEEK", "0", "7")), RevealDraw(CY, 2, "DRAW2"), RevealDraw(CY, 2, "1"))
    assert state.history[-1].scores[CY] == 12
    assert state.history[-1].cards[CY] == ("4", "1", "0", "7")


def test_RTC_44_replacement_needs_a_power_card_in_that_slot():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("1", "SWAP", "2", "3")))
    assert refused(state, RevealDraw(ANA, 1, "4")).rule == "RTC-44"


def test_RTC_A8_draw_pile_runs_out_during_the_reveal():
    state = started(2)
    while state.round.draw > 2:
        state = plain_turn(state, state.round.turn)
    seat, other = state.round.turn, 1 - state.round.turn
    state = play(state, Draw(seat), Discard(seat), Call(seat), Draw(other), Discard(other))
    assert state.round.step == "reveal" and state.round.draw == 0
    state = play(state, Reveal(seat, ("1", "SWAP", "1", "1")), Reveal(other, ("2", "2", "2", "2")))
    assert refused(state, RevealDraw(seat, 2, "4")).rule == "RTC-18"
    state = play(state, Reshuffle(), TurnUp("3"), RevealDraw(seat, 2, "4"))
    assert state.history[-1].scores[seat] == 7


def test_RTC_V12_reveal_replacement_from_the_discard_pile_power_goes_under():
    state = play(started(2, "6", reveal_replacement_source="discard_pile"), Draw(ANA), Discard(ANA, "SWAP"),
                 Call(ANA), Draw(BEN), Discard(BEN, "3"))
    draw0 = state.round.draw
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")), Reveal(BEN, ("PEEK", "2", "2", "2")))
    state = play(state, RevealDraw(BEN, 1, "3"))
    assert state.history[-1].scores[BEN] == 9 and state.history[-1].cards[BEN][0] == "3"


def test_RTC_45_A15_call_on_the_very_first_turn_is_allowed():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    assert state.round.caller == ANA


def test_RTC_V10_needs_full_rotations_first():
    state = play(started(2, min_rotations_before_call=1), Draw(ANA), Discard(ANA))
    assert refused(state, Call(ANA)).rule == "RTC-45"
    state = play(state, Draw(BEN), Discard(BEN), Call(BEN))
    assert state.round.caller == BEN


def test_RTC_V9_call_instead_of_a_turn():
    state = started(3, call_timing="instead_of_turn")
    state = play(state, Call(ANA))
    assert state.round.caller == ANA and state.round.turn == BEN and state.round.final_left == 2
    state = play(started(3, call_timing="instead_of_turn"), Draw(ANA), Discard(ANA))
    assert refused(state, Call(ANA)).rule == "RTC-20"


def test_RTC_46_round_ends_only_by_a_call():
    state = plain_turn(plain_turn(started(2), ANA), BEN)
    assert refused(state, Stalemate()).rule == "RTC-46"


def test_RTC_V18_stalemate_after_the_agreed_rotations():
    state = started(2, stalemate_rotations=1)
    state = plain_turn(state, ANA)
    assert refused(state, Stalemate()).rule == "RTC-46"
    state = play(plain_turn(state, BEN), Stalemate())
    assert state.round.step == "reveal"


# --- 1.7 Scoring -------------------------------------------------------------------------------------

def test_RTC_50_E1_round_score_sum_after_replacements():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("0", "4", "2", "1")), Reveal(BEN, ("3", "SWAP", "5", "9")),
                 RevealDraw(BEN, 2, "6"))
    result = state.history[-1]
    assert result.scores == {ANA: 7, BEN: 23} and result.winners == (ANA,)
    assert state.totals == (7, 23)


def test_RTC_51_V1_tie_policy_all_lowest_except_caller_strict_lowest_caller_wins():
    state = score_round(match(3, tie_policy="all_lowest_except_caller"), {ANA: 6, BEN: 9, CY: 9}, caller=ANA)
    assert state.history[-1].winners == (ANA,)


def test_RTC_52_V14_fixed_rounds_end_the_match():
    state = match(2, rounds_n=2)
    state = score_round(state, {ANA: 10, BEN: 12})
    assert not state.over
    state = score_round(state, {ANA: 10, BEN: 5})
    assert state.over and state.winners == (BEN,) and state.totals == (20, 17)


def test_RTC_52_E4_three_rounds_lowest_total_wins():
    state = match(3)
    for scores in ({ANA: 7, BEN: 23, CY: 10}, {ANA: 12, BEN: 4, CY: 10}, {ANA: 5, BEN: 0, CY: 10}):
        state = score_round(state, scores)
    assert state.over and state.totals == (24, 27, 30) and state.winners == (ANA,)


def test_RTC_53_timed_the_round_in_play_is_finished_then_lowest_wins():
    state = match(2, game_end_mode="timed")
    state = score_round(state, {ANA: 10, BEN: 3})
    assert state.round.turn == BEN
    state = play(state, TurnUp("5"), Draw(BEN), TimeUp())
    assert not state.over
    state = play(state, Discard(BEN), Call(BEN))
    state = to_reveal(state)
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")), Reveal(BEN, ("4", "4", "4", "4")))
    assert state.over and state.winners == (ANA,) and state.totals == (14, 19)


def test_RTC_54_E5_elimination():
    state = match(3, game_end_mode="elimination")
    state = R.state_from_dict({**R.state_to_dict(state), "totals": [88, 95, 60]})
    state = score_round(state, {ANA: 12, BEN: 3, CY: 20})
    assert ANA in state.eliminated and not state.over and state.round.seats == (BEN, CY)
    state = score_round(state, {BEN: 9, CY: 25})
    assert state.over and state.winners == (CY,) and state.totals[1:] == (107, 105)


def test_RTC_V15_exclusive_exactly_100_stays_in():
    state = match(2, game_end_mode="elimination", elimination_inclusive=False)
    state = R.state_from_dict({**R.state_to_dict(state), "totals": [88, 0]})
    state = score_round(state, {ANA: 12, BEN: 3})
    assert not state.over and state.totals == (100, 3)
    state = score_round(state, {ANA: 1, BEN: 3})
    assert state.over and state.winners == (BEN,)


def test_RTC_54_last_player_left_wins_at_once():
    state = match(2, game_end_mode="elimination")
    state = R.state_from_dict({**R.state_to_dict(state), "totals": [90, 0]})
    state = score_round(state, {ANA: 10, BEN: 30})
    assert state.over and state.winners == (BEN,)


def test_RTC_55_everyone_out_with_equal_totals_share_the_win():
    state = match(2, game_end_mode="elimination")
    state = R.state_from_dict({**R.state_to_dict(state), "totals": [95, 90]})
    state = score_round(state, {ANA: 10, BEN: 15})
    assert state.over and set(state.winners) == {ANA, BEN}
    assert "a tie shares the win, RTC-55" in state.outcome and "game_tie_break" not in state.outcome


def test_RTC_V19_extra_round_between_the_tied_players_only():
    state = match(3, rounds_n=1, game_tie_break="extra_round")
    state = score_round(state, {ANA: 10, BEN: 10, CY: 20})
    assert not state.over and state.round.seats == (ANA, BEN) and state.round.tiebreak
    state = score_round(state, {ANA: 9, BEN: 3})
    assert state.over and state.winners == (BEN,)


def test_RTC_V17_fixed_dealer_and_loser_deals():
    state = score_round(match(3, dealer_rotation="fixed"), {ANA: 10, BEN: 12, CY: 14})
    assert state.round.dealer == CY
    state = score_round(match(3, dealer_rotation="loser_deals"), {ANA: 10, BEN: 20, CY: 14})
    assert state.round.dealer == BEN and state.round.turn == CY


# --- 1.11 Knowledge ----------------------------------------------------------------------------------

def test_RTC_K1_zone_counts_add_up_to_the_deck_at_every_step():
    state = match(3)
    moves = [TurnUp("5"), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA), Draw(ANA),
             Replace(ANA, 2), TakeDiscard(BEN), Replace(BEN, 1), Draw(CY), UsePower(CY, "SWAP"),
             Swap(CY, 1, ANA, 2), Call(CY)]
    for move in moves:
        state = play(state, move)
        assert count_total(state) == 54
    state = play(to_reveal(state), Reveal(ANA, ("1", "SWAP", "2", "3")))
    assert count_total(state) == 54
    state = play(state, RevealDraw(ANA, 2, "PEEK"))
    assert count_total(state) == 54


def test_RTC_K1_K9_deluxe_counts():
    state = play(match(2, edition="deluxe_65"), TurnUp("5"))
    assert count_total(state) == 65


def test_RTC_K2_card_from_the_discard_pile_makes_its_slot_public():
    state = play(started(2, "2"), TakeDiscard(ANA), Replace(ANA, 3, "6"))
    assert R.view(state, BEN)["round"]["rows"]["Ana"]["slots"][2]["card"] == "2"


def test_RTC_K3_outgoing_card_confirms_a_public_slot_or_is_flagged():
    state = play(started(2, "2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Draw(BEN), Discard(BEN))
    state, events = R.apply(state, Draw(ANA))
    state, events = R.apply(state, Replace(ANA, 3, "4"))
    flags = [e for e in events if e["kind"] == "flag"]
    assert flags and flags[0]["rule"] == "GEN-4", "the slot held a public 2, the card leaving shows 4"


def test_RTC_K3_outgoing_card_contradicting_the_drawers_note_is_flagged_at_the_end():
    state = play(started(2), Draw(ANA, "3"), Replace(ANA, 1, "8"), Draw(BEN), Discard(BEN))
    state = play(state, Draw(ANA), Replace(ANA, 1, "7"))
    assert not state.flags, "a private note is never used against the table mid-round (GEN-6)"
    state = play(state, Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("1", "1", "1", "1")), Reveal(BEN, ("2", "2", "2", "2")))
    assert [f.rule for f in state.flags] == ["GEN-4"]
    assert state.round is not None and state.round.step == "reveal", "the round waits for the table"


def test_RTC_K4_swap_moves_knowledge_both_ways():
    state = play(started(2, "2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), TakeDiscard(BEN), Replace(BEN, 1, "9"))
    assert rows_known(state, BEN)[0] == "6"
    state = play(state, Draw(ANA), UsePower(ANA, "SWAP"), Swap(ANA, 3, BEN, 1))
    assert rows_known(state, ANA)[2] == "6" and rows_known(state, BEN)[0] == "2"


def test_RTC_K5_second_draw_after_a_replacement_is_refused_naming_rtc_34():
    state = play(started(2), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA, "2"), Replace(ANA, 1, "8"))
    assert refused(state, Draw(ANA)).rule == "RTC-34"


def test_RTC_K6_taking_a_power_then_using_a_power_is_visible():
    state = play(started(2), Draw(ANA), Discard(ANA, "DRAW2"))
    assert refused(state, TakeDiscard(BEN)).rule == "RTC-12"


def test_RTC_K7_power_in_a_never_replaced_slot_is_legal_under_V5_forbidden():
    state = play(started(2, power_into_row="forbidden"), Draw(ANA), Discard(ANA), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("SWAP", "1", "1", "1")))
    assert not state.flags


def test_RTC_K7_hidden_draw_placed_then_revealed_as_power_is_flagged_under_V5_forbidden():
    state = play(started(2, power_into_row="forbidden"), Draw(ANA), Replace(ANA, 2, "5"), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("1", "PEEK", "1", "1")))
    assert [f.rule for f in state.flags] == ["RTC-15"]


def test_RTC_K7_power_swapped_into_a_row_keeps_where_it_came_from():
    state = play(started(2, power_into_row="forbidden"), Draw(ANA), Replace(ANA, 2, "5"),
                 Draw(BEN), UsePower(BEN, "SWAP"), Swap(BEN, 4, ANA, 2), Call(BEN), Draw(ANA), Discard(ANA))
    state = play(state, Reveal(BEN, ("1", "1", "1", "DRAW2")))
    assert [f.rule for f in state.flags] == ["RTC-15"], "the card came from Ana's draw"


def test_RTC_K8_a_fifth_eight_is_refused_as_gen_3():
    state = started(2, "8")
    for seat, slot in ((ANA, 1), (BEN, 1), (ANA, 2)):
        state = play(state, Draw(seat), Replace(seat, slot, "8"))
    state = play(state, Call(ANA))
    state = to_reveal(state)
    assert refused(state, Reveal(BEN, ("8", "1", "1", "1"))).rule == "GEN-3"


def test_RTC_K8_nine_nines_exist():
    state = started(3, "9")
    seen = 1
    while seen < 9:
        seat = state.round.turn
        state = play(state, Draw(seat), Discard(seat, "9"))
        seen += 1
    state = play(state, Draw(state.round.turn))
    assert refused(state, Discard(state.round.turn, "9")).rule == "GEN-3"


def test_RTC_K9_public_slot_must_show_its_value_at_reveal():
    state = play(started(2, "2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA))
    state = to_reveal(state)
    state = play(state, Reveal(ANA, ("1", "1", "7", "1")))
    assert [f.rule for f in state.flags] == ["GEN-4"]


def test_RTC_K9_replacement_draws_reduce_the_draw_pile():
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA))
    state = play(to_reveal(state), Reveal(ANA, ("1", "SWAP", "2", "3")))
    before = state.round.draw
    state = play(state, RevealDraw(ANA, 2, "PEEK"))
    assert state.round.draw == before - 1


def test_RTC_K10_view_shows_public_subtotal_not_private_notes():
    state = play(started(2, "2"), InitialPeek(ANA, (1, 4), ("0", "9")), TakeDiscard(ANA), Replace(ANA, 3, "6"))
    ben = R.view(state, BEN)["round"]["rows"]["Ana"]
    assert [s["card"] for s in ben["slots"]] == [None, None, "2", None]


def test_RTC_K12_a_camera_seen_draw_stays_private_to_the_drawer():
    state = play(started(2), Draw(ANA, "0"))
    assert "0" not in str(R.view(state, BEN)["round"].get("pending"))
    assert state.round.pending.value is None


def test_RTC_K8_GEN_3_a_power_card_turned_up_is_counted_even_though_it_goes_back():
    """RTC-5 sends a power card turned up back into the draw pile, but the table saw it: with every
    Swap of the deck already face up in the rows (RTC-V8 outer_face_up), a fourth one is a misread."""
    state = play(match(2, initial_peek="outer_face_up"), InitialPeek(ANA, (1, 4), ("SWAP", "SWAP")),
                 InitialPeek(BEN, (1, 4), ("SWAP", "1")))
    ruling = refused(state, TurnUp("SWAP"))
    assert ruling.rule == "GEN-3" and ruling.overridable
    state = play(state, Override(TurnUp("SWAP"), "GEN-3", "it really was a Swap"))
    assert state.round.awaiting_turn_up and state.round.draw == 54 - 8


def test_RTC_K7_GEN_5_a_power_card_the_table_let_into_the_row_is_not_flagged_again_at_the_reveal():
    """RTC-V5 forbidden: the table saw the drawn Peek go into the row and overrode RTC-15 then; the reveal
    does not raise the same breach a second time (it would hold the round for a decision already made)."""
    for shown in (True, False):
        state = play(started(2, power_into_row="forbidden"), Draw(ANA, "PEEK", shown=shown))
        ruling = refused(state, Replace(ANA, 2, "9"))
        assert ruling.rule == "RTC-15" and ruling.entries == (2, 1), "names the replacement and the draw"
        state = play(state, Override(Replace(ANA, 2, "9"), "RTC-15", "we allow it"), Call(ANA), Draw(BEN),
                     Discard(BEN))
        state = play(state, Reveal(ANA, ("1", "PEEK", "2", "3")), Reveal(BEN, ("4", "4", "4", "4")))
        assert not state.flags
        state = play(state, RevealDraw(ANA, 2, "0"))
        assert state.history[-1].scores[ANA] == 6


def test_RTC_K7_an_override_of_another_placement_does_not_excuse_this_one():
    state = play(started(2, power_into_row="forbidden"), Draw(ANA, "PEEK", shown=True),
                 Override(Replace(ANA, 2, "9"), "RTC-15", "once"), Draw(BEN), Replace(BEN, 3, "8"), Call(BEN),
                 Draw(ANA), Discard(ANA))
    state = play(state, Reveal(ANA, ("1", "PEEK", "2", "3")), Reveal(BEN, ("4", "4", "SWAP", "4")))
    assert [f.rule for f in state.flags] == ["RTC-15"] and "Ben's slot 3" in state.flags[0].message


def test_RTC_34_a_forfeited_draw_in_a_final_turn_is_refused_even_as_the_last_turn():
    """RTC-34 in the last final turn: the further draw is refused citing RTC-34 (not "the final turns are
    over"); if the table lets it stand, that turn goes on and then the round ends."""
    state = play(started(2), Draw(ANA), Discard(ANA), Call(ANA), Draw(BEN), UsePower(BEN, "DRAW2"),
                 Draw(BEN), Replace(BEN, 1, "9"))
    assert state.round.step == "reveal"
    ruling = refused(state, Draw(BEN))
    assert ruling.rule == "RTC-34" and ruling.overridable
    state = play(state, Override(Draw(BEN), "RTC-34", "house rule"))
    assert state.round.step == "holding" and state.round.turn == BEN
    state = play(state, Discard(BEN))
    assert state.round.step == "reveal"


def test_RTC_34_an_overridden_further_draw_takes_nobody_elses_final_turn():
    state = play(started(3), Draw(ANA), Discard(ANA), Draw(BEN), Discard(BEN), Draw(CY), Discard(CY), Call(CY),
                 Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Replace(ANA, 1))
    assert state.round.turn == BEN and state.round.final_left == 1
    state = play(state, Override(Draw(ANA), "RTC-34", "house rule"), Discard(ANA))
    assert state.round.turn == BEN and state.round.step == "start", "Ben still has his final turn"
    state = plain_turn(state, BEN)
    assert state.round.step == "reveal"
