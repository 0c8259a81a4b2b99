"""Cabo / Cambio's rule book in plain words (RULES.md §2, the rule book of record): every rule a ruling
can cite, one or two sentences each, grouped as RULES.md groups them. The house-rule switches (CAB-V1..V14)
are explained with the switches themselves (``cabo_rules.VARIANTS``); the rules every game shares (GEN) are
``rulebook.GENERAL``."""
from __future__ import annotations

from .rulebook import HouseRuleWords, Section

RULE_BOOK: tuple[Section, ...] = (
    Section("The cards", (
        ("CAB-1", "Each player gets four cards face down, in a row (Cabo) or a square of two by two (Cambio), "
                  "and the cards keep their places all round. The rest is the draw pile, whose top card is "
                  "turned up to start the discard pile. The Cabo deck seats 2 to 5 players, a standard deck 2 "
                  "to 8."),
        ("CAB-2", "Once, before your first turn, look secretly at two of your cards: any two (Cabo), or the "
                  "two nearest you (Cambio)."),
    )),
    Section("A turn", (
        ("CAB-3", "On your turn draw the top card of the draw pile, or take the top of the discard pile, or "
                  "call. A drawn card is kept in place of one of your cards or discarded; a card taken from "
                  "the discard pile must be kept, and it gives no power, only its points."),
        ("CAB-4", "Cabo 2nd edition: a card taken from the discard pile stays face up in front of you for the "
                  "rest of the round, so everyone knows it."),
        ("CAB-5", "Instead of one card, you may turn up two or more of your own cards you believe are equal: "
                  "if they all match they are discarded and the card you keep takes one of their places. If "
                  "not, in the 2nd edition they stay face up and you keep the new card too (one more penalty "
                  "card for each card beyond two); in the 1st edition they go back and the new card is "
                  "discarded."),
        ("CAB-6", "Snapping: when a card lands on the discard pile, anyone may throw a card of the same rank "
                  "from any layout onto it, out of turn, before the next move. Snap another player's card and "
                  "you give them one of yours; a wrong snap goes back and costs a card from the draw pile. "
                  "Only the first good snap counts, and nobody snaps once the cards are turned up."),
        ("CAB-7", "Powers work only for a card just drawn from the draw pile and discarded, and using them is "
                  "optional: 7 and 8 look at one of your cards, 9 and 10 at another player's, jacks and queens "
                  "(11 and 12) swap one of your cards with another player's unseen, and a black king looks at "
                  "one of each, then swaps them or not."),
    )),
    Section("Calling and the end of a round", (
        ("CAB-20", "You call instead of taking a turn, at its start, and draw nothing; only one call per "
                   "round. Then every other player takes one more turn, and the cards are turned up."),
        ("CAB-21", "After the call nobody may swap, snap or otherwise change the caller's cards (unless the "
                   "table plays without the lock)."),
        ("CAB-22", "Cabo 2nd edition: the round also ends when the draw pile runs out. Otherwise the discard "
                   "pile, all but its top card, is shuffled into a new draw pile."),
    )),
    Section("Scoring and the end of the match", (
        ("CAB-40", "Cabo 2nd edition: everyone scores the sum of their cards. A caller with the lowest sum, or "
                   "tied for it, scores 0; a caller who is not lowest scores their sum plus 10."),
        ("CAB-41", "Cabo 1st edition: the lowest sum scores 0, and a caller who is not lowest pays 5 more."),
        ("CAB-42", "Kamikaze: a player who ends the round with exactly 12, 12, 13 and 13 scores 0, and every "
                   "other player scores 50."),
        ("CAB-43", "The match ends when a total goes over 100, and the lowest total wins. A total of exactly "
                   "100 drops to 50: once per player in the 2nd edition, every time in the 1st."),
        ("CAB-44", "Cambio: the lowest sum wins the round, and in most groups a caller who ties loses. A player "
                   "with no cards left scores 0."),
        ("CAB-45", "Cabo: the last round's winner plays first and its loser deals; ties go to the lowest total "
                   "for the winner and the highest for the loser."),
    )),
    Section("Where the rules are unclear, and what we chose", (
        ("CAB-A1", "The 1st edition's swap may be read as any two cards on the table; by default it is one of "
                   "yours with another player's."),
        ("CAB-A2", "Kamikaze comes from players and an app, not from the rule sheet we saw; the table can turn "
                   "it off."),
        ("CAB-A3", "Reaching exactly 100 a second time in the 2nd edition is not going over 100, so play goes "
                   "on."),
        ("CAB-A4", "Cambio tie rules vary: the caller loses ties or wins them. It is the same choice as Rat-a-Tat "
                   "Cat's tie rule."),
        ("CAB-A5", "Groups differ on what a wrong snap costs (one card or two) and on snapping other players' "
                   "cards."),
        ("CAB-A6", "Groups differ on whether the caller draws on the calling turn: by default they do not."),
    )),
    Section("What the referee can check", (
        ("CAB-K1", "Layouts shrink and grow, but the draw pile, the discard pile, the layouts and any card in "
                   "hand always add up to the whole deck."),
        ("CAB-K2", "Snaps and matching claims turn cards up for everyone; a wrong claim also shows which cards "
                   "a player wrongly thought were equal."),
        ("CAB-K3", "In the 2nd edition a card taken from the discard pile stays face up, so everyone knows it "
                   "until it is swapped."),
        ("CAB-K4", "A snap race is won by the snap entered first; a snap entered by mistake can be undone."),
        ("CAB-K5", "Kamikaze can only be seen when every card is turned up."),
    )),
)


_POWERS = ("Powers work only for a card just drawn from the draw pile and discarded, and using them is optional: 7 "
           "and 8 look at one of your cards, 9 and 10 at another player's, ")
_SWAP = {"own_other": "swap one of your cards with another player's unseen",
         "any_two": "swap any two cards of two different players unseen"}
_LOOK = {"black_kings": "a black king", "all_kings": "every king", "queens": "a queen", "off": ""}


def _standard_powers(look: str, scope: str) -> str:
    swappers = "jacks " if look == "queens" else "jacks and queens "
    if not _LOOK[look]:
        return f"{_POWERS}and {swappers}{_SWAP[scope]}."
    return f"{_POWERS}{swappers}{_SWAP[scope]}, and {_LOOK[look]} looks at one of each, then swaps them or not."


#: Rules whose words change under a house rule (``rulebook.house_rule_words``): CAB-7 names the powers of
#: the table's deck (CAB-V1) as its switches give them (CAB-V14).
HOUSE_RULE_WORDS: HouseRuleWords = {
    ("CAB-7", (("deck", "cabo52"), ("swap_power_scope", "any_two"))): f"{_POWERS}and 11 and 12 {_SWAP['any_two']}.",
    ("CAB-7", (("deck", "cabo52"),)): f"{_POWERS}and 11 and 12 {_SWAP['own_other']}.",
    **{("CAB-7", (("look_and_swap", look), ("swap_power_scope", scope))): _standard_powers(look, scope)
       for look in _LOOK for scope in _SWAP},
}
