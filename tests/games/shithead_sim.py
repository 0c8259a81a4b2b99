"""A simulated physical Shithead table: a TRUE shuffled deck the referee never sees, and a random but
honest driver that enters what a careful table would (RULES.md §4). Each seat's true hand, face-up and
face-down cards, the stock, the pile and the burned cards follow the engine's events (draws, burns,
pick-ups, failed table cards, the next game's deal), so the engine's arithmetic and public knowledge can
be checked against the truth.

The driver does not ask the engine what is legal: the pile's rules (the effective top through 3s, SH-11;
what may go on it, SH-12, SH-30..34 with SH-V1, V4, V5, V6, V15; four of a kind, SH-35 with SH-V14, V20)
are read from RULES.md again here, so an engine that refuses an honest entry, burns when nothing should
burn, or draws the wrong number of cards is caught (``follow`` checks the burns, the failed table cards
and the refills of SH-15 / SH-K3 as they happen)."""
from __future__ import annotations

import random
from collections import Counter

from referee.games import shithead as sh
from referee.games.shithead_rules import deck

VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "J": 11, "Q": 12, "K": 13, "A": 14}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HAND = 3


def rank_of(card: str) -> str:
    return card if card == "JOKER" else card[:-1]


def suit_of(card: str) -> str:
    return "" if card == "JOKER" else card[-1]


class Table:
    def __init__(self, players: tuple[str, ...], rules: dict, seed: int):
        self.rng = random.Random(seed)
        self.state = sh.new_match(players, rules)
        self.rules = self.state.rules
        self.entries = 0
        self._deal()

    def _deal(self) -> None:
        cards = list(Counter(deck(self.state.decks, self.rules)).elements())
        self.rng.shuffle(cards)
        self.deck_size = len(cards)
        n, down = len(self.state.players), self.rules["facedown_count"]
        self.down = [[cards.pop() for _ in range(down)] for _ in range(n)]
        self.up = [[cards.pop() for _ in range(3)] for _ in range(n)]
        self.hand = [[cards.pop() for _ in range(3)] for _ in range(n)]
        self.stock = cards
        self.pile: list[str] = []                    # the cards, bottom first
        self.played: list[tuple[str, int, int]] = []  # each pile card's (rank it acts as, seat, play)
        self.burned: list[str] = []
        self.swaps = 0
        self.just: tuple[int, str, int, list[str]] | None = None  # SH-41: (seat, rank, play, cards drawn)

    # --- the rules of the pile, read from RULES.md ---------------------------------------------------
    def strong(self, rank: str) -> bool:
        return rank in ("2", "10") or (rank == "3" and not self.rules["three_is_normal"])

    def natural(self, rank: str) -> bool:
        return rank in VALUE and not self.strong(rank)

    def transparent(self, rank: str) -> bool:
        return rank == "3" and not self.rules["three_is_normal"]

    def top(self) -> tuple[str | None, str | None]:
        """SH-11: the topmost (card, rank) that is not a transparent 3."""
        for card, (rank, _, _) in zip(reversed(self.pile), reversed(self.played)):
            if not self.transparent(rank):
                return card, rank
        return None, None

    def legal(self, rank: str, cards: tuple[str, ...]) -> bool:
        """SH-12 (with SH-30..34, SH-V1, V4, V5, V6 as SH-A11 reads it, V15)."""
        r = self.rules
        card, top = self.top()
        if self.strong(rank):
            return not (rank == "10" and r["ten_after_seven"] == "blocked" and top == "7")
        if rank == "9" and r["nine_reverse"] == "strong":
            return True
        if r["specials_anytime"] and (rank in ("7", "8") or (rank == "9" and (r["nine_reverse"] != "off"
                                                                              or r["nine_same_suit"]))):
            return True
        if top is None or top == "2":
            return True
        if r["nine_same_suit"] and top == "9":
            suit = suit_of(card)
            return not suit or all(c == "JOKER" or suit_of(c) == suit for c in cards)
        if top == "7":
            return VALUE[rank] <= 7
        return VALUE[rank] >= VALUE[top]

    def run(self, extra: tuple[str, int] | None = None) -> tuple[str | None, int]:
        """SH-35: the rank on top and how many count towards four of a kind (SH-V14, SH-V20), after
        ``extra`` = (rank, k): k more cards of that rank laid as a new play."""
        played = [(rank, play) for rank, _, play in self.played]
        if extra:
            played += [(extra[0], -1)] * extra[1]
        ranks: list[str] = []
        for rank, _ in played:
            if self.rules["three_in_quartet"] == "copies_below" and self.transparent(rank) and ranks:
                rank = ranks[-1]
            ranks.append(rank)
        if not ranks:
            return None, 0
        top, n = ranks[-1], 0
        if self.rules["quartet_scope"] == "top_run":
            for rank in reversed(ranks):
                if rank != top:
                    break
                n += 1
            return top, n
        plays: list[int] = []  # last_play_plus_current: this play and the one before only
        for i in range(len(ranks) - 1, -1, -1):
            if played[i][1] not in plays:
                if len(plays) == 2:
                    break
                plays.append(played[i][1])
            if ranks[i] != top:
                break
            n += 1
        return top, n

    def zone(self, seat: int) -> str | None:
        """SH-16, from the true cards."""
        if self.hand[seat] or self.stock:
            return "hand"
        return "faceup" if self.up[seat] else "facedown" if self.down[seat] else None

    def holds(self, seat: int) -> bool:
        return bool(self.hand[seat] or self.up[seat] or self.down[seat])

    # --- the driver: the honest entries now ----------------------------------------------------------
    def honest_entries(self) -> list:
        s = self.state
        if s.phase == "setup":
            todo = [sh.FaceUp(i, tuple(self.up[i])) for i, x in enumerate(s.seats) if not x.entered]
            if todo:
                return todo[:1]
            out: list = [self._start()]
            if self.rules["faceup_swap_allowed"] and self.swaps < len(s.players):  # SH-3
                out += [sh.Swap(i, self.rng.choice(self.hand[i]), self.rng.choice(self.up[i]))
                        for i in range(len(s.players))]
            return out
        if s.phase != "play":
            return []
        return self._interrupts() + self._adds() + self._turn(s.turn)

    def _subset(self, cards: list[str], least: int = 1) -> tuple[str, ...]:
        return tuple(self.rng.sample(cards, self.rng.randint(least, len(cards))))

    def _joker_rank(self) -> str:
        """SH-A13: the joker takes any rank its player names that may go on the pile now."""
        return self.rng.choice([r for r in RANKS if self.legal(r, ("JOKER",))])

    def _one(self, seat: int, card: str):
        return sh.Play(seat, (card,), self._joker_rank() if card == "JOKER" else None)

    def _turn(self, seat: int) -> list:
        s, r = self.state, self.rules
        where = self.zone(seat)
        pickup = [sh.Pickup(seat)] if self.pile else []
        if where == "facedown":  # SH-19: one blind card
            return [self._one(seat, self.rng.choice(self.down[seat]))] + (pickup if r["voluntary_pickup"] else [])
        if where == "faceup" and r["faceup_play"] == "one_at_a_time":  # SH-18: lift one, play it or fail
            return [self._one(seat, c) for c in self.up[seat]] + (pickup if r["voluntary_pickup"] else [])
        pool = self.hand[seat] if where == "hand" else self.up[seat]
        plays: list = []
        by_rank: dict[str, list[str]] = {}
        for c in pool:
            if c != "JOKER":
                by_rank.setdefault(rank_of(c), []).append(c)
        jokers = [c for c in pool if c == "JOKER"]
        for rank, cs in by_rank.items():
            ok = [c for c in cs if self.legal(rank, (c,))]
            if not ok:
                continue
            cards = self._subset(ok)
            if jokers and self.rng.random() < 0.3:
                cards += ("JOKER",)
            plays.append(sh.Play(seat, cards, rank if "JOKER" in cards else None))
            if where == "hand" and not self.stock and len(ok) == len(pool):  # SH-17: last hand cards + face up
                more = [c for c in self.up[seat] if rank_of(c) == rank and self.legal(rank, (c,))]
                if more:
                    plays.append(sh.Play(seat, tuple(ok) + self._subset(more)))
        if jokers:
            plays.append(self._one(seat, "JOKER"))
        if not s.first_played and s.declared and seat == s.starter and r["starter_must_play_declared"]:
            plays = [m for m in plays if any(rank_of(c) == rank_of(s.declared) for c in m.cards)]  # SH-4
        return plays + (pickup if r["voluntary_pickup"] or not plays else [])  # SH-14

    def _interrupts(self) -> list:
        """SH-40: a player (not the one whose turn it is, nor the one who played the top card) completes
        four of a kind from their active zone, never from face-down cards (SH-A9); 3+ players (SH-42)."""
        s = self.state
        active = [i for i in range(len(s.players)) if i not in s.out]
        if not self.rules["interrupts"] or len(active) < 3 or not self.pile:
            return []
        rank, n = self.run()
        if rank is None or n >= 4:
            return []
        out = []
        for other in active:
            if other == s.turn or other == self.played[-1][1] or self.zone(other) not in ("hand", "faceup"):
                continue
            mine = [c for c in (self.hand if self.zone(other) == "hand" else self.up)[other] if rank_of(c) == rank]
            need = next((k for k in range(1, len(mine) + 1) if self.run((rank, k))[1] >= 4), None)
            if need is not None:
                out.append(sh.Interrupt(other, self._subset(mine, need)))
        return out

    def _adds(self) -> list:
        """SH-41: the player who just played adds cards of that rank they just drew (3+ players)."""
        s = self.state
        if self.just is None or not self.rules["interrupts"] or len(s.active()) < 3:
            return []
        seat, rank, _, drawn = self.just
        same = [c for c in drawn if rank_of(c) == rank]
        if seat == s.turn or not same:  # playing again: the card is simply played
            return []
        return [sh.Add(seat, self._subset(same))]

    def _start(self):
        """SH-4: the lowest natural card (in hands, and face up with SH-V19), first clockwise from the
        dealer's left; a starter whose lowest card lies face up declares no hand card."""
        s = self.state
        n = len(s.players)
        if self.rules["start_rank_rule"] == "dealer_left":
            return sh.Start((s.dealer + 1) % n)
        best = None
        for k in range(1, n + 1):
            seat = (s.dealer + k) % n
            shown = self.up[seat] if self.rules["start_rank_zones"] == "hand_and_faceup" else []
            for c, in_hand in [(c, True) for c in self.hand[seat]] + [(c, False) for c in shown]:
                if self.natural(rank_of(c)) and (best is None or VALUE[rank_of(c)] < best[0]):
                    best = (VALUE[rank_of(c)], seat, c if in_hand else None)
        return sh.Start(best[1], best[2]) if best else sh.Start((s.dealer + 1) % n)

    # --- the table follows the entry ------------------------------------------------------------
    def enter(self, move) -> list[dict]:
        self.state, events = sh.apply(self.state, move, self.entries)
        self.follow(move, events)
        self.entries += 1
        return events

    def follow(self, move, events) -> None:
        seat = getattr(move, "seat", None)
        kinds = [e["kind"] for e in events]
        just, self.just = self.just, None
        if isinstance(move, sh.Swap):
            self.swaps += 1
            self.hand[seat].remove(move.card)
            self.up[seat].remove(move.out)
            self.hand[seat].append(move.out)
            self.up[seat].append(move.card)
        play = rank = None
        if isinstance(move, (sh.Play, sh.Interrupt, sh.Add)):
            where = self.zone(seat)
            rank = move.rank or rank_of(next(c for c in move.cards if c != "JOKER"))
            table_card = where in ("facedown", "faceup") and isinstance(move, sh.Play) and (
                where == "facedown" or self.rules["faceup_play"] == "one_at_a_time")
            fails = table_card and not self.legal(rank, move.cards)
            assert ("fail" in kinds) == fails, (move, kinds)  # SH-18 / SH-19
            for c in move.cards:
                self._source(where, seat, c).remove(c)
            if not fails:
                play = just[2] if isinstance(move, sh.Add) else self.entries
                k = len(move.cards)
                n = self._run_after_add(rank, k) if isinstance(move, sh.Add) else self.run((rank, k))[1]
                assert ("burn" in kinds) == (rank == "10" or n >= 4), (move, kinds)  # SH-32/35/40, SH-K6
                self.pile += move.cards
                self.played += [(rank, seat, play)] * len(move.cards)
        if isinstance(move, sh.Pickup):
            self.hand[seat] += self.pile
            self.pile, self.played = [], []
        drawn: list[str] = []
        for e in events:
            if e["kind"] == "burn":
                self.burned += self.pile
                self.pile, self.played = [], []
            elif e["kind"] == "fail":
                card = move.cards[0]
                takes = where == "facedown" or self.rules["faceup_fail_takes_card"]  # SH-V21
                self.hand[seat] += self.pile + ([card] if takes else [])
                if not takes:
                    self.up[seat].append(card)
                self.pile, self.played = [], []
            elif e["kind"] == "draw":
                name, words = e["message"].split(": draw ")
                who, n = self.state.players.index(name), int(words.rstrip("."))
                assert n == min(len(self.stock), max(0, HAND - len(self.hand[who]))), (n, e)  # SH-15 / SH-K3
                for _ in range(n):
                    self.hand[who].append(self.stock.pop())
                    drawn.append(self.hand[who][-1])
            elif e["kind"] == "game_over":
                self._game_over()
                if self.state.phase == "setup":  # the next game is dealt
                    self._deal()
                return
        if play is not None and drawn and "burn" not in kinds and self.pile and not isinstance(move, sh.Interrupt):
            self.just = (seat, rank, play, drawn)

    def _run_after_add(self, rank: str, k: int) -> int:
        """An added card is part of the play it is added to (SH-41)."""
        play = self.played[-1][2]
        self.played += [(rank, -2, play)] * k
        try:
            return self.run()[1]
        finally:
            del self.played[-k:]

    def _source(self, where: str | None, seat: int, card: str) -> list[str]:
        if where == "hand" and card in self.hand[seat]:
            return self.hand[seat]
        if where in ("hand", "faceup") and card in self.up[seat]:
            return self.up[seat]
        return self.down[seat]

    def _game_over(self) -> None:
        """SH-50..52: everyone out holds no card; the Shithead still holds some; a winner holds none."""
        s = self.state
        result = s.history[-1]
        for i in result.order:
            assert not self.holds(i), (i, self.hand[i], self.up[i], self.down[i])
        if result.shithead is not None:
            assert self.holds(result.shithead) and set(result.order) | {result.shithead} == set(range(len(s.players)))
        if result.winner is not None:
            assert result.order == (result.winner,) and not self.holds(result.winner)
