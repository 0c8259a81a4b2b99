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


def test_the_share_of_big_indices_is_chosen_on_the_command_line(monkeypatch, capsys):
    from vision import index_synth

    seen = {}
    monkeypatch.setattr(index_synth, "BIG_INDEX", index_synth.BIG_INDEX)  # restored after the test
    monkeypatch.setattr(train_index_net, "train", lambda *args: seen.setdefault("big", index_synth.BIG_INDEX))
    train_index_net.main(["--big-index", "0", "--samples", "10"])
    assert seen["big"] == 0.0  # set before any patch is drawn (the workers fork after it)
    with pytest.raises(SystemExit) as stop:
        train_index_net.main(["--big-index", "1.5"])
    assert stop.value.code == 2
    assert "--big-index is a share between 0 and 1" in capsys.readouterr().err
