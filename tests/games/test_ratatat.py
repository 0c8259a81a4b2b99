"""Rat-a-Tat Cat: every RTC-T case of RULES.md §1.13 and the worked examples E1–E6 of §1.12."""
from __future__ import annotations

import pytest

from referee.games import ratatat as R
from referee.games.base import Correct, Override, ResolveFlag, Ruling
from referee.games.ratatat_cards import RTC_DECKS, rtc_points
from referee.games.log import replay
from referee.games.ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle,
                                         Reveal, RevealDraw, Stalemate, Swap, TakeDiscard, TimeUp,
                                         TurnUp, UsePower)
from referee.games.ratatat_scoring import round_winners

from .ratatat_helpers import (ANA, BEN, CY, DEE, NAMES, match, plain_turn, play,
                              refused, score_round)


def discard_values(state):
    return [t.value for t in state.round.discard]


def test_RTC_T01_deck_composition():
    deck = RTC_DECKS["classic_54"]
    assert sum(deck.values()) == 54
    assert all(deck[str(n)] == 4 for n in range(9)) and deck["9"] == 9
    assert deck["PEEK"] == deck["SWAP"] == deck["DRAW2"] == 3
    assert sum(rtc_points(v) * n for v, n in deck.items() if v.isdigit()) == 225
    assert sum(RTC_DECKS["deluxe_65"].values()) == 65


def test_RTC_T02_deal_for_six_players():
    state = play(match(6), TurnUp("3"))
    counts = R.zone_counts(state)
    assert sum(v for k, v in counts.items() if k.startswith("row:")) == 24
    assert counts["discard"] == 1 and counts["draw"] == 29 and counts["pending"] == 0
    assert state.round.discard[-1].value == "3"


def test_RTC_T03_power_card_turned_up_goes_back():
    state = match(3)
    state, events = R.apply(state, TurnUp("SWAP"))
    assert events[0]["kind"] == "returned" and events[0]["rule"] == "RTC-5"
    assert state.round.awaiting_turn_up and state.round.draw == 54 - 12
    assert refused(state, Draw(ANA)).rule == "RTC-5"
    state = play(state, TurnUp("4"))
    assert discard_values(state) == ["4"] and state.round.draw == 54 - 12 - 1


def _peek_on_discard(**rules):
    return play(match(2, **rules), TurnUp("5"), Draw(ANA), Discard(ANA, "PEEK"))


def test_RTC_T04_power_card_on_discard_cannot_be_taken():
    state = _peek_on_discard()
    ruling = refused(state, TakeDiscard(BEN))
    assert ruling.rule == "RTC-12" and ruling.overridable


def test_RTC_T04_allowed_no_power_then_only_replace():
    state = play(_peek_on_discard(power_from_discard="allowed_no_power"), TakeDiscard(BEN))
    legal = [m for m in R.legal_moves(state, BEN) if not isinstance(m, InitialPeek)]
    assert legal and all(isinstance(m, Replace) for m in legal)
    assert refused(state, UsePower(BEN, "PEEK")).rule == "RTC-19"
    assert refused(state, Discard(BEN, "PEEK")).rule == "RTC-11"
    state = play(state, Replace(BEN, 2, "6"))
    assert state.round.rows[BEN][1].value == "PEEK"


def test_RTC_T05_card_taken_from_discard_cannot_be_discarded():
    state = play(match(2), TurnUp("3"), TakeDiscard(ANA))
    ruling = refused(state, Discard(ANA, "3"))
    assert ruling.rule == "RTC-11"


def _draw2(state, seat=ANA):
    return play(state, Draw(seat), UsePower(seat, "DRAW2"))


def test_RTC_T06_using_the_first_draw2_card_forfeits_the_second():
    state = _draw2(play(match(2), TurnUp("5")))
    state = play(state, Draw(ANA, "2"), Replace(ANA, 1, "8"))
    ruling = refused(state, Draw(ANA))
    assert ruling.rule == "RTC-34"
    assert state.round.turn == BEN


def test_RTC_T07_discarded_first_card_allows_the_second_draw():
    state = _draw2(play(match(2), TurnUp("5")))
    state = play(state, Draw(ANA), Discard(ANA, "8"), Draw(ANA), UsePower(ANA, "SWAP"),
                 Swap(ANA, 1, BEN, 4))
    assert state.round.turn == BEN
    assert discard_values(state)[-3:] == ["DRAW2", "8", "SWAP"]


def test_RTC_T08_nested_draw2_starts_a_fresh_sequence():
    state = _draw2(play(match(2), TurnUp("5")))
    state = play(state, Draw(ANA), UsePower(ANA, "DRAW2"))  # X1 is another Draw 2, used
    assert state.round.d2_left == 2
    state = play(state, Draw(ANA), Discard(ANA, "7"), Draw(ANA), Discard(ANA, "6"))  # Y1 unused, Y2
    assert state.round.turn == BEN
    assert refused(state, Draw(ANA)).rule == "RTC-34"


def test_RTC_T08_nested_sequence_used_first_card_forfeits():
    state = _draw2(play(match(2), TurnUp("5")))
    state = play(state, Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Replace(ANA, 2, "9"))
    assert refused(state, Draw(ANA)).rule == "RTC-34"


def test_RTC_T09_seed_two_turns():
    state = _draw2(play(match(2, draw2_mode="seed_two_turns"), TurnUp("5")))
    assert state.round.turn == ANA
    # The Draw 2 itself now tops the discard pile, and RTC-12 keeps it there.
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-12"
    state = play(state, Draw(ANA), Discard(ANA, "3"))  # extra turn 1
    assert state.round.turn == ANA
    state = play(state, TakeDiscard(ANA), Replace(ANA, 2, "9"))  # extra turn 2: the discard top
    assert state.round.turn == BEN and state.round.rows[ANA][1].value == "3"


def test_RTC_T10_swap_moves_public_knowledge():
    state = play(match(2), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"))
    assert R.view(state, BEN)["round"]["rows"]["Ana"]["slots"][2]["card"] == "2"
    state = play(state, Draw(BEN), UsePower(BEN, "SWAP"), Swap(BEN, 1, ANA, 3))
    rows = R.view(state, None)["round"]["rows"]
    assert rows["Ben"]["slots"][0]["card"] == "2"
    assert rows["Ana"]["slots"][2]["card"] is None


def _ben_called(**rules):
    state = play(match(3, **rules), TurnUp("5"))
    state = plain_turn(state, ANA)
    state = plain_turn(state, BEN)
    return play(state, Call(BEN))


def test_RTC_T11_after_the_call_every_other_player_takes_one_turn():
    state = _ben_called()
    assert state.round.turn == CY and state.round.final_left == 2
    assert refused(state, Draw(BEN)).rule == "RTC-42"
    state = plain_turn(state, CY)
    assert state.round.turn == ANA
    assert refused(state, Draw(BEN)).rule == "RTC-42"
    state = plain_turn(state, ANA)
    assert state.round.step == "reveal"
    assert refused(state, Draw(BEN)).rule == "RTC-42"
    assert refused(state, Draw(CY)).rule == "RTC-43"


def test_RTC_T12_only_one_call_per_round():
    state = plain_turn(_ben_called(), CY)
    assert refused(state, Call(CY)).rule == "RTC-41"


def test_RTC_T13_call_without_taking_a_card():
    state = play(match(2), TurnUp("5"))
    ruling = refused(state, Call(ANA))
    assert ruling.rule == "RTC-40"
    # Under instead_of_turn (RTC-V9) the same entry is the call.
    state = play(match(2, call_timing="instead_of_turn"), TurnUp("5"), Call(ANA))
    assert state.round.caller == ANA and state.round.turn == BEN


def _at_reveal(n=3, **rules):
    state = play(match(n, **rules), TurnUp("5"))
    state = plain_turn(state, ANA)
    state = play(state, Call(ANA))
    while state.round.step != "reveal":
        state = plain_turn(state, state.round.turn)
    return state


def test_RTC_T14_power_card_replaced_at_reveal():
    state = _at_reveal()
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")), Reveal(BEN, ("2", "2", "2", "2")),
                 Reveal(CY, ("3", "PEEK", "3", "3")))
    assert state.round.to_replace == ((CY, 2),)
    state, events = R.apply(state, RevealDraw(CY, 2, "SWAP"))
    assert events[0]["kind"] == "reveal_draw_power"
    assert state.round.discard[-1].value == "SWAP"
    state, events = R.apply(state, RevealDraw(CY, 2, "4"))
    scored = [e for e in events if e["kind"] == "round_scored"][0]
    assert scored["scores"][CY] == 3 + 4 + 3 + 3


def _drawn_power_in_row(**rules):
    state = play(match(4, **rules), TurnUp("5"))
    for seat in (ANA, BEN, CY):
        state = plain_turn(state, seat)
    state = play(state, Draw(DEE), Replace(DEE, 3, "9"), Call(DEE))
    while state.round.step != "reveal":
        state = plain_turn(state, state.round.turn)
    return play(state, Reveal(DEE, ("SWAP", "1", "DRAW2", "2")))


def test_RTC_T15_power_card_placed_from_a_draw_is_flagged_when_forbidden():
    state = _drawn_power_in_row(power_into_row="forbidden")
    flags = [f for f in state.flags if f.rule == "RTC-15"]
    assert len(flags) == 1, "slot 1 was never replaced (RTC-7), slot 3 came from a draw"
    assert "slot 3" in flags[0].message and flags[0].entries[0] is not None


def test_RTC_T15_default_allows_it_and_replaces_it():
    state = _drawn_power_in_row()
    assert not state.flags
    assert set(state.round.to_replace) == {(DEE, 1), (DEE, 3)}


def test_RTC_T16_reveal_contradicting_public_knowledge_is_flagged():
    state = play(match(2), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA))
    state = plain_turn(state, BEN)
    state, events = R.apply(state, Reveal(ANA, ("1", "1", "7", "1")), entry_id=20)
    flag = [e for e in events if e["kind"] == "flag"][0]
    assert flag["rule"] == "GEN-4"
    assert flag["entries"] == [0, 20], "names the turn-up that made the card public and the reveal"
    # and says whose card it is (it said "This card was known to be 2", naming no one)
    assert flag["message"] == "The card in Ana's slot 3 was known to be 2 (entry 0) but shows 7 now (entry 20)."
    assert state.round.rows[ANA][2].value == "7"


def test_GEN_5_a_decision_recorded_when_disputes_named_no_slot_still_decides_it():
    """A stored decision names its dispute by its words then ("This card was known to be 2 ..."): it still
    decides the dispute now said with whose slot it is, and a decision naming other words is refused."""
    from referee.games.base import flag_about

    state = play(match(2), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA))
    state = play(plain_turn(state, BEN), Reveal(ANA, ("1", "1", "7", "1")))
    (flag,) = state.flags
    first = "This card was known to be 2 (entry 0) but shows 7 now (entry 6)."
    assert flag.message == "The card in Ana's slot 3 " + first[len("This card "):]
    decided = play(state, ResolveFlag(flag.id, "accept", "", BEN, about=flag_about("GEN-4", first)))
    assert decided.flags[0].status == "accepted"
    other = first.replace("shows 7", "shows 8")
    assert refused(state, ResolveFlag(flag.id, "accept", "", BEN, about=flag_about("GEN-4", other))).rule == "GEN-5"


def test_RTC_T16_one_card_one_mismatch_one_flag_even_when_it_was_also_noted_privately():
    """Ana peeked her 6, then discarded it and Ben took it: the table knows it as a 6, and Ana's note
    says the same. Revealed as a 9, it is one mismatch: one GEN-4 flag, not a second for the note."""
    state = play(match(2), TurnUp("2"), InitialPeek(ANA, (1, 4), ("6", "3")), Draw(ANA), Replace(ANA, 1, "6"),
                 TakeDiscard(BEN), Replace(BEN, 2, "5"))
    state = play(plain_turn(state, ANA), Call(ANA))
    state = plain_turn(state, BEN)
    state = play(state, Reveal(ANA, ("0", "1", "7", "3")))
    state, events = R.apply(state, Reveal(BEN, ("4", "9", "8", "8")), entry_id=30)
    flags = [e for e in events if e["kind"] == "flag"]
    assert [f["rule"] for f in flags] == ["GEN-4"] and "known to be 6" in flags[0]["message"]
    assert len(state.flags) == 1


def test_RTC_T17_one_sighting_too_many_breaks_conservation():
    state = play(match(2), TurnUp("8"))
    for seat, slot in ((ANA, 1), (BEN, 1), (ANA, 2)):
        state = play(state, Draw(seat), Replace(seat, slot, "8"))
    assert sum(1 for t in state.round.discard if t.value == "8") == 4
    state = play(state, Draw(BEN))  # the draw itself is hidden: nothing to check yet
    ruling = refused(state, Replace(BEN, 2, "8"))
    assert ruling.rule == "GEN-3" and ruling.overridable
    assert ruling.entries == (8, 0, 2, 4, 6)  # this entry, and each that showed an 8 (GEN-13)
    # The table can let it stand; the override is recorded.
    state, events = R.apply(state, Override(Replace(BEN, 2, "8"), "GEN-3", "card is bent", BEN))
    assert events[-1]["kind"] == "override" and state.overrides[0][1] == "GEN-3"


def test_GEN_3_names_a_power_card_as_printed():
    """A fourth Swap of a deck of three is one too many (GEN-3): said "3 × Swap", not the card's code."""
    state = play(match(2), TurnUp("5"))
    for seat, slot in ((ANA, 1), (BEN, 1), (ANA, 2)):  # three Swaps come out of the rows, face up
        state = play(state, Draw(seat), Replace(seat, slot, "SWAP"))
    state = play(state, Draw(BEN))
    ruling = refused(state, Replace(BEN, 2, "SWAP"))
    assert ruling.rule == "GEN-3" and "The deck has only 3 × Swap, and 3 are already known" in ruling.message



def test_GEN_3_a_reveal_says_how_many_of_the_known_copies_it_showed_itself():
    """Two 0s known (in the discard pile), then a reveal of four 0s: the third is one too many, and the
    refusal says that two of the four known are this reveal's own (it said "4 are already known" where
    the table knew 2)."""
    state = play(match(2), TurnUp("5"))
    state = play(state, Draw(ANA), Replace(ANA, 1, "0"), Draw(BEN), Replace(BEN, 1, "0"))
    state = play(state, Draw(ANA), Discard(ANA, "6"), Call(ANA), Draw(BEN), Discard(BEN, "7"))
    ruling = refused(state, Reveal(ANA, ("0", "0", "0", "0")))
    assert ruling.rule == "GEN-3"
    assert "and 4 are already known on the table (2 of them in this entry): this sighting would be one too many" \
        in ruling.message


E3_ROWS = [
    ((10, 10, 14), {"all_lowest": "Cy Dee", "all_lowest_except_caller": "Dee", "no_winner": "",
                    "caller_wins_ties": "Cy"}),
    ((12, 9, 9), {"all_lowest": "Dee Eli", "all_lowest_except_caller": "Dee Eli", "no_winner": "",
                  "caller_wins_ties": "Dee Eli"}),
    ((6, 9, 9), {"all_lowest": "Cy", "all_lowest_except_caller": "Cy", "no_winner": "Cy",
                 "caller_wins_ties": "Cy"}),
    ((11, 11, 11), {"all_lowest": "Cy Dee Eli", "all_lowest_except_caller": "Dee Eli", "no_winner": "",
                    "caller_wins_ties": "Cy"}),
    ((15, 3, 8), {"all_lowest": "Dee", "all_lowest_except_caller": "Dee", "no_winner": "Dee",
                  "caller_wins_ties": "Dee"}),
]


@pytest.mark.parametrize("scores,expected", E3_ROWS)
@pytest.mark.parametrize("policy", ["all_lowest", "all_lowest_except_caller", "no_winner", "caller_wins_ties"])
def test_E3_tie_policies(scores, expected, policy):
    players = ("Cy", "Dee", "Eli")
    winners, why = round_winners(dict(enumerate(scores)), 0, policy, players)
    assert " ".join(players[s] for s in winners) == expected[policy]
    assert "RTC-V1" in why or "RTC-51" in why


@pytest.mark.parametrize("policy,winners", [("all_lowest", [ANA, BEN]), ("all_lowest_except_caller", [BEN]),
                                            ("no_winner", []), ("caller_wins_ties", [ANA])])
def test_RTC_T18_tie_policies_through_a_played_round(policy, winners):
    state = match(3, tie_policy=policy)
    state = score_round(state, {ANA: 10, BEN: 10, CY: 14})
    result = state.history[-1]
    assert result.caller == ANA and result.scores == {ANA: 10, BEN: 10, CY: 14}
    assert list(result.winners) == winners
    assert policy in result.explanation


def _elimination(inclusive):
    state = match(2, game_end_mode="elimination", elimination_inclusive=inclusive)
    state = score_round(state, {ANA: 36, BEN: 0})
    state = score_round(state, {ANA: 36, BEN: 0})
    return score_round(state, {ANA: 28, BEN: 1})


def test_RTC_T19_elimination_on_reaching_exactly_100():
    state = _elimination(True)
    assert state.totals[ANA] == 100 and state.over and state.winners == (BEN,)
    state = _elimination(False)
    assert state.totals[ANA] == 100 and not state.over and not state.eliminated


def test_RTC_T20_E5_last_players_out_together_lowest_total_wins():
    state = match(3, game_end_mode="elimination")
    for scores in ((30, 33, 20), (30, 32, 20), (28, 30, 20)):
        state = score_round(state, dict(zip((ANA, BEN, CY), scores)))
    assert state.totals == (88, 95, 60)
    # E5 round 9: Ana 12 → 100 (out, inclusive), Ben 3 → 98, Cy 20 → 80.
    state = score_round(state, {ANA: 12, BEN: 3, CY: 20})
    assert state.eliminated == {ANA} and not state.over
    assert state.round.seats == (BEN, CY)
    state = score_round(state, {BEN: 9, CY: 25})
    assert state.totals[1:] == (107, 105)
    assert state.over and state.winners == (CY,)
    assert "RTC-54" in state.outcome


def _drain_draw_pile(state):
    seat = state.round.turn
    while state.round.draw:
        state = plain_turn(state, seat)
        seat = state.round.turn
    return state


def test_RTC_T21_empty_draw_pile_is_remade_from_the_discards():
    state = _drain_draw_pile(play(match(2), TurnUp("5")))
    eli = state.round.turn
    before = sum(R.zone_counts(state).values())
    assert refused(state, Draw(eli)).rule == "RTC-18"
    state = play(state, Reshuffle())
    assert refused(state, Draw(eli)).rule == "RTC-18"
    state = play(state, TurnUp("7"), Draw(eli))
    counts = R.zone_counts(state)
    assert sum(counts.values()) == before == 54
    assert counts["discard"] == 1 and counts["pending"] == 1


def test_RTC_T21_reshuffle_keeping_the_top_discard():
    state = _drain_draw_pile(play(match(2, reshuffle_keeps_top_discard=True), TurnUp("5")))
    top = state.round.discard[-1]
    state = play(state, Reshuffle())
    assert state.round.discard == (top,) and not state.round.awaiting_turn_up
    assert sum(R.zone_counts(state).values()) == 54


def test_RTC_T22_power_card_from_the_deal_has_no_power():
    state = play(match(2), TurnUp("5"))
    assert refused(state, UsePower(ANA, "SWAP", from_slot=1)).rule == "RTC-7"
    assert refused(state, UsePower(ANA, "SWAP")).rule == "RTC-19"


def test_RTC_T23_shown_power_card_into_the_row():
    state = play(match(2), TurnUp("5"), Draw(ANA, "PEEK", shown=True), Replace(ANA, 2, "4"))
    assert state.round.rows[ANA][1].value == "PEEK" and state.round.turn == BEN
    state = play(match(2, power_into_row="forbidden"), TurnUp("5"), Draw(ANA, "PEEK", shown=True))
    assert refused(state, Replace(ANA, 2, "4")).rule == "RTC-15"


def test_RTC_T24_swap_two_own_cards_is_refused():
    state = play(match(2), TurnUp("5"), Draw(ANA), UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA, 1, ANA, 4)).rule == "RTC-33"


def test_RTC_T25_seven_players_cannot_start():
    with pytest.raises(Ruling) as info:
        R.new_match(NAMES + ("Gus",))
    assert info.value.rule == "RTC-1"
    with pytest.raises(Ruling):
        R.new_match(("Solo",))


def test_RTC_T26_fixed_rounds_shared_win():
    state = match(3)
    for scores in ((7, 23, 10), (12, 1, 10), (5, 0, 10)):
        state = score_round(state, dict(zip((ANA, BEN, CY), scores)))
    assert state.totals == (24, 24, 30)
    assert state.over and state.winners == (ANA, BEN)
    assert "share" in state.outcome and "RTC-55" in state.outcome


def test_RTC_V19_extra_round_breaks_a_match_tie():
    state = match(3, game_tie_break="extra_round")
    for scores in ((7, 23, 10), (12, 1, 10), (5, 0, 10)):
        state = score_round(state, dict(zip((ANA, BEN, CY), scores)))
    assert not state.over and state.round.seats == (ANA, BEN) and state.round.tiebreak
    state = score_round(state, {ANA: 3, BEN: 4})
    assert state.over and state.winners == (ANA,)


def test_E1_plain_round():
    state = play(match(2, rounds_n=1), TurnUp("5"))
    state = play(state, Draw(ANA), Replace(ANA, 2, "8"), Call(ANA))
    state = plain_turn(state, BEN)
    state = play(state, Reveal(ANA, ("0", "4", "2", "1")), Reveal(BEN, ("3", "SWAP", "5", "9")),
                 RevealDraw(BEN, 2, "6"))
    assert state.history[0].scores == {ANA: 7, BEN: 23}
    assert state.history[0].winners == (ANA,) and state.totals == (7, 23)


def test_E2_chain_of_replacements_at_reveal():
    state = _at_reveal()
    state = play(state, Reveal(ANA, ("3", "3", "3", "3")), Reveal(BEN, ("2", "2", "2", "2")),
                 Reveal(CY, ("4", "PEEK", "0", "7")))
    draw_before, discard_before = state.round.draw, len(state.round.discard)
    state = play(state, RevealDraw(CY, 2, "DRAW2"))
    assert state.round.draw == draw_before - 1 and len(state.round.discard) == discard_before + 1
    state, events = R.apply(state, RevealDraw(CY, 2, "1"))
    # Two draws from the draw pile, two cards (the Peek and the Draw 2) onto the discard pile.
    assert [e["kind"] for e in events][:2] == ["reveal_draw", "round_scored"]
    assert state.history[-1].scores[CY] == 12
    assert state.history[-1].cards[CY] == ("4", "1", "0", "7")


def test_E4_fixed_rounds():
    state = match(3)
    for a, b, c in ((7, 23, 10), (12, 4, 10), (5, 0, 10)):
        state = score_round(state, {ANA: a, BEN: b, CY: c})
    assert state.totals == (24, 27, 30) and state.winners == (ANA,) and state.over


def test_E6_draw2_accounting():
    state = play(match(4), TurnUp("5"))
    before = R.zone_counts(state)
    state = play(state, Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Discard(ANA, "7"), Draw(ANA),
                 Replace(ANA, 2, "9"))
    after = R.zone_counts(state)
    assert after["draw"] == before["draw"] - 3 and after["discard"] == before["discard"] + 3
    assert after["row:Ana"] == 4 and discard_values(state)[-3:] == ["DRAW2", "7", "9"]


# --- Other rules of §1, their switches and the knowledge checks --------------------------------


def test_RTC_K2_card_from_discard_makes_its_slot_public_and_K3_outgoing_card_is_logged():
    state = play(match(2), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"))
    view = R.view(state, BEN)["round"]
    assert view["rows"]["Ana"]["slots"][2]["card"] == "2"
    assert view["discard_top"] == "6" and view["rows"]["Ana"]["known_subtotal"] == 2


def test_GEN_6_private_notes_stay_with_their_owner():
    state = play(match(2), TurnUp("5"), Draw(ANA, "3"), Replace(ANA, 1, "9"))
    assert R.view(state, ANA)["round"]["rows"]["Ana"]["slots"][0]["mine"] == "3"
    for seat in (BEN, None):
        slot = R.view(state, seat)["round"]["rows"]["Ana"]["slots"][0]
        assert slot["card"] is None and slot["mine"] is None
    state = play(state, Draw(BEN), UsePower(BEN, "PEEK"), Peek(BEN, 2, seen="4"))
    assert R.view(state, ANA)["round"]["rows"]["Ben"]["slots"][1]["mine"] is None
    assert R.view(state, BEN)["round"]["rows"]["Ben"]["slots"][1]["mine"] == "4"


def test_GEN_6_private_note_contradicted_is_flagged_only_at_the_end_of_the_round():
    state = play(match(2, rounds_n=1), TurnUp("5"), Draw(ANA, "3"), Replace(ANA, 1, "9"), Call(ANA))
    state = plain_turn(state, BEN)
    state, events = R.apply(state, Reveal(ANA, ("4", "1", "1", "1")))
    assert not [e for e in events if e["kind"] == "flag"], "not before the round is scored"
    state, events = R.apply(state, Reveal(BEN, ("2", "2", "2", "2")))
    flags = [e for e in events if e["kind"] == "flag"]
    assert flags and flags[0]["rule"] == "GEN-4" and "Ana noted a 3" in flags[0]["message"]


def test_GEN_6_a_card_noted_twice_by_one_player_is_one_dispute():
    """Ana notes her slot 1 as a 3 at her first peek and again with a Peek: revealed as a 7, it is one
    mismatch of one player's knowledge, one GEN-4 flag (her last note), not two."""
    state = play(match(2, rounds_n=1), TurnUp("5"), InitialPeek(ANA, (1, 4), ("3", "9")), Draw(ANA),
                 UsePower(ANA, "PEEK"), Peek(ANA, 1, seen="3"), Draw(BEN), Discard(BEN, "2"))
    state = play(plain_turn(state, ANA), Call(ANA), Draw(BEN), Discard(BEN, "4"))
    state, _ = R.apply(state, Reveal(ANA, ("7", "1", "1", "9")))
    state, events = R.apply(state, Reveal(BEN, ("6", "6", "8", "8")))
    flags = [e for e in events if e["kind"] == "flag"]
    assert len(flags) == 1 and "Ana noted a 3 at entry 4" in flags[0]["message"], flags  # the Peek, her last


def test_GEN_5_flag_can_be_accepted_or_overridden_once():
    state = play(match(2), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA))
    state = plain_turn(state, BEN)
    state = play(state, Reveal(ANA, ("1", "1", "7", "1")))
    state = play(state, ResolveFlag(0, "override", "the 2 was misread", BEN))
    assert state.flags[0].status == "overridden" and "misread" in state.flags[0].resolution
    assert refused(state, ResolveFlag(0, "accept")).rule == "GEN-5"


def test_GEN_5_override_needs_a_ruling_to_override():
    state = play(match(2), TurnUp("5"))
    assert refused(state, Override(Draw(ANA), "RTC-12")).rule == "GEN-5"


def test_GEN_7_out_of_turn_and_its_override():
    state = play(match(3), TurnUp("5"))
    assert refused(state, Draw(CY)).rule == "GEN-7"
    state = play(state, Override(Draw(CY), "GEN-7", "Ana said Cy could go"), Discard(CY))
    assert state.round.turn == ANA


def test_RTC_6_initial_peek_outer_cards_once():
    state = play(match(2), TurnUp("5"))
    assert refused(state, InitialPeek(ANA, (1, 2))).rule == "RTC-6"
    state = play(state, InitialPeek(ANA, (1, 4), ("3", "9")))
    assert refused(state, InitialPeek(ANA, (1, 4))).rule == "RTC-6"
    assert R.view(state, ANA)["round"]["rows"]["Ana"]["slots"][3]["mine"] == "9"
    assert R.view(state, BEN)["round"]["rows"]["Ana"]["slots"][3]["mine"] is None


def test_RTC_6_a_first_peek_noted_after_a_swap_lands_on_the_dealt_card():
    """Ana swaps her slot 2 with Ben's slot 1 before Ben notes his first peek: the 8 he saw at the deal
    is now Ana's slot 2 (RTC-K4), and revealing it there raises no dispute."""
    state = play(match(2), TurnUp("5"), Draw(ANA), UsePower(ANA, "SWAP"), Swap(ANA, 2, BEN, 1),
                 InitialPeek(BEN, (1, 4), ("8", "2")))
    rows = R.view(state, BEN)["round"]["rows"]
    assert rows["Ana"]["slots"][1]["mine"] == "8" and rows["Ben"]["slots"][0]["mine"] is None
    assert rows["Ben"]["slots"][3]["mine"] == "2"
    state = play(state, Draw(BEN), Discard(BEN, "3"))
    state = play(plain_turn(state, ANA), Call(ANA), Draw(BEN), Discard(BEN, "4"))
    state = play(state, Reveal(ANA, ("1", "8", "1", "2")), Reveal(BEN, ("0", "3", "9", "2")))
    assert state.flags == () and state.history[-1].scores == {ANA: 12, BEN: 14}
    from referee.games.ratatat_apply import dealt_card_now
    assert dealt_card_now(((0, 2, 1, 1), (1, 4, 0, 2)), 1, 1) == (1, 4)  # followed through two Swaps


def test_RTC_V8_outer_face_up_makes_them_public_and_unswappable():
    state = play(match(2, initial_peek="outer_face_up"), TurnUp("5"), InitialPeek(BEN, (1, 4), ("3", "9")))
    assert R.view(state, ANA)["round"]["rows"]["Ben"]["slots"][0]["card"] == "3"
    state = play(state, Draw(ANA), UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA, 2, BEN, 1)).rule == "RTC-33"
    state = play(state, Swap(ANA, 2, BEN, 2))
    assert state.round.turn == BEN


def test_RTC_V11_caller_protected_after_the_call():
    state = play(match(2, caller_protected_after_call=True), TurnUp("5"))
    state = play(plain_turn(state, ANA), Call(ANA), Draw(BEN), UsePower(BEN, "SWAP"))
    assert refused(state, Swap(BEN, 1, ANA, 1)).rule == "RTC-33"
    state = play(state, Swap(BEN))
    assert state.round.step == "reveal"


def test_RTC_V10_minimum_rotations_before_a_call():
    state = plain_turn(play(match(2, min_rotations_before_call=1), TurnUp("5")), ANA)
    assert refused(state, Call(ANA)).rule == "RTC-45"
    state = plain_turn(plain_turn(state, BEN), ANA)
    assert play(state, Call(ANA)).round.caller == ANA


def test_RTC_V6_drawn_power_must_be_used():
    state = play(match(2, power_use_optional=False), TurnUp("5"), Draw(ANA))
    assert refused(state, Discard(ANA, "PEEK")).rule == "RTC-30"
    state = play(state, UsePower(ANA, "SWAP"))
    assert refused(state, Swap(ANA)).rule == "RTC-30"


def test_RTC_V7_peek_scope():
    state = play(match(2), TurnUp("5"), Draw(ANA), UsePower(ANA, "PEEK"))
    assert refused(state, Peek(ANA, 1, BEN)).rule == "RTC-31"
    state = play(match(2, peek_scope="any_table_card"), TurnUp("5"), Draw(ANA), UsePower(ANA, "PEEK"),
                 Peek(ANA, 1, BEN, "6"))
    assert R.view(state, ANA)["round"]["rows"]["Ben"]["slots"][0]["mine"] == "6"


def test_RTC_V3_draw2_from_the_discard_pile():
    state = _draw2(play(match(2), TurnUp("5")))
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-35"
    state = _draw2(play(match(2, draw2_source="discard_allowed"), TurnUp("5")))
    state = play(state, Draw(ANA), Discard(ANA, "7"), TakeDiscard(ANA))  # X2 is the 7 just discarded
    assert refused(state, Discard(ANA)).rule == "RTC-11"


def test_RTC_V12_reveal_replacement_from_the_discard_pile():
    state = _at_reveal(2, reveal_replacement_source="discard_pile")
    top = state.round.discard[-1]
    state = play(state, Reveal(ANA, ("1", "1", "1", "SWAP")), Reveal(BEN, ("PEEK", "2", "2", "2")))
    draw = state.round.draw
    state = play(state, RevealDraw(BEN, 1, "3"))
    assert state.round.draw == draw and state.round.rows[BEN][0].value == "3"
    assert top.value is None, "the top discard was never entered; the replacement names it"
    state = play(state, RevealDraw(ANA, 4, "1"))
    assert state.history[-1].scores == {ANA: 4, BEN: 9}


def test_RTC_V14_timed_match_ends_after_the_round_in_play():
    state = play(match(2, game_end_mode="timed"), TurnUp("5"))
    assert refused(play(match(2), TurnUp("5")), TimeUp()).rule == "RTC-52"
    state = play(state, TimeUp())
    state = score_round(state, {ANA: 3, BEN: 8})
    assert state.over and state.winners == (ANA,)


def test_RTC_V17_dealer_rotation():
    for mode, expected in (("clockwise", ANA), ("fixed", BEN), ("loser_deals", ANA)):
        state = score_round(match(2, dealer_rotation=mode), {ANA: 20, BEN: 3})
        assert state.round.dealer == expected, mode


def test_RTC_V18_stalemate_after_full_rotations():
    state = play(match(2, stalemate_rotations=1), TurnUp("5"))
    assert refused(state, Stalemate()).rule == "RTC-46"
    state = plain_turn(plain_turn(state, ANA), BEN)
    state = play(state, Stalemate())
    assert state.round.step == "reveal" and state.round.caller is None


def test_RTC_V20_seed_reveal_then_choose():
    state = play(match(2, seed_reveal_then_choose=True), TurnUp("4"), Draw(ANA, "9"))
    assert state.round.pending.value == "9"
    state = play(state, TakeDiscard(ANA), Replace(ANA, 1, "8"))
    assert state.round.rows[ANA][0].value == "4"
    assert discard_values(state)[-2:] == ["9", "8"]


def test_RTC_V16_deluxe_edition_super_peek_looks_anywhere():
    state = play(match(2, edition="deluxe_65"), TurnUp("5"), Draw(ANA), UsePower(ANA, "SUPERPEEK"),
                 Peek(ANA, 3, BEN, "2"))
    assert state.round.turn == BEN
    assert sum(R.zone_counts(state).values()) == 65


def test_RTC_10_one_card_per_turn():
    state = play(match(2), TurnUp("5"), Draw(ANA))
    assert refused(state, Draw(ANA)).rule == "RTC-10"
    assert refused(state, TakeDiscard(ANA)).rule == "RTC-10"


def test_RTC_43_reveal_only_after_the_final_turns():
    state = play(match(2), TurnUp("5"))
    assert refused(state, Reveal(ANA, ("1", "1", "1", "1"))).rule == "RTC-43"
    state = _at_reveal(2)
    assert refused(state, Reveal(ANA, ("1", None, "1", "1"))).rule == "RTC-50"


def test_legal_moves_are_accepted():
    at_start = play(match(3), TurnUp("5"))
    holding = play(at_start, Draw(ANA))
    for state, seat, expected in [
            (match(3), None, {TurnUp(None)}),
            (at_start, ANA, {Draw(ANA), TakeDiscard(ANA), InitialPeek(ANA, (1, 4))}),
            (at_start, BEN, {InitialPeek(BEN, (1, 4))}),
            (holding, ANA, {Replace(ANA, 1), Discard(ANA), UsePower(ANA, "SWAP")}),
            (_at_reveal(2), None, {Reveal(ANA, (None,) * 4), Reveal(BEN, (None,) * 4)}),
            (_flag_at_reveal(), None, {ResolveFlag(0, "accept"), ResolveFlag(0, "override")})]:
        moves = R.legal_moves(state, seat)
        assert expected <= set(moves), (seat, moves)
        for move in moves:
            if isinstance(move, Reveal):
                move = Reveal(move.seat, ("1", "2", "3", "4"))
            R.apply(state, move)  # raises if a listed move were refused
    assert R.legal_moves(at_start, CY) == [InitialPeek(CY, (1, 4))], "not Cy's turn: only the first peek"


def test_round_ends_after_the_match_is_over():
    state = score_round(match(2, rounds_n=1), {ANA: 3, BEN: 8})
    assert state.over and state.round is None
    assert refused(state, Draw(ANA)).rule == "RTC-52"
    assert R.legal_moves(state, ANA) == []


# --- A flag at the reveal holds the round (GEN-4, GEN-5) ----------------------------------------


def _flag_at_reveal(**rules):
    """Ana's slot 3 is publicly a 2 (RTC-K2) but her reveal shows a 7: FLAG GEN-4 (flag 0)."""
    state = play(match(2, **rules), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA))
    state = plain_turn(state, BEN)
    return play(state, Reveal(ANA, ("1", "0", "7", "3")), Reveal(BEN, ("4", "4", "5", "2")))


def test_RTC_T16_flag_at_the_reveal_holds_the_round_until_the_table_decides():
    state = _flag_at_reveal(rounds_n=2)
    assert state.flags[0].rule == "GEN-4" and state.flags[0].status == "open"
    assert state.history == () and state.round.number == 1, "not scored while the flag is open"
    seen = R.view(state, None)["round"]
    assert seen["step"] == "reveal" and seen["awaiting_flags"] == [0]
    assert R.legal_moves(state, None) == [ResolveFlag(0, "accept"), ResolveFlag(0, "override")]
    assert refused(state, Draw(BEN)).rule == "RTC-43"
    state, events = R.apply(state, ResolveFlag(0, "accept", "Ana moved her cards", BEN))
    assert [e["kind"] for e in events][:2] == ["flag_resolved", "round_scored"]
    assert state.history[0].scores == {ANA: 11, BEN: 15}, "the revealed 7 counts"
    assert state.round.number == 2 and state.round.awaiting_turn_up
    assert R.view(state, None)["round"]["awaiting_flags"] == []


def test_GEN_5_an_overridden_flag_at_the_reveal_also_scores_the_revealed_cards():
    state = play(_flag_at_reveal(rounds_n=1), ResolveFlag(0, "override", "misread", ANA))
    assert state.over and state.history[0].scores[ANA] == 11
    assert state.flags[0].status == "overridden"


def test_GEN_5_every_flag_of_the_reveal_must_be_decided():
    state = play(match(2, rounds_n=1), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA),
                 TakeDiscard(BEN), Replace(BEN, 1, "3"))  # Ben's slot 1 is publicly the 6
    state = play(state, Reveal(ANA, ("1", "0", "7", "3")), Reveal(BEN, ("8", "4", "5", "2")))
    assert [f.rule for f in state.flags] == ["GEN-4", "GEN-4"]
    state = play(state, ResolveFlag(1, "accept"))
    assert not state.over and R.view(state, ANA)["round"]["awaiting_flags"] == [0]
    state = play(state, ResolveFlag(0, "accept"))
    assert state.over and state.history[0].scores == {ANA: 11, BEN: 19}


def test_GEN_6_a_private_note_contradicted_at_the_end_holds_the_round():
    state = play(match(2, rounds_n=1), TurnUp("5"), Draw(ANA, "3"), Replace(ANA, 1, "9"), Call(ANA))
    state = plain_turn(state, BEN)
    state = play(state, Reveal(ANA, ("4", "1", "1", "1")), Reveal(BEN, ("2", "2", "2", "2")))
    assert not state.over and "Ana noted a 3" in state.flags[0].message
    assert R.awaiting_flags(state) == (0,)
    assert play(state, ResolveFlag(0, "accept")).over


def test_GEN_4_a_flag_raised_before_the_reveal_does_not_hold_the_round():
    state = play(match(2, rounds_n=1), TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"),
                 Draw(BEN), Discard(BEN), Draw(ANA), Replace(ANA, 3, "7"), Call(ANA))
    assert state.flags[0].rule == "GEN-4" and state.flags[0].status == "open"
    state = plain_turn(state, BEN)
    state = play(state, Reveal(ANA, ("1", "1", "1", "1")), Reveal(BEN, ("2", "2", "2", "2")))
    assert state.over, "play went on past that flag: the round is scored at once"


def test_GEN_13_correcting_the_reveal_releases_the_round():
    moves = [TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA), Draw(BEN), Discard(BEN),
             Reveal(ANA, ("1", "0", "7", "3")), Reveal(BEN, ("4", "4", "5", "2"))]
    log, steps = replay(R, match(2, rounds_n=1), moves)
    assert all(s.accepted for s in steps) and not log.state.over
    log, step = log.feed(Correct(6, Reveal(ANA, ("1", "0", "2", "3")), "it was the 2", BEN), 8)
    assert log.state.over and log.state.history[0].scores[ANA] == 6
    assert not log.state.flags and step.later == ()


def test_GEN_13_a_decision_on_a_dispute_a_correction_took_away_says_so():
    """The table dismissed the dispute of Ana's 7 (she took the 2, RTC-20), then corrected her reveal to the
    2: the dispute is no more, and the decision set aside says so (it said the dispute "was decided already",
    as if the table had broken a rule)."""
    moves = [TurnUp("2"), TakeDiscard(ANA), Replace(ANA, 3, "6"), Call(ANA), Draw(BEN), Discard(BEN),
             Reveal(ANA, ("1", "0", "7", "3")), Reveal(BEN, ("4", "4", "5", "2")),
             ResolveFlag(0, "override", "she says it was a 7", BEN)]
    log, steps = replay(R, match(2, rounds_n=1), moves)
    assert all(s.accepted for s in steps) and log.state.over
    log, step = log.feed(Correct(6, Reveal(ANA, ("1", "0", "2", "3")), "it was the 2", BEN), 9)
    assert log.state.over and not log.state.flags
    assert [(d["entry"], d["rule"]) for d in step.later] == [(8, "GEN-5")]
    assert "There is no such dispute now: an entry it was about may have been corrected." in step.later[0]["message"]


def test_new_match_normalises_names_and_refuses_names_the_table_cannot_tell_apart():
    assert R.new_match([" Ana ", "Ben"]).players == ("Ana", "Ben")
    for players in (["Ana", "ana\u200d"], ["Ana", "A na"], ["Ana", "Ben\x1b[31m"], ["Ana", ""], "AnaBen"):
        with pytest.raises(R.EntryError):
            R.new_match(players)


def test_the_round_results_in_a_view_follow_every_round_and_the_players_names():
    """The named round results are remembered per history (every screen asks for them): a view is never
    stale after a round ends, never names the wrong players, and can be changed by its reader."""
    import dataclasses
    import random

    from referee.games import ratatat_sim
    from referee.games.sim import play

    table = ratatat_sim.Table(("Ana", "Ben", "Cy"), {"rounds_n": 3}, random.Random(11))
    seen = []

    def check(_move, state):
        got = R.view(state, 0)["history"]
        assert got == [h.to_dict(state.players) for h in state.history]
        seen.append(len(got))
        got.append("scribble")  # a reader's list is its own
        assert R.view(state, 1)["history"] == [h.to_dict(state.players) for h in state.history]

    play(table, lambda: table.state.over, on_entry=check, limit=3000)
    assert seen[0] == 0 and max(seen) == 3
    renamed = dataclasses.replace(table.state, players=("Xu", "Yo", "Zed"))
    assert R.view(renamed, 0)["history"][0]["seats"] == ["Xu", "Yo", "Zed"]


def test_GEN_4_the_dispute_says_whose_slot_the_card_showed_in():
    """Ben noted an 8 in his slot 1 at his first peek; Ana swapped it into her slot 2, where it shows a 3 at
    the reveal: the dispute names Ben's note and Ana's slot 2."""
    state = play(match(2), TurnUp("5"), InitialPeek(BEN, (1, 4), ("8", "2")), Draw(ANA), UsePower(ANA, "SWAP"),
                 Swap(ANA, 2, BEN, 1), Draw(BEN), Discard(BEN, "3"))
    state = play(plain_turn(state, ANA), Call(ANA), Draw(BEN), Discard(BEN, "4"))
    state = play(state, Reveal(ANA, ("1", "3", "1", "2")), Reveal(BEN, ("0", "3", "9", "2")))
    (flag,) = state.flags
    assert flag.rule == "GEN-4" and flag.message.startswith("Ben noted an 8 at entry 1, but the card in Ana's "
                                                            "slot 2 showed 3 at entry ")


def test_RTC_6_a_first_peek_at_one_slot_twice_is_refused_and_no_override_takes_it():
    """A first peek naming slot 1 twice, with two different cards: one card cannot show two faces. It was
    refused as a rule the table could override, and the override kept one of the two cards without a word."""
    state = play(match(2, initial_peek="any_two"), TurnUp("5"))
    ruling = refused(state, InitialPeek(ANA, (1, 1), ("3", "5")))
    assert ruling.rule == "RTC-6" and not ruling.overridable and "given twice" in ruling.message
    assert refused(state, Override(InitialPeek(ANA, (1, 1), ("3", "5")), "RTC-6", "we agreed")).rule == "RTC-6"
