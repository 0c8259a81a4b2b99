"""Applying entries to a Rat-a-Tat Cat match: the deal (RTC-3, RTC-4), one entry at a time
(``apply``), scoring a round (RTC-44, RTC-51) and the next round or the end of the match (RTC-52..54).

``apply`` validates one entry against the rules and the house rules and returns the next state and the
events it caused, or raises a :class:`Ruling` with the state it was given unchanged.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterable, Mapping

from .base import EntryError, Ruling, normalise_players, resolve_rules, seat_index
from .cards import sentence_start
from .hidden4_entry import Entry, dealt_card_now
from .ratatat_cards import RTC_DECKS, card_words, is_power, rtc_points
from .ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle, Reveal, RevealDraw,
                            Stalemate, Swap, TakeDiscard, TimeUp, TurnUp, UsePower)
from .ratatat_rules import MAX_PLAYERS, MIN_PLAYERS, SLOTS, VARIANTS
from .ratatat_scoring import eliminated_now, lowest_totals, match_winners_sentence, round_winners
from .ratatat_state import (HIDDEN, TITLE, Round, RoundDraft, RoundResult, State, StateDraft, Token,
                            awaiting_flags, draft, freeze, frozen_rules, next_seat, reveal_complete)
from .ratatat_view import legal_moves

# --- Setting up --------------------------------------------------------------------------------


def new_match(players: Iterable[str], rules: Mapping[str, Any] | None = None,
              dealer: int | str | None = None) -> State:
    """A match ready for its first round. The dealer defaults to the last player, so the first
    player listed takes the first turn (RTC-8)."""
    if isinstance(players, (str, bytes, dict)) or not hasattr(players, "__iter__"):
        raise EntryError("players", "a list of player names")
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise Ruling("RTC-1", f"Rat-a-Tat Cat is for {MIN_PLAYERS}–{MAX_PLAYERS} players, "
                              f"not {len(players)}.", overridable=False)
    players = normalise_players(players)
    rules = frozen_rules(resolve_rules(VARIANTS, dict(rules or {})))
    first_dealer = len(players) - 1 if dealer is None else seat_index(dealer, players, "dealer")
    first = deal(players, rules, 1, first_dealer, tuple(range(len(players))), tiebreak=False, first_entry=0)
    return State(players=players, rules=rules, version=0, round=first, totals=(0,) * len(players),
                 history=(), eliminated=frozenset(), over=False, winners=(), outcome="", flags=(),
                 time_up=False, overrides=())


def deal(players: tuple[str, ...], rules: Mapping[str, Any], number: int, dealer: int,
         seats: tuple[int, ...], tiebreak: bool, first_entry: int) -> Round:
    """The deal (RTC-3, RTC-4): four face-down cards per player; the discard pile is not yet started.
    ``first_entry`` is the number of the round's first entry (what a transcript download redacts)."""
    deck_size = sum(RTC_DECKS[rules["edition"]].values())
    outer = Token(face_up=True)
    row = (outer, HIDDEN, HIDDEN, outer) if rules["initial_peek"] == "outer_face_up" else (HIDDEN,) * SLOTS
    return Round(
        number=number, dealer=dealer, seats=seats, draw=deck_size - SLOTS * len(seats), discard=(),
        rows=tuple(row if s in seats else () for s in range(len(players))),
        turn=next_seat(seats, dealer, len(players)), step="start", pending=None, pending_from=None,
        power=None, d2_left=0, d2_active=False, d2_turn=False, extra_turns=0, caller=None, final_left=0,
        turns_done=0, call_window=None, d2_over_seat=None, awaiting_turn_up=True, revealed=frozenset(),
        to_replace=(), peeked=frozenset(), played=frozenset(), conflicts=(), tiebreak=tiebreak,
        first_entry=first_entry, reveal_flags_from=None)


# --- Applying entries --------------------------------------------------------------------------


def entry_outcome(state: State, move: Any) -> dict[str, Any] | None:
    """What an entry came to beyond its own fields, for its words in the history: ``face_up`` for the
    first look at the outer cards where the table turns them face up for all (RTC-V8 outer_face_up),
    which is no secret look. None for any other entry."""
    if type(move) is InitialPeek and state.rules.get("initial_peek") == "outer_face_up":
        return {"face_up": True}
    return None


def apply(state: State, move: Any, entry_id: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Apply one entry. Returns the new state and the events it caused; raises :class:`Ruling`
    (REJECT) with ``state`` unchanged when the rules refuse it. ``entry_id`` numbers the entry in the
    log (default: the count of entries applied so far); rulings and flags point at these numbers."""
    eid = state.version if entry_id is None else entry_id
    ctx = _Turn(state, eid)
    ctx.run(move)
    ctx.state.version = state.version + 1
    return freeze(ctx.state), ctx.events


class _Turn(Entry):
    """One entry being applied: checks raise rulings; effects change a draft of the state (its piles
    are lists), which ``apply`` freezes once the entry stands. The checks, overrides, flags and what
    the table knows of a card are the family's (``hidden4_entry.Entry``)."""

    TITLE = TITLE
    OVER_RULE = "RTC-52"
    PLACE = "slot"

    def card_text(self, value: str) -> str:
        """A power card by its name ("Swap", as printed on it), not its code ("SWAP"); a number as it is."""
        words = card_words(value)
        return words.split(" ", 1)[1] if is_power(value) else value

    def __init__(self, state: State, eid: int):
        self.state: StateDraft = draft(state)
        self.r: RoundDraft | None = self.state.round
        self.eid = eid
        self.events: list[dict[str, Any]] = []
        self.waive: frozenset[str] = frozenset()
        self.waived: dict[str, tuple[str, tuple[int, ...]]] = {}  # rule -> (message, entries)

    # Turn order -----------------------------------------------------------------------------
    def take_turn(self, seat: int) -> Round:
        """``seat`` starts or continues its turn with ``what`` (GEN-7, RTC-34, RTC-42)."""
        r = self.round()
        if r.awaiting_turn_up:
            first = not r.discard and r.turns_done == 0 and r.pending is None
            self.refuse("RTC-5" if first else "RTC-18",
                        "Turn up the top card of the draw pile to start the discard pile first.")
        if r.step == "reveal" and seat == r.d2_over_seat and r.caller is not None and not r.revealed:
            self.check(False, "RTC-34", f"{self.name(seat)}'s Draw 2 is over: the card drawn was used "
                                        "or both draws were taken, so there is no further draw.")
            # overridden: the table lets the last final turn go on; it ends the final turns again
            r.step, r.turn, r.final_left, r.reveal_flags_from = "start", seat, 1, None
            r.turns_done -= 1
            r.call_window = r.d2_over_seat = None
            return r
        if r.step == "reveal":
            if seat == r.caller:
                self.refuse("RTC-42", f"{self.name(seat)} called and gets no more turns; "
                                      "the round is over, reveal the cards.")
            self.refuse("RTC-43", "The final turns are over: reveal the cards.")
        if seat == r.caller:
            self.refuse("RTC-42", f"{self.name(seat)} called: the caller takes no more turns, "
                                  "every other player takes one.")
        if seat not in r.seats:
            self.refuse("GEN-7", f"{self.name(seat)} is not playing this round.")
        if seat != r.turn:
            more = seat == r.d2_over_seat and r.step == "start"
            if more:
                self.check(False, "RTC-34", f"{self.name(seat)}'s Draw 2 is over: the card drawn was used "
                                            "or both draws were taken, so there is no further draw.")
            else:
                self.check(False, "GEN-7", f"It is {self.name(r.turn)}'s turn, not {self.name(seat)}'s.")
            if r.step != "start" or r.d2_active or r.extra_turns:
                self.refuse("GEN-7", f"{self.name(r.turn)} is in the middle of a turn.")
            r.turn = seat  # overridden: the table lets this player take a turn now
            if more:  # a further draw is the same turn going on: it takes nobody's final turn (RTC-42)
                r.turns_done -= 1
                if r.caller is not None:
                    r.final_left += 1
        r.call_window = None
        r.d2_over_seat = None
        return r

    def not_their_turn(self, seat: int) -> None:
        """GEN-7: a step of a turn entered for another seat while the player whose turn it is is in the
        middle of it (between turns, the step's own rule says what is missing)."""
        r = self.r
        if r.turn is not None and seat != r.turn and (r.step != "start" or r.d2_active or r.extra_turns):
            self.refuse("GEN-7", f"It is {self.name(r.turn)}'s turn, not {self.name(seat)}'s.")

    def holding(self, seat: int, what: str) -> Round:
        r = self.round()
        self.not_their_turn(seat)
        if r.turn != seat or r.step != "holding":
            if r.turn == seat and r.step in ("peek", "swap"):
                self.refuse("RTC-13", f"Resolve the {card_words(r.power)[2:]} first.")
            self.refuse("RTC-13", f"{self.name(seat)} holds no card to {what}: draw or take one first.")
        return r

    def end_turn(self, seat: int) -> None:
        r = self.r
        r.d2_over_seat = seat if r.d2_turn else None
        r.pending, r.pending_from, r.power, r.d2_turn = None, None, None, False
        r.step = "start"
        r.d2_active, r.d2_left = False, 0
        r.turns_done += 1
        r.played = r.played | {seat}
        self.events.append({"kind": "turn_over", "seat": seat})
        if r.extra_turns:
            r.extra_turns -= 1
            return
        if r.caller is not None:
            r.final_left -= 1
            if r.final_left <= 0:
                r.step, r.turn = "reveal", None
                r.reveal_flags_from = len(self.state.flags)
                self.events.append({"kind": "final_turns_over"})
                return
        else:
            r.call_window = seat
        r.turn = next_seat(r.seats, seat, len(self.state.players))
        if r.turn == r.caller:  # after an overridden out-of-turn play: the caller gets no turn (RTC-42)
            r.turn = next_seat(r.seats, r.caller, len(self.state.players))

    # Setup entries --------------------------------------------------------------------------
    def do_TurnUp(self, move: TurnUp) -> None:
        r = self.round()
        if not r.awaiting_turn_up:
            self.refuse("RTC-5", "The discard pile has already been started.")
        if r.draw == 0:
            self.refuse("RTC-18", "The draw pile is empty: reshuffle the discard pile first.")
        if is_power(move.card):
            self.check_supply(move.card)  # GEN-3: seen face up, even if it goes back into the draw pile
            r.returned = move.card
            self.events.append({"kind": "returned", "card": move.card, "rule": "RTC-5",
                                "message": f"{sentence_start(card_words(move.card))} cannot start the discard "
                                           "pile: it goes back into the draw pile, which is shuffled; "
                                           "turn up the next card."})
            return
        self.check_supply(move.card)
        r.draw -= 1
        r.discard.append(Token(move.card, self.eid if move.card else None, (), "discard", self.eid))
        r.awaiting_turn_up, r.returned = False, None
        self.events.append({"kind": "turned_up", "card": move.card})

    def do_InitialPeek(self, move: InitialPeek) -> None:
        """RTC-6: the two cards a player looked at when they were dealt, noted (privately) on those cards,
        wherever Swaps made since have taken them."""
        r = self.round()
        mode = self.state.rules["initial_peek"]
        if move.seat not in r.seats:
            self.refuse("RTC-6", f"{self.name(move.seat)} is not playing this round.")
        if move.seat in r.peeked or move.seat in r.played:
            self.refuse("RTC-6", "The initial peek happens once, before the player's first turn.")
        slots = tuple(sorted(move.slots))
        if len(set(slots)) < len(slots):  # one card cannot show two faces: no override makes it so
            self.refuse("RTC-6", "The initial peek is at two different cards: one slot was given twice.")
        if mode == "any_two":
            self.check(len(set(slots)) == 2, "RTC-6", "The initial peek is at two different cards (RTC-V8 any_two).")
        else:
            self.check(slots == (1, SLOTS), "RTC-6", "The initial peek is at the two outer cards, slots 1 and 4.")
        if move.seen and len(move.seen) != len(move.slots):
            self.refuse("RTC-6", "Give one card for each slot looked at, or none.")
        row = r.rows[move.seat]
        for slot, value in zip(move.slots, move.seen):
            if value is None:
                continue
            if mode == "outer_face_up":
                row[slot - 1] = self.observe(row[slot - 1], value, (move.seat, slot))
                continue
            # the note is about the card dealt there, which a Swap may have taken to another row (RTC-K4)
            seat, place = dealt_card_now(r.swaps, move.seat, slot)
            token = r.rows[seat][place - 1]
            if token.origin != "deal":
                continue  # that card has left the rows since (replaced, face up on the discard pile)
            r.rows[seat][place - 1] = Token(token.value, token.seen, token.notes + ((move.seat, value, self.eid),),
                                            token.origin, token.origin_entry, token.face_up)
        r.peeked = r.peeked | {move.seat}
        self.events.append({"kind": "initial_peek", "seat": move.seat})

    # Turn entries ---------------------------------------------------------------------------
    def do_Draw(self, move: Draw) -> None:
        r = self.round()
        rules = self.state.rules
        if r.turn == move.seat and r.step == "holding":
            self.refuse("RTC-10", f"{self.name(move.seat)} already holds a card: replace a card with it "
                                  "or discard it.")
        if r.turn == move.seat and r.step in ("peek", "swap"):
            self.refuse("RTC-13", f"Resolve the {card_words(r.power)[2:]} first.")
        r = self.take_turn(move.seat)
        if r.draw == 0:
            self.refuse("RTC-18", "The draw pile is empty: shuffle the discard pile into a new draw pile "
                                  "(enter a reshuffle) and turn up a new discard first.")
        public = move.shown or rules["seed_reveal_then_choose"]
        if public:
            self.check_supply(move.card)
        token = Token(move.card if public else None, self.eid if public and move.card else None,
                      ((move.seat, move.card, self.eid),) if move.card and not public else (),
                      "draw", self.eid)
        r.draw -= 1
        r.pending, r.pending_from, r.step = token, "draw", "holding"
        if r.d2_active:
            r.d2_left -= 1
        self.events.append({"kind": "drawn", "seat": move.seat})

    def do_TakeDiscard(self, move: TakeDiscard) -> None:
        r = self.round()
        rules = self.state.rules
        swap_drawn = (rules["seed_reveal_then_choose"] and r.turn == move.seat and r.step == "holding"
                      and r.pending_from == "draw" and not r.d2_active)
        if not swap_drawn:
            if r.turn == move.seat and r.step == "holding":
                self.refuse("RTC-10", f"{self.name(move.seat)} already holds a card: take exactly one card "
                                      "per turn.")
            if r.turn == move.seat and r.step in ("peek", "swap"):
                self.refuse("RTC-13", f"Resolve the {card_words(r.power)[2:]} first.")
            r = self.take_turn(move.seat)
        if r.d2_active:
            self.check(rules["draw2_source"] == "discard_allowed", "RTC-35",
                       "Both Draw 2 draws come from the draw pile, never from the discard pile.")
        if not r.discard:
            self.refuse("RTC-18", "The discard pile is empty: turn up a card to start it first.")
        top = r.discard[-1]
        if move.card is not None:
            top = self.observe(top, move.card)
        if is_power(top.value):
            allowed = rules["power_from_discard"] == "allowed_no_power"
            self.check(allowed, "RTC-12", f"{sentence_start(card_words(top.value))} on the discard pile cannot be "
                                          "taken: a discarded power card is out of play.", (top.seen,))
        r.discard.pop()
        if swap_drawn:  # RTC-V20: the drawn card not chosen goes to the discard pile
            r.discard.append(Token(r.pending.value, r.pending.seen, r.pending.notes, "discard", self.eid))
        r.pending = Token(top.value, top.seen, top.notes, "discard", self.eid)
        r.pending_from, r.step = "discard", "holding"
        if r.d2_active:
            r.d2_left -= 1
        self.events.append({"kind": "took_discard", "seat": move.seat, "card": top.value})

    def do_Replace(self, move: Replace) -> None:
        r = self.holding(move.seat, "put into the row")
        rules = self.state.rules
        known = r.pending.value or r.pending.noted_by(move.seat)
        if is_power(known) and r.pending_from == "draw":
            drawn_at = (r.pending.origin_entry,) if r.pending.origin_entry is not None else ()
            self.check(rules["power_into_row"] == "allowed", "RTC-15",
                       "Under this table's rules (RTC-V5 forbidden) a drawn power card may only be used or "
                       "discarded, not put into the row.", drawn_at)
            self.check(rules["power_use_optional"], "RTC-30",
                       "Under this table's rules (RTC-V6) a drawn power card must be used.", drawn_at)
        row = r.rows[move.seat]
        old = self.observe(row[move.slot - 1], move.out, (move.seat, move.slot))
        incoming = r.pending
        row[move.slot - 1] = Token(incoming.value, incoming.seen, incoming.notes, r.pending_from,
                                   incoming.origin_entry)
        r.discard.append(old)
        self.events.append({"kind": "replaced", "seat": move.seat, "slot": move.slot, "out": old.value})
        self.end_turn(move.seat)

    def do_Discard(self, move: Discard) -> None:
        r = self.holding(move.seat, "discard")
        self.check(r.pending_from == "draw", "RTC-11",
                   "A card taken from the discard pile must replace one of your cards; it cannot be put "
                   "straight back.", (r.pending.origin_entry,))
        token = self.observe(r.pending, move.card)
        if is_power(token.value):
            self.check(self.state.rules["power_use_optional"], "RTC-30",
                       "Under this table's rules (RTC-V6) a drawn power card must be used.")
        r.discard.append(token)
        r.pending = None
        self.events.append({"kind": "discarded", "seat": move.seat, "card": token.value})
        if r.d2_active and r.d2_left > 0:
            r.step = "start"  # RTC-34: the first card was discarded unused, draw the second
            return
        self.end_turn(move.seat)

    def do_UsePower(self, move: UsePower) -> None:
        r = self.round()
        if move.from_slot is not None:
            self.refuse("RTC-7", "A power card in a row has no power: powers work only for a card just drawn "
                                 "from the draw pile (RTC-19).")
        self.not_their_turn(move.seat)
        if r.turn != move.seat or r.step != "holding":
            self.refuse("RTC-19", "Powers work only for a card just drawn from the draw pile during your turn.")
        if not is_power(move.card):
            self.refuse("RTC-13", f"{sentence_start(card_words(move.card))} is not a power card.")
        self.check(r.pending_from == "draw", "RTC-19",
                   "A card taken from the discard pile gives no power (RTC-11); powers work only for a card "
                   "drawn from the draw pile.", (r.pending.origin_entry,))
        token = self.observe(r.pending, move.card)
        r.discard.append(token)
        r.pending, r.power = None, move.card
        self.events.append({"kind": "power", "seat": move.seat, "card": move.card})
        r.d2_active, r.d2_left = False, 0  # using the card ends any Draw 2 sequence (RTC-34)
        if move.card in ("PEEK", "SUPERPEEK"):
            r.step = "peek"
        elif move.card == "SWAP":
            r.step = "swap"
        elif self.state.rules["draw2_mode"] == "official_forfeit":
            r.d2_active, r.d2_left, r.step = True, 2, "start"  # a fresh sequence (RTC-34, RTC-36)
            r.d2_turn = True
        else:
            r.extra_turns += 2  # RTC-37: two full extra turns
            self.end_turn(move.seat)

    def do_Peek(self, move: Peek) -> None:
        r = self.round()
        self.not_their_turn(move.seat)
        if r.turn != move.seat or r.step != "peek":
            self.refuse("RTC-31", "There is no Peek to resolve: a Peek is used right after it is drawn.")
        target = move.seat if move.target is None else move.target
        if target not in r.seats:
            self.refuse("RTC-31", f"{self.name(target)} has no cards this round.")
        if target != move.seat and r.power != "SUPERPEEK":
            self.check(self.state.rules["peek_scope"] == "any_table_card", "RTC-31",
                       "A Peek looks at one of your own cards.")
        if move.seen is not None:
            row = r.rows[target]
            t = row[move.slot - 1]
            row[move.slot - 1] = Token(t.value, t.seen, t.notes + ((move.seat, move.seen, self.eid),),
                                       t.origin, t.origin_entry, t.face_up)
        self.events.append({"kind": "peeked", "seat": move.seat, "target": target, "slot": move.slot})
        self.end_turn(move.seat)

    def do_Swap(self, move: Swap) -> None:
        r = self.round()
        self.not_their_turn(move.seat)
        if r.turn != move.seat or r.step != "swap":
            self.refuse("RTC-32", "There is no Swap to resolve: a Swap is used right after it is drawn.")
        if move.slot is None and move.target is None and move.target_slot is None:
            self.check(self.state.rules["power_use_optional"] or Swap(move.seat) in legal_moves(self.state, move.seat),
                       "RTC-30", "Under this table's rules (RTC-V6) a drawn Swap must be used.")
            self.events.append({"kind": "no_swap", "seat": move.seat})
            self.end_turn(move.seat)
            return
        if move.slot is None or move.target is None or move.target_slot is None:
            self.refuse("RTC-32", "Name your card and the other player's card to swap.")
        if move.target not in r.seats:
            self.refuse("RTC-33", f"{self.name(move.target)} has no cards this round.")
        self.check(move.target != move.seat, "RTC-33",
                   "A Swap exchanges one of your cards with a card of another player, not two of your own.")
        if move.target == r.caller:
            self.check(not self.state.rules["caller_protected_after_call"], "RTC-33",
                       f"Under this table's rules (RTC-V11) the caller {self.name(r.caller)}'s cards are "
                       "locked after the call.")
        mine, theirs = r.rows[move.seat], r.rows[move.target]
        a, b = mine[move.slot - 1], theirs[move.target_slot - 1]
        self.check(not (a.face_up or b.face_up), "RTC-33",
                   "With the outer cards face up (RTC-V8 outer_face_up) only face-down cards may be swapped.")
        mine[move.slot - 1], theirs[move.target_slot - 1] = b, a  # knowledge follows the cards (RTC-K4)
        r.swaps = r.swaps + ((move.seat, move.slot, move.target, move.target_slot),)
        self.events.append({"kind": "swapped", "seat": move.seat, "slot": move.slot, "target": move.target,
                            "target_slot": move.target_slot})
        self.end_turn(move.seat)

    def do_Call(self, move: Call) -> None:
        r = self.round()
        rules = self.state.rules
        if r.caller is not None:
            self.refuse("RTC-41", f"{self.name(r.caller)} has already called this round: only one call "
                                  "per round.")
        if r.step == "reveal":
            self.refuse("RTC-41", "The round is already over.")
        if move.seat not in r.seats:
            self.refuse("GEN-7", f"{self.name(move.seat)} is not playing this round.")
        at_start = (r.turn == move.seat and r.step == "start" and not r.d2_active and not r.extra_turns
                    and not r.awaiting_turn_up)
        instead = rules["call_timing"] == "instead_of_turn"
        if instead:
            if not at_start:
                self.refuse("RTC-20", "Under this table's rules (RTC-V9) a player calls instead of taking "
                                      "a turn, at the start of their own turn.")
        elif r.call_window != move.seat:
            if at_start:
                self.check(False, "RTC-40", "A player calls at the end of their own turn, after taking a "
                                            "card (RTC-20: calling is not a turn).")
                instead = True  # overridden: treated as a call instead of the turn
            else:
                self.refuse("RTC-40", "A player calls only at the end of their own turn, before the next "
                                      "player acts.")
        n = len(r.seats)
        need = rules["min_rotations_before_call"]
        self.check(r.turns_done // n >= need, "RTC-45",
                   f"Under this table's rules (RTC-V10) nobody may call before {need} full round(s) of turns.")
        r.caller, r.call_window, r.final_left = move.seat, None, n - 1
        self.events.append({"kind": "called", "seat": move.seat})
        if instead:
            r.turns_done += 1
            r.played = r.played | {move.seat}
            r.turn = next_seat(r.seats, move.seat, len(self.state.players))

    def do_Reshuffle(self, move: Reshuffle) -> None:
        r = self.round()
        if r.draw:
            self.refuse("RTC-18", f"The draw pile still has {r.draw} card(s): reshuffle only when it is empty.")
        keep = self.state.rules["reshuffle_keeps_top_discard"] and bool(r.discard)
        moved = len(r.discard) - (1 if keep else 0)
        if moved <= 0:
            self.refuse("RTC-18", "There is no discard pile to reshuffle.")
        r.draw = moved
        r.discard = r.discard[-1:] if keep else []
        r.awaiting_turn_up = not keep
        self.events.append({"kind": "reshuffled", "cards": moved})

    def do_TimeUp(self, move: TimeUp) -> None:
        self.round()
        if self.state.rules["game_end_mode"] != "timed":
            self.refuse("RTC-52", "This match is not timed.")
        if self.state.time_up:
            self.refuse("RTC-52", "Time was already called.")
        self.state.time_up = True
        self.events.append({"kind": "time_up"})

    def do_Stalemate(self, move: Stalemate) -> None:
        r = self.round()
        need = self.state.rules["stalemate_rotations"]
        if need is None:
            self.refuse("RTC-46", "A round ends only by a call (RTC-V18 stalemate is off at this table).")
        if r.caller is not None or r.step != "start" or r.d2_active or r.extra_turns:
            self.refuse("RTC-46", "A stalemate can be declared only between turns, before any call.")
        self.check(r.turns_done // len(r.seats) >= need, "RTC-46",
                   f"A stalemate needs {need} full round(s) of turns without a call.")
        r.step, r.turn, r.call_window = "reveal", None, None
        r.reveal_flags_from = len(self.state.flags)
        self.events.append({"kind": "stalemate"})

    # Reveal and scoring ---------------------------------------------------------------------
    def do_Reveal(self, move: Reveal) -> None:
        r = self.round()
        rules = self.state.rules
        if r.step != "reveal":
            self.refuse("RTC-43", "Cards are revealed only when the round is over: after the call and the "
                                  "final turns (RTC-42).")
        if move.seat not in r.seats:
            self.refuse("RTC-43", f"{self.name(move.seat)} has no cards this round.")
        if move.seat in r.revealed:
            self.refuse("RTC-43", f"{self.name(move.seat)}'s cards are already revealed (correct that entry "
                                  "instead).")
        if len(move.cards) != SLOTS or any(c is None for c in move.cards):
            self.refuse("RTC-50", f"Name all {SLOTS} cards: the round is scored from them.")
        row = r.rows[move.seat]
        for i, card in enumerate(move.cards):
            token = self.observe(row[i], card, (move.seat, i + 1))
            row[i] = token
            if is_power(card) and token.origin == "draw":
                if rules["power_into_row"] == "forbidden" and not self.allowed_when_placed(token, "RTC-15"):
                    self.flag("RTC-15", f"{self.name(move.seat)}'s slot {i + 1} shows {card_words(card)} "
                                        f"placed there from a draw (entry {token.origin_entry}); this table "
                                        "forbids drawn power cards in the row (RTC-V5, RTC-K7).",
                              (token.origin_entry, self.eid))
                elif not rules["power_use_optional"] and not self.allowed_when_placed(token, "RTC-30"):
                    self.flag("RTC-30", f"{self.name(move.seat)}'s slot {i + 1} shows {card_words(card)} "
                                        f"placed there from a draw (entry {token.origin_entry}); this table "
                                        "requires drawn powers to be used (RTC-V6).",
                              (token.origin_entry, self.eid))
            if is_power(card):
                r.to_replace = r.to_replace + ((move.seat, i + 1),)
        r.revealed = r.revealed | {move.seat}
        self.events.append({"kind": "revealed", "seat": move.seat, "cards": list(move.cards)})
        self.maybe_score()

    def allowed_when_placed(self, token: Token, rule: str) -> bool:
        """RTC-K7 is a breach found at the reveal; a power card the table saw placed and let stand by an
        override (GEN-5) was decided then, and is not flagged again."""
        return any(waived == rule and token.origin_entry in entries[1:]
                   for _, waived, _, _, _, entries in self.state.overrides)

    def do_RevealDraw(self, move: RevealDraw) -> None:
        r = self.round()
        if (move.seat, move.slot) not in r.to_replace:
            self.refuse("RTC-44", f"{self.name(move.seat)}'s slot {move.slot} holds no revealed power card "
                                  "to replace.")
        if move.card is None:
            self.refuse("RTC-44", "Name the card drawn to replace the power card.")
        from_draw = self.state.rules["reveal_replacement_source"] == "draw_pile" or all(
            is_power(t.value) for t in r.discard)  # V12 with no number card left to take: draw pile
        if from_draw:
            if r.draw == 0 or r.awaiting_turn_up:
                self.refuse("RTC-18", "The draw pile is empty: reshuffle the discard pile first (RTC-A8).")
            self.check_supply(move.card)
            r.draw -= 1
            drawn = Token(move.card, self.eid, (), "reveal", self.eid)
        else:
            if not r.discard:
                self.refuse("RTC-44", "The discard pile is empty.")
            drawn = self.observe(r.discard.pop(), move.card)
            drawn = Token(drawn.value, drawn.seen, drawn.notes, "reveal", self.eid)
        # RTC-V12 discard_pile: power cards go *under* the discard pile, else the next replacement
        # would take the same power card again and the reveal could never end.
        at = len(r.discard) if from_draw else 0
        if is_power(move.card):  # RTC-44, RTC-A7: discard it and draw again
            r.discard.insert(at, drawn)
            self.events.append({"kind": "reveal_draw_power", "seat": move.seat, "slot": move.slot,
                                "card": move.card})
            return
        row = r.rows[move.seat]
        r.discard.insert(at, row[move.slot - 1])
        row[move.slot - 1] = drawn
        r.to_replace = tuple(x for x in r.to_replace if x != (move.seat, move.slot))
        self.events.append({"kind": "reveal_draw", "seat": move.seat, "slot": move.slot, "card": move.card})
        self.maybe_score()

    def maybe_score(self) -> None:
        """Score the round once every card is revealed and replaced (RTC-44) and no flag raised
        during its reveal is still open (GEN-4, GEN-5): the table decides each one first."""
        r = self.r
        if r is None or not reveal_complete(r):
            return
        s = self.state
        players = s.players
        for seat, noted, at, value, seen_at, *lies in r.conflicts:  # GEN-6: private notes, checked at the end
            if lies:  # whose slot the card showed in (older snapshots do not say)
                self.flag("GEN-4", f"{players[seat]} noted {card_words(noted)} at entry {at}, but the card in "
                                   f"{players[lies[0]]}'s slot {lies[1]} showed {value} at entry {seen_at}.",
                          (at, seen_at))
                continue
            self.flag("GEN-4", f"{players[seat]} noted {card_words(noted)} at entry {at}, but the card showed "
                               f"{value} at entry {seen_at}.", (at, seen_at))
        r.conflicts = ()
        waiting = awaiting_flags(s)
        if waiting:
            self.events.append({"kind": "round_held", "round": r.number, "flags": list(waiting),
                                "rule": "GEN-5",
                                "message": "The round is scored once the table has accepted or overridden "
                                           f"flag{'s' if len(waiting) > 1 else ''} "
                                           f"{', '.join(map(str, waiting))}."})
            return
        cards = {seat: tuple(t.value for t in r.rows[seat]) for seat in r.seats}
        scores = {seat: sum(rtc_points(v) for v in cards[seat]) for seat in r.seats}
        winners, why = round_winners(scores, r.caller, s.rules["tie_policy"], players)
        totals = list(s.totals)
        for seat, score in scores.items():
            totals[seat] += score
        s.totals = tuple(totals)
        result = RoundResult(r.number, r.dealer, r.seats, r.caller, MappingProxyType(cards), MappingProxyType(scores),
                             winners, why, r.tiebreak)
        s.history = s.history + (result,)
        self.events.append({"kind": "round_scored", "round": r.number, "scores": dict(scores),
                            "winners": list(winners), "explanation": why})
        self.next_round(result)

    def next_round(self, result: RoundResult) -> None:
        s = self.state
        rules = s.rules
        seats = result.seats
        contenders: tuple[int, ...] | None = None
        why = ""
        if result.tiebreak:
            contenders, why = seats, "after a tie-break round"
        elif rules["game_end_mode"] == "elimination":
            out = eliminated_now(s.totals, seats, rules["elimination_threshold"], rules["elimination_inclusive"])
            left = tuple(x for x in seats if x not in out)
            s.eliminated = s.eliminated | set(out)
            if out:
                self.events.append({"kind": "eliminated", "seats": list(out)})
            if not left:
                contenders, why = out, "everyone left was eliminated in the same round: lowest total wins, RTC-54"
                s.eliminated = s.eliminated - set(out)
            elif len(left) == 1:
                self.finish((left[0],), f"{s.players[left[0]]} is the last player left (RTC-52c)")
                return
            else:
                seats = left
        elif rules["game_end_mode"] == "rounds":
            played = sum(1 for h in s.history if not h.tiebreak)
            if played >= rules["rounds_n"]:
                contenders, why = seats, f"lowest total after {played} round{'s' if played > 1 else ''}, RTC-53"
        elif s.time_up:
            contenders, why = seats, "lowest total when time was up, RTC-53"
        tiebreak = False
        if contenders is not None:
            lowest = lowest_totals(s.totals, contenders)
            if len(lowest) == 1 or rules["game_tie_break"] == "shared":
                self.finish(lowest, why)
                return
            seats, tiebreak = lowest, True
            self.events.append({"kind": "tie_break", "seats": list(lowest),
                                "message": "The lowest totals tie: one more round between them (RTC-V19)."})
        dealer = self.next_dealer(result, seats)
        s.round = self.r = deal(s.players, rules, result.number + 1, dealer, seats, tiebreak, self.eid + 1)

    def next_dealer(self, result: RoundResult, seats: tuple[int, ...]) -> int:
        mode = self.state.rules["dealer_rotation"]
        n = len(self.state.players)
        if mode == "fixed" and result.dealer in seats:
            return result.dealer
        if mode == "loser_deals":
            high = max(result.scores[x] for x in seats if x in result.scores) if any(
                x in result.scores for x in seats) else None
            for step in range(1, n + 1):
                seat = (result.dealer + step) % n
                if seat in seats and result.scores.get(seat) == high:
                    return seat
        return next_seat(seats, result.dealer, n)

    def finish(self, winners: tuple[int, ...], why: str) -> None:
        s = self.state
        s.over, s.winners, s.round, self.r = True, tuple(winners), None, None
        s.outcome = match_winners_sentence(winners, s.totals, s.players, why)
        self.events.append({"kind": "match_over", "winners": list(winners), "explanation": s.outcome})
