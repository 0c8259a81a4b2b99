"""The training script's data path (training itself needs torch, which serving does not)."""

import numpy as np
import pytest

from vision import train_index_net
from vision.index_net import CLASSES, INPUT_SIZE


def test_dataset_is_normalised_patches_with_labels_and_is_seeded():
    x, ranks, suits = train_index_net.dataset(30, seed=5, workers=1)
    assert x.shape == (30, 3, INPUT_SIZE[1], INPUT_SIZE[0]) and x.dtype == np.float32
    assert np.allclose(x.mean(axis=(1, 2, 3)), 0, atol=1e-3)
    assert ranks.shape == suits.shape == (30,) and ranks.max() < len(CLASSES)
    again = train_index_net.dataset(30, seed=5, workers=1)
    assert np.array_equal(x, again[0]) and np.array_equal(ranks, again[1])


def test_the_command_line_explains_itself(capsys):
    with pytest.raises(SystemExit) as stop:
        train_index_net.main(["--help"])
    assert stop.value.code == 0
    assert "--samples" in capsys.readouterr().out
