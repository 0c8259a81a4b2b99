import importlib
import itertools
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from vision import pips, standard, synth
from vision.evaluate import scene_samples
from vision.recognise import decide
from vision.rectify import CARD_H, CARD_W


def test_every_card_in_a_table_photo_is_identified(table_scene, quad_iou):
    image, labels, quads = table_scene
    reads = vision.recognise(image)
    assert sorted(r.label for r in reads) == sorted(labels)
    for read in reads:
        assert 0.7 <= read.confidence <= 1
        assert read.outline.shape == (4, 2)
        assert max(quad_iou(read.outline, q) for q in quads) > 0.85
        assert read.alternatives[0][0] == read.label


@pytest.mark.parametrize("kind", ["carpet", "cloth", "tiles"])
def test_no_confident_wrong_answer_on_other_tables(kind):
    rng = np.random.default_rng(len(kind))
    labels = ["3S", "JH", "8D", "KC", "6H"]
    image, _ = synth.compose_scene([synth.render_standard_card(lab[:-1], lab[-1]) for lab in labels], rng, kind=kind)
    answered = [r.label for r in vision.recognise(image) if r.label is not None]
    assert set(answered) <= set(labels)
    assert len(answered) >= 4


def test_a_photo_without_cards_is_unknown():
    rng = np.random.default_rng(5)
    image = synth.photo_effects(synth.background("wood", (1200, 900), rng), rng)
    cv2.putText(image, "K Q 10", (200, 400), cv2.FONT_HERSHEY_TRIPLEX, 4, (20, 20, 20), 8)
    assert all(r.label is None for r in vision.recognise(image))


def test_a_close_up_filling_the_frame_is_read_as_one_card():
    card = synth.render_standard_card("9", "H")
    reads = vision.recognise(cv2.resize(card, (224, 224)))
    assert [r.label for r in reads] == ["9H"]


@pytest.mark.parametrize("rank,suit", [("K", "C"), ("Q", "D"), ("7", "S"), ("10", "C")])
def test_a_close_up_with_a_jumbo_index_is_read_at_the_index_s_own_size(rank, suit, monkeypatch):
    close_up = cv2.resize(synth.render_standard_card(rank, suit, index_scale=1.9), (224, 224))
    assert [r.label for r in vision.recognise(close_up)] == [rank + suit]
    monkeypatch.setattr(standard, "CLOSE_UP_SCALES", ())  # read only where a usual index lies
    monkeypatch.setattr(pips, "read_pips", lambda card: None)  # (a number card's pips would say it too)
    assert rank + suit not in [r.label for r in vision.recognise(close_up)]


def mirrored_design(card: np.ndarray, bottom: bool = True, inset: float = 0.04) -> np.ndarray:
    """A drawn card with its indices printed top right and, turned round, bottom left (as some
    designs print them), `inset` of the card's width from its side; without `bottom`, the
    bottom-left one left off."""
    h, w = card.shape[:2]
    bw, bh, inset = int(w * 0.2), int(h * 0.3), int(w * inset)  # the index alone (a face's frame starts at 0.22)
    out = card.copy()
    top = card[:bh, :bw]
    cols = np.flatnonzero((top.min(axis=2) < 200).any(axis=0))
    index = top[:, cols[0]:cols[-1] + 1]
    out[:bh, :bw] = 248
    out[-bh:, -bw:] = 248
    out[:bh, w - inset - index.shape[1]:w - inset] = index
    if bottom:
        out[-bh:, inset:inset + index.shape[1]] = index[::-1, ::-1]
    return out


@pytest.mark.parametrize("rank,suit", [("Q", "D"), ("K", "C"), ("7", "S"), ("10", "H")])
def test_a_close_up_with_its_indices_top_right_and_bottom_left_is_read(rank, suit, monkeypatch):
    monkeypatch.setattr(pips, "read_pips", lambda card: None)  # (a number card's pips would say it too)
    card = synth.render_standard_card(rank, suit)
    close_up = cv2.resize(mirrored_design(card), (224, 224))
    assert [r.label for r in vision.recognise(close_up)] == [rank + suit]
    rectified = cv2.resize(close_up, (CARD_W, CARD_H))
    assert standard.close_up_candidates(rectified)[0][0] == rank + suit
    one_corner = cv2.resize(mirrored_design(card, bottom=False), (CARD_W, CARD_H))
    assert standard.mirrored_candidates(one_corner) == []  # both such corners must say it
    monkeypatch.setattr(standard, "mirrored_candidates", lambda card: [])
    assert standard.close_up_candidates(rectified) == []  # read nowhere else at the corners


def test_a_printed_border_beside_top_right_indices_is_not_taken_for_one():
    """A thin line down the card's edge, right of the index: a patch cut at it reads as a joker's
    stacked letters (drawn so, both corners read JOKER, sure)."""
    card = mirrored_design(synth.render_standard_card("K", "C"), inset=0.09)
    h, w = card.shape[:2]
    cv2.rectangle(card, (int(w * 0.03), int(h * 0.02)), (int(w * 0.97), int(h * 0.98)), (160, 90, 30), 2)
    assert standard.mirrored_candidates(cv2.resize(card, (CARD_W, CARD_H)))[0][0] == "KC"


@pytest.mark.parametrize("found,answer", [
    ([[("KC", 0.9)], [("KC", 0.97)], []], ("KC", 0.97)),  # two scales agree: the surer one
    ([[("KC", 0.9)], [("KS", 0.8)]], None),  # two cards named, each sure enough to count
    ([[("KC", 0.9)], [("KS", 0.4)]], ("KC", 0.9)),  # an unsure scale does not count
    ([[("2S", 0.83)]], None),  # one scale, not sure enough for a second guess at the index
    ([[], []], None),
])
def test_close_up_scales_answer_one_card_only_when_they_agree(found, answer):
    got = standard.agreed_scales(found)
    assert (got[0] if got else None) == answer


def test_a_big_pip_s_outline_is_not_a_joker():
    ace = cv2.resize(synth.render_standard_card("A", "S"), (224, 224))  # its spade's edges read as stacked letters
    assert [r.label for r in vision.recognise(ace)] == ["AS"]


def test_allowed_set_drops_a_read_to_the_next_allowed_candidate():
    cands = [("QS", 0.9), ("QC", 0.8), ("KS", 0.05)]
    assert decide(cands, None) == ("QS", 0.9)
    assert decide(cands, {"QC", "2H"}) == ("QC", 0.8)
    assert decide(cands, {"Q*"}) == ("QS", 0.9)
    assert decide(cands, {"KS"})[0] is None  # the allowed candidate is not confident
    assert decide(cands, {"AH"})[0] is None


def test_a_sure_read_the_table_rules_out_is_never_answered_as_another_rank():
    """A joker photographed at a table whose deck has none is not answered as the jack read next to it."""
    assert decide([("JOKER", 0.9), ("JD", 0.87)], {"JD", "QS"}) == (None, 0.87)
    assert decide([("7", 0.95), ("1", 0.8)], {"1", "2"})[0] is None  # a Rat-a-Tat 7 with every 7 seen
    assert decide([("JOKER", 0.5), ("JD", 0.87)], {"JD"}) == ("JD", 0.87)  # the excluded read was unsure


@pytest.mark.parametrize("cands, allowed, answer", [
    ([("10D", 0.33), ("QD", 0.02)], None, "10D"),  # alone in its reading: answered
    ([("10D", 0.33), ("QD", 0.05)], None, None),  # another label within 8 times below it
    ([("10D", 0.29), ("QD", 0.01)], None, None),  # too unsure however clear
    ([("10D", 0.33), ("QD", 0.2), ("KD", 0.01)], {"10D", "KD"}, "10D"),  # the runner-up not possible here
    ([("6H", 0.46), ("6C", 0.0)], None, None),  # a 6 or 9 held below ACCEPT by its orientation evidence
    ([("9S", 0.45)], None, None),
    ([("JOKER", 0.4)], None, "JOKER"),
])
def test_an_unsure_label_standing_clear_of_every_other_is_answered_only_when_asked(cands, allowed, answer):
    assert decide(cands, allowed, clear=True)[0] == answer
    assert decide(cands, allowed)[0] is None  # never without `clear` (a taught deck, a read not final)


def test_cards_still_unknown_at_the_end_are_answered_where_their_label_stands_clear():
    from vision.recognise import _cleared
    from vision.types import CardRead

    outline = np.float32([[0, 0], [10, 0], [10, 14], [0, 14]])
    reads = [CardRead("QS", 0.9, outline, [("QS", 0.9)]),
             CardRead(None, 0.33, outline, [("10D", 0.33), ("QD", 0.02)], anchor=np.float32([5, 5])),
             CardRead(None, 0.4, outline, [("4C", 0.4), ("4H", 0.2)]),
             CardRead(None, 0.0, outline, [])]
    out = _cleared(reads, None)
    assert [r.label for r in out] == ["QS", "10D", None, None]
    assert out[1].confidence == 0.33 and out[1].anchor is reads[1].anchor and out[1].outline is outline
    assert _cleared(reads, {"QD", "QS"})[1].label is None  # the clear label not possible: still unknown


def test_allowed_set_is_applied_to_a_photo(table_scene):
    image, labels, _ = table_scene
    reads = vision.recognise(image, allowed={"AD", "7C"})
    assert sorted(r.label for r in reads if r.label) == ["7C", "AD"]
    assert sum(r.label is None for r in reads) == 2  # 10H and QS are not possible: never entered


def test_unknown_deck_is_refused(table_scene):
    with pytest.raises(ValueError):
        vision.recognise(table_scene[0], deck="tarot")


def test_untaught_ratatat_cards_are_found_but_unknown(table_scene):
    reads = vision.recognise(table_scene[0], deck="ratatat")
    assert len(reads) == 4 and all(r.label is None for r in reads)


def test_overlay_is_a_jpeg_of_the_photo(table_scene):
    image = table_scene[0]
    data = vision.draw_overlay(image, vision.recognise(image))
    assert data[:3] == b"\xff\xd8\xff"
    assert vision.decode_upload(data).shape == image.shape


def test_a_blank_pale_photo_has_no_card():
    assert vision.recognise(np.full((600, 800, 3), 215, np.uint8)) == []


def test_warm_up_loads_both_index_readers_the_index_finder_and_the_suit_references():
    from vision import glyphs, index_net
    index_net._net.cache_clear()
    glyphs.suit_references.cache_clear()
    vision.warm_up()
    assert index_net._net.cache_info().currsize == 3  # the card reader, the search reader and the finder
    assert glyphs.suit_references.cache_info().currsize == 1


def test_warm_up_imports_what_the_first_photo_would_otherwise_import():
    probe = ("import sys, vision; before = 'numpy.ma' in sys.modules; vision.warm_up(); "
             "print(before, 'numpy.ma' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.split() == ["False", "True"]  # numpy.ma: imported by the first median, 15–35 ms


def test_paper_outside_the_cards_found_is_noticed(table_scene):
    from vision.recognise import _paper_elsewhere
    image, _, quads = table_scene
    assert not _paper_elsewhere(image, quads)  # every card is accounted for: no search needed
    assert _paper_elsewhere(image, quads[:-1])  # one card's paper lies outside the outlines given


def _flat_scan(seed: int, text: str) -> np.ndarray:
    """A flat scan of one taught-deck card filling the frame, with an index panel near the bottom
    edge (a small white tile with a dark frame: card-shaped, as the detector sees it)."""
    card = cv2.resize(synth.art_card(seed, text, blobs=7), (715, 1013), interpolation=cv2.INTER_CUBIC)
    cv2.rectangle(card, (300, 880), (380, 990), (90, 30, 120), 6)
    cv2.rectangle(card, (306, 886), (374, 984), (245, 245, 245), -1)
    cv2.putText(card, text[:1], (320, 960), cv2.FONT_HERSHEY_DUPLEX, 1.6, (120, 30, 120), 3)
    return card


def test_a_flat_scan_is_outlined_whole_not_by_its_index_panel(quad_iou):
    scan = _flat_scan(11, "7")
    h, w = scan.shape[:2]
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    reads = vision.recognise(scan, deck="ratatat")
    assert len(reads) == 1 and reads[0].label is None
    assert quad_iou(reads[0].outline, frame) > 0.95


def test_a_flat_scan_with_two_small_panels_is_outlined_whole(quad_iou):
    """Two small card-shaped panels on one face (a Rat-a-Tat Cat 7's scan shows two): not two cards."""
    scan = _flat_scan(11, "7")
    cv2.rectangle(scan, (560, 240), (640, 350), (90, 30, 120), 6)
    cv2.rectangle(scan, (566, 246), (634, 344), (245, 245, 245), -1)
    assert len(vision.detect.find_cards(scan)) >= 2  # the detector sees both panels
    h, w = scan.shape[:2]
    reads = vision.recognise(scan, deck="ratatat")
    assert len(reads) == 1 and reads[0].label is None
    assert quad_iou(reads[0].outline, np.float32([[0, 0], [w, 0], [w, h], [0, h]])) > 0.95


def test_a_taught_close_up_is_read_when_scanned_at_the_table():
    faces = {"7": _flat_scan(11, "7"), "PEEK": _flat_scan(12, "P"), "2": _flat_scan(14, "2")}
    refs = None
    for label, scan in faces.items():
        refs = vision.teach(scan, [label], refs)
    for label, scan in faces.items():
        again = cv2.GaussianBlur(cv2.resize(scan[15:-12, 10:-14], (600, 840)), (3, 3), 0)
        assert [r.label for r in vision.recognise(again, deck="ratatat", references=refs)] == [label]


def test_a_fanned_hand_whose_merged_outline_hides_the_indices_is_read_by_them(monkeypatch):
    """The fan's cards under the top one show only their index; the mark pairing of the index
    search passes them over on this table, the learned index finder proposes them."""
    labels = ["QH", "4C", "7D", "AC"]
    scene, _ = synth.standard_scene(labels, np.random.default_rng(23), layout="fan", kind="light-wood")
    reads = [r.label for r in vision.recognise(scene) if r.label]
    assert sorted(reads) == sorted(labels)  # every card, nothing wrong, none twice
    monkeypatch.setattr(importlib.import_module("vision.recognise"), "FIND_INDICES_LEARNT", False)
    assert len([r for r in vision.recognise(scene) if r.label]) < len(reads)


def test_white_specks_of_a_textured_table_are_no_paper(table_scene):
    """Paper outside the outlines counts only in one piece: a carpet's specks add up to more than a
    card's margin of white, but no card lies in them, so the index search is spared."""
    from vision.detect import whiteness
    from vision.recognise import PAPER_CHECK_SIDE, PAPER_ELSEWHERE, _paper_elsewhere
    image, _, quads = table_scene
    speckled = image.copy()
    h, w = speckled.shape[:2]
    f = PAPER_CHECK_SIDE / max(h, w)
    side = int(np.ceil(2.5 / f))  # a speck of about 2 px on the copy the check looks at
    for y in range(0, h - side, 3 * side):
        for x in range(0, w - side, 3 * side):
            if all(cv2.pointPolygonTest(np.float32(q), (x + side / 2, y + side / 2), True) < -3 * side for q in quads):
                speckled[y:y + side, x:x + side] = 255
    small = cv2.resize(speckled, (int(w * f), int(h * f)), interpolation=cv2.INTER_LINEAR)
    paper = (whiteness(small) > 150).astype(np.uint8)
    for q in quads:
        cv2.fillPoly(paper, [np.round(q * f).astype(np.int32)], 0)
    card_area = float(np.median([cv2.contourArea(np.float32(q)) for q in quads])) * f * f
    assert paper.sum() > 3 * PAPER_ELSEWHERE * card_area  # all together, far more white than the limit
    assert not _paper_elsewhere(speckled, quads)
    assert _paper_elsewhere(speckled, quads[:-1])  # a whole card's paper still is


def test_a_frame_of_card_margin_is_a_flat_scan(art_card):
    from vision.recognise import frame_is_card
    card = art_card(0, "5")
    assert frame_is_card(card)
    table = np.full((400, 300, 3), (40, 70, 110), np.uint8)
    table[100:300, 80:220] = card[:200, :140]
    assert not frame_is_card(table)


def test_an_index_just_beside_a_read_card_s_edge_is_the_card_under_it(monkeypatch):
    """A tight fan drawn in code: the 9♥'s index shows just beyond the edge of the card lying on it,
    inside the slack that card's outline is grown by. Read there, it is a card of its own."""
    *_, (data, labels, _) = itertools.islice(scene_samples(23, seed=10), 23)
    scene = vision.decode_upload(data)
    reads = [r.label for r in vision.recognise(scene) if r.label]
    assert "9H" in reads and set(reads) <= set(labels)
    recognise = importlib.import_module("vision.recognise")
    monkeypatch.setattr(recognise, "_belongs", lambda hit, grown, label, outline: recognise.inside(hit.centre, grown))
    assert "9H" not in [r.label for r in vision.recognise(scene) if r.label]  # every index in the slack taken as the card's


def test_the_sliver_of_a_card_showing_beside_the_one_on_it_is_searched_for_its_index(monkeypatch):
    """Two cards in a tight fan drawn in code: only a sliver of the 9♥ shows, and it lay inside the
    slack an outline is grown by for its indices, so no paper was seen outside the one card read."""
    *_, (data, labels, _) = itertools.islice(scene_samples(35, seed=10), 35)
    scene = vision.decode_upload(data)
    assert sorted(r.label for r in vision.recognise(scene)) == sorted(labels) == ["2D", "9H"]
    recognise = importlib.import_module("vision.recognise")
    monkeypatch.setattr(recognise, "PAPER_SLACK", recognise.OUTLINE_SLACK)
    assert [r.label for r in vision.recognise(scene)] == ["2D"]


def test_a_card_with_a_dark_face_is_read_with_its_lightness_turned(monkeypatch):
    recognise = importlib.import_module("vision.recognise")
    dark_king = cv2.resize(recognise.lightness_turned(synth.render_standard_card("K", "D")), (224, 224))
    assert [r.label for r in vision.recognise(dark_king)] == ["KD"]
    monkeypatch.setattr(recognise, "DARK_PHOTO", 0)  # no photo is dark: read only as it is
    assert "KD" not in [r.label for r in vision.recognise(dark_king)]


def test_light_ink_on_a_dark_face_names_no_black_suit():
    recognise = importlib.import_module("vision.recognise")
    outline = np.float32([[0, 0], [10, 0], [10, 14], [0, 14]])
    reads = [recognise.CardRead("JS", 0.9, outline, [("JS", 0.9)]), recognise.CardRead("KH", 0.99, outline, [("KH", 0.99)])]
    answered = recognise._dark_face(reads)  # a white diamond turned black reads as a spade
    assert [r.label for r in answered] == [None, "KH"]
    assert answered[0].alternatives == [("JS", 0.9)]


def test_only_a_dark_photo_where_nothing_was_read_is_read_again_turned(monkeypatch):
    recognise = importlib.import_module("vision.recognise")
    calls = []
    monkeypatch.setattr(recognise, "lightness_turned", lambda image: calls.append(1) or image)
    light, dark = np.full((480, 640, 3), 200, np.uint8), np.full((480, 640, 3), 30, np.uint8)
    vision.recognise(light)
    vision.recognise(cv2.resize(synth.render_standard_card("9", "S"), (224, 224)))  # read: no second look
    assert calls == []
    vision.recognise(dark)
    assert calls == [1]


def _index_hit(label, centre, down, scale=1.0):
    from vision.index_search import IndexHit
    return IndexHit(label, 1.0, np.asarray(centre, float), np.asarray(down, float), scale, [(label, 1.0)])


def test_the_two_ends_of_one_card_read_as_two_cards_are_one_card_in_doubt():
    recognise = importlib.import_module("vision.recognise")
    card = np.float32([[80, 80], [290, 80], [290, 370], [80, 370]])  # an outline found, its corners unread
    top, bottom = _index_hit("3C", (100, 100), (0, 1)), _index_hit("5C", (250, 335), (0, -1))
    assert recognise._ends_of_one_card([top, bottom], [card]) == {1: 0}
    assert recognise._ends_of_one_card([top, bottom], []) == {}  # no outline holds them both: two cards
    # two cards overlapping turned round from each other lie closer along than a card's length
    overlapping = _index_hit("10H", (320, 250), (0, -1))
    big = np.float32([[80, 80], [400, 80], [400, 370], [80, 370]])
    assert recognise._ends_of_one_card([top, overlapping], [big]) == {}


def test_a_card_whose_two_ends_disagree_is_one_unknown_card(monkeypatch):
    recognise = importlib.import_module("vision.recognise")
    image = np.full((500, 400, 3), 120, np.uint8)
    card = np.float32([[80, 80], [290, 80], [290, 370], [80, 370]])
    hits = [_index_hit("3C", (100, 100), (0, 1)), _index_hit("5C", (250, 335), (0, -1))]
    monkeypatch.setattr(recognise, "find_indices", lambda *args, **kwargs: hits)
    monkeypatch.setattr(recognise, "FIND_INDICES_LEARNT", False)
    (read,) = recognise._with_index_hits(image, [], None, [card])
    assert read.label is None and {lab for lab, _ in read.alternatives} == {"3C", "5C"}
    assert np.allclose(read.outline, card)


def test_a_second_copy_of_a_card_in_one_photo_is_answered_only_when_sure():
    recognise = importlib.import_module("vision.recognise")
    outline = np.float32([[0, 0], [10, 0], [10, 14], [0, 14]])
    reads = [recognise.CardRead("10S", 0.79, outline, [("10S", 0.79), ("10C", 0.21)]),
             recognise.CardRead("10S", 1.0, outline, [("10S", 1.0)]),
             recognise.CardRead("7H", 0.95, outline, [("7H", 0.95)]),
             recognise.CardRead("7H", 0.92, outline, [("7H", 0.92)])]  # two decks shuffled together: both sure
    assert [r.label for r in recognise._second_copies(reads)] == [None, "10S", "7H", "7H"]


def _plate_at(image: np.ndarray, outline: np.ndarray, fill) -> np.ndarray:
    """The plate drawn over ``outline``'s centre: the part of the photo in colour ``fill`` around it."""
    mask = (np.abs(image.astype(int) - np.array(fill)).max(axis=2) < 50).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    cx, cy = np.asarray(outline, float).mean(axis=0)
    around = [s for s in stats[1:] if s[0] <= cx <= s[0] + s[2] and s[1] - s[3] <= cy <= s[1] + 2 * s[3]]
    x, y, w, h, _ = max(around, key=lambda s: s[4])
    return image[y:y + h, x:x + w]


def _ink_box(ink: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(ink)
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def number_drawn_at(image: np.ndarray, outline: np.ndarray) -> int:
    """The number a numbered overlay shows on a card (white on the number plate), told by comparing its
    ink with each digit drawn in the overlay's font."""
    from vision.recognise import NUMBER_PLATE

    ink = _ink_box(_plate_at(image, outline, NUMBER_PLATE).min(axis=2) > 170).astype(np.uint8)
    scores = {}
    for digit in "123456789":
        drawn = np.zeros((200, 200), np.uint8)
        cv2.putText(drawn, digit, (30, 170), cv2.FONT_HERSHEY_DUPLEX, 5, 255, 11, cv2.LINE_AA)
        template = cv2.resize(_ink_box(drawn > 128).astype(np.uint8), (ink.shape[1], ink.shape[0]),
                              interpolation=cv2.INTER_NEAREST)
        scores[int(digit)] = (ink & template).sum() / max(1, (ink | template).sum())
    return max(scores, key=scores.get)


def _card_at(x: int, y: int) -> np.ndarray:
    return np.float32([[x, y], [x + 250, y], [x + 250, y + 350], [x, y + 350]])


def test_a_teaching_photo_numbers_each_card_in_the_order_of_the_forms_fields():
    """A scattered photo: the cards are numbered in reading order (rows top to bottom, each left to right),
    the order the teaching form's fields "Card 1, 2, 3" take, not the order the cards lie left to right."""
    image = np.full((1200, 1300, 3), 150, np.uint8)
    outlines = [_card_at(100, 500), _card_at(550, 60), _card_at(1000, 780)]  # left, top, bottom right
    reads = [vision.CardRead(None, 0.0, q) for q in outlines]
    fields = [reads[i] for i in vision.reading_order(outlines)]  # as scans.read_photo orders the reads
    shown = vision.decode_upload(vision.draw_overlay(image, fields, numbered=True))
    assert [number_drawn_at(shown, r.outline) for r in fields] == [1, 2, 3]
    assert [number_drawn_at(shown, q) for q in outlines] == [2, 1, 3]  # left to right reads 2, 1, 3
    # a card read is numbered too (its name is the field's first choice, not written on the photo)
    fields[0] = vision.CardRead("7", 0.9, fields[0].outline)
    shown = vision.decode_upload(vision.draw_overlay(image, fields, numbered=True))
    assert [number_drawn_at(shown, r.outline) for r in fields] == [1, 2, 3]


@pytest.mark.parametrize("size", [(1600, 900), (900, 1600), (1200, 1200), (640, 480), (320, 240)])
@pytest.mark.parametrize("numbered", [False, True])
def test_a_label_on_the_photo_reads_at_16_css_px_on_a_phone_whatever_the_photo_s_size(size, numbered):
    """A phone shows the photo at its width (about 288 CSS px of a 320 px screen): a label's height is a
    share of the photo's width, so that it is at least 16 CSS px there, and grows with the photo."""
    width, height = size
    image = np.full((height, width, 3), 150, np.uint8)
    read = vision.CardRead("5", 0.9, np.float32([[width * 0.2, height * 0.1], [width * 0.8, height * 0.1],
                                                  [width * 0.8, height * 0.9], [width * 0.2, height * 0.9]]))
    drawn = vision.draw_overlay(image, [read], numbered=True) if numbered else vision.draw_overlay(image, [read])
    shown = vision.decode_upload(drawn)
    if numbered:
        from vision.recognise import NUMBER_PLATE
        ink = _ink_box(_plate_at(shown, read.outline, NUMBER_PLATE).min(axis=2) > 170)
    else:
        ink = _ink_box(_plate_at(shown, read.outline, (255, 255, 255)).max(axis=2) < 100)
    css_px = ink.shape[0] * 288 / width
    assert css_px >= 16, (size, ink.shape)
    assert ink.shape[0] >= min(width, height) / 18


def test_a_joker_where_the_deck_has_none_stays_unknown_and_its_j_is_no_jack():
    """GEN-3: the joker's outline is read surely as a joker, which the table rules out; the stacked J of
    its word is then its own mark, not the index of a jack lying there."""
    rng = np.random.default_rng(1)
    scene = synth.background("wood", (900, 1200), rng)
    w, h = synth.CARD_SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([260, 300])
    photo = synth.photo_effects(synth.paste_card(scene, synth.render_joker(), corners), rng, blur=0.7, glare=False)
    assert [r.label for r in vision.recognise(photo, "standard")] == ["JOKER"]
    deck = [rank + suit for rank in standard.glyphs.RANKS for suit in "SHDC"]
    reads = vision.recognise(photo, "standard", allowed=deck)
    assert [r.label for r in reads] == [None] and reads[0].alternatives[0][0] == "JOKER"


def test_cards_too_small_in_the_photo_to_read_surely_are_unknown():
    """A 200-pixel photo of a row of four on cloth: each card about 40 px tall, its index a few pixels. Left
    unknown (with its guesses), never a confident wrong card (it read K♣ at 84% for the A♠); the same row
    photographed at 1600 px is read."""
    rng = np.random.default_rng(1)
    scene = synth.background("cloth", (1600, 900), rng)
    w, h = synth.CARD_SIZE
    labels = ["AS", "5H", "9C", "QD"]
    left = (1600 - 3 * 370 - w) // 2
    for i, label in enumerate(labels):
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([left + i * 370, 260 + rng.integers(-15, 15)])
        card = synth.render_standard_card(label[:-1], label[-1])
        scene = synth.paste_card(scene, card, corners + rng.uniform(-8, 8, (4, 2)).astype(np.float32))
    big = synth.photo_effects(scene, rng, blur=0.7, glare=False)
    assert sorted(r.label for r in vision.recognise(big, "standard") if r.label) == sorted(labels)
    tiny = cv2.imdecode(cv2.imencode(".jpg", cv2.resize(big, (200, 112)), [cv2.IMWRITE_JPEG_QUALITY, 90])[1],
                        cv2.IMREAD_COLOR)
    reads = vision.recognise(tiny, "standard")
    assert reads and all(r.label is None for r in reads)


def test_an_outline_in_the_middle_of_a_card_found_by_its_index_is_a_panel_of_its_face():
    """Cards of one deck are one size: a much smaller outline centred on a card found by its index
    (the frame round a 4's pips, read as an ace at its corners) is part of that card; a card lying on
    it, partly covered and off its middle, is not."""
    from vision.recognise import _panel_of
    card = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    frame = np.float32([[45, 60], [155, 60], [155, 220], [45, 220]])
    assert _panel_of(frame, card)
    assert not _panel_of(frame + (40, 0), card)  # within it but off its middle: another card, partly covered
    assert not _panel_of(np.float32([[5, 5], [195, 5], [195, 275], [5, 275]]), card)  # the card's own outline
