import cv2
import numpy as np
import pytest

import vision
from vision import pips, synth
from vision.rectify import CARD_H, CARD_W, rectify

NUMBER_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10"]


def flat(rank: str, suit: str) -> np.ndarray:
    return cv2.resize(synth.render_standard_card(rank, suit), (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def without_index(card: np.ndarray) -> np.ndarray:
    """The card with both index corners painted over with its paper, as a frame or a thumb may hide them."""
    card = card.copy()
    w, h = int(CARD_W * 0.2), int(CARD_H * 0.24)
    card[:h, :w] = card[-h:, -w:] = 248
    return card


@pytest.mark.parametrize("rank", NUMBER_RANKS)
@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_a_number_card_is_read_by_its_pips(rank, suit):
    read = pips.read_pips(flat(rank, suit))
    assert read is not None and read.count == int(rank)
    assert "SHDC"[int(np.argmax(read.suit_probs))] == suit
    assert read.red == (suit in "HD")


@pytest.mark.parametrize("rank", ["7", "9", "10"])
def test_a_card_turned_round_reads_the_same(rank):
    read = pips.read_pips(cv2.rotate(flat(rank, "S"), cv2.ROTATE_180))
    assert read is not None and read.count == int(rank)


@pytest.mark.parametrize("rank", ["A", "J", "Q", "K"])
def test_an_ace_or_a_face_card_fits_no_layout(rank):
    assert pips.read_pips(flat(rank, "H")) is None


def test_a_pip_missing_from_a_layout_fits_no_rank():
    card = flat("9", "C")
    card[int(CARD_H * 0.5) - 20:int(CARD_H * 0.5) + 20, int(CARD_W * 0.42):int(CARD_W * 0.58)] = 248  # 9 -> 8 pips
    assert pips.read_pips(card) is None


def test_a_three_cut_by_the_frame_is_not_read_as_a_two():
    """Two pips found in a column, the third cut by the frame's edge: ink lies where a 2 has none."""
    card = flat("3", "C")[: int(CARD_H * 0.84)]
    assert pips.read_pips(cv2.resize(card, (CARD_W, CARD_H))) is None


def test_pips_in_another_rank_s_place_refuse_the_layout():
    """A 4's pips with a mark of a pip's size in its middle is no 4 (a 5 whose middle pip was not
    counted, say): nothing pip-like may lie where another rank puts a pip."""
    card = flat("4", "S")
    blot = (CARD_W // 2, CARD_H // 2)
    cv2.circle(card, blot, 9, (30, 30, 30), -1)
    assert pips.read_pips(card) is None


def test_a_close_up_with_its_index_hidden_is_read_by_its_pips():
    image = cv2.copyMakeBorder(without_index(flat("8", "D")), 0, 0, 0, 0, cv2.BORDER_CONSTANT)
    reads = vision.recognise(image)
    assert [r.label for r in reads] == ["8D"]


def test_pips_complete_an_unread_index_but_never_overrule_a_sure_one():
    card = flat("6", "H")
    assert pips.checked([("6H", 0.99)], card, []) == [("6H", 0.99)]
    cands = pips.checked([], without_index(card), [])
    assert cands[0][0] == "6H" and cands[0][1] >= vision.types.ACCEPT


def test_the_block_of_a_card_s_pips_outlined_alone_is_not_read_as_a_card():
    """A 9's pips outlined tightly, rectified as a card: its top row is cut off the middle that is
    looked at, and the rest fits a 7's layout; the pips in line above it say it is part of more."""
    card = flat("9", "S")
    block = np.float32([[37, 31], [161, 31], [161, 253], [37, 253]])
    assert pips.read_pips(rectify(card, block)) is None


def test_a_card_rectified_sideways_is_not_read():
    """Seen low, a card looks wider than tall and may be rectified on its side: a 6's pips then lie in
    three columns, of which the middle two or the outer four fit a 2 or a 4."""
    sideways = cv2.resize(cv2.rotate(flat("6", "D"), cv2.ROTATE_90_CLOCKWISE), (CARD_W, CARD_H))
    assert pips.read_pips(sideways) is None


def test_the_pips_drawn_the_same_way_up_or_turned_in_the_lower_half_read_alike():
    card = flat("5", "C")
    turned = card.copy()  # each pip below the middle printed upside down where it lies
    ink = (cv2.cvtColor(card, cv2.COLOR_BGR2GRAY) < 128).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    for x, y, w, h, area in stats[1:]:
        if area > 300 and y > CARD_H // 2:
            turned[y:y + h, x:x + w] = card[y:y + h, x:x + w][::-1, ::-1]
    assert not np.array_equal(turned, card)
    for c in (card, turned):
        read = pips.read_pips(c)
        assert read is not None and "SHDC"[int(np.argmax(read.suit_probs))] == "C"
