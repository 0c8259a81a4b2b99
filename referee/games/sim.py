"""What the simulated physical tables share (ratatat_sim.py, cabo_sim.py): a TRUE shuffled deck the referee
never sees, followed card by card as the engine accepts each honest entry, and checked against the engine's
public knowledge (GEN-12).

Pure like the engines: the caller brings the source of randomness (``rng``, e.g. a seeded
``random.Random``), so a run replays from its seed; nothing here reads a clock or does I/O.

Cards are integer ids; ``values[id]`` is the printed card. A table mirrors the engine's zones place by place
(each seat's row of cards, the discard pile with its top at the end, the card in hand, the draw pile with its
top at the end), so every token the engine tracks can be compared with the true card in the same place.

Knowledge (GEN-2, GEN-6): a card is *public* once a value was entered for it in a public observation; a seat
has *noted* a card when it entered its value privately. ``public`` holds the public cards, ``notes`` the
(card, seat) pairs noted privately.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .base import Override

SLOTS = 4  # the cards each seat is dealt, in a row


class SimError(AssertionError):
    """The engine and the true table disagree."""


def expected_round_winners(scores: dict[int, int], caller: int | None, policy: str) -> tuple[int, ...]:
    """RTC-51 / RTC-V1 (Cabo's ties follow the same policies), written independently of the engines."""
    low = min(scores.values())
    lowest = tuple(sorted(s for s, v in scores.items() if v == low))
    if len(lowest) == 1:
        return lowest
    if policy == "all_lowest":
        return lowest
    if policy == "no_winner":
        return ()
    if caller not in lowest:
        return lowest
    if policy == "all_lowest_except_caller":
        return tuple(s for s in lowest if s != caller)
    return (caller,)  # caller_wins_ties


class TrueTable:
    """One match at a physical table: the engine's state (``state``) plus the true cards.

    A game's table names its engine (``game``), deals (``_deal``, which calls ``_deal_rows``), chooses the
    next honest entry (``choose``), follows each kind of entry that moves or shows a card in a method
    ``_on_<Kind>`` (those of the kinds both games have are here), checks a scored round
    (``_round_scored``) and, with ``check``, every other entry (``check_all``)."""

    game: Any = None  # the engine module

    def __init__(self, players: tuple[str, ...], state: Any, rng: Any, *, p_unknown: float, check: bool):
        self.rng = rng  # random(), randint(), choice(), sample(), shuffle(): e.g. a seeded random.Random
        self.players = tuple(players)
        self.state = state
        self.rules = state.rules
        self.values = [v for v, n in state.deck.items() for _ in range(n)]
        self.deck_size = len(self.values)
        self.p_unknown = p_unknown
        self.check = check
        self.totals = [0] * len(self.players)
        self.rounds_scored = 0
        self.public_values: dict[int, str] = {}  # id -> the value once public (GEN-4: never changes)

    # --- The true table ----------------------------------------------------------------------
    def _deal_rows(self, seats: Any) -> None:
        """Shuffle the whole deck, deal a row of ``SLOTS`` cards to each of ``seats``; the rest is the draw
        pile and nothing is known yet."""
        ids = list(range(self.deck_size))
        self.rng.shuffle(ids)
        self.rows: list[list[int | None]] = [[] for _ in self.players]
        for s in seats:
            self.rows[s] = [ids.pop() for _ in range(SLOTS)]
        self.dealt = {s: list(self.rows[s]) for s in seats}  # what each seat saw at its first look
        self.left_rows: set[int] = set()  # dealt cards replaced out of a row since
        self.draw: list[int] = ids  # the top is the end of the list
        self.discard: list[int] = []
        self.pending: int | None = None
        self.public: set[int] = set()
        self.notes: set[tuple[int, int]] = set()  # (card, seat) noted privately
        self.round_no = self.state.round.number

    def value(self, card: int) -> str:
        return self.values[card]

    def maybe(self, card: int, p: float | None = None) -> str | None:
        """The true value, or (sometimes) "not entered" (GEN-14)."""
        return None if self.rng.random() < (self.p_unknown if p is None else p) else self.values[card]

    def noters(self) -> dict[int, set[int]]:
        """The seats that noted each card privately."""
        out: dict[int, set[int]] = {}
        for c, s in self.notes:
            out.setdefault(c, set()).add(s)
        return out

    # --- Following an accepted entry ---------------------------------------------------------
    def accept(self, move: Any, new_state: Any) -> None:
        """Move the true cards as ``move`` says (the engine accepted it) and check the outcome."""
        old = self.state
        if isinstance(move, Override):
            move = move.entry
        follow = getattr(self, "_on_" + type(move).__name__, None)  # None: the entry moves no card
        if follow is not None:
            follow(move, old.round)
        self.state = new_state
        self._entered()
        if new_state.over or new_state.round.number != self.round_no:
            self._round_scored(old, new_state)
            self.rounds_scored += 1
            if not new_state.over:
                self._deal()
        elif self.check:
            self.check_all()

    def _entered(self) -> None:
        """After each entry, before the round is scored."""

    def _deal(self) -> None:  # pragma: no cover - each game's table deals
        raise NotImplementedError

    def choose(self) -> Any:  # pragma: no cover - each game's table has its driver
        """A legal entry with its card values filled in from the true cards."""
        raise NotImplementedError

    def _round_scored(self, old: Any, new: Any) -> None:  # pragma: no cover
        """Check the round ``old`` ended in (``new.history[-1]``) against the true cards."""
        raise NotImplementedError

    def _on_TakeDiscard(self, move: Any, r: Any) -> None:
        c = self.discard.pop()
        if move.card is not None:
            self.public.add(c)
        self.pending = c

    def _on_Replace(self, move: Any, r: Any) -> None:
        row = self.rows[move.seat]
        out = row[move.slot - 1]
        row[move.slot - 1], self.pending = self.pending, None
        self.left_rows.add(out)
        self.discard.append(out)
        if move.out is not None:
            self.public.add(out)

    def _on_Discard(self, move: Any, r: Any) -> None:
        self.discard.append(self.pending)
        if move.card is not None:
            self.public.add(self.pending)
        self.pending = None

    def _on_UsePower(self, move: Any, r: Any) -> None:
        self.discard.append(self.pending)
        self.public.add(self.pending)
        self.pending = None

    def _on_Peek(self, move: Any, r: Any) -> None:
        if move.seen is not None:
            target = move.seat if move.target is None else move.target
            self.notes.add((self.rows[target][move.slot - 1], move.seat))

    def _on_TurnUp(self, move: Any, r: Any) -> None:
        c = self.draw.pop()
        self.discard.append(c)
        if move.card is not None:
            self.public.add(c)

    def _initial_peek_public(self) -> bool:
        """Whether the cards of a first look are turned up for everyone (else each seat notes its own)."""
        return False

    FIRST_LOOK_AT_DEAL = False
    """Whether a first look noted late is about the cards dealt (followed through Swaps since, and lost
    once replaced out of the rows), else about the cards in those places now."""

    def first_look(self, seat: int, slot: int) -> int | None:
        """The card a first look at ``seat``'s ``slot`` is about (None: it has left the rows)."""
        if not self.FIRST_LOOK_AT_DEAL:
            return self.rows[seat][slot - 1]
        c = self.dealt[seat][slot - 1]
        return None if c in self.left_rows else c

    def _on_InitialPeek(self, move: Any, r: Any) -> None:
        public = self._initial_peek_public()
        for slot, val in zip(move.slots, move.seen):
            c = self.first_look(move.seat, slot)
            if val is None or c is None:
                continue
            if public:
                self.public.add(c)
            else:
                self.notes.add((c, move.seat))

    def _draw_public(self, move: Any) -> bool:
        """Whether the card of a Draw entered with its value is public (else the drawing seat noted it)."""
        return move.shown

    def _on_Draw(self, move: Any, r: Any) -> None:
        c = self.draw.pop()
        self.pending = c
        if move.card is not None:
            if self._draw_public(move):
                self.public.add(c)
            else:
                self.notes.add((c, move.seat))

    def _on_Swap(self, move: Any, r: Any) -> None:
        """A swap of two table cards, the first one of ``move.owner``'s row where the move names one."""
        if move.slot is not None:
            owner = getattr(move, "owner", None)
            a, b = self.rows[move.seat if owner is None else owner], self.rows[move.target]
            a[move.slot - 1], b[move.target_slot - 1] = b[move.target_slot - 1], a[move.slot - 1]

    def _reshuffle(self, keep_top: bool) -> None:
        """The discard pile (but its top card, with ``keep_top``) shuffled under the draw pile; what was
        known of those cards is forgotten."""
        moved = self.discard[:-1] if keep_top else self.discard
        self.discard = self.discard[-1:] if keep_top else []
        gone = set(moved)
        self.public -= gone
        self.notes = {n for n in self.notes if n[0] not in gone}
        self.draw = moved + self.draw
        self.rng.shuffle(self.draw)

    # --- Checks (GEN-12) ---------------------------------------------------------------------
    def _check_totals(self, new: Any) -> None:
        """The engine's match totals after a round are the table's (``totals``, the true scores added)."""
        if list(new.totals) != self.totals:
            raise SimError(f"totals {new.totals} != {self.totals}")

    def positions(self) -> Iterator[tuple[Any, int, str]]:
        """(engine token, true card, where) for every card the engine tracks as a token: the rows'
        (``_row_positions``), the discard pile's and the card in hand's."""
        r = self.state.round
        yield from self._row_positions(r)
        yield from self._pile_positions(r)

    def _row_positions(self, r: Any) -> Iterator[tuple[Any, int, str]]:  # pragma: no cover
        raise NotImplementedError

    def check_all(self) -> None:  # pragma: no cover - each game's table checks every entry its own way
        raise NotImplementedError

    def _pile_positions(self, r: Any) -> Iterator[tuple[Any, int, str]]:
        if len(r.discard) != len(self.discard):
            raise SimError(f"discard pile {len(r.discard)} cards, the table has {len(self.discard)}")
        for k, (tok, c) in enumerate(zip(r.discard, self.discard)):
            yield tok, c, f"discard[{k}]"
        if (r.pending is None) != (self.pending is None):
            raise SimError(f"card in hand: engine {r.pending}, table {self.pending}")
        if r.pending is not None:
            yield r.pending, self.pending, "in hand"

    def check_knowledge(self) -> None:
        """Every public value is the true value, public exactly when it was entered publicly, and never
        changes; every private note names the true value and the seat that noted it (GEN-2, GEN-4, GEN-6)."""
        r = self.state.round
        if r is None:
            return
        if r.draw != len(self.draw):
            raise SimError(f"draw pile: engine {r.draw}, table {len(self.draw)}")
        noters = self.noters()
        values = self.values
        for tok, c, where in self.positions():
            want = values[c] if c in self.public else None
            if tok.value != want:
                raise SimError(f"{where}: public value {tok.value!r}, expected {want!r} (true {values[c]})")
            if want is not None:
                if self.public_values.setdefault(c, want) != want:  # pragma: no cover - values are true
                    raise SimError(f"{where}: public value changed")
            seats = {s for s, _, _ in tok.notes}
            if seats != noters.get(c, set()):
                raise SimError(f"{where}: private notes by {seats}, expected {noters.get(c, set())}")
            for s, val, _ in tok.notes:
                if val != values[c]:
                    raise SimError(f"{where}: note {val} by {s}, true {values[c]}")

    def shown(self, card: int, seat: int | None) -> tuple[str | None, str | None]:
        """What ``view(state, seat)`` must show of ``card``: (its public value, ``seat``'s own note)."""
        pub = self.values[card] if card in self.public else None
        mine = self.values[card] if seat is not None and (card, seat) in self.notes else None
        return pub, mine

    def check_slot(self, seat: int | None, s: int, i: int, slot: dict[str, Any], card: int) -> str | None:
        """Place ``i`` (from 0) of seat ``s``'s row as ``view(state, seat)`` shows it; its public value."""
        pub, mine = self.shown(card, seat)
        if slot["card"] != pub or slot["mine"] != mine:
            raise SimError(f"view of seat {seat}: seat {s} place {i + 1} shows {slot}, expected "
                           f"card={pub!r} mine={mine!r}")
        return pub

    def discard_top(self) -> str | None:
        """The value the views show on the discard pile: its top card's, when public."""
        return self.values[self.discard[-1]] if self.discard and self.discard[-1] in self.public else None


def play(table: TrueTable, done: Callable[[], bool], apply: Callable | None = None,
         on_entry: Callable | None = None, limit: int | None = None) -> int:
    """Drive ``table`` until ``done()``, each entry through ``apply`` (the engine's by default) and then
    ``on_entry(entry, new state)``; more than ``limit`` entries is a SimError. Returns the number of entries."""
    apply = apply or table.game.apply
    n = 0
    while not done():
        move = table.choose()
        new, _ = apply(table.state, move)
        table.accept(move, new)
        n += 1
        if on_entry is not None:
            on_entry(move, new)
        if limit is not None and n > limit:
            raise SimError(f"no end after {limit} entries")
    return n


def play_round(table: TrueTable, apply: Callable | None = None, on_entry: Callable | None = None) -> int:
    """Drive ``table`` until the current round is scored; returns the number of entries."""
    start = table.rounds_scored
    return play(table, lambda: table.rounds_scored != start, apply, on_entry)


def play_match(table: TrueTable, limit: int = 5000, apply: Callable | None = None) -> int:
    """Drive ``table`` to the end of the match; returns the number of entries."""
    return play(table, lambda: table.state.over, apply, limit=limit)
