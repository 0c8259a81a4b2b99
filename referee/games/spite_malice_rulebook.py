"""Spite & Malice's rule book in plain words (RULES.md §3, the rule book of record): every rule a ruling
can cite, grouped as RULES.md groups them, for the rules page and rulings. The house-rule switches
(SM-V1..SM-V15, SM-A9) are explained with the switches themselves (``spite_malice_rules.VARIANTS``)."""
from __future__ import annotations


from .rulebook import ANY_NUMBER, HouseRuleWords, Section

RULE_BOOK: tuple[Section, ...] = (
    Section("Setting up", (
        ("SM-1", "A game for two players (three or four play with a third deck)."),
        ("SM-2", "Two standard decks are shuffled together: 104 cards. Suits do not matter; kings are wild."),
        ("SM-3", "Each player gets a pay-off pile, face down (20 cards unless the table agrees otherwise), and "
                 "turns its top card face up. The table enters each top card."),
        ("SM-4", "Each player gets 5 cards in hand."),
        ("SM-5", "The rest of the cards are the stock, face down."),
        ("SM-6", "There are no building piles and no side stacks at the start."),
        ("SM-7", "The player whose pay-off top is higher starts. Equal tops: both shuffle their pay-off piles "
                 "and turn new tops. If a top is not known, the table says who starts."),
    )),
    Section("A turn", (
        ("SM-10", "At the start of your turn, draw from the stock until you hold 5 cards."),
        ("SM-11", "A build moves one card onto a building pile: any hand card, your own pay-off top, or the top "
                  "card of one of your own side stacks."),
        ("SM-12", "Building piles go up from ace to queen, one rank at a time; a new pile starts with an ace. A "
                  "king is wild: it counts as the rank the pile needs, and may start a pile as its ace."),
        ("SM-13", "Only so many building piles may be on the table at once (3 unless agreed otherwise): a new "
                  "one starts only while there are fewer."),
        ("SM-14", "A pile that reaches a queen is complete: its 12 cards leave the table and are shuffled into "
                  "the stock."),
        ("SM-15", "When you build your pay-off top, turn the next pay-off card face up at once; you may use it "
                  "straight away. The table enters it."),
        ("SM-16", "If you build every card in your hand, draw 5 more at once and carry on."),
        ("SM-17", "Your turn ends when, and only when, you put one hand card onto one of your own side stacks."),
        ("SM-18", "Any card may go on any of your side stacks; you may have at most 4 of them."),
        ("SM-19", "Never allowed: a pay-off card onto a side stack, a card from one side stack to another, a card "
                  "off a building pile, a card back into the hand, cards onto another player's piles, a second "
                  "discard in a turn, or a card from under the top of a pile."),
        ("SM-20", "Only the top card of a side stack may be played; the cards under it stay in view."),
        ("SM-21", "A king is wild only on a building pile. It may be discarded to a side stack and built from "
                  "there later; a king on top of a pay-off pile is built like any king."),
        ("SM-22", "Players take turns in order."),
        ("SM-23", "Build in any order, from any mix of places. Building is never compulsory, not even your "
                  "pay-off card."),
    )),
    Section("The end of a game, and points", (
        ("SM-40", "Whoever builds the last card of their pay-off pile wins at once, with no discard needed."),
        ("SM-41", "If a draw the rules require cannot be made because the stock is empty, the game ends: the "
                  "player with fewer pay-off cards left wins, and equal piles are a draw (unless agreed otherwise)."),
        ("SM-42", "The winner scores 5 plus the cards left in the other pay-off pile. A game won because the "
                  "stock ran out scores nothing, but the win counts."),
        ("SM-43", "A match is played to 50 points: it ends as soon as a player reaches the target."),
    )),
    Section("What the referee checks", (
        ("SM-K1", "Every build is seen as it is made, so the referee checks that it fits its pile."),
        ("SM-K2", "A card said to come from a pay-off pile or a side stack must be that pile's top card, which "
                  "everyone can see; any other card comes from the hand."),
        ("SM-K3", "The referee counts the hands: 5 after a refill, less what was built and discarded, plus what "
                  "was drawn. It says how many cards to draw, and a hand never holds more than 5."),
        ("SM-K4", "Exactly one card goes from the hand onto a side stack, and it ends the turn: no second "
                  "discard, and no build after it."),
        ("SM-K5", "The referee counts the building piles and each player's side stacks."),
        ("SM-K6", "A pile completes at exactly 12 cards, and the stock grows by those 12 cards."),
        ("SM-K7", "There are only 8 cards of each rank (and 8 kings) in two decks: the table cannot see a ninth "
                  "among the piles, side stacks and pay-off tops. Cards shuffled back into the stock may turn up "
                  "again."),
        ("SM-K8", "A newly turned pay-off top is entered before that pile is built from again "
                  "(“unknown” will do)."),
        ("SM-K9", "The referee cannot know: the cards in a hand, whether a player could have built, the order of "
                  "the stock, the cards under a pay-off top, or whether the shuffle was fair."),
    )),
    Section("How the referee reads the rule books", (
        ("SM-A1", "The Italian guide shows one building pile; common rules allow three. Three it is, and one is "
                  "a preset."),
        ("SM-A2", "The Italian guide's turn ends with a card from the “mazzo” onto a side stack: read as a hand "
                  "card, since pay-off cards only ever go to building piles."),
        ("SM-A3", "Drawing back to 5 at the start of your turn or right after your discard gives the same hand; "
                  "it only changes whose draw finds the stock empty."),
        ("SM-A4", "A king turned up to decide who starts counts highest, unless agreed otherwise."),
        ("SM-A5", "A king may stand for an ace and start a pile, unless agreed otherwise."),
        ("SM-A6", "The stock running out ends the game when a draw cannot be made, not when the last card is "
                  "drawn: a player may still win in the turn the stock empties."),
        ("SM-A7", "Each build is checked on its own, in the order made: any order that works step by step is fine."),
        ("SM-A8", "A player with no hand cards and an empty stock cannot discard: the stock has run out."),
        ("SM-A10", "Who shuffles a completed pile into the stock does not matter to the referee."),
    )),
)


#: Rules whose words change under a house rule (``rulebook.house_rule_words``). Where a king may not start a
#: pile (SM-V4 off), SM-12 says so, as the table's rulings do (SM-A5 already says "unless agreed otherwise");
#: SM-13, SM-18 and SM-43 name the table's limits and target (SM-V2, SM-V3, SM-V12, SM-V8); SM-41 says a stock
#: run out is a draw where the table plays so (SM-V6).
HOUSE_RULE_WORDS: HouseRuleWords = {
    ("SM-2", (("players", "3-4"),)): "Three standard decks are shuffled together, for three or four players: 156 "
                                     "cards. Suits do not matter; kings are wild.",
    ("SM-K7", (("players", "3-4"),)): "There are only 12 cards of each rank (and 12 kings) in three decks: the table "
                                      "cannot see a thirteenth among the piles, side stacks and pay-off tops. Cards "
                                      "shuffled back into the stock may turn up again.",
    ("SM-12", (("king_can_start_stack", False),)): "Building piles go up from ace to queen, one rank at a time; "
                                                   "a new pile starts with an ace. A king is wild: it counts as "
                                                   "the rank the pile needs, but at this table it may not start "
                                                   "a pile.",
    ("SM-13", (("max_center_stacks", 1),)): "Only one building pile may be on the table at a time: a new one starts "
                                            "only when there is none.",
    ("SM-13", (("max_center_stacks", 4),)): "Only so many building piles may be on the table at once (4 at this "
                                            "table): a new one starts only while there are fewer.",
    ("SM-13", (("max_center_stacks", None),)): "Any number of building piles may be on the table at once.",
    ("SM-18", (("side_stack_order", "same_or_one_lower"), ("max_side_stacks", 1))):
        "A card goes on your side stack only if it is the same rank as its top card or one lower (a king goes "
        "anywhere, and anything goes on a king); you may have only one side stack.",
    ("SM-18", (("side_stack_order", "same_or_one_lower"), ("max_side_stacks", ANY_NUMBER))):
        "A card goes on one of your side stacks only if it is the same rank as the stack's top card or one lower "
        "(a king goes anywhere, and anything goes on a king); you may have at most {n} side stacks.",
    ("SM-18", (("max_side_stacks", 1),)): "Any card may go on your side stack; you may have only one.",
    ("SM-18", (("max_side_stacks", ANY_NUMBER),)): "Any card may go on any of your side stacks; you may have at "
                                                   "most {n} of them.",
    ("SM-41", (("stock_exhaustion", "draw"),)): "If a draw the rules require cannot be made because the stock is "
                                                "empty, the game ends, and at this table it is a draw.",
    ("SM-43", (("scoring", "none"),)): "At this table no points are scored: every game is a match of its own.",
    ("SM-43", (("match_target", None),)): "At this table a match is a single game: it ends when the game does.",
    ("SM-43", (("match_target", 1),)): "A match is played to 1 point: it ends as soon as a player reaches the "
                                       "target.",
    ("SM-43", (("match_target", ANY_NUMBER),)): "A match is played to {n} points: it ends as soon as a player "
                                                "reaches the target.",
}
