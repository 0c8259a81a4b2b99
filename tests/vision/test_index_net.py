import cv2
import numpy as np
import pytest

from vision import index_net, synth
from vision.rectify import CARD_H, CARD_W

LABELS = ["AS", "2H", "5C", "7D", "9S", "10H", "JC", "QD", "KS"]


def _rectified(label: str, font: int) -> np.ndarray:
    return cv2.resize(synth.render_standard_card(label[:-1], label[-1], font=font), (CARD_W, CARD_H),
                      interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SIMPLEX])
def test_reads_rank_and_suit_of_drawn_cards_at_both_corners(font):
    cards = [_rectified(label, font) for label in LABELS]
    patches = [index_net.index_patch(c) for c in cards] + \
        [index_net.index_patch(cv2.rotate(c, cv2.ROTATE_180)) for c in cards]
    ranks, suits = index_net.read_patches(patches)
    read = [index_net.CLASSES[int(r.argmax())] + "SHDC"[int(s.argmax())] for r, s in zip(ranks, suits)]
    assert read == LABELS + LABELS


def test_a_corner_without_an_index_reads_as_none():
    rng = np.random.default_rng(2)
    blank = np.full((CARD_H, CARD_W, 3), 240, np.uint8)
    table = synth.background("wood", (CARD_W, CARD_H), rng)
    ranks, _ = index_net.read_patches([index_net.index_patch(blank), index_net.index_patch(table)])
    assert [index_net.CLASSES[int(r.argmax())] for r in ranks] == ["NONE", "NONE"]


def test_probabilities_are_distributions_and_an_empty_batch_is_empty():
    ranks, suits = index_net.read_patches([index_net.index_patch(_rectified("QH", cv2.FONT_HERSHEY_DUPLEX))])
    assert ranks.shape == (1, len(index_net.CLASSES)) and suits.shape == (1, 4)
    assert ranks.sum() == pytest.approx(1, abs=1e-4) and suits.sum() == pytest.approx(1, abs=1e-4)
    empty = index_net.read_patches([])
    assert empty[0].shape == (0, len(index_net.CLASSES)) and empty[1].shape == (0, 4)


def test_normalise_takes_out_brightness_and_contrast():
    rng = np.random.default_rng(0)
    patch = rng.integers(60, 200, (1, 56, 32, 3)).astype(np.uint8)
    dim = (patch * 0.5).astype(np.uint8)
    a, b = index_net.normalise(patch), index_net.normalise(dim)
    assert a.shape == (1, 3, 56, 32)
    assert abs(float(a.mean())) < 1e-4
    # the same picture in half the light looks the same
    assert np.corrcoef(a.ravel(), b.ravel())[0, 1] > 0.99
    assert np.abs(a - b).mean() < 0.2


def test_index_patch_scales_with_the_rectified_card():
    card = _rectified("8C", cv2.FONT_HERSHEY_TRIPLEX)
    big = cv2.resize(card, (CARD_W * 2, CARD_H * 2))
    a, b = index_net.index_patch(card), index_net.index_patch(big)
    assert a.shape == b.shape == (index_net.INPUT_SIZE[1], index_net.INPUT_SIZE[0], 3)
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 12


def test_a_missing_model_file_says_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setattr(index_net, "MODEL_PATH", tmp_path / "absent.onnx")
    index_net._net.cache_clear()
    try:
        with pytest.raises(FileNotFoundError, match="train_index_net"):
            index_net.read_patches([np.zeros((56, 32, 3), np.uint8)])
    finally:
        monkeypatch.undo()
        index_net._net.cache_clear()


def test_the_search_reader_is_its_own_model_file(monkeypatch, tmp_path):
    monkeypatch.setattr(index_net, "SEARCH_MODEL_PATH", tmp_path / "absent.onnx")
    patch = [np.zeros((56, 32, 3), np.uint8)]
    try:
        index_net.read_patches(patch)  # the card reader is still there
        with pytest.raises(FileNotFoundError, match="absent.onnx"):
            index_net.read_patches(patch, search=True)
    finally:
        monkeypatch.undo()
    assert index_net.MODEL_PATH.exists() and index_net.SEARCH_MODEL_PATH.exists()
