"""Each rule a ruling can cite, in one plain sentence (paraphrasing RULES.md, the rule book of record)."""
from __future__ import annotations

RULES: dict[str, str] = {
    "GEN-3": "A deck has a fixed number of each card: the table cannot have seen more copies than exist.",
    "GEN-4": "A card known to be one value must show that value when it is turned face up.",
    "GEN-5": "The referee cannot stop a move at a real table: the table may let a refused entry stand, "
             "and the override is recorded.",
    "GEN-7": "Play goes clockwise; a player acts in their own turn.",
    "GEN-13": "Undo and corrections are new entries pointing at the entries they change.",
    "RTC-1": "Rat-a-Tat Cat is for 2 to 6 players.",
    "RTC-5": "The discard pile starts with a number card turned up from the draw pile; a power card goes back.",
    "RTC-6": "Before the first turn each player looks once at their two outer cards.",
    "RTC-7": "A power card dealt into a row has no power.",
    "RTC-10": "Each turn a player takes exactly one card: the top of the discard pile or of the draw pile.",
    "RTC-11": "A card taken from the discard pile must replace one of the player's cards.",
    "RTC-12": "A power card on the discard pile cannot be taken.",
    "RTC-13": "A drawn card replaces a card, is discarded, or — a power card — is used.",
    "RTC-15": "A drawn card may replace any card; the house rule RTC-V5 may forbid power cards in the row.",
    "RTC-18": "When the draw pile is empty, the discard pile is shuffled into a new one.",
    "RTC-19": "Powers work only for a card just drawn from the draw pile.",
    "RTC-20": "Calling is not a turn: a player calls after completing their turn.",
    "RTC-30": "Using a drawn power is optional (unless the house rule RTC-V6 says otherwise).",
    "RTC-31": "A Peek looks at one of your own cards.",
    "RTC-32": "A Swap exchanges one of your cards with another player's card, unseen.",
    "RTC-33": "A Swap is always one of your cards with a card of a different player.",
    "RTC-34": "Draw 2: use the first card drawn and the second draw is lost; discard it unused to draw again.",
    "RTC-35": "Both Draw 2 draws come from the draw pile.",
    "RTC-40": "A player calls “Rat-a-Tat Cat” only at the end of their own turn.",
    "RTC-41": "There is at most one call per round.",
    "RTC-42": "After the call every other player takes one more turn; the caller takes none.",
    "RTC-43": "When the final turns are over, every card is turned face up.",
    "RTC-44": "At the reveal each power card is replaced by a card from the draw pile.",
    "RTC-45": "A call may need a number of full rounds of turns first (house rule RTC-V10).",
    "RTC-46": "A round ends only by a call, or by an agreed stalemate (house rule RTC-V18).",
    "RTC-50": "A round's score is the sum of the four revealed number cards.",
    "RTC-52": "The match ends after its rounds, its time, or when all but one player are out at 100.",
}


def rule_text(rule: str) -> str:
    """The plain sentence for a rule ID, or an empty string for one this file does not state."""
    return RULES.get(rule, "")
