"""The index finder's training data path (training itself needs torch, which serving does not)."""

import numpy as np
import pytest

from vision import train_index_finder
from vision.index_finder import STRIDE


def test_scenes_are_seeded_and_crops_match_their_targets():
    a = train_index_finder.scenes(2, seed=4, workers=1)
    b = train_index_finder.scenes(2, seed=4, workers=1)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    rng = np.random.default_rng(0)
    size = train_index_finder.CROP
    for photo, marks in a:
        x, heat, reg = train_index_finder.crop(photo, marks, rng)
        assert x.shape == (3, size, size) and x.dtype == np.float32
        assert abs(float(x.mean())) < 1e-3
        assert heat.shape == (size // STRIDE, size // STRIDE) and reg.shape == (3, size // STRIDE, size // STRIDE)
        assert 0 <= heat.min() and heat.max() <= 1


def test_a_crop_around_an_index_marks_it():
    photo = np.full((240, 320, 3), 200, np.uint8)
    marks = np.float32([[160, 120, 0, 1, 16]])
    heat, _ = train_index_finder.crop(photo, marks, np.random.default_rng(1))[1:]
    assert heat.max() > 0.8  # the crop is taken around the index most of the time; this seed does


def test_the_command_line_explains_itself(capsys):
    with pytest.raises(SystemExit) as stop:
        train_index_finder.main(["--help"])
    assert stop.value.code == 0
    assert "--scenes" in capsys.readouterr().out
