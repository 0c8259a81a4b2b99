import json

import cv2
import numpy as np
from click.testing import CliRunner

from vision import synth
from vision.decode import decode_upload
from vision.cli import vision as vision_group
from vision.evaluate import count_correct, drawn_standard_samples


def test_count_correct_is_a_multiset_match_with_rank_only_labels():
    assert count_correct(["QS", "QS", "10H"], ["QS", "10H", "10H"]) == 2
    assert count_correct(["Q*", "K*"], ["QH", "QD"]) == 1
    assert count_correct(["Q*", "QH"], ["QH", "QD"]) == 2
    assert count_correct(["PEEK", "0"], ["PEEK", "0", "0"]) == 2
    assert count_correct(["JOKER"], []) == 0


def _write_folder(path, rows):
    path.mkdir()
    lines = ["file,cards"]
    for name, image, cards in rows:
        cv2.imwrite(str(path / name), image)
        lines.append(f"{name},{' '.join(cards)}")
    (path / "labels.csv").write_text("\n".join(lines) + "\n")


def test_cli_eval_reports_figures_and_ends_with_json(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for i, labels in enumerate([["KS", "4H"], ["10D"]]):
        scene, _ = synth.compose_scene([synth.render_standard_card(x[:-1], x[-1]) for x in labels], rng,
                                       size=(1000, 750), kind="wood")
        rows.append((f"p{i}.jpg", scene, [labels[0][:-1] + "*"] + labels[1:]))
    _write_folder(tmp_path / "photos", rows)
    result = CliRunner().invoke(vision_group, ["eval", str(tmp_path / "photos"), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["images"] == 2 and figures["cards_expected"] == 3
    assert figures["cards_correct"] == 3 and figures["precision"] == 1.0 and figures["recall"] == 1.0
    assert figures["latency_p95_ms"] > 0
    assert set(figures) >= {"cards_found", "card_accuracy", "unknown_rate", "latency_p50_ms"}


def test_cli_eval_teaches_and_composes_scenes(tmp_path, art_card):
    rows = [(f"{x}.png", art_card(i, x), [x]) for i, x in enumerate(["1", "2", "SWAP"])]
    _write_folder(tmp_path / "teach", rows)
    folder = str(tmp_path / "teach")
    result = CliRunner().invoke(vision_group, ["eval", folder, "--deck", "ratatat", "--teach", folder,
                                               "--compose", "3", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["images"] == 3
    assert figures["precision"] == 1.0 and figures["recall"] >= 0.8


def test_drawn_scenes_are_phone_sized_photos_of_known_cards():
    samples = list(drawn_standard_samples(3, seed=1))
    assert len(samples) == 3
    for data, labels in samples:
        assert data[:2] == b"\xff\xd8"  # JPEG
        image = decode_upload(data)
        assert image.shape[:2] == (1200, 1600)
        assert len(labels) in range(1, 6) and all(lab[-1] in "SHDC" for lab in labels)
    assert samples == list(drawn_standard_samples(3, seed=1))
