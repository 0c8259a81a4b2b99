"""The deal and applying one Shithead entry (RULES.md §4): the next state and its events, or a Ruling
with the state untouched. Refills, burns, skips and who plays next are worked out here (SH-K3, SH-K6);
the table is reminded of them in ``state.reminders``."""
from __future__ import annotations

from collections import Counter
from typing import Any

from .base import (EntryError, Flag, Override, ResolveFlag, Ruling, decide_flag, event_of, normalise_players,
                   resolve_rules, seat_index)
from .shithead_logic import (advance, declared_face_up, effective_top, fits, illegal, must_play_declared,
                             pile_entries, possible, run_length, set_rank, zone)
from .shithead_moves import Add, FaceUp, Interrupt, Pickup, Play, Start, Swap
from .shithead_rules import (FACE_UP, HAND, MAX_PLAYERS, MIN_PLAYERS, VALUES, VARIANTS, deck, deck_size,
                             a_rank, decks_for, natural, rank_of, say_card, say_cards)
from .shithead_state import Draft, GameResult, LastPlay, PileCard, Seat, State, reseat


def new_match(players: Any, rules: Any = None, dealer: Any = None) -> State:
    names = normalise_players(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EntryError("players", f"Shithead is for {MIN_PLAYERS} to {MAX_PLAYERS} players (SH-1)")
    rules = resolve_rules(VARIANTS, rules)
    if rules["nine_reverse"] != "off" and rules["nine_same_suit"]:
        raise EntryError("rules.nine_same_suit", "cannot be combined with a 9 that reverses (SH-V6)")
    seat = 0 if dealer is None else seat_index(dealer, names, "dealer")
    return deal(names, rules, seat, 1, (), (0,) * len(names))


def deal(players: tuple[str, ...], rules: dict, dealer: int, number: int, history: tuple,
         tally: tuple[int, ...], **keep: Any) -> State:
    """A new game: each player 3 in hand, 3 face up (not yet entered), F face down (SH-2)."""
    n, down = len(players), rules["facedown_count"]
    decks = decks_for(n, rules)
    size, need = deck_size(decks, rules), n * (HAND + FACE_UP + down)
    if need > size:
        raise EntryError("rules.decks", f"{n} players need {need} cards but {decks} deck(s) hold {size}: "
                                        "play with another deck (SH-1, SH-V9)")
    seats = tuple(Seat(HAND, (), (None,) * FACE_UP, down) for _ in range(n))
    return State(players, rules, decks, dealer, number, "setup", seats, size - need, history=history,
                 tally=tally, **keep)


def _dealer_after(result: GameResult, dealer: int, n: int) -> int:
    """SH-53: the Shithead deals the next game; when a game has none (SH-52: the first out wins), the deal
    passes to the dealer's left."""
    return result.shithead if result.shithead is not None else (dealer + 1) % n


def next_dealer(state: State) -> int | None:
    """Who deals the first game of a new match after ``state``'s (Play again, SH-53): the Shithead of its
    last game (else the dealer's left); None while the match is being played."""
    if not state.over or not state.history:
        return None
    return _dealer_after(state.history[-1], state.dealer, len(state.players))


def failed_play(state: State, move: Any) -> dict[str, Any] | None:
    """What became of a table card played from ``state`` that could not go on the pile (SH-18, SH-19):
    the "fail" event (``card``, ``zone``, ``why``: the rule it broke, ``top``, ``under``: through 3s,
    ``takes``: whether the card went into the hand too), or None for any other entry. For the history,
    which says such a play as what happened, not as a play."""
    if type(move) is not Play or state.phase != "play" or state.seats[move.seat].count:
        return None  # a play from the hand is refused when it does not fit, never failed
    return event_of(apply, state, move, "fail")


def apply(state: State, move: Any, entry_id: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Apply one entry; raises :class:`Ruling` with ``state`` unchanged when the rules refuse it."""
    eid = state.version if entry_id is None else entry_id
    ctx = _Entry(state, eid)
    ctx.run(move)
    ctx.s.version = state.version + 1
    return ctx.s.freeze(), ctx.events


class _Entry:
    """One entry being applied: checks raise rulings, effects change the draft ``self.s`` (the state
    passed in is never touched: a ruling simply drops the draft)."""

    def __init__(self, state: State, eid: int):
        self.s = Draft(state)
        self.eid = eid
        self.events: list[dict[str, Any]] = []
        self.notes: list[tuple[str, str]] = []
        self.waive: frozenset[str] = frozenset()
        self.waived: dict[str, tuple[str, tuple[int, ...]]] = {}

    # --- checks -----------------------------------------------------------------------------
    def check(self, ok: bool, rule: str, message: str, entries: tuple[int, ...] = (), was: str | None = None) -> None:
        """An overridable rule (GEN-5): refused unless the table overrides it (as ``rule``, or as ``was``: the
        rule an older engine cited here, which the overrides of logs written then name)."""
        if ok:
            return
        waived = rule if rule in self.waive else was if was is not None and was in self.waive else None
        if waived is not None:
            self.waived.setdefault(waived, (message, (self.eid, *entries)))
            self.events.append({"kind": "overridden", "rule": waived, "message": message})
            return
        raise Ruling(rule, message, (self.eid, *entries))

    def refuse(self, rule: str, message: str, entries: tuple[int, ...] = ()) -> None:
        raise Ruling(rule, message, (self.eid, *entries), overridable=False)

    def name(self, seat: int | None) -> str:
        return "The table" if seat is None else self.s.players[seat]

    def flag(self, rule: str, message: str, entries: tuple[int, ...]) -> None:
        flag = Flag(len(self.s.flags), rule, message, entries, self.eid)
        self.s.flags += (flag,)
        self.events.append({"kind": "flag", "flag": flag.id, "rule": rule, "message": message,
                            "entries": list(entries)})

    def note(self, rule: str, words: str, kind: str) -> None:
        self.notes.append((rule, words))
        self.events.append({"kind": kind, "rule": rule, "message": words})

    def seat(self, i: int, **changes: Any) -> None:
        seats = list(self.s.seats)
        seats[i] = reseat(seats[i], **changes)
        self.s.seats = tuple(seats)

    # --- dispatch ---------------------------------------------------------------------------
    def run(self, move: Any) -> None:
        handler = getattr(self, "do_" + type(move).__name__, None)
        if handler is None:
            raise EntryError("move", f"{type(move).__name__} is not an entry of Shithead")
        if getattr(move, "seat", None) is not None and not 0 <= move.seat < len(self.s.players):
            raise EntryError("seat", f"there is no seat {move.seat}")
        handler(move)
        if not isinstance(move, (Override, ResolveFlag)):
            self.s.reminders = tuple(self.notes)

    def do_Override(self, move: Override) -> None:
        self.waive = self.waive | {move.rule}
        self.run(move.entry)
        if move.rule not in self.waived:
            self.refuse("GEN-5", f"{move.rule} does not refuse this entry, so there is nothing to override.")
        message, entries = self.waived[move.rule]
        record = (self.eid, move.rule, move.reason, move.seat, message, entries)
        self.s.overrides += (record,)
        self.events.append({"kind": "override", "rule": move.rule, "reason": move.reason,
                            "by": self.name(move.seat) if move.seat is not None else None})

    def do_ResolveFlag(self, move: ResolveFlag) -> None:
        self.s.flags, status = decide_flag(self.s.flags, move, self.name(move.seat), self.eid, self.refuse)
        self.events.append({"kind": "flag_resolved", "flag": move.flag, "status": status})

    # --- setting up -------------------------------------------------------------------------
    def setup(self, rule: str) -> None:
        if self.s.phase == "over":
            self.refuse("SH-51", "The match is over: no more entries can be played.")
        if self.s.phase != "setup":
            self.refuse(rule, "Play has started: the face-up cards and the swaps are settled.")

    def sighted(self, cards: tuple[str | None, ...], seat: int | None = None) -> None:
        """GEN-3 / SH-K5: cards newly seen must not exceed the copies in the deck (``seat``'s own known hand
        cards are where they are looked for). A refusal says where every copy already is and points at
        the entries that put them there (GEN-13)."""
        mine = None if seat is None else self.s.seats[seat]
        for card in dict.fromkeys(c for c in cards if c is not None):
            n = cards.count(card)
            if card not in deck(self.s.decks, self.s.rules):
                self.refuse("SH-K11", f"There is no {say_card(card)} in this table's deck.")
            if possible(self.s, card, n, mine):
                continue
            where, entries = self.seen_where(card, seat)
            self.check(False, "SH-K5", f"Every {say_card(card)} is already somewhere else on the table ({where}): this "
                                       "must be a mis-tap or a misread photo." if where else
                                       f"Every {say_card(card)} is already somewhere else on the table: this must be a "
                                       "mis-tap or a misread photo.", entries)

    def seen_where(self, card: str, seat: int | None) -> tuple[str, tuple[int, ...]]:
        """Where the table has seen ``card`` (but in ``seat``'s own hand), in words ("Mom's face-up cards, the
        pile"), and the entries that put each copy there."""
        s = self.s
        places: list[str] = []
        entries: list[int | None] = []

        def found(words: str, entry: int | None) -> None:
            if words not in places:
                places.append(words)
            entries.append(entry)

        for i, st in enumerate(s.seats):
            for kind, cards, words in (("faceup", st.faceup, f"{s.players[i]}'s face-up cards"),
                                       ("hand", st.known if i != seat else (), f"{s.players[i]}'s hand")):
                copies = cards.count(card)
                if copies:
                    marks = [e for x, z, c, e in s.placed if (x, z, c) == (i, kind, card)]
                    for k in range(copies):  # the latest entries first: those are the copies still there
                        found(words, marks[-1 - k] if k < len(marks) else None)
        for p in s.pile:
            if p.card == card:
                found("the pile", p.play)
        for i, c in enumerate(s.burned):
            if c == card:
                found("the burned cards", s.burned_at[i] if i < len(s.burned_at) else None)
        return ", ".join(places), tuple(sorted({e for e in entries if e is not None and e >= 0}))

    def mark(self, seat: int, zone: str, cards: Any) -> None:
        """The table saw ``cards`` go into ``seat``'s face-up cards or hand (``zone``) at this entry."""
        self.s.placed += tuple((seat, zone, c, self.eid) for c in cards if c is not None)

    def unmark(self, seat: int, zone: str, cards: Any) -> None:
        """``cards`` left ``seat``'s face-up cards or hand: each one's latest mark goes."""
        placed = list(self.s.placed)
        for c in cards:
            for k in range(len(placed) - 1, -1, -1):
                if placed[k][:3] == (seat, zone, c):
                    del placed[k]
                    break
        self.s.placed = tuple(placed)

    def do_FaceUp(self, m: FaceUp) -> None:
        self.setup("SH-2")
        if self.s.seats[m.seat].entered:
            self.refuse("SH-2", f"{self.name(m.seat)}'s face-up cards are already entered: correct that entry "
                                "in the history instead.")
        if len(m.cards) != FACE_UP:
            self.refuse("SH-2", f"Each player has {FACE_UP} face-up cards; {len(m.cards)} were entered.")
        self.faceup_sighted(m.cards, m.seat)
        self.seat(m.seat, faceup=tuple(m.cards), entered=True)
        self.mark(m.seat, "faceup", m.cards)

    def do_Swap(self, m: Swap) -> None:
        self.setup("SH-3")
        self.check(self.s.rules["faceup_swap_allowed"], "SH-V7", "At this table face-up cards are not swapped.")
        st = self.s.seats[m.seat]
        if not st.entered:
            self.refuse("SH-3", f"Enter {self.name(m.seat)}'s face-up cards first.")
        faceup = list(st.faceup)
        if m.out in faceup:
            i = faceup.index(m.out)
        elif None in faceup:
            # the face-up card nobody entered is the one named: seen now, before the hand card is looked for
            # (that one cannot be the same card again, GEN-3)
            i = faceup.index(None)
            self.swap_sighted(m.out, m.seat, into_hand=True)
            faceup[i] = m.out
            self.seat(m.seat, faceup=tuple(faceup))
        else:
            self.refuse("SH-3", f"{say_card(m.out)} is not among {self.name(m.seat)}'s face-up cards.")
        known = Counter(st.known)
        if m.card is not None and known[m.card]:
            known[m.card] -= 1
            self.unmark(m.seat, "hand", (m.card,))
        elif st.unknown < 1:
            self.refuse("SH-K4", f"The table knows every card in {self.name(m.seat)}'s hand "
                                 f"({say_cards(st.known)}): {say_card(m.card)} is not among them.")
        elif m.card is not None:
            self.swap_sighted(m.card, m.seat, into_hand=False)
        self.unmark(m.seat, "faceup", (faceup[i],))
        faceup[i] = m.card
        if m.out is not None:
            known[m.out] += 1
        self.seat(m.seat, faceup=tuple(faceup), known=tuple(sorted(known.elements())))
        self.mark(m.seat, "faceup", (m.card,))
        self.mark(m.seat, "hand", (m.out,))

    def swap_sighted(self, card: str, seat: int, into_hand: bool) -> None:
        """GEN-3 for a swap (SH-3): the hand card ``seat`` puts face up (``into_hand`` False: its own known hand
        cards are where it is looked for), or the face-up card nobody entered that it takes into the hand,
        must not be one copy too many. Refused in words of the swap: SH-K5 is a rule of plays, and a swap
        plays nothing (logs before engine version 5 overrode it as SH-K5, which still lets it stand)."""
        if card not in deck(self.s.decks, self.s.rules):
            self.refuse("SH-K11", f"There is no {say_card(card)} in this table's deck.")
        mine = None if into_hand else self.s.seats[seat]
        if possible(self.s, card, 1, mine):
            return
        # one card, so every copy seen lies in a place the table can name (``where`` is never empty)
        where, entries = self.seen_where(card, None if into_hand else seat)
        who = self.name(seat)
        if into_hand:
            said = (f"Every {say_card(card)} is already somewhere else on the table ({where}), so the face-up card "
                    f"{who} takes into the hand cannot be one: this must be a mis-tap or a misread photo.")
        else:
            said = (f"Every {say_card(card)} is already somewhere else on the table ({where}), so {who} has none in "
                    "the hand to swap face up: this must be a mis-tap or a misread photo.")
        self.check(False, "GEN-3", said, entries, was="SH-K5")

    def faceup_sighted(self, cards: tuple[str | None, ...], seat: int) -> None:
        """GEN-3 for the face-up cards entered for ``seat`` (SH-2): none may be one copy too many. Refused in
        words of the face-up cards, pointing at the entries where the other copies were seen: SH-K5 is a rule
        of plays, and entering the face-up cards plays nothing (logs before engine version 6 overrode it as
        SH-K5, which still lets it stand)."""
        who = self.name(seat)
        for card in dict.fromkeys(c for c in cards if c is not None):
            if card not in deck(self.s.decks, self.s.rules):
                self.refuse("SH-K11", f"There is no {say_card(card)} in this table's deck.")
            if possible(self.s, card, cards.count(card)):
                continue
            where, entries = self.seen_where(card, None)
            if not possible(self.s, card, 1):  # every copy lies elsewhere already
                said = (f"Every {say_card(card)} is already somewhere else on the table ({where}), so none of "
                        f"{who}'s face-up cards can be one: this must be a mis-tap or a misread photo.")
            elif where:  # the cards entered name it more often than the copies still unseen
                said = (f"{who}'s face-up cards name {say_card(card)} more times than this table's deck still "
                        f"holds (the others: {where}): this must be a mis-tap or a misread photo.")
            else:
                said = (f"{who}'s face-up cards name {say_card(card)} more times than this table's deck holds: "
                        "this must be a mis-tap or a misread photo.")
            self.check(False, "GEN-3", said, entries, was="SH-K5")

    def start_sighted(self, card: str, seat: int) -> None:
        """GEN-3 for the lowest card ``seat`` shows from the hand to start (SH-4): not one copy too many (its
        own known hand cards are where it is looked for). Refused in words of the card shown, pointing at
        the entries where the other copies were seen (logs before engine version 6 overrode it as SH-K5,
        which still lets it stand)."""
        if card not in deck(self.s.decks, self.s.rules):
            self.refuse("SH-K11", f"There is no {say_card(card)} in this table's deck.")
        if possible(self.s, card, 1, self.s.seats[seat]):
            return
        # one card, so every copy seen lies in a place the table can name (``where`` is never empty)
        where, entries = self.seen_where(card, seat)
        said = (f"Every {say_card(card)} is already somewhere else on the table ({where}), so the lowest card "
                f"{self.name(seat)} shows to start cannot be one: this must be a mis-tap or a misread photo.")
        self.check(False, "GEN-3", said, entries, was="SH-K5")

    def do_Start(self, m: Start) -> None:
        s = self.s
        self.setup("SH-4")
        missing = [s.players[i] for i, st in enumerate(s.seats) if not st.entered]
        if missing:
            self.refuse("SH-2", f"Enter every player's face-up cards first: {', '.join(missing)}.")
        if s.rules["start_rank_rule"] == "dealer_left":
            left = (s.dealer + 1) % len(s.players)
            self.check(m.seat == left, "SH-V11", f"At this table the player on the dealer's left starts: "
                                                 f"{s.players[left]}.")
        if m.card is not None:
            self.check(m.card != "JOKER" and natural(rank_of(m.card), s.rules), "SH-4",
                       f"{say_card(m.card)} is not a natural card: the lowest of 4, 5, 6… starts.")
            st = s.seats[m.seat]
            if not declared_face_up(s, m.seat, m.card):  # SH-V19: the lowest may lie face up
                if m.card not in st.known and st.unknown < 1:
                    self.refuse("SH-K4", f"The table knows every card in {s.players[m.seat]}'s hand "
                                         f"({say_cards(st.known)}): {say_card(m.card)} is not among them.")
                self.start_sighted(m.card, m.seat)
            if s.rules["start_rank_zones"] == "hand_and_faceup" and rank_of(m.card) in VALUES:
                self._check_public_lowest(m.seat, m.card)
        d = self.s
        d.phase, d.turn, d.starter, d.declared, d.last_entry = "play", m.seat, m.seat, m.card, self.eid
        self.note("SH-4", f"{s.players[m.seat]} starts" + (f" and must play the {rank_of(m.card)}."
                  if must_play_declared(d, m.seat) else "."), "start")

    def _check_public_lowest(self, seat: int, declared: str) -> None:
        """SH-K7: the declared lowest card against every other player's natural face-up cards. A lower
        one, or an equal one whose player comes first clockwise from the dealer's left (SH-4), starts."""
        s, n = self.s, len(self.s.players)

        def order(i: int, card: str) -> tuple[int, int]:
            return VALUES[rank_of(card)], (i - s.dealer - 1) % n

        mine = order(seat, declared)
        before = [(order(i, c), i, c) for i, st in enumerate(s.seats) if i != seat
                  for c in st.faceup if c is not None and c != "JOKER"
                  and natural(rank_of(c), s.rules) and order(i, c) < mine]
        if not before:
            return
        (value, _), who, card = min(before)
        if value < mine[0]:
            said = (f"{s.players[who]} shows {say_card(card)} face up, lower than "
                    f"{s.players[seat]}'s {say_card(declared)}: {s.players[who]} starts.")
        else:
            said = (f"{s.players[who]} shows {say_card(card)} face up, as low as {s.players[seat]}'s "
                    f"{say_card(declared)}, and comes first from the dealer's left: {s.players[who]} starts.")
        self.flag("SH-K7", said, (self.eid,))

    # --- playing ----------------------------------------------------------------------------
    def playing(self, seat: int) -> None:
        if self.s.phase == "over":
            self.refuse("SH-51", "The match is over: no more entries can be played.")
        if self.s.phase == "setup":
            self.refuse("SH-4", "Play has not started: enter who starts first.")
        if seat in self.s.out:
            self.refuse("SH-50", f"{self.name(seat)} is out of this game.")

    def in_turn(self, seat: int, cards: tuple[str | None, ...] = (), rank: str | None = None) -> None:
        self.playing(seat)
        turn = self.s.turn
        if seat != turn:
            hint = " (four of a kind out of turn is an interrupt)" if self.completes_four(seat, cards, rank) else ""
            self.check(False, "GEN-7", f"It is {self.name(turn)}'s turn, not {self.name(seat)}'s{hint}.")

    def completes_four(self, seat: int, cards: tuple[str | None, ...], rank: str | None) -> bool:
        """Whether ``cards``, played out of turn, could be an interrupt (SH-40, SH-42, SH-V3): they are of
        the rank on top and make four of a kind with it, counted as the engine counts an interrupt."""
        s = self.s
        if (not cards or not s.rules["interrupts"] or not s.pile or s.pile[-1].seat == seat
                or len(s.active()) < 3):
            return False
        r = set_rank(tuple(c for c in cards if c is not None), rank)
        if r is None or r != run_length(s)[0]:
            return False
        probe = s.pile + tuple(PileCard(c or "", r, seat, -1) for c in cards)
        return run_length(s, probe)[1] >= 4

    def cards_rank(self, cards: tuple[str | None, ...], rank: str | None) -> tuple[tuple[str, ...], str]:
        if not cards:
            self.refuse("SH-10", "A play puts at least one card on the pile.")
        if any(c is None for c in cards):
            self.refuse("SH-K1", "Name every card played: they are all face up on the pile.")
        known = tuple(c for c in cards if c is not None)
        for c in set(known):
            if c not in deck(self.s.decks, self.s.rules):
                self.refuse("SH-K11", f"There is no {say_card(c)} in this table's deck.")
        if "JOKER" in known and rank is None:
            self.refuse("SH-13", "Say which rank the joker plays as.")
        r = set_rank(known, rank)
        if r is None:
            self.refuse("SH-13", f"A play is cards of one rank only: {say_cards(known)}.")
        return known, r

    def from_hand(self, seat: int, cards: tuple[str, ...]) -> None:
        st = self.s.seats[seat]
        if len(cards) > st.count:
            self.refuse("SH-K2", f"{self.name(seat)} has only {st.count} card{'s' * (st.count != 1)} in hand.")
        known, unknown, gone = list(st.known), [], []
        for c in cards:
            if c in known:
                known.remove(c)
                gone.append(c)
            else:
                unknown.append(c)
        if len(unknown) > st.unknown:
            # a card from the table (a face-down card turned over) while the hand holds cards: SH-20 says why
            waits = " Table cards wait until the hand is empty (SH-20)." if st.facedown or any(st.faceup) else ""
            self.refuse("SH-K4", f"The table knows every card in {self.name(seat)}'s hand "
                                 f"({say_cards(st.known)}): {say_cards(unknown)} "
                                 f"{'is' if len(unknown) == 1 else 'are'} not among them.{waits}")
        for c in unknown:
            if c in st.faceup and not possible(self.s, c, unknown.count(c), st):
                self.refuse("SH-16", f"{say_card(c)} is one of {self.name(seat)}'s face-up cards: those are played "
                                     "once the hand and the stock are empty.")
        self.sighted(tuple(unknown), seat)
        self.seat(seat, count=st.count - len(cards), known=tuple(sorted(known)))
        self.unmark(seat, "hand", gone)

    def from_faceup(self, seat: int, cards: tuple[str, ...]) -> None:
        st = self.s.seats[seat]
        faceup, new, gone = list(st.faceup), [], []
        for c in cards:
            if c in faceup:
                faceup.remove(c)
                gone.append(c)
            elif None in faceup:
                faceup.remove(None)
                new.append(c)
            else:
                self.refuse("SH-16", f"{say_card(c)} is not among {self.name(seat)}'s face-up cards.")
        self.sighted(tuple(new))
        self.seat(seat, faceup=tuple(faceup))
        self.unmark(seat, "faceup", gone)

    def lay(self, seat: int, cards: tuple[str, ...], rank: str, play: int) -> None:
        pile = tuple(PileCard(c, rank, seat, play) for c in cards)
        self.s.pile += pile
        self.s.last_entry = self.eid

    def burns(self, rank: str) -> str | None:
        """SH-32 / SH-35: the rule that burns the pile after this play, if any (SH-K6)."""
        if rank == "10":
            return "SH-32"
        _, n = run_length(self.s)
        return "SH-35" if n >= 4 else None

    def burn(self, rule: str, seat: int) -> None:
        s = self.s
        s.burned += tuple(p.card for p in s.pile)
        s.burned_at += tuple(p.play for p in s.pile)
        s.pile, s.last = (), None
        self.note(rule, f"Burned: the pile goes out of play ({'a 10' if rule == 'SH-32' else 'four of a kind'}).",
                  "burn")

    def refill(self, seat: int) -> int:
        """SH-15: draw back up to 3 while the stock lasts."""
        st = self.s.seats[seat]
        n = min(self.s.stock, max(0, HAND - st.count))
        if n:
            self.seat(seat, count=st.count + n)
            self.s.stock -= n
            self.note("SH-15", f"{self.name(seat)}: draw {n}.", "draw")
        return n

    def went_out(self, seat: int) -> bool:
        st = self.s.seats[seat]
        if self.s.stock or st.holds_cards() or seat in self.s.out:
            return False
        self.s.out += (seat,)
        self.note("SH-50", f"{self.name(seat)} is out, number {len(self.s.out)}.", "out")
        self.maybe_end()
        return True

    def maybe_end(self) -> None:
        s = self.s
        active = s.active()
        if s.rules["end_mode"] == "first_out_wins" and s.out:
            result = GameResult(s.number, s.out, None, s.out[0])
            words = f"{s.players[s.out[0]]} goes out first and wins (SH-52)."
        elif len(active) <= 1:
            loser = active[0] if active else None
            result = GameResult(s.number, s.out, loser)
            words = (f"{s.players[loser]} is the Shithead. " if loser is not None else "") + \
                f"Finishing order: {', '.join(s.players[i] for i in s.out)}."
        else:
            return
        tally = list(s.tally)
        point = result.winner if result.winner is not None else result.shithead
        if point is not None:
            tally[point] += 1
        history = s.history + (result,)
        self.note("SH-51" if result.winner is None else "SH-52", words, "game_over")
        if s.number < s.rules["games"]:
            dealer = _dealer_after(result, s.dealer, len(s.players))
            self.s.load(deal(s.players, dict(s.rules), dealer, s.number + 1, history, tuple(tally),
                             flags=s.flags, overrides=s.overrides, version=s.version))
            return
        wins = s.rules["end_mode"] == "first_out_wins"
        best = max(tally) if wins else min(tally)
        winners = tuple(i for i, t in enumerate(tally) if t == best)
        if len(history) > 1:  # the match's winners (§4.12 H2: fewest Shithead points, a tie is shared)
            names = [s.players[i] for i in winners]
            who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            shared = len(winners) > 1
            words += (f" After {len(history)} games {who} "
                      f"{'share the match win' if shared else 'wins the match'} with the "
                      f"{'most games won' if wins else 'fewest Shithead points'} ({best}{' each' if shared else ''})."
                      " Tally: " + ", ".join(f"{s.players[i]} {t}" for i, t in enumerate(tally)) + ".")
        s.phase, s.over, s.turn, s.last = "over", True, None, None
        s.history, s.tally, s.winners, s.outcome = history, tuple(tally), winners, words

    def next_turn(self, seat: int, burned: str | None, skips: int = 0, reverse: bool = False) -> None:
        """Who plays after ``seat``: again after a burn (SH-32/35, SH-V18), else the next active
        player, past ``skips`` players (SH-34, SH-V16), in the direction of play (SH-5, SH-V5)."""
        s = self.s
        if s.phase != "play":
            return
        if burned:
            if s.rules["burn_plays_again"] and seat in s.active():
                s.turn = seat
                self.note(burned, f"{self.name(seat)} plays again.", "again")
            else:
                s.turn = advance(s, seat, 1)[0]
            return
        if reverse:
            s.direction = -s.direction
            self.note("SH-V5", "The direction of play reverses.", "reverse")
        if skips and s.rules["eight_skip_mode"] == "capped":
            skips = min(skips, len(s.active()) - 1)
        nxt, passed = advance(s, seat, 1 + skips)
        s.turn = nxt
        if passed:
            self.note("SH-34", f"Skipped: {', '.join(self.name(p) for p in passed)}.", "skip")
        elif skips and nxt == seat:
            self.note("SH-34", f"Everyone else is skipped: {self.name(seat)} plays again.", "skip")

    def do_Play(self, m: Play) -> None:
        self.in_turn(m.seat, m.cards, m.rank)
        cards, rank = self.cards_rank(m.cards, m.rank)
        s, st, where = self.s, self.s.seats[m.seat], zone(self.s, m.seat)
        if where is None:
            self.refuse("SH-50", f"{self.name(m.seat)} has no cards left.")
        if len(cards) > 4 * s.decks + (2 * s.decks if s.rules["jokers"] else 0):
            self.refuse("SH-13", f"{len(cards)} cards of one rank are more than the deck holds.")
        if where == "faceup" and s.rules["faceup_play"] == "one_at_a_time":
            if len(cards) != 1:
                self.refuse("SH-18", "Face-up cards are played one at a time at this table.")
        if where == "facedown" and len(cards) != 1:
            self.refuse("SH-19", "Face-down cards are turned over one at a time.")
        if must_play_declared(s, m.seat):
            self.check(rank == rank_of(s.declared), "SH-4",
                       f"{self.name(m.seat)} declared {say_card(s.declared)} as their lowest card: the first play must "
                       f"include {a_rank(rank_of(s.declared))}.")
        why = illegal(s, rank, cards)
        fails = why is not None and (where == "facedown" or (where == "faceup"
                                     and s.rules["faceup_play"] == "one_at_a_time"))
        if why is not None and not fails:
            self.check(False, *why, entries=pile_entries(s))
        if where == "hand":
            extra = len(cards) - st.count
            if extra > 0:
                if s.stock:
                    held = f"{st.count} card{'' if st.count == 1 else 's'}"
                    self.refuse("SH-16", f"{self.name(m.seat)} has {held} in hand and the stock is not empty: face-up "
                                         "cards are not played yet.")
                faceup_part = self._split(st, cards, extra)
                hand_part = list(cards)
                for c in faceup_part:
                    hand_part.remove(c)
                self.from_hand(m.seat, tuple(hand_part))
                self.from_faceup(m.seat, faceup_part)
            else:
                self.from_hand(m.seat, cards)
        elif where == "faceup":
            self.from_faceup(m.seat, cards)
        else:
            self.sighted(cards)
            self.seat(m.seat, facedown=st.facedown - 1)
        self.s.first_played = True
        if fails:
            self._fail(m.seat, cards[0], where, why)
            return
        self.lay(m.seat, cards, rank, self.eid)
        self._after_play(m.seat, rank, cards, self.eid, 0)

    @staticmethod
    def _split(st: Seat, cards: tuple[str, ...], extra: int) -> tuple[str, ...]:
        """SH-17: which of the cards come from the face-up ones (those named face up first)."""
        faceup, part = list(st.faceup), []
        for c in cards:
            if len(part) < extra and c in faceup:
                faceup.remove(c)
                part.append(c)
        for c in reversed(cards):
            if len(part) >= extra:
                break
            if None in faceup and part.count(c) < list(cards).count(c):
                faceup.remove(None)
                part.append(c)
        return tuple(part)

    def _fail(self, seat: int, card: str, where: str, why: tuple[str, str]) -> None:
        """SH-18 / SH-19 / SH-20: a table card that cannot go: the pile (and the card) into the hand."""
        s, st = self.s, self.s.seats[seat]
        takes = where == "facedown" or s.rules["faceup_fail_takes_card"]
        taken = tuple(p.card for p in s.pile) + ((card,) if takes else ())
        if not takes:
            self.seat(seat, faceup=st.faceup + (card,))
            self.mark(seat, "faceup", (card,))
            st = self.s.seats[seat]
        self.seat(seat, count=st.count + len(taken), known=tuple(sorted(st.known + taken)))
        self.mark(seat, "hand", taken)
        rule = "SH-19" if where == "facedown" else "SH-18"
        who, said = self.name(seat), say_card(card)
        self.note(rule, f"{who}'s {said} {self.cannot_go(why[0])} ({why[0]}), so {who} picks up the pile"
                        f"{' and the ' + said if takes else ''} and plays from the hand again (SH-20).", "fail")
        top, through = effective_top(s)
        self.events[-1].update(seat=seat, card=card, zone=where, why=why[0], takes=takes, under=through,
                               top=None if top is None else say_card(top.card) if why[0] == "SH-V6" else top.rank)
        nxt, _ = advance(self.s, seat, 1)
        d = self.s
        d.pile, d.turn, d.last, d.last_entry = (), nxt, None, self.eid

    def cannot_go(self, rule: str) -> str:
        """Why a table card turned over may not go on the pile, as a clause ("cannot go on the K")."""
        top, through = effective_top(self.s)
        under = " under the 3s" if through else ""
        if top is None:
            return "cannot go"
        if rule == "SH-V15":
            return f"may not burn the 7{under} at this table"
        return f"cannot go on the {say_card(top.card) if rule == 'SH-V6' else top.rank}{under}"

    def _after_play(self, seat: int, rank: str, cards: tuple[str, ...], play: int, skips_before: int) -> None:
        burned = self.burns(rank)
        if burned:
            self.burn(burned, seat)
        drawn = self.refill(seat)
        out = self.went_out(seat)
        skips = skips_before + sum(1 for c in cards if rank == "8")
        reverse = rank == "9" and self.s.rules["nine_reverse"] != "off"
        self.next_turn(seat, burned, skips, reverse)
        keep = drawn and not burned and not out and self.s.phase == "play"
        self.s.last = LastPlay(seat, rank, play, drawn, skips) if keep else None

    def do_Pickup(self, m: Pickup) -> None:
        self.in_turn(m.seat)
        s, st = self.s, self.s.seats[m.seat]
        if not s.pile:
            self.refuse("SH-14", "The pile is empty: picking it up would be a pass (SH-10). Play any card.")
        if not s.rules["voluntary_pickup"]:
            where = zone(s, m.seat)
            if where == "hand":  # only the cards the table saw go in can be held against the player
                can = any(c == "JOKER" or fits(s, rank_of(c), (c,)) for c in st.known)
            elif where == "faceup" and s.rules["faceup_play"] == "same_rank_set":
                # SH-18 same_rank_set: no face-up card goes, so the pile is picked up (they stay face up)
                can = any(c is not None and (c == "JOKER" or fits(s, rank_of(c), (c,)))
                          for c in st.faceup)
            else:  # SH-18 one_at_a_time / SH-19: a table card is turned over, and taken with the pile if it fails
                can = True
            self.check(not can, "SH-V13", f"{self.name(m.seat)} can play: at this table the pile is picked up "
                                          "only by a player who cannot play.")
        taken = tuple(p.card for p in s.pile)
        self.seat(m.seat, count=st.count + len(taken), known=tuple(sorted(st.known + taken)))
        self.mark(m.seat, "hand", taken)
        nxt, _ = advance(self.s, m.seat, 1)
        d = self.s
        d.pile, d.turn, d.last, d.last_entry, d.first_played = (), nxt, None, self.eid, True
        self.note("SH-14", f"{self.name(m.seat)} picks up {len(taken)} card{'s' * (len(taken) != 1)}; "
                           f"{self.name(nxt)} leads onto the empty pile.", "pickup")

    def out_of_turn(self, seat: int) -> None:
        """SH-42 / SH-V3: interrupts need 3 or more players still in, and the house rule."""
        self.playing(seat)
        self.check(self.s.rules["interrupts"], "SH-V3", "At this table nobody plays out of turn.")
        self.check(len(self.s.active()) >= 3, "SH-42", "With only two players left nobody plays out of turn.")

    def do_Interrupt(self, m: Interrupt) -> None:
        self.out_of_turn(m.seat)
        s = self.s
        cards, rank = self.cards_rank(m.cards, m.rank)
        top, j = run_length(s)
        if top is None or top != rank:
            # too late if the rank may have been on top a moment ago (an entry came first, SH-43: the pile was
            # picked up or burned, or the rank lies just under the top); else it never was (SH-40)
            if s.last_entry is not None and (not s.pile or any(p.rank == rank for p in s.pile[-5:-1])):
                now = f"the top of the pile is now {say_card(s.pile[-1].card)}" if s.pile else "the pile is now empty"
                self.refuse("SH-43", f"Too late: another entry came first (entry {s.last_entry}), and {now}.",
                            (s.last_entry,))
            if not s.pile:
                self.refuse("SH-40", "The pile is empty: an interrupt completes four of a kind on top of the pile.")
            self.refuse("SH-40", f"The top of the pile is {say_card(s.pile[-1].card)}: an interrupt completes four "
                                 f"of a kind of the rank on top, not {a_rank(rank)}.")
        if m.seat == s.turn:
            self.refuse("SH-40", f"It is {self.name(m.seat)}'s own turn: play the cards as the turn.")
        if s.pile[-1].seat == m.seat:
            self.refuse("SH-40", f"{self.name(m.seat)} played those cards: only a card just drawn may be "
                                 "added (SH-41).")
        where = zone(s, m.seat)
        if where == "hand":
            self.from_hand(m.seat, cards)
        elif where == "faceup":
            self.from_faceup(m.seat, cards)
        else:
            self.refuse("SH-40", "Face-down cards cannot interrupt (SH-A9).")
        self.lay(m.seat, cards, rank, self.eid)
        _, n = run_length(self.s)
        if n < 4:
            self.refuse("SH-40", f"An interrupt must complete four of a kind: that makes {n} {rank}s.")
        lost = s.turn
        self.burn("SH-40", m.seat)
        self.note("SH-40", f"{self.name(m.seat)} interrupts: {self.name(lost)}'s turn is lost.", "interrupt")
        self.refill(m.seat)
        self.went_out(m.seat)
        self.next_turn(m.seat, "SH-40")

    def do_Add(self, m: Add) -> None:
        self.out_of_turn(m.seat)
        s, last = self.s, self.s.last
        if last is not None and last.seat != m.seat and s.pile and s.pile[-1].play == last.play \
                and not any(p.seat == m.seat for p in s.pile):  # never played on this pile: not "too late"
            self.refuse("SH-41", f"Only {self.name(last.seat)}, who just played, may add to that play; "
                                 f"{self.name(m.seat)} did not play it.",
                        (s.last_entry,) if s.last_entry is not None else ())
        if last is None or last.seat != m.seat or not s.pile or s.pile[-1].play != last.play:
            came = f" (entry {s.last_entry})" if s.last_entry is not None else ""
            self.refuse("SH-43", f"Too late: there is no play of {self.name(m.seat)}'s to add to now{came}.")
        cards, rank = self.cards_rank(m.cards, m.rank)
        if rank != last.rank:
            self.refuse("SH-41", f"Only {a_rank(last.rank)} may be added to {self.name(m.seat)}'s {last.rank}s.")
        if len(cards) > last.drawn:
            self.refuse("SH-41", f"{self.name(m.seat)} drew only {last.drawn} card(s) after that play.")
        self.from_hand(m.seat, cards)
        self.lay(m.seat, cards, rank, last.play)
        self.note("SH-41", f"{self.name(m.seat)} adds {say_cards(cards)}.", "add")
        self._after_play(m.seat, rank, cards, last.play, last.skips)

