"""The shape of a game: what the web layer, the store, transcripts, ``referee check``, scans and the rules
pages know of any game. A game is a module that provides these names (python-chess and boardgame.io give
their games one interface in the same way); ``referee/games/__init__.py`` registers it, and
``tests/games/test_conformance.py`` plays random complete games through it to check that it does.

Everything here is pure: no Flask, SQLite, OpenCV, clock or randomness. Seats are 0-based indices into
``state.players``; entries travel in their JSON form (seats by name, cards by code, ``"unknown"`` for a
card nobody entered). A game's screens live in ``templates/games/<TEMPLATES>/``: ``screen.html`` (the
table as one seat sees it), ``pick.html`` (the second step of an entry), ``correct.html`` (the fields of a
past entry to correct).

Optional: ``failed_play(state, move)`` (what became of an entry that could not go, for its words),
``entry_outcome(state, move)`` (what an entry came to beyond its own fields, said after them: a wild card's
rank, a pile completed), ``CLAIMS`` (the names of entries claiming something of the whole table, such as
who starts, which any seated phone may undo), ``CLAIM_DISPUTES`` (the rules of the disputes about such a claim,
whose decision leaves the claim as entered: the phones say how to undo it) and
``cards_moved(events)`` (the seats whose face-down cards another player's entry moved: a swap, a snap;
their phones say so until they play again).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping, Protocol, runtime_checkable

from .base import EntryError, Variant, seat_index


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of house rules offered when a table is created ("the publisher's rules")."""

    key: str
    name: str
    description: str
    rules: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ScanSpec:
    """What a photo is for at this moment: how many cards it should hold, laid out how, for whom."""

    cards: int = 1            # 1: one card; n > 1: a row of n cards, read left to right into slots
    seat: int | None = None   # whose cards (a row at the reveal), None for a table card
    move: str = ""            # the entry the photo fills in


def photo_spec(state: Any, purpose: Mapping[str, str], rows: Mapping[str, Callable[[Any, int], int]],
               singles: Collection[str]) -> ScanSpec | None:
    """A game's ``scan_spec`` from what it photographs: for a move in ``rows``, a row of the cards of the
    seat named by the form's ``for`` (``rows[move](state, seat)`` of them; None when ``for`` names nobody
    at this table); for a move in ``singles``, one card; for any other move, nothing."""
    move = purpose.get("move", "")
    if move in rows:
        try:
            seat = seat_index(purpose.get("for", ""), state.players, "for")
        except EntryError:
            return None
        return ScanSpec(cards=max(rows[move](state, seat), 1), seat=seat, move=move)
    return ScanSpec(cards=1, move=move) if move in singles else None


@dataclass(frozen=True, slots=True)
class RuleSection:
    """A heading of a game's rule book and its rules, by ID, in plain words."""

    title: str
    rules: tuple[tuple[str, str], ...]  # (rule ID, sentence)


@runtime_checkable
class Game(Protocol):
    """A game module. The attributes are module constants; the functions are module functions."""

    NAME: str                          # the registry key, as in a transcript's "game"
    TITLE: str                         # the game's name, as players say it
    ENGINE_VERSION: int                # bumped when replaying a log could give another state
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    VARIANTS: tuple[Variant, ...]      # the house-rule switches, with their words and defaults
    PRESETS: tuple[Preset, ...]        # house rules offered in words when a table is created
    RULE_BOOK: tuple[RuleSection, ...]  # every rule of the game in plain words, for the rules page
    TEMPLATES: str                     # the folder of its screens under templates/games/
    DECK_KINDS: tuple[str, ...]        # the decks (recognisers) its cards are read from, preferred first
    PICK_MOVES: tuple[str, ...]        # entries whose second step is a picker (a card, a target)
    SIMULTANEOUS: tuple[str, ...]      # entries each seat may make at the same moment (a reveal)

    # --- rules ---------------------------------------------------------------------------------
    def new_match(self, players: Any, rules: Mapping[str, Any] | None = None, dealer: Any = None) -> Any: ...

    def apply(self, state: Any, move: Any, entry_id: int | None = None) -> tuple[Any, list[dict]]: ...

    def legal_moves(self, state: Any, seat: int | None) -> list[Any]: ...

    def parse_move(self, data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
                   where: str = "entry") -> Any: ...

    def move_to_dict(self, move: Any, players: tuple[str, ...]) -> dict[str, Any]: ...

    def describe(self, move: Any, players: tuple[str, ...]) -> str: ...

    def state_to_dict(self, state: Any) -> dict[str, Any]: ...

    def state_from_dict(self, data: dict[str, Any]) -> Any: ...

    def rule_text(self, rule: str, rules: Mapping[str, Any] | None = None) -> str: ...

    # --- who acts, and what a phone may enter ---------------------------------------------------
    def to_act(self, state: Any) -> int | None:
        """Whose turn it is (the shared phone enters for them); None between turns."""

    def may_act(self, state: Any) -> tuple[int, ...]:
        """Every seat with an entry of its own to make now: the turn, and out-of-turn entries (a call
        after one's own turn, a snap, an interrupt), the turn first."""

    def entry_from_form(self, form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                        shared: bool = False, turn: int | None = None) -> dict[str, Any]:
        """The entry a posted form describes (raises EntryError naming the field): ``seat`` is the
        phone's own seat; on the shared phone the form names who acts (default ``turn``)."""

    def entry_to_form(self, entry: Mapping[str, Any]) -> dict[str, str]:
        """The form a phone posts for an entry (its JSON form); ``entry_from_form`` reads it back."""

    # --- what a seat may see --------------------------------------------------------------------
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def redact(self, state: Any, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]: ...

    # --- cards and photos -----------------------------------------------------------------------
    def cards(self, state: Any) -> list[str]:
        """The card codes of this match's deck, in picker order."""

    def card_label(self, card: str | None) -> str: ...

    def still_possible(self, state: Any, seat: int | None = None) -> set[str]: ...

    def scan_spec(self, state: Any, purpose: Mapping[str, str]) -> ScanSpec | None:
        """What a photo taken for the entry ``purpose`` describes now, or None if it is for nothing."""

    # --- results --------------------------------------------------------------------------------
    def result(self, state: Any) -> dict[str, Any]:
        """Scores and standings by player name: ``house_rules``, ``rounds``, ``totals``, ``standings``,
        ``over``, ``winners``, ``outcome`` (what ``referee check`` prints)."""
