import numpy as np
import pytest

from vision import synth
from vision.detect import find_cards


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
