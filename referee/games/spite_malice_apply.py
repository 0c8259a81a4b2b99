"""The deal and applying one Spite & Malice entry (RULES.md §3): the next state and its events, or a Ruling
with the state untouched. Who starts, the draws owed, completed piles, the win and the end when the stock
runs out are worked out here; what the table owes the referee (a draw, a new pay-off top) is in
``state.reminders``."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .base import (EntryError, Override, ResolveFlag, Ruling, decide_flag, event_of, normalise_players, resolve_rules,
                   seat_index)
from .cards import card_name, sentence_start
from .spite_malice_moves import Build, Discard, Draw, Start, Top, source_parts
from .spite_malice_rules import (HAND, MAX_PLAYERS, MIN_PLAYERS, QUEEN, VARIANTS, build_problem, copies_of_ranks,
                                 deck, deck_size, decks_for, fits, rank_of, ranks_of, said, same_card, side_problem,
                                 rank_name, start_value)
from .spite_malice_table import card_label
from .spite_malice_state import (Draft, GameResult, Seat, Stack, State, at_place, cards_face_up, pile_entry, reseat,
                                 with_place)


def new_match(players: Any, rules: Any = None, dealer: Any = None) -> State:
    """A match before its first entry: the first game dealt, the pay-off tops still to be entered."""
    names = normalise_players(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EntryError("players", f"Spite & Malice is for {MIN_PLAYERS} to {MAX_PLAYERS} players (SM-1, SM-V14)")
    chosen = resolve_rules(VARIANTS, rules)
    size = 2 if len(names) == 2 else "3-4"
    if isinstance(rules, dict) and "players" in rules and rules["players"] != size:
        raise EntryError("rules.players", f"{len(names)} players play with {size!s} (SM-V14): "
                                          f"{'two decks' if size == 2 else 'three decks'}")
    chosen["players"] = size
    if dealer is not None:
        seat_index(dealer, names, "dealer")  # who deals does not matter: the pay-off tops decide (SM-7)
    return deal(names, chosen, 1, (), (0,) * len(names))


def deal(players: tuple[str, ...], rules: dict, number: int, history: tuple, totals: tuple[int, ...],
         **keep: Any) -> State:
    """A new game (SM-2..SM-6): each player a pay-off pile and 5 in hand, the rest the stock."""
    n, payoff = len(players), rules["payoff_size"]
    decks = decks_for(n)
    size, need = deck_size(decks, rules), n * (payoff + HAND)
    if need > size:  # pragma: no cover - 4 x (26 + 5) fits three decks
        raise EntryError("rules.payoff_size", f"{n} players need {need} cards; the decks hold {size}")
    seats = tuple(Seat(payoff, HAND, ((),) * rules["max_side_stacks"]) for _ in range(n))
    state = State(players, rules, decks, number, "setup", seats, size - need, history=history, totals=totals, **keep)
    return replace(state, reminders=tuple(standing(state)))


def apply(state: State, move: Any, entry_id: int | None = None) -> tuple[State, list[dict[str, Any]]]:
    """Apply one entry; raises :class:`Ruling` with ``state`` unchanged when the rules refuse it. The
    entry's changes are made on a draft of the next state, which becomes a State once, at the end."""
    eid = state.version if entry_id is None else entry_id
    ctx = _Entry(state, eid)
    ctx.run(move)
    ctx.s.version = state.version + 1
    return ctx.s.freeze(), ctx.events


def entry_outcome(state: State, move: Any) -> dict[str, Any] | None:
    """What an entry made from ``state`` came to where its own fields do not say it, for its words in the
    history: a build's ``counts_as``, the rank a wild card or a card let stand (GEN-5) took on its pile (SM-12,
    SM-21), and ``completed``, the pile it completed (SM-14, SM-V13), or None for a build that came
    to nothing more than its card; ``drew``, how many cards a draw of the cards owed drew (SM-10, SM-16); and
    ``then``, the reshuffle a pay-off top brought about (equal tops, SM-7). None for any other entry."""
    built = move.entry if isinstance(move, Override) else move
    if type(move) is Top:  # equal tops (or a king, SM-V10): the piles shuffled, new tops to turn (SM-7)
        again = event_of(apply, state, move, "reshuffle")
        return {"then": again["message"]} if again is not None else None
    if type(move) is Draw and move.count is None:
        drawn = event_of(apply, state, move, "draw")
        return {"drew": drawn["count"]} if drawn is not None else None
    if type(built) is not Build:
        return None
    build = event_of(apply, state, move, "build")
    if build is None:
        return None
    counted = rank_name(build["rank"])
    card = build.get("card")
    counts_as = None if card not in (None, "unknown") and rank_of(card) == counted else counted
    completed = build["pile"] if build["rank"] >= QUEEN else None  # it leaves the table (SM-14, SM-V13)
    return {"counts_as": counts_as, "completed": completed} if counts_as or completed else None


def standing(state: State) -> list[tuple[str, str]]:
    """What the table owes the referee now, in words: tops to enter, who starts, a draw, the discard."""
    out: list[tuple[str, str]] = []
    names = state.players
    if state.phase == "over":
        return out
    for i, st in enumerate(state.seats):
        if st.top_owed and st.payoff > 0:
            if state.phase == "setup":  # the deal turns each top up (SM-3); a built top's next one is SM-15
                out.append(("SM-3", f"{names[i]}: turn up the pay-off top and enter it."))
            else:
                out.append(("SM-15", f"{names[i]}: turn the next pay-off card and enter it ({st.payoff} left)."))
    if state.phase == "setup":
        if not any(st.top_owed for st in state.seats):
            out.append(("SM-7", "Enter who starts."))
        return out
    turn = state.turn
    if turn is None:  # pragma: no cover - play always has a turn
        return out
    st = state.seats[turn]
    if state.owed:
        out.append((state.owed_rule or "SM-10", f"{names[turn]}: draw {state.owed} from the stock "
                                                f"(hand {st.hand} → {st.hand + state.owed})."))
    if not state.ending:
        out.append(("SM-17", f"{names[turn]}: build, then end the turn with one hand card onto a side stack."))
    return out


class _Entry:
    """One entry being applied: checks raise rulings, effects change the draft ``self.s``."""

    def __init__(self, state: State, eid: int):
        self.s = Draft(state)
        self.eid = eid
        self.events: list[dict[str, Any]] = []
        self.notes: list[tuple[str, str]] = []
        self.waive: frozenset[str] = frozenset()
        self.waived: dict[str, tuple[str, tuple[int, ...]]] = {}

    # --- checks -----------------------------------------------------------------------------
    def check(self, ok: bool, rule: str, message: str, entries: tuple[int, ...] = ()) -> bool:
        """An overridable rule (GEN-5): refused unless the table overrides it. Returns ``ok``."""
        if ok:
            return True
        if rule in self.waive:
            self.waived.setdefault(rule, (message, (self.eid, *entries)))
            self.events.append({"kind": "overridden", "rule": rule, "message": message})
            return False
        raise Ruling(rule, message, (self.eid, *entries))

    def refuse(self, rule: str, message: str, entries: tuple[int, ...] = ()) -> None:
        raise Ruling(rule, message, (self.eid, *entries), overridable=False)

    def name(self, seat: int | None) -> str:
        return "The table" if seat is None else self.s.players[seat]

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
            raise EntryError("move", f"{type(move).__name__} is not an entry of Spite & Malice")
        if getattr(move, "seat", None) is not None and not 0 <= move.seat < len(self.s.players):
            raise EntryError("seat", f"there is no seat {move.seat}")
        handler(move)
        if not isinstance(move, (Override, ResolveFlag)):
            owed = [r for r in standing(self.s) if r not in self.notes]
            self.s.reminders = tuple(self.notes) + tuple(owed)

    def do_Override(self, move: Override) -> None:
        self.waive = self.waive | {move.rule}
        self.run(move.entry)
        if move.rule not in self.waived:
            self.refuse("GEN-5", f"{move.rule} does not refuse this entry, so there is nothing to override.")
        message, entries = self.waived[move.rule]
        record = (self.eid, move.rule, move.reason, move.seat, message, entries)
        self.s.overrides = self.s.overrides + (record,)
        self.events.append({"kind": "override", "rule": move.rule, "reason": move.reason,
                            "by": self.name(move.seat) if move.seat is not None else None})

    def do_ResolveFlag(self, move: ResolveFlag) -> None:
        # (no Spite & Malice rule flags: every check is immediate; an imported transcript may still decide one)
        self.s.flags, status = decide_flag(self.s.flags, move, self.name(move.seat), self.eid, self.refuse)
        self.events.append({"kind": "flag_resolved", "flag": move.flag, "status": status})

    # --- what the table has seen (GEN-3, SM-K7) ----------------------------------------------
    def sighted(self, card: str | None, face_up: list[str | None] | None = None) -> None:
        """A card newly face up: there are only so many of its rank (SM-K7) and of its code (GEN-3).
        ``face_up``: the cards the table could place before (default: the draft's, ``State.face_up``)."""
        if card is None:
            return
        s = self.s
        copies = copies_of_ranks(s.decks, s.rules)
        rank = rank_of(card)
        if rank not in copies:
            self.refuse("SM-V11", "There are no jokers at this table.")
        cards = s.face_up() if face_up is None else face_up
        seen = ranks_of(cards).count(rank)  # State.seen_ranks()[rank], without the Counter
        if not self.check(seen < copies[rank], "SM-K7",
                          f"All {copies[rank]} {_plural(rank)} of the decks are already face up on the table: "
                          f"{said(rank)} now must be a mis-tap or a misread photo."):
            return
        full = deck(s.decks, s.rules)
        if card in full:
            self.check(cards.count(card) < full[card], "GEN-3",
                       f"Every {card} of the decks ({full[card]}) is already face up on the table: this must be "
                       "a mis-tap or a misread photo.")

    # --- setting up -------------------------------------------------------------------------
    def not_over(self) -> None:
        if self.s.phase == "over":
            self.refuse("SM-43", "The match is over: no more entries can be played.")

    def do_Top(self, m: Top) -> None:
        self.not_over()
        st, who = self.s.seats[m.seat], self.name(m.seat)
        if st.payoff < 1:
            self.refuse("SM-15", f"{who} has no pay-off cards left.")
        if not st.top_owed:
            rule = "SM-3" if self.s.phase == "setup" else "SM-15"  # turned up at the deal, or after a build
            if st.top is not None:
                self.refuse(rule, f"{who}'s pay-off top is already entered ({st.top}): correct that entry "
                                  "in the history instead.")
            if m.card is None:
                self.refuse(rule, f"{who}'s pay-off top is already entered as unknown.")
        self.sighted(m.card)
        self.seat(m.seat, top=m.card, top_owed=False)
        self.s.last_entry = self.eid
        self.events.append({"kind": "top", "seat": who, "card": card_name(m.card)})
        if self.s.phase == "setup":
            self.decide_start()

    def decide_start(self) -> None:
        """SM-7: once every top is entered, the higher top starts; equal tops turn again (SM-V9), and a
        king is turned again under SM-V10 ``redo``; unknown tops leave it to the table."""
        s = self.s
        if any(st.top_owed for st in s.seats):
            return
        if any(st.top is None for st in s.seats):
            self.note("SM-7", "Not every pay-off top is known: enter who starts.", "start_pending")
            return
        values = [start_value(st.top, s.rules) for st in s.seats]  # type: ignore[arg-type]
        redo = [i for i, v in enumerate(values) if v is None]
        if redo:
            for i in redo:
                self.seat(i, top=None, top_owed=True)
            names = " and ".join(s.players[i] for i in redo)
            self.note("SM-V10", f"A king does not decide who starts at this table: {names} shuffle the king back "
                                "into the pay-off pile and turn a new top.", "reshuffle")
            return
        best = max(v for v in values if v is not None)
        leaders = [i for i, v in enumerate(values) if v == best]
        if len(leaders) == 1:
            tops = ", ".join(f"{s.players[i]} {card_label(st.top)}" for i, st in enumerate(s.seats))
            self.begin(leaders[0], f"the higher pay-off top ({tops})")
            return
        names = " and ".join(s.players[i] for i in leaders)
        if s.rules["start_tie"] == "coin_flip":
            self.note("SM-V9", f"Equal pay-off tops ({names}): toss a coin and enter who starts.", "start_pending")
            return
        for i in leaders:
            self.seat(i, top=None, top_owed=True)
        self.note("SM-7", f"Equal pay-off tops: {names} shuffle their pay-off piles and turn new tops.", "reshuffle")

    def begin(self, seat: int, why: str) -> None:
        d = self.s
        d.phase, d.turn, d.starter, d.ended, d.ending, d.owed, d.owed_rule = "play", seat, seat, None, False, 0, ""
        d.last_entry = self.eid
        self.note("SM-7", f"{self.name(seat)} starts: {why}.", "start")
        if self.s.rules["refill_timing"] == "start_of_turn":
            need = max(0, HAND - self.s.seats[seat].hand)
            if need:  # pragma: no cover - the deal gives 5; only a hand-made state lacks cards
                self.require_draw(seat, need, "SM-10")

    def do_Start(self, m: Start) -> None:
        self.not_over()
        s = self.s
        if s.phase != "setup":
            self.refuse("SM-7", f"Play has started: {self.name(s.starter)} started.")
        owed = [s.players[i] for i, st in enumerate(s.seats) if st.top_owed]
        self.check(not owed, "SM-7", f"Enter the pay-off tops first: {', '.join(owed)}.")
        if not owed and all(st.top is not None for st in s.seats):
            values = [start_value(st.top, s.rules) for st in s.seats]  # type: ignore[arg-type]
            best = max(v for v in values if v is not None)
            leaders = [i for i, v in enumerate(values) if v == best]
            tied = " and ".join(s.players[i] for i in leaders)
            self.check(m.seat in leaders, "SM-V9", f"The coin is tossed between {tied}: one of them starts.")
        self.begin(m.seat, "entered by the table")

    # --- the turn ---------------------------------------------------------------------------
    def in_turn(self, seat: int) -> None:
        self.not_over()
        s = self.s
        if s.phase == "setup":
            self.refuse("SM-7", "Play has not started: enter the pay-off tops (and who starts) first.")
        if seat != s.turn:
            if seat == s.ended:
                self.check(False, "SM-17", f"{self.name(seat)}'s turn ended with the discard onto a side stack: "
                                           f"it is {self.name(s.turn)}'s turn now.")
            elif s.ending and s.owed:  # the discard made, the refill still to enter (SM-V5)
                self.check(False, "SM-22", f"{self.name(s.turn)} discarded and draws {s.owed} from the stock to "
                                           f"end the turn (SM-V5); then it is the next player's turn.")
            else:
                self.check(False, "SM-22", f"It is {self.name(s.turn)}'s turn, not {self.name(seat)}'s.")

    def draw_first(self, seat: int) -> None:
        s = self.s
        if s.owed and seat == s.turn:
            self.check(False, s.owed_rule or "SM-10",
                       f"{self.name(seat)} draws {s.owed} from the stock first "
                       f"({'the hand is empty' if s.owed_rule == 'SM-16' else 'back up to 5'}).")

    def do_Draw(self, m: Draw) -> None:
        self.in_turn(m.seat)
        s, st, who = self.s, self.s.seats[m.seat], self.name(m.seat)
        owed = s.owed if m.seat == s.turn else 0
        n = owed if m.count is None else m.count
        if not owed:
            self.check(False, "SM-K3", f"No draw is owed now: {who} holds {st.hand} card{_s(st.hand)}.")
        elif n != owed:
            self.check(False, "SM-K3", f"{who} holds {st.hand} card{_s(st.hand)}: exactly {owed} must be drawn "
                                       f"to make {st.hand + owed}, not {n}.")
        if n > s.stock:
            self.refuse("SM-K3", f"The stock holds only {s.stock} card{_s(s.stock)}.")
        self.seat(m.seat, hand=st.hand + n)
        mine = m.seat == s.turn
        ending = s.ending and mine
        s.stock -= n
        if mine:
            s.owed, s.owed_rule = 0, ""
        s.last_entry = self.eid
        self.events.append({"kind": "draw", "seat": who, "count": n})
        if ending:
            self.pass_turn(m.seat)

    def take(self, seat: int, source: str, claimed: str | None) -> tuple[str | None, bool]:
        """The card a build takes from ``source``, and whether the table sees it for the first time;
        the source loses it (SM-11, SM-K2, SM-20)."""
        st, who = self.s.seats[seat], self.name(seat)
        kind, k = _source_parts(source)
        if kind == "pile":
            self.refuse("SM-19", "A card on a building pile stays there until the pile is complete.")
        if kind == "hand":
            if st.hand < 1:
                self.refuse("SM-K3", f"{who} has no cards in hand.")
            self.seat(seat, hand=st.hand - 1)
            return claimed, True
        if kind == "payoff":
            if st.payoff < 1:  # pragma: no cover - the game ends when a pay-off pile empties
                self.refuse("SM-11", f"{who} has no pay-off cards left.")
            if st.top_owed:
                self.check(False, "SM-K8", f"Enter {who}'s new pay-off top first (tap unknown if nobody saw it): "
                                           "then the card built from it can be checked.")
            card, new = self.claim(who, "pay-off top", st.top, claimed, (), ())
            payoff = st.payoff - 1
            self.seat(seat, payoff=payoff, top=None, top_owed=payoff > 0)
            return card, new
        sides = st.sides
        if k is None or k > len(sides) or not sides[k - 1]:
            self.refuse("SM-11", f"{who} has no side stack {k}: it is empty.")
        stack = sides[k - 1]  # type: ignore[index]
        card, new = self.claim(who, f"side stack {k}", stack[-1], claimed, stack[:-1], at_place(st.sides_from, k - 1))
        rest = at_place(st.sides_from, k - 1)[:-1]  # type: ignore[operator]
        self.seat(seat, sides=sides[:k - 1] + (stack[:-1],) + sides[k:],  # type: ignore[operator]
                  sides_from=with_place(st.sides_from, k - 1, rest, len(sides)))  # type: ignore[operator]
        return card, new

    def claim(self, who: str, where: str, top: str | None, claimed: str | None,
              below: Stack, placed: tuple[int, ...]) -> tuple[str | None, bool]:
        """SM-K2: a card claimed from a pile must be its public top; an unknown top takes the claim. A
        refusal points at the entries that put the claimed card and the top there (``placed``: the entries
        of the pile's cards, bottom first, where known)."""
        if top is None:
            return claimed, claimed is not None
        if claimed is None or same_card(top, claimed):
            return (top if claimed is None or rank_of(claimed) == claimed else claimed), False
        under = [i for i, c in enumerate(below) if c is not None and same_card(c, claimed)]
        on_top = placed[-1:] if len(placed) == len(below) + 1 else ()
        if under:
            at = under[-1]
            self.check(False, "SM-20", f"The {card_label(claimed)} is under the top of {who}'s {where}: only the "
                                       f"top card, the {card_label(top)}, may be played.",
                       (*placed[at:at + 1], *on_top) if on_top else ())
        else:
            self.check(False, "SM-K2", f"{who}'s {where} is the {card_label(top)}, not the {card_label(claimed)}.",
                       on_top)
        return claimed, True

    def do_Build(self, m: Build) -> None:
        self.in_turn(m.seat)
        s, who = self.s, self.name(m.seat)
        if s.ending and m.seat == s.turn:
            self.check(False, "SM-17", f"{who}'s turn ended with the discard: only the refill is left.")
        self.draw_first(m.seat)
        before = (s.center, s.held, s.seats)  # what the table could place before the card was taken
        card, new = self.take(m.seat, m.source, m.card)
        center = list(self.s.center)
        p = m.pile
        if p <= len(center) and center[p - 1]:
            stack = center[p - 1]
        else:
            cap = s.rules["max_center_stacks"]
            live = s.live_stacks()
            if cap is not None and live >= cap:
                self.check(False, "SM-13", f"There {'is' if live == 1 else 'are'} already {live} building "
                                           f"pile{_s(live)}, the most this table allows: build on "
                                           f"{'it' if live == 1 else 'one of them'}.")
            stack = ()
            if p > len(center):  # a new pile takes the first free place
                p = next((i + 1 for i, x in enumerate(center) if not x), len(center) + 1)
        why = build_problem(len(stack), card, s.rules)
        if why:
            self.check(False, "SM-12", sentence_start(why) + ".", pile_entry(s, p) if stack else ())
        if new:
            self.sighted(card, cards_face_up(*before))
        stack = stack + (card,)
        if p > len(center):
            center.append(stack)
        else:
            center[p - 1] = stack
        built = at_place(s.center_from, p - 1)[:len(stack) - 1] + (self.eid,)
        s.center, s.center_from = tuple(center), with_place(s.center_from, p - 1, built, len(center))
        s.last_entry = self.eid
        self.events.append({"kind": "build", "seat": who, "card": card_name(card), "pile": p, "source": m.source,
                            "rank": len(stack)})
        if len(stack) >= QUEEN:
            self.complete(p)
        st = self.s.seats[m.seat]
        kind = _source_parts(m.source)[0]
        if kind == "payoff":
            if st.payoff == 0:
                self.win(m.seat)
                return
            self.events.append({"kind": "payoff_turned", "rule": "SM-15",
                                "message": f"{who}: turn the next pay-off card and enter it ({st.payoff} left)."})
        # the draw owed is the turn's (an out-of-turn build let stand, GEN-5, empties a hand that is
        # filled at its own turn's start, SM-10)
        if kind == "hand" and st.hand == 0 and not self.s.owed and m.seat == self.s.turn:
            self.require_draw(m.seat, HAND, "SM-16")
            if self.s.owed:
                self.note("SM-16", f"{who} has built every hand card: draw 5 more and carry on.", "hand_empty")

    def complete(self, p: int) -> None:
        """SM-14, SM-K6: a pile that reaches a queen leaves the table with its 12 cards."""
        s = self.s
        center = list(s.center)
        cards = center[p - 1]
        center[p - 1] = ()
        while center and not center[-1]:
            center.pop()
        s.center = tuple(center)
        s.center_from = tuple(() if i == p - 1 else at_place(s.center_from, i) for i in range(len(center)))
        s.completed += 1
        if s.rules["completed_stack_handling"] == "shuffle_in_now":
            s.stock += len(cards)
            self.note("SM-14", f"Pile {p} is complete: shuffle its {len(cards)} cards into the stock "
                               f"(now {self.s.stock}).", "complete")
        else:
            s.held = s.held + cards
            self.note("SM-V13", f"Pile {p} is complete: set its {len(cards)} cards aside until the stock runs "
                                "out.", "complete")

    def do_Discard(self, m: Discard) -> None:
        self.in_turn(m.seat)
        s, st, who = self.s, self.s.seats[m.seat], self.name(m.seat)
        kind, k = _source_parts(m.source)
        if kind == "payoff":
            self.refuse("SM-19", "A pay-off card goes only onto a building pile, never onto a side stack.")
        if kind == "side":
            self.refuse("SM-19", "Cards never move from one side stack to another: only a hand card goes onto a "
                                 "side stack.")
        if kind == "pile":
            self.refuse("SM-19", "A card on a building pile stays there until the pile is complete.")
        if s.ending and m.seat == s.turn:
            self.check(False, "SM-K4", f"{who} has already discarded this turn: one discard ends the turn.")
        self.draw_first(m.seat)
        if st.hand < 1:
            self.refuse("SM-K3", f"{who} has no cards in hand (the stock could not refill it, SM-A8).")
        sides = st.sides
        most = s.rules["max_side_stacks"]
        said = ("Each player has only one side stack: the card goes onto it." if most == 1 else
                f"Each player has at most {most} side stacks: the card goes onto one of them.")
        if not 1 <= m.stack <= max(most, len(sides)) + 1:  # past the next new stack: no override makes a gap
            self.refuse("SM-18", said)
        if m.stack > most:  # one stack more than the table's most (SM-V3): a person may let it stand
            self.check(False, "SM-18", said)
            sides = sides + ((),) * (m.stack - len(sides))
        stack = sides[m.stack - 1]
        why = side_problem(stack[-1] if stack else None, m.card, s.rules)
        if why:
            self.check(False, "SM-V12", sentence_start(why) + ".", st.side_entry(m.stack))
        if s.rules["payoff_compulsory"] and not st.top_owed and st.top is not None:
            fits = _fits(s, st.top)
            if fits:
                self.check(False, "SM-A9", f"At this table {who}'s pay-off {st.top} must be built first: it goes "
                                           f"on {fits}.")
        self.sighted(m.card)
        put = at_place(st.sides_from, m.stack - 1)[:len(stack)] + (self.eid,)
        self.seat(m.seat, hand=st.hand - 1, sides=sides[:m.stack - 1] + (stack + (m.card,),) + sides[m.stack:],
                  sides_from=with_place(st.sides_from, m.stack - 1, put, len(sides)))
        s.last_entry = self.eid
        self.events.append({"kind": "discard", "seat": who, "card": card_name(m.card), "stack": m.stack})
        if m.seat != s.turn:  # an override let another player's discard stand: the turn is unchanged
            return
        if s.rules["refill_timing"] == "end_of_turn":
            need = max(0, HAND - s.seats[m.seat].hand)
            s.ending, s.ended = True, m.seat
            if need:
                self.require_draw(m.seat, need, "SM-V5")
                return
        self.pass_turn(m.seat)

    def pass_turn(self, seat: int) -> None:
        """SM-17, SM-22: the next player's turn, with the refill owed at its start (SM-10)."""
        s = self.s
        if s.phase != "play":
            return
        nxt = (seat + 1) % len(s.players)
        s.turn, s.ending, s.ended, s.owed, s.owed_rule = nxt, False, seat, 0, ""
        if s.rules["refill_timing"] == "start_of_turn":
            need = max(0, HAND - s.seats[nxt].hand)
            if need:
                self.require_draw(nxt, need, "SM-10")

    def require_draw(self, seat: int, n: int, rule: str) -> None:
        """A draw the rules require: owed, or the end of the game if the stock cannot cover it (SM-41),
        set-aside piles being shuffled in first (SM-V13)."""
        s = self.s
        if n > s.stock and s.held:
            s.stock, s.held = s.stock + len(s.held), ()
            self.note("SM-V13", f"The stock is short: shuffle the set-aside cards into it (now {s.stock}).",
                      "shuffle_in")
        if n > s.stock:
            self.exhausted(seat, n)
            return
        s.owed, s.owed_rule = n, rule

    # --- the end of a game ------------------------------------------------------------------
    def win(self, seat: int) -> None:
        """SM-40, SM-42: the last pay-off card is built."""
        s = self.s
        left = sum(st.payoff for i, st in enumerate(s.seats) if i != seat)
        how = s.rules["scoring"]
        points = 5 + left if how == "pagat_5_plus" else left if how == "cards_left" else 0
        words = f"{self.name(seat)} builds the last pay-off card and wins the game"
        if how != "none":
            words += f": {points} point{_s(points)}" + (f" (5 + {left} pay-off cards left)" if how == "pagat_5_plus"
                                                        else f" ({left} pay-off cards left)")
        self.end_game(seat, "payoff", points, words + ".", "SM-40")

    def exhausted(self, seat: int, n: int) -> None:
        """SM-41: a required draw cannot be made."""
        s = self.s
        counts = [st.payoff for st in s.seats]
        why = (f"The stock cannot give {self.name(seat)} the {n} card{_s(n)} owed"
               f"{' (it is empty)' if s.stock == 0 else f' (it holds {s.stock})'}")
        if s.rules["stock_exhaustion"] == "draw":
            self.end_game(None, "exhaustion", 0, f"{why}: the game is a draw (SM-V6).", "SM-41")
            return
        fewest = min(counts)
        leaders = [i for i, c in enumerate(counts) if c == fewest]
        left = ", ".join(f"{p} {c}" for p, c in zip(s.players, counts))
        if len(leaders) > 1:
            self.end_game(None, "exhaustion", 0, f"{why}: equal pay-off piles ({left}), the game is a draw.",
                          "SM-41")
            return
        winner = leaders[0]
        points = 0
        if s.rules["exhaustion_points"] == "difference" and s.rules["scoring"] != "none":
            points = min(c for i, c in enumerate(counts) if i != winner) - fewest
        self.end_game(winner, "exhaustion", points,
                      f"{why}: {self.name(winner)} has the fewest pay-off cards left ({left}) and wins"
                      + (f", {points} point{_s(points)}." if points else "."), "SM-41")

    def end_game(self, winner: int | None, how: str, points: int, words: str, rule: str) -> None:
        """The game's result; the match goes on to its target (SM-43, SM-V8) or ends."""
        s = self.s
        result = GameResult(s.number, winner, how, tuple(st.payoff for st in s.seats), points)
        totals = list(s.totals)
        if winner is not None:
            totals[winner] += points
        history = s.history + (result,)
        self.note(rule, words, "game_over")
        target = s.rules["match_target"]
        single = target is None or s.rules["scoring"] == "none"
        if single:
            winners = (winner,) if winner is not None else tuple(range(len(s.players)))
            outcome = words if winner is not None else words + " Nobody wins."
        elif winner is not None and totals[winner] >= target:
            winners = (winner,)
            outcome = (f"{self.name(winner)} wins the match with {totals[winner]} points "
                       f"({', '.join(f'{p} {t}' for p, t in zip(s.players, totals))}).")
            self.note("SM-43", outcome, "match_over")
        else:
            number = s.number + 1
            s.load(deal(s.players, dict(s.rules), number, history, tuple(totals), flags=s.flags,
                        overrides=s.overrides, version=s.version, last_entry=self.eid))
            self.note("SM-43", f"Game {number}: shuffle all the decks together, deal the pay-off piles and hands, and "
                               "enter the pay-off tops.", "new_game")
            return
        s.phase, s.over, s.turn, s.owed, s.owed_rule, s.ending = "over", True, None, 0, "", False
        s.history, s.totals, s.winners, s.outcome, s.last_entry = history, tuple(totals), winners, outcome, self.eid


def _fits(state: State, card: str) -> str:
    """Where ``card`` could go straight away ("pile 2", "a new pile"), or "" (SM-A9)."""
    for i, stack in enumerate(state.center):
        if stack and fits(len(stack), card, state.rules):
            return f"pile {i + 1}"
    cap = state.rules["max_center_stacks"]
    if (cap is None or state.live_stacks() < cap) and fits(0, card, state.rules):
        return "a new pile"
    return ""


_SOURCES: dict[str, tuple[str, int | None]] = {}


def _source_parts(source: str) -> tuple[str, int | None]:
    """``source_parts``, worked out once for each source."""
    parts = _SOURCES.get(source)
    if parts is None:
        parts = _SOURCES[source] = source_parts(source)
    return parts


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _plural(rank: str) -> str:
    return {"JOKER": "jokers", "A": "aces", "J": "jacks", "Q": "queens", "K": "kings"}.get(rank, rank + "s")
