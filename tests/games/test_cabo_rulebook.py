"""Cabo / Cambio checked rule by rule against RULES.md §2 (CAB-1..CAB-45, the CAB-V switches and the CAB-A
defaults): each test sets up the situation from the rule's words and checks the engine's answer."""
from __future__ import annotations

from referee.games.cabo_moves import (Call, Discard, Draw, Match, Peek, Replace, Reveal, Snap, Swap,
                                      TakeDiscard, TurnUp, UsePower)

from .cabo_helpers import ANA, BEN, CY, match, play, refused, score_round, started, to_reveal, with_totals


def test_CAB_45_the_round_winner_under_the_tie_switch_plays_first():
    """CAB-45 with CAB-A4: a caller who ties for the lowest sum loses the tie under
    ``all_lowest_except_caller``, so the other tied player is the round's winner and plays first."""
    state = match(3, "cabo_2e", round_score="plain", tie_policy="all_lowest_except_caller")
    state = score_round(state, {ANA: "1 2 3 4".split(), BEN: "1 2 3 4".split(), CY: "5 5 5 5".split()}, caller=ANA)
    result = state.history[-1]
    assert result.winners == (BEN,)
    assert state.round.turn == BEN and state.round.dealer == CY


def test_CAB_45_caller_who_wins_the_tie_plays_first():
    state = match(3, "cabo_2e", round_score="plain", tie_policy="caller_wins_ties")
    state = score_round(state, {ANA: "1 2 3 4".split(), BEN: "1 2 3 4".split(), CY: "5 5 5 5".split()}, caller=BEN)
    assert state.history[-1].winners == (BEN,)
    assert state.round.turn == BEN and state.round.dealer == CY


def test_CAB_45_no_winner_the_tied_lowest_with_the_lowest_total_plays_first():
    state = with_totals(match(3, "cabo_2e", round_score="plain", tie_policy="no_winner"), (30, 20, 0))
    state = score_round(state, {ANA: "1 2 3 4".split(), BEN: "1 2 3 4".split(), CY: "5 5 5 5".split()}, caller=CY)
    assert state.history[-1].winners == ()
    assert state.round.turn == BEN


def test_CAB_40_caller_strictly_lowest_scores_0_others_their_sums():
    state = score_round(match(3), {ANA: "0 1 2 3".split(), BEN: "1 2 3 4".split(), CY: "5 5 5 5".split()},
                        caller=ANA)
    assert state.history[-1].scores == {ANA: 0, BEN: 10, CY: 20}


def test_CAB_41_first_edition_tied_lowest_all_score_0_and_a_failed_caller_pays_5():
    state = score_round(match(3, "cabo_1e"), {ANA: "6 6 6 6".split(), BEN: "1 2 3 4".split(),
                                               CY: "1 2 3 4".split()}, caller=ANA)
    assert state.history[-1].scores == {ANA: 29, BEN: 0, CY: 0}


def test_CAB_42_kamikaze_beats_the_callers_zero():
    state = score_round(match(3), {ANA: "0 0 1 1".split(), BEN: "12 12 13 13".split(), CY: "5 5 5 5".split()},
                        caller=ANA)
    assert state.history[-1].scores == {ANA: 50, BEN: 0, CY: 50}


def test_CAB_42_kamikaze_off_scores_the_sum():
    state = score_round(match(3, kamikaze=False), {ANA: "0 0 1 1".split(), BEN: "12 12 13 13".split(),
                                                    CY: "5 5 5 5".split()}, caller=ANA)
    assert state.history[-1].scores == {ANA: 0, BEN: 50, CY: 20}


def test_CAB_43_kamikaze_putting_a_player_on_exactly_100_drops_them_to_50():
    state = with_totals(match(3), (50, 0, 10))
    state = score_round(state, {ANA: "0 0 1 1".split(), BEN: "12 12 13 13".split(), CY: "5 5 5 5".split()},
                        caller=CY)
    assert state.totals == (50, 0, 60) and not state.over


def test_CAB_43_over_100_ends_and_the_lowest_total_wins_even_if_not_this_rounds_winner():
    state = with_totals(match(3), (95, 40, 30))
    state = score_round(state, {ANA: "5 5 5 5".split(), BEN: "0 1 2 3".split(), CY: "6 6 6 6".split()},
                        caller=BEN)
    assert state.over and state.winners == (BEN,) and state.totals == (115, 40, 54)


def test_CAB_A3_second_exact_100_is_not_over_100():
    state = with_totals(match(2), (90, 0), used=(ANA,))
    state = score_round(state, {ANA: "1 2 3 4".split(), BEN: "0 0 1 1".split()}, caller=BEN)
    assert state.totals == (100, 0) and not state.over


def test_CAB_44_cambio_a_tied_caller_loses_the_round():
    state = match(2, "cambio_common")
    state = score_round(state, {ANA: ["KH", "AS", "2S", "2C"], BEN: ["AH", "AC", "2H", "JOKER"]}, caller=ANA)
    result = state.history[-1]
    assert result.scores == {ANA: 4, BEN: 4} and result.winners == (BEN,)


def test_CAB_3_a_card_from_the_discard_pile_cannot_go_straight_back():
    state = play(started(match(2), "5"), TakeDiscard(ANA, "5"))
    assert refused(state, Discard(ANA, "5")).rule == "CAB-3"


def test_CAB_7_peek_on_another_players_card_refused_and_spy_on_your_own():
    state = play(started(match(2), "5"), Draw(ANA, "7"), UsePower(ANA, "7"))
    assert refused(state, Peek(ANA, 1, BEN)).rule == "CAB-7"
    state = play(started(match(2), "5"), Draw(ANA, "9"), UsePower(ANA, "9"))
    assert refused(state, Peek(ANA, 1, ANA)).rule == "CAB-7"


def test_CAB_V14_own_other_swap_of_two_other_players_refused():
    state = play(started(match(3), "5"), Draw(ANA, "11"), UsePower(ANA, "11"))
    assert refused(state, Swap(ANA, 1, CY, 1, BEN)).rule == "CAB-V14"


def test_CAB_7_a_power_is_optional_the_swap_may_be_declined():
    state = play(started(match(2), "5"), Draw(ANA, "12"), UsePower(ANA, "12"), Swap(ANA))
    assert state.round.turn == BEN


def test_CAB_20_calling_in_someone_elses_turn_refused():
    state = started(match(3), "5")
    assert refused(state, Call(BEN)).rule == "CAB-20"


def test_CAB_20_calling_after_drawing_refused_in_cabo():
    state = play(started(match(3), "5"), Draw(ANA))
    assert refused(state, Call(ANA)).rule == "CAB-20"


def test_CAB_5_a_claim_with_one_card_refused():
    state = play(started(match(2), "5"), Draw(ANA, "2"))
    assert refused(state, Match(ANA, (1,), ("6",))).rule == "CAB-5"


def test_CAB_5_a_claim_after_taking_the_discard():
    state = play(started(match(2), "2"), TakeDiscard(ANA, "2"), Match(ANA, (1, 3), ("6", "6")))
    assert sum(t is not None for t in state.round.rows[ANA]) == 3


def test_CAB_V5_snapping_is_off_in_cabo():
    state = play(started(match(3), "5"), Draw(ANA, "5"), Discard(ANA, "5"))
    assert refused(state, Snap(BEN, 1, None, "5")).rule == "CAB-V5"


def test_CAB_6_snap_onto_a_power_card_just_discarded():
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(ANA, "7S"), UsePower(ANA, "7S"),
                 Snap(BEN, 1, None, "7H"))
    assert state.round.discard[-1].value == "7H"


def test_CAB_6_snap_after_the_next_player_moved_refused():
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"), Draw(BEN))
    assert refused(state, Snap(CY, 1, None, "5H")).rule == "CAB-6"


def test_CAB_6_no_snapping_once_scoring_has_started():
    state = play(match(2, "cambio_common"), TurnUp(None), Call(ANA), Draw(BEN, "5S"), Discard(BEN, "5S"))
    assert state.round.step == "reveal"
    state = play(state, Reveal(ANA, ("2S", "3S", "4S", "6S")))
    assert refused(state, Snap(BEN, 1, None, "5H")).rule == "CAB-6"


def test_CAB_22_first_edition_the_empty_draw_pile_is_remade():
    state = started(match(2, "cabo_1e"), "5")
    state = with_totals(state, (0, 0))
    from dataclasses import replace
    state = replace(state, round=replace(state.round, draw=0))
    assert refused(state, Draw(ANA)).rule == "CAB-22"
    assert play(state, TakeDiscard(ANA, "5"), Replace(ANA, 1)).round.turn == BEN


def test_CAB_22_a_wrong_snaps_penalty_card_that_empties_the_draw_pile_ends_the_round():
    """CAB-22 with CAB-V13 on and snapping on (CAB-V5): the round ends when the draw pile runs out, also
    when a wrong snap's penalty card takes its last card between two turns."""
    from dataclasses import replace
    state = play(match(3, "cambio_common", deck_out_ends_round=True), TurnUp(None), Draw(ANA, "5S"),
                 Discard(ANA, "5S"))
    state = replace(state, round=replace(state.round, draw=1))
    state = play(state, Snap(BEN, 1, ANA, "9C"))
    assert state.round.draw == 0 and state.round.step == "reveal" and state.round.deck_out
    assert refused(state, Draw(BEN)).rule == "CAB-22"  # the round ended for want of cards
    kept = play(match(3, "cambio_common"), TurnUp(None), Draw(ANA, "5S"), Discard(ANA, "5S"))
    kept = play(replace(kept, round=replace(kept.round, draw=1)), Snap(BEN, 1, ANA, "9C"))
    assert kept.round.step == "start" and not kept.round.deck_out  # without CAB-V13 the pile is remade later


# --- CAB-K1..K5 (§2.5): what the referee knows, and contradictions flagged when a card is turned up ----

def _deck_total(state):
    from referee.games import cabo as C
    return sum(C.zone_counts(state).values())


def _ben_took_a_public_4():
    """cabo_2e: Ana discards a 4; Ben takes it into slot 2, where it lies face up for all (CAB-4, CAB-K3)."""
    return play(match(3), TurnUp("5"), Draw(ANA), Discard(ANA, "4"), TakeDiscard(BEN), Replace(BEN, 2))


def test_CAB_K1_a_wrong_snap_and_its_penalty_card_keep_the_deck_whole():
    state = play(match(3, "cambio_common"), TurnUp("5H"), Draw(ANA), Discard(ANA, "5D"))
    total = _deck_total(state)
    state = play(state, Snap(BEN, 1, ANA, "9C"))
    assert len([t for t in state.round.rows[BEN] if t is not None]) == 5
    assert _deck_total(state) == total == 54


def test_CAB_K2_a_failed_matching_claim_shows_the_cards_to_everyone():
    from referee.games import cabo as C
    state = play(started(match(3)), Draw(ANA), Match(ANA, (1, 3), ("6", "9")))
    slots = C.view(state, CY)["round"]["rows"]["Ana"]["slots"]
    assert slots[0]["card"] == "6" and slots[2]["card"] == "9"
    assert slots[0]["face_up"] and slots[2]["face_up"]


def test_CAB_K2_a_wrong_snap_goes_back_but_stays_known():
    from referee.games import cabo as C
    state = play(match(3, "cambio_common"), TurnUp("5H"), Draw(ANA), Discard(ANA, "5D"), Snap(BEN, 1, ANA, "9C"))
    assert C.view(state, CY)["round"]["rows"]["Ana"]["slots"][0]["card"] == "9C"


def test_GEN_4_a_standard_card_is_said_as_it_reads_in_the_flag():
    """A known 9♣ snapped back and turned up later as a 9♠: the flag says the cards as a player reads them."""
    from referee.games import cabo as C
    state = play(match(3, "cambio_common"), TurnUp("5H"), Draw(ANA), Discard(ANA, "5D"), Snap(BEN, 1, ANA, "9C"))
    state = to_reveal(state, caller=BEN)
    state, events = C.apply(state, Reveal(ANA, ("9S", "2H", "3H", "4H")))
    (flag,) = [e for e in events if e["kind"] == "flag" and e["rule"] == "GEN-4"]
    assert "known to be 9♣" in flag["message"] and "shows 9♠" in flag["message"] and "9C" not in flag["message"]


def test_CAB_K2_GEN_4_a_claim_turning_up_a_known_card_as_another_is_flagged_not_fixed():
    state = play(_ben_took_a_public_4(), Draw(CY), Discard(CY), Draw(ANA), Discard(ANA), Draw(BEN))
    from referee.games import cabo as C
    state, events = C.apply(state, Match(BEN, (2, 3), ("6", "6")))
    flags = [e for e in events if e["kind"] == "flag"]
    assert [f["rule"] for f in flags] == ["GEN-4"] and flags[0]["entries"] == [2, 10]
    assert "known to be 4" in flags[0]["message"]


def test_CAB_K2_GEN_4_a_snap_turning_up_a_known_card_as_another_is_flagged():
    state = play(match(3, "cambio_common"), TurnUp("4H"), TakeDiscard(ANA), Replace(ANA, 1), Draw(BEN),
                 Discard(BEN, "7D"))
    from referee.games import cabo as C
    state, events = C.apply(state, Snap(ANA, 1, None, "7S"))
    assert [e["rule"] for e in events if e["kind"] == "flag"] == ["GEN-4"]


def test_CAB_K3_a_card_taken_from_the_discard_pile_is_public_and_face_up():
    from referee.games import cabo as C
    state = _ben_took_a_public_4()
    slot = C.view(state, CY)["round"]["rows"]["Ben"]["slots"][1]
    assert slot["card"] == "4" and slot["face_up"]


def test_CAB_K3_after_a_swap_the_card_is_face_down_but_the_table_still_knows_it():
    """CAB-K3 says "PUBLIC until swapped"; the swap is blind but everyone watched the card move, so the
    knowledge follows it (RTC-K4) while it lies face down in its new place."""
    from referee.games import cabo as C
    state = play(_ben_took_a_public_4(), Draw(CY), UsePower(CY, "11"), Swap(CY, 1, BEN, 2))
    slot = C.view(state, ANA)["round"]["rows"]["Cy"]["slots"][0]
    assert slot["card"] == "4" and not slot["face_up"]
    assert C.view(state, ANA)["round"]["rows"]["Ben"]["slots"][1]["card"] is None


def test_CAB_K3_GEN_4_the_public_card_revealed_as_another_holds_the_round():
    state = play(_ben_took_a_public_4(), Draw(CY), Discard(CY), Call(ANA))
    while state.round.step != "reveal":
        state = play(state, Draw(state.round.turn), Discard(state.round.turn))
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")), Reveal(CY, ("2", "2", "2", "2")),
                 Reveal(BEN, ("3", "5", "3", "3")))
    assert [f.rule for f in state.flags] == ["GEN-4"] and state.flags[0].entries[0] == 2
    assert not state.history, "the round waits for the table to decide the flag (GEN-5)"


def test_CAB_K_GEN_6_a_private_peek_contradicted_is_flagged_only_at_the_end():
    state = play(started(match(2)), Draw(ANA), UsePower(ANA, "7"), Peek(ANA, 2, None, "3"))
    state = play(state, Draw(BEN), Discard(BEN))
    state = play(state, Draw(ANA), Replace(ANA, 2, "9"))
    assert not state.flags, "the note is private: it is never used against the table mid-round (GEN-6)"
    state = play(state, Call(BEN), Draw(ANA), Discard(ANA))
    state = play(state, Reveal(ANA, ("1", "5", "3", "4")), Reveal(BEN, ("6", "6", "6", "6")))
    assert [f.rule for f in state.flags] == ["GEN-4"] and "noted" in state.flags[0].message


def test_CAB_K5_kamikaze_is_known_only_when_every_card_is_up():
    state = play(started(match(3)), Call(ANA))
    while state.round.step != "reveal":
        state = play(state, Draw(state.round.turn), Discard(state.round.turn))
    state = play(state, Reveal(BEN, ("12", "12", "13", "13")))
    assert not state.history
    state = play(state, Reveal(ANA, ("0", "1", "1", "1")), Reveal(CY, ("5", "5", "5", "5")))
    assert state.history[-1].scores == {ANA: 50, BEN: 0, CY: 50}
