"""Photos at the table, between an upload and the player's confirmation.

A photo is decoded and read by ``vision`` (no Flask there); the overlay (outlines and labels drawn
over the photo) and the decoded image wait here, in memory, under a random token for a few minutes,
so the phone can show the overlay and the player can confirm or correct the reads. Nothing is written
to disk unless the player asks to attach the photo to the match.
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import vision

from .store import now

KEEP_SECONDS = 600
KEEP_PHOTOS = 64


@dataclass
class Scan:
    token: str
    image: np.ndarray
    overlay: bytes
    reads: list[Any]
    created: float = field(default_factory=time.monotonic)


class ScanStore:
    """A small in-memory, time-limited store of recent scans (thread-safe)."""

    def __init__(self, keep: int = KEEP_PHOTOS, seconds: float = KEEP_SECONDS):
        self.keep, self.seconds = keep, seconds
        self._items: OrderedDict[str, Scan] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, image: np.ndarray, reads: list[Any]) -> Scan:
        scan = Scan(secrets.token_urlsafe(12), image, vision.draw_overlay(image, reads), reads)
        with self._lock:
            self._items[scan.token] = scan
            self._expire()
        return scan

    def get(self, token: str) -> Scan | None:
        with self._lock:
            self._expire()
            return self._items.get(token)

    def _expire(self) -> None:
        now = time.monotonic()
        while self._items and (len(self._items) > self.keep or
                               now - next(iter(self._items.values())).created > self.seconds):
            self._items.popitem(last=False)


scans = ScanStore()


def read_photo(data: bytes, kind: str, references: Any, allowed: set[str] | None) -> Scan:
    """Decode, find and identify the cards; raises vision.UploadError for a photo it cannot use."""
    image = vision.decode_upload(data)
    reads = vision.recognise(image, kind, references, allowed)
    reads = [reads[i] for i in vision.reading_order([r.outline for r in reads])]  # a row of four, left to right
    return scans.put(image, reads)


def attach(db: Any, match_id: str, version: int, token: str) -> bool:
    """Keep a scanned photo (with its outlines) with the match — only when the player asks to."""
    scan = scans.get(token)
    if scan is None:
        return False
    with db.atomic():
        db.conn.execute("INSERT INTO photos (match_id, version, jpeg, created_at) VALUES (?, ?, ?, ?)",
                        (match_id, version, scan.overlay, now()))
    return True
