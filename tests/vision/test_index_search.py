import numpy as np
import pytest

import vision
from vision import synth
from vision.index_search import IndexHit, _inside_any, find_indices, inside, merge_pairs, same_card

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
