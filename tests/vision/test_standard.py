import cv2
import numpy as np
import pytest

from vision import glyphs, standard, synth
from vision.rectify import CARD_H, CARD_W
from vision.standard import card_candidates, pip_suit_probs
from vision.types import ACCEPT


def flat(rank: str, suit: str, font=cv2.FONT_HERSHEY_TRIPLEX) -> np.ndarray:
    card = synth.render_standard_card(rank, suit, font=font)
    return cv2.resize(card, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("label", ["AS", "2H", "5D", "8C", "9S", "10H", "JD", "QC", "KS"])
def test_rank_and_suit_are_read_from_the_index(label):
    cands = card_candidates(flat(label[:-1], label[-1]))
    assert cands[0][0] == label
    assert cands[0][1] > 0.7


def test_upside_down_card_reads_the_same():
    card = flat("7", "D")
    assert card_candidates(cv2.rotate(card, cv2.ROTATE_180))[0][0] == "7D"


def test_index_in_another_font_is_read():
    assert card_candidates(flat("4", "H", font=cv2.FONT_HERSHEY_SIMPLEX))[0][0] == "4H"


def test_blank_card_gives_no_candidates():
    assert card_candidates(np.full((CARD_H, CARD_W, 3), 245, np.uint8)) == []


def test_suit_references_cover_every_suit():
    feats, starts = glyphs.suit_references()
    assert len(starts) == len(glyphs.SUITS)
    assert np.allclose(np.linalg.norm(feats, axis=1), 1, atol=1e-3)


def test_joker_is_read_from_its_stacked_letters():
    card = cv2.resize(synth.render_joker(), (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    assert card_candidates(card)[0] == ("JOKER", pytest.approx(0.9))


def test_suit_is_read_from_the_pips_when_the_index_is_small():
    """The big pips of a number card back up a small, blurred index symbol."""
    card = flat("8", "C")
    probs = pip_suit_probs(card, red=False)
    assert probs is not None and glyphs.SUITS[int(np.argmax(probs))] == "C"


def _corner(rank: str, top: float, suit: str = "S", suit_top: float = 0.997, red: bool = False) -> standard.CornerRead:
    """A corner read putting `top` on `rank` and spreading the rest over the other ranks."""
    rank_probs = np.full(len(glyphs.RANKS), (1 - top) / (len(glyphs.RANKS) - 1))
    rank_probs[glyphs.RANKS.index(rank)] = top
    suit_probs = np.full(len(glyphs.SUITS), (1 - suit_top) / (len(glyphs.SUITS) - 1))
    suit_probs[glyphs.SUITS.index(suit)] = suit_top
    return standard.CornerRead(rank_probs, suit_probs, red=red)


@pytest.mark.parametrize("suit_top, answer", [(0.96, "8H"), (0.999, "8D")])
def test_an_index_not_quite_sure_of_its_suit_is_checked_against_the_pips(monkeypatch, suit_top, answer):
    """Both corners of a heart read as a diamond at 0.96 (a design's big heart): the pips in the
    middle decide; an index sure to 0.999 is taken as read."""
    monkeypatch.setattr(standard, "corner_reads",
                        lambda card: [_corner("8", 0.99, "D", suit_top, red=True)] * 2)
    heart = np.array([1e-4, 0.9997, 1e-4, 1e-4])  # what the pips of that design said
    monkeypatch.setattr(standard, "pip_suit_probs", lambda card, red: heart)
    assert card_candidates(flat("8", "H"))[0][0] == answer


@pytest.mark.parametrize("first, second, answered", [
    (0.98, 0.3, True),    # a sure corner confirmed by the other corner's top choice
    (0.8, 0.3, False),    # neither corner sure: the geometric mean stays below acceptance
    (0.98, 0.1, False),   # the other corner barely prefers it: no confirmation
])
def test_a_sure_corner_is_confirmed_by_the_other_corners_top_choice(monkeypatch, first, second, answered):
    monkeypatch.setattr(standard, "corner_reads", lambda card: [_corner("9", first), _corner("9", second)])
    label, conf = card_candidates(np.full((CARD_H, CARD_W, 3), 245, np.uint8))[0]
    assert label == "9S"
    assert (conf >= ACCEPT) == answered
    assert conf <= first + 1e-9  # never surer than the surer corner


def test_corners_that_disagree_are_not_answered(monkeypatch):
    monkeypatch.setattr(standard, "corner_reads", lambda card: [_corner("9", 0.98), _corner("J", 0.6)])
    assert card_candidates(np.full((CARD_H, CARD_W, 3), 245, np.uint8))[0][1] < ACCEPT


@pytest.mark.parametrize("pips, other, answered", [
    ({"H": 0.9997}, ("D", 0.92), "9H"),  # the big pips side with the corner sure of hearts: confirmed
    ({"H": 0.8}, ("D", 0.92), None),     # pips not sure: the corners' disagreement stands
    ({"D": 0.9997}, ("D", 0.92), None),  # pips side with the corner that was not sure of its suit
    ({"H": 0.9997}, ("S", 0.99), None),  # the other corner as sure of another suit: perhaps two cards
])
def test_corners_disagreeing_on_the_suit_are_settled_only_by_pips_agreeing_with_a_sure_corner(monkeypatch, pips, other,
                                                                                              answered):
    """A small heart blurred into a diamond at one corner (0.92), the other corner sure of hearts
    (0.99): the pips in the middle confirm a sure corner, never more than that corner's own
    probability; otherwise (and when the other corner is as sure of another suit, as two cards
    in one outline are) the card is not answered."""
    (suit, top), = pips.items()
    probs = np.full(len(glyphs.SUITS), (1 - top) / (len(glyphs.SUITS) - 1))
    probs[glyphs.SUITS.index(suit)] = top
    monkeypatch.setattr(standard, "pip_suit_probs", lambda card, red: probs)
    reads = [_corner("9", 0.999, "H", 0.99, red=True), _corner("9", 0.999, other[0], other[1], red=other[0] in "HD")]
    label, conf = card_candidates(np.full((CARD_H, CARD_W, 3), 245, np.uint8), reads=reads)[0]
    assert (label if conf >= ACCEPT else None) == answered
    assert conf <= 0.99


def test_the_pips_are_read_in_the_colour_both_corners_give_together(monkeypatch):
    """An outlined heart read as black at one corner (clubs 0.78), red and sure at the other: the
    pips are read as red ink, so the hearts in the middle confirm the sure corner."""
    hearts, clubs = np.array([5e-4, 0.9985, 5e-4, 5e-4]), np.array([5e-4, 5e-4, 5e-4, 0.9985])
    monkeypatch.setattr(standard, "pip_suit_probs", lambda card, red: hearts if red else clubs)
    reads = [_corner("6", 0.999, "C", 0.78), _corner("6", 0.999, "H", 0.999, red=True)]
    label, conf = card_candidates(np.full((CARD_H, CARD_W, 3), 245, np.uint8), reads=reads)[0]
    assert label == "6H" and conf >= ACCEPT


@pytest.mark.parametrize("label, red", [("8D", True), ("5H", True), ("8S", False), ("4C", False), ("KH", False)])
def test_pips_are_told_red_only_when_they_are(label, red):
    """A number card's big pips in red ink are red; black pips, and a face card (no pips), are not."""
    assert standard.pips_red(flat(label[:-1], label[-1])) == red


@pytest.mark.parametrize("card, answered", [("8D", None), ("8S", "8S")])
def test_a_black_suit_read_at_the_corners_is_not_answered_over_red_pips(monkeypatch, card, answered):
    """Both corners sure of an 8 of spades: on a card whose pips are red the evidence disagrees and
    the card is unknown; on a card with black pips it is answered."""
    monkeypatch.setattr(standard, "corner_reads", lambda c: [_corner("8", 0.999, "S", 0.995)] * 2)
    label, conf = card_candidates(flat(card[:-1], card[-1]))[0]
    assert (label if conf >= ACCEPT else None) == answered

