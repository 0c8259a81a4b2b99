"""Card recognition for Referee (no web framework in here).

Public API:
    decode_upload(data: bytes) -> np.ndarray
        BGR image from an uploaded JPEG/PNG/WebP; raises an UploadError subclass
        (EmptyUpload, UploadTooLarge, UnsupportedFormat, TooManyPixels, CorruptImage)
        whose message can be shown to the player; `.status` is the suggested HTTP code.
    decode_cost(head: bytes) -> int
        peak bytes decoding an upload takes, from its first HEADER_BYTES (to ration decoding).
    recognise(image, deck="standard"|"ratatat", references=None, allowed=None) -> list[CardRead]
        CardRead(label: str | None, confidence: float, outline: 4×2 array, alternatives).
    teach(image, labels: list[str], references=None) -> References   (raises TeachError)
    References.to_bytes() / References.from_bytes(data)
    draw_overlay(image, reads) -> bytes  (JPEG)
    place_in_row(outlines, (width, height), slots=4) -> [index or None per slot]
    lay_of(outlines) -> "row" | "square" | "scattered"
        which card found lies in which slot of a row (a card not found leaves its slot empty).
    warm_up()  loads the model and references ahead of the first photo (a server's start)
See docs/vision.md.
"""

import os

from .limits import MAX_BYTES, MAX_PIXELS

# OpenCV's own decoder limit, as a second line behind the header check in decode.py;
# it must be in the environment before cv2 is first imported.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
# The glyph comparisons are small matrix-vector products: BLAS threads only add overhead and
# compete with the web server's other requests (applies only if numpy is not loaded yet).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from .decode import HEADER_BYTES, decode_cost, decode_upload  # noqa: E402
from .errors import (  # noqa: E402
    CorruptImage, EmptyUpload, TooManyPixels, UnsupportedFormat, UploadError, UploadTooLarge,
)
from .recognise import TeachError, draw_overlay, frame_is_card, reading_order, recognise, teach, warm_up  # noqa: E402
from .rows import lay_of, place_in_row, runs_down, upside_down  # noqa: E402
from .taught import References  # noqa: E402
from .types import CardRead  # noqa: E402

__all__ = [
    "HEADER_BYTES", "MAX_BYTES", "MAX_PIXELS", "CardRead", "CorruptImage", "EmptyUpload", "References", "TeachError",
    "TooManyPixels", "UnsupportedFormat", "UploadError", "UploadTooLarge", "decode_cost",
    "decode_upload", "draw_overlay", "frame_is_card", "lay_of", "place_in_row", "reading_order", "runs_down", "recognise", "teach",
    "upside_down", "warm_up",
]
