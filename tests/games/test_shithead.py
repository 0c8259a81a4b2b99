"""Shithead's rules engine: every SH-T case of RULES.md §4.13 by its ID, and the worked examples of §4.12."""
from __future__ import annotations

import os
import sys
from dataclasses import replace

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import ARI, BEA, CAL, DOV, NAMES, go, refused, table  # noqa: E402

from referee.games import shithead as sh  # noqa: E402
from referee.games.base import EntryError, Override  # noqa: E402
from referee.games.shithead_logic import zone  # noqa: E402
from referee.games.shithead_state import Seat  # noqa: E402

P, I, A = sh.Play, sh.Interrupt, sh.Add


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def reminders(state) -> str:
    return " ".join(f"{r}: {t}" for r, t in state.reminders)


def test_SH_T01_four_players_one_deck_deal():
    s = sh.new_match(["Ari", "Bea", "Cal", "Dov"])
    assert s.decks == 1 and s.stock == 16
    assert sum(x.count for x in s.seats) == 12 and sum(len(x.faceup) for x in s.seats) == 12
    assert sum(x.facedown for x in s.seats) == 12


def test_SH_T02_six_players_take_two_decks():
    s = sh.new_match(["Ari", "Bea", "Cal", "Dov", "Eve", "Fin"])
    assert s.decks == 2 and s.stock == 104 - 54


def test_SH_T02_one_deck_forced_for_six_is_refused():
    with pytest.raises(EntryError, match="SH-1"):
        sh.new_match(["Ari", "Bea", "Cal", "Dov", "Eve", "Fin"], {"decks": 1})


def test_SH_T03_nine_on_queen_refused():
    assert refused(table(plays=[(DOV, "QH")]), P(ARI, cards("9S"))).rule == "SH-12"


def test_SH_T03_the_refusal_says_its_ranks_with_their_articles():
    assert "an 8 is lower (play a Q or higher" in refused(table(plays=[(DOV, "QH")]), P(ARI, cards("8S"))).message
    assert "a 5 is lower (play an 8 or higher" in refused(table(plays=[(DOV, "8H")]), P(ARI, cards("5S"))).message


def test_SH_T04_two_on_queen_resets():
    s = go(table(plays=[(DOV, "QH")]), P(ARI, cards("2S")))
    assert s.turn == BEA
    assert go(s, P(BEA, cards("4D"))).pile[-1].card == "4D"


def test_SH_T05_four_on_five_under_a_three_refused():
    assert refused(table(plays=[(CAL, "5H"), (DOV, "3S")]), P(ARI, cards("4D"))).rule == "SH-31"


def test_SH_T06_eight_on_seven_refused():
    assert refused(table(plays=[(DOV, "7H")]), P(ARI, cards("8S"))).rule == "SH-33"


def test_SH_T07_ten_on_seven_burns_and_plays_again():
    s, events = sh.apply(table(plays=[(DOV, "7H")]), P(ARI, cards("10S")))
    assert s.pile == () and set(s.burned) == {"7H", "10S"} and s.turn == ARI
    assert any(e["kind"] == "burn" and e["rule"] == "SH-32" for e in events)
    assert "plays again" in reminders(s)
    blocked = table({"ten_after_seven": "blocked"}, plays=[(DOV, "7H")])
    assert refused(blocked, P(ARI, cards("10S"))).rule == "SH-V15"


def test_SH_T08_seven_restriction_carries_through_a_three():
    assert refused(table(plays=[(CAL, "7H"), (DOV, "3S")]), P(ARI, cards("9S"))).rule == "SH-33"


def test_SH_T09_seven_restriction_lasts_one_play():
    s = go(table(plays=[(DOV, "7H")]), P(ARI, cards("5S")))
    assert go(s, P(BEA, cards("6D"))).pile[-1].card == "6D"
    assert refused(s, P(BEA, cards("4D"))).rule == "SH-12"


def test_SH_T10_two_eights_skip_two_players():
    s = go(table(plays=[(DOV, "6H")]), P(ARI, cards("8S 8H")))
    assert s.turn == DOV and "Bea, Cal" in reminders(s)
    assert refused(s, P(DOV, cards("7D"))).rule == "SH-34"
    assert go(s, P(DOV, cards("9D"))).turn == ARI


def test_SH_T11_two_players_eight_plays_again():
    assert go(table(2, plays=[(BEA, "6H")]), P(ARI, cards("8S"))).turn == ARI


def test_SH_T12_quartet_across_plays_burns():
    s = table(plays=[(ARI, "9H"), (BEA, "9S"), (CAL, "9D")], turn=DOV)
    s = go(s, P(DOV, cards("9C")))
    assert s.pile == () and len(s.burned) == 4 and s.turn == DOV


def test_SH_T13_quartet_scope_last_play_plus_current():
    s = table({"quartet_scope": "last_play_plus_current"}, plays=[(ARI, "9H"), (BEA, "9S"), (CAL, "9D")], turn=DOV)
    s = go(s, P(DOV, cards("9C")))
    assert len(s.pile) == 4 and s.turn == ARI


def test_SH_T14_a_three_breaks_the_run():
    s = go(table(plays=[(CAL, "5H 5S"), (DOV, "3D")]), P(ARI, cards("5D 5C")))
    assert len(s.pile) == 5 and s.burned == ()


def test_SH_T14_copies_below_counts_the_three():
    s = go(table({"three_in_quartet": "copies_below"}, plays=[(CAL, "5H 5S"), (DOV, "3D")]), P(ARI, cards("5D")))
    assert s.pile == () and s.turn == ARI


def test_SH_T15_four_eights_burn_without_skipping():
    s = go(table(plays=[(DOV, "6H")], seats={ARI: Seat(4, (), (None,) * 3, 3, True)}), P(ARI, cards("8S 8H 8D 8C")))
    assert s.pile == () and s.turn == ARI and "Skipped" not in reminders(s)


def test_SH_T16_refill_draws_exactly_what_is_missing():
    s = go(table(stock=10), P(ARI, cards("5S")))
    assert s.seats[ARI].count == 3 and s.stock == 9 and "draw 1" in reminders(s)


def test_SH_T17_face_up_card_while_holding_a_hand_card():
    s = table(stock=0, seats={ARI: Seat(1, (), ("4H", "JD", "KC"), 3, True)})
    assert refused(s, P(ARI, cards("4H"))).rule == "SH-16"


def test_SH_T18_last_hand_card_with_face_up_cards_of_its_rank():
    s = table(stock=0, seats={ARI: Seat(1, (), ("JD", "JC", "4S"), 3, True)})
    s = go(s, P(ARI, cards("JH JD JC")))
    assert s.seats[ARI].faceup == ("4S",) and s.seats[ARI].count == 0 and zone(s, ARI) == "faceup"


def test_SH_T19_face_up_card_that_cannot_go_is_picked_up_with_the_pile():
    s = table(stock=0, plays=[(DOV, "KH")], seats={ARI: Seat(0, (), ("5H", "5S"), 3, True)})
    s, events = sh.apply(s, P(ARI, cards("5H")))
    ari = s.seats[ARI]
    assert ari.count == 2 and sorted(ari.known) == ["5H", "KH"] and ari.faceup == ("5S",)
    assert s.pile == () and s.turn == BEA and zone(s, ARI) == "hand"
    assert any(e["rule"] == "SH-18" for e in events)


def test_SH_T19_common_rule_the_card_stays_face_up():
    s = table({"faceup_fail_takes_card": False}, stock=0, plays=[(DOV, "KH")],
              seats={ARI: Seat(0, (), ("5H", "5S"), 3, True)})
    s = go(s, P(ARI, cards("5H")))
    assert s.seats[ARI].known == ("KH",) and sorted(s.seats[ARI].faceup) == ["5H", "5S"]


def test_SH_T20_face_up_same_rank_set():
    s = table({"faceup_play": "same_rank_set"}, stock=0, plays=[(DOV, "4H")],
              seats={ARI: Seat(0, (), ("5H", "5S", "KD"), 3, True)})
    s = go(s, P(ARI, cards("5H 5S")))
    assert s.seats[ARI].faceup == ("KD",) and [p.card for p in s.pile][-2:] == ["5H", "5S"]
    one = table(stock=0, plays=[(DOV, "4H")], seats={ARI: Seat(0, (), ("5H", "5S", "KD"), 3, True)})
    assert refused(one, P(ARI, cards("5H 5S"))).rule == "SH-18"


def test_SH_T20_same_rank_set_no_face_up_card_goes_so_the_pile_is_picked_up():
    """SH-18 (SH-V12 = same_rank_set): when none of the face-up cards is legal the player picks up the pile
    and the face-up cards stay, even at a table without voluntary pick-ups (SH-V13 = false, SH-14)."""
    rules = {"faceup_play": "same_rank_set", "voluntary_pickup": False}
    s = table(rules, stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), ("4H", "5S"), 3, True)})
    s = go(s, sh.Pickup(ARI))
    ari = s.seats[ARI]
    assert ari.count == 1 and ari.known == ("QH",) and sorted(ari.faceup) == ["4H", "5S"]
    assert s.pile == () and s.turn == BEA and zone(s, ARI) == "hand"
    can = table(rules, stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), ("4H", "KS"), 3, True)})
    assert refused(can, sh.Pickup(ARI)).rule == "SH-V13"  # the K goes: picking up is not allowed
    seed = table({"voluntary_pickup": False}, stock=0, plays=[(DOV, "QH")],
                 seats={ARI: Seat(0, (), ("4H", "5S"), 3, True)})
    assert refused(seed, sh.Pickup(ARI)).rule == "SH-V13"  # one at a time: a card is lifted (SH-18, T19)


def test_SH_T20_the_phone_offers_the_pick_up_when_no_face_up_card_goes():
    """What the referee offers follows what it accepts: no face-up card goes, so the pick-up is offered
    even without voluntary pick-ups; a face-up joker is offered; a 5 that may go is offered without the
    5 of another suit that may not (SH-V6, each card checked on its own)."""
    rules = {"faceup_play": "same_rank_set", "voluntary_pickup": False}
    s = table(rules, stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), ("4H", "5S"), 3, True)})
    assert sh.legal_moves(s, ARI) == [sh.Pickup(ARI)]
    s = table(rules, stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), ("4H", "JOKER"), 3, True)})
    assert sh.Play(ARI, ("JOKER",), "2") in sh.legal_moves(s, ARI)
    suit = table({"faceup_play": "same_rank_set", "nine_same_suit": True}, stock=0, plays=[(DOV, "9H")],
                 seats={ARI: Seat(0, (), ("10H", "JH", "JS"), 3, True)})
    offered = [m for m in sh.legal_moves(suit, ARI) if isinstance(m, sh.Play)]
    assert sh.Play(ARI, ("JH",)) in offered and not any("JS" in m.cards for m in offered)
    for m in offered:
        sh.apply(suit, m)  # every offered play is accepted


def test_SH_40_the_interrupt_offered_counts_as_the_engine_does_under_last_play_plus_current():
    """SH-V20: with Q, then Q Q on the pile, an interrupt counts with the top play only: it needs two Qs."""
    s = table({"quartet_scope": "last_play_plus_current"}, turn=CAL, plays=[(ARI, "QH"), (BEA, "QS QD")],
              seats={DOV: Seat(3, ("QC",), (None, None, None), 3, True)})
    assert sh.can_interrupt(s, DOV) is None  # one Q known, and no other Q left to be unseen
    assert refused(s, sh.Interrupt(DOV, ("QC",))).rule == "SH-40"
    top = table(turn=CAL, plays=[(ARI, "QH"), (BEA, "QS QD")],
                seats={DOV: Seat(3, ("QC",), (None, None, None), 3, True)})
    assert sh.can_interrupt(top, DOV) == ("QC",)
    go(top, sh.Interrupt(DOV, ("QC",)))


def test_SH_T21_face_down_card_that_cannot_go():
    s = table(stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), (), 3, True)})
    s, events = sh.apply(s, P(ARI, cards("6D")))
    ari = s.seats[ARI]
    assert ari.facedown == 2 and ari.count == 2 and sorted(ari.known) == ["6D", "QH"]
    assert zone(s, ARI) == "hand" and any(e["rule"] == "SH-19" for e in events)


def test_SH_T22_face_down_card_while_a_face_up_card_is_left():
    s = table(stock=0, seats={ARI: Seat(0, (), ("KD",), 3, True)})
    assert refused(s, P(ARI, cards("6D"))).rule == "SH-16"


def _h5():
    return table(plays=[(BEA, "QS QH")], turn=CAL)


def test_SH_V1_with_an_ordinary_3_the_referee_never_says_a_3_goes_on_anything():
    s = table({"three_is_normal": True}, plays=[(BEA, "5C")], turn=CAL)
    assert sh.view(s, CAL)["beat"] == "a 5 or higher, or a 2 or 10"
    ruling = refused(s, P(CAL, cards("3D")))
    assert ruling.rule == "SH-12" and ruling.message.endswith("(play a 5 or higher, or a 2 or 10).")
    assert sh.view(table(plays=[(BEA, "5C")], turn=CAL), CAL)["beat"] == "a 5 or higher, or a 2, 3 or 10"


def test_SH_T23_interrupt_completes_four_and_burns():
    s = go(_h5(), I(DOV, cards("QD QC")))
    assert s.pile == () and s.turn == DOV and "Cal's turn is lost" in reminders(s)
    assert sh.may_act(_h5())[0] == CAL and {ARI, DOV} <= set(sh.may_act(_h5()))


def test_SH_T24_interrupt_after_the_next_play_is_too_late():
    s = go(_h5(), P(CAL, cards("KH")))
    ruling = refused(s, I(DOV, cards("QD QC")))
    assert ruling.rule == "SH-43" and "Too late" in ruling.message


def test_SH_40_an_interrupt_of_a_rank_not_on_top_is_not_too_late_but_wrong():
    """Nothing came first: the pile's top is a queen, and fives complete nothing (SH-40, not SH-43)."""
    ruling = refused(_h5(), I(DOV, cards("5D 5C")))
    assert ruling.rule == "SH-40" and "Too late" not in ruling.message and "not a 5" in ruling.message


def test_SH_T24_two_phones_at_once_the_first_entry_wins():
    s = go(_h5(), I(DOV, cards("QD QC")))
    ruling = refused(s, I(ARI, cards("QD QC")))
    assert ruling.rule == "SH-43" and "came first" in ruling.message


def test_SH_T25_no_interrupts_with_two_players():
    s = table(2, plays=[(ARI, "QS QH")], turn=BEA)
    assert refused(s, I(ARI, cards("QD QC"))).rule in ("SH-42", "SH-40")
    s = table(2, plays=[(BEA, "QS QH")], turn=BEA)
    assert refused(s, I(ARI, cards("QD QC"))).rule == "SH-42"
    assert sh.may_act(s) == (BEA,)


def test_SH_T26_adding_a_card_just_drawn():
    s = go(table(3, plays=[(CAL, "4H")]), P(ARI, cards("6H")))
    assert s.turn == BEA and s.last is not None and s.last.drawn == 1 and ARI in sh.may_act(s)
    s = go(s, A(ARI, cards("6S")))
    assert [p.card for p in s.pile][-2:] == ["6H", "6S"] and s.turn == BEA
    assert refused(s, P(BEA, cards("5D"))).rule == "SH-12"


def test_SH_T27_going_out_on_a_ten():
    s = table(stock=0, plays=[(DOV, "KH")], seats={ARI: Seat(1, (), (), 0, True)})
    s = go(s, P(ARI, cards("10H")))
    assert s.out == (ARI,) and s.pile == () and s.turn == BEA


def test_SH_T28_two_players_left_switch_interrupts_off():
    s = table(3, stock=0, turn=BEA, plays=[(ARI, "4H")], seats={BEA: Seat(1, (), (), 0, True)})
    s = go(s, P(BEA, cards("QS")))
    assert s.out == (BEA,) and not s.over and s.turn == CAL
    s = go(s, P(CAL, cards("QH")))
    assert refused(s, I(ARI, cards("QD QC"))).rule == "SH-42" and sh.may_act(s) == (ARI,)


def test_SH_T29_last_player_left_is_the_shithead():
    s = table(2, stock=0, plays=[(BEA, "4H")], seats={ARI: Seat(1, (), (), 0, True)})
    s = go(s, P(ARI, cards("9H")))
    result = sh.result(s)
    assert s.over and result["rounds"][0]["shithead"] == "Bea" and result["rounds"][0]["order"] == ["Ari"]
    assert "Bea is the Shithead" in result["outcome"]
    # one game: nobody wins it, the others keep their finishing places (§4.12 H1)
    assert result["winners"] == [] and [(r["player"], r["place"]) for r in result["standings"]] == [("Ari", 1), ("Bea", 2)]


def test_SH_T30_a_fifth_seven_is_impossible():
    s = table(plays=[(CAL, "7H"), (DOV, "7S")], burned=("7D",), seats={BEA: Seat(3, (), ("7C", "KD", "KS"), 3, True)})
    s = replace(s, pile=s.pile[:1] + s.pile[1:])
    assert refused(s, P(ARI, cards("7H"))).rule == "SH-K5"
    assert refused(s, P(ARI, cards("7C"))).rule == "SH-K5"
    assert not any(c.startswith("7") for c in sh.still_possible(s, ARI))


def test_SH_T31_starter_must_play_the_declared_card():
    s = sh.new_match(["Ari", "Bea", "Cal"])
    for seat, up in enumerate(("KH QH JH", "KS QS JS", "KD QD JD")):
        s = go(s, sh.FaceUp(seat, cards(up)))
    s = go(s, sh.Start(ARI, "4C"))
    assert refused(s, P(ARI, cards("6H 6S"))).rule == "SH-4"
    assert go(s, P(ARI, cards("4C"))).turn == BEA
    assert go(replace(s, rules={**s.rules, "starter_must_play_declared": False}), P(ARI, cards("6H 6S"))).turn == BEA


def test_SH_T32_voluntary_pickup():
    s = table(plays=[(DOV, "5H")], seats={ARI: Seat(3, ("9H", "9S", "JD"), (None, None, None), 3, True)})
    assert go(s, sh.Pickup(ARI)).seats[ARI].count == 4
    strict = replace(s, rules={**s.rules, "voluntary_pickup": False})
    assert refused(strict, sh.Pickup(ARI)).rule == "SH-V13"


def test_SH_T33_three_as_an_ordinary_card():
    assert refused(table({"three_is_normal": True}, plays=[(DOV, "5H")]), P(ARI, cards("3S"))).rule == "SH-12"


def test_SH_T34_nine_reverses():
    s = go(table({"nine_reverse": "strong"}, turn=BEA, plays=[(ARI, "QH")]), P(BEA, cards("9S")))
    assert s.turn == ARI and s.direction == -1
    s = go(s, P(ARI, cards("9H")))
    assert s.turn == BEA and s.direction == 1


def test_SH_T35_specials_anytime():
    s = go(table({"specials_anytime": True}, plays=[(DOV, "AH")]), P(ARI, cards("7S")))
    assert refused(s, P(BEA, cards("9S"))).rule == "SH-33"
    assert go(s, P(BEA, cards("8S"))).turn == DOV  # an 8 goes on anything too
    assert go(s, P(BEA, cards("6S"))).turn == CAL


def test_SH_T36_empty_pile_cannot_be_picked_up():
    assert refused(table(), sh.Pickup(ARI)).rule == "SH-14"


def test_SH_T37_starter_claim_against_face_up_cards():
    def started(zones):
        s = sh.new_match(["Ari", "Bea", "Cal", "Dov"], {"start_rank_zones": zones})
        for seat, up in enumerate(("KH QH JH", "4S QS JS", "KD QD JD", "KC QC JC")):
            s = go(s, sh.FaceUp(seat, cards(up)))
        return go(s, sh.Start(ARI, "5C"))
    flagged = started("hand_and_faceup")
    assert [f.rule for f in flagged.flags] == ["SH-K7"] and "Bea" in flagged.flags[0].message
    assert started("hand").flags == ()


# --- §4.12 worked examples ----------------------------------------------------------------------

def _endgame(rules=None):
    seats = {s: Seat(1 + (s == CAL), (), (), 0, True) for s in range(4)}
    return table(4, rules, stock=0, turn=BEA, seats=seats)


def test_H1_finishing_order_and_the_shithead():
    s = go(_endgame(), P(BEA, cards("4H")), sh.Pickup(CAL), P(DOV, cards("5H")), P(ARI, cards("6H")))
    result = sh.result(s)
    assert s.over and result["rounds"][0]["order"] == ["Bea", "Dov", "Ari"]
    assert result["rounds"][0]["shithead"] == "Cal"
    # "Record: positions Bea 1, Dov 2, Ari 3, Cal loser": a place each, no shared win of the non-losers
    assert result["winners"] == [] and [(r["player"], r["place"]) for r in result["standings"]] == [
        ("Bea", 1), ("Dov", 2), ("Ari", 3), ("Cal", 4)]


def test_H1_first_out_wins():
    s = go(_endgame({"end_mode": "first_out_wins"}), P(BEA, cards("4H")))
    assert s.over and sh.result(s)["winners"] == ["Bea"]


def test_H2_tally_over_an_evening():
    s = _endgame({"games": 2})
    s = go(s, P(BEA, cards("4H")), sh.Pickup(CAL), P(DOV, cards("5H")), P(ARI, cards("6H")))
    assert not s.over and s.number == 2 and s.phase == "setup" and s.dealer == CAL and s.tally == (0, 0, 1, 0)
    second = table(4, stock=0, turn=BEA, seats={x: Seat(1 + (x == DOV), (), (), 0, True) for x in range(4)})
    s = replace(s, **{f: getattr(second, f) for f in ("phase", "seats", "stock", "turn", "pile")})
    s = go(s, P(BEA, cards("4H")), P(CAL, cards("5H")), P(DOV, cards("6H")), P(ARI, cards("7H")))
    result = sh.result(s)
    assert s.over and result["totals"] == {"Ari": 0, "Bea": 0, "Cal": 1, "Dov": 1}
    assert result["winners"] == ["Ari", "Bea"]


def test_H3_legality_walkthrough():
    s = table(3, plays=[(CAL, "5H")])
    s = go(s, P(ARI, cards("3S")))
    assert refused(s, P(BEA, cards("4S"))).rule == "SH-31"
    s = go(s, P(BEA, cards("7S")), P(CAL, cards("3D")))
    assert refused(s, P(ARI, cards("8D"))).rule == "SH-33"
    s = go(s, P(ARI, cards("6D")))
    assert refused(s, P(BEA, cards("5D"))).rule == "SH-12"
    s = go(s, P(BEA, cards("8H")))
    assert s.turn == ARI and refused(s, P(ARI, cards("7D"))).rule == "SH-34"


def test_H4_quartet_by_three_players():
    s = go(table(plays=[(BEA, "9H 9S")], turn=CAL), P(CAL, cards("9D")), P(DOV, cards("9C")))
    assert s.pile == () and s.turn == DOV


def test_H5_interrupt_is_SH_T23():
    s = go(_h5(), I(DOV, cards("QD QC")), P(DOV, cards("4H")))
    assert s.turn == ARI


# --- overrides, the deal and the entries' forms ------------------------------------------------

def test_an_override_lets_a_refused_play_stand():
    s, events = sh.apply(table(plays=[(DOV, "QH")]), Override(P(ARI, cards("9S")), "SH-12", "we allow it", BEA))
    assert s.pile[-1].card == "9S" and s.overrides[0][1] == "SH-12"


def test_setup_swaps_keep_three_and_three():
    s = sh.new_match(["Ari", "Bea"])
    s = go(s, sh.FaceUp(ARI, cards("KH 4S QH")), sh.Swap(ARI, "AH", "4S"))
    assert s.seats[ARI].faceup == ("KH", "AH", "QH") and s.seats[ARI].known == ("4S",) and s.seats[ARI].count == 3
    assert refused(s, sh.Swap(ARI, "2D", "9C")).rule == "SH-3"
    no = sh.new_match(["Ari", "Bea"], {"faceup_swap_allowed": False})
    assert refused(go(no, sh.FaceUp(ARI, cards("KH 4S QH"))), sh.Swap(ARI, "AH", "4S")).rule == "SH-V7"


def test_the_form_round_trip_and_hostile_fields():
    players = ("Ari", "Bea")
    entry = {"move": "play", "seat": "Ari", "cards": ["7H", "7S"]}
    form = sh.entry_to_form(entry)
    assert form["cards"] == "7H,7S" and sh.entry_from_form(form, players, 0) == entry
    for bad in ({"move": "x" * 30}, {"move": "play", "cards": ",".join(["7H"] * 40)}, {"move": "dance"}):
        with pytest.raises(EntryError):
            sh.entry_from_form(bad, players, 0)
    with pytest.raises(EntryError):
        sh.parse_move({"move": "play", "seat": "Ari", "cards": ["ZZ"]}, players)
    with pytest.raises(EntryError):
        sh.parse_move({"move": "play", "seat": "Ari", "cards": "7H"}, players)


# --- what the referee says ------------------------------------------------------------------------

def _next_game(state, n, turn, seats=None):
    """``state`` (the next game just dealt) laid out for its last plays: every seat one card in hand
    unless ``seats`` say otherwise."""
    laid = table(n, state.rules, stock=0, turn=turn,
                 seats={x: Seat(1, (), (), 0, True) for x in range(n)} | (seats or {}))
    return replace(state, **{f: getattr(laid, f) for f in ("phase", "seats", "stock", "turn", "pile")})


def test_H2_the_outcome_of_a_match_of_several_games_names_its_winners_a_tie_shared():
    """SH-52 over two games: Ari wins the first, Bea the second: the match win is shared (§4.12 H2)."""
    rules = {"end_mode": "first_out_wins", "games": 2}
    s = go(table(3, rules, stock=0, seats={x: Seat(1, (), (), 0, True) for x in range(3)}), P(ARI, cards("4H")))
    assert not s.over and s.number == 2 and s.tally == (1, 0, 0)
    s = go(_next_game(s, 3, BEA), P(BEA, cards("5H")))
    assert s.over and s.winners == (ARI, BEA)
    assert s.outcome == ("Bea goes out first and wins (SH-52). After 2 games Ari and Bea share the match win "
                         "with the most games won (1 each). Tally: Ari 1, Bea 1, Cal 0.")
    assert sh.result(s)["outcome"] == s.outcome


def test_H2_the_outcome_names_the_match_winner_with_the_fewest_shithead_points():
    """last_is_loser over two games: Ari then Bea is the Shithead, so Cal alone wins the match."""
    seats = {ARI: Seat(2, (), (), 0, True), BEA: Seat(1, (), (), 0, True), CAL: Seat(1, (), (), 0, True)}
    s = go(table(3, {"games": 2}, stock=0, turn=BEA, seats=seats), P(BEA, cards("4H")), P(CAL, cards("5H")))
    assert not s.over and s.tally == (1, 0, 0)
    s = go(_next_game(s, 3, CAL, {BEA: Seat(2, (), (), 0, True)}), P(CAL, cards("4D")),
           P(ARI, cards("5D")))
    assert s.over and s.winners == (CAL,)
    assert s.outcome == ("Bea is the Shithead. Finishing order: Cal, Ari. After 2 games Cal wins the match "
                         "with the fewest Shithead points (0). Tally: Ari 1, Bea 1, Cal 0.")


def test_H2_a_four_player_evening_shared_at_the_top():
    s = _endgame({"games": 2})
    s = go(s, P(BEA, cards("4H")), sh.Pickup(CAL), P(DOV, cards("5H")), P(ARI, cards("6H")))
    s = _next_game(s, 4, BEA, {DOV: Seat(2, (), (), 0, True)})
    s = go(s, P(BEA, cards("4H")), P(CAL, cards("5H")), P(DOV, cards("6H")), P(ARI, cards("7H")))
    assert s.outcome.endswith("After 2 games Ari and Bea share the match win with the fewest Shithead points "
                              "(0 each). Tally: Ari 0, Bea 0, Cal 1, Dov 1.")


def test_a_single_game_outcome_has_no_match_sentence():
    s = go(_endgame(), P(BEA, cards("4H")), sh.Pickup(CAL), P(DOV, cards("5H")), P(ARI, cards("6H")))
    assert s.outcome == "Cal is the Shithead. Finishing order: Bea, Dov, Ari."


def test_a_table_card_that_cannot_go_is_said_in_one_sentence():
    """SH-19 / SH-18: why the card cannot go, then what happens, without a ruling's words in brackets."""
    s = table(stock=0, plays=[(DOV, "QH")], seats={ARI: Seat(0, (), (), 3, True)})
    assert go(s, P(ARI, cards("6D"))).reminders == (
        ("SH-19", "Ari's 6♦ cannot go on the Q (SH-12), so Ari picks up the pile and the 6♦ and plays from "
                  "the hand again (SH-20)."),)
    s = table({"faceup_fail_takes_card": False}, stock=0, plays=[(CAL, "KH"), (DOV, "3S")],
              seats={ARI: Seat(0, (), ("5H", "5S"), 3, True)})
    assert reminders(go(s, P(ARI, cards("5H")))) == (
        "SH-18: Ari's 5♥ cannot go on the K under the 3s (SH-31), so Ari picks up the pile and plays from the "
        "hand again (SH-20).")
    s = table({"ten_after_seven": "blocked"}, stock=0, plays=[(DOV, "7H")], seats={ARI: Seat(0, (), (), 3, True)})
    words = reminders(go(s, P(ARI, cards("10S"))))
    assert "10♠ may not burn the 7 at this table (SH-V15), so Ari" in words
    for words in (words, reminders(go(table({"nine_same_suit": True}, stock=0, plays=[(DOV, "9H")],
                                            seats={ARI: Seat(0, (), (), 3, True)}), P(ARI, cards("JS"))))):
        assert "((" not in words and ".)" not in words and words.count(".") == 1


def test_GEN_7_names_the_interrupt_only_when_the_cards_could_be_one():
    """SH-40: Q Q on top, Cal to play: two Qs out of turn make four (an interrupt); a K, one Q, a pick-up,
    the player of the Qs themselves, or a table without interrupts do not."""
    hint = "It is Cal's turn, not Dov's (four of a kind out of turn is an interrupt)."
    assert refused(_h5(), P(DOV, cards("QD QC"))).message == hint
    for move in (P(DOV, cards("KH")), P(DOV, cards("QD")), sh.Pickup(DOV), P(BEA, cards("QD QC"))):
        ruling = refused(_h5(), move)
        assert ruling.rule == "GEN-7" and ruling.message == f"It is Cal's turn, not {NAMES[move.seat]}'s."
    off = table({"interrupts": False}, plays=[(BEA, "QS QH")], turn=CAL)
    assert refused(off, P(DOV, cards("QD QC"))).message == "It is Cal's turn, not Dov's."
    three = table(3, plays=[(ARI, "QS QH")], turn=BEA)  # three players: an interrupt is still possible
    assert refused(three, P(CAL, cards("QD QC"))).message.endswith("(four of a kind out of turn is an interrupt).")
    assert refused(replace(_h5(), out=(ARI,)), P(DOV, cards("QD QC"))).message == hint
    two_left = replace(_h5(), out=(ARI, BEA))  # only Cal and Dov still in: no interrupts (SH-42)
    assert refused(two_left, P(DOV, cards("QD QC"))).message == "It is Cal's turn, not Dov's."


def test_cards_are_said_as_the_table_says_them():
    players = ("Ari", "Bea", "Cal")
    assert sh.describe(P(CAL, cards("6D 6H 6S")), players) == "Cal plays 6♦ 6♥ 6♠."
    assert sh.describe(I(BEA, cards("7C")), players) == "Bea interrupts with 7♣."
    assert sh.describe(P(ARI, cards("10H JOKER"), "10"), players) == "Ari plays 10♥ Joker (as 10s)."
    assert sh.describe(sh.FaceUp(ARI, ("8C", None, "AS")), players) == "Ari's face-up cards: 8♣ unknown A♠."
    assert sh.describe(sh.Swap(ARI, "2C", "AH"), players) == "Ari puts 2♣ face up and takes A♥ into the hand."
    s = go(table(3, plays=[(CAL, "4H")]), P(ARI, cards("6H")), A(ARI, cards("6S")))
    assert "Ari adds 6♠." in reminders(s)
    known = table(stock=0, seats={ARI: Seat(2, ("KH", "QD"), (None,) * 3, 3, True)})
    assert refused(known, P(ARI, cards("5C"))).message == \
        "The table knows every card in Ari's hand (K♥ Q♦): 5♣ is not among them. Table cards wait until the hand " \
        "is empty (SH-20)."  # SH-T21: a face-down card turned over while the hand holds cards


def test_SH_18_a_failed_face_up_play_is_said_as_what_happened_with_its_rules():
    """The history says a face-up card that could not go on the pile as what happened (not "Ari plays
    5♥."): the card, why it could not go, and that the pile and the card went into the hand."""
    s = table(3, stock=0, turn=ARI, plays=[(BEA, "KH")], seats={ARI: Seat(0, (), ("5H", "6S", "9D"), 3, True)})
    move = sh.Play(ARI, ("5H",))
    failed = sh.failed_play(s, move)
    assert failed["rule"] == "SH-18" and failed["card"] == "5H" and failed["top"] == "K"
    assert sh.describe(move, s.players, failed) == (
        "Ari plays the face-up 5♥, which cannot go on the K (SH-12), so Ari picks up the pile and the 5♥ (SH-18).")
    assert sh.describe(move, s.players) == "Ari plays 5♥."  # without the table before it, as entered
    through_3s = table(3, stock=0, turn=ARI, plays=[(BEA, "KH"), (CAL, "3S")], seats={ARI: s.seats[ARI]})
    assert sh.describe(move, s.players, sh.failed_play(through_3s, move)) == (
        "Ari plays the face-up 5♥, which cannot go on the K under the 3s (SH-31), so Ari picks up the pile and "
        "the 5♥ (SH-18).")
    stays = replace(s, rules={**s.rules, "faceup_fail_takes_card": False})
    assert sh.describe(move, s.players, sh.failed_play(stays, move)) == (
        "Ari plays the face-up 5♥, which cannot go on the K (SH-12), so Ari picks up the pile and the 5♥ stays "
        "face up (SH-18).")
    face_down = table(3, stock=0, turn=ARI, plays=[(BEA, "KH")], seats={ARI: Seat(0, (), (), 2, True)})
    assert sh.describe(move, s.players, sh.failed_play(face_down, move)) == (
        "Ari turns over the face-down 5♥, which cannot go on the K (SH-12), so Ari picks up the pile and the 5♥ "
        "(SH-19).")
    # a play that goes, or one from the hand, is said as entered
    assert sh.failed_play(replace(s, pile=()), move) is None
    assert sh.failed_play(table(3, plays=[(BEA, "KH")]), sh.Play(ARI, ("5H",))) is None
    assert sh.failed_play(s, sh.Pickup(ARI)) is None


def test_SH_53_the_shithead_deals_the_next_match():
    """Play again: the Shithead of the last game deals the new match's first game (SH-53); a match whose
    game has no Shithead (SH-52) passes the deal to the dealer's left; a match being played has none yet."""
    s = table(3, stock=0, turn=BEA, plays=[(ARI, "4H")],
              seats={BEA: Seat(1, (), (), 0, True), CAL: Seat(1, (), (), 0, True), ARI: Seat(2, (), (), 0, True)})
    assert sh.next_dealer(s) is None
    s = go(s, sh.Play(BEA, ("9H",)), sh.Play(CAL, ("10H",)))
    assert s.over and s.history[-1].shithead == ARI and sh.next_dealer(s) == ARI
    again = sh.new_match(s.players, dict(s.rules), sh.next_dealer(s))
    assert again.dealer == ARI and sh.view(again, None)["dealer"] == "Ari"
    first_out = go(table(3, {"end_mode": "first_out_wins"}, stock=0, seats={ARI: Seat(1, (), (), 0, True)},
                         plays=[(CAL, "4H")]), sh.Play(ARI, ("9H",)))
    assert first_out.over and sh.next_dealer(first_out) == (first_out.dealer + 1) % 3


def test_SH_T05_a_card_that_does_not_fit_points_at_the_plays_that_made_the_card_to_beat():
    """GEN-10: the refusal points at the entry that put the 5 on the pile and the one of the 3 on it, not
    at the plays under them."""
    ruling = refused(table(plays=[(BEA, "4H"), (CAL, "5H"), (DOV, "3S")]), P(ARI, cards("4D")))
    assert ruling.rule == "SH-31" and ruling.entries[1:] == (-99, -98)
    seven = refused(table(plays=[(BEA, "4H"), (CAL, "7H 7S")]), P(ARI, cards("8S")))
    assert seven.rule == "SH-33" and seven.entries[1:] == (-99,)
    assert refused(table(plays=[(DOV, "QH")]), P(ARI, cards("9S"))).entries[1:] == (-100,)


def test_SH_16_a_play_of_more_cards_than_the_hand_holds_says_the_hand_in_plain_words():
    s = table(stock=5, seats={ARI: Seat(1, (), ("4H", "JD", "KC"), 3, True)})
    ruling = refused(s, P(ARI, cards("5S 5D")))
    assert ruling.rule == "SH-16" and ruling.message.startswith("Ari has 1 card in hand and the stock is not empty")
    two = table(stock=5, seats={ARI: Seat(2, (), ("4H", "JD", "KC"), 3, True)})
    assert "has 2 cards in hand" in refused(two, P(ARI, cards("5S 5D 5H"))).message
