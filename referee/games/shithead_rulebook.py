"""Shithead's rule book in plain words (RULES.md §4, the rule book of record): every rule a ruling can
cite, grouped as RULES.md groups them, for the rules page and rulings."""
from __future__ import annotations


from .rulebook import HouseRuleWords, Section

RULE_BOOK: tuple[Section, ...] = (
    Section("Setting up", (
        ("SH-1", "Two or more players. Each needs 9 cards: a second deck comes in for 6 or more players."),
        ("SH-2", "Each player gets 3 cards face down (nobody looks at them), 3 face up on top of them, and 3 "
                 "in hand. The rest is the stock. The table enters everyone's face-up cards."),
        ("SH-3", "Before the first play, each player may swap hand cards with their own face-up cards; they "
                 "keep 3 of each."),
        ("SH-4", "The player with the lowest card in hand (a 4, else a 5, and so on) starts, and their first "
                 "play must include that card."),
        ("SH-5", "Play goes clockwise, unless a 9 reverses it (a house rule)."),
    )),
    Section("A turn", (
        ("SH-10", "On your turn you play, or you pick up the pile. Passing is not allowed."),
        ("SH-11", "The card to beat is the top card of the pile that is not a 3 (3s are see-through)."),
        ("SH-12", "A card must be equal to or higher than the card to beat (Ace high); a 2, 3 or 10 goes on "
                  "anything, and anything goes on a 2 or an empty pile."),
        ("SH-13", "A play is one card or several cards of the same rank, never mixed ranks."),
        ("SH-14", "Picking up takes the whole pile into your hand and ends your turn; the next player leads "
                  "onto the empty pile. You must pick up when you cannot play, and may when you can."),
        ("SH-15", "While the stock lasts, after playing you draw back up to 3 cards in hand."),
        ("SH-16", "You play from your hand while it has cards; from your face-up cards once hand and stock "
                  "are empty; from your face-down cards once the face-up cards are gone."),
        ("SH-17", "With your last hand cards you may play face-up cards of the same rank in the same play."),
        ("SH-18", "Face-up cards are played one at a time: one that cannot go is picked up with the pile."),
        ("SH-19", "A face-down card is turned over and played: if it cannot go, you pick up the pile and it."),
        ("SH-20", "After picking up in the table phases, you play your hand empty before touching your table "
                  "cards again."),
    )),
    Section("Special cards", (
        ("SH-30", "A 2 resets: anything may be played on it."),
        ("SH-31", "A 3 is see-through: it goes on anything, and the next player plays against the card under "
                  "it, 7-rule included."),
        ("SH-32", "A 10 burns the pile: the pile goes out of play and the same player plays again."),
        ("SH-33", "After a 7 the next card must be a 7 or lower (or a 2, 3 or 10)."),
        ("SH-34", "An 8 skips the next player, one player for each 8; the next card must beat the 8."),
        ("SH-35", "Four of a kind in a row on the pile, from one play or several, burns it; whoever completed "
                  "it plays again."),
        ("SH-36", "A burn cancels the play's other effects: four 8s skip nobody."),
        ("SH-37", "Going out on a special card: its effect still applies; after a burn the next player leads."),
    )),
    Section("Out of turn (3 or more players)", (
        ("SH-40", "Anyone may complete four of a kind on top of the pile out of turn, from their own hand or "
                  "face-up cards: the pile burns, they play again, and the skipped players lose their turn."),
        ("SH-41", "A player who just drew a card of the rank they just played may add it before the next "
                  "player plays."),
        ("SH-42", "With only two players left, nobody plays out of turn."),
        ("SH-43", "The first entry wins: an interrupt entered after the next play is too late."),
    )),
    Section("End of the game", (
        ("SH-50", "A player with no cards left, the stock being empty, is out; the referee records the order."),
        ("SH-51", "The last player left holding cards is the Shithead and loses."),
        ("SH-52", "At a first-out-wins table, the first player out wins and the game ends."),
        ("SH-53", "The Shithead deals the next game."),
    )),
    Section("What the referee checks", (
        ("SH-K1", "Every played card is seen, so every play's legality is checked."),
        ("SH-K2", "Hand sizes are counted: nobody plays more cards than they hold, nor table cards too soon."),
        ("SH-K3", "After each play the referee says how many cards to draw."),
        ("SH-K4", "Cards picked up from the pile are known to all: the referee keeps them as a memory aid."),
        ("SH-K5", "A card whose every copy is already seen elsewhere cannot be played: a mis-tap or a misread."),
        ("SH-K6", "The referee works out every burn itself and tells the table."),
        ("SH-K7", "The starter's lowest card is checked against the face-up cards when those count."),
        ("SH-K8", "Out-of-turn plays count in the order they are entered."),
        ("SH-K9", "A face-down card is checked once it is turned over, not before."),
        ("SH-K10", "The referee cannot know unseen hand cards, the stock order, or peeks at face-down cards."),
        ("SH-K11", "No card is lost or made up: stock, pile, burned and every player's cards add up to the deck."),
    )),
)


#: Rules whose words change under a house rule (``rulebook.house_rule_words``). With the 3 an ordinary card
#: (SH-V1), it is the lowest card, not a card that goes on anything or is see-through; where a 10 may not burn
#: a 7 (SH-V15), SH-33 says so; SH-18 as the table plays its face-up cards (SH-V12, SH-V21).
HOUSE_RULE_WORDS: HouseRuleWords = {
    ("SH-11", (("three_is_normal", True),)): "The card to beat is the top card of the pile.",
    ("SH-12", (("three_is_normal", True),)): "A card must be equal to or higher than the card to beat (Ace high, "
                                             "3 lowest); a 2 or 10 goes on anything, and anything goes on a 2 or "
                                             "an empty pile.",
    # where more cards go on anything (a strong 9, SH-V5; 7s and 8s, SH-V4; jokers, SH-V2) the ruling above the
    # words lists them; the rule says what every such table shares
    **{("SH-33", (switch,)): "After a 7 the next card must be a 7 or lower, or a card that goes on anything at "
                             "this table." for switch in (("nine_reverse", "strong"), ("specials_anytime", True),
                                                          ("jokers", True))},
    ("SH-33", (("three_is_normal", True), ("ten_after_seven", "blocked"))):
        "After a 7 the next card must be a 7 or lower (or a 2); at this table a 10 may not burn a 7.",
    ("SH-33", (("ten_after_seven", "blocked"),)):
        "After a 7 the next card must be a 7 or lower (or a 2 or 3); at this table a 10 may not burn a 7.",
    ("SH-33", (("three_is_normal", True),)): "After a 7 the next card must be a 7 or lower (or a 2 or 10).",
    ("SH-18", (("faceup_play", "same_rank_set"),)):
        "Face-up cards are played like hand cards, several of one rank together; when none can go, the player "
        "picks up the pile and the face-up cards stay where they are.",
    ("SH-18", (("faceup_fail_takes_card", False),)):
        "Face-up cards are played one at a time: when one cannot go, the player picks up the pile and the card "
        "stays face up.",
}
