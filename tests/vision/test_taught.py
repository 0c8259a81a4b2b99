import cv2
import numpy as np
import pytest

import vision
from vision import synth
from vision.taught import References

FACES = ["0", "5", "9", "PEEK", "SWAP", "DRAW2"]


@pytest.fixture(scope="module")
def faces(art_card):
    return {label: art_card(i, label) for i, label in enumerate(FACES)}


@pytest.fixture(scope="module")
def taught(faces):
    """Taught the way a player would: one flat scan per face, plus one table photo of three cards."""
    refs = None
    for label in FACES[:3]:
        refs = vision.teach(faces[label], [label], refs)
    rng = np.random.default_rng(1)
    photo, quads = synth.place_cards(synth.background("cloth", (1500, 600), rng), [faces[x] for x in FACES[3:]], rng)
    order = np.argsort([q.mean(axis=0)[0] + 10 * (q.mean(axis=0)[1] // 300) for q in quads])
    return vision.teach(photo, [FACES[3:][i] for i in order], refs)


def test_teach_then_recognise_round_trips_through_bytes(taught, faces):
    data = taught.to_bytes()
    assert isinstance(data, bytes) and len(data) < 50_000
    refs = References.from_bytes(data)
    assert sorted(set(refs.labels)) == sorted(FACES)
    rng = np.random.default_rng(4)
    scene, _ = synth.compose_scene([faces[x] for x in FACES], rng, kind="wood")
    reads = vision.recognise(scene, deck="ratatat", references=refs)
    assert sorted(r.label for r in reads) == sorted(FACES)


def test_an_untaught_card_is_unknown(taught, art_card):
    rng = np.random.default_rng(9)
    scene, _ = synth.compose_scene([art_card(99, "7")], rng, kind="wood")
    reads = vision.recognise(scene, deck="ratatat", references=taught)
    assert len(reads) == 1 and reads[0].label is None


def test_teaching_refuses_a_wrong_count_of_names(faces):
    rng = np.random.default_rng(2)
    photo, _ = synth.place_cards(synth.background("wood", (1200, 600), rng), [faces["0"], faces["5"]], rng)
    with pytest.raises(vision.TeachError, match="Found 2 card"):
        vision.teach(photo, ["0"])
    with pytest.raises(vision.TeachError):
        vision.teach(photo, [])


def test_teaching_names_the_outlines_given_in_their_order(faces):
    """The names go with the outlines the player saw numbered, in that order, whatever order the
    cards would be found in again."""
    rng = np.random.default_rng(3)
    photo, quads = synth.place_cards(synth.background("wood", (1500, 600), rng), [faces[x] for x in FACES[:3]], rng)
    backwards = list(reversed(quads))  # not reading order: right to left
    refs = vision.teach(photo, list(reversed(FACES[:3])), outlines=backwards)
    scene, _ = synth.compose_scene([faces[x] for x in FACES[:3]], np.random.default_rng(8), kind="cloth")
    assert sorted(r.label for r in vision.recognise(scene, deck="ratatat", references=refs)) == sorted(FACES[:3])
    with pytest.raises(vision.TeachError, match="3 card"):
        vision.teach(photo, ["0", "5"], outlines=quads)


def test_references_from_another_version_are_refused(taught):
    data = taught.to_bytes().replace(b'"version": 1', b'"version": 99')
    with pytest.raises(ValueError, match="teach the deck again"):
        References.from_bytes(data)


def test_taught_standard_cards_are_used_before_the_index_reader():
    odd = synth.render_standard_card("5", "S")
    for corner in ((35, 50), (215, 300)):  # a design whose index cannot be read
        cv2.circle(odd, corner, 34, (200, 40, 200), -1)
    refs = vision.teach(odd, ["5S"])
    rng = np.random.default_rng(6)
    scene, _ = synth.compose_scene([odd], rng, kind="carpet")
    assert [r.label for r in vision.recognise(scene, references=refs)] == ["5S"]


def test_an_outline_nothing_taught_resembles_is_compared_once(taught, faces):
    """A floor tile or a sheet of paper is not tried shifted (the four shifted views are for a card
    found a few pixels off); a taught card is still matched."""
    views = []

    class Counting(References):
        def _ranked(self, cards):
            views.append(len(cards))
            return super()._ranked(cards)

    refs = Counting(taught.labels, taught.features)
    tile = np.full((280, 200, 3), 200, np.uint8)
    tile[::20] = 90  # a tile's grout lines
    assert refs.candidates(tile)[0][1] < 0.5 and views == [1]
    card = cv2.resize(faces["SWAP"], (200, 280))
    assert refs.candidates(card)[0][0] == "SWAP"


def test_two_taught_decks_merge_into_one_that_reads_the_cards_of_both(faces):
    first = vision.teach(faces["0"], ["0"])
    second = vision.teach(faces["PEEK"], ["PEEK"])
    both = first.merge(second)
    assert both.labels == ["0", "PEEK"] and len(first) == len(second) == 1  # neither changed
    for label in ("0", "PEEK"):
        assert vision.recognise(faces[label], deck="ratatat", references=both)[0].label == label


def test_a_taught_face_says_which_way_up_it_lies(taught, faces):
    """A row photographed from across the table lies upside down: each taught face read says so (its face
    matches the other way up), so the row's places can be turned round; upright, none is turned."""
    rng = np.random.default_rng(3)
    scene = synth.background("cloth", (1600, 900), rng)
    w, h = synth.CARD_SIZE
    row = ["5", "PEEK", "9", "0"]
    for i, label in enumerate(row):
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([90 + i * 370, 260])
        scene = synth.paste_card(scene, faces[label], corners + rng.uniform(-8, 8, (4, 2)).astype(np.float32))
    upright = vision.recognise(scene, deck="ratatat", references=taught)
    assert sorted(r.label for r in upright) == sorted(row) and [r.turned for r in upright] == [False] * 4
    across = vision.recognise(cv2.rotate(scene, cv2.ROTATE_180), deck="ratatat", references=taught)
    assert sorted(r.label for r in across) == sorted(row) and [r.turned for r in across] == [True] * 4
    standard = vision.recognise(cv2.rotate(scene, cv2.ROTATE_180), deck="standard")
    assert all(r.turned is None for r in standard)
