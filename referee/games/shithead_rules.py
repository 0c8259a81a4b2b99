"""Shithead house rules (RULES.md §4.9, every SH-V switch) with their words, and the ranks' order.

Keys, defaults and choice values are part of the transcript format: never change them. ``games`` (how
many games the evening lasts, for the Shithead tally of §4.12 H2) is not in RULES.md: it sits under
SH-V10, the switch of how a game ends, and its default (1) is one game per match.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from .base import Variant
from .cards import RANKS, standard_deck

MIN_PLAYERS = 2
MAX_PLAYERS = 11
HAND = 3     # cards in hand after the deal, and the refill target (SH-2, SH-15)
FACE_UP = 3  # face-up cards per player (SH-2)

VARIANTS: tuple[Variant, ...] = (
    Variant("three_is_normal", "SH-V1", "The 3", False, (False, True),
            help="Transparent (it goes on anything and the next player plays against the card under it), "
                 "or an ordinary card, the lowest."),
    Variant("jokers", "SH-V2", "Jokers", False, (False, True),
            help="Two jokers per deck; a joker takes whatever rank its player says."),
    Variant("interrupts", "SH-V3", "Playing out of turn", True, (True, False),
            help="With 3 or more players still in, anyone may complete four of a kind out of turn, and a "
                 "player may add a matching card they just drew."),
    Variant("specials_anytime", "SH-V4", "The 7, 8 (and a special 9)", False, (False, True),
            help="Whether they go on anything, or only where their rank is high enough."),
    Variant("nine_reverse", "SH-V5", "The 9", "off", ("off", "strong", "normal"),
            help="Whether a 9 reverses the direction of play, and whether it then goes on anything."),
    Variant("nine_same_suit", "SH-V6", "After a 9", False, (False, True),
            help="Whether the next card must be of the 9's suit (a 2, 3 or 10 still goes)."),
    Variant("faceup_swap_allowed", "SH-V7", "Before play starts", True, (True, False),
            help="Whether players may swap hand cards with their own face-up cards."),
    Variant("facedown_count", "SH-V8", "Face-down cards each", 3, minimum=3, maximum=6,
            help="How many cards each player gets face down."),
    Variant("decks", "SH-V9", "Decks", "auto", ("auto", 1, 2),
            help="One deck, two, or as many as the players need (one for up to 5 players)."),
    Variant("end_mode", "SH-V10", "The game ends", "last_is_loser", ("last_is_loser", "first_out_wins"),
            help="When one player is left with cards (the Shithead), or when the first player goes out."),
    Variant("games", "SH-V10", "Games in the evening", 1, minimum=1, maximum=100,
            help="How many games the match lasts; each game's Shithead gets a point, fewest points is best."),
    Variant("start_rank_rule", "SH-V11", "Who starts", "lowest_natural", ("lowest_natural", "dealer_left"),
            help="The player with the lowest card (a 4, else a 5...), or the player on the dealer's left."),
    Variant("faceup_play", "SH-V12", "Face-up cards are played", "one_at_a_time",
            ("one_at_a_time", "same_rank_set"),
            help="One at a time (as on Hebrew Wikipedia), or several of one rank."),
    Variant("voluntary_pickup", "SH-V13", "Picking up the pile", True, (True, False),
            help="Whether a player may pick up the pile even when they could play."),
    Variant("three_in_quartet", "SH-V14", "A 3 in four of a kind", "as_three", ("as_three", "copies_below"),
            help="A 3 counts only as a 3, or as a copy of the card under it."),
    Variant("ten_after_seven", "SH-V15", "A 10 on a 7", "allowed", ("allowed", "blocked"),
            help="Whether a 10 may burn the pile while a 7 restricts the next play."),
    Variant("eight_skip_mode", "SH-V16", "Skipping with 8s", "capped", ("capped", "modular"),
            help="Capped: a player never skips their own turn. Modular: count round the table."),
    Variant("starter_must_play_declared", "SH-V17", "The starter's first play", True, (True, False),
            help="Whether it must include the card the starter said was their lowest."),
    Variant("burn_plays_again", "SH-V18", "After a burn", True, (True, False),
            help="Whether the player who burned the pile plays again."),
    Variant("start_rank_zones", "SH-V19", "The lowest card is looked for", "hand", ("hand", "hand_and_faceup"),
            help="In the hand only, or among face-up cards too."),
    Variant("quartet_scope", "SH-V20", "Four of a kind counts", "top_run", ("top_run", "last_play_plus_current"),
            help="Every card of the rank in a row on top of the pile, or only this play and the one before."),
    Variant("faceup_fail_takes_card", "SH-V21", "A face-up card that cannot go", True, (True, False),
            help="Whether it goes into the hand with the pile (as on Hebrew Wikipedia), or stays face up."),
)

WORDS: dict[str, dict[Any, str]] = {
    "three_is_normal": {False: "is transparent", True: "is an ordinary card, the lowest"},
    "jokers": {False: "are not used", True: "take any rank their player names"},
    "interrupts": {True: "allowed with 3 or more players", False: "not allowed"},
    "specials_anytime": {False: "go only where their rank is high enough", True: "go on anything"},
    "nine_reverse": {"off": "is an ordinary card", "strong": "reverses the direction and goes on anything",
                     "normal": "reverses the direction, where its rank is high enough"},
    "nine_same_suit": {False: "any suit may follow", True: "the next card must be of its suit"},
    "faceup_swap_allowed": {True: "hand and face-up cards may be swapped", False: "no swapping"},
    "decks": {"auto": "as many as the players need", 1: "one", 2: "two"},
    "end_mode": {"last_is_loser": "when one player is left: the Shithead",
                 "first_out_wins": "when the first player goes out: the winner"},
    "start_rank_rule": {"lowest_natural": "the player with the lowest card", "dealer_left": "the dealer's left"},
    "faceup_play": {"one_at_a_time": "one at a time", "same_rank_set": "several of one rank together"},
    "voluntary_pickup": {True: "allowed at any time", False: "only when you cannot play"},
    "three_in_quartet": {"as_three": "counts only as a 3", "copies_below": "copies the card under it"},
    "ten_after_seven": {"allowed": "allowed", "blocked": "not allowed"},
    "eight_skip_mode": {"capped": "never skips the player's own turn", "modular": "counts round the table"},
    "starter_must_play_declared": {True: "must include the declared card", False: "may be anything legal"},
    "burn_plays_again": {True: "the same player plays again", False: "the turn passes"},
    "start_rank_zones": {"hand": "in the hand", "hand_and_faceup": "in the hand and among face-up cards"},
    "quartet_scope": {"top_run": "every card in a row on top", "last_play_plus_current": "this play and the one before"},
    "faceup_fail_takes_card": {True: "goes into the hand with the pile", False: "stays face up"},
}
NUMBER_WORDS: dict[str, tuple[str, str]] = {
    "facedown_count": ("{n} card", "{n} cards"),
    "games": ("{n} game", "{n} games"),
}
APPLIES_WHEN: dict[str, tuple[str, tuple[Any, ...]]] = {
    "faceup_fail_takes_card": ("faceup_play", ("one_at_a_time",)),
}

# --- Ranks -----------------------------------------------------------------------------------
VALUES = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "J": 11, "Q": 12, "K": 13, "A": 14}


def rank_of(card: str) -> str:
    """The printed rank of a card code ("10H" -> "10", "JOKER" -> "JOKER")."""
    return card if card == "JOKER" else card[:-1]


def a_rank(rank: str) -> str:
    """A rank with its article, as a sentence says it: "a 7", "an 8", "an A"."""
    return f"an {rank}" if rank in ("8", "A") else f"a {rank}"


def suit_of(card: str) -> str:
    return "" if card == "JOKER" else card[-1]


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def say_card(card: str | None) -> str:
    """A card as the table says it in a sentence: "7♣", "10♥", "Joker"; "unknown" if nobody entered it."""
    if card is None:
        return "unknown"
    if card == "JOKER":
        return "Joker"
    return card[:-1] + SUIT_SIGNS.get(card[-1], card[-1])


def say_cards(cards: Any) -> str:
    """Several cards in a sentence: "6♦ 6♥ 6♠"."""
    return " ".join(say_card(c) for c in cards)


def strong(rank: str, rules: Mapping[str, Any]) -> bool:
    """2, 10 and (unless SH-V1) 3 go on anything (SH-12 step 1)."""
    return rank in ("2", "10") or (rank == "3" and not rules["three_is_normal"])


def transparent(rank: str, rules: Mapping[str, Any]) -> bool:
    return rank == "3" and not rules["three_is_normal"]


def natural(rank: str, rules: Mapping[str, Any]) -> bool:
    return rank in VALUES and not strong(rank, rules)


def decks_for(players: int, rules: Mapping[str, Any]) -> int:
    """SH-V9: the decks the table plays with. auto: one deck for up to 5 players, two for 6 to 11 (even
    when the jokers of SH-V2 would let 6 players just fit one deck, SH-A14), and more if the players'
    cards need them (SH-1)."""
    if rules["decks"] != "auto":
        return int(rules["decks"])
    need = players * (HAND + FACE_UP + rules["facedown_count"])
    for d in ((1, 2, 3) if players <= 5 else (2, 3)):
        if need <= deck_size(d, rules):
            return d
    return 3


def deck(decks: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
    """The table's deck, card -> copies (a read-only mapping, built once per deck kind)."""
    return _deck(decks, bool(rules["jokers"]))


@lru_cache(maxsize=32)
def _deck(decks: int, jokers: bool) -> Mapping[str, int]:
    return standard_deck(jokers=2 * decks if jokers else 0, copies=decks)


def deck_size(decks: int, rules: Mapping[str, Any]) -> int:
    return _deck_size(decks, bool(rules["jokers"]))


@lru_cache(maxsize=32)
def _deck_size(decks: int, jokers: bool) -> int:
    return sum(_deck(decks, jokers).values())


RANK_CHOICES = tuple(RANKS)
