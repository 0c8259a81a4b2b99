"""Upload limits (kept free of imports so vision/__init__.py can use them before cv2 loads)."""

MAX_BYTES = 15 * 1024 * 1024
MAX_PIXELS = 40_000_000
WORKING_LONG_SIDE = 1600  # long side of the image recognition works on
