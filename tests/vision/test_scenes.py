"""Whole scenes drawn in code: cards on ordinary tables, from above and from a seated player's
angle, spread apart, in a row, fanned and overlapping; cards turned half round; the photo shown
back. Every fixture is made here (vision.synth), none read from disk."""
from collections import Counter

import cv2
import numpy as np
import pytest

import vision
from vision import synth
from vision.index_search import IndexHit, inside, merge_pairs
from vision.rectify import CARD_H, CARD_W
from vision.standard import card_candidates, pip_count
from vision.types import ACCEPT


def corner_error(found: np.ndarray, true: np.ndarray) -> float:
    """Mean distance from a found outline's corners to the true ones (best of the four ways
    round), as a share of the card's true height."""
    true = np.float32(true)
    height = (np.linalg.norm(true[3] - true[0]) + np.linalg.norm(true[2] - true[1])) / 2
    return min(float(np.linalg.norm(np.roll(np.float32(found), k, axis=0) - true, axis=1).mean())
               for k in range(4)) / height


def no_wrong_answer(labels: list[str], reads: list[vision.CardRead]) -> bool:
    return not Counter(r.label for r in reads if r.label) - Counter(labels)


@pytest.mark.parametrize("tilt", [0.0, 0.5])
def test_a_six_and_a_nine_turned_half_round_are_read_the_right_way(tilt):
    for seed in range(2):
        rng = np.random.default_rng(seed)
        labels = ["6C", "9C", "6H", "9D"]
        image, _ = synth.standard_scene(labels, rng, layout="spread", kind="dark-wood", angle=np.pi, tilt=tilt)
        answered = sorted(r.label for r in vision.recognise(image) if r.label)
        assert answered == sorted(labels)


def _card(label: str) -> np.ndarray:
    return cv2.resize(synth.render_standard_card(label[:-1], label[-1]), (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def test_pips_are_counted():
    for label, count in [("6C", 6), ("9H", 9), ("8S", 8), ("4D", 4)]:
        assert pip_count(_card(label)) == count


def test_a_6_index_over_nine_pips_is_unknown_never_a_6():
    """The two corners say 6, the pips say 9: the evidence disagrees, so no answer."""
    card, six = _card("9C"), _card("6C")
    h, w = card.shape[:2]
    ch, cw = int(h * 0.3), int(w * 0.24)
    card[:ch, :cw] = six[:ch, :cw]
    card[h - ch:, w - cw:] = six[h - ch:, w - cw:]
    cands = card_candidates(card)
    assert cands and cands[0][1] < ACCEPT
    assert card_candidates(six)[0][0] == "6C"  # the same corners over six pips are a 6


def test_one_index_read_as_6_and_the_opposite_one_as_9_is_one_card_in_doubt():
    down = np.array([0.0, 1.0])
    six = IndexHit("6C", 0.99, np.array([100.0, 100.0]), down, 1.0, [("6C", 0.99), ("9C", 0.01)])
    nine = IndexHit("9C", 0.98, np.array([250.0, 335.0]), -down, 1.0, [("9C", 0.98), ("6C", 0.02)])
    (merged,) = merge_pairs([six, nine])
    assert merged.confidence < ACCEPT and all(c < ACCEPT for _, c in merged.alternatives)
    far = IndexHit("9C", 0.98, np.array([1250.0, 1335.0]), -down, 1.0, [("9C", 0.98)])
    assert len(merge_pairs([six, far])) == 2  # two cards apart: both stand


@pytest.mark.parametrize("kind", ["dark-wood", "light-wood", "cloth", "felt", "patterned"])
@pytest.mark.parametrize("tilt", [0.0, 0.5])
def test_every_card_spread_on_a_table_is_found_and_read(kind, tilt):
    """Four cards apart on an ordinary table, from above and from a seated player's angle (the
    far side half as wide as the near one: cards lying along the line of sight look square)."""
    rng = np.random.default_rng(synth.TABLE_KINDS.index(kind) * 7 + int(tilt * 10))
    labels = ["KS", "8D", "3C", "QH"]
    image, quads = synth.standard_scene(labels, rng, layout="spread", kind=kind, tilt=tilt)
    reads = vision.recognise(image)
    assert no_wrong_answer(labels, reads)
    answered = [r.label for r in reads if r.label]
    if tilt == 0:
        assert sorted(answered) == sorted(labels)
    else:  # measured: 31 of 32 on these tables at this angle (vision_bench: seated scenes)
        assert len(answered) >= 3
    for quad, label in zip(quads, labels):  # each card read is outlined on itself
        for r in reads:
            if r.label == label and r.anchor is None:  # found by its outline
                assert corner_error(r.outline, quad) < 0.1
            elif r.label == label:  # found by its index alone: the outline guessed lies on the card
                assert inside(quad.mean(axis=0), r.outline)


@pytest.mark.parametrize("tilt", [0.0, 0.5])
def test_a_row_of_cards_is_read_into_its_slots_in_order(tilt):
    rng = np.random.default_rng(4)
    labels = ["7S", "JD", "2C", "10H"]
    image, _ = synth.standard_scene(labels, rng, layout="row", kind="light-wood", tilt=tilt)
    reads = vision.recognise(image)
    h, w = image.shape[:2]
    slots = vision.place_in_row([r.outline for r in reads], (w, h))
    assert [reads[i].label if i is not None else None for i in slots] == labels


def test_a_row_with_a_card_covered_leaves_a_gap_in_its_slot():
    rng = np.random.default_rng(4)
    labels = ["7S", "JD", "2C", "10H"]
    image, quads = synth.standard_scene(labels, rng, layout="row", kind="cloth")
    cv2.fillConvexPoly(image, np.int32(quads[1]).reshape(-1, 1, 2) + 0, (40, 90, 60))  # a hand over the J
    cv2.fillConvexPoly(image, np.int32((quads[1] - quads[1].mean(0)) * 1.15 + quads[1].mean(0)), (40, 90, 60))
    reads = vision.recognise(image)
    h, w = image.shape[:2]
    slots = vision.place_in_row([r.outline for r in reads], (w, h))
    assert [reads[i].label if i is not None else None for i in slots] == ["7S", None, "2C", "10H"]


@pytest.mark.parametrize("layout", ["fan", "overlap"])
def test_fanned_and_overlapping_cards_are_found_by_their_index_without_wrong_answers(layout):
    rng = np.random.default_rng(2)
    labels = ["AS", "5H", "9C", "KD"]
    image, _ = synth.standard_scene(labels, rng, layout=layout, kind="felt")
    reads = vision.recognise(image)
    assert no_wrong_answer(labels, reads)
    assert sum(1 for r in reads if r.label) >= 2


def test_a_bare_patterned_cloth_has_no_card():
    rng = np.random.default_rng(9)
    for kind in ("patterned", "felt", "light-wood"):
        image = synth.photo_effects(synth.table(kind, (1200, 900), rng), rng)
        assert all(r.label is None for r in vision.recognise(image))


def test_the_photo_shown_back_puts_each_label_on_its_own_card():
    """Each label's plate lies on its own card (drawn over the middle of the card read), and is
    large enough to read on a phone."""
    rng = np.random.default_rng(6)
    labels = ["9C", "KH", "4D"]
    image, quads = synth.standard_scene(labels, rng, layout="spread", kind="dark-wood", tilt=0.5)
    reads = vision.recognise(image)
    shown = cv2.imdecode(np.frombuffer(vision.draw_overlay(image, reads), np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape == image.shape
    changed = cv2.absdiff(shown, image).max(axis=2) > 60
    read = [(quad, label) for quad, label in zip(quads, labels) if label in {r.label for r in reads}]
    assert len(read) >= 2
    for quad, _ in read:
        middle = np.zeros(changed.shape, np.uint8)
        cv2.fillConvexPoly(middle, np.int32((quad - quad.mean(axis=0)) * 0.6 + quad.mean(axis=0)), 1)
        assert changed[middle > 0].mean() > 0.05  # the label is drawn over this card's middle
    # the label is large enough to read on a phone showing the photo 400 px wide: ≥ 12 px there
    rows = np.nonzero(changed[:, int(read[0][0].mean(axis=0)[0])])[0]
    assert len(rows) * 400 / max(image.shape[:2]) >= 12



def test_a_ten_in_a_fan_beside_a_card_read_by_its_outline_is_found():
    """Q♠, 10♠, 9♣ fanned on a cloth, from above (the benchmark's scene 42 of seed 1): the mark pairing frames
    the 10's index with the 9's beside it and reads it as the 9♣, a read the 9's own outline then claims; the
    index finder's proposal at the 10 was passed over as "already found" there, and the 10 was missed."""
    from vision.evaluate import scene_samples

    *_, (data, labels, _) = scene_samples(43, seed=1, tilt=0.0)
    assert labels == ["QS", "10S", "9C"]
    reads = vision.recognise(vision.decode_upload(data))
    assert sorted(r.label for r in reads if r.label) == ["10S", "9C", "QS"]


def test_a_fanned_index_misread_at_the_finders_framing_is_read_at_another():
    """Q♥, 4♣, 7♦, A♣ fanned on light wood, from above (the benchmark's scene 6 of seed 1): the index finder
    proposes the 4's index but guesses its rank's height so that neither reader is sure of it there; framed
    a fifth smaller and a quarter larger (`index_finder.REFRAME`), both readers agree on the 4♣."""
    from vision.evaluate import scene_samples

    *_, (data, labels, _) = scene_samples(7, seed=1, tilt=0.0)
    assert labels == ["QH", "4C", "7D", "AC"]
    reads = vision.recognise(vision.decode_upload(data))
    assert sorted(r.label for r in reads if r.label) == ["4C", "7D", "AC", "QH"]
