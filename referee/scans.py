"""Photos at the table, between an upload and the player's confirmation.

A photo is decoded and read by ``vision`` (no Flask there); the overlay (outlines and labels drawn
over the photo) waits here, in memory, under a random token for a few minutes, so the phone can
show it and the player can confirm or correct the reads. Nothing is written to disk unless the
player asks to attach the photo to the match.

Memory is bounded for the whole server, whatever is uploaded: at most ``AT_ONCE`` photos are
decoded and read at a time, and their decoders' peak memory (known from the file header before
decoding) shares a budget of ``DECODE_BUDGET`` bytes; other uploads wait up to ``WAIT_SECONDS``
and are then turned away (``Busy``, answered 503 with Retry-After). The store keeps overlays,
and the working image only of a teaching photo, within ``STORE_BYTES``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import vision

import cv2  # noqa: E402,I001 - after vision, which sets OpenCV's pixel limit before cv2 is first imported

from .store import now

KEEP_SECONDS = 600
KEEP_PHOTOS = 64
STORE_BYTES = 24 * 2**20
AT_ONCE = 2
DECODE_BUDGET = 160 * 2**20
WAIT_SECONDS = 4.0
RETRY_AFTER = 5  # seconds, the hint given to a phone turned away


class Busy(Exception):
    """Too many photos are being read right now; the phone should try again in a few seconds."""

    status = 503
    retry_after = RETRY_AFTER

    def __init__(self) -> None:
        super().__init__("The referee is reading other photos right now. Try again in a few seconds.")


@dataclass
class Scan:
    token: str
    overlay: bytes
    reads: list[Any]
    size: tuple[int, int]  # (width, height) of the working image the outlines refer to
    image: np.ndarray | None = None  # kept only for a teaching photo
    owner: str = ""  # the phone that took it (its device id); empty for anyone
    created: float = field(default_factory=time.monotonic)
    place: str = ""  # what it was taken for: "<match id>:<move>:<for>" at a table, "teach:<deck id>" teaching
    plain: bytes = b""  # a table's photo as taken (JPEG, nothing drawn): kept with the match, it is drawn again
    # with the labels of the cards entered only (``attach``)

    @property
    def nbytes(self) -> int:
        return len(self.overlay) + len(self.plain) + (self.image.nbytes if self.image is not None else 0)


class ScanStore:
    """A small in-memory, time-limited store of recent scans, bounded in count and bytes (thread-safe)."""

    def __init__(self, keep: int = KEEP_PHOTOS, seconds: float = KEEP_SECONDS, max_bytes: int = STORE_BYTES):
        self.keep, self.seconds, self.max_bytes = keep, seconds, max_bytes
        self._items: OrderedDict[str, Scan] = OrderedDict()
        self._places: dict[tuple[str, str], str] = {}  # (owner, place) -> token of the latest scan there
        self._bytes = 0
        self._lock = threading.Lock()

    def put(self, image: np.ndarray, reads: list[Any], *, keep_image: bool = False, owner: str = "",
            place: str = "", numbered: bool = False) -> Scan:
        """Store a scan; a scan by the same phone for the same ``place`` (e.g. one player's reveal)
        replaces the previous one. ``numbered``: the photo shown back numbers the cards (a teaching photo)."""
        h, w = image.shape[:2]
        plain = b"" if keep_image or not place or place.startswith("teach:") else _jpeg(image)
        scan = Scan(secrets.token_urlsafe(12), vision.draw_overlay(image, reads, numbered=numbered), reads, (w, h),
                    image if keep_image else None, owner, place=place, plain=plain)
        with self._lock:
            if place:
                old = self._places.pop((owner, place), None)
                if old in self._items:
                    self._bytes -= self._items.pop(old).nbytes
                self._places[(owner, place)] = scan.token
            self._items[scan.token] = scan
            self._bytes += scan.nbytes
            self._expire()
        return scan

    def get(self, token: str, owner: str | None = None) -> Scan | None:
        """The scan under ``token``; when ``owner`` is given, only if that phone took it."""
        with self._lock:
            self._expire()
            scan = self._items.get(token)
        if scan is None or (owner is not None and scan.owner and scan.owner != owner):
            return None
        return scan

    @property
    def nbytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)

    def _expire(self) -> None:
        now_ = time.monotonic()
        while self._items:
            oldest = next(iter(self._items.values()))
            if len(self._items) <= self.keep and self._bytes <= self.max_bytes and now_ - oldest.created <= self.seconds:
                break
            self._items.popitem(last=False)
            self._bytes -= oldest.nbytes


scans = ScanStore()


class Gate:
    """At most ``at_once`` holders, whose declared costs (bytes) sum to at most ``budget``.

    A cost above the whole budget is let in alone. ``enter`` waits up to ``timeout`` seconds, then
    raises Busy."""

    def __init__(self, at_once: int = AT_ONCE, budget: int = DECODE_BUDGET, timeout: float = WAIT_SECONDS):
        self.at_once, self.budget, self.timeout = at_once, budget, timeout
        self.holders, self.used = 0, 0
        self._cond = threading.Condition()

    def enter(self, cost: int) -> int:
        cost = min(cost, self.budget)
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while self.holders >= self.at_once or self.used + cost > self.budget:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Busy()
                self._cond.wait(left)
            self.holders += 1
            self.used += cost
        return cost

    def leave(self, cost: int) -> None:
        with self._cond:
            self.holders -= 1
            self.used -= cost
            self._cond.notify_all()


gate = Gate()

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
_trim = getattr(_libc, "malloc_trim", None)


def _give_back_memory() -> None:
    """Return freed heap to the system (glibc keeps it otherwise, per thread arena)."""
    if _trim is not None:
        _trim(0)


def read_photo(upload: Any, kind: str, references: Any, allowed: set[str] | None, *, owner: str = "",
               place: str = "", keep_image: bool = False, numbered: bool = False) -> Scan:
    """Decode, find and identify the cards of an upload (bytes, or a file-like object read only
    once its turn comes); raises vision.UploadError for a photo it cannot use, Busy when the
    server is reading too many photos. The reads are in reading order (``vision.reading_order``); with
    ``numbered`` the photo shown back numbers them in that order (a teaching photo's form fields)."""
    data = upload if isinstance(upload, bytes) else None
    if data is None:
        head = upload.read(vision.HEADER_BYTES)
        cost = vision.decode_cost(head)  # refuses what is not a photo before reading the rest
    else:
        cost = vision.decode_cost(data[:vision.HEADER_BYTES])
    held = gate.enter(cost)
    try:
        if data is None:
            data = head + upload.read(vision.MAX_BYTES + 1 - len(head))
            if len(data) > vision.MAX_BYTES:  # said at its own size, not at the part of it read
                raise vision.UploadTooLarge(len(data) + _left_in(upload), vision.MAX_BYTES)
        image = vision.decode_upload(data)
        del data
        reads = vision.recognise(image, kind, references, allowed)
        reads = [reads[i] for i in vision.reading_order([r.outline for r in reads])]
        return scans.put(image, reads, keep_image=keep_image, owner=owner, place=place, numbered=numbered)
    finally:
        gate.leave(held)
        _give_back_memory()


def _left_in(upload: Any) -> int:
    """How many bytes of an upload are still unread (0 when that cannot be told without reading them)."""
    try:
        here = upload.tell()
        end = upload.seek(0, 2)
        upload.seek(here)
        return max(0, end - here)
    except (AttributeError, OSError, ValueError):
        return 0


def attach(db: Any, match_id: str, version: int, token: str, owner: str | None = None,
           entered: list[str] | None = None) -> bool:
    """Keep a scanned photo (with its outlines) with the match — only when the player asks to, only a
    photo that phone (``owner``) took, and only one taken at this table (its ``place`` names the match:
    never a teaching photo, nor another table's scan). With ``entered`` (the cards the entry names), only
    those cards are outlined and named on the photo kept: another card caught in the frame is not named
    to the whole table."""
    scan = scans.get(token, owner=owner)
    if scan is None or scan.place.partition(":")[0] != match_id:
        return False
    jpeg = scan.overlay
    if entered is not None and scan.plain:
        image = cv2.imdecode(np.frombuffer(scan.plain, np.uint8), cv2.IMREAD_COLOR)
        left = list(entered)
        shown = []
        for read in scan.reads:
            if read.label is not None and read.label in left:
                left.remove(read.label)
                shown.append(read)
        jpeg = vision.draw_overlay(image, shown)
    with db.atomic():
        db.conn.execute("INSERT INTO photos (match_id, version, jpeg, created_at) VALUES (?, ?, ?, ?)",
                        (match_id, version, jpeg, now()))
    return True


def _jpeg(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes() if ok else b""


def kept_photos(db: Any, match_id: str) -> dict[int, list[int]]:
    """The photos kept with a match, by the entry (its seq) each was confirmed with: seq -> photo ids."""
    out: dict[int, list[int]] = {}
    for photo_id, version in db.conn.execute(
            "SELECT id, version FROM photos WHERE match_id = ? ORDER BY id", (match_id,)):
        out.setdefault(version, []).append(photo_id)
    return out


def kept_photo(db: Any, match_id: str, photo_id: int) -> tuple[int, bytes] | None:
    """One kept photo of a match: (the seq of its entry, the JPEG with outlines drawn), or None."""
    row = db.conn.execute("SELECT version, jpeg FROM photos WHERE match_id = ? AND id = ?",
                          (match_id, photo_id)).fetchone()
    return None if row is None else (row[0], bytes(row[1]))


NOT_A_CARD = "none"  # what a player names an outline of a teaching photo that is not a card (skipped)
