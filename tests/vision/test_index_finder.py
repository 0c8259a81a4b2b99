"""The learned index finder: its model loads, marks the indices of cards drawn in code, and its
proposals are read into index hits."""

import numpy as np
import pytest

from vision import index_finder, synth
from vision.index_search import inside


def _scene(layout: str, seed: int, labels=("7H", "KS", "4D", "10C"), tilt: float = 0.0):
    rng = np.random.default_rng(seed)
    return synth.standard_scene(list(labels), rng, layout=layout, kind="dark-wood", tilt=tilt)


def _true_indices(quads):
    """Rank centres of each card's two indices as synth draws them (card 250×350)."""
    out = []
    for q in quads:
        q = np.float32(q)
        for u, v in ((0.09, 0.08), (0.91, 0.92)):
            top = q[0] + (q[1] - q[0]) * u
            bottom = q[3] + (q[2] - q[3]) * u
            out.append(top + (bottom - top) * v)
    return out


def test_the_model_file_is_small_and_loads():
    assert index_finder.MODEL_PATH.exists()
    assert index_finder.MODEL_PATH.stat().st_size < 2_000_000
    heat, down, height, f = index_finder.maps(np.full((600, 900, 3), 90, np.uint8))
    assert np.isclose(f, 448 / 900) and heat.shape == (304 // 4, 448 // 4)  # 299 px padded to 304
    heat, _, _, f = index_finder.maps(np.full((300, 400, 3), 90, np.uint8))
    assert f == 1.0 and heat.shape == (304 // 4, 400 // 4)  # a small photo is not enlarged
    assert np.all((heat >= 0) & (heat <= 1)) and np.allclose(np.linalg.norm(down, axis=2), 1, atol=1e-3)


def test_a_bare_table_gives_few_proposals_and_no_index():
    rng = np.random.default_rng(3)
    table = synth.table("dark-wood", (800, 600), rng)
    assert len(index_finder.proposals(table)) <= 2
    assert index_finder.find(table) == []


@pytest.mark.parametrize("layout", ["spread", "overlap"])
def test_proposals_lie_on_the_visible_indices_and_point_down_the_card(layout):
    scene, quads = _scene(layout, seed=11)
    props = index_finder.proposals(scene)
    truth = _true_indices(quads)
    card_h = float(np.linalg.norm(quads[0][3] - quads[0][0]))
    near = [p for p in props if min(np.linalg.norm(p[0] - t) for t in truth) < 0.06 * card_h]
    assert len(near) >= 4, (len(props), len(near))
    for centre, down, height, heat in near:
        assert 0.03 * card_h < height < 0.2 * card_h  # a rank is about 1/10 of the card's height
    # the last card (on top) shows both its indices
    top = truth[-2:]
    assert all(min(np.linalg.norm(p[0] - t) for p in props) < 0.06 * card_h for t in top)


def test_find_reads_cards_of_a_tight_overlap_by_their_indices():
    labels = ["7H", "KS", "4D", "10C"]
    scene, quads = _scene("overlap", seed=7, labels=labels)
    hits = index_finder.find(scene)
    assert hits, "nothing read"
    assert {h.label for h in hits} <= set(labels)  # no wrong answer
    assert len({h.label for h in hits}) >= 3


def test_find_passes_over_known_outlines_and_indices_found_already():
    scene, quads = _scene("spread", seed=7, labels=["9C", "QD"])
    hits = index_finder.find(scene)
    assert {h.label for h in hits} == {"9C", "QD"}
    assert index_finder.find(scene, known=[np.float32(q) * 1.0 for q in quads]) == []
    assert index_finder.find(scene, near=hits) == []


def test_a_proposal_at_the_photos_edge_is_passed_over(monkeypatch):
    """A rank centred within 0.4 of its height of the edge is cut by it (the network marks the
    corners of a card filling the frame): such places do not use up MAX_PROPOSALS."""
    image = np.zeros((200, 240, 3), np.uint8)
    heat = np.zeros((50, 60), np.float32)
    heat[0, 0] = heat[49, 59] = heat[2, 30] = 0.9  # two corner cells and one 10 px from the top edge
    heat[25, 30] = 0.8
    down = np.zeros((50, 60, 2), np.float32)
    down[..., 1] = 1
    height = np.full((50, 60), 20.0, np.float32)  # a 20 px rank: at least 8 px from every edge
    monkeypatch.setattr(index_finder, "maps", lambda img: (heat, down, height, 1.0))
    props = index_finder.proposals(image)
    assert [tuple(p[0]) for p in props] == [(122.0, 10.0), (122.0, 102.0)]


def test_training_scenes_mark_only_visible_indices_inside_the_photo():
    rng = np.random.default_rng(0)
    for _ in range(3):
        photo, marks = index_finder.scene(rng, size=(320, 240))
        assert photo.shape == (240, 320, 3) and photo.dtype == np.uint8
        assert marks.shape[1] == 5
        assert np.all((marks[:, 0] >= 0) & (marks[:, 0] < 320) & (marks[:, 1] >= 0) & (marks[:, 1] < 240))
        assert np.allclose(np.linalg.norm(marks[:, 2:4], axis=1), 1, atol=1e-3)
        assert np.all(marks[:, 4] > 1)


def test_targets_peak_at_each_mark_with_its_direction_and_size():
    marks = np.float32([[42, 22, 0, 1, 12], [102, 82, -1, 0, 20]])  # at cell centres
    heat, reg = index_finder.targets(marks, (128, 128))
    assert heat.shape == (32, 32) and reg.shape == (3, 32, 32)
    for x, y, dx, dy, h in marks:
        cy, cx = int(y // 4), int(x // 4)
        assert heat[cy, cx] > 0.9
        assert np.allclose(reg[:2, cy, cx], [dx, dy]) and np.isclose(reg[2, cy, cx], np.log(h / 8))
    assert heat[0, 31] < 0.01


def test_a_rank_framed_from_a_proposal_is_centred_there():
    centre, down = np.array([50.0, 60.0]), np.array([0.0, 1.0])
    pts = index_finder.rank_points(centre, down, 20.0)
    assert np.allclose(pts.mean(axis=0), centre)
    assert np.isclose(np.ptp(pts[:, 1]), 20.0)
    assert inside(centre, np.float32([pts[0], pts[2], pts[3], pts[1]]))


def test_a_proposal_is_read_where_the_network_puts_its_rank_when_the_mark_snapped_to_is_another(monkeypatch):
    """snap frames the dark mark nearest a proposal; where that is another mark (a pip, a blurred
    rank broken up) the rank is read where the network itself puts it."""
    scene, _ = _scene("spread", seed=7, labels=["9C", "QD"])
    off_mark = lambda image, c, d, h: index_finder.rank_points(c + 3 * h * np.array([d[1], -d[0]]), d, h)
    monkeypatch.setattr(index_finder, "snap", off_mark)
    assert {h.label for h in index_finder.find(scene)} == {"9C", "QD"}
