"""The engines' words in the phone's language, translated in the web layer by what they are.

The rules engines (``referee/games/``) stay free of gettext: they state the rule book, the house-rule
switches and the rulings in English, each under a stable key (a rule ID, a switch key and value, a preset
key). Those keys are the message contexts of a second catalogue, ``rules``
(``referee/translations/<lang>/LC_MESSAGES/rules.po``), generated from the engines by
``python -m referee.i18n_rules`` (which writes ``rules.pot``; then ``pybabel update -D rules``). A message
missing from it, or whose English changed (the catalogue then no longer matches), shows in English,
marked ``lang="en"`` so a screen reader says it right.

Rulings are sentences the engines build with names and cards in them: the phone shows the rule's own
sentence in its language under the rule ID, and the engine's particular sentence as it was said.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import current_app
from flask_babel import Domain, lazy_gettext as _l
from markupsafe import Markup, escape

from .i18n import TRANSLATIONS, lang

DOMAIN = "rules"
_domain = Domain(translation_directories=str(TRANSLATIONS), domain=DOMAIN)


def _rules_text(context: str, english: str) -> str:
    """The translation of ``english`` said under ``context``, or "" when the catalogue lacks it."""
    if not english or lang() == "en":
        return english
    translations = _domain.get_translations()
    found = translations.upgettext(context, english) if hasattr(translations, "upgettext") else None
    if found is None:
        found = translations.pgettext(context, english)
    return "" if found == english else found


def _or_english(context: str, english: Any) -> str | Markup:
    english = "" if english is None else str(english)
    found = _rules_text(context, english)
    if found or not english or lang() == "en":
        return found or english
    return Markup('<span lang="en" dir="ltr">{}</span>').format(english)


def engine_words(text: Any) -> str | Markup:
    """A sentence an engine built (an outcome, a round's explanation): as said, marked English when the
    page is in another language."""
    text = "" if text is None else str(text)
    if not text or lang() == "en":
        return text
    return Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(text)


def rule_words(rule_id: str, english: str) -> str | Markup:
    """A rule book sentence, by rule ID."""
    return _or_english(rule_id, english)


def ruling_words(rule_id: str, message: str) -> str | Markup:
    """A ruling's particular sentence in the phone's language: the engines say it in English with names
    and cards in it, so the web layer reads it back by its shape (Rat-a-Tat Cat's and the general rules'
    rulings) and says it again; any other stays as said, marked English (the rule's own sentence,
    translated, is shown under it either way)."""
    message = "" if message is None else str(message)
    if lang() == "en" or not message:
        return message
    for pattern, words in _rulings():
        found = pattern.fullmatch(message)
        if found:
            fields = {k: (_card_phrase(v) if k.startswith(("card", "need")) else v)
                      for k, v in found.groupdict().items()}
            return str(words) % fields
    return engine_words(message)


_CARD = r"(?:[Aa]n? )?(?:Peek|Swap|Draw 2|Super Peek|\d+)"
_RULINGS_EN: tuple[tuple[str, Any], ...] = (
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s\.", _l("It is %(name)s's turn, not %(other)s's.")),
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s(?P<hint>.+)\.", _l("It is %(name)s's turn, not %(other)s's.")),
    (r"(?P<name>.+) is in the middle of a turn\.", _l("%(name)s is in the middle of a turn.")),
    (r"(?P<name>.+) is not playing this round\.", _l("%(name)s is not playing this round.")),
    (r"The deck has only (?P<copies>\d+) × (?P<card>.+), and (?P<seen>\d+) are already known on the table: "
     r"this sighting would be one too many \(a misread or a wrong card\?\)\.",
     _l("The deck has only %(copies)s × %(card)s, and %(seen)s are already known on the table: this sighting "
        "would be one too many (a misread or a wrong card?).")),
    (r"This card was known to be (?P<card>.+) \(entry (?P<entry>\d+)\) but shows (?P<card2>.+) now "
     r"\(entry (?P<now>\d+)\)\.",
     _l("This card was known to be %(card)s (entry %(entry)s) but shows %(card2)s now (entry %(now)s).")),
    (r"The match is over: no more entries can be played\.", _l("The match is over: no more entries can be played.")),
    (r"(?P<rule>[A-Z]+-[A-Z0-9]+) does not refuse this entry, so there is nothing to override\.",
     _l("%(rule)s does not refuse this entry, so there is nothing to override.")),
    (r"There is no open flag (?P<flag>\d+) to decide\.", _l("There is no open flag %(flag)s to decide.")),
    (r"Turn up the top card of the draw pile to start the discard pile first\.",
     _l("Turn up the top card of the draw pile to start the discard pile first.")),
    (r"(?P<name>.+) called and gets no more turns; the round is over, reveal the cards\.",
     _l("%(name)s called and gets no more turns; the round is over, reveal the cards.")),
    (r"The final turns are over: reveal the cards\.", _l("The final turns are over: reveal the cards.")),
    (r"(?P<name>.+) called: the caller takes no more turns, every other player takes one\.",
     _l("%(name)s called: the caller takes no more turns, every other player takes one.")),
    (r"(?P<name>.+)'s Draw 2 is over: the card drawn was used or both draws were taken, so there is no "
     r"further draw\.", _l("%(name)s's Draw 2 is over: the card drawn was used or both draws were taken, so there "
                           "is no further draw.")),
    (r"Resolve the (?P<card>Peek|Swap|Draw 2|Super Peek) first\.", _l("Resolve the %(card)s first.")),
    (r"(?P<name>.+) holds no card to (?P<what>.+): draw or take one first\.",
     _l("%(name)s holds no card to use: draw or take one first.")),
    (r"The discard pile has already been started\.", _l("The discard pile has already been started.")),
    (r"The draw pile is empty: reshuffle the discard pile first\.",
     _l("The draw pile is empty: reshuffle the discard pile first.")),
    (r"The draw pile is empty: reshuffle the discard pile first \(RTC-A8\)\.",
     _l("The draw pile is empty: reshuffle the discard pile first.")),
    (r"The draw pile is empty: shuffle the discard pile into a new draw pile \(enter a reshuffle\) and turn up "
     r"a new discard first\.", _l("The draw pile is empty: shuffle the discard pile into a new draw pile (enter a "
                                  "reshuffle) and turn up a new discard first.")),
    (r"(?P<name>.+) already holds a card: replace a card with it or discard it\.",
     _l("%(name)s already holds a card: replace a card with it or discard it.")),
    (r"(?P<name>.+) already holds a card: take exactly one card per turn\.",
     _l("%(name)s already holds a card: take exactly one card per turn.")),
    (r"Both Draw 2 draws come from the draw pile, never from the discard pile\.",
     _l("Both Draw 2 draws come from the draw pile, never from the discard pile.")),
    (r"The discard pile is empty: turn up a card to start it first\.",
     _l("The discard pile is empty: turn up a card to start it first.")),
    (r"(?P<card>" + _CARD + r") on the discard pile cannot be taken: a discarded power card is out of play\.",
     _l("%(card)s on the discard pile cannot be taken: a discarded power card is out of play.")),
    (r"Under this table's rules \(RTC-V5 forbidden\) a drawn power card may only be used or discarded, not put "
     r"into the row\.", _l("Under this table's rules (RTC-V5) a drawn power card may only be used or discarded, "
                           "not put into the row.")),
    (r"Under this table's rules \(RTC-V6\) a drawn power card must be used\.",
     _l("Under this table's rules (RTC-V6) a drawn power card must be used.")),
    (r"Under this table's rules \(RTC-V6\) a drawn Swap must be used\.",
     _l("Under this table's rules (RTC-V6) a drawn Swap must be used.")),
    (r"A card taken from the discard pile must replace one of your cards; it cannot be put straight back\.",
     _l("A card taken from the discard pile must replace one of your cards; it cannot be put straight back.")),
    (r"A power card in a row has no power: powers work only for a card just drawn from the draw pile "
     r"\(RTC-19\)\.", _l("A power card in a row has no power: powers work only for a card just drawn from the "
                          "draw pile (RTC-19).")),
    (r"Powers work only for a card just drawn from the draw pile during your turn\.",
     _l("Powers work only for a card just drawn from the draw pile during your turn.")),
    (r"(?P<card>" + _CARD + r") is not a power card\.", _l("%(card)s is not a power card.")),
    (r"A card taken from the discard pile gives no power \(RTC-11\); powers work only for a card drawn from "
     r"the draw pile\.", _l("A card taken from the discard pile gives no power (RTC-11); powers work only for a "
                           "card drawn from the draw pile.")),
    (r"There is no Peek to resolve: a Peek is used right after it is drawn\.",
     _l("There is no Peek to resolve: a Peek is used right after it is drawn.")),
    (r"(?P<name>.+) has no cards this round\.", _l("%(name)s has no cards this round.")),
    (r"A Peek looks at one of your own cards\.", _l("A Peek looks at one of your own cards.")),
    (r"There is no Swap to resolve: a Swap is used right after it is drawn\.",
     _l("There is no Swap to resolve: a Swap is used right after it is drawn.")),
    (r"Name your card and the other player's card to swap\.", _l("Name your card and the other player's card to swap.")),
    (r"A Swap exchanges one of your cards with a card of another player, not two of your own\.",
     _l("A Swap exchanges one of your cards with a card of another player, not two of your own.")),
    (r"Under this table's rules \(RTC-V11\) the caller (?P<name>.+)'s cards are locked after the call\.",
     _l("Under this table's rules (RTC-V11) the caller %(name)s's cards are locked after the call.")),
    (r"With the outer cards face up \(RTC-V8 outer_face_up\) only face-down cards may be swapped\.",
     _l("With the outer cards face up (RTC-V8) only face-down cards may be swapped.")),
    (r"(?P<name>.+) has already called this round: only one call per round\.",
     _l("%(name)s has already called this round: only one call per round.")),
    (r"The round is already over\.", _l("The round is already over.")),
    (r"Under this table's rules \(RTC-V9\) a player calls instead of taking a turn, at the start of their own "
     r"turn\.", _l("Under this table's rules (RTC-V9) a player calls instead of taking a turn, at the start of "
                   "their own turn.")),
    (r"A player calls at the end of their own turn, after taking a card \(RTC-20: calling is not a turn\)\.",
     _l("A player calls at the end of their own turn, after taking a card (RTC-20: calling is not a turn).")),
    (r"A player calls only at the end of their own turn, before the next player acts\.",
     _l("A player calls only at the end of their own turn, before the next player acts.")),
    (r"Under this table's rules \(RTC-V10\) nobody may call before (?P<num>\d+) full round\(s\) of turns\.",
     _l("Under this table's rules (RTC-V10) nobody may call before %(num)s full round(s) of turns.")),
    (r"The draw pile still has (?P<num>\d+) card\(s\): reshuffle only when it is empty\.",
     _l("The draw pile still has %(num)s card(s): reshuffle only when it is empty.")),
    (r"There is no discard pile to reshuffle\.", _l("There is no discard pile to reshuffle.")),
    (r"This match is not timed\.", _l("This match is not timed.")),
    (r"Time was already called\.", _l("Time was already called.")),
    (r"Cards are revealed only when the round is over: after the call and the final turns \(RTC-42\)\.",
     _l("Cards are revealed only when the round is over: after the call and the final turns (RTC-42).")),
    (r"(?P<name>.+)'s cards are already revealed \(correct that entry instead\)\.",
     _l("%(name)s's cards are already revealed (correct that entry instead).")),
    (r"Name all (?P<num>\d+) cards: the round is scored from them\.",
     _l("Name all %(num)s cards: the round is scored from them.")),
    (r"(?P<name>.+)'s slot (?P<slot>\d) holds no revealed power card to replace\.",
     _l("%(name)s's slot %(slot)s holds no revealed power card to replace.")),
    (r"Name the card drawn to replace the power card\.", _l("Name the card drawn to replace the power card.")),
    (r"The discard pile is empty\.", _l("The discard pile is empty.")),
    (r"The initial peek happens once, before the player's first turn\.",
     _l("The initial peek happens once, before the player's first turn.")),
    (r"The initial peek is at the two outer cards, slots 1 and 4\.",
     _l("The initial peek is at the two outer cards, slots 1 and 4.")),
    # Shithead's rulings at play
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s \(four of a kind out of turn is an interrupt\)\.",
     _l("It is %(name)s's turn, not %(other)s's (four of a kind out of turn is an interrupt).")),
    (r"The card to beat is the (?P<rank>\w+)(?P<under> under the 3s)?: a (?P<played>\w+) is lower \(play a \w+ or higher, "
     r"or a 2, 3 or 10\)\.", _l("The card to beat is the %(rank)s: a %(played)s is lower (play a %(rank)s or higher, or a 2, 3 "
                                 "or 10).")),
    (r"A 7(?P<under> under the 3s)? is on top: the next card must be a 7 or lower, or a 2, 3 or 10\.",
     _l("A 7 is on top: the next card must be a 7 or lower, or a 2, 3 or 10.")),
    (r"A 7(?P<under> under the 3s)? is on top: at this table a 10 may not burn it\.",
     _l("A 7 is on top: at this table a 10 may not burn it.")),
    (r"The pile is empty: picking it up would be a pass \(SH-10\)\. Play any card\.",
     _l("The pile is empty: picking it up would be a pass (SH-10). Play any card.")),
    (r"A play puts at least one card on the pile\.", _l("A play puts at least one card on the pile.")),
    (r"Name every card played: they are all face up on the pile\.",
     _l("Name every card played: they are all face up on the pile.")),
    (r"Say which rank the joker plays as\.", _l("Say which rank the joker plays as.")),
    (r"A play is cards of one rank only: (?P<cards>.+)\.", _l("A play is cards of one rank only: %(cards)s.")),
    (r"Face-up cards are played one at a time at this table\.", _l("Face-up cards are played one at a time at this table.")),
    (r"Face-down cards are turned over one at a time\.", _l("Face-down cards are turned over one at a time.")),
    (r"(?P<name>.+) has only (?P<num>\d+) cards? in hand\.", _l("%(name)s has only %(num)s card(s) in hand.")),
    (r"(?P<name>.+) is out of this game\.", _l("%(name)s is out of this game.")),
    (r"(?P<name>.+) has no cards left\.", _l("%(name)s has no cards left.")),
    (r"Play has not started: enter who starts first\.", _l("Play has not started: enter who starts first.")),
    (r"Play has started: the face-up cards and the swaps are settled\.",
     _l("Play has started: the face-up cards and the swaps are settled.")),
    (r"Enter (?P<name>.+)'s face-up cards first\.", _l("Enter %(name)s's face-up cards first.")),
    (r"Enter every player's face-up cards first: (?P<names>.+)\.", _l("Enter every player's face-up cards first: %(names)s.")),
    (r"At this table face-up cards are not swapped\.", _l("At this table face-up cards are not swapped.")),
    (r"At this table nobody plays out of turn\.", _l("At this table nobody plays out of turn.")),
    (r"With only two players left nobody plays out of turn\.", _l("With only two players left nobody plays out of turn.")),
    (r"It is (?P<name>.+)'s own turn: play the cards as the turn\.", _l("It is %(name)s's own turn: play the cards as the turn.")),
    (r"An interrupt must complete four of a kind: that makes (?P<num>\d+) (?P<rank>\w+)s\.",
     _l("An interrupt must complete four of a kind: that makes %(num)s × %(rank)s.")),
    (r"Face-down cards cannot interrupt \(SH-A9\)\.", _l("Face-down cards cannot interrupt (SH-A9).")),
    (r"Every (?P<card>.+) is already somewhere else on the table: this must be a mis-tap or a misread photo\.",
     _l("Every %(card)s is already somewhere else on the table: this must be a mis-tap or a misread photo.")),
    (r"There is no (?P<card>.+) in this table's deck\.", _l("There is no %(card)s in this table's deck.")),
    (r"The table knows every card in (?P<name>.+)'s hand \((?P<known>.+)\): (?P<cards>.+) (?:is|are) not among them\.",
     _l("The table knows every card in %(name)s's hand (%(known)s): %(cards)s is not among them.")),
    (r"(?P<card>.+) is not among (?P<name>.+)'s face-up cards\.", _l("%(card)s is not among %(name)s's face-up cards.")),
    # Cabo / Cambio: why a round scored as it did (each sentence of the engine's explanation)
    (r"The draw pile ran out and ended the round \(CAB-22\)\.", _l("The draw pile ran out and ended the round (CAB-22).")),
    (r"Kamikaze: (?P<name>.+) ended on 12, 12, 13 and 13, so scores 0 and everyone else scores 50 \(CAB-42\)\.",
     _l("Kamikaze: %(name)s ended on 12, 12, 13 and 13, so scores 0 and everyone else scores 50 (CAB-42).")),
    (r"Nobody called, so everyone scores their sum and nobody gets the caller's 0 \(CAB-40\)\.",
     _l("Nobody called, so everyone scores their sum and nobody gets the caller's 0 (CAB-40).")),
    (r"(?P<name>.+) called with the lowest sum, (?P<low>-?\d+) \(a tie counts\), so scores 0; everyone else scores "
     r"their sum \(CAB-40\)\.", _l("%(name)s called with the lowest sum, %(low)s (a tie counts), so scores 0; everyone "
                                    "else scores their sum (CAB-40).")),
    (r"(?P<name>.+) called with the lowest sum, (?P<low>-?\d+), so scores 0; everyone else scores their sum "
     r"\(CAB-40\)\.", _l("%(name)s called with the lowest sum, %(low)s, so scores 0; everyone else scores their sum "
                          "(CAB-40).")),
    (r"(?P<name>.+) called with (?P<sum>-?\d+), not the lowest sum \((?P<low>-?\d+)\), so scores (?P<a>-?\d+) \+ 10 = "
     r"(?P<score>-?\d+) \(CAB-40\)\.", _l("%(name)s called with %(sum)s, not the lowest sum (%(low)s), so scores %(a)s + "
                                         "10 = %(score)s (CAB-40).")),
    (r"(?P<names>.+) (?:has|have) the lowest sum, (?P<low>-?\d+), and scores? 0 \(CAB-41\)\.",
     _l("%(names)s: the lowest sum, %(low)s, scores 0 (CAB-41).")),
    (r"(?P<name>.+) called but was not lowest: (?P<sum>-?\d+) \+ 5 = (?P<score>-?\d+)\.",
     _l("%(name)s called but was not lowest: %(sum)s + 5 = %(score)s.")),
    (r"Everyone scores their sum \(CAB-44\)\.", _l("Everyone scores their sum (CAB-44).")),
    (r"(?P<name>[^,]+) has the lowest score, (?P<score>-?\d+), and wins the round\.",
     _l("%(name)s has the lowest score, %(score)s, and wins the round.")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+): under this table's tie rule a tied round has no winner \(CAB-V9\)\.",
     _l("%(names)s tie on %(score)s: under this table's tie rule a tied round has no winner (CAB-V9).")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+): under this table's tie rule \(CAB-V9, CAB-A4\) (?P<winners>.+) wins? the "
     r"round\.", _l("%(names)s tie on %(score)s: under this table's tie rule (CAB-V9, CAB-A4) the round goes to "
                    "%(winners)s.")),
    (r"(?P<names>.+) reached exactly 100 and drops? to 50 \(CAB-43\)\.", _l("%(names)s: exactly 100, down to 50 (CAB-43).")),
    # Cabo / Cambio's rulings at play
    (r"(?P<name>.+) has no card in place (?P<place>\d+)\.", _l("%(name)s has no card in place %(place)s.")),
    (r"(?P<name>.+) first gives one of their cards to (?P<other>.+) for the card snapped from place (?P<place>\d+)\.",
     _l("%(name)s first gives one of their cards to %(other)s for the card snapped from place %(place)s.")),
    (r"The round is over: turn up the cards\.", _l("The round is over: turn up the cards.")),
    (r"(?P<name>.+) already holds a card: keep it in place of a card, or discard it\.",
     _l("%(name)s already holds a card: keep it in place of a card, or discard it.")),
    (r"The first look happens once, before the player's first turn\.",
     _l("The first look happens once, before the player's first turn.")),
    (r"The first look is at two different cards\.", _l("The first look is at two different cards.")),
    (r"The first look is at the two cards nearest you, places 3 and 4 \(the bottom row of the square\)\.",
     _l("The first look is at the two cards nearest you, places 3 and 4 (the bottom row of the square).")),
    (r"The draw pile is empty: take the top discard or call\.", _l("The draw pile is empty: take the top discard or call.")),
    (r"The draw pile is empty: shuffle the discard pile, all but its top card, into a new draw pile first \(enter a "
     r"reshuffle\)\.", _l("The draw pile is empty: shuffle the discard pile, all but its top card, into a new draw pile "
                           "first (enter a reshuffle).")),
    (r"This table plays without matching exchanges: keep the card in place of one card, or discard it\.",
     _l("This table plays without matching exchanges: keep the card in place of one card, or discard it.")),
    (r"A matching exchange turns up two or more different cards of your own\.",
     _l("A matching exchange turns up two or more different cards of your own.")),
    (r"The cards entered do not all match\.", _l("The cards entered do not all match.")),
    (r"A card taken from the discard pile must be kept in place of one of your cards \(or of a matching set\); it "
     r"cannot be put straight back\.", _l("A card taken from the discard pile must be kept in place of one of your "
                                         "cards (or of a matching set); it cannot be put straight back.")),
    (r"A card taken from the discard pile gives no power, only its points \(CAB-3\)\.",
     _l("A card taken from the discard pile gives no power, only its points (CAB-3).")),
    (r"A Peek \(7 or 8\) looks at one of your own cards\.", _l("A Peek (7 or 8) looks at one of your own cards.")),
    (r"A Spy \(9 or 10\) looks at another player's card\.", _l("A Spy (9 or 10) looks at another player's card.")),
    (r"Name both cards to swap\.", _l("Name both cards to swap.")),
    (r"A Swap exchanges cards of two different players\.", _l("A Swap exchanges cards of two different players.")),
    (r"A blind Swap exchanges one of your own cards with another player's card\.",
     _l("A blind Swap exchanges one of your own cards with another player's card.")),
    (r"(?P<name>.+) called: nobody may swap the caller's cards\.", _l("%(name)s called: nobody may swap the caller's cards.")),
    (r"(?P<name>.+) called: nobody may snap the caller's cards or change them\.",
     _l("%(name)s called: nobody may snap the caller's cards or change them.")),
    (r"This table plays without snapping\.", _l("This table plays without snapping.")),
    (r"No snapping once the cards are being turned up for scoring\.",
     _l("No snapping once the cards are being turned up for scoring.")),
    (r"A card was already snapped onto this discard: only the first good snap counts, and nobody may snap onto a "
     r"snapped card\.", _l("A card was already snapped onto this discard: only the first good snap counts, and nobody "
                           "may snap onto a snapped card.")),
    (r"(?P<name>.+) already snapped wrongly onto this discard\.", _l("%(name)s already snapped wrongly onto this discard.")),
    (r"Name the snapped card and the discard it lands on, or say whether they match\.",
     _l("Name the snapped card and the discard it lands on, or say whether they match.")),
    # Spite & Malice's rulings at play
    (r"That pile needs (?:an?) (?P<need>\w+) \(or a king\), not (?:an?) (?P<card>\w+)\.",
     _l("That pile needs %(need)s (or a king), not %(card)s.")),
    (r"Only an ace or a king starts a pile, not (?:an?) (?P<card>\w+)\.", _l("Only an ace or a king starts a pile, not %(card)s.")),
    (r"Only an ace starts a pile, not (?:an?) (?P<card>\w+)\.", _l("Only an ace starts a pile, not %(card)s.")),
    (r"At this table a king may not start a pile: only an ace starts one\.",
     _l("At this table a king may not start a pile: only an ace starts one.")),
    (r"(?P<name>.+) draws (?P<num>\d+) from the stock first \(the hand is empty\)\.",
     _l("%(name)s draws %(num)s from the stock first (the hand is empty).")),
    (r"(?P<name>.+) draws (?P<num>\d+) from the stock first \(back up to 5\)\.",
     _l("%(name)s draws %(num)s from the stock first (back up to 5).")),
    (r"(?P<name>.+)'s turn ended with the discard onto a side stack: it is (?P<other>.+)'s turn now\.",
     _l("%(name)s's turn ended with the discard onto a side stack: it is %(other)s's turn now.")),
    (r"(?P<name>.+)'s turn ended with the discard: only the refill is left\.",
     _l("%(name)s's turn ended with the discard: only the refill is left.")),
    (r"(?P<name>.+) has already discarded this turn: one discard ends the turn\.",
     _l("%(name)s has already discarded this turn: one discard ends the turn.")),
    (r"A card on a building pile stays there until the pile is complete\.",
     _l("A card on a building pile stays there until the pile is complete.")),
    (r"A pay-off card goes only onto a building pile, never onto a side stack\.",
     _l("A pay-off card goes only onto a building pile, never onto a side stack.")),
    (r"Cards never move from one side stack to another: only a hand card goes onto a side stack\.",
     _l("Cards never move from one side stack to another: only a hand card goes onto a side stack.")),
    (r"There (?:is|are) already (?P<num>\d+) building piles?, the most this table allows: build on (?:it|one of them)\.",
     _l("There are already %(num)s building piles, the most this table allows: build on one of them.")),
    (r"Play has not started: enter the pay-off tops \(and who starts\) first\.",
     _l("Play has not started: enter the pay-off tops (and who starts) first.")),
    (r"Enter the pay-off tops first: (?P<names>.+)\.", _l("Enter the pay-off tops first: %(names)s.")),
    (r"(?P<name>.+) has no pay-off cards left\.", _l("%(name)s has no pay-off cards left.")),
    (r"(?P<name>.+) has no cards in hand\.", _l("%(name)s has no cards in hand.")),
    (r"(?P<name>.+) has no side stack (?P<num>\d+): it is empty\.", _l("%(name)s has no side stack %(num)s: it is empty.")),
    (r"No draw is owed now: (?P<name>.+) holds (?P<num>\d+) cards?\.", _l("No draw is owed now: %(name)s holds %(num)s card(s).")),
    (r"The stock holds only (?P<num>\d+) cards?\.", _l("The stock holds only %(num)s card(s).")),
    (r"Enter (?P<name>.+)'s new pay-off top first \(tap unknown if nobody saw it\): then the card built from it can "
     r"be checked\.", _l("Enter %(name)s's new pay-off top first (tap unknown if nobody saw it): then the card built "
                         "from it can be checked.")),
    (r"Every (?P<card>\S+) of the decks \((?P<num>\d+)\) is already face up on the table: this must be a mis-tap or a "
     r"misread photo\.", _l("Every %(card)s of the decks (%(num)s) is already face up on the table: this must be a "
                           "mis-tap or a misread photo.")),
    # Shithead: what beats the pile, and the reminders the referee owes the table after a play
    (r"anything", _l("anything")),
    (r"anything \(a 2 is on top\)", _l("anything (a 2 is on top)")),
    (r"a 7 or lower, or a 2, 3 or 10", _l("a 7 or lower, or a 2, 3 or 10")),
    (r"a (?P<rank>\w+) or higher, or a 2, 3 or 10", _l("a %(rank)s or higher, or a 2, 3 or 10")),
    (r"(?P<name>.+) starts: the higher pay-off top \((?P<tops>.+)\)\.",
     _l("%(name)s starts: the higher pay-off top (%(tops)s).")),
    (r"(?P<name>.+) starts: entered by the table\.", _l("%(name)s starts: entered by the table.")),
    (r"(?P<name>.+) starts and must play the (?P<rank>\w+)\.", _l("%(name)s starts and must play the %(rank)s.")),
    (r"(?P<name>.+) starts\.", _l("%(name)s starts.")),
    (r"Burned: the pile goes out of play \(a 10\)\.", _l("Burned: the pile goes out of play (a 10).")),
    (r"Burned: the pile goes out of play \(four of a kind\)\.", _l("Burned: the pile goes out of play (four of a kind).")),
    (r"(?P<name>.+): draw (?P<num>\d+)\.", _l("%(name)s: draw %(num)s.")),
    (r"(?P<name>.+) is out, number (?P<num>\d+)\.", _l("%(name)s is out, number %(num)s.")),
    (r"(?P<name>.+) plays again\.", _l("%(name)s plays again.")),
    (r"The direction of play reverses\.", _l("The direction of play reverses.")),
    (r"Skipped: (?P<names>.+)\.", _l("Skipped: %(names)s.")),
    (r"Everyone else is skipped: (?P<name>.+) plays again\.", _l("Everyone else is skipped: %(name)s plays again.")),
    (r"(?P<name>.+) picks up (?P<num>\d+) cards?; (?P<next>.+) leads onto the empty pile\.",
     _l("%(name)s picks up the pile (%(num)s); %(next)s leads onto the empty pile.")),
    (r"(?P<name>.+) interrupts: (?P<other>.+)'s turn is lost\.", _l("%(name)s interrupts: %(other)s's turn is lost.")),
    (r"(?P<name>.+) adds (?P<cards>.+)\.", _l("%(name)s adds %(cards)s.")),
    # Spite & Malice: what the table owes the referee, and what happened
    (r"(?P<name>.+): turn up the pay-off top and enter it\.", _l("%(name)s: turn up the pay-off top and enter it.")),
    (r"(?P<name>.+): turn the next pay-off card and enter it \((?P<num>\d+) left\)\.",
     _l("%(name)s: turn the next pay-off card and enter it (%(num)s left).")),
    (r"Enter who starts\.", _l("Enter who starts.")),
    (r"(?P<name>.+): draw (?P<num>\d+) from the stock \(hand (?P<hand>\d+) → (?P<after>\d+)\)\.",
     _l("%(name)s: draw %(num)s from the stock (hand %(hand)s → %(after)s).")),
    (r"(?P<name>.+): build, then end the turn with one hand card onto a side stack\.",
     _l("%(name)s: build, then end the turn with one hand card onto a side stack.")),
    (r"Not every pay-off top is known: enter who starts\.", _l("Not every pay-off top is known: enter who starts.")),
    (r"Equal pay-off tops: (?P<names>.+) shuffle their pay-off piles and turn new tops\.",
     _l("Equal pay-off tops: %(names)s shuffle their pay-off piles and turn new tops.")),
    (r"(?P<name>.+) has built every hand card: draw 5 more and carry on\.",
     _l("%(name)s has built every hand card: draw 5 more and carry on.")),
    (r"Pile (?P<pile>\d+) is complete: shuffle its (?P<num>\d+) cards into the stock \(now (?P<stock>\d+)\)\.",
     _l("Pile %(pile)s is complete: shuffle its %(num)s cards into the stock (now %(stock)s).")),
    (r"Game (?P<num>\d+): shuffle both decks, deal the pay-off piles and hands, and enter the pay-off tops\.",
     _l("Game %(num)s: shuffle both decks, deal the pay-off piles and hands, and enter the pay-off tops.")),
)


def _rulings() -> tuple:
    import re

    global _COMPILED
    if _COMPILED is None:
        _COMPILED = tuple((re.compile(pattern, re.S), words) for pattern, words in _RULINGS_EN)
    return _COMPILED


_COMPILED: tuple | None = None


def _card_phrase(phrase: str) -> str:
    """ "a Peek", "an 8", "A Draw 2" -> the card as the screen names it."""
    if phrase is None:
        return ""
    word = phrase.split(" ", 1)[1] if phrase[:2].lower() in ("a ", "an") and " " in phrase else phrase
    rank = _RANK_WORDS.get(word.lower())
    return str(rank) if rank is not None else card_label(word)


_RANK_WORDS = {"ace": _l("Ace"), "jack": _l("Jack"), "queen": _l("Queen"), "king": _l("King")}


def section_title(title: str) -> str | Markup:
    return _or_english("section", title)


def _game_key(variant: Any) -> str:
    from .games.rulebook import _owner

    for name, game in _games().items():
        if game is _owner(variant):
            return name
    return ""


def _games() -> dict[str, Any]:
    from .games import GAMES

    return GAMES


def switch_label(variant: Any) -> str | Markup:
    return _or_english(f"{_game_key(variant)}|switch|{variant.key}", variant.label)


def switch_help(variant: Any) -> str | Markup:
    return _or_english(f"{_game_key(variant)}|help|{variant.key}", variant.help)


def switch_value(variant: Any, value: Any) -> str | Markup:
    """A switch's value in words (``describe_switch``), translated: a choice by its value, a number by
    the words for one or many."""
    from .games.rulebook import _owner, describe_switch

    english = describe_switch(variant, value)
    if lang() == "en":
        return english
    game = _owner(variant)
    name = _game_key(variant)
    words = game.SWITCH_WORDS.get(variant.key, {})
    if value in words or value is None:
        return _or_english(f"{name}|value|{variant.key}|{_show(value)}", english)
    if variant.key in game.NUMBER_WORDS:
        one, many = game.NUMBER_WORDS[variant.key]
        form = one if value == 1 else many
        found = _rules_text(f"{name}|number|{variant.key}|{'one' if value == 1 else 'many'}", form)
        if found:
            return found.replace("{n}", str(value))
    return _or_english("", english) if english != str(value) else english


def preset_name(game: str, preset: Any) -> str | Markup:
    return _or_english(f"{game}|preset|{preset.key}", preset.name)


def preset_help(game: str, preset: Any) -> str | Markup:
    return _or_english(f"{game}|preset help|{preset.key}", preset.description)


def _show(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


# --- Names of games and cards ----------------------------------------------------------------

GAME_TITLES = {  # as the players of each language call them (the seeds)
    "ratatat": _l("Rat-a-Tat Cat"),
    "shithead": _l("Shithead"),
    "spite_malice": _l("Spite & Malice"),
    "cabo": _l("Cabo / Cambio"),
}

CARD_WORDS = {  # the engines' card labels that are words
    "Draw 2": _l("Draw 2"), "Peek": _l("Peek"), "Swap": _l("Swap"), "Super Peek": _l("Super Peek"),
    "Joker": _l("Joker"), "unknown": _l("unknown"), "Card back": _l("Card back"),
}
DECK_KINDS = {  # the kinds of deck a table can teach the referee
    "ratatat": _l("Rat-a-Tat Cat deck (classic)"), "ratatat_deluxe": _l("Rat-a-Tat Cat deck (deluxe, with Super Peek)"),
    "cabo": _l("Cabo deck (0 to 13)"), "standard": _l("Standard deck"),
}


def deck_kind(kind: str, english: str = "") -> str:
    title = DECK_KINDS.get(kind)
    return str(title) if title is not None else english or kind
_CODES = {"DRAW2": "Draw 2", "PEEK": "Peek", "SWAP": "Swap", "SUPERPEEK": "Super Peek", "JOKER": "Joker"}


def game_title(game: str) -> str:
    title = GAME_TITLES.get(game)
    if title is not None:
        return str(title)
    return current_app.config["GAMES"].get(game, game)


def card_label(label: Any) -> str:
    """An engine's card label ("Draw 2", "7♥", "Joker") in the phone's language."""
    word = CARD_WORDS.get(str(label))
    return str(word) if word is not None else str(label)


def card_name(code: Any) -> str:
    """A card code ("DRAW2", "7", "JOKER") as the screen names it."""
    code = str(code)
    return card_label(_CODES.get(code, code))


def time_of(stamp: str) -> str:
    """The time of day of a stored timestamp (``2026-12-01T20:15:03...``), as the phone's language writes it."""
    from datetime import datetime

    from flask_babel import format_time

    try:
        return format_time(datetime.fromisoformat(stamp[:19]), "medium")
    except (ValueError, TypeError):
        return escape(stamp[11:19])


def date_of(stamp: str) -> str:
    from datetime import date

    from flask_babel import format_date

    try:
        return format_date(date.fromisoformat(stamp[:10]), "medium")
    except (ValueError, TypeError):
        return escape(stamp[:10])


# --- Entries in words ---------------------------------------------------------------------------


def describe_move(game: Any, move: Any, players: tuple[str, ...]) -> str | Markup:
    """An entry in words for the undo button and the history: Rat-a-Tat Cat's in the phone's language
    (from the move's fields), the other games' as their engine says them."""
    sayer = _SAYERS.get(getattr(game, "TEMPLATES", ""))
    if lang() == "en" or sayer is None:
        english = game.describe(move, players)
        return english if lang() == "en" else engine_words(english)
    try:
        return sayer(move, players)
    except Exception:  # noqa: BLE001 - words for a button; never a reason to fail a screen
        return engine_words(game.describe(move, players))


def _common_words(move: Any, players: tuple[str, ...], again: Any) -> str | None:
    """The entries every game shares: override, flag decisions, undo, correction."""
    from flask_babel import gettext as _

    from .games import base

    seat = getattr(move, "seat", None)
    who = players[seat] if seat is not None else _("The table")
    match move:
        case base.Override(entry=entry, rule=rule):
            return _("%(name)s overrides %(rule)s: %(entry)s", name=who, rule=rule, entry=again(entry, players))
        case base.ResolveFlag(flag=flag, decision="accept"):
            return _("%(name)s accepts flag %(flag)s.", name=who, flag=flag)
        case base.ResolveFlag(flag=flag):
            return _("%(name)s dismisses flag %(flag)s.", name=who, flag=flag)
        case base.Undo():
            return _("%(name)s undoes the last entry.", name=who)
        case base.Correct(target=target, entry=entry):
            return _("%(name)s corrects entry %(number)s: %(entry)s", name=who, number=target,
                     entry=again(entry, players))
    return None


def _shithead_words(move: Any, players: tuple[str, ...]) -> str:
    from flask_babel import gettext as _

    from .games import shithead_moves as m
    from .games.shithead_rules import say_card, say_cards

    common = _common_words(move, players, _shithead_words)
    if common is not None:
        return common
    who = players[move.seat] if getattr(move, "seat", None) is not None else _("The table")

    def cards(codes: Any, rank: Any = None) -> str:
        text = " ".join(card_label(c) for c in say_cards(codes).split(" ")) if codes else _("nothing")
        return _("%(cards)s (as %(rank)s)", cards=text, rank=rank) if rank and "JOKER" in codes else text

    def one(code: Any) -> str:
        return str(CARD_WORDS["unknown"]) if code is None else card_label(say_card(code))

    match move:
        case m.FaceUp(cards=codes):
            return _("%(name)s's face-up cards: %(cards)s.", name=who, cards=cards(codes))
        case m.Swap(card=card, out=out):
            return _("%(name)s puts %(card)s face up and takes %(out)s into the hand.", name=who, card=one(card),
                     out=one(out))
        case m.Start(card=card) if card:
            return _("%(name)s starts, lowest card %(card)s.", name=who, card=one(card))
        case m.Start():
            return _("%(name)s starts.", name=who)
        case m.Play(cards=codes, rank=rank):
            return _("%(name)s plays %(cards)s.", name=who, cards=cards(codes, rank))
        case m.Pickup():
            return _("%(name)s picks up the pile.", name=who)
        case m.Interrupt(cards=codes, rank=rank):
            return _("%(name)s interrupts with %(cards)s.", name=who, cards=cards(codes, rank))
        case m.Add(cards=codes, rank=rank):
            return _("%(name)s adds the card just drawn: %(cards)s.", name=who, cards=cards(codes, rank))
    raise LookupError(type(move).__name__)


def _spite_malice_words(move: Any, players: tuple[str, ...]) -> str:
    from flask_babel import gettext as _

    from .games import spite_malice_moves as m

    common = _common_words(move, players, _spite_malice_words)
    if common is not None:
        return common
    who = players[move.seat] if getattr(move, "seat", None) is not None else _("The table")

    def card(code: Any) -> str:
        return str(CARD_WORDS["unknown"]) if code in (None, "unknown") else card_name(code)

    def source(where: str) -> str:
        kind, k = m.source_parts(where)
        if kind == "hand":
            return _("from the hand")
        if kind == "payoff":
            return _("from the pay-off pile")
        if kind == "side":
            return _("from side stack %(num)s", num=k)
        return _("from building pile %(num)s", num=k)

    match move:
        case m.Top(card=code):
            return _("%(name)s's pay-off top: %(card)s.", name=who, card=card(code))
        case m.Start():
            return _("%(name)s starts.", name=who)
        case m.Draw(count=None):
            return _("%(name)s draws the cards owed from the stock.", name=who)
        case m.Draw(count=count):
            return _("%(name)s draws %(num)s from the stock.", name=who, num=count)
        case m.Build(pile=pile, source=where, card=code):
            what = _("the top card") if code is None and where != "hand" else card(code)
            return _("%(name)s builds %(card)s %(source)s on pile %(pile)s.", name=who, card=what,
                     source=source(where), pile=pile)
        case m.Discard(stack=stack, card=code, source=where) if where == "hand":
            return _("%(name)s discards %(card)s onto side stack %(num)s.", name=who, card=card(code), num=stack)
        case m.Discard(stack=stack, card=code, source=where):
            return _("%(name)s discards %(card)s %(source)s onto side stack %(num)s.", name=who, card=card(code),
                     source=source(where), num=stack)
    raise LookupError(type(move).__name__)


def _ratatat_words(move: Any, players: tuple[str, ...]) -> str:
    from flask_babel import gettext as _

    from .games import ratatat_moves as m

    seat = getattr(move, "seat", None)
    who = players[seat] if seat is not None else _("The table")

    def card(code: Any) -> str:
        return card_name(code) if code not in (None, "unknown") else str(CARD_WORDS["unknown"])

    match move:
        case m.TurnUp(card=c):
            return _("%(card)s is turned up on the discard pile.", card=card(c))
        case m.InitialPeek(slots=slots):
            return _("%(name)s looks at slots %(slots)s.", name=who, slots=", ".join(map(str, slots)))
        case m.Draw(shown=True, card=c):
            return _("%(name)s draws %(card)s and shows it.", name=who, card=card(c))
        case m.Draw():
            return _("%(name)s draws a card.", name=who)
        case m.TakeDiscard():
            return _("%(name)s takes the top card of the discard pile.", name=who)
        case m.Replace(slot=slot, out=out):
            return _("%(name)s puts the card into slot %(slot)s and discards %(card)s.", name=who, slot=slot,
                     card=card(out))
        case m.Discard(card=c):
            return _("%(name)s discards %(card)s.", name=who, card=card(c))
        case m.UsePower(card=c):
            return _("%(name)s shows %(card)s and uses it.", name=who, card=card(c))
        case m.Peek(slot=slot, target=target) if target in (None, seat):
            return _("%(name)s peeks at their own slot %(slot)s.", name=who, slot=slot)
        case m.Peek(slot=slot, target=target):
            return _("%(name)s peeks at %(other)s's slot %(slot)s.", name=who, other=players[target], slot=slot)
        case m.Swap(slot=None):
            return _("%(name)s chooses not to swap.", name=who)
        case m.Swap(slot=slot, target=target, target_slot=target_slot):
            return _("%(name)s swaps slot %(slot)s with %(other)s's slot %(other_slot)s.", name=who, slot=slot,
                     other=players[target], other_slot=target_slot)
        case m.Call():
            return _("%(name)s calls Rat-a-Tat Cat!", name=who)
        case m.Reshuffle():
            return _("The discard pile is shuffled into a new draw pile.")
        case m.Reveal(cards=cards):
            return _("%(name)s reveals %(cards)s.", name=who, cards=", ".join(card(c) for c in cards))
        case m.RevealDraw(slot=slot, card=c):
            return _("%(name)s's slot %(slot)s power card is replaced by %(card)s.", name=who, slot=slot, card=card(c))
        case m.TimeUp():
            return _("Time is up: this is the last round.")
        case m.Stalemate():
            return _("The table ends the round without a call (stalemate).")
    common = _common_words(move, players, _ratatat_words)
    if common is not None:
        return common
    raise LookupError(type(move).__name__)


def _names(names: list[str]) -> str:
    from flask_babel import gettext as _

    if len(names) <= 2:
        return _(" and ").join(names)
    return ", ".join(names[:-1]) + _(" and ") + names[-1]


def round_words(view: dict, last: dict) -> str | Markup:
    """Why a Rat-a-Tat Cat round went as it did (RTC-51, the tie rule RTC-V1), in the phone's language:
    said again from the round's scores, its caller and the table's tie rule; the engine's own sentence
    whenever the two could disagree."""
    from flask_babel import gettext as _

    english = last.get("explanation", "")
    if lang() == "en":
        return english
    try:
        scores, winners, caller = last["scores"], list(last["winners"]), last.get("caller")
        policy = view["rules"]["tie_policy"]
        low = min(scores.values())
        lowest = [name for name, score in scores.items() if score == low]
        if len(lowest) == 1 and winners == lowest:
            return _("%(name)s has the lowest score, %(score)s, and wins the round (RTC-51).", name=lowest[0], score=low)
        tie = _("%(names)s tie on %(score)s.", names=_names(lowest), score=low)
        if policy == "no_winner" and not winners:
            return tie + " " + _("Under this table's tie rule (RTC-V1) a tied round has no winner.")
        if sorted(winners) == sorted(lowest):
            return tie + " " + _("Under this table's tie rule (RTC-V1) they all win.")
        if caller in lowest and winners == [caller]:
            return tie + " " + _("Under this table's tie rule (RTC-V1) the caller, %(name)s, wins the tie.", name=caller)
        if caller in lowest and caller not in winners and sorted(winners + [caller]) == sorted(lowest):
            return tie + " " + _("Under this table's tie rule (RTC-V1) the caller, %(name)s, loses the tie.",
                                 name=caller)
    except (KeyError, TypeError, ValueError):
        pass
    return engine_words(english)


def match_words(view: dict) -> str | Markup:
    """Who won a Rat-a-Tat Cat or Cabo / Cambio match and on what total, with the rule the engine named."""
    import re

    from flask_babel import gettext as _

    english = view.get("outcome") or ""
    if lang() == "en" or not view.get("winners"):
        return engine_words(english)
    rules = re.findall(r"\b(?:RTC|CAB|GEN)-\d+", english)
    try:
        totals = dict(zip(view["players"], view["totals"]))
        winners = [view["players"][w] if isinstance(w, int) else w for w in view["winners"]]
        total = totals[winners[0]]
        rule = rules[0] if rules else "RTC-53"
    except (KeyError, IndexError, TypeError):
        return engine_words(english)
    if len(winners) == 1:
        return _("%(name)s wins the match with %(total)s (%(rule)s).", name=winners[0], total=total, rule=rule)
    return _("%(names)s share the win on %(total)s (%(rule)s).", names=_names(winners), total=total, rule=rule)


def _cabo_words(move: Any, players: tuple[str, ...]) -> str:
    from flask_babel import gettext as _

    from .games import cabo_moves as m

    common = _common_words(move, players, _cabo_words)
    if common is not None:
        return common
    seat = getattr(move, "seat", None)
    who = players[seat] if seat is not None else _("The table")

    def card(code: Any) -> str:
        return str(CARD_WORDS["unknown"]) if code in (None, "unknown") else card_label(m.label(code))

    def cards(codes: Any) -> str:
        return ", ".join(card(c) for c in codes)

    match move:
        case m.TurnUp(card=c):
            return _("%(card)s is turned up on the discard pile.", card=card(c))
        case m.InitialPeek(slots=slots):
            return _("%(name)s looks at places %(places)s.", name=who, places=", ".join(map(str, slots)))
        case m.Draw(shown=True, card=c):
            return _("%(name)s draws %(card)s and shows it.", name=who, card=card(c))
        case m.Draw():
            return _("%(name)s draws a card.", name=who)
        case m.TakeDiscard():
            return _("%(name)s takes the top card of the discard pile.", name=who)
        case m.Replace(slot=slot, out=out):
            return _("%(name)s puts the card into place %(place)s and discards %(card)s.", name=who, place=slot,
                     card=card(out))
        case m.Match(slots=slots, cards=codes) if codes:
            return _("%(name)s claims places %(places)s match, showing %(cards)s.", name=who,
                     places=", ".join(map(str, slots)), cards=cards(codes))
        case m.Match(slots=slots):
            return _("%(name)s claims places %(places)s match.", name=who, places=", ".join(map(str, slots)))
        case m.Discard(card=c):
            return _("%(name)s discards %(card)s.", name=who, card=card(c))
        case m.UsePower(card=c):
            return _("%(name)s shows %(card)s and uses its power.", name=who, card=card(c))
        case m.Peek(slot=slot, target=target) if target in (None, seat):
            return _("%(name)s peeks at their own place %(place)s.", name=who, place=slot)
        case m.Peek(slot=slot, target=target):
            return _("%(name)s spies on %(other)s's place %(place)s.", name=who, other=players[target], place=slot)
        case m.Swap(slot=None):
            return _("%(name)s chooses not to swap.", name=who)
        case m.Swap(slot=slot, target=target, target_slot=target_slot, owner=owner) if owner in (None, seat):
            return _("%(name)s swaps their place %(place)s with %(other)s's place %(other_place)s, unseen.", name=who,
                     place=slot, other=players[target], other_place=target_slot)
        case m.Swap(slot=slot, target=target, target_slot=target_slot, owner=owner):
            return _("%(name)s swaps %(owner)s's place %(place)s with %(other)s's place %(other_place)s, unseen.",
                     name=who, owner=players[owner], place=slot, other=players[target], other_place=target_slot)
        case m.LookSwap(slot=slot, target=target, target_slot=target_slot, swap=True):
            return _("%(name)s looks at their place %(place)s and %(other)s's place %(other_place)s, and swaps them.",
                     name=who, place=slot, other=players[target], other_place=target_slot)
        case m.LookSwap(slot=slot, target=target, target_slot=target_slot):
            return _("%(name)s looks at their place %(place)s and %(other)s's place %(other_place)s, and keeps them "
                     "where they are.", name=who, place=slot, other=players[target], other_place=target_slot)
        case m.Snap(slot=slot, owner=owner, card=c) if owner in (None, seat):
            return _("%(name)s snaps their own place %(place)s (%(card)s) onto the discard pile.", name=who, place=slot,
                     card=card(c))
        case m.Snap(slot=slot, owner=owner, card=c):
            return _("%(name)s snaps %(owner)s's place %(place)s (%(card)s) onto the discard pile.", name=who,
                     owner=players[owner], place=slot, card=card(c))
        case m.Give(slot=slot):
            return _("%(name)s gives the card in their place %(place)s to fill the gap.", name=who, place=slot)
        case m.Call():
            return _("%(name)s calls!", name=who)
        case m.Reshuffle():
            return _("The discard pile, all but its top card, is shuffled into a new draw pile.")
        case m.Reveal(cards=codes, slot=None):
            return _("%(name)s reveals %(cards)s.", name=who, cards=cards(codes) or _("no cards"))
        case m.Reveal(cards=codes, slot=slot):
            return _("%(name)s turns up place %(place)s: %(cards)s.", name=who, place=slot, cards=cards(codes))
    raise LookupError(type(move).__name__)


_SAYERS = {"ratatat": lambda move, players: _ratatat_words(move, players),
           "shithead": lambda move, players: _shithead_words(move, players),
           "spite_malice": lambda move, players: _spite_malice_words(move, players),
           "cabo": lambda move, players: _cabo_words(move, players)}


def explanation_words(text: Any) -> str | Markup:
    """An engine's explanation of several sentences (a Cabo / Cambio round's score), each said in the phone's
    language; the whole as the engine said it when any sentence is not known."""
    import re

    text = "" if text is None else str(text)
    if lang() == "en" or not text:
        return text
    said = []
    for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", text):
        words = ruling_words("", sentence)
        if isinstance(words, Markup) and 'lang="en"' in words:
            return engine_words(text)
        said.append(str(words))
    return " ".join(said)


def outcome_words(view: dict) -> str | Markup:
    """How a match ended, for the "Match over" screen, in the phone's language: said again from the view's
    results (the winners, each game's result, the tally), the engine's sentence whenever they do not fit."""
    from flask_babel import gettext as _, ngettext

    game = view.get("game")
    english = view.get("outcome") or ""
    if lang() == "en":
        return english
    if game in ("ratatat", "cabo"):
        return match_words(view)
    try:
        history = view["history"]
        last = history[-1]
        winners = list(view.get("winners") or [])
        if game == "shithead":
            if last.get("winner"):
                said = _("%(name)s goes out first and wins (SH-52).", name=last["winner"])
            else:
                said = (_("%(name)s is the Shithead.", name=last["shithead"]) + " " if last.get("shithead") else "") + \
                    _("Finishing order: %(names)s.", names=", ".join(last["order"]))
            if len(history) > 1 and winners:
                wins = view["rules"].get("end_mode") == "first_out_wins"
                best = view["tally"][view["players"].index(winners[0])]
                if wins:
                    said += " " + ngettext("After %(games)s games %(names)s wins the match with the most games won "
                                           "(%(best)s).", "After %(games)s games %(names)s win the match with the most "
                                           "games won (%(best)s each).", len(winners), games=len(history),
                                           names=_names(winners), best=best)
                else:
                    said += " " + ngettext("After %(games)s games %(names)s wins the match with the fewest Shithead "
                                           "points (%(best)s).", "After %(games)s games %(names)s win the match with the "
                                           "fewest Shithead points (%(best)s each).", len(winners), games=len(history),
                                           names=_names(winners), best=best)
            return said
        if game == "spite_malice":
            totals = dict(zip(view["players"], view["totals"]))
            if len(history) > 1 or (winners and last.get("winner") and totals.get(winners[0], 0) > last.get("points", 0)):
                if len(winners) == 1:
                    return _("%(name)s wins the match with %(num)s points (%(totals)s).", name=winners[0],
                             num=totals[winners[0]], totals=", ".join(f"{p} {t}" for p, t in totals.items()))
            if last.get("winner") is None:
                return _("The game is a draw: nobody wins.")
            if last.get("how") == "payoff":
                return _("%(name)s builds the last pay-off card and wins (SM-40).", name=last["winner"])
            return _("The stock has run out: %(name)s has the fewest pay-off cards left and wins (SM-41).",
                     name=last["winner"])
    except (KeyError, IndexError, TypeError, ValueError):
        pass
    return engine_words(english)


def template_globals() -> dict[str, Any]:
    return {"rule_words": rule_words, "ruling_words": ruling_words, "engine_words": engine_words,
            "section_title": section_title, "switch_label": switch_label, "switch_help": switch_help,
            "switch_value": switch_value, "preset_name": preset_name, "preset_help": preset_help,
            "game_title": game_title, "card_name": card_name, "card_label": card_label,
            "time_of": time_of, "date_of": date_of, "round_words": round_words, "match_words": match_words,
            "deck_kind": deck_kind, "outcome_words": outcome_words, "explanation_words": explanation_words}


# --- The catalogue template -----------------------------------------------------------------


def messages() -> list[tuple[str, str, str]]:
    """Every engine message a phone can read, as (context, English, where): rule sentences, section
    titles, switches and their values, presets, for every game."""
    from .games.rulebook import GENERAL

    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(context: str, english: Any, where: str) -> None:
        if english and (context, str(english)) not in seen:
            seen.add((context, str(english)))
            out.append((context, str(english), where))

    for section in GENERAL:
        add("section", section.title, "general")
        for rule, text in section.rules:
            add(rule, text, "general")
    for name, game in _games().items():
        for section in game.RULE_BOOK:
            add("section", section.title, name)
            for rule, text in section.rules:
                add(rule, text, name)
        for v in game.VARIANTS:
            add(f"{name}|switch|{v.key}", v.label, name)
            add(f"{name}|help|{v.key}", v.help, name)
            for value, words in game.SWITCH_WORDS.get(v.key, {}).items():
                add(f"{name}|value|{v.key}|{_show(value)}", words, name)
        for key, (one, many) in game.NUMBER_WORDS.items():
            add(f"{name}|number|{key}|one", one, name)
            add(f"{name}|number|{key}|many", many, name)
        for p in getattr(game, "PRESETS", ()):
            add(f"{name}|preset|{p.key}", p.name, name)
            add(f"{name}|preset help|{p.key}", p.description, name)
    return out


def write_pot(path: Path | None = None) -> Path:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    path = path or TRANSLATIONS / f"{DOMAIN}.pot"
    catalog = Catalog(project="referee", domain=DOMAIN, charset="utf-8")
    for context, english, where in messages():
        catalog.add(english, context=context, auto_comments=[where])
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)
    return path


if __name__ == "__main__":
    print(f"wrote {write_pot()}")
