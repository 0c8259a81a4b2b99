"""The vocabulary every game engine shares.

An engine is a module with pure functions over immutable values (no I/O, no clock, no randomness):

* ``new_match(players, rules=None, dealer=None) -> State``
* ``apply(state, move, entry_id=None) -> (State, events)`` — raises :class:`Ruling` and leaves
  ``state`` untouched when the entry is refused;
* ``legal_moves(state, seat) -> list[Move]`` — what ``seat`` may enter now (card values left unknown);
* ``view(state, seat) -> dict`` — what ``seat`` may know (``None`` is a spectator);
* ``parse_move(data, players) -> Move`` and ``move_to_dict(move, players) -> dict`` for the JSON form;
* ``VARIANTS`` — the house-rule switches with their defaults;
* ``still_possible(state, seat) -> set[str]`` — the cards that can still turn up (the camera's second
  opinion: a read outside it is a misread).

Rulings come in two strengths (GEN-5, GEN-10): a REJECT refuses the entry; a FLAG is recorded and play
goes on (a breach that only shows later). Either can be overridden by a person; the override is an entry.
"""
from __future__ import annotations

import hashlib
import reprlib
import unicodedata
from dataclasses import dataclass, field
from typing import Any

REJECT = "reject"
FLAG = "flag"
UNKNOWN = None  # a card value nobody saw (GEN-14); written "unknown" in transcripts


MAX_NAME = 40  # characters in a player's name, a card or a rule ID
MAX_TEXT = 300  # characters in a reason or a note
MAX_ENTRY_NUMBER = 1_000_000  # entry and flag numbers

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 2, 4, 4


def show(value: Any) -> str:
    """A short repr for messages, safe on hostile values (deep nesting, huge numbers)."""
    try:
        text = _SHORT.repr(value)
        return text if len(text) <= 60 else text[:57] + "..."
    except Exception:  # noqa: BLE001 - e.g. int too large to print: name the type instead
        return f"a {type(value).__name__}"


class EntryError(ValueError):
    """An entry or transcript that is malformed (not a rules question): names the field at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Ruling(Exception):
    """A rule applied to an entry: rule ID, plain words, and the entries involved (GEN-10, GEN-13)."""

    def __init__(self, rule: str, message: str, entries: tuple[int, ...] = (), *,
                 verdict: str = REJECT, overridable: bool = True):
        super().__init__(f"{verdict.upper()} {rule}: {message}")
        self.rule = rule
        self.message = message
        self.entries = tuple(entries)
        self.verdict = verdict
        self.overridable = overridable

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "rule": self.rule, "message": self.message,
                "entries": list(self.entries)}


def flag_about(rule: str, message: str) -> str:
    """A dispute as it reads, in a few characters: a decision names it, so that a decision made before a
    correction changed the dispute's words is not applied to what it says now (GEN-5)."""
    return hashlib.sha1(f"{rule}\n{message}".encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Flag:
    """A recorded FLAG: play went on, the table may accept it or override it (GEN-5)."""

    id: int
    rule: str
    message: str
    entries: tuple[int, ...]
    at: int  # the entry that raised it
    status: str = "open"  # open | accepted | overridden
    resolution: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "verdict": FLAG, "rule": self.rule, "message": self.message,
                "entries": list(self.entries), "at": self.at, "status": self.status,
                "resolution": self.resolution, "about": flag_about(self.rule, self.message)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Flag:
        return cls(d["id"], d["rule"], d["message"], tuple(d["entries"]), d["at"], d["status"],
                   d["resolution"])


@dataclass(frozen=True, slots=True)
class Variant:
    """A house-rule switch (``*-V*`` in RULES.md): fixed when a match is created (GEN-11)."""

    key: str
    rule: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()  # empty: an integer (``minimum`` applies) or None where allowed
    minimum: int = 0
    maximum: int = 1_000_000
    allow_none: bool = False
    help: str = ""
    derived: bool = False  # follows from the table itself (the number of players): no choice on a form

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                raise EntryError(f"rules.{self.key}",
                                 f"must be one of {', '.join(map(str, self.choices))}, not {show(value)}")
            return value
        if value is None and self.allow_none:
            return None
        if (isinstance(value, bool) or not isinstance(value, int) or value < self.minimum
                or value > self.maximum):
            raise EntryError(f"rules.{self.key}", f"must be a whole number from {self.minimum} to "
                                                  f"{self.maximum}, not {show(value)}")
        return value


def resolve_rules(variants: tuple[Variant, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Every switch with its default, overlaid with the table's choices; unknown keys are an error."""
    if given is not None and not isinstance(given, dict):
        raise EntryError("rules", "an object of house rules")
    given = dict(given or {})
    known = {v.key: v for v in variants}
    for key in given:
        if key not in known:
            raise EntryError(f"rules.{show(key)[1:-1] if isinstance(key, str) else show(key)}",
                             "is not a house rule of this game")
    return {v.key: v.check(given[v.key]) if v.key in given else v.default for v in variants}


def changed_rules(variants: tuple[Variant, ...], rules: dict[str, Any]) -> dict[str, Any]:
    """The switches that differ from their defaults (shown on every score sheet, GEN-11)."""
    return {v.key: rules[v.key] for v in variants if rules[v.key] != v.default}


# --- Entries every game understands -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Override:
    """Let ``entry`` stand although ``rule`` refused it (GEN-5); recorded with who and why."""

    entry: Any
    rule: str
    reason: str = ""
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ResolveFlag:
    """The table's decision on a FLAG: ``accept`` it stands, ``override`` it is dismissed."""

    flag: int
    decision: str
    reason: str = ""
    seat: int | None = None
    about: str = ""  # the dispute as it read when decided (`flag_about`); "" in entries made before it was kept


def decide_flag(flags: tuple[Flag, ...], move: ResolveFlag, who: str, entry: int, refuse: Any,
                readings: tuple[str, ...] = ()) -> tuple[tuple[Flag, ...], str]:
    """The flags with ``move``'s decision on one of them (GEN-5), and its status ("accepted" or
    "overridden"): refused (``refuse(rule, message)``, which raises) when that dispute is not there now,
    is decided already, or reads otherwise than when it was decided (``readings``: more ways its words
    may be said, for a dispute whose words were reworded since). Every engine decides disputes so."""
    if move.flag >= len(flags):  # (after a correction, the contradiction it was about may be gone)
        refuse("GEN-5", "There is no such dispute now: an entry it was about may have been corrected.")
    old = flags[move.flag]
    if old.status != "open":
        refuse("GEN-5", "That dispute is no longer open: it was decided already.")
    if move.about and move.about not in (flag_about(old.rule, old.message),
                                         *(flag_about(old.rule, said) for said in readings)):
        refuse("GEN-5", "That dispute reads differently now (an entry it points at was corrected): decide it again.")
    status = "accepted" if move.decision == "accept" else "overridden"
    resolution = f"{status} by {who} at entry {entry}" + (f": {move.reason}" if move.reason else "")
    new = Flag(old.id, old.rule, old.message, old.entries, old.at, status, resolution)
    return flags[:move.flag] + (new,) + flags[move.flag + 1:], status


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last entry that stands (GEN-13): a compensating entry, the log keeps both."""

    seat: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Correct:
    """Replace a past entry; what follows it is recomputed (entries that no longer fit are flagged)."""

    target: int
    entry: Any
    reason: str = ""
    seat: int | None = None


META_MOVES = (Undo, Correct)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: winners (seats) and a sentence that says why."""

    winners: tuple[int, ...]
    explanation: str
    shared: bool = field(default=False)


def event_of(apply: Any, state: Any, move: Any, kind: str) -> dict[str, Any] | None:
    """The first event of ``kind`` that ``move`` makes applied to ``state`` (``apply``: a game's), or None:
    none made, or the move refused there or not this state's entry. For the words an entry is said in
    afterwards (what became of it), which must never fail."""
    try:
        _, events = apply(state, move)
    except Exception:  # noqa: BLE001 - refused, or not this state's entry: said as entered
        return None
    return next((e for e in events if e.get("kind") == kind), None)


def seat_index(value: Any, players: tuple[str, ...], where: str) -> int:
    """A seat given by name or by 0-based index."""
    if isinstance(value, bool):
        raise EntryError(where, f"{value!r} is not a player")
    if isinstance(value, int):
        if 0 <= value < len(players):
            return value
        raise EntryError(where, f"there is no seat {show(value)} (seats are 0–{len(players) - 1})")
    if isinstance(value, str) and len(value) <= 2 * MAX_NAME:
        for i, name in enumerate(players):
            if name == value:
                return i
        key = name_key(value)
        for i, name in enumerate(players):
            if name_key(name) == key:
                return i
        raise EntryError(where, f"{show(value)} is not a player at this table")
    raise EntryError(where, f"{show(value)} is not a player")


# --- Player names ---------------------------------------------------------------------------

_ZWJ = "\u200d"
# Characters that show nothing on their own (besides spaces, format and combining characters).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return ch.isspace() or ch in _BLANKS or cat in ("Zs", "Cf", "Mn", "Me")


def normalise_name(name: Any, where: str = "name") -> str:
    """A player's name as the referee keeps it: Unicode NFC, without surrounding spaces, at most 40
    characters, with no control or format characters (a zero-width joiner inside an emoji sequence
    is kept), and something visible in it."""
    if not isinstance(name, str):
        raise EntryError(where, "a player's name is text")
    if len(name) > 4 * MAX_NAME:
        raise EntryError(where, f"a name has at most {MAX_NAME} characters")
    name = unicodedata.normalize("NFC", name).strip()
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if ch == _ZWJ and 0 < i < len(name) - 1 and not name[i - 1].isspace() and not name[i + 1].isspace():
            continue
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise EntryError(where, f"a name cannot hold the control or format character U+{ord(ch):04X}")
    if not name or all(_invisible(ch) for ch in name):
        raise EntryError(where, "a player needs a name that shows")
    if len(name) > MAX_NAME:
        raise EntryError(where, f"a name has at most {MAX_NAME} characters")
    return name


def name_key(name: str) -> str:
    """What two names must differ in: names equal once invisible characters are removed and case
    is folded are the same name to the table."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if not _invisible(ch))


def normalise_players(players: Any, where: str = "players") -> tuple[str, ...]:
    """Every name normalised; two names the table could not tell apart are refused."""
    if not isinstance(players, (list, tuple)) or len(players) > 100:
        raise EntryError(where, "a list of player names")
    names = tuple(normalise_name(p, f"{where}[{i}]") for i, p in enumerate(players))
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            first = names[seen[key]]
            if first == name:
                raise EntryError(where, f"two players are both called {show(name)}: add an initial to one of them")
            raise EntryError(where, f"{show(first)} and {show(name)} are the same name to the table (capitals and "
                                    "invisible characters do not count): add an initial to one of them")
        seen[key] = i
    return names
