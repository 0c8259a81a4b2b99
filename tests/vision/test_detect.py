import cv2
import numpy as np
import pytest

from vision import synth
from vision.detect import MIN_AREA_FRACTION, _contours, _quad_from_contour, _split_blob, connected_components, find_cards


TABLES = ["wood", "cloth", "carpet", "tiles", "mat"]


@pytest.mark.parametrize("kind", TABLES)
def test_every_card_is_found_on_each_table(kind, quad_iou):
    """Every card is found; plain bright rectangles (a tile) may come along: the readers drop them."""
    rng = np.random.default_rng(TABLES.index(kind))
    cards = [synth.render_standard_card(r, s) for r, s in [("9", "S"), ("K", "H"), ("3", "D")]]
    image, quads = synth.compose_scene(cards, rng, size=(1200, 900), kind=kind)
    found = find_cards(image)
    for quad in quads:
        assert max(quad_iou(quad, f) for f in found) > 0.85


def test_a_bare_table_has_no_cards():
    rng = np.random.default_rng(3)
    for kind in ("wood", "carpet", "cloth"):
        image = synth.photo_effects(synth.background(kind, (1000, 750), rng), rng)
        assert find_cards(image) == []


def test_outlines_are_in_original_pixel_coordinates_for_large_photos(quad_iou):
    rng = np.random.default_rng(11)
    image, quads = synth.compose_scene([synth.render_standard_card("5", "C")], rng, size=(1600, 1200), kind="cloth")
    (found,) = find_cards(image)
    assert quad_iou(quads[0], found) > 0.85


def _card_polygon(cx: float, cy: float, angle: float, height: float) -> np.ndarray:
    w = height / 1.4
    corners = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (corners @ rot.T + (cx, cy)).astype(np.float32)


def test_cards_overlapping_at_a_corner_are_cut_apart(quad_iou):
    """Two white cards whose corners overlap make one blob with no edge between them: it is
    cut between its deepest notches, and each piece is a card."""
    a = _card_polygon(150, 140, 40, 160)
    b = _card_polygon(235, 235, -10, 160)
    assert quad_iou(a, b) > 0.01  # they do overlap
    mask = np.zeros((400, 420), np.uint8)
    for quad in (a, b):
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
    (blob,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _quad_from_contour(blob, mask) is None  # the whole blob is no card
    pieces = [q for q, _ in _split_blob(blob, mask, 50)]
    for quad in (a, b):
        assert max(quad_iou(quad, p) for p in pieces) > 0.8


def test_a_single_card_blob_is_not_split():
    mask = np.zeros((400, 420), np.uint8)
    cv2.fillConvexPoly(mask, _card_polygon(200, 200, 30, 200).astype(np.int32), 255)
    (blob,), _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert _split_blob(blob, mask, 50) == []


def test_percentiles_from_the_histogram_are_numpys():
    from vision.detect import percentiles_u8
    rng = np.random.default_rng(4)
    image = rng.integers(0, 200, (37, 53, 3)).astype(np.uint8)
    region = image[3:30, 5:50]  # a view, as a card's middle is cut
    for channel in range(3):
        qs = [0, 10, 75, 80, 95, 99.5, 100]
        assert np.allclose(percentiles_u8(region, qs, channel), np.percentile(region[..., channel], qs))


def test_clearing_specks_leaves_the_contours_of_every_region_that_can_hold_a_card():
    """A mask carved into thousands of specks (a textured table's edges) is cleared of them before
    tracing: the regions large enough to be a card keep their very contours, in the same order."""
    rng = np.random.default_rng(5)
    mask = ((rng.random((384, 512)) > 0.7) * 255).astype(np.uint8)  # specks all over
    mask[40:200, 60:170] = 255  # two card-sized regions, one with a speckled hole
    mask[90:120, 100:130] = (rng.random((30, 30)) > 0.5) * 255
    cv2.fillConvexPoly(mask, np.int32([[300, 60], [420, 90], [390, 300], [270, 270]]), 255)
    mask[[39, 200], 60:170] = 0  # set apart from the specks round them
    mask[40:201, [59, 170]] = 0
    min_box = MIN_AREA_FRACTION * mask.size
    traced = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    assert len(traced) > 1000
    large = [c for c in traced if np.prod(cv2.boundingRect(c)[2:]) >= min_box]
    cleared = _contours(mask, cv2.RETR_EXTERNAL, min_box, specks=True)
    assert len(cleared) == len(large) >= 2
    assert all(np.array_equal(a, b) for a, b in zip(cleared, large))
    assert len(_contours(mask, cv2.RETR_EXTERNAL, min_box)) == len(traced)  # without: every speck


def test_connected_components_match_opencvs_default_labelling():
    rng = np.random.default_rng(6)
    binary = (cv2.GaussianBlur(rng.random((240, 320)).astype(np.float32), (0, 0), 1.5) > 0.5).astype(np.uint8)
    mine, default = connected_components(binary), cv2.connectedComponentsWithStats(binary, connectivity=8)
    assert mine[0] == default[0] > 10
    for a, b in zip(mine[1:], default[1:]):
        assert np.array_equal(a, b)


def test_a_card_cut_in_two_by_its_own_face_is_proposed_whole():
    """A face card's picture reaching across its thin margin cuts its white in two, each half too long
    and thin for a card: two pieces whose boxes touch are proposed as one card."""
    from vision.detect import _joined_pieces, _quad_from_contour
    mask = np.zeros((300, 300), np.uint8)
    mask[80:220, 100:148] = 255  # the card's left half ...
    mask[80:220, 151:200] = 255  # ... and its right half, the edge carved along the picture between them
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    assert len(contours) == 2 and all(_quad_from_contour(c, mask) is None for c in contours)
    joined = _joined_pieces([(c, mask, cv2.boundingRect(c)) for c in contours])
    assert len(joined) == 1
    x, y, w, h = cv2.boundingRect(joined[0][0].astype(np.int32))
    assert abs(x - 100) <= 2 and abs(y - 80) <= 2 and abs(w - 100) <= 3 and abs(h - 140) <= 3
    far = [(contours[0], mask, cv2.boundingRect(contours[0])),
           (contours[1] + np.int32([60, 0]), mask, cv2.boundingRect(contours[1] + np.int32([60, 0])))]
    assert _joined_pieces(far) == []  # pieces apart are two things, not one card
