"""Taught decks: the references recognition uses for a deck design, kept in SQLite per deck."""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

from sqlite_utils import Database

import vision

from .games import GAMES
from .games.base import MAX_NAME as MAX_PLAYER_NAME, EntryError, normalise_name
from .games.cards import RANKS, SUITS
from .store import now, random_id, write_transaction

#: The faces a player can teach, per kind of deck (a kind is a design family and its edition: two
#: editions of one game's deck may hold different cards). Each game names the decks its cards come
#: from (``DECKS``); the standard deck serves every standard-deck game.
FACES: dict[str, list[str]] = {}
KIND_TITLES: dict[str, str] = {}
#: The recogniser (vision's ``deck``) each kind of deck is read with.
RECOGNISER: dict[str, str] = {}
for _game in GAMES.values():  # the games' own decks first (they need teaching), then the standard deck
    for _kind, _deck_kind in getattr(_game, "DECKS", {}).items():
        FACES[_kind] = list(_deck_kind["faces"])
        KIND_TITLES[_kind] = _deck_kind["title"]
        RECOGNISER[_kind] = _deck_kind["recogniser"]
FACES["standard"] = [r + s for s in SUITS for r in RANKS] + ["JOKER", "BACK"]
KIND_TITLES["standard"] = "Standard deck"
RECOGNISER["standard"] = "standard"


def recogniser_for_game(game: str) -> str:
    """Which recogniser reads a game's cards: that of its first deck kind (a standard deck if none)."""
    kinds = getattr(GAMES.get(game), "DECK_KINDS", ()) or ("standard",)
    return RECOGNISER[kinds[0]]


_POWER_NAMES = {"PEEK": "Peek", "SWAP": "Swap", "DRAW2": "Draw 2", "SUPERPEEK": "Super Peek"}
_SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def face_name(label: str) -> str:
    """A face's name as players say it: "Draw 2", "Super Peek", "10♥", "Card back"."""
    if label in _POWER_NAMES:
        return _POWER_NAMES[label]
    if label == "BACK":
        return "Card back"
    if label == "JOKER":
        return "Joker"
    if len(label) >= 2 and label[-1] in _SUIT_NAMES and label[:-1] in RANKS:
        return label[:-1] + _SUIT_NAMES[label[-1]]
    return label


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    kind: str
    faces: dict[str, int]
    refs: bytes | None

    @property
    def taught(self) -> int:
        return sum(self.faces.values())


def _deck(row) -> Deck:
    return Deck(row[0], row[1], row[2], json.loads(row[3]), row[4])


MAX_NAME = 60  # characters in a deck's name (the form's maxlength)


class NameProblem(ValueError):
    """A deck name refused: ``why`` is "shows" (nothing in it shows), "control" (it holds the control or
    format character ``char``, as U+XXXX) or "long" (over MAX_NAME characters)."""

    def __init__(self, why: str, char: str | None = None):
        super().__init__(why if char is None else f"{why} {char}")
        self.why, self.char = why, char


def clean_name(value) -> str:
    """A deck's name by the rules of player and group names (``games.base.normalise_name``: Unicode NFC,
    no surrounding spaces, no control or format characters, something that shows), but of up to MAX_NAME
    characters. Raises NameProblem."""
    if not isinstance(value, str):
        raise NameProblem("shows")
    if len(value) > 4 * MAX_NAME:
        raise NameProblem("long")
    name = unicodedata.normalize("NFC", value).strip()
    try:  # its characters, then whether it shows (a name's own length limit is said last: not a deck's)
        normalise_name(name[:4 * MAX_PLAYER_NAME], "name")
    except EntryError as err:
        control = re.search(r"control or format character (U\+[0-9A-F]+)", err.message)
        if control:
            raise NameProblem("control", control.group(1)) from None
        if not err.message.startswith("a name has at most"):
            raise NameProblem("shows") from None
    if len(name) > MAX_NAME:
        raise NameProblem("long")
    return name


def create(db: Database, name: str, kind: str) -> Deck:
    if kind not in FACES:
        raise ValueError(f"unknown kind of deck {kind!r}")
    deck_id = random_id()
    with db.atomic():
        db.conn.execute("INSERT INTO decks (id, name, kind, faces, created_at, updated_at) VALUES (?, ?, ?, '{}', ?, ?)",
                        (deck_id, name, kind, now(), now()))
    return get(db, deck_id)


def get(db: Database, deck_id: str) -> Deck | None:
    row = db.conn.execute("SELECT id, name, kind, faces, refs FROM decks WHERE id = ?", (deck_id,)).fetchone()
    return _deck(row) if row else None


def all_decks(db: Database) -> list[Deck]:
    rows = db.conn.execute("SELECT id, name, kind, faces, refs FROM decks ORDER BY updated_at DESC").fetchall()
    return [_deck(r) for r in rows]


def save(db: Database, deck: Deck, references: vision.References, labels: list[str]) -> Deck:
    """Store the deck's references after teaching ``labels``: ``references`` is ``deck``'s references as
    read (``deck`` is what the phone read before teaching) with the cards just taught added (what
    ``vision.teach`` answers). Phones teach one deck at once: the cards taught are added to the deck as it
    is when written (read again inside the write transaction), so no phone's faces are lost."""
    before = _references(deck.refs)
    kept = len(before) if before is not None and references.labels[:len(before)] == before.labels else 0
    taught = vision.References(references.labels[kept:], references.features[kept:])
    with write_transaction(db) as conn:
        row = conn.execute("SELECT faces, refs FROM decks WHERE id = ?", (deck.id,)).fetchone()
        if row is None:  # deleted meanwhile: nothing to add to
            return None
        faces = json.loads(row[0])
        for label in labels:
            faces[label] = faces.get(label, 0) + 1
        now_refs = _references(row[1])
        merged = taught if now_refs is None or not len(now_refs) else now_refs.merge(taught)
        conn.execute("UPDATE decks SET refs = ?, faces = ?, updated_at = ? WHERE id = ?",
                     (merged.to_bytes(), json.dumps(faces, sort_keys=True), now(), deck.id))
    return get(db, deck.id)


def _references(data: bytes | None) -> vision.References | None:
    if not data:
        return None
    try:
        return vision.References.from_bytes(data)
    except ValueError:
        return None  # taught by an incompatible version: recognition falls back to "unknown"


def references(deck: Deck) -> vision.References | None:
    return _references(deck.refs)


def references_for_kind(db: Database, kind: str) -> vision.References | None:
    """Every taught reference read by recogniser ``kind`` (a game deck's, or "standard"), merged (the
    newest deck first): every edition of a game's deck serves that game's tables."""
    merged = None
    for deck in all_decks(db):
        refs = references(deck) if RECOGNISER.get(deck.kind, deck.kind) == kind else None
        if refs is not None and len(refs):
            merged = refs if merged is None else merged.merge(refs)
    return merged


def forget(db: Database, deck: Deck, face: str) -> Deck:
    """Forget every reference taught for ``face`` (a face taught wrong is taught again from nothing): from
    the deck as it is when written (read again inside the write transaction), so what another phone taught
    meanwhile stays."""
    with write_transaction(db) as conn:
        row = conn.execute("SELECT faces, refs FROM decks WHERE id = ?", (deck.id,)).fetchone()
        if row is None:  # deleted meanwhile
            return None
        faces = {f: n for f, n in json.loads(row[0]).items() if f != face}
        refs = _references(row[1])
        data = row[1]
        if refs is not None:
            keep = [i for i, label in enumerate(refs.labels) if label != face]
            kept = vision.References([refs.labels[i] for i in keep], refs.features[keep])
            data = kept.to_bytes() if len(kept) else None
        conn.execute("UPDATE decks SET refs = ?, faces = ?, updated_at = ? WHERE id = ?",
                     (data, json.dumps(faces, sort_keys=True), now(), deck.id))
    return get(db, deck.id)


def delete(db: Database, deck_id: str) -> bool:
    """Delete a deck and all it was taught; False when there is no such deck."""
    with db.atomic():
        gone = db.conn.execute("DELETE FROM decks WHERE id = ?", (deck_id,)).rowcount
    return bool(gone)
