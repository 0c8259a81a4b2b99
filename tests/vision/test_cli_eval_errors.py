"""`referee vision eval` on folders it cannot measure: one line naming the file (and line) at fault, status 2,
never a traceback."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from vision.cli import vision as vision_group


def _photo(path) -> None:
    cv2.imwrite(str(path), np.full((60, 40, 3), 200, np.uint8))


def _eval(*args):
    return CliRunner().invoke(vision_group, ["eval", *map(str, args)])


def _said(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_a_folder_without_labels(tmp_path):
    line = _said(_eval(tmp_path))
    assert f"{tmp_path}: no labels.csv" in line and "file,cards" in line


@pytest.mark.parametrize("header", ["name,labels", "", "file"])
def test_labels_without_the_file_cards_header(tmp_path, header):
    _photo(tmp_path / "a.jpg")
    (tmp_path / "labels.csv").write_text(f"{header}\na.jpg,KS\n" if header else "")
    line = _said(_eval(tmp_path))
    assert f"{tmp_path / 'labels.csv'}: the first line must be the header file,cards" in line


def test_a_listed_photo_that_is_missing(tmp_path):
    _photo(tmp_path / "a.jpg")
    (tmp_path / "labels.csv").write_text("file,cards\na.jpg,KS\nb.jpg,4H\n")
    line = _said(_eval(tmp_path))
    assert line == f"{tmp_path / 'labels.csv'} line 3: b.jpg is not in {tmp_path}."
    teach = tmp_path / "teach"
    teach.mkdir()
    (teach / "labels.csv").write_text("file,cards\ngone.jpg,KS\n")
    (tmp_path / "labels.csv").write_text("file,cards\na.jpg,KS\n")
    assert "gone.jpg is not in" in _said(_eval(tmp_path, "--teach", teach))


def test_a_row_without_cards_and_a_photo_that_is_not_one(tmp_path):
    _photo(tmp_path / "a.jpg")
    (tmp_path / "labels.csv").write_text("file,cards\na.jpg,\n")
    assert _said(_eval(tmp_path)).endswith("line 2: no cards for a.jpg.")
    (tmp_path / "b.jpg").write_text("not a photo")
    (tmp_path / "labels.csv").write_text("file,cards\nb.jpg,KS\n")
    line = _said(_eval(tmp_path))
    assert line.startswith(f"{tmp_path / 'b.jpg'}: ") and "JPEG" in line


def test_as_typed_python_dash_m_vision(tmp_path):
    result = subprocess.run([sys.executable, "-m", "vision", "eval", str(tmp_path)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2 and "no labels.csv" in result.stderr and "Traceback" not in result.stderr
