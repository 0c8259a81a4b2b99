import cv2
import numpy as np
import pytest

from vision import glyphs, synth
from vision.rectify import CARD_H, CARD_W
from vision.standard import card_candidates, pip_suit_probs


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


def test_references_cover_every_rank_and_suit():
    feats, starts = glyphs.rank_references()
    assert len(starts) == len(glyphs.GLYPHS) and feats.shape[0] > len(starts)
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
