"""Applying entries to a Cabo / Cambio match: the deal (CAB-1), one entry at a time (``apply``), scoring a
round (CAB-40..44) and the next round or the end of the match (CAB-43, CAB-45).

``apply`` validates one entry against the rules and the house rules and returns the next state and the
events it caused, or raises a :class:`Ruling` with the state it was given unchanged. The checks,
overrides, flags and card knowledge are the family core's (``hidden4_entry.Entry``), as in Rat-a-Tat Cat.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterable, Mapping

from .base import EntryError, Ruling, event_of, normalise_players, resolve_rules, seat_index
from .cabo_cards import DECK_PLAYERS, DECKS, POWER_WORDS, card_words, label, power, rank, sentence_card
from .cabo_moves import (Call, Discard, Draw, Give, InitialPeek, LookSwap, Match, Peek, Replace, Reshuffle,
                         Reveal, Snap, Swap, TakeDiscard, TurnUp, UsePower)
from .cabo_rules import MIN_PLAYERS, START_SLOTS, VARIANTS
from .cabo_scoring import lowest_totals, match_outcome, next_order, resets, round_scores
from .cabo_state import (HIDDEN, TITLE, Round, RoundDraft, RoundResult, State, StateDraft, Token, awaiting_flags,
                         cards_in, draft, freeze, frozen_rules, places, reveal_complete, top_rank)
from .hidden4_entry import Entry, dealt_card_now
from .ratatat_state import next_seat

POWER_STEPS = ("peek", "spy", "swap", "look_swap")

# --- Setting up --------------------------------------------------------------------------------


def new_match(players: Iterable[str], rules: Mapping[str, Any] | None = None,
              dealer: int | str | None = None) -> State:
    """A match ready for its first round. The dealer defaults to the last player, so the first player
    listed takes the first turn."""
    if isinstance(players, (str, bytes, dict)) or not hasattr(players, "__iter__"):
        raise EntryError("players", "a list of player names")
    players = tuple(players)
    rules = frozen_rules(resolve_rules(VARIANTS, dict(rules or {})))
    most = DECK_PLAYERS[rules["deck"]]
    if not MIN_PLAYERS <= len(players) <= most:
        deck = "the Cabo deck" if rules["deck"] == "cabo52" else "a standard deck"
        raise Ruling("CAB-1", f"With {deck} the game is for {MIN_PLAYERS}–{most} players, not {len(players)}.",
                     overridable=False)
    players = normalise_players(players)
    n = len(players)
    first_dealer = n - 1 if dealer is None else seat_index(dealer, players, "dealer")
    seats = tuple(range(n))
    first = deal(players, rules, 1, first_dealer, next_seat(seats, first_dealer, n), first_entry=0)
    return State(players=players, rules=rules, version=0, round=first, totals=(0,) * n, history=(),
                 over=False, winners=(), outcome="", flags=(), resets_used=frozenset(), overrides=())


def deal(players: tuple[str, ...], rules: Mapping[str, Any], number: int, dealer: int, first: int,
         first_entry: int) -> Round:
    """The deal (CAB-1): four face-down cards per player; the discard pile is not yet started."""
    n = len(players)
    deck_size = sum(DECKS[rules["deck"]].values())
    return Round(
        number=number, dealer=dealer, seats=tuple(range(n)), draw=deck_size - START_SLOTS * n, discard=(),
        rows=((HIDDEN,) * START_SLOTS,) * n, turn=first, step="start", pending=None, pending_from=None,
        power=None, caller=None, final_left=0, turns_done=0, call_window=None, awaiting_turn_up=True,
        revealed=frozenset(), peeked=frozenset(), played=frozenset(), conflicts=(), snap_top=None,
        snap_tried=frozenset(), give_owed=None, deck_out=False, scoring=False, first_entry=first_entry,
        reveal_flags_from=None)


# --- Applying entries --------------------------------------------------------------------------


def apply(state: State, move: Any, entry_id: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Apply one entry: the new state and its events, or a :class:`Ruling` (REJECT) with ``state``
    unchanged. ``entry_id`` numbers the entry in the log (default: the entries applied so far)."""
    eid = state.version if entry_id is None else entry_id
    ctx = _Entry(state, eid)
    ctx.run(move)
    ctx.state.version = state.version + 1
    return freeze(ctx.state), ctx.events


def failed_play(state: State, move: Any) -> dict[str, Any] | None:
    """What became of a snap entered at ``state`` that did not match (CAB-6): the "wrong_snap" event
    (``card``, ``onto``: the discard it was tried on, ``places``: where the penalty cards went), or None
    for any other entry (a good snap, a refused one). For the history and the undo button, which say such
    a snap as what happened, not as a snap."""
    if type(move) is not Snap:
        return None
    return event_of(apply, state, move, "wrong_snap")


def _with(token: Token, *, face_up: bool | None = None, origin: str | None = None,
          origin_entry: int | None = None, notes: tuple | None = None) -> Token:
    return Token(token.value, token.seen, token.notes if notes is None else notes,
                 token.origin if origin is None else origin,
                 token.origin_entry if origin_entry is None else origin_entry,
                 token.face_up if face_up is None else face_up)


def _turned_up(row: list[Token | None]) -> bool:
    """Every card of the layout lies face up with a known value (an empty layout too)."""
    for t in row:
        if t is not None and not (t.face_up and t.value is not None):
            return False
    return True


class _Entry(Entry):
    """One Cabo / Cambio entry being applied to a draft of the state."""

    TITLE = TITLE
    OVER_RULE = "CAB-43"

    def card_text(self, value: str) -> str:
        return label(value)  # "Q♥", not its code "QH"

    def __init__(self, state: State, eid: int):
        self.state: StateDraft = draft(state)
        self.r: RoundDraft | None = self.state.round
        self.eid = eid
        self.events: list[dict[str, Any]] = []
        self.waive: frozenset[str] = frozenset()
        self.waived: dict[str, tuple[str, tuple[int, ...]]] = {}

    @property
    def rules(self) -> Mapping[str, Any]:
        return self.state.rules

    # Places ------------------------------------------------------------------------------------
    def card_at(self, seat: int, slot: int, rule: str) -> Token:
        row = self.r.rows[seat]
        if slot > len(row) or row[slot - 1] is None:
            self.refuse(rule, f"{self.name(seat)} has no card in place {slot}.")
        return row[slot - 1]

    def add_card(self, seat: int, token: Token) -> int:
        """A card added to a layout takes its first empty place, or a new place at the end."""
        row = self.r.rows[seat]
        for i, t in enumerate(row):
            if t is None:
                row[i] = token
                return i + 1
        row.append(token)
        return len(row)

    def penalty(self, seat: int, n: int, rule: str) -> list[int]:
        """``n`` face-down cards from the draw pile into ``seat``'s layout (as many as the pile holds): the
        places they went to."""
        given = min(n, self.r.draw)
        places = []
        for _ in range(given):
            self.r.draw -= 1
            places.append(self.add_card(seat, Token(origin="penalty", origin_entry=self.eid)))
        if given < n:
            self.events.append({"kind": "penalty_short", "seat": seat, "owed": n, "given": given, "rule": rule,
                                "message": f"The draw pile is empty: {self.name(seat)} takes {given} of the "
                                           f"{n} penalty card{'s' if n > 1 else ''}."})
        return places

    def only_card_matching(self, token: Token, top: Token, matched: bool | None) -> str | None:
        """A snapped card entered without its value that matched a discard the table knows, when only one
        card of the deck has that rank (the Cabo deck's numbers): it is that card, from public facts alone
        (a private note never decides it, GEN-6). None otherwise, or when one more would break the count
        (GEN-3)."""
        if token.value is not None or not matched or top.value is None:
            return None
        same = [v for v in self.state.deck if rank(v) == rank(top.value)]
        if len(same) != 1 or self.public_count(same[0]) >= self.state.deck[same[0]]:
            return None
        return same[0]

    def locked(self, seat: int | None) -> bool:
        """CAB-21: after the call nobody may change the caller's cards."""
        return seat is not None and seat == self.r.caller and self.rules["caller_lock"]

    # Snapping window (CAB-6, GEN-7) -----------------------------------------------------------
    def open_snap(self) -> None:
        r = self.r
        if self.rules["snap_enabled"] and r.discard:
            r.snap_top, r.snap_tried = len(r.discard) - 1, frozenset()

    def close_snap(self) -> None:
        self.r.snap_top, self.r.snap_tried = None, frozenset()

    def no_give_owed(self, seat: int | None = None) -> None:
        owed = self.r.give_owed
        if owed is not None and owed[0] != seat:
            self.refuse("CAB-6", f"{self.name(owed[0])} first gives one of their cards to "
                                 f"{self.name(owed[1])} for the card snapped from place {owed[2]}.")

    def scoring_rule(self) -> str:
        """The rule a round is scored by under the table's house rules (CAB-V9): every card is counted."""
        return {"cabo_2e": "CAB-40", "cabo_1e": "CAB-41"}.get(self.rules["round_score"], "CAB-44")

    # Turn order --------------------------------------------------------------------------------
    def take_turn(self, seat: int) -> Round:
        """``seat`` starts its turn (GEN-7, CAB-3, CAB-20): closes the chance to snap the last discard (which
        stays open while the player before resolves its power, CAB-6)."""
        r = self.round()
        self.no_give_owed()
        if r.awaiting_turn_up:
            self.refuse("CAB-1", "Turn up the top card of the draw pile to start the discard pile first.")
        if r.step == "reveal":
            if r.deck_out:
                self.refuse("CAB-22", "The draw pile ran out, so the round is over: turn up the cards.")
            self.refuse("CAB-20", "The round is over: turn up the cards.")
        if seat == r.caller:
            self.refuse("CAB-20", f"{self.name(seat)} called: the caller takes no more turns, every other "
                                  "player takes one.")
        if seat not in r.seats:
            self.refuse("GEN-7", f"{self.name(seat)} is not playing this round.")
        if seat == r.turn and r.step == "holding":
            self.refuse("CAB-3", f"{self.name(seat)} already holds a card: keep it in place of a card, or "
                                 "discard it.")
        if seat == r.turn and r.step in POWER_STEPS:
            self.refuse("CAB-7", f"Resolve {POWER_WORDS[r.step]} first.")
        if seat != r.turn:
            self.check(False, "GEN-7", f"It is {self.name(r.turn)}'s turn, not {self.name(seat)}'s.")
            if r.step != "start":
                self.refuse("GEN-7", f"{self.name(r.turn)} is in the middle of a turn.")
            r.turn = seat  # overridden: the table lets this player take a turn now
        r.call_window = None
        self.close_snap()
        return r

    def not_their_turn(self, seat: int) -> None:
        """GEN-7: a step of a turn entered for another seat while the player whose turn it is is in the
        middle of it (between turns, the step's own rule says what is missing)."""
        r = self.r
        if r.turn is not None and seat != r.turn and (r.step != "start"):
            self.refuse("GEN-7", f"It is {self.name(r.turn)}'s turn, not {self.name(seat)}'s.")

    def holding(self, seat: int, what: str) -> Round:
        r = self.round()
        self.no_give_owed()
        self.not_their_turn(seat)
        if r.turn != seat or r.step != "holding":
            if r.turn == seat and r.step in POWER_STEPS:
                self.refuse("CAB-7", f"Resolve {POWER_WORDS[r.step]} first.")
            self.refuse("CAB-3", f"{self.name(seat)} holds no card to {what}: draw or take one first.")
        self.close_snap()
        return r

    def resolving(self, seat: int, steps: tuple[str, ...], what: str) -> Round:
        r = self.round()
        self.no_give_owed()
        self.not_their_turn(seat)
        if r.turn != seat or r.step not in steps:
            self.refuse("CAB-7", f"There is no {what} to resolve: a power is used right after its card is "
                                 "drawn and discarded.")
        # the power is how its card was discarded (CAB-3a, CAB-7), not the next move (GEN-7): the card still
        # lies on top, so it may still be snapped (CAB-6) until the next turn begins
        return r

    def end_turn(self, seat: int) -> None:
        r = self.r
        r.pending, r.pending_from, r.power = None, None, None
        r.step = "start"
        r.turns_done += 1
        r.played = r.played | {seat}
        self.events.append({"kind": "turn_over", "seat": seat})
        if self.deck_out():
            return
        if r.caller is not None:
            r.final_left -= 1
            if r.final_left <= 0:
                self.events.append({"kind": "final_turns_over"})
                self.start_reveal()
                return
        elif self.rules["call_timing"] == "end_of_turn":
            r.call_window = seat
        n = len(self.state.players)
        r.turn = next_seat(r.seats, seat, n)
        if r.turn == r.caller:  # after an overridden out-of-turn play: the caller gets no turn
            r.turn = next_seat(r.seats, r.caller, n)

    def deck_out(self) -> bool:
        """CAB-22, CAB-V13: the round ends once the draw pile has run out (checked at the end of a turn,
        and between turns after a wrong snap's penalty card empties it)."""
        r = self.r
        if not (self.rules["deck_out_ends_round"] and r.draw == 0):
            return False
        r.deck_out = True
        self.events.append({"kind": "deck_out", "rule": "CAB-22",
                            "message": "The draw pile has run out: the round ends (CAB-22)."})
        self.start_reveal()
        return True

    def start_reveal(self) -> None:
        r = self.r
        r.step, r.turn, r.call_window = "reveal", None, None
        r.reveal_flags_from = len(self.state.flags)
        self.refresh_revealed()
        self.maybe_score()

    def refresh_revealed(self) -> None:
        """At the end of a round a layout is turned up once each of its cards lies face up with a known
        value: an empty layout needs nothing (it scores 0, CAB-44), a card left face up (CAB-4) is already
        up. Until the first card is turned up a snap can still empty a layout, or a penalty card fill one."""
        r = self.r
        if r.step == "reveal":
            rows = r.rows
            r.revealed = frozenset(s for s in r.seats if _turned_up(rows[s]))

    # Setup entries ------------------------------------------------------------------------------
    def do_TurnUp(self, move: TurnUp) -> None:
        r = self.round()
        if not r.awaiting_turn_up:
            self.refuse("CAB-1", "The discard pile has already been started.")
        if r.draw == 0:  # pragma: no cover - a deal always leaves a draw pile
            self.refuse("CAB-22", "The draw pile is empty.")
        self.check_supply(move.card)
        r.draw -= 1
        r.discard.append(Token(move.card, self.eid if move.card else None, (), "discard", self.eid))
        r.awaiting_turn_up = False
        self.events.append({"kind": "turned_up", "card": move.card})

    def do_InitialPeek(self, move: InitialPeek) -> None:
        r = self.round()
        if move.seat not in r.seats:
            self.refuse("CAB-2", f"{self.name(move.seat)} is not playing this round.")
        if r.step == "reveal" or move.seat in r.peeked or move.seat in r.played:
            self.refuse("CAB-2", "The first look happens once, before the player's first turn.")
        slots = tuple(sorted(move.slots))
        if len(set(slots)) < len(slots):  # one card cannot show two faces: no override makes it so
            self.refuse("CAB-2", "The first look is at two different cards: one place was given twice.")
        self.check(len(set(slots)) == 2, "CAB-2", "The first look is at two different cards.")
        if self.rules["initial_look"] == "nearest_two":
            self.check(slots == (3, 4), "CAB-2", "The first look is at the two cards nearest you, places 3 "
                                                 "and 4 (the bottom row of the square).")
        if move.seen and len(move.seen) != len(move.slots):
            self.refuse("CAB-2", "Give one card for each place looked at, or none.")
        for slot in move.slots:
            if not 1 <= slot <= START_SLOTS:
                self.refuse("CAB-2", f"The first look is at the cards dealt, places 1 to {START_SLOTS}.")
        for slot, value in zip(move.slots, move.seen):
            if value is None:
                continue
            # the note is about the card dealt there, which a Swap or a Give may have moved since (RTC-K4)
            seat, place = dealt_card_now(r.swaps, move.seat, slot)
            held = r.rows[seat]
            t = held[place - 1] if place <= len(held) else None
            if t is None or t.origin != "deal":
                continue  # that card has left the layouts since (discarded, matched or snapped away)
            held[place - 1] = _with(t, notes=t.notes + ((move.seat, value, self.eid),))
        r.peeked = r.peeked | {move.seat}
        self.events.append({"kind": "initial_peek", "seat": move.seat})

    # Turn entries --------------------------------------------------------------------------------
    def do_Draw(self, move: Draw) -> None:
        r = self.take_turn(move.seat)
        if r.draw == 0:
            if self.rules["deck_out_ends_round"]:
                self.refuse("CAB-22", "The draw pile is empty: take the top discard or call.")
            self.refuse("CAB-22", "The draw pile is empty: shuffle the discard pile, all but its top card, into "
                                  "a new draw pile first (enter a reshuffle).")
        if move.shown:
            self.check_supply(move.card)
        public = move.shown and move.card is not None
        token = Token(move.card if move.shown else None, self.eid if public else None,
                      ((move.seat, move.card, self.eid),) if move.card and not move.shown else (),
                      "draw", self.eid)
        r.draw -= 1
        r.pending, r.pending_from, r.step = token, "draw", "holding"
        self.events.append({"kind": "drawn", "seat": move.seat})

    def do_TakeDiscard(self, move: TakeDiscard) -> None:
        r = self.take_turn(move.seat)
        if not r.discard:
            self.refuse("CAB-3", "The discard pile is empty.")
        if not cards_in(r.rows[move.seat]):
            self.refuse("CAB-3", f"{self.name(move.seat)} has no card to put back in its place: a card taken "
                                 "from the discard pile must replace one.")
        top = r.discard[-1]
        if move.card is not None:
            known = top_rank(r)  # a snap that matched showed the table its rank, not its suit (CAB-6)
            if known is not None and rank(move.card) != known:
                snapped = r.snap_rank[0]
                self.check(False, "CAB-6", f"The top of the discard pile is {card_words(known)} (snapped onto a card "
                                           f"of that rank at entry {snapped}): it cannot be {card_words(move.card)}.",
                           (snapped,))
            top = self.observe(top, move.card)
        r.discard.pop()
        r.snap_rank = None  # whatever the table knew of that card's rank, it is no longer the top
        r.pending = Token(top.value, top.seen, top.notes, "discard", self.eid)
        r.pending_from, r.step = "discard", "holding"
        self.events.append({"kind": "took_discard", "seat": move.seat, "card": top.value})

    def incoming(self) -> Token:
        """The card in hand as it lies in a layout: face up if it came from the discard pile and the
        table keeps such cards face up (CAB-4, CAB-V6)."""
        r = self.r
        face_up = r.pending_from == "discard" and self.rules["discard_taken_face_up"]
        return _with(r.pending, origin=r.pending_from, face_up=face_up)

    def do_Replace(self, move: Replace) -> None:
        r = self.holding(move.seat, "keep")
        old = self.observe(self.card_at(move.seat, move.slot, "CAB-3"), move.out, (move.seat, move.slot))
        r.rows[move.seat][move.slot - 1] = self.incoming()
        r.discard.append(_with(old, face_up=False))
        r.pending = None
        self.events.append({"kind": "replaced", "seat": move.seat, "slot": move.slot, "out": old.value})
        self.open_snap()
        self.end_turn(move.seat)

    def do_Match(self, move: Match) -> None:
        r = self.holding(move.seat, "exchange")
        mode = self.rules["matching_exchange"]
        self.check(mode != "off", "CAB-V4", "This table plays without matching exchanges: keep the card in "
                                            "place of one card, or discard it.")
        if mode == "off":
            mode = "no_penalty"  # overridden: a claim the table's rules do not price costs nothing more
        slots = move.slots
        if len(slots) < 2 or len(set(slots)) != len(slots):
            self.refuse("CAB-5", "A matching exchange turns up two or more different cards of your own.")
        if move.cards and len(move.cards) != len(slots):
            self.refuse("CAB-5", "Give one card for each place turned up, or none.")
        target = slots[0] if move.slot is None else move.slot
        if target not in slots:
            self.refuse("CAB-5", "The card kept takes the place of one of the matched cards.")
        row = r.rows[move.seat]
        shown = []
        for i, slot in enumerate(slots):
            token = self.card_at(move.seat, slot, "CAB-5")
            shown.append(self.observe(token, move.cards[i] if move.cards else None, (move.seat, slot)))  # turned up for all (CAB-K2)
        ranks = {rank(t.value) for t in shown if t.value is not None}
        if all(t.value is not None for t in shown):
            same = len(ranks) == 1
            if move.matched is not None and move.matched != same:
                self.refuse("CAB-5", f"The cards entered ({', '.join(t.value for t in shown)}) "
                                     f"{'all match' if same else 'do not all match'}, but the entry says otherwise.")
        else:
            if move.matched is None:
                self.refuse("CAB-5", "Name every card turned up, or say whether they all matched.")
            if move.matched and len(ranks) > 1:
                self.refuse("CAB-5", "The cards entered do not all match.")
            same = move.matched
        if move.out is not None and (same or mode == "penalty"):
            self.refuse("CAB-5", "The card in hand is kept here, not discarded: only a failed claim without a "
                                 "penalty (1st edition) puts it onto the discard pile.")
        values = [t.value for t in shown]
        if same:
            for slot, token in zip(slots, shown):
                r.discard.append(_with(token, face_up=False))
                row[slot - 1] = None
            row[target - 1] = self.incoming()
            r.pending = None
            self.events.append({"kind": "matched", "seat": move.seat, "slots": list(slots), "cards": values,
                                "slot": target})
            self.open_snap()
        elif mode == "penalty":  # CAB-5, 2nd edition: everything stays, face up, and the card kept is added
            for slot, token in zip(slots, shown):
                row[slot - 1] = _with(token, face_up=True)
            at = self.add_card(move.seat, self.incoming())
            r.pending = None
            extra = len(self.penalty(move.seat, len(slots) - 2, "CAB-5")) if len(slots) > 2 else 0
            self.events.append({"kind": "match_failed", "seat": move.seat, "slots": list(slots), "cards": values,
                                "added": at, "penalty": extra, "rule": "CAB-5",
                                "message": f"The cards do not all match: they stay face up and "
                                           f"{self.name(move.seat)} keeps the new card as well"
                                           f"{f', plus {extra} penalty card' + ('s' if extra > 1 else '') if extra else ''}"
                                           " (CAB-5)."})
        else:  # 1st edition: no penalty; the cards go back face down and the card in hand is discarded
            for slot, token in zip(slots, shown):
                row[slot - 1] = _with(token, face_up=False)
            r.discard.append(_with(self.observe(r.pending, move.out), face_up=False))  # on the pile for all to see
            r.pending = None
            self.events.append({"kind": "match_failed", "seat": move.seat, "slots": list(slots), "cards": values,
                                "rule": "CAB-5",
                                "message": "The cards do not all match: they go back face down and the card in "
                                           "hand is discarded (CAB-5, 1st edition: no penalty)."})
            self.open_snap()
        self.end_turn(move.seat)

    def do_Discard(self, move: Discard) -> None:
        r = self.holding(move.seat, "discard")
        self.check(r.pending_from == "draw", "CAB-3",
                   "A card taken from the discard pile must be kept in place of one of your cards (or of a "
                   "matching set); it cannot be put straight back.", (r.pending.origin_entry,))
        token = self.observe(r.pending, move.card)
        r.discard.append(token)
        r.pending = None
        self.events.append({"kind": "discarded", "seat": move.seat, "card": token.value})
        self.open_snap()
        self.end_turn(move.seat)

    def has_target(self, seat: int, what: str) -> bool:
        """Whether a power has a card to act on (else the card can only be discarded)."""
        r = self.r
        mine = bool(cards_in(r.rows[seat]))
        others = [s for s in r.seats if s != seat and cards_in(r.rows[s])]
        free = [s for s in others if not self.locked(s)]
        if what == "peek":
            return mine
        if what == "spy":
            return bool(others)
        if what == "swap" and self.rules["swap_power_scope"] == "any_two":
            return len([s for s in r.seats if cards_in(r.rows[s]) and not self.locked(s)]) >= 2
        return mine and bool(free)

    def do_UsePower(self, move: UsePower) -> None:
        r = self.round()
        self.no_give_owed()
        self.not_their_turn(move.seat)
        if r.turn != move.seat or r.step != "holding":
            self.refuse("CAB-7", "Powers work only for a card just drawn from the draw pile during your turn.")
        what = power(move.card, self.rules)
        if what is None:
            self.refuse("CAB-7", f"{sentence_card(move.card)} has no power: 7 and 8 peek, 9 and 10 spy, "
                                 f"{'11 and 12' if move.card.isdigit() else 'jacks and queens'} swap"
                                 f"{'' if move.card.isdigit() else ', and look-and-swap cards look then swap'}.")
        self.check(r.pending_from == "draw", "CAB-7",
                   "A card taken from the discard pile gives no power, only its points (CAB-3).",
                   (r.pending.origin_entry,))
        if not self.has_target(move.seat, what):
            self.refuse("CAB-7", f"{sentence_card(move.card)} has no card to act on now: discard it instead.")
        self.close_snap()
        token = self.observe(r.pending, move.card)
        r.discard.append(token)
        r.pending, r.power, r.step = None, what, what
        self.events.append({"kind": "power", "seat": move.seat, "card": move.card, "power": what})
        self.open_snap()

    def do_Peek(self, move: Peek) -> None:
        r = self.resolving(move.seat, ("peek", "spy"), "Peek or Spy")
        target = move.seat if move.target is None else move.target
        if r.step == "peek":
            self.check(target == move.seat, "CAB-7", "A Peek (7 or 8) looks at one of your own cards.")
        else:
            self.check(target != move.seat, "CAB-7", "A Spy (9 or 10) looks at another player's card.")
        if target not in r.seats:
            self.refuse("CAB-7", f"{self.name(target)} has no cards this round.")
        t = self.card_at(target, move.slot, "CAB-7")
        if move.seen is not None:
            r.rows[target][move.slot - 1] = _with(t, notes=t.notes + ((move.seat, move.seen, self.eid),))
        self.events.append({"kind": "peeked", "seat": move.seat, "target": target, "slot": move.slot})
        self.end_turn(move.seat)

    def swap_cards(self, a: int, a_slot: int, b: int, b_slot: int) -> None:
        """Two cards change places, blind: what is known moves with them (RTC-K4); a face-up card goes
        face down in its new place (CAB-K3: public until swapped)."""
        rows = self.r.rows
        x, y = rows[a][a_slot - 1], rows[b][b_slot - 1]
        rows[a][a_slot - 1], rows[b][b_slot - 1] = _with(y, face_up=False), _with(x, face_up=False)
        self.r.swaps = self.r.swaps + ((a, a_slot, b, b_slot),)

    def do_Swap(self, move: Swap) -> None:
        r = self.resolving(move.seat, ("swap",), "Swap")
        if move.slot is None and move.target is None and move.target_slot is None and move.owner is None:
            self.events.append({"kind": "no_swap", "seat": move.seat})  # powers are optional (CAB-7)
            self.end_turn(move.seat)
            return
        if move.slot is None or move.target is None or move.target_slot is None:
            self.refuse("CAB-7", "Name both cards to swap.")
        owner = move.seat if move.owner is None else move.owner
        if self.rules["swap_power_scope"] == "own_other":
            self.check(owner == move.seat, "CAB-V14", "A blind Swap exchanges one of your own cards with "
                                                      "another player's card.")
        self.check(owner != move.target, "CAB-V14", "A Swap exchanges cards of two different players.")
        for s in (owner, move.target):
            if s not in r.seats:
                self.refuse("CAB-7", f"{self.name(s)} has no cards this round.")
        self.card_at(owner, move.slot, "CAB-7")
        self.card_at(move.target, move.target_slot, "CAB-7")
        for s in (owner, move.target):
            self.check(not self.locked(s), "CAB-21", f"{self.name(s)} called: nobody may swap the caller's "
                                                     "cards.")
        self.swap_cards(owner, move.slot, move.target, move.target_slot)
        self.events.append({"kind": "swapped", "seat": move.seat, "owner": owner, "slot": move.slot,
                            "target": move.target, "target_slot": move.target_slot})
        self.end_turn(move.seat)

    def do_LookSwap(self, move: LookSwap) -> None:
        r = self.resolving(move.seat, ("look_swap",), "look-and-swap")
        self.check(move.target != move.seat, "CAB-7", "A look-and-swap looks at one of your own cards and one "
                                                      "of another player's.")
        if move.target not in r.seats:
            self.refuse("CAB-7", f"{self.name(move.target)} has no cards this round.")
        mine = self.card_at(move.seat, move.slot, "CAB-7")
        theirs = self.card_at(move.target, move.target_slot, "CAB-7")
        if move.swap:
            self.check(not self.locked(move.target), "CAB-21", f"{self.name(move.target)} called: nobody may "
                                                               "swap the caller's cards.")
        rows = r.rows
        if move.seen is not None:
            rows[move.seat][move.slot - 1] = _with(mine, notes=mine.notes + ((move.seat, move.seen, self.eid),))
        if move.target_seen is not None:
            rows[move.target][move.target_slot - 1] = _with(
                theirs, notes=theirs.notes + ((move.seat, move.target_seen, self.eid),))
        if move.swap:
            self.swap_cards(move.seat, move.slot, move.target, move.target_slot)
        self.events.append({"kind": "looked", "seat": move.seat, "slot": move.slot, "target": move.target,
                            "target_slot": move.target_slot, "swapped": move.swap})
        self.end_turn(move.seat)

    # Out of turn: snapping (CAB-6) ----------------------------------------------------------------
    def do_Snap(self, move: Snap) -> None:
        r = self.round()
        if not self.rules["snap_enabled"]:
            self.refuse("CAB-V5", "This table plays without snapping.")
        self.no_give_owed()
        if r.scoring:
            self.refuse("CAB-6", "No snapping once the cards are being turned up for scoring.")
        if r.snap_top is None:
            snapped = bool(r.discard) and r.discard[-1].origin == "snap"
            if len(r.discard) == 1 and not snapped:
                self.refuse("CAB-6", "No player has discarded onto this discard pile yet: a snap answers a card a "
                                     "player has just discarded, not the card turned up to start the pile.")
            self.refuse("CAB-6", "A card was already snapped onto this discard: only the first good snap counts, "
                                 "and nobody may snap onto a snapped card." if snapped else
                                 "There is no fresh discard to snap onto: a snap comes before the next move of "
                                 "the player whose turn it is (GEN-7).")
        if move.seat not in r.seats:
            self.refuse("GEN-7", f"{self.name(move.seat)} is not playing this round.")
        if move.seat in r.snap_tried:
            self.refuse("CAB-6", f"{self.name(move.seat)} already snapped wrongly onto this discard.")
        owner = move.seat if move.owner is None else move.owner
        if owner not in r.seats:
            self.refuse("CAB-6", f"{self.name(owner)} has no cards this round.")
        token = self.card_at(owner, move.slot, "CAB-6")
        for s in dict.fromkeys((move.seat, owner)):
            self.check(not self.locked(s), "CAB-21", f"{self.name(s)} called: nobody may snap the caller's cards "
                                                     "or change them.")
        top = r.discard[r.snap_top]
        card = move.card if move.card is not None else self.only_card_matching(token, top, move.matched)
        shown = self.observe(token, card, (owner, move.slot))  # turned up for all (CAB-K2)
        if top.value is not None and shown.value is not None:
            same = rank(top.value) == rank(shown.value)
            if move.matched is not None and move.matched != same:
                self.refuse("CAB-6", f"{sentence_card(shown.value)} {'matches' if same else 'does not match'} "
                                     f"{card_words(top.value)}, but the entry says otherwise.")
        else:
            if move.matched is None:
                self.refuse("CAB-6", "Name the snapped card and the discard it lands on, or say whether they "
                                     "match.")
            same = move.matched
        row = r.rows[owner]
        if same:
            r.discard.append(_with(shown, origin="snap", origin_entry=self.eid, face_up=False))
            if shown.value is None and top.value is not None:  # it matched: its rank is the discard's
                r.snap_rank = (self.eid, rank(top.value))
            row[move.slot - 1] = None
            self.close_snap()
            self.events.append({"kind": "snapped", "seat": move.seat, "owner": owner, "slot": move.slot,
                                "card": shown.value})
            if owner != move.seat and cards_in(r.rows[move.seat]):
                r.give_owed = (move.seat, owner, move.slot)
        else:
            row[move.slot - 1] = _with(shown, face_up=False)
            places = self.penalty(move.seat, self.rules["snap_penalty"], "CAB-6")
            given = len(places)
            r.snap_tried = r.snap_tried | {move.seat}
            self.events.append({"kind": "wrong_snap", "seat": move.seat, "owner": owner, "slot": move.slot,
                                "card": shown.value, "onto": top.value, "penalty": given, "places": places,
                                "rule": "CAB-6",
                                "message": f"{sentence_card(shown.value)} does not match {card_words(top.value)}: "
                                           f"it goes back, and {self.name(move.seat)} takes {given} penalty "
                                           f"card{'s' if given != 1 else ''} (CAB-6)."})
            if r.step == "start" and given and self.deck_out():  # the penalty took the last card
                return
        self.refresh_revealed()
        self.lapse_power()
        self.maybe_score()

    def lapse_power(self) -> None:
        """A snap can leave the power being resolved nothing to act on (the last card it could look at or
        swap is gone): the power lapses and the turn ends (CAB-7: powers are optional)."""
        r = self.r
        if r.step in POWER_STEPS and r.give_owed is None and not self.has_target(r.turn, r.step):
            self.events.append({"kind": "power_lapsed", "seat": r.turn, "rule": "CAB-7",
                                "message": f"{self.name(r.turn)}'s {POWER_WORDS[r.step][2:]} has no card left "
                                           "to act on: the turn ends."})
            self.end_turn(r.turn)

    def do_Give(self, move: Give) -> None:
        r = self.round()
        owed = r.give_owed
        if owed is None or owed[0] != move.seat:
            self.refuse("CAB-6", f"{self.name(move.seat)} owes nobody a card: a card is given only for another "
                                 "player's card snapped away.")
        _, owner, place = owed
        token = self.card_at(move.seat, move.slot, "CAB-6")
        r.rows[move.seat][move.slot - 1] = None
        r.rows[owner][place - 1] = _with(token, face_up=False)
        r.swaps = r.swaps + ((move.seat, move.slot, owner, place),)  # the card and the gap change places
        r.give_owed = None
        self.events.append({"kind": "given", "seat": move.seat, "slot": move.slot, "owner": owner, "place": place})
        self.refresh_revealed()
        self.lapse_power()
        self.maybe_score()

    # Calling and the end of a round --------------------------------------------------------------
    def do_Call(self, move: Call) -> None:
        r = self.round()
        self.no_give_owed()
        if r.caller is not None:
            self.refuse("CAB-20", f"{self.name(r.caller)} has already called this round: only one call per round.")
        if r.step == "reveal":
            self.refuse("CAB-20", "The round is already over.")
        if move.seat not in r.seats:
            self.refuse("GEN-7", f"{self.name(move.seat)} is not playing this round.")
        at_start = r.turn == move.seat and r.step == "start" and not r.awaiting_turn_up
        instead = self.rules["call_timing"] == "instead_of_turn"
        if instead:
            if not at_start:
                self.refuse("CAB-20", "A player calls instead of taking a turn: at the start of their own turn, "
                                      "before drawing.")
        elif r.call_window != move.seat:
            if at_start:
                self.check(False, "CAB-V7", "At this table a player calls at the end of their own turn.")
                instead = True  # overridden: a call instead of the turn
            else:
                self.refuse("CAB-20", "A player calls only at the end of their own turn, before the next player "
                                      "acts.")
        if instead:
            self.close_snap()  # the call is the caller's move (GEN-7)
        r.caller, r.call_window, r.final_left = move.seat, None, len(r.seats) - 1
        self.events.append({"kind": "called", "seat": move.seat})
        if instead:
            r.turns_done += 1
            r.played = r.played | {move.seat}
            r.turn = next_seat(r.seats, move.seat, len(self.state.players))

    def do_Reshuffle(self, move: Reshuffle) -> None:
        r = self.round()
        self.no_give_owed()
        if self.rules["deck_out_ends_round"]:
            self.refuse("CAB-22", "At this table the round ends when the draw pile runs out: there is no "
                                  "reshuffle.")
        if r.draw:
            self.refuse("CAB-22", f"The draw pile still has {r.draw} card(s): reshuffle only when it is empty.")
        if len(r.discard) <= 1:
            self.refuse("CAB-22", "There is no discard pile to reshuffle under its top card.")
        moved = len(r.discard) - 1
        r.draw = moved
        r.discard = r.discard[-1:]
        self.close_snap()
        self.events.append({"kind": "reshuffled", "cards": moved})

    def do_Reveal(self, move: Reveal) -> None:
        r = self.round()
        self.no_give_owed()
        if r.step != "reveal":
            self.refuse("CAB-20", "Cards are turned up only when the round is over: after the call and everyone "
                                  "else's last turn, or when the draw pile runs out (CAB-22).")
        if move.seat not in r.seats:
            self.refuse("CAB-40", f"{self.name(move.seat)} has no cards this round.")
        if move.seat in r.revealed:
            self.refuse("CAB-40", f"{self.name(move.seat)}'s cards are already turned up (correct that entry "
                                  "instead).")
        row = r.rows[move.seat]
        if move.slot is not None:  # one card at a time
            token = self.card_at(move.seat, move.slot, "CAB-40")
            if len(move.cards) != 1:
                self.refuse("CAB-40", f"Name the one card in {self.name(move.seat)}'s place {move.slot}.")
            if token.face_up and token.value is not None:
                self.refuse("CAB-40", f"{self.name(move.seat)}'s place {move.slot} is already face up.")
            turned = [(move.slot, move.cards[0])]
        else:
            held = places(row)
            if len(move.cards) != len(held):
                self.refuse(self.scoring_rule(), f"{self.name(move.seat)} has {len(held)} card"
                                                 f"{'s' if len(held) != 1 else ''}: name each of them, place by place.")
            turned = list(zip(held, move.cards))
        for slot, card in turned:
            token = row[slot - 1]
            if card is None and token.value is None:
                self.refuse("CAB-40", f"Name the card in {self.name(move.seat)}'s place {slot}: the round is "
                                      "scored from every card (a card the table already knows may stay unknown).")
            row[slot - 1] = _with(self.observe(token, card, (move.seat, slot)), face_up=True)
        r.scoring = True
        self.close_snap()
        self.refresh_revealed()
        self.events.append({"kind": "revealed", "seat": move.seat, "slots": [slot for slot, _ in turned],
                            "cards": [row[slot - 1].value for slot, _ in turned]})
        self.maybe_score()

    # Scoring --------------------------------------------------------------------------------------
    def maybe_score(self) -> None:
        """Score the round once every layout is turned up and no flag raised during the reveal is still
        open (GEN-4, GEN-5)."""
        r = self.r
        if r is None or not reveal_complete(r):
            return
        s = self.state
        players = s.players
        for seat, noted, at, value, seen_at, *lies in r.conflicts:  # GEN-6: private notes, checked at the end
            if lies:  # whose place the card showed in (older snapshots do not say)
                self.flag("GEN-4", f"{players[seat]} noted {card_words(noted)} at entry {at}, but the card in "
                                   f"{players[lies[0]]}'s place {lies[1]} showed {card_words(value)} at entry "
                                   f"{seen_at}.", (at, seen_at))
                continue
            self.flag("GEN-4", f"{players[seat]} noted {card_words(noted)} at entry {at}, but the card showed "
                               f"{card_words(value)} at entry {seen_at}.", (at, seen_at))
        r.conflicts = ()
        waiting = awaiting_flags(s)
        if waiting:
            self.events.append({"kind": "round_held", "round": r.number, "flags": list(waiting), "rule": "GEN-5",
                                "message": "The round is scored once the table has accepted or overridden "
                                           f"flag{'s' if len(waiting) > 1 else ''} "
                                           f"{', '.join(map(str, waiting))}."})
            return
        rows = r.rows
        cards = {seat: tuple([t.value for t in rows[seat] if t is not None]) for seat in r.seats}
        sums, scores, winners, why, kamikaze = round_scores(cards, r.caller, s.rules, players, r.deck_out)
        totals = list(s.totals)
        for seat, score in scores.items():
            totals[seat] += score
        reset, s.resets_used = resets(totals, r.seats, s.rules["exact_100_reset"], s.resets_used)
        if reset:
            why += (f" {', '.join(players[x] for x in reset)} reached exactly 100 and "
                    f"drop{'s' if len(reset) == 1 else ''} to 50 (CAB-43).")
        s.totals = tuple(totals)
        result = RoundResult(r.number, r.dealer, r.seats, r.caller, MappingProxyType(cards),
                             MappingProxyType(sums), MappingProxyType(scores), winners, why, kamikaze, reset,
                             r.deck_out)
        s.history = s.history + (result,)
        self.events.append({"kind": "round_scored", "round": r.number, "scores": dict(scores),
                            "winners": list(winners), "explanation": why})
        self.next_round(result)

    def next_round(self, result: RoundResult) -> None:
        s = self.state
        rules = s.rules
        seats = result.seats
        if rules["game_end"] == "over_100":
            over = [x for x in seats if s.totals[x] > 100]
            if over:
                self.finish(lowest_totals(s.totals, seats),
                            f"{', '.join(s.players[x] for x in over)} went over 100 and the lowest total wins, CAB-43")
                return
        elif len(s.history) >= rules["rounds_n"]:
            played = len(s.history)
            self.finish(lowest_totals(s.totals, seats),
                        f"lowest total after {played} round{'' if played == 1 else 's'}, CAB-V12")
            return
        dealer, first = next_order(result.scores, s.totals, seats, result.dealer, len(s.players),
                                   rules["next_round_order"], result.winners)
        s.round = self.r = deal(s.players, rules, result.number + 1, dealer, first, self.eid + 1)

    def finish(self, winners: tuple[int, ...], why: str) -> None:
        s = self.state
        s.over, s.winners, s.round, self.r = True, tuple(winners), None, None
        s.outcome = match_outcome(winners, s.totals, s.players, why)
        self.events.append({"kind": "match_over", "winners": list(winners), "explanation": s.outcome})
