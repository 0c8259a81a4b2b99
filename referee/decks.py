"""Taught decks: the references recognition uses for a deck design, kept in SQLite per deck."""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

import vision

from .games import GAMES
from .games.cards import RANKS, SUITS
from .store import now, random_id

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
    """Store the deck's references after teaching ``labels``."""
    faces = dict(deck.faces)
    for label in labels:
        faces[label] = faces.get(label, 0) + 1
    with db.atomic():
        db.conn.execute("UPDATE decks SET refs = ?, faces = ?, updated_at = ? WHERE id = ?",
                        (references.to_bytes(), json.dumps(faces, sort_keys=True), now(), deck.id))
    return get(db, deck.id)


def references(deck: Deck) -> vision.References | None:
    if not deck.refs:
        return None
    try:
        return vision.References.from_bytes(deck.refs)
    except ValueError:
        return None  # taught by an incompatible version: recognition falls back to "unknown"


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
    """Forget every reference taught for ``face`` (a face taught wrong is taught again from nothing)."""
    faces = {f: n for f, n in deck.faces.items() if f != face}
    refs = references(deck)
    data = deck.refs
    if refs is not None:
        keep = [i for i, label in enumerate(refs.labels) if label != face]
        kept = vision.References([refs.labels[i] for i in keep], refs.features[keep])
        data = kept.to_bytes() if len(kept) else None
    with db.atomic():
        db.conn.execute("UPDATE decks SET refs = ?, faces = ?, updated_at = ? WHERE id = ?",
                        (data, json.dumps(faces, sort_keys=True), now(), deck.id))
    return get(db, deck.id)


def delete(db: Database, deck_id: str) -> bool:
    """Delete a deck and all it was taught; False when there is no such deck."""
    with db.atomic():
        gone = db.conn.execute("DELETE FROM decks WHERE id = ?", (deck_id,)).rowcount
    return bool(gone)
