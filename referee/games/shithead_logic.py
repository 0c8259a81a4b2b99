"""The rules of the pile, as pure functions of a state: the effective top through 3s (SH-11, SH-31),
whether a rank may go on it (SH-12, SH-30..34, SH-V4..V6, SH-V15), four of a kind (SH-35, SH-V14,
SH-V20), each player's active zone (SH-16) and who plays next (GEN-7, SH-34)."""
from __future__ import annotations

from typing import Any

from .shithead_rules import SUIT_SIGNS, VALUES, a_rank, deck, rank_of, say_cards, strong, suit_of, transparent
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


def goes_anywhere(rules) -> str:
    """The ranks that go on any card (SH-12): a 3 among them unless it is an ordinary card (SH-V1)."""
    return "a 2 or 10" if rules["three_is_normal"] else "a 2, 3 or 10"


def illegal(state: State, rank: str, cards: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Why a play of ``rank`` may not go on the pile now, as (rule, words); None if it may (SH-12)."""
    rules = state.rules
    top, through = effective_top(state)
    anywhere = goes_anywhere(rules)
    under = " under the 3s" if through else ""
    if strong(rank, rules):
        if (rank == "10" and rules["ten_after_seven"] == "blocked" and top is not None and top.rank == "7"):
            return "SH-V15", f"A 7{under} is on top: at this table a 10 may not burn it."
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
        sign = SUIT_SIGNS.get(suit, suit)
        return "SH-V6", f"After the 9{under} the next card must be of its suit ({sign}), or {anywhere}."
    value = VALUES[rank]
    if top.rank == "7":
        if value <= 7:
            return None
        return "SH-33", f"A 7{under} is on top: the next card must be a 7 or lower, or {anywhere}."
    if value >= VALUES[top.rank]:
        return None
    rule = "SH-31" if through else "SH-34" if top.rank == "8" else "SH-12"
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
    top, through = effective_top(state)
    if top is None:
        return "anything"
    if top.rank == "2":
        return "anything (a 2 is on top)"
    if top.rank == "7":
        return f"a 7 or lower, or {goes_anywhere(state.rules)}"
    return f"{a_rank(top.rank)} or higher, or {goes_anywhere(state.rules)}"


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
