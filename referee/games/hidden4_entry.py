"""The family core of the "four hidden cards" games (Rat-a-Tat Cat and its standard-deck cousins Cabo
and Cambio): how one entry is applied, whatever the game.

An :class:`Entry` is one entry being applied to a *draft* of the state (its piles are lists). Checks raise
rulings (GEN-5, GEN-10): ``check`` an overridable rule, ``refuse`` a rule no override can bend; ``flag``
records a breach that only shows later. ``observe`` is what the table learns when a card is seen face up
(GEN-3 conservation, GEN-4 consistency, and the private notes it contradicts, GEN-6). Overrides and the
table's decision on a flag work the same in every game of the family.

A game's entry class subclasses :class:`Entry`, sets ``TITLE`` and ``OVER_RULE`` (the rule a finished
match cites), and provides ``__init__`` (the draft), ``maybe_score`` and a ``do_<Entry>`` method per
entry. The draft's round has ``discard``, ``rows`` (a place may be empty: None), ``pending`` and ``conflicts``.
"""
from __future__ import annotations

import re
from typing import Any

from .base import EntryError, Flag, Override, ResolveFlag, Ruling, decide_flag
from .ratatat_state import Token


class Entry:
    """One entry being applied: checks raise rulings; effects change a draft of the state."""

    TITLE = ""
    OVER_RULE = ""
    PLACE = "place"  # what the game calls a card's position in a row, as a dispute names it ("Ana's place 3")
    state: Any
    r: Any
    eid: int
    events: list[dict[str, Any]]
    waive: frozenset[str]
    waived: dict[str, tuple[str, tuple[int, ...]]]

    # Checks ---------------------------------------------------------------------------------
    def check(self, ok: bool, rule: str, message: str, entries: tuple[int, ...] = ()) -> None:
        """An overridable rule: refused unless the table overrides it (GEN-5)."""
        if ok:
            return
        if rule in self.waive:
            self.waived.setdefault(rule, (message, (self.eid, *entries)))
            self.events.append({"kind": "overridden", "rule": rule, "message": message})
            return
        raise Ruling(rule, message, (self.eid, *entries))

    def refuse(self, rule: str, message: str, entries: tuple[int, ...] = ()) -> None:
        """A rule no override can bend: the entry does not fit the table's state at all."""
        raise Ruling(rule, message, (self.eid, *entries), overridable=False)

    def name(self, seat: int | None) -> str:
        return "The table" if seat is None else self.state.players[seat]

    def card_text(self, value: str) -> str:
        """A card as a ruling says it (a game whose codes are not what a player reads says them here)."""
        return value

    def flag(self, rule: str, message: str, entries: tuple[int, ...]) -> None:
        flag = Flag(len(self.state.flags), rule, message, entries, self.eid)
        self.state.flags = self.state.flags + (flag,)
        self.events.append({"kind": "flag", "flag": flag.id, "rule": rule, "message": message,
                            "entries": list(entries)})

    def round(self) -> Any:
        if self.r is None:
            self.refuse(self.OVER_RULE, "The match is over: no more entries can be played.")
        return self.r

    # Dispatch -------------------------------------------------------------------------------
    def run(self, move: Any) -> None:
        handler = getattr(self, "do_" + type(move).__name__, None)
        if handler is None:
            raise EntryError("move", f"{type(move).__name__} is not an entry of {self.TITLE}")
        if getattr(move, "seat", None) is not None and not 0 <= move.seat < len(self.state.players):
            raise EntryError("seat", f"there is no seat {move.seat}")
        handler(move)

    def do_Override(self, move: Override) -> None:
        self.waive = self.waive | {move.rule}
        self.run(move.entry)
        if move.rule not in self.waived:
            self.refuse("GEN-5", f"{move.rule} does not refuse this entry, so there is nothing to override.")
        message, entries = self.waived[move.rule]
        record = (self.eid, move.rule, move.reason, move.seat, message, entries)
        self.state.overrides = self.state.overrides + (record,)
        self.events.append({"kind": "override", "rule": move.rule, "reason": move.reason,
                            "by": self.name(move.seat) if move.seat is not None else None})

    def do_ResolveFlag(self, move: ResolveFlag) -> None:
        """Accept (the table agrees the card shows what was entered) or override (the table dismisses
        the flag). Either way the entry that raised it stands, so a revealed card counts as revealed:
        there is no other value to count. Deciding the last flag that holds a round scores it."""
        flags = self.state.flags
        said = flags[move.flag].message if move.flag < len(flags) else ""
        self.state.flags, status = decide_flag(flags, move, self.name(move.seat), self.eid, self.refuse,
                                               (_first_said(said),))
        self.events.append({"kind": "flag_resolved", "flag": move.flag, "status": status})
        self.maybe_score()

    # Knowledge ------------------------------------------------------------------------------
    def public_count(self, value: str) -> int:
        return len(self.public_sightings(value))

    def public_sightings(self, value: str) -> list[int | None]:
        """The entries at which each card known on the table to be ``value`` was seen (None: not recorded)."""
        r = self.r
        tokens = [t for t in r.discard if t.value == value]
        for row in r.rows:
            tokens += [t for t in row if t is not None and t.value == value]
        if r.pending is not None and r.pending.value == value:
            tokens.append(r.pending)
        return [t.seen for t in tokens]

    def check_supply(self, value: str | None, extra: int = 0) -> None:
        """GEN-3 (RTC-K8, CAB-K1): one more sighting of ``value`` must not exceed the copies in the deck."""
        if value is None:
            return
        copies = self.state.deck[value]
        where = self.public_sightings(value)
        seen = len(where) + extra
        here = sum(1 for e in where if e == self.eid)  # earlier cards of this very entry (a reveal's)
        said = f" ({here} of them in this entry)" if here else ""
        # the ruling points at the entries where the copies known were seen (GEN-13), not only at this one
        self.check(seen < copies, "GEN-3",
                   f"The deck has only {copies} × {self.card_text(value)}, and {seen} {'is' if seen == 1 else 'are'} "
                   f"already known on the table{said}: "
                   "this sighting would be one too many (a misread or a wrong card?).",
                   tuple(sorted({e for e in where if e is not None and e != self.eid})))

    def observe(self, token: Token, value: str | None, where: tuple[int, int] | None = None) -> Token:
        """``token`` is seen face up showing ``value`` now: check it against what was known (GEN-4)
        and keep the private notes it contradicts for the end-of-round check (GEN-6), with ``where`` the
        card lies (its owner's seat and its slot or place) when it lies in a row."""
        if value is None:
            return token
        if token.value is not None:
            if token.value != value:
                self.check_supply(value)  # GEN-3 first: the new value must still fit the deck
                who, slot = (self.name(where[0]), where[1]) if where is not None else ("", 0)  # whose card, if in a row
                self.flag("GEN-4", f"This card was known to be {self.card_text(token.value)} (entry {token.seen}) but "
                                   f"shows {self.card_text(value)} now (entry {self.eid})." if where is None else
                                   f"The card in {who}'s slot {slot} was known to be {self.card_text(token.value)} "
                                   f"(entry {token.seen}) but shows {self.card_text(value)} now (entry {self.eid})."
                                   if self.PLACE == "slot" else
                                   f"The card in {who}'s place {slot} was known to be {self.card_text(token.value)} "
                                   f"(entry {token.seen}) but shows {self.card_text(value)} now (entry {self.eid}).",
                          (token.seen, self.eid))
            else:
                return token
        else:
            self.check_supply(value)
        latest = {seat: (noted, at) for seat, noted, at in token.notes}  # a seat's last word on the card
        for seat, (noted, at) in latest.items():
            # a note that says what the whole table knew is the same mismatch the public flag names
            if noted != value and noted != token.value:
                self.r.conflicts = self.r.conflicts + ((seat, noted, at, value, self.eid, *(where or ())),)
        return Token(value, self.eid, token.notes, token.origin, token.origin_entry, token.face_up)

    def maybe_score(self) -> None:  # pragma: no cover - every game provides it
        raise NotImplementedError


_WHOSE_SLOT = re.compile(r"The card in .+'s slot \d+ was known to be ")


def _first_said(message: str) -> str:
    """A Rat-a-Tat Cat dispute as it was worded before it said whose slot the card lies in ("This card was
    known to be 5 ..."): a decision recorded then names it so, and still decides it."""
    return _WHOSE_SLOT.sub("This card was known to be ", message, count=1)


def dealt_card_now(swaps: tuple[tuple[int, int, int, int], ...], seat: int, slot: int) -> tuple[int, int]:
    """Where the card dealt to ``seat``'s place ``slot`` lies after ``swaps`` (seat, place), if it is still in
    a layout: its place followed through each exchange in order (a Swap; in Cabo a Give too, an exchange
    with an empty place). A first look noted late lands there (RTC-K4)."""
    place = (seat, slot)
    for a_seat, a_slot, b_seat, b_slot in swaps:
        if place == (a_seat, a_slot):
            place = (b_seat, b_slot)
        elif place == (b_seat, b_slot):
            place = (a_seat, a_slot)
    return place


# The events by which one player's entry moves another player's face-down cards, with the fields naming
# whose cards moved: a swap (RTC-32, CAB-7), a look-and-swap that swapped, another player's card snapped
# away and the card given for it (CAB-6).
_MOVES_OTHERS = {"swapped": ("owner", "target"), "looked": ("target",), "snapped": ("owner",), "given": ("owner",)}


def cards_moved(events: list[dict[str, Any]]) -> set[int]:
    """The seats whose face-down cards an entry's ``events`` moved, not counting the player who made the
    entry: what that player could not see happen to their own cards."""
    seats: set[int] = set()
    for event in events:
        fields = _MOVES_OTHERS.get(event.get("kind", ""), ())
        if event.get("kind") == "looked" and not event.get("swapped"):
            continue
        seats.update(event[f] for f in fields if isinstance(event.get(f), int) and event[f] != event.get("seat"))
    return seats
