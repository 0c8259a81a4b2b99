"""Safe decoding of an uploaded photo.

Everything that can be checked without decoding is checked first: size, magic bytes and the
pixel dimensions read from the file header (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X), so a
decompression bomb is refused before OpenCV allocates anything. Large photos are decoded at
1/2, 1/4 or 1/8 scale so the working image is WORKING_LONG_SIDE px or somewhat less (at least
MIN_DECODED_SHARE of it): libjpeg scales while
it decodes; PNG and WebP are decoded whole and then reduced (``decode_cost`` says how much
memory that takes, from the header alone, so a server can ration decoding).
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

from .errors import CorruptImage, EmptyUpload, TooManyPixels, UnsupportedFormat, UploadTooLarge
from .limits import MAX_BYTES, MAX_PIXELS, WORKING_LONG_SIDE

_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
            4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def sniff_format(data: bytes) -> str:
    """'jpeg', 'png' or 'webp' from the magic bytes; raises UnsupportedFormat otherwise."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    raise UnsupportedFormat()


def _png_size(data: bytes) -> tuple[int, int]:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise CorruptImage("PNG header missing")
    return struct.unpack(">II", data[16:24])


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            raise CorruptImage("JPEG structure broken")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                break
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        if marker == 0xDA:  # start of scan before any frame header
            break
        i += 2 + length
    raise CorruptImage("JPEG frame header missing")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    raise CorruptImage("WebP header missing")


def image_size(data: bytes) -> tuple[int, int]:
    """(width, height) read from the header alone."""
    fmt = sniff_format(data)
    return {"jpeg": _jpeg_size, "png": _png_size, "webp": _webp_size}[fmt](data)


HEADER_BYTES = 128 * 1024  # enough of the file to find its dimensions (a JPEG's EXIF comes first)


MIN_DECODED_SHARE = 0.6  # a reduced decode keeps at least this share of WORKING_LONG_SIDE


def _reduction(fmt: str, long_side: int) -> int:
    """Largest decoder scale factor that keeps the long side at or above MIN_DECODED_SHARE of
    the working size. A phone's own 12-megapixel photo (4032 px) is decoded at 1/4, 1008 px
    long, and read at that size: at 1/2 (2016 px, then shrunk to 1600) it took 15 ms more CPU
    per photo, decoding and reading, for the same reads on the drawn 12-megapixel photos. (The
    phone sends 1600 px; a full-size photo is what a browser that cannot scale sends.)"""
    factor = 1
    while factor < 8 and long_side / (factor * 2) >= WORKING_LONG_SIDE * MIN_DECODED_SHARE:
        factor *= 2
    return factor


def decode_cost(head: bytes, max_pixels: int = MAX_PIXELS) -> int:
    """Peak bytes decoding this upload takes, from its first HEADER_BYTES alone.

    Raises EmptyUpload, UnsupportedFormat or TooManyPixels as decode_upload would; a header not
    found in ``head`` costs as much as the largest photo allowed."""
    if not head:
        raise EmptyUpload()
    fmt = sniff_format(head)
    try:
        width, height = image_size(head)
    except (CorruptImage, struct.error):
        return max_pixels * 3
    if width * height > max_pixels:
        raise TooManyPixels(width, height, max_pixels)
    factor = _reduction(fmt, max(width, height))
    reduced = (width // factor + 1) * (height // factor + 1) * 3
    working = min(1.0, WORKING_LONG_SIDE / max(width // factor, height // factor, 1)) ** 2 * reduced
    whole = 0 if fmt == "jpeg" else width * height * 3  # decoded whole, then reduced
    return int(whole + reduced + working)


def _jpeg_truncated(data: bytes) -> bool:
    return data.rstrip(b"\x00")[-2:] != b"\xff\xd9"


def decode_upload(data: bytes, max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode an uploaded photo to a BGR image whose long side is at most WORKING_LONG_SIDE.

    EXIF orientation is applied (OpenCV's decoder honours it). Raises an UploadError subclass
    with a message for the player on anything it will not decode.
    """
    if not data:
        raise EmptyUpload()
    if len(data) > max_bytes:
        raise UploadTooLarge(len(data), max_bytes)
    fmt = sniff_format(data)
    width, height = image_size(data)
    if width <= 0 or height <= 0:
        raise CorruptImage("zero-sized image")
    if width * height > max_pixels:
        raise TooManyPixels(width, height, max_pixels)
    if fmt == "jpeg" and _jpeg_truncated(data):
        raise CorruptImage("the file ends early")
    flags = _REDUCED[_reduction(fmt, max(width, height))]
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error as exc:
        raise CorruptImage() from exc
    if image is None or image.size == 0:
        raise CorruptImage()
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return shrink(image)


def shrink(image: np.ndarray) -> np.ndarray:
    """The image with its long side at most WORKING_LONG_SIDE: halved (pyrDown) while it is
    twice too large, then scaled bilinearly — a mild reduction, where INTER_AREA's
    non-integer path cost 36 ms on a 2016-px decode against 4 ms."""
    while max(image.shape[:2]) >= 2 * WORKING_LONG_SIDE:
        image = cv2.pyrDown(image)
    long_side = max(image.shape[:2])
    if long_side > WORKING_LONG_SIDE:
        scale = WORKING_LONG_SIDE / long_side
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    return image
