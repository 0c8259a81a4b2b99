"""The rules of the pile, as pure functions of a state: the effective top through 3s (SH-11, SH-31),
whether a rank may go on it (SH-12, SH-30..34, SH-V4..V6, SH-V15), four of a kind (SH-35, SH-V14,
SH-V20), each player's active zone (SH-16) and who plays next (GEN-7, SH-34)."""
from __future__ import annotations

from typing import Any

from .shithead_rules import (SUIT_SIGNS, VALUES, a_rank, deck, natural, rank_of, say_cards, strong, suit_of,
                             transparent)
from .shithead_state import PileCard, Seat, State


def effective_top(state: State) -> tuple[PileCard | None, bool]:
    """The topmost card that is not a transparent 3, and whether 3s lie on it (SH-11)."""
    through = False
    for p in reversed(state.pile):
        if transparent(p.rank, state.rules):
            through = True
            continue
        return p, through
    return None, through


#: The ranks in the order a sentence lists them ("a 2, 3, 9 or 10").
ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _refusal(state: State, rank: str, cards: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Whether a play of ``rank`` (``cards``, for a 9's suit) may go on the pile now: None if it may, else
    (rule, what is in the way: "ten_after_seven", "suit", "seven" or "lower"). The one decision behind
    the refusals, the hints and the list of cards that go on anything (SH-12, SH-30..34, SH-V4..V6,
    SH-V15)."""
    rules = state.rules
    top, through = effective_top(state)
    if strong(rank, rules):
        if (rank == "10" and rules["ten_after_seven"] == "blocked" and top is not None and top.rank == "7"):
            return "SH-V15", "ten_after_seven"
        return None
    special = rank in ("7", "8") or (rank == "9" and (rules["nine_reverse"] != "off" or rules["nine_same_suit"]))
    if (rules["specials_anytime"] and special) or (rank == "9" and rules["nine_reverse"] == "strong"):
        return None
    if top is None or top.rank == "2":
        return None
    if rules["nine_same_suit"] and top.rank == "9":
        suit = suit_of(top.card)
        if not suit or all(c == "JOKER" or suit_of(c) == suit for c in cards):
            return None
        return "SH-V6", "suit"
    value = VALUES[rank]
    if top.rank == "7":
        return None if value <= 7 else ("SH-33", "seven")
    if value >= VALUES[top.rank]:
        return None
    return ("SH-31" if through else "SH-34" if top.rank == "8" else "SH-12"), "lower"


def pile_entries(state: State) -> tuple[int, ...]:
    """The entries that put the card to beat on the pile and the 3s lying on it (SH-11): what a refusal
    of a card that does not fit points at, besides the refused entry (GEN-10)."""
    top, _ = effective_top(state)
    if top is None:
        return ()
    plays = [p.play for p in state.pile[state.pile.index(top):]]
    return tuple(sorted(set(plays)))


def fits(state: State, rank: str, cards: tuple[str, ...] = ()) -> bool:
    """Whether a play of ``rank`` may go on the pile now: ``illegal`` is None, told without its words."""
    return _refusal(state, rank, cards) is None


def _by_order(state: State, top: PileCard, rank: str) -> bool:
    """Whether a natural ``rank`` goes on ``top`` by the order of the ranks alone (SH-12 steps 3-4)."""
    if not natural(rank, state.rules):
        return False
    return VALUES[rank] <= 7 if top.rank == "7" else VALUES[rank] >= VALUES[top.rank]


def beyond_order(state: State) -> tuple[tuple[str, ...], bool]:
    """The ranks that go on the pile now though the order of the ranks would not let them (the 2, 3 and
    10; a 7, 8 or 9 a house rule lets go on anything, SH-V4, SH-V5), as the engine decides each play
    (``_refusal``), and whether a joker goes too (SH-V2: it may be named any of them). After a 9 at a
    same-suit table (SH-V6): the ranks that go in another suit. Empty when anything goes."""
    top, _ = effective_top(state)
    if top is None or top.rank == "2" or (state.rules["nine_same_suit"] and top.rank == "9"
                                          and not suit_of(top.card)):  # a joker named a 9 has no suit
        return (), False
    if state.rules["nine_same_suit"] and top.rank == "9":
        other = next(x for x in SUIT_SIGNS if x != suit_of(top.card))
        ranks = tuple(r for r in ORDER if _refusal(state, r, (r + other,)) is None)
    else:
        ranks = tuple(r for r in ORDER if _refusal(state, r) is None and not _by_order(state, top, r))
    joker = bool(state.rules["jokers"]) and any(_refusal(state, r, ("JOKER",)) is None for r in ORDER)
    return ranks, joker


def goes_anywhere(state: State) -> str:
    """The cards that go on the pile now whatever it shows, in a sentence ("a 2, 3 or 10"; "a 2, 3, 9 or
    10" where the 9 goes on anything, SH-V5; "..., or a joker", SH-V2), from the engine's own decision
    (``beyond_order``), so that a hint or a refusal lists exactly what the table's rules allow."""
    ranks, joker = beyond_order(state)
    said = ""
    if ranks:
        said = a_rank(ranks[0]) if len(ranks) == 1 else \
            f"{a_rank(ranks[0])}{''.join(', ' + r for r in ranks[1:-1])} or {ranks[-1]}"
    if joker:
        said = f"{said}, or a joker" if said else "a joker"
    return said


def illegal(state: State, rank: str, cards: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Why a play of ``rank`` may not go on the pile now, as (rule, words); None if it may (SH-12)."""
    why = _refusal(state, rank, cards)
    if why is None:
        return None
    rule, what = why
    top, through = effective_top(state)
    under = " under the 3s" if through else ""
    if what == "ten_after_seven":
        return rule, f"A 7{under} is on top: at this table a 10 may not burn it."
    anywhere = goes_anywhere(state)
    if what == "suit":
        sign = SUIT_SIGNS.get(suit_of(top.card), suit_of(top.card))
        return rule, f"After the 9{under} the next card must be of its suit ({sign}), or {anywhere}."
    if what == "seven":
        return rule, f"A 7{under} is on top: the next card must be a 7 or lower, or {anywhere}."
    return rule, (f"The card to beat is the {top.rank}{under}: {a_rank(rank)} is lower "
                  f"(play {a_rank(top.rank)} or higher, or {anywhere}).")


def quartet_ranks(state: State, pile: tuple[PileCard, ...]) -> list[str]:
    """Each pile card's rank for four of a kind: a 3 copies the card under it with SH-V14 copies_below."""
    out: list[str] = []
    copies = state.rules["three_in_quartet"] == "copies_below"
    for p in pile:
        r = p.rank
        if copies and transparent(r, state.rules) and out:
            r = out[-1]
        out.append(r)
    return out


def run_length(state: State, pile: tuple[PileCard, ...] | None = None) -> tuple[str | None, int]:
    """The rank on top and how many count towards four of a kind (SH-35, SH-V20)."""
    pile = state.pile if pile is None else pile
    if not pile:
        return None, 0
    ranks = quartet_ranks(state, pile)
    top = ranks[-1]
    if state.rules["quartet_scope"] == "top_run":
        n = 0
        for r in reversed(ranks):
            if r != top:
                break
            n += 1
        return top, n
    plays: list[list[int]] = []  # pile indices grouped by play, top first
    for i in range(len(pile) - 1, -1, -1):
        if plays and pile[plays[-1][0]].play == pile[i].play:
            plays[-1].append(i)
        else:
            if len(plays) == 2:
                break
            plays.append([i])
    n = 0
    for group in plays:
        if any(ranks[i] != top for i in group):
            break
        n += len(group)
    return top, n


def zone(state: State, seat: int) -> str | None:
    """The cards ``seat`` plays from now (SH-16): hand, faceup, facedown, or None (out)."""
    s = state.seats[seat]
    if s.count > 0 or state.stock > 0:
        return "hand"
    if s.faceup:
        return "faceup"
    if s.facedown:
        return "facedown"
    return None


def advance(state: State, seat: int, steps: int, direction: int | None = None) -> tuple[int | None, list[int]]:
    """The active seat ``steps`` places on from ``seat`` (GEN-7, SH-5), and the active seats passed."""
    active = set(state.active())
    if not active or steps < 1:
        return (seat if seat in active else None), []
    d = state.direction if direction is None else direction
    n, pos, passed = len(state.players), seat, []
    while True:
        pos = (pos + d) % n
        if pos in active:
            passed.append(pos)
            if len(passed) == steps:
                return pos, passed[:-1]


def possible(state: State, card: str, extra: int = 1, mine: Seat | None = None) -> bool:
    """Whether ``extra`` more sightings of ``card`` fit the deck (GEN-3, SH-K5); ``mine``'s own known
    cards are where the card is being looked for, so they do not count against it."""
    seen = state.sightings(card)
    if mine is not None:
        seen -= mine.known.count(card)
    return seen + extra <= deck(state.decks, state.rules).get(card, 0)


def set_rank(cards: tuple[str, ...], rank: str | None) -> str | None:
    """The rank a set of cards plays as, or None if they are not one rank (SH-13, SH-A13)."""
    ranks = {rank_of(c) for c in cards if c != "JOKER"}
    if rank is not None:
        ranks.add(rank)
    if len(ranks) != 1:
        return None
    return ranks.pop()


def describe_top(state: State) -> str:
    """What may go on the pile now, in words (the status line): exactly the ranks the engine accepts."""
    top, through = effective_top(state)
    if top is None:
        return "anything"
    if top.rank == "2":
        return "anything (a 2 is on top)"
    if state.rules["nine_same_suit"] and top.rank == "9" and not suit_of(top.card):
        return "anything"  # a joker named a 9 has no suit to follow (SH-V6)
    anywhere = goes_anywhere(state)
    if state.rules["nine_same_suit"] and top.rank == "9":
        return f"a card of the 9's suit ({SUIT_SIGNS[suit_of(top.card)]}), or {anywhere}"
    if top.rank == "7":
        return f"a 7 or lower, or {anywhere}"
    return f"{a_rank(top.rank)} or higher, or {anywhere}"


def pile_words(cards: Any) -> str:
    """Cards in a sentence, as the table says them ("6♦ 6♥ 6♠")."""
    return say_cards(cards)


def declared_face_up(state: State, seat: int, card: str | None) -> bool:
    """Whether the starter's declared lowest card is one of their own face-up cards (SH-V19
    ``hand_and_faceup``): it is already on the table, so it is not a new sighting."""
    return (card is not None and state.rules["start_rank_zones"] == "hand_and_faceup"
            and card in state.seats[seat].faceup)


def must_play_declared(state: State, seat: int) -> bool:
    """SH-4 / SH-V17: the starter's first play must include the declared rank. A declared card lying
    face up (SH-V19) cannot be played from the hand, so it binds nothing (RULES.md is silent on this)."""
    return (not state.first_played and bool(state.declared) and seat == state.starter
            and bool(state.rules["starter_must_play_declared"])
            and not declared_face_up(state, seat, state.declared))
