import cv2
import numpy as np
import pytest

import vision
from vision import synth
from vision.detect import connected_components
from vision.index_search import (INK_CONTRAST, _INK_BELOW, IndexHit, _ink, area_shrink, _inside_any, _mark, red_ink,
                                 find_indices, inside, read_candidates,
                                 merge_pairs, same_card, side_by_side)

HAND = ["9S", "KH", "QD", "10C", "AS"]


@pytest.fixture(scope="module")
def fanned():
    rng = np.random.default_rng(3)
    return synth.fanned_hand([synth.render_standard_card(lab[:-1], lab[-1]) for lab in HAND], rng)


def test_the_cards_of_a_fanned_hand_are_read_by_their_index(fanned):
    reads = vision.recognise(fanned)
    answered = [r.label for r in reads if r.label]
    assert set(answered) <= set(HAND) and len(answered) == len(set(answered))  # nothing wrong, nothing twice
    assert len(answered) >= 4  # the "10" squeezed against the next card's edge may be unsure


def test_index_hits_point_down_their_card(fanned):
    hits = find_indices(fanned)
    assert len({h.label for h in hits} & set(HAND[:-1])) >= 3  # the top card is also found by its outline
    for hit in hits:
        if hit.label != HAND[-1]:  # the top card shows its other index too, upside down
            assert hit.down @ np.array([0.0, 1.0]) > 0.5  # the hand is held upright
        assert inside(hit.centre, hit.outline())


def _hit(label, centre, down, scale=1.0):
    down = np.asarray(down, float) / np.linalg.norm(down)
    return IndexHit(label, 0.95, np.asarray(centre, float), down, scale, [(label, 0.95)])


def test_the_two_corners_of_one_card_are_merged():
    top = _hit("7H", (100, 100), (0, 1))
    # the opposite corner: across and down the card, turned half round
    bottom = _hit("7H", (100 + 150, 100 + 235), (0, -1))
    assert same_card(top, bottom)
    assert len(merge_pairs([top, bottom])) == 1


def test_cards_side_by_side_or_far_apart_are_not_merged():
    a = _hit("7H", (100, 100), (0, 1))
    b = _hit("7H", (160, 100), (0, 1))  # same way up: another card
    far = _hit("7H", (900, 900), (0, -1))  # turned round but too far away
    other = _hit("8H", (250, 335), (0, -1))  # where a's other corner would be, but another card
    assert not same_card(a, b) and not same_card(a, far) and not same_card(a, other)
    assert len(merge_pairs([a, b, far, other])) == 4


def test_the_four_indices_of_a_card_printed_in_every_corner_are_one_card():
    top_right = _hit("9C", (255, 100), (0, 1))  # found first: the read comes from it, the place does not
    top_left = _hit("9C", (100, 102), (0, 1))
    bottom_right = _hit("9C", (255, 335), (0, -1))
    bottom_left = _hit("9C", (100, 333), (0, -1))
    assert side_by_side(top_left, top_right) and side_by_side(bottom_right, bottom_left)
    (card,) = merge_pairs([top_right, bottom_left, top_left, bottom_right])
    assert card is not top_right and tuple(card.centre) in {(100, 102), (255, 335)}  # a corner whose card lies beside it
    assert inside(np.array([180.0, 220.0]), card.outline())


def test_cards_of_one_kind_in_a_row_a_card_apart_are_two():
    a, b = _hit("9C", (100, 100), (0, 1)), _hit("9C", (330, 100), (0, 1))  # a card's width and a gap apart
    skewed = _hit("9C", (250, 160), (0, 1))  # a card's width across, but lower down: another card
    assert not side_by_side(a, b) and not side_by_side(a, skewed)
    assert len(merge_pairs([a, b])) == 2


def test_no_index_is_found_on_a_bare_table():
    rng = np.random.default_rng(11)
    assert find_indices(synth.photo_effects(synth.background("carpet", (1200, 900), rng), rng)) == []


def test_points_inside_any_outline_are_found_all_at_once_as_one_by_one():
    rng = np.random.default_rng(2)
    quads = [np.float32([[50, 40], [180, 60], [170, 230], [40, 210]]),
             np.float32([[300, 300], [260, 380], [330, 420], [370, 330]])]  # the other way round
    points = np.vstack([rng.uniform(0, 450, (400, 2)), quads[0], quads[1]]).astype(np.float32)
    expected = [any(inside(p, q) for q in quads) for p in points]
    assert _inside_any(points, quads).tolist() == expected
    assert not _inside_any(points, []).any()


def _fake_reader(search_rank, card_rank, card_suit=1):
    """A stand-in for index_net.read_patches: the search reader leans to `search_rank` without being
    sure (NONE first), the card reader is sure of `card_rank` (suits: hearts for the search reader)."""
    from vision.index_net import CLASSES

    def read(patches, search=False):
        n = len(patches)
        cls = np.full((n, len(CLASSES)), 1e-4)
        suit = np.full((n, 4), 0.01)
        if search:
            cls[:, CLASSES.index("NONE")], cls[:, CLASSES.index(search_rank)] = 0.59, 0.4
            suit[:, 1] = 0.97
        else:
            cls[:, CLASSES.index(card_rank)] = 0.99
            suit[:, card_suit] = 0.97
        return cls / cls.sum(axis=1, keepdims=True), suit / suit.sum(axis=1, keepdims=True)
    return read


def test_an_index_the_search_reader_is_unsure_of_is_kept_when_the_card_reader_agrees(fanned, monkeypatch):
    import vision.index_search as index_search
    monkeypatch.setattr(index_search, "read_patches", _fake_reader("10", "10"))
    hits = find_indices(fanned)
    assert hits and {h.label for h in hits} == {"10H"}


@pytest.mark.parametrize("card_rank, card_suit", [("4", 1), ("10", 0)])
def test_an_index_the_readers_disagree_on_stays_unread(fanned, monkeypatch, card_rank, card_suit):
    import vision.index_search as index_search
    monkeypatch.setattr(index_search, "read_patches", _fake_reader("10", card_rank, card_suit))
    assert find_indices(fanned) == []


def test_a_marks_hull_from_its_outline_is_that_of_all_its_pixels():
    """A mark is described by the hull of its traced outline: the same extent along every
    direction and the same solidity as the hull of all its pixels (a ring, a speckled blob, a
    letter, a mark touching the image's edge)."""
    rng = np.random.default_rng(8)
    image = np.zeros((120, 200), np.uint8)
    cv2.circle(image, (40, 40), 20, 255, 5)
    image[70:110, 10:60] = (rng.random((40, 50)) > 0.35) * 255
    cv2.putText(image, "Q", (90, 60), cv2.FONT_HERSHEY_TRIPLEX, 1.6, 255, 3)
    image[80:120, 150:200] = 255
    n, labels, stats, _ = connected_components(image)
    directions = [np.array([np.cos(a), np.sin(a)]) for a in rng.uniform(0, 2 * np.pi, 12)]
    for c in range(1, n):
        if stats[c, 4] < 14:
            continue
        ys, xs = np.nonzero(labels == c)
        pixels = np.float32(np.column_stack([xs, ys]))
        full = cv2.convexHull(pixels)
        hull, solid = _mark(labels, stats, c)
        assert solid == pytest.approx(len(pixels) / max(1.0, cv2.contourArea(full) + 0.5 * cv2.arcLength(full, True)))
        for d in directions:
            assert (hull @ d).min() == pytest.approx((pixels @ d).min())
            assert (hull @ d).max() == pytest.approx((pixels @ d).max())


def test_ink_is_a_mark_clearly_darker_than_the_paper_round_it_at_every_level():
    """The ink test by table lookup is the arithmetic one (p − g > INK_CONTRAST·p on paper above
    110) for every pair of grey levels."""
    grey, paper = np.meshgrid(np.arange(256, dtype=np.uint8), np.arange(256, dtype=np.uint8))
    arithmetic = ((paper.astype(np.int16) - grey.astype(np.int16)) > INK_CONTRAST * paper) & (paper > 110)
    assert np.array_equal(np.less(grey, cv2.LUT(paper, _INK_BELOW)), arithmetic)
    marks = np.full((60, 60), 200, np.uint8)
    marks[20:30, 10:20], marks[20:30, 40:50] = 150, 100  # a faint mark (25% darker) and a clear one
    ink = _ink(marks, 14)
    assert ink[25, 45] == 1 and ink[25, 15] == 0 and ink[5, 5] == 0


@pytest.mark.parametrize("size", [(800, 600), (560, 420), (333, 250), (1600, 1200)])
def test_area_shrink_gives_the_size_asked_and_the_area_average_of_a_photo(size):
    rng = np.random.default_rng(3)
    photo = cv2.GaussianBlur(rng.integers(0, 256, (1200, 1600), dtype=np.uint8), (0, 0), 3)
    cv2.rectangle(photo, (400, 300), (900, 700), 20, -1)  # a sharp edge as well as soft texture
    small = area_shrink(photo, size)
    direct = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
    assert small.shape == direct.shape == (size[1], size[0])
    diff = np.abs(small.astype(int) - direct)
    assert np.percentile(diff, 99) <= 4 and diff.mean() < 1.0  # within a grey level or so


def _pale_red_card(rank: str, suit: str) -> np.ndarray:
    """A card whose red ink is printed pale: in grey its index is under INK_CONTRAST from the paper."""
    card = synth.render_standard_card(rank, suit)
    ink = (card[..., 2].astype(int) - card[..., 1]) > 60
    card[ink] = (165, 165, 240)
    image = np.full((900, 700, 3), 40, np.uint8)
    h, w = card.shape[:2]
    image[100:100 + h, 150:150 + w] = card
    return image


def test_a_pale_red_index_is_found_in_each_pixels_darkest_channel(monkeypatch):
    image = _pale_red_card("K", "H")
    grey = int(cv2.cvtColor(np.uint8([[[165, 165, 240]]]), cv2.COLOR_BGR2GRAY)[0, 0])
    assert 248 - grey < INK_CONTRAST * 248 < 248 - 165  # ink in the darkest channel, not in grey
    darkest, red = red_ink(np.uint8([[[165, 165, 240], [0, 0, 255], [20, 20, 20], [235, 240, 245]]]))
    assert darkest.tolist() == [[165, 0, 20, 235]] and red.tolist() == [[1, 1, 0, 0]]  # black ink is not red
    assert "KH" in {h.label for h in find_indices(image)}
    import vision.index_search as index_search
    monkeypatch.setattr(index_search, "red_ink", lambda im: (cv2.cvtColor(im, cv2.COLOR_BGR2GRAY),
                                                             np.ones(im.shape[:2], np.uint8)))
    assert "KH" not in {h.label for h in find_indices(image)}


def test_a_candidate_read_the_stricter_way_needs_the_card_readers_agreement(fanned, monkeypatch):
    """A pair found in the darkest channel only (`second_only`) is not taken on the search
    reader's word, however sure: the card reader must put the same rank and suit first."""
    import vision.index_search as index_search
    from vision.index_net import CLASSES

    def read(patches, search=False):
        n = len(patches)
        cls, suit = np.full((n, len(CLASSES)), 1e-4), np.full((n, 4), 0.01)
        cls[:, CLASSES.index("10" if search else "4")] = 0.99
        suit[:, 1] = 0.97
        return cls / cls.sum(axis=1, keepdims=True), suit / suit.sum(axis=1, keepdims=True)

    monkeypatch.setattr(index_search, "read_patches", read)
    candidates = [(np.float32([[100, 100], [110, 100], [110, 120], [100, 120]]), np.array([0.0, 1.0]))]
    assert [h.label for h in read_candidates(fanned, candidates)] == ["10H"]
    assert read_candidates(fanned, candidates, second_only=[0]) == []
    assert read_candidates(fanned, candidates, checked=[0]) == []
