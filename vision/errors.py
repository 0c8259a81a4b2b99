"""Errors raised for uploads the app refuses. Each message is meant for the player."""

import math


class UploadError(ValueError):
    """Base class: the upload is not a photo we can read. The web layer maps it to a 4xx."""

    status = 400


class EmptyUpload(UploadError):
    def __init__(self) -> None:
        super().__init__("The upload is empty. Please choose a photo.")


class UploadTooLarge(UploadError):
    status = 413

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(
            f"The photo is {math.ceil(size / 2**20 * 10) / 10:.1f} MB; the limit is {limit / 2**20:.0f} MB. "
            "Please send a smaller photo."
        )


class UnsupportedFormat(UploadError):
    status = 415

    def __init__(self) -> None:
        super().__init__("This file is not a JPEG, PNG or WebP photo.")


class TooManyPixels(UploadError):
    status = 413

    def __init__(self, width: int, height: int, limit: int) -> None:
        super().__init__(
            f"The photo is {width}×{height} pixels; the limit is {limit / 1e6:.0f} megapixels. "
            "Please send a smaller photo."
        )


class CorruptImage(UploadError):
    def __init__(self, detail: str = "") -> None:
        msg = "The photo is damaged or incomplete and cannot be read"  # the detail inside the sentence, before its stop
        super().__init__(msg + (f" ({detail})." if detail else "."))
