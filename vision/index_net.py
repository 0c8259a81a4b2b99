"""The corner-index reader: a small CNN, run with onnxruntime on one CPU thread.

It looks at the index corner of a rectified card (vision.index_synth.INDEX_BOX) and gives a
probability over CLASSES (the 13 ranks, JOKER and NONE: no index there) and over the 4 suits.
The network is trained on patches drawn in code (vision.train_index_net); the file it reads
is models/index_net.onnx (about 1 MB). onnxruntime runs it about three times faster than
OpenCV's dnn module does (measured: 48 patches in 6.6 ms of CPU against 20 ms).

Two readers of the same shape are used. The corners of a card found by its outline are read
by MODEL_PATH, taught the widest range of designs (jumbo indices, corners cropped at the
card's edge, aged and dark cards): there the outline already fixes where the index is and
how large it may be. Marks found anywhere in the photo by the index search
(vision.index_search) are read by SEARCH_MODEL_PATH, taught only indices of the usual size:
nothing else says a mark is an index, and a reader that also takes a jumbo index for one
reads a big pip, a maker's name or a box's printing as a rank (measured on the tuning photos:
the widened reader there answered 4 more busy-train cards wrong, all found by the search).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .glyphs import RANKS, SUITS

CLASSES = RANKS + ["JOKER", "NONE"]
INDEX_BOX = (56, 100)  # width, height of the index corner on a 200×280 rectified card
INPUT_SIZE = (32, 56)  # width, height the network sees
MODEL_PATH = Path(__file__).parent / "models" / "index_net.onnx"
SEARCH_MODEL_PATH = Path(__file__).parent / "models" / "index_net_search.onnx"


def normalise(patches: np.ndarray) -> np.ndarray:
    """(n, h, w, 3) uint8 BGR → (n, 3, h, w) float32, each patch zero-mean and unit-contrast.

    Brightness and contrast vary with the light far more than between designs, so each patch
    is scaled by its own statistics (colour differences between channels are kept)."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 8.0)).transpose(0, 3, 1, 2))


@lru_cache(maxsize=4)  # the two readers and the index finder (vision.index_finder): none evicted
def _net(path: str):
    """The onnxruntime session of a model file (imported here: training uses this module without it)."""
    import onnxruntime

    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: run python -m vision.train_index_net")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # a photo is read on one core; the server runs photos side by side
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def index_patch(card: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """The index corner of a rectified 200×280 portrait card, at the network's input size;
    `scale` widens (or narrows) the corner looked at, for an index larger (or smaller) than usual."""
    w, h = INDEX_BOX
    scale_x, scale_y = scale * card.shape[1] / 200, scale * card.shape[0] / 280
    corner = card[: int(round(h * scale_y)), : int(round(w * scale_x))]
    return cv2.resize(corner, INPUT_SIZE, interpolation=cv2.INTER_AREA)


def read_patches(patches: list[np.ndarray], search: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(class probabilities (n, len(CLASSES)), suit probabilities (n, 4)) for index patches;
    `search`: patches cut around marks found by the index search (read by the search reader)."""
    if not patches:
        return np.zeros((0, len(CLASSES))), np.zeros((0, len(SUITS)))
    logits = _net(str(SEARCH_MODEL_PATH if search else MODEL_PATH)).run(None, {"patch": normalise(np.stack(patches))})[0].reshape(len(patches), -1)
    return _softmax(logits[:, : len(CLASSES)]), _softmax(logits[:, len(CLASSES):])
