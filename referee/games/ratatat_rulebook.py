"""Rat-a-Tat Cat's rule book in plain words (RULES.md §1, the rule book of record): every rule a ruling
can cite, one or two sentences each, grouped as RULES.md groups them, for the rules page and rulings."""
from __future__ import annotations

from .rulebook import HouseRuleWords, Section

RULE_BOOK: tuple[Section, ...] = (
    Section("Setting up", (
        ("RTC-1", "Rat-a-Tat Cat is for 2 to 6 players."),
        ("RTC-2", "The deck must be the right one: 54 cards (four each of 0 to 8, nine 9s, three each of "
                  "Peek, Swap and Draw 2), or the 65-card deluxe deck if the table chose it."),
        ("RTC-3", "The dealer shuffles, the player on the dealer's left cuts, and the dealer deals four cards "
                  "face down to each player, one at a time."),
        ("RTC-4", "Without looking, each player lays their four cards face down in a row. The cards keep "
                  "their places all round: places 1 to 4, from the owner's left."),
        ("RTC-5", "The discard pile starts with a number card turned up from the draw pile; a power card "
                  "turned up goes back into the pile, which is shuffled, until a number card turns up."),
        ("RTC-6", "Before the first turn each player looks once, secretly, at their two outer cards, then "
                  "puts them back face down."),
        ("RTC-7", "A power card dealt into a row has no power: it just waits for the end of the round."),
        ("RTC-8", "The player on the dealer's left plays first, and play goes clockwise."),
        ("RTC-9", "Each new round the deal passes one seat to the left, and the whole deck is shuffled again."),
    )),
    Section("A turn", (
        ("RTC-10", "Each turn a player takes exactly one card: the top of the discard pile or of the draw "
                   "pile. Nobody may pass."),
        ("RTC-11", "A card taken from the discard pile must replace one of the player's cards; it cannot be "
                   "thrown straight back, and it has no power."),
        ("RTC-12", "A power card on the discard pile cannot be taken."),
        ("RTC-13", "A card drawn from the draw pile is seen only by its drawer, who puts it in their row in "
                   "place of a card, throws it on the discard pile, or (a power card) shows it and uses it."),
        ("RTC-14", "To replace a card you choose its place before seeing it; the old card goes face up on the "
                   "discard pile and the new one face down in the same place."),
        ("RTC-15", "A drawn card may replace any card, even a power card (swapped for a number card at the "
                   "end); the house rule RTC-V5 may forbid power cards in the row."),
        ("RTC-16", "A plain turn adds exactly one card to the discard pile; a power turn adds the power card "
                   "and one card for each card it replaced or threw away."),
        ("RTC-17", "A row always has four cards: there is no matching or getting rid of cards in this game."),
        ("RTC-18", "When the draw pile is empty, the discard pile is shuffled into a new one and its top card "
                   "turned up to start a new discard pile."),
        ("RTC-19", "Powers work only for a card just drawn from the draw pile: never for a dealt card, a card "
                   "from the discard pile, or one drawn at the end of the round."),
        ("RTC-20", "Calling is not a turn: a player calls after completing their turn."),
    )),
    Section("Power cards", (
        ("RTC-30", "Using a drawn power is optional: the player may just throw it away (unless the house rule "
                   "RTC-V6 says otherwise)."),
        ("RTC-31", "A Peek looks secretly at one of your own cards."),
        ("RTC-32", "A Swap trades one of your cards for one card of another player, without anyone looking at "
                   "either. Once both cards are named, the swap is final."),
        ("RTC-33", "A Swap is always one of your cards with a card of a different player: never two of your "
                   "own, never two of someone else's."),
        ("RTC-34", "Draw 2: draw a card from the draw pile. Use it and the second draw is lost; throw it away "
                   "unused and draw one more."),
        ("RTC-35", "Both Draw 2 draws come from the draw pile, never from the discard pile."),
        ("RTC-36", "A Draw 2 drawn during a Draw 2 and used starts a fresh Draw 2 in place of what was left."),
        ("RTC-37", "Hebrew Wikipedia's Draw 2 (house rule RTC-V2): the player takes two whole extra turns in a row."),
        ("RTC-38", "A power card drawn during the last turns after a call works as usual."),
    )),
    Section("Calling and the end of a round", (
        ("RTC-40", "A player calls “Rat-a-Tat Cat” only at the end of their own turn, Draw 2 and all."),
        ("RTC-41", "There is at most one call per round."),
        ("RTC-42", "After the call every other player takes one more turn; the caller takes none."),
        ("RTC-43", "When the last turns are over, everyone turns their cards face up."),
        ("RTC-44", "Each power card in a row is replaced by a card from the draw pile; a power card drawn "
                   "for it is thrown away and another card drawn."),
        ("RTC-45", "Anyone may call from their first turn, unless the table asked for full rounds of turns "
                   "first (house rule RTC-V10)."),
        ("RTC-46", "A round ends only by a call, or, if the table chose it (house rule RTC-V18), by agreeing "
                   "to stop a round that goes on too long."),
    )),
    Section("Scoring and the end of the match", (
        ("RTC-50", "A round's score is the total of the four cards turned up, once power cards are replaced: "
                   "from 0 to 36."),
        ("RTC-51", "The lowest score wins the round; ties follow the table's tie rule (RTC-V1)."),
        ("RTC-52", "The match ends after its rounds, after its time (finishing the round), or when all but one "
                   "player are out at 100."),
        ("RTC-53", "Playing for rounds or for time, the lowest total wins the match."),
        ("RTC-54", "Playing to be out at 100, everyone who gets there in the same round is out together; if "
                   "nobody would be left, the lowest total among them wins."),
        ("RTC-55", "Players tied on the lowest total share the win, unless the table chose one more round "
                   "between them (RTC-V19)."),
    )),
    Section("Where the rules are unclear, and what we chose", (
        ("RTC-A1", "Ties: the publisher says nothing. By default everyone on the lowest score wins; the table "
                   "can choose otherwise (RTC-V1)."),
        ("RTC-A2", "Draw 2: Hebrew Wikipedia says two extra turns, the publisher says use the first card and lose the "
                   "second. The publisher's way is the default (RTC-V2)."),
        ("RTC-A3", "Hebrew Wikipedia can be read as turning up the top card and then choosing it or the discard. By "
                   "default you choose first and draw in secret (RTC-V20 for the other reading)."),
        ("RTC-A4", "A power card on the discard pile cannot be taken; with RTC-V4 it can, only to go in the "
                   "row, with no power."),
        ("RTC-A5", "A drawn power card may go in your row, as the publisher's sheet says: hiding a high card "
                   "that way is a real tactic. “Number cards only” is RTC-V5."),
        ("RTC-A6", "A Draw 2 during a Draw 2: no rule says; using it starts a fresh Draw 2."),
        ("RTC-A7", "If the card replacing a power card at the end is a power card too, it is thrown away and "
                   "another is drawn."),
        ("RTC-A8", "If the draw pile runs out at the end of a round, the discard pile is shuffled as usual."),
        ("RTC-A9", "Exactly 100: the box says “reach”, Wikipedia says “go over”. By default reaching it puts "
                   "you out (RTC-V15)."),
        ("RTC-A10", "If everyone still in goes out in the same round, the lowest total among them wins."),
        ("RTC-A11", "The caller's cards may be swapped after the call, unless the table locks them (RTC-V11)."),
        ("RTC-A12", "A Draw 2 during a last turn is part of that turn, so the player gets its draws."),
        ("RTC-A13", "The cat and rat pictures do not matter: only the number counts."),
        ("RTC-A14", "The order of the replacement draws at the end does not change anyone's score."),
        ("RTC-A15", "Calling on your very first turn is allowed, unless the table chose otherwise (RTC-V10)."),
        ("RTC-A16", "A Peek looks at your own card, as Hebrew Wikipedia says; RTC-V7 lets it look at any card."),
    )),
    Section("What the referee can check", (
        ("RTC-K1", "It counts cards: the draw pile, the discard pile, the rows and any card in hand always "
                   "add up to the whole deck."),
        ("RTC-K2", "A card taken from the discard pile was seen by all, so everyone knows what lies in that "
                   "place until it moves."),
        ("RTC-K3", "A card leaving a row is seen as it is thrown, which tells what that place held."),
        ("RTC-K4", "A Swap moves what is known with the cards: a card everyone knew is still known where it "
                   "went."),
        ("RTC-K5", "It sees a second Draw 2 card drawn after the first was used, and refuses it."),
        ("RTC-K6", "Taking a power card from the discard pile, or using a power after taking from it, is seen "
                   "by all and refused."),
        ("RTC-K7", "When power cards may not go in a row (RTC-V5), it can only find out at the end, and "
                   "flags it then."),
        ("RTC-K8", "It knows how many of each card exist, so one sighting too many means a misread or a "
                   "wrong card."),
        ("RTC-K9", "At the end every card the table knew must show its value, and replacements come from "
                   "the draw pile."),
        ("RTC-K10", "The screen shows what the table knows about each row, never what only one player saw."),
        ("RTC-K11", "It cannot know what a player drew and kept, what a Peek showed, whether anyone peeked "
                    "when they should not, or how the cards were shuffled."),
        ("RTC-K12", "If a photo happens to show a card drawn in secret, it stays private to the drawer."),
    )),
)


#: Rules whose words change under a house rule (``rulebook.house_rule_words``): the one look at the start
#: (RTC-V8), when a player calls (RTC-V9) and a drawn power that must be used (RTC-V6).
HOUSE_RULE_WORDS: HouseRuleWords = {
    ("RTC-6", (("initial_peek", "any_two"),)): "Before the first turn each player looks once, secretly, at any two "
                                               "of their cards, then puts them back face down.",
    ("RTC-6", (("initial_peek", "outer_face_up"),)): "Before the first turn each player turns their two outer "
                                                     "cards face up for everyone to see; only face-down cards may "
                                                     "be swapped.",
    ("RTC-20", (("call_timing", "instead_of_turn"),)): "At this table calling is a turn: a player calls at the "
                                                       "start of their own turn, instead of taking a card.",
    ("RTC-40", (("call_timing", "instead_of_turn"),)): "A player calls “Rat-a-Tat Cat” only at the start of their "
                                                       "own turn, instead of taking a card.",
    ("RTC-30", (("power_use_optional", False),)): "At this table a drawn power must be used: the player may not "
                                                  "just throw it away.",
}
