import struct
import zlib

import cv2
import numpy as np
import pytest

import vision
from vision.decode import decode_upload, image_size


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_header_only(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IEND", b"")


def jpeg_bytes(image: np.ndarray, quality: int = 90) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    tiff = (b"MM\x00\x2a\x00\x00\x00\x08" + b"\x00\x01"
            + b"\x01\x12\x00\x03\x00\x00\x00\x01" + struct.pack(">H", orientation) + b"\x00\x00"
            + b"\x00\x00\x00\x00")
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_empty_upload_is_refused():
    with pytest.raises(vision.EmptyUpload, match="empty"):
        decode_upload(b"")


def test_thirty_megabyte_file_is_refused_before_anything_else():
    data = b"\xff\xd8\xff" + b"\x00" * (30 * 1024 * 1024)
    with pytest.raises(vision.UploadTooLarge, match="limit is 15 MB") as err:
        decode_upload(data)
    assert err.value.status == 413


def test_text_file_named_jpg_is_refused():
    with pytest.raises(vision.UnsupportedFormat, match="not a JPEG, PNG or WebP"):
        decode_upload(b"Dear referee, this is not a photo.\n" * 10)


def test_truncated_jpeg_is_refused():
    image = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    data = jpeg_bytes(image)
    with pytest.raises(vision.CorruptImage, match="damaged or incomplete") as refused:
        decode_upload(data[: len(data) // 2])
    # one sentence, its detail inside it ("… be read. (the file ends early)" read as a stray afterthought)
    assert str(refused.value) == "The photo is damaged or incomplete and cannot be read (the file ends early)."


def test_huge_png_is_refused_from_its_header_alone():
    data = png_header_only(20000, 20000)
    assert image_size(data) == (20000, 20000)
    with pytest.raises(vision.TooManyPixels, match="20000×20000 pixels"):
        decode_upload(data)


def test_huge_webp_header_is_refused():
    # VP8X extended header: canvas size is stored minus one, 24-bit little endian
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + (9999).to_bytes(3, "little") * 2
    data = b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x
    assert image_size(data) == (10000, 10000)
    with pytest.raises(vision.TooManyPixels):
        decode_upload(data)


def test_errors_share_one_base_class_with_plain_messages():
    for exc in (vision.EmptyUpload(), vision.UnsupportedFormat(), vision.CorruptImage(),
                vision.UploadTooLarge(20_000_000, vision.MAX_BYTES), vision.TooManyPixels(9000, 9000, vision.MAX_PIXELS)):
        assert isinstance(exc, vision.UploadError)
        assert 400 <= exc.status < 500
        assert str(exc)[0].isupper() and str(exc).endswith((".", ")"))


@pytest.mark.parametrize("ext", [".png", ".webp", ".jpg"])
def test_formats_read_their_size_from_the_header_and_decode(ext):
    image = np.zeros((120, 90, 3), np.uint8)
    image[:, :45] = (0, 0, 255)
    ok, buf = cv2.imencode(ext, image)
    data = buf.tobytes()
    assert image_size(data) == (90, 120)
    decoded = decode_upload(data)
    assert decoded.shape == (120, 90, 3)
    assert decoded[60, 20, 2] > 200 and decoded[60, 70, 2] < 50


def test_exif_orientation_is_honoured():
    image = np.zeros((60, 100, 3), np.uint8)
    image[:20, :20] = 255  # a white block at the top-left
    decoded = decode_upload(with_exif_orientation(jpeg_bytes(image, 95), 6))  # 6: rotate 90° clockwise
    assert decoded.shape[:2] == (100, 60)
    assert decoded[:20, -20:].mean() > 200  # the block is now at the top-right
    assert decoded[:20, :20].mean() < 50


def test_large_photo_is_decoded_reduced_to_working_size():
    image = np.full((3000, 4000, 3), 128, np.uint8)
    cv2.circle(image, (2000, 1500), 600, (0, 0, 255), -1)
    decoded = decode_upload(jpeg_bytes(image, 70))
    long_side = vision.decode.WORKING_LONG_SIDE
    assert long_side * vision.decode.MIN_DECODED_SHARE <= max(decoded.shape[:2]) <= long_side
    assert max(decoded.shape[:2]) == 1000  # decoded at 1/4 scale: nothing larger was ever made
    assert decoded.shape[1] / decoded.shape[0] == pytest.approx(4 / 3, rel=0.01)
    assert decoded[decoded.shape[0] // 2, decoded.shape[1] // 2, 2] > 200


def test_opencv_pixel_limit_is_set_before_cv2_loads():
    import os

    assert os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] == str(vision.MAX_PIXELS)


def _png_head(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def test_decode_cost_is_known_from_the_header_alone():
    from vision.decode import decode_cost
    from vision.errors import EmptyUpload, TooManyPixels, UnsupportedFormat

    png = decode_cost(_png_head(6300, 6300))  # decoded whole (PNG), then reduced
    assert 6300 * 6300 * 3 <= png < 6300 * 6300 * 3.5
    jpeg = cv2.imencode(".jpg", np.zeros((3000, 4000, 3), np.uint8))[1].tobytes()
    assert decode_cost(jpeg[:4096]) < 4000 * 3000 * 3 / 4  # libjpeg decodes straight at 1/4 scale
    with pytest.raises(TooManyPixels):
        decode_cost(_png_head(20000, 20000))
    with pytest.raises(UnsupportedFormat):
        decode_cost(b"not a photo at all")
    with pytest.raises(EmptyUpload):
        decode_cost(b"")


def test_a_large_png_is_decoded_at_a_reduced_scale():
    big = cv2.imencode(".png", np.zeros((3400, 3400, 3), np.uint8))[1].tobytes()
    assert max(decode_upload(big).shape[:2]) <= 1600


def test_a_photo_just_over_the_limit_is_said_to_be_over_it():
    """15 MB and a few bytes is said as 15.1 MB, never "15.0 MB; the limit is 15 MB"."""
    assert str(vision.UploadTooLarge(15 * 2**20 + 10, 15 * 2**20)).startswith("The photo is 15.1 MB; the limit is 15 MB.")
