"""Spite & Malice house rules (RULES.md §3.7, every SM-V switch, and SM-A9) with their words, the deck
and the building ranks (SM-12, SM-21).

Keys, defaults and choice values are part of the transcript format: never change them. The first switch
is the stock-exhaustion rule, the game's tie policy (an equal count is a draw), which every score sheet
shows (GEN-11).
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from .base import Variant
from .cards import RANKS, SUITS

MIN_PLAYERS = 2
MAX_PLAYERS = 4    # SM-V14: three or four players take a third deck
HAND = 5           # cards in hand after every refill (SM-4, SM-10, SM-16)
QUEEN = 12         # a centre stack is complete at rank 12, with 12 cards (SM-14, SM-K6)
WILD = ("K", "JOKER")  # kings (and jokers, SM-V11) are wild on a centre stack (SM-21)

VARIANTS: tuple[Variant, ...] = (
    Variant("stock_exhaustion", "SM-V6", "When the stock runs out", "fewest_payoff_wins",
            ("fewest_payoff_wins", "draw"),
            help="When a draw the rules require cannot be made: the player with fewer pay-off cards left "
                 "wins (equal counts are a draw), or the game is simply a draw."),
    Variant("payoff_size", "SM-V1", "Pay-off pile", 20, minimum=5, maximum=26,
            help="How many cards each player's pay-off pile starts with (the Italian guide: 5 to 20, by agreement)."),
    Variant("max_center_stacks", "SM-V2", "Building piles in the middle", 3, (3, 1, 4, None),
            help="How many building piles may be on the table at once (the Italian guide's layout shows one)."),
    Variant("max_side_stacks", "SM-V3", "Side stacks each", 4, minimum=1, maximum=8,
            help="How many side (discard) stacks each player may have."),
    Variant("king_can_start_stack", "SM-V4", "A king on an empty space", True, (True, False),
            help="Whether a king (wild) may start a new building pile as its ace."),
    Variant("refill_timing", "SM-V5", "Drawing back up to five", "start_of_turn", ("start_of_turn", "end_of_turn"),
            help="At the start of your turn, or straight after your discard (as the Italian guide says)."),
    Variant("scoring", "SM-V7", "Points", "pagat_5_plus", ("pagat_5_plus", "cards_left", "none"),
            help="What the winner of a game scores. With no points every game is a match of its own."),
    Variant("match_target", "SM-V8", "Match", 50, minimum=1, maximum=1000, allow_none=True,
            help="Games are played until a player has this many points; off: a single game."),
    Variant("start_tie", "SM-V9", "Equal pay-off tops at the start", "reshuffle_payoffs",
            ("reshuffle_payoffs", "coin_flip"),
            help="Both players shuffle their pay-off piles and turn new tops, or a coin decides."),
    Variant("king_rank_for_start", "SM-V10", "A king turned up to decide who starts", "high", ("high", "low", "redo"),
            help="Counts above a queen, below an ace, or is shuffled back and a new top turned."),
    Variant("jokers_wild", "SM-V11", "Jokers", False, (False, True),
            help="Two jokers per deck join the game, wild like kings."),
    Variant("side_stack_order", "SM-V12", "Side stacks", "free", ("free", "same_or_one_lower"),
            help="Any card on any side stack, or (the 'book' version) only the same rank or one lower "
                 "than its top card; a king goes anywhere and anything goes on a king."),
    Variant("completed_stack_handling", "SM-V13", "A completed building pile", "shuffle_in_now",
            ("shuffle_in_now", "hold_until_stock_empty"),
            help="Is shuffled into the stock at once, or set aside until the stock runs out."),
    Variant("players", "SM-V14", "Table size", 2, (2, "3-4"),
            help="Two players with two decks; three or four players play with three decks. Set from the "
                 "number of players.", derived=True),
    Variant("exhaustion_points", "SM-V15", "Points when the stock runs out", "none", ("none", "difference"),
            help="A game won on fewer pay-off cards scores nothing (the win is recorded), or the difference "
                 "in pay-off cards."),
    Variant("payoff_compulsory", "SM-A9", "Playing the pay-off card", False, (False, True),
            help="Whether a player must build their pay-off top before discarding when it fits straight on "
                 "a building pile."),
)

WORDS: dict[str, dict[Any, str]] = {
    "stock_exhaustion": {"fewest_payoff_wins": "the player with fewer pay-off cards left wins, equal is a draw",
                         "draw": "the game is a draw, no points"},
    "max_center_stacks": {3: "up to 3", 1: "one (as the Italian guide shows)", 4: "up to 4", None: "no limit"},
    "king_can_start_stack": {True: "may start a pile as an ace", False: "may not start a pile"},
    "refill_timing": {"start_of_turn": "at the start of your turn", "end_of_turn": "right after your discard"},
    "scoring": {"pagat_5_plus": "5 plus the cards left in the other pay-off piles",
                "cards_left": "the cards left in the other pay-off piles", "none": "none: win, loss or draw"},
    "match_target": {None: "off: a single game"},
    "start_tie": {"reshuffle_payoffs": "both reshuffle and turn again", "coin_flip": "a coin decides"},
    "king_rank_for_start": {"high": "counts highest", "low": "counts lowest", "redo": "is turned again"},
    "jokers_wild": {False: "not used", True: "wild, like kings"},
    "side_stack_order": {"free": "any card on any stack", "same_or_one_lower": "same rank or one lower"},
    "completed_stack_handling": {"shuffle_in_now": "shuffled into the stock at once",
                                 "hold_until_stock_empty": "set aside until the stock runs out"},
    "players": {2: "two players, two decks", "3-4": "three or four players, three decks"},
    "exhaustion_points": {"none": "no points, the win is recorded", "difference": "the difference in pay-off cards"},
    "payoff_compulsory": {False: "never compulsory", True: "compulsory when it fits straight on a pile"},
}
NUMBER_WORDS: dict[str, tuple[str, str]] = {
    "payoff_size": ("{n} card", "{n} cards"),
    "max_side_stacks": ("{n} stack", "{n} stacks"),
    "match_target": ("to {n} point", "to {n} points"),
}
APPLIES_WHEN: dict[str, tuple[str, tuple[Any, ...]]] = {
    "exhaustion_points": ("stock_exhaustion", ("fewest_payoff_wins",)),
}

# --- The deck and the ranks --------------------------------------------------------------------
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12,
          "K": 13}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def decks_for(players: int) -> int:
    """SM-V14: two decks for two players, three for three or four."""
    return 2 if players <= 2 else 3


def deck(decks: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
    """Every full card code with its copies (two decks: each code twice; jokers with SM-V11)."""
    return _tables(decks, rules)[0]


def deck_size(decks: int, rules: Mapping[str, Any]) -> int:
    return _tables(decks, rules)[2]


def rank_copies(decks: int, rules: Mapping[str, Any]) -> dict[str, int]:
    """Copies of each rank (suits do not matter, SM-K7): 8 of each with two decks."""
    return dict(_tables(decks, rules)[1])


def copies_of_ranks(decks: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
    """``rank_copies`` as a read-only mapping made once per table kind (for the engine's own checks)."""
    return _tables(decks, rules)[1]


def deck_cards(decks: int, rules: Mapping[str, Any]) -> tuple[tuple[str, int, str], ...]:
    """(code, copies, rank) of every full card code, in ``deck`` order."""
    return _tables(decks, rules)[3]


_TABLES: dict[tuple[int, bool], tuple[Mapping[str, int], Mapping[str, int], int, tuple[tuple[str, int, str], ...]]] = {}


def _tables(decks: int, rules: Mapping[str, Any]):
    """The deck, the rank copies, the deck size and the deck's (code, copies, rank), made once for each
    number of decks with or without jokers (SM-V11, SM-V14): they depend on nothing else."""
    jokers = rules["jokers_wild"]
    key = (decks, bool(jokers))
    known = _TABLES.get(key)
    if known is None:
        out = {rank + suit: decks for suit in SUITS for rank in RANKS}
        copies = {rank: 4 * decks for rank in RANKS}
        if jokers:
            out["JOKER"] = 2 * decks
            copies["JOKER"] = 2 * decks
        known = (MappingProxyType(out), MappingProxyType(copies), sum(out.values()),
                 tuple((code, n, rank_of(code)) for code, n in out.items()))
        _TABLES[key] = known
    return known


#: What an entry may name: a full code ("7H", from a photo or the card picker) or a bare rank ("7",
#: a rank button: suits do not matter in Spite & Malice). The engine checks the match's own deck.
ANY_CARD: Mapping[str, int] = MappingProxyType(
    {**{rank + suit: 3 for suit in SUITS for rank in RANKS}, **{rank: 12 for rank in RANKS}, "JOKER": 6})


def rank_of(card: str) -> str:
    """The rank of a card code: "10H" -> "10", "7" -> "7", "JOKER" -> "JOKER"."""
    rank = _RANK_OF.get(card)  # a bare rank and the joker are their own rank
    return card[:-1] if rank is None else rank


def ranks_of(cards: list[str | None]) -> list[str | None]:
    """``rank_of`` of each card, None (a card nobody entered) staying None."""
    ranks = list(map(_RANK_OF.get, cards))
    if ranks.count(None) != cards.count(None):  # a code no entry names (a table laid out by hand)
        ranks = [None if x is None else rank_of(x) for x in cards]
    return ranks


#: rank_of of every code an entry may name, looked up rather than worked out.
_RANK_OF: dict[str, str] = {**{rank + suit: rank for suit in SUITS for rank in RANKS},
                            **{rank: rank for rank in VALUES}, "JOKER": "JOKER"}


def is_wild(card: str | None) -> bool:
    return card is not None and rank_of(card) in WILD


def value_of(card: str) -> int:
    """A card's printed rank value, A = 1 ... Q = 12, K = 13 (a joker counts as a king)."""
    r = rank_of(card)
    return 13 if r == "JOKER" else VALUES[r]


def rank_name(value: int) -> str:
    return RANK_NAMES.get(value, str(value))


_SAID = {"A": "an ace", "J": "a jack", "Q": "a queen", "K": "a king", "JOKER": "a joker", "8": "an 8"}


def said(rank: str) -> str:
    """A rank in a sentence: "an ace", "a 7", "an 8", "a queen"."""
    return _SAID.get(rank, f"a {rank}")


def same_card(a: str, b: str) -> bool:
    """Whether two entered cards may be the same card: equal ranks, and equal suits when both name one."""
    if rank_of(a) != rank_of(b):
        return False
    return a == b or a in VALUES or b in VALUES or a == "JOKER"


def start_value(card: str, rules: Mapping[str, Any]) -> int | None:
    """A pay-off top's value in the comparison of who starts (SM-7, SM-V10); None: turn it again."""
    if is_wild(card):
        how = rules["king_rank_for_start"]
        return 13 if how == "high" else 0 if how == "low" else None
    return value_of(card)


def build_problem(stack_rank: int, card: str | None, rules: Mapping[str, Any]) -> str | None:
    """Why ``card`` may not go on a centre stack of effective rank ``stack_rank`` (0: an empty space),
    in words; None if it may (SM-12, SM-21, SM-V4). An unknown card is taken as fitting (GEN-14)."""
    if card is None:
        return None
    need = stack_rank + 1
    if is_wild(card):
        if stack_rank == 0 and not rules["king_can_start_stack"]:
            return "at this table a king may not start a pile: only an ace starts one"
        return None
    have = value_of(card)
    if have == need:
        return None
    if stack_rank == 0:
        king = " or a king" if rules["king_can_start_stack"] else ""
        return f"only an ace{king} starts a pile, not {said(rank_of(card))}"
    return f"that pile needs {said(rank_name(need))} (or a king), not {said(rank_of(card))}"


def fits(stack_rank: int, card: str | None, rules: Mapping[str, Any]) -> bool:
    """Whether ``card`` may go on a centre stack of effective rank ``stack_rank``: ``build_problem`` is
    None, told without its words."""
    if card is None:
        return True
    rank = rank_of(card)
    if rank in WILD:
        return stack_rank != 0 or bool(rules["king_can_start_stack"])
    return VALUES[rank] == stack_rank + 1


def side_problem(top: str | None, card: str | None, rules: Mapping[str, Any]) -> str | None:
    """Why ``card`` may not go onto a side stack topped by ``top`` under SM-V12; None if it may."""
    if rules["side_stack_order"] == "free" or top is None or card is None:
        return None
    if is_wild(card) or is_wild(top):
        return None
    t, c = value_of(top), value_of(card)
    if c in (t, t - 1):
        return None
    rule = "at this table a side stack takes the same rank or one lower"
    if t == 1:
        return f"{rule}: only an ace goes on an ace"
    return f"{rule}: {said(rank_of(top))} or {said(rank_name(t - 1))} goes on {said(rank_of(top))}"
