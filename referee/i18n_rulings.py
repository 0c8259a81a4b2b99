"""The referee's rulings, read back by their shape and said again in another language.

The rules engines (``referee/games/``) say every ruling, reminder and result in English with names,
numbers and cards in it. Each sentence an engine can build has a pattern here (the English with its
variable parts as named groups) and the English message the catalogues translate (``messages``
domain, marked with ``N_`` for extraction). The web layer (``referee.i18n_rules.ruling_words``) and the
text report of ``referee check --lang`` (``referee.i18n_report``) both use :func:`say`: no Flask here,
the caller passes the catalogue's ``gettext`` and ``ngettext``.

A sentence no pattern reads shows as the engine said it (marked English on a page):
``tests/web/test_i18n_rulings.py`` scans the engines' source for every ruling they can build and fails
when one has no pattern or no Hebrew or Italian translation.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate: a card such as 7♥ keeps its order in Hebrew


def N_(message: str) -> str:
    """Marks an English message for extraction; translated when said (``say``)."""
    return message


def Nn_(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Marks a message with plural forms; ``count`` names the field that chooses the form."""
    return singular, plural, count


_CARD = r"(?:[Aa]n? )?(?:Peek|Swap|Draw 2|Super Peek|\d+)"
_RULINGS_EN: tuple[tuple[str, Any], ...] = (
    # --- The general rules, the log and the setting up of a table ---------------------------------------
    (r"There is no entry to undo\.", N_("There is no entry to undo.")),
    (r"Entry (?P<num>\d+) is not an entry that stands, so it cannot be corrected\.",
     N_("Entry %(num)s is not an entry that stands, so it cannot be corrected.")),
    (r"Rat-a-Tat Cat is for (?P<low>\d+)–(?P<high>\d+) players, not (?P<num>\d+)\.",
     N_("Rat-a-Tat Cat is for %(low)s–%(high)s players, not %(num)s.")),
    (r"With the Cabo deck the game is for (?P<low>\d+)–(?P<high>\d+) players, not (?P<num>\d+)\.",
     N_("With the Cabo deck the game is for %(low)s–%(high)s players, not %(num)s.")),
    (r"With a standard deck the game is for (?P<low>\d+)–(?P<high>\d+) players, not (?P<num>\d+)\.",
     N_("With a standard deck the game is for %(low)s–%(high)s players, not %(num)s.")),
    # --- Rat-a-Tat Cat's rarer rulings ------------------------------------------------------------------
    (r"A round ends only by a call \(RTC-V18 stalemate is off at this table\)\.",
     N_("A round ends only by a call (RTC-V18 stalemate is off at this table).")),
    (r"A stalemate can be declared only between turns, before any call\.",
     N_("A stalemate can be declared only between turns, before any call.")),
    (r"A stalemate needs (?P<num>\d+) full round\(s\) of turns without a call\.",
     Nn_("A stalemate needs %(num)s full round of turns without a call.",
         "A stalemate needs %(num)s full rounds of turns without a call.", "num")),
    (r"The initial peek is at two different cards \(RTC-V8 any_two\)\.",
     N_("The initial peek is at two different cards (RTC-V8 any_two).")),
    (r"Give one card for each slot looked at, or none\.", N_("Give one card for each slot looked at, or none.")),
    (r"(?P<name>.+)'s slot (?P<slot>\d+) shows (?P<card>an? .+) placed there from a draw \(entry (?P<entry>\d+)\); this "
     r"table forbids drawn power cards in the row \(RTC-V5, RTC-K7\)\.",
     N_("%(name)s's slot %(slot)s shows %(card)s placed there from a draw (entry %(entry)s); this table forbids drawn "
        "power cards in the row (RTC-V5, RTC-K7).")),
    (r"(?P<name>.+)'s slot (?P<slot>\d+) shows (?P<card>an? .+) placed there from a draw \(entry (?P<entry>\d+)\); this "
     r"table requires drawn powers to be used \(RTC-V6\)\.",
     N_("%(name)s's slot %(slot)s shows %(card)s placed there from a draw (entry %(entry)s); this table requires drawn "
        "powers to be used (RTC-V6).")),
    (r"The draw pile is empty\.", N_("The draw pile is empty.")),
    # --- Rounds and matches scored in points (Rat-a-Tat Cat, Cabo / Cambio): said as the result screens say them
    (r"(?P<name>.+) has the lowest score, (?P<score>-?\d+), and wins the round \(RTC-51\)\.",
     N_("%(name)s has the lowest score, %(score)s, and wins the round (RTC-51).")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+)\.", N_("%(names)s tie on %(score)s.")),
    (r"Tie policy all_lowest \(RTC-V1\): every player on the lowest score wins\.",
     N_("Under this table's tie rule (RTC-V1) they all win.")),
    (r"Tie policy no_winner \(RTC-V1\): a tied round has no winner\.",
     N_("Under this table's tie rule (RTC-V1) a tied round has no winner.")),
    (r"Tie policy \w+ \(RTC-V1\): the caller is not among them, so they all win\.",
     N_("Under this table's tie rule (RTC-V1) they all win.")),
    (r"Tie policy all_lowest_except_caller \(RTC-V1\): the caller (?P<name>.+) loses the tie, so (?P<names>.+) wins?\.",
     N_("Under this table's tie rule (RTC-V1) the caller, %(name)s, loses the tie.")),
    (r"Tie policy caller_wins_ties \(RTC-V1\): the caller (?P<name>.+) wins the tie\.",
     N_("Under this table's tie rule (RTC-V1) the caller, %(name)s, wins the tie.")),
    (r"(?P<name>.+) wins the match with (?P<total>-?\d+) \((?:.*?[^A-Z])?(?P<rule>(?:RTC|CAB|GEN)-\d+)\b.*\)\.",
     N_("%(name)s wins the match with %(total)s (%(rule)s).")),
    (r"(?P<names>.+) share the win on (?P<total>-?\d+) \((?:.*?[^A-Z])?(?P<rule>(?:RTC|CAB|GEN)-\d+)\b.*\)\.",
     N_("%(names)s share the win on %(total)s (%(rule)s).")),
    # --- Cabo / Cambio's rarer rulings ------------------------------------------------------------------
    (r"Resolve (?P<power>a Peek|a Spy|a blind Swap|a look-and-swap) first\.",
     lambda f: {"a Peek": N_("Resolve the Peek first."), "a Spy": N_("Resolve the Spy first."),
                "a blind Swap": N_("Resolve the blind Swap first."),
                "a look-and-swap": N_("Resolve the look-and-swap first.")}[f["power"]]),
    (r"(?P<name>.+) holds no card to (?P<what>keep|exchange|discard|put into the row): draw or take one first\.",
     N_("%(name)s holds no card to use: draw or take one first.")),
    (r"There is no (?P<what>Peek or Spy|Swap|look-and-swap) to resolve: a power is used right after its card is "
     r"drawn and discarded\.",
     lambda f: {"Peek or Spy": N_("There is no Peek or Spy to resolve: a power is used right after its card is drawn "
                                  "and discarded."),
                "Swap": N_("There is no Swap to resolve: a power is used right after its card is drawn and "
                           "discarded."),
                "look-and-swap": N_("There is no look-and-swap to resolve: a power is used right after its card is "
                                    "drawn and discarded.")}[f["what"]]),
    (r"A look-and-swap looks at one of your own cards and one of another player's\.",
     N_("A look-and-swap looks at one of your own cards and one of another player's.")),
    (r"Give one card for each place looked at, or none\.", N_("Give one card for each place looked at, or none.")),
    (r"Give one card for each place turned up, or none\.", N_("Give one card for each place turned up, or none.")),
    (r"(?P<name>.+) has no card to put back in its place: a card taken from the discard pile must replace one\.",
     N_("%(name)s has no card to put back in its place: a card taken from the discard pile must replace one.")),
    (r"The card kept takes the place of one of the matched cards\.",
     N_("The card kept takes the place of one of the matched cards.")),
    (r"The cards entered \((?P<cards>.+)\) all match, but the entry says otherwise\.",
     N_("The cards entered (%(cards)s) all match, but the entry says otherwise.")),
    (r"The cards entered \((?P<cards>.+)\) do not all match, but the entry says otherwise\.",
     N_("The cards entered (%(cards)s) do not all match, but the entry says otherwise.")),
    (r"Name every card turned up, or say whether they all matched\.",
     N_("Name every card turned up, or say whether they all matched.")),
    (r"(?P<card>An? .+) has no power: 7 and 8 peek, 9 and 10 spy, 11 and 12 swap\.",
     N_("%(card)s has no power: 7 and 8 peek, 9 and 10 spy, 11 and 12 swap.")),
    (r"(?P<card>An? .+) has no power: 7 and 8 peek, 9 and 10 spy, jacks and queens swap, and look-and-swap cards "
     r"look then swap\.", N_("%(card)s has no power: 7 and 8 peek, 9 and 10 spy, jacks and queens swap, and "
                             "look-and-swap cards look then swap.")),
    (r"(?P<card>An? .+) has no card to act on now: discard it instead\.",
     N_("%(card)s has no card to act on now: discard it instead.")),
    (r"There is no fresh discard to snap onto: a snap comes before the next move of the player whose turn it is "
     r"\(GEN-7\)\.", N_("There is no fresh discard to snap onto: a snap comes before the next move of the player "
                        "whose turn it is (GEN-7).")),
    (r"(?P<card>An? .+) matches (?P<card2>an? .+), but the entry says otherwise\.",
     N_("%(card)s matches %(card2)s, but the entry says otherwise.")),
    (r"(?P<card>An? .+) does not match (?P<card2>an? .+), but the entry says otherwise\.",
     N_("%(card)s does not match %(card2)s, but the entry says otherwise.")),
    (r"(?P<name>.+) owes nobody a card: a card is given only for another player's card snapped away\.",
     N_("%(name)s owes nobody a card: a card is given only for another player's card snapped away.")),
    (r"A player calls instead of taking a turn: at the start of their own turn, before drawing\.",
     N_("A player calls instead of taking a turn: at the start of their own turn, before drawing.")),
    (r"At this table a player calls at the end of their own turn\.",
     N_("At this table a player calls at the end of their own turn.")),
    (r"At this table the round ends when the draw pile runs out: there is no reshuffle\.",
     N_("At this table the round ends when the draw pile runs out: there is no reshuffle.")),
    (r"There is no discard pile to reshuffle under its top card\.",
     N_("There is no discard pile to reshuffle under its top card.")),
    (r"Cards are turned up only when the round is over: after the call and everyone else's last turn, or when the "
     r"draw pile runs out \(CAB-22\)\.", N_("Cards are turned up only when the round is over: after the call and "
                                           "everyone else's last turn, or when the draw pile runs out (CAB-22).")),
    (r"(?P<name>.+)'s cards are already turned up \(correct that entry instead\)\.",
     N_("%(name)s's cards are already turned up (correct that entry instead).")),
    (r"Name the one card in (?P<name>.+)'s place (?P<place>\d+)\.", N_("Name the one card in %(name)s's place %(place)s.")),
    (r"(?P<name>.+)'s place (?P<place>\d+) is already face up\.", N_("%(name)s's place %(place)s is already face up.")),
    (r"(?P<name>.+) has (?P<num>\d+) cards?: name each of them, place by place\.",
     Nn_("%(name)s has %(num)s card: name each of them, place by place.",
         "%(name)s has %(num)s cards: name each of them, place by place.", "num")),
    (r"Name the card in (?P<name>.+)'s place (?P<place>\d+): the round is scored from every card \(a card the table "
     r"already knows may stay unknown\)\.", N_("Name the card in %(name)s's place %(place)s: the round is scored from "
                                               "every card (a card the table already knows may stay unknown).")),
    (r"(?P<name>.+) noted (?P<card>an? .+) at entry (?P<at>\d+), but the card showed (?P<card2>.+) at entry "
     r"(?P<seen>\d+)\.", N_("%(name)s noted %(card)s at entry %(at)s, but the card showed %(card2)s at entry "
                            "%(seen)s.")),
    (r"(?P<name>.+)'s (?P<power>Peek|Spy|blind Swap|look-and-swap) has no card left to act on: the turn ends\.",
     N_("%(name)s's power has no card left to act on: the turn ends.")),
    # --- Shithead's rarer rulings -----------------------------------------------------------------------
    (r"(?P<name>.+)'s face-up cards are already entered: correct that entry in the history instead\.",
     N_("%(name)s's face-up cards are already entered: correct that entry in the history instead.")),
    (r"Each player has (?P<most>\d+) face-up cards; (?P<num>\d+) were entered\.",
     Nn_("Each player has %(most)s face-up cards; %(num)s was entered.",
         "Each player has %(most)s face-up cards; %(num)s were entered.", "num")),
    (r"At this table the player on the dealer's left starts: (?P<name>.+)\.",
     N_("At this table the player on the dealer's left starts: %(name)s.")),
    (r"(?P<card>\S+) is not a natural card: the lowest of 4, 5, 6… starts\.",
     N_("%(card)s is not a natural card: the lowest of 4, 5, 6… starts.")),
    (r"(?P<name>.+) shows (?P<card>\S+) face up, lower than (?P<other>.+)'s (?P<card2>\S+): (?P=name) starts\.",
     N_("%(name)s shows %(card)s face up, lower than %(other)s's %(card2)s: %(name)s starts.")),
    (r"(?P<card>\S+) is one of (?P<name>.+)'s face-up cards: those are played once the hand and the stock are empty\.",
     N_("%(card)s is one of %(name)s's face-up cards: those are played once the hand and the stock are empty.")),
    (r"(?P<num>\d+) cards of one rank are more than the deck holds\.",
     N_("%(num)s cards of one rank are more than the deck holds.")),
    (r"(?P<name>.+) declared (?P<card>\S+) as their lowest card: the first play must include an? (?P<rank>\S+)\.",
     N_("%(name)s declared %(card)s as their lowest card: the first play must include a %(rank)s.")),
    (r"(?P<name>.+) has (?P<num>\d+) card\(s\) in hand and the stock is not empty: face-up cards are not played yet\.",
     Nn_("%(name)s has %(num)s card in hand and the stock is not empty: face-up cards are not played yet.",
         "%(name)s has %(num)s cards in hand and the stock is not empty: face-up cards are not played yet.", "num")),
    (r"(?P<name>.+)'s (?P<card>\S+) cannot go on the (?P<top>\S+)(?P<under> under the 3s)? \((?P<rule>[A-Z]+-[A-Z0-9]+)\), "
     r"so (?P=name) picks up the pile(?P<takes> and the \S+)? and plays from the hand again \(SH-20\)\.",
     lambda f: (N_("%(name)s's %(card)s cannot go on the %(top)s under the 3s (%(rule)s), so %(name)s picks up the "
                   "pile and the %(card)s and plays from the hand again (SH-20).") if f["under"] and f["takes"] else
                N_("%(name)s's %(card)s cannot go on the %(top)s under the 3s (%(rule)s), so %(name)s picks up the "
                   "pile and plays from the hand again (SH-20).") if f["under"] else
                N_("%(name)s's %(card)s cannot go on the %(top)s (%(rule)s), so %(name)s picks up the pile and the "
                   "%(card)s and plays from the hand again (SH-20).") if f["takes"] else
                N_("%(name)s's %(card)s cannot go on the %(top)s (%(rule)s), so %(name)s picks up the pile and plays "
                   "from the hand again (SH-20).")),
     ),
    (r"(?P<name>.+)'s (?P<card>\S+) may not burn the 7(?P<under> under the 3s)? at this table \((?P<rule>[A-Z]+-[A-Z0-9]+)\), "
     r"so (?P=name) picks up the pile(?P<takes> and the \S+)? and plays from the hand again \(SH-20\)\.",
     lambda f: (N_("%(name)s's %(card)s may not burn the 7 at this table (%(rule)s), so %(name)s picks up the pile "
                   "and the %(card)s and plays from the hand again (SH-20).") if f["takes"] else
                N_("%(name)s's %(card)s may not burn the 7 at this table (%(rule)s), so %(name)s picks up the pile "
                   "and plays from the hand again (SH-20)."))),
    (r"(?P<name>.+)'s (?P<card>\S+) cannot go \((?P<rule>[A-Z]+-[A-Z0-9]+)\), so (?P=name) picks up the pile"
     r"(?P<takes> and the \S+)? and plays from the hand again \(SH-20\)\.",
     lambda f: (N_("%(name)s's %(card)s cannot go (%(rule)s), so %(name)s picks up the pile and the %(card)s and "
                   "plays from the hand again (SH-20).") if f["takes"] else
                N_("%(name)s's %(card)s cannot go (%(rule)s), so %(name)s picks up the pile and plays from the hand "
                   "again (SH-20)."))),
    (r"(?P<name>.+) can play: at this table the pile is picked up only by a player who cannot play\.",
     N_("%(name)s can play: at this table the pile is picked up only by a player who cannot play.")),
    (r"Too late: another entry came first \(entry (?P<entry>\d+)\), and the pile is now empty\.",
     N_("Too late: another entry came first (entry %(entry)s), and the pile is now empty.")),
    (r"Too late: another entry came first \(entry (?P<entry>\d+)\), and the top of the pile is now (?P<card>\S+)\.",
     N_("Too late: another entry came first (entry %(entry)s), and the top of the pile is now %(card)s.")),
    (r"Too late: another entry came first, and the pile is now empty\.",
     N_("Too late: another entry came first, and the pile is now empty.")),
    (r"Too late: another entry came first, and the top of the pile is now (?P<card>\S+)\.",
     N_("Too late: another entry came first, and the top of the pile is now %(card)s.")),
    (r"(?P<name>.+) played those cards: only a card just drawn may be added \(SH-41\)\.",
     N_("%(name)s played those cards: only a card just drawn may be added (SH-41).")),
    (r"Too late: there is no play of (?P<name>.+)'s to add to now \(entry (?P<entry>\d+)\)\.",
     N_("Too late: there is no play of %(name)s's to add to now (entry %(entry)s).")),
    (r"Too late: there is no play of (?P<name>.+)'s to add to now\.",
     N_("Too late: there is no play of %(name)s's to add to now.")),
    (r"Only an? (?P<rank>\S+) may be added to (?P<name>.+)'s (?P=rank)s\.",
     N_("Only a %(rank)s may be added to %(name)s's %(rank)ss.")),
    (r"(?P<name>.+) drew only (?P<num>\d+) card\(s\) after that play\.",
     Nn_("%(name)s drew only %(num)s card after that play.", "%(name)s drew only %(num)s cards after that play.",
         "num")),
    (r"(?P<name>.+) is the Shithead\.", N_("%(name)s is the Shithead.")),
    (r"Finishing order: (?P<names>.+)\.", N_("Finishing order: %(names)s.")),
    (r"Finishing order: \.", N_("Finishing order: nobody.")),
    (r"(?P<name>.+) goes out first and wins \(SH-52\)\.", N_("%(name)s goes out first and wins (SH-52).")),
    # --- Spite & Malice's rarer rulings -----------------------------------------------------------------
    (r"After the 9(?P<under> under the 3s)? the next card must be of its suit \((?P<card>.+)\), or a 2, 3 or 10\.",
     N_("After the 9 the next card must be of its suit (%(card)s), or a 2, 3 or 10.")),
    (r"At this table a side stack takes the same rank or one lower: only an ace goes on an ace\.",
     N_("At this table a side stack takes the same rank or one lower: only an ace goes on an ace.")),
    (r"There are no jokers at this table\.", N_("There are no jokers at this table.")),
    (r"All (?P<num>\d+) (?P<ranks>\S+) of the decks are already face up on the table: (?P<card>an? \S+) now must be a "
     r"mis-tap or a misread photo\.", N_("All %(num)s × %(ranks)s of the decks are already face up on the table: "
                                        "another %(card)s now must be a mis-tap or a misread photo.")),
    (r"(?P<name>.+)'s pay-off top is already entered \((?P<code>\S+)\): correct that entry in the history instead\.",
     N_("%(name)s's pay-off top is already entered (%(code)s): correct that entry in the history instead.")),
    (r"(?P<name>.+)'s pay-off top is already entered as unknown\.",
     N_("%(name)s's pay-off top is already entered as unknown.")),
    (r"A king does not decide who starts at this table: (?P<names>.+) shuffle the king back into the pay-off pile and "
     r"turn a new top\.", N_("A king does not decide who starts at this table: %(names)s shuffle the king back into "
                             "the pay-off pile and turn a new top.")),
    (r"Equal pay-off tops \((?P<names>.+)\): toss a coin and enter who starts\.",
     N_("Equal pay-off tops (%(names)s): toss a coin and enter who starts.")),
    (r"Play has started: (?P<name>.+) started\.", N_("Play has started: %(name)s started.")),
    (r"The coin is tossed between (?P<names>.+): one of them starts\.",
     N_("The coin is tossed between %(names)s: one of them starts.")),
    (r"(?P<name>.+) holds (?P<hand>\d+) cards?: exactly (?P<owed>\d+) must be drawn to make (?P<total>\d+), not "
     r"(?P<num>\d+)\.", Nn_("%(name)s holds %(hand)s card: exactly %(owed)s must be drawn to make %(total)s, not "
                            "%(num)s.", "%(name)s holds %(hand)s cards: exactly %(owed)s must be drawn to make "
                            "%(total)s, not %(num)s.", "hand")),
    (r"The (?P<claimed>\S+) is under the top of (?P<name>.+)'s side stack (?P<num>\d+): only the top card, the "
     r"(?P<top>\S+), may be played\.", N_("The %(claimed)s is under the top of %(name)s's side stack %(num)s: only "
                                          "the top card, the %(top)s, may be played.")),
    (r"(?P<name>.+)'s pay-off top is the (?P<top>\S+), not the (?P<claimed>\S+)\.",
     N_("%(name)s's pay-off top is the %(top)s, not the %(claimed)s.")),
    (r"(?P<name>.+)'s side stack (?P<num>\d+) is the (?P<top>\S+), not the (?P<claimed>\S+)\.",
     N_("%(name)s's side stack %(num)s is the %(top)s, not the %(claimed)s.")),
    (r"Pile (?P<pile>\d+) is complete: set its (?P<num>\d+) cards aside until the stock runs out\.",
     N_("Pile %(pile)s is complete: set its %(num)s cards aside until the stock runs out.")),
    (r"(?P<name>.+) has no cards in hand \(the stock could not refill it, SM-A8\)\.",
     N_("%(name)s has no cards in hand (the stock could not refill it, SM-A8).")),
    (r"Each player has at most (?P<num>\d+) side stacks?: the card goes onto one of them\.",
     N_("Each player has at most %(num)s side stacks: the card goes onto one of them.")),
    (r"At this table (?P<name>.+)'s pay-off (?P<code>\S+) must be built first: it goes on a new pile\.",
     N_("At this table %(name)s's pay-off %(code)s must be built first: it goes on a new pile.")),
    (r"At this table (?P<name>.+)'s pay-off (?P<code>\S+) must be built first: it goes on pile (?P<pile>\d+)\.",
     N_("At this table %(name)s's pay-off %(code)s must be built first: it goes on pile %(pile)s.")),
    (r"The stock is short: shuffle the set-aside cards into it \(now (?P<num>\d+)\)\.",
     N_("The stock is short: shuffle the set-aside cards into it (now %(num)s).")),
    (r"(?P<name>.+) builds the last pay-off card and wins the game\.",
     N_("%(name)s builds the last pay-off card and wins the game.")),
    (r"(?P<name>.+) builds the last pay-off card and wins the game: (?P<points>\d+) points? \(5 \+ (?P<left>\d+) pay-off "
     r"cards left\)\.", Nn_("%(name)s builds the last pay-off card and wins the game: %(points)s point (5 + %(left)s "
                            "pay-off cards left).", "%(name)s builds the last pay-off card and wins the game: "
                            "%(points)s points (5 + %(left)s pay-off cards left).", "points")),
    (r"(?P<name>.+) builds the last pay-off card and wins the game: (?P<points>\d+) points? \((?P<left>\d+) pay-off "
     r"cards left\)\.", Nn_("%(name)s builds the last pay-off card and wins the game: %(points)s point (%(left)s "
                            "pay-off cards left).", "%(name)s builds the last pay-off card and wins the game: "
                            "%(points)s points (%(left)s pay-off cards left).", "points")),
    (r"The stock cannot give (?P<name>.+) the (?P<num>\d+) cards? owed \(it is empty\): (?P<end>.+)",
     Nn_("The stock cannot give %(name)s the %(num)s card owed (it is empty): %(end)s",
                                 "The stock cannot give %(name)s the %(num)s cards owed (it is empty): %(end)s",
                                 "num")),
    (r"The stock cannot give (?P<name>.+) the (?P<num>\d+) cards? owed \(it holds (?P<stock>\d+)\): (?P<end>.+)",
     Nn_("The stock cannot give %(name)s the %(num)s card owed (it holds %(stock)s): "
                                 "%(end)s", "The stock cannot give %(name)s the %(num)s cards owed (it holds "
                                 "%(stock)s): %(end)s", "num")),
    (r"the game is a draw \(SM-V6\)\.", N_("the game is a draw (SM-V6).")),
    (r"equal pay-off piles \((?P<left>.+)\), the game is a draw\.",
     N_("equal pay-off piles (%(left)s), the game is a draw.")),
    (r"(?P<name>.+) has the fewest pay-off cards left \((?P<left>.+)\) and wins\.",
     N_("%(name)s has the fewest pay-off cards left (%(left)s) and wins.")),
    (r"(?P<name>.+) has the fewest pay-off cards left \((?P<left>.+)\) and wins, (?P<points>\d+) points?\.",
     Nn_("%(name)s has the fewest pay-off cards left (%(left)s) and wins, %(points)s point.",
         "%(name)s has the fewest pay-off cards left (%(left)s) and wins, %(points)s points.", "points")),
    (r"Nobody wins\.", N_("Nobody wins.")),
    (r"(?P<name>.+) wins the match with (?P<num>\d+) points \((?P<totals>.+)\)\.",
     N_("%(name)s wins the match with %(num)s points (%(totals)s).")),
    (r"At this table a side stack takes the same rank or one lower: (?P<card>an? \S+) or (?P<card2>an? \S+) goes on "
     r"(?P<card3>an? \S+)\.", N_("At this table a side stack takes the same rank or one lower: %(card)s or %(card2)s "
                                 "goes on %(card3)s.")),
    # --- The common rulings at play (Rat-a-Tat Cat, the general rules, Shithead, Spite & Malice, Cabo) ---
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s\.", N_("It is %(name)s's turn, not %(other)s's.")),
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s(?P<hint>.+)\.", N_("It is %(name)s's turn, not %(other)s's.")),
    (r"(?P<name>.+) is in the middle of a turn\.", N_("%(name)s is in the middle of a turn.")),
    (r"(?P<name>.+) is not playing this round\.", N_("%(name)s is not playing this round.")),
    (r"The deck has only (?P<copies>\d+) × (?P<card>.+), and (?P<seen>\d+) are already known on the table: "
     r"this sighting would be one too many \(a misread or a wrong card\?\)\.",
     N_("The deck has only %(copies)s × %(card)s, and %(seen)s are already known on the table: this sighting "
        "would be one too many (a misread or a wrong card?).")),
    (r"This card was known to be (?P<card>.+) \(entry (?P<entry>\d+)\) but shows (?P<card2>.+) now "
     r"\(entry (?P<now>\d+)\)\.",
     N_("This card was known to be %(card)s (entry %(entry)s) but shows %(card2)s now (entry %(now)s).")),
    (r"The match is over: no more entries can be played\.", N_("The match is over: no more entries can be played.")),
    (r"(?P<rule>[A-Z]+-[A-Z0-9]+) does not refuse this entry, so there is nothing to override\.",
     N_("%(rule)s does not refuse this entry, so there is nothing to override.")),
    (r"There is no open flag (?P<flag>\d+) to decide\.", N_("There is no open flag %(flag)s to decide.")),
    (r"Turn up the top card of the draw pile to start the discard pile first\.",
     N_("Turn up the top card of the draw pile to start the discard pile first.")),
    (r"(?P<name>.+) called and gets no more turns; the round is over, reveal the cards\.",
     N_("%(name)s called and gets no more turns; the round is over, reveal the cards.")),
    (r"The final turns are over: reveal the cards\.", N_("The final turns are over: reveal the cards.")),
    (r"(?P<name>.+) called: the caller takes no more turns, every other player takes one\.",
     N_("%(name)s called: the caller takes no more turns, every other player takes one.")),
    (r"(?P<name>.+)'s Draw 2 is over: the card drawn was used or both draws were taken, so there is no "
     r"further draw\.", N_("%(name)s's Draw 2 is over: the card drawn was used or both draws were taken, so there "
                           "is no further draw.")),
    (r"Resolve the (?P<card>Peek|Swap|Draw 2|Super Peek) first\.", N_("Resolve the %(card)s first.")),
    (r"(?P<name>.+) holds no card to (?P<what>.+): draw or take one first\.",
     N_("%(name)s holds no card to use: draw or take one first.")),
    (r"The discard pile has already been started\.", N_("The discard pile has already been started.")),
    (r"The draw pile is empty: reshuffle the discard pile first\.",
     N_("The draw pile is empty: reshuffle the discard pile first.")),
    (r"The draw pile is empty: reshuffle the discard pile first \(RTC-A8\)\.",
     N_("The draw pile is empty: reshuffle the discard pile first.")),
    (r"The draw pile is empty: shuffle the discard pile into a new draw pile \(enter a reshuffle\) and turn up "
     r"a new discard first\.", N_("The draw pile is empty: shuffle the discard pile into a new draw pile (enter a "
                                  "reshuffle) and turn up a new discard first.")),
    (r"(?P<name>.+) already holds a card: replace a card with it or discard it\.",
     N_("%(name)s already holds a card: replace a card with it or discard it.")),
    (r"(?P<name>.+) already holds a card: take exactly one card per turn\.",
     N_("%(name)s already holds a card: take exactly one card per turn.")),
    (r"Both Draw 2 draws come from the draw pile, never from the discard pile\.",
     N_("Both Draw 2 draws come from the draw pile, never from the discard pile.")),
    (r"The discard pile is empty: turn up a card to start it first\.",
     N_("The discard pile is empty: turn up a card to start it first.")),
    (r"(?P<card>" + _CARD + r") on the discard pile cannot be taken: a discarded power card is out of play\.",
     N_("%(card)s on the discard pile cannot be taken: a discarded power card is out of play.")),
    (r"Under this table's rules \(RTC-V5 forbidden\) a drawn power card may only be used or discarded, not put "
     r"into the row\.", N_("Under this table's rules (RTC-V5) a drawn power card may only be used or discarded, "
                           "not put into the row.")),
    (r"Under this table's rules \(RTC-V6\) a drawn power card must be used\.",
     N_("Under this table's rules (RTC-V6) a drawn power card must be used.")),
    (r"Under this table's rules \(RTC-V6\) a drawn Swap must be used\.",
     N_("Under this table's rules (RTC-V6) a drawn Swap must be used.")),
    (r"A card taken from the discard pile must replace one of your cards; it cannot be put straight back\.",
     N_("A card taken from the discard pile must replace one of your cards; it cannot be put straight back.")),
    (r"A power card in a row has no power: powers work only for a card just drawn from the draw pile "
     r"\(RTC-19\)\.", N_("A power card in a row has no power: powers work only for a card just drawn from the "
                          "draw pile (RTC-19).")),
    (r"Powers work only for a card just drawn from the draw pile during your turn\.",
     N_("Powers work only for a card just drawn from the draw pile during your turn.")),
    (r"(?P<card>" + _CARD + r") is not a power card\.", N_("%(card)s is not a power card.")),
    (r"A card taken from the discard pile gives no power \(RTC-11\); powers work only for a card drawn from "
     r"the draw pile\.", N_("A card taken from the discard pile gives no power (RTC-11); powers work only for a "
                           "card drawn from the draw pile.")),
    (r"There is no Peek to resolve: a Peek is used right after it is drawn\.",
     N_("There is no Peek to resolve: a Peek is used right after it is drawn.")),
    (r"(?P<name>.+) has no cards this round\.", N_("%(name)s has no cards this round.")),
    (r"A Peek looks at one of your own cards\.", N_("A Peek looks at one of your own cards.")),
    (r"There is no Swap to resolve: a Swap is used right after it is drawn\.",
     N_("There is no Swap to resolve: a Swap is used right after it is drawn.")),
    (r"Name your card and the other player's card to swap\.", N_("Name your card and the other player's card to swap.")),
    (r"A Swap exchanges one of your cards with a card of another player, not two of your own\.",
     N_("A Swap exchanges one of your cards with a card of another player, not two of your own.")),
    (r"Under this table's rules \(RTC-V11\) the caller (?P<name>.+)'s cards are locked after the call\.",
     N_("Under this table's rules (RTC-V11) the caller %(name)s's cards are locked after the call.")),
    (r"With the outer cards face up \(RTC-V8 outer_face_up\) only face-down cards may be swapped\.",
     N_("With the outer cards face up (RTC-V8) only face-down cards may be swapped.")),
    (r"(?P<name>.+) has already called this round: only one call per round\.",
     N_("%(name)s has already called this round: only one call per round.")),
    (r"The round is already over\.", N_("The round is already over.")),
    (r"Under this table's rules \(RTC-V9\) a player calls instead of taking a turn, at the start of their own "
     r"turn\.", N_("Under this table's rules (RTC-V9) a player calls instead of taking a turn, at the start of "
                   "their own turn.")),
    (r"A player calls at the end of their own turn, after taking a card \(RTC-20: calling is not a turn\)\.",
     N_("A player calls at the end of their own turn, after taking a card (RTC-20: calling is not a turn).")),
    (r"A player calls only at the end of their own turn, before the next player acts\.",
     N_("A player calls only at the end of their own turn, before the next player acts.")),
    (r"Under this table's rules \(RTC-V10\) nobody may call before (?P<num>\d+) full round\(s\) of turns\.",
     N_("Under this table's rules (RTC-V10) nobody may call before %(num)s full round(s) of turns.")),
    (r"The draw pile still has (?P<num>\d+) card\(s\): reshuffle only when it is empty\.",
     N_("The draw pile still has %(num)s card(s): reshuffle only when it is empty.")),
    (r"There is no discard pile to reshuffle\.", N_("There is no discard pile to reshuffle.")),
    (r"This match is not timed\.", N_("This match is not timed.")),
    (r"Time was already called\.", N_("Time was already called.")),
    (r"Cards are revealed only when the round is over: after the call and the final turns \(RTC-42\)\.",
     N_("Cards are revealed only when the round is over: after the call and the final turns (RTC-42).")),
    (r"(?P<name>.+)'s cards are already revealed \(correct that entry instead\)\.",
     N_("%(name)s's cards are already revealed (correct that entry instead).")),
    (r"Name all (?P<num>\d+) cards: the round is scored from them\.",
     N_("Name all %(num)s cards: the round is scored from them.")),
    (r"(?P<name>.+)'s slot (?P<slot>\d) holds no revealed power card to replace\.",
     N_("%(name)s's slot %(slot)s holds no revealed power card to replace.")),
    (r"Name the card drawn to replace the power card\.", N_("Name the card drawn to replace the power card.")),
    (r"The discard pile is empty\.", N_("The discard pile is empty.")),
    (r"The initial peek happens once, before the player's first turn\.",
     N_("The initial peek happens once, before the player's first turn.")),
    (r"The initial peek is at the two outer cards, slots 1 and 4\.",
     N_("The initial peek is at the two outer cards, slots 1 and 4.")),
    # Shithead's rulings at play
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s \(four of a kind out of turn is an interrupt\)\.",
     N_("It is %(name)s's turn, not %(other)s's (four of a kind out of turn is an interrupt).")),
    (r"The card to beat is the (?P<rank>\w+)(?P<under> under the 3s)?: a (?P<played>\w+) is lower \(play a \w+ or higher, "
     r"or a 2, 3 or 10\)\.", N_("The card to beat is the %(rank)s: a %(played)s is lower (play a %(rank)s or higher, or a 2, 3 "
                                 "or 10).")),
    (r"A 7(?P<under> under the 3s)? is on top: the next card must be a 7 or lower, or a 2, 3 or 10\.",
     N_("A 7 is on top: the next card must be a 7 or lower, or a 2, 3 or 10.")),
    (r"A 7(?P<under> under the 3s)? is on top: at this table a 10 may not burn it\.",
     N_("A 7 is on top: at this table a 10 may not burn it.")),
    (r"The pile is empty: picking it up would be a pass \(SH-10\)\. Play any card\.",
     N_("The pile is empty: picking it up would be a pass (SH-10). Play any card.")),
    (r"A play puts at least one card on the pile\.", N_("A play puts at least one card on the pile.")),
    (r"Name every card played: they are all face up on the pile\.",
     N_("Name every card played: they are all face up on the pile.")),
    (r"Say which rank the joker plays as\.", N_("Say which rank the joker plays as.")),
    (r"A play is cards of one rank only: (?P<cards>.+)\.", N_("A play is cards of one rank only: %(cards)s.")),
    (r"Face-up cards are played one at a time at this table\.", N_("Face-up cards are played one at a time at this table.")),
    (r"Face-down cards are turned over one at a time\.", N_("Face-down cards are turned over one at a time.")),
    (r"(?P<name>.+) has only (?P<num>\d+) cards? in hand\.", N_("%(name)s has only %(num)s card(s) in hand.")),
    (r"(?P<name>.+) is out of this game\.", N_("%(name)s is out of this game.")),
    (r"(?P<name>.+) has no cards left\.", N_("%(name)s has no cards left.")),
    (r"Play has not started: enter who starts first\.", N_("Play has not started: enter who starts first.")),
    (r"Play has started: the face-up cards and the swaps are settled\.",
     N_("Play has started: the face-up cards and the swaps are settled.")),
    (r"Enter (?P<name>.+)'s face-up cards first\.", N_("Enter %(name)s's face-up cards first.")),
    (r"Enter every player's face-up cards first: (?P<names>.+)\.", N_("Enter every player's face-up cards first: %(names)s.")),
    (r"At this table face-up cards are not swapped\.", N_("At this table face-up cards are not swapped.")),
    (r"At this table nobody plays out of turn\.", N_("At this table nobody plays out of turn.")),
    (r"With only two players left nobody plays out of turn\.", N_("With only two players left nobody plays out of turn.")),
    (r"It is (?P<name>.+)'s own turn: play the cards as the turn\.", N_("It is %(name)s's own turn: play the cards as the turn.")),
    (r"An interrupt must complete four of a kind: that makes (?P<num>\d+) (?P<rank>\w+)s\.",
     N_("An interrupt must complete four of a kind: that makes %(num)s × %(rank)s.")),
    (r"Face-down cards cannot interrupt \(SH-A9\)\.", N_("Face-down cards cannot interrupt (SH-A9).")),
    (r"Every (?P<card>.+) is already somewhere else on the table: this must be a mis-tap or a misread photo\.",
     N_("Every %(card)s is already somewhere else on the table: this must be a mis-tap or a misread photo.")),
    (r"There is no (?P<card>.+) in this table's deck\.", N_("There is no %(card)s in this table's deck.")),
    (r"The table knows every card in (?P<name>.+)'s hand \((?P<known>.+)\): (?P<cards>.+) (?:is|are) not among them\.",
     N_("The table knows every card in %(name)s's hand (%(known)s): %(cards)s is not among them.")),
    (r"(?P<card>.+) is not among (?P<name>.+)'s face-up cards\.", N_("%(card)s is not among %(name)s's face-up cards.")),
    # Cabo / Cambio: why a round scored as it did (each sentence of the engine's explanation)
    (r"The draw pile ran out and ended the round \(CAB-22\)\.", N_("The draw pile ran out and ended the round (CAB-22).")),
    (r"Kamikaze: (?P<name>.+) ended on 12, 12, 13 and 13, so scores 0 and everyone else scores 50 \(CAB-42\)\.",
     N_("Kamikaze: %(name)s ended on 12, 12, 13 and 13, so scores 0 and everyone else scores 50 (CAB-42).")),
    (r"Nobody called, so everyone scores their sum and nobody gets the caller's 0 \(CAB-40\)\.",
     N_("Nobody called, so everyone scores their sum and nobody gets the caller's 0 (CAB-40).")),
    (r"(?P<name>.+) called with the lowest sum, (?P<low>-?\d+) \(a tie counts\), so scores 0; everyone else scores "
     r"their sum \(CAB-40\)\.", N_("%(name)s called with the lowest sum, %(low)s (a tie counts), so scores 0; everyone "
                                    "else scores their sum (CAB-40).")),
    (r"(?P<name>.+) called with the lowest sum, (?P<low>-?\d+), so scores 0; everyone else scores their sum "
     r"\(CAB-40\)\.", N_("%(name)s called with the lowest sum, %(low)s, so scores 0; everyone else scores their sum "
                          "(CAB-40).")),
    (r"(?P<name>.+) called with (?P<sum>-?\d+), not the lowest sum \((?P<low>-?\d+)\), so scores (?P<a>-?\d+) \+ 10 = "
     r"(?P<score>-?\d+) \(CAB-40\)\.", N_("%(name)s called with %(sum)s, not the lowest sum (%(low)s), so scores %(a)s + "
                                         "10 = %(score)s (CAB-40).")),
    (r"(?P<names>.+) (?:has|have) the lowest sum, (?P<low>-?\d+), and scores? 0 \(CAB-41\)\.",
     N_("%(names)s: the lowest sum, %(low)s, scores 0 (CAB-41).")),
    (r"(?P<name>.+) called but was not lowest: (?P<sum>-?\d+) \+ 5 = (?P<score>-?\d+)\.",
     N_("%(name)s called but was not lowest: %(sum)s + 5 = %(score)s.")),
    (r"Everyone scores their sum \(CAB-44\)\.", N_("Everyone scores their sum (CAB-44).")),
    (r"(?P<name>[^,]+) has the lowest score, (?P<score>-?\d+), and wins the round\.",
     N_("%(name)s has the lowest score, %(score)s, and wins the round.")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+): under this table's tie rule a tied round has no winner \(CAB-V9\)\.",
     N_("%(names)s tie on %(score)s: under this table's tie rule a tied round has no winner (CAB-V9).")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+): under this table's tie rule \(CAB-V9, CAB-A4\) (?P<winners>.+) wins? the "
     r"round\.", N_("%(names)s tie on %(score)s: under this table's tie rule (CAB-V9, CAB-A4) the round goes to "
                    "%(winners)s.")),
    (r"(?P<names>.+) reached exactly 100 and drops? to 50 \(CAB-43\)\.", N_("%(names)s: exactly 100, down to 50 (CAB-43).")),
    # Cabo / Cambio's rulings at play
    (r"(?P<name>.+) has no card in place (?P<place>\d+)\.", N_("%(name)s has no card in place %(place)s.")),
    (r"(?P<name>.+) first gives one of their cards to (?P<other>.+) for the card snapped from place (?P<place>\d+)\.",
     N_("%(name)s first gives one of their cards to %(other)s for the card snapped from place %(place)s.")),
    (r"The round is over: turn up the cards\.", N_("The round is over: turn up the cards.")),
    (r"(?P<name>.+) already holds a card: keep it in place of a card, or discard it\.",
     N_("%(name)s already holds a card: keep it in place of a card, or discard it.")),
    (r"The first look happens once, before the player's first turn\.",
     N_("The first look happens once, before the player's first turn.")),
    (r"The first look is at two different cards\.", N_("The first look is at two different cards.")),
    (r"The first look is at the two cards nearest you, places 3 and 4 \(the bottom row of the square\)\.",
     N_("The first look is at the two cards nearest you, places 3 and 4 (the bottom row of the square).")),
    (r"The draw pile is empty: take the top discard or call\.", N_("The draw pile is empty: take the top discard or call.")),
    (r"The draw pile is empty: shuffle the discard pile, all but its top card, into a new draw pile first \(enter a "
     r"reshuffle\)\.", N_("The draw pile is empty: shuffle the discard pile, all but its top card, into a new draw pile "
                           "first (enter a reshuffle).")),
    (r"This table plays without matching exchanges: keep the card in place of one card, or discard it\.",
     N_("This table plays without matching exchanges: keep the card in place of one card, or discard it.")),
    (r"A matching exchange turns up two or more different cards of your own\.",
     N_("A matching exchange turns up two or more different cards of your own.")),
    (r"The cards entered do not all match\.", N_("The cards entered do not all match.")),
    (r"A card taken from the discard pile must be kept in place of one of your cards \(or of a matching set\); it "
     r"cannot be put straight back\.", N_("A card taken from the discard pile must be kept in place of one of your "
                                         "cards (or of a matching set); it cannot be put straight back.")),
    (r"A card taken from the discard pile gives no power, only its points \(CAB-3\)\.",
     N_("A card taken from the discard pile gives no power, only its points (CAB-3).")),
    (r"A Peek \(7 or 8\) looks at one of your own cards\.", N_("A Peek (7 or 8) looks at one of your own cards.")),
    (r"A Spy \(9 or 10\) looks at another player's card\.", N_("A Spy (9 or 10) looks at another player's card.")),
    (r"Name both cards to swap\.", N_("Name both cards to swap.")),
    (r"A Swap exchanges cards of two different players\.", N_("A Swap exchanges cards of two different players.")),
    (r"A blind Swap exchanges one of your own cards with another player's card\.",
     N_("A blind Swap exchanges one of your own cards with another player's card.")),
    (r"(?P<name>.+) called: nobody may swap the caller's cards\.", N_("%(name)s called: nobody may swap the caller's cards.")),
    (r"(?P<name>.+) called: nobody may snap the caller's cards or change them\.",
     N_("%(name)s called: nobody may snap the caller's cards or change them.")),
    (r"This table plays without snapping\.", N_("This table plays without snapping.")),
    (r"No snapping once the cards are being turned up for scoring\.",
     N_("No snapping once the cards are being turned up for scoring.")),
    (r"A card was already snapped onto this discard: only the first good snap counts, and nobody may snap onto a "
     r"snapped card\.", N_("A card was already snapped onto this discard: only the first good snap counts, and nobody "
                           "may snap onto a snapped card.")),
    (r"(?P<name>.+) already snapped wrongly onto this discard\.", N_("%(name)s already snapped wrongly onto this discard.")),
    (r"Name the snapped card and the discard it lands on, or say whether they match\.",
     N_("Name the snapped card and the discard it lands on, or say whether they match.")),
    # Spite & Malice's rulings at play
    (r"That pile needs (?:an?) (?P<need>\w+) \(or a king\), not (?:an?) (?P<card>\w+)\.",
     N_("That pile needs %(need)s (or a king), not %(card)s.")),
    (r"Only an ace or a king starts a pile, not (?:an?) (?P<card>\w+)\.", N_("Only an ace or a king starts a pile, not %(card)s.")),
    (r"Only an ace starts a pile, not (?:an?) (?P<card>\w+)\.", N_("Only an ace starts a pile, not %(card)s.")),
    (r"At this table a king may not start a pile: only an ace starts one\.",
     N_("At this table a king may not start a pile: only an ace starts one.")),
    (r"(?P<name>.+) draws (?P<num>\d+) from the stock first \(the hand is empty\)\.",
     N_("%(name)s draws %(num)s from the stock first (the hand is empty).")),
    (r"(?P<name>.+) draws (?P<num>\d+) from the stock first \(back up to 5\)\.",
     N_("%(name)s draws %(num)s from the stock first (back up to 5).")),
    (r"(?P<name>.+)'s turn ended with the discard onto a side stack: it is (?P<other>.+)'s turn now\.",
     N_("%(name)s's turn ended with the discard onto a side stack: it is %(other)s's turn now.")),
    (r"(?P<name>.+)'s turn ended with the discard: only the refill is left\.",
     N_("%(name)s's turn ended with the discard: only the refill is left.")),
    (r"(?P<name>.+) has already discarded this turn: one discard ends the turn\.",
     N_("%(name)s has already discarded this turn: one discard ends the turn.")),
    (r"A card on a building pile stays there until the pile is complete\.",
     N_("A card on a building pile stays there until the pile is complete.")),
    (r"A pay-off card goes only onto a building pile, never onto a side stack\.",
     N_("A pay-off card goes only onto a building pile, never onto a side stack.")),
    (r"Cards never move from one side stack to another: only a hand card goes onto a side stack\.",
     N_("Cards never move from one side stack to another: only a hand card goes onto a side stack.")),
    (r"There (?:is|are) already (?P<num>\d+) building piles?, the most this table allows: build on (?:it|one of them)\.",
     N_("There are already %(num)s building piles, the most this table allows: build on one of them.")),
    (r"Play has not started: enter the pay-off tops \(and who starts\) first\.",
     N_("Play has not started: enter the pay-off tops (and who starts) first.")),
    (r"Enter the pay-off tops first: (?P<names>.+)\.", N_("Enter the pay-off tops first: %(names)s.")),
    (r"(?P<name>.+) has no pay-off cards left\.", N_("%(name)s has no pay-off cards left.")),
    (r"(?P<name>.+) has no cards in hand\.", N_("%(name)s has no cards in hand.")),
    (r"(?P<name>.+) has no side stack (?P<num>\d+): it is empty\.", N_("%(name)s has no side stack %(num)s: it is empty.")),
    (r"No draw is owed now: (?P<name>.+) holds (?P<num>\d+) cards?\.", N_("No draw is owed now: %(name)s holds %(num)s card(s).")),
    (r"The stock holds only (?P<num>\d+) cards?\.", N_("The stock holds only %(num)s card(s).")),
    (r"Enter (?P<name>.+)'s new pay-off top first \(tap unknown if nobody saw it\): then the card built from it can "
     r"be checked\.", N_("Enter %(name)s's new pay-off top first (tap unknown if nobody saw it): then the card built "
                         "from it can be checked.")),
    (r"Every (?P<card>\S+) of the decks \((?P<num>\d+)\) is already face up on the table: this must be a mis-tap or a "
     r"misread photo\.", N_("Every %(card)s of the decks (%(num)s) is already face up on the table: this must be a "
                           "mis-tap or a misread photo.")),
    # Shithead: what beats the pile, and the reminders the referee owes the table after a play
    (r"anything", N_("anything")),
    (r"anything \(a 2 is on top\)", N_("anything (a 2 is on top)")),
    (r"a 7 or lower, or a 2, 3 or 10", N_("a 7 or lower, or a 2, 3 or 10")),
    (r"a (?P<rank>\w+) or higher, or a 2, 3 or 10", N_("a %(rank)s or higher, or a 2, 3 or 10")),
    (r"(?P<name>.+) starts: the higher pay-off top \((?P<tops>.+)\)\.",
     N_("%(name)s starts: the higher pay-off top (%(tops)s).")),
    (r"(?P<name>.+) starts: entered by the table\.", N_("%(name)s starts: entered by the table.")),
    (r"(?P<name>.+) starts and must play the (?P<rank>\w+)\.", N_("%(name)s starts and must play the %(rank)s.")),
    (r"(?P<name>.+) starts\.", N_("%(name)s starts.")),
    (r"Burned: the pile goes out of play \(a 10\)\.", N_("Burned: the pile goes out of play (a 10).")),
    (r"Burned: the pile goes out of play \(four of a kind\)\.", N_("Burned: the pile goes out of play (four of a kind).")),
    (r"(?P<name>.+): draw (?P<num>\d+)\.", N_("%(name)s: draw %(num)s.")),
    (r"(?P<name>.+) is out, number (?P<num>\d+)\.", N_("%(name)s is out, number %(num)s.")),
    (r"(?P<name>.+) plays again\.", N_("%(name)s plays again.")),
    (r"The direction of play reverses\.", N_("The direction of play reverses.")),
    (r"Skipped: (?P<names>.+)\.", N_("Skipped: %(names)s.")),
    (r"Everyone else is skipped: (?P<name>.+) plays again\.", N_("Everyone else is skipped: %(name)s plays again.")),
    (r"(?P<name>.+) picks up (?P<num>\d+) cards?; (?P<next>.+) leads onto the empty pile\.",
     N_("%(name)s picks up the pile (%(num)s); %(next)s leads onto the empty pile.")),
    (r"(?P<name>.+) interrupts: (?P<other>.+)'s turn is lost\.", N_("%(name)s interrupts: %(other)s's turn is lost.")),
    (r"(?P<name>.+) adds (?P<cards>.+)\.", N_("%(name)s adds %(cards)s.")),
    # Spite & Malice: what the table owes the referee, and what happened
    (r"(?P<name>.+): turn up the pay-off top and enter it\.", N_("%(name)s: turn up the pay-off top and enter it.")),
    (r"(?P<name>.+): turn the next pay-off card and enter it \((?P<num>\d+) left\)\.",
     N_("%(name)s: turn the next pay-off card and enter it (%(num)s left).")),
    (r"Enter who starts\.", N_("Enter who starts.")),
    (r"(?P<name>.+): draw (?P<num>\d+) from the stock \(hand (?P<hand>\d+) → (?P<after>\d+)\)\.",
     N_("%(name)s: draw %(num)s from the stock (hand %(hand)s → %(after)s).")),
    (r"(?P<name>.+): build, then end the turn with one hand card onto a side stack\.",
     N_("%(name)s: build, then end the turn with one hand card onto a side stack.")),
    (r"Not every pay-off top is known: enter who starts\.", N_("Not every pay-off top is known: enter who starts.")),
    (r"Equal pay-off tops: (?P<names>.+) shuffle their pay-off piles and turn new tops\.",
     N_("Equal pay-off tops: %(names)s shuffle their pay-off piles and turn new tops.")),
    (r"(?P<name>.+) has built every hand card: draw 5 more and carry on\.",
     N_("%(name)s has built every hand card: draw 5 more and carry on.")),
    (r"Pile (?P<pile>\d+) is complete: shuffle its (?P<num>\d+) cards into the stock \(now (?P<stock>\d+)\)\.",
     N_("Pile %(pile)s is complete: shuffle its %(num)s cards into the stock (now %(stock)s).")),
    (r"Game (?P<num>\d+): shuffle both decks, deal the pay-off piles and hands, and enter the pay-off tops\.",
     N_("Game %(num)s: shuffle both decks, deal the pay-off piles and hands, and enter the pay-off tops.")),
)


def _rulings() -> tuple:
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = tuple((re.compile(pattern, re.S), words) for pattern, words in _RULINGS_EN)
    return _COMPILED


_COMPILED: tuple | None = None

# Words an engine puts into its sentences, said as the phone's language says them.
RANK_WORDS = {"ace": N_("Ace"), "jack": N_("Jack"), "queen": N_("Queen"), "king": N_("King"),
              "joker": N_("Joker")}
CARD_WORDS = {"Draw 2": N_("Draw 2"), "Peek": N_("Peek"), "Swap": N_("Swap"), "Super Peek": N_("Super Peek"),
              "Joker": N_("Joker"), "JOKER": N_("Joker"), "unknown": N_("unknown")}
_PLURAL_RANKS = {"aces": "ace", "jacks": "jack", "queens": "queen", "kings": "king", "jokers": "joker"}


def _card_phrase(phrase: str | None, gettext: Callable[[str], str]) -> str:
    """ "a Peek", "an 8", "A Draw 2", "a queen", "7♥" -> the card as the screen names it."""
    if not phrase:
        return ""
    word = phrase.split(" ", 1)[1] if phrase[:2].lower() in ("a ", "an") and " " in phrase else phrase
    if word.lower() in RANK_WORDS:
        return gettext(RANK_WORDS[word.lower()])
    if word in CARD_WORDS:
        return gettext(CARD_WORDS[word])
    return word


def _field(key: str, value: str | None, gettext: Callable[[str], str], rtl: bool) -> str:
    if value is None:
        return ""
    if key.startswith(("card", "need", "code")):
        value = _card_phrase(value, gettext)
    elif key.startswith("names"):  # "Ana and Ben", "Ana, Ben and Cy"
        value = value.replace(" and ", gettext(" and "))
    elif key.startswith("ranks"):  # "kings", "7s"
        singular = _PLURAL_RANKS.get(value, value[:-1] if value.endswith("s") else value)
        value = _card_phrase(singular, gettext)
    if rtl and key.startswith(("card", "need", "code", "ranks", "known", "top", "claimed", "tops")) \
            and any(not (ch.isalnum() or ch in " -") for ch in value):
        return LRI + value + PDI
    return value


def say(message: str, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
        rtl: bool = False) -> str | None:
    """``message`` (one of the engines' sentences) in the catalogue's language, or None when no pattern
    reads it."""
    for pattern, words in _rulings():
        found = pattern.fullmatch(message)
        if found:
            raw = found.groupdict()
            fields = {}
            for key, value in raw.items():
                if key.startswith("end"):  # a sentence's second half, itself one of the engines' clauses
                    value = say(value, gettext, ngettext, rtl)
                    if value is None:
                        return None
                    fields[key] = value
                else:
                    fields[key] = _field(key, value, gettext, rtl)
            if callable(words):
                words = words(raw)
            if isinstance(words, tuple):
                singular, plural, count = words
                return ngettext(singular, plural, int(raw[count])) % fields
            return gettext(words) % fields
    return None


_SENTENCE = re.compile(r"(?<=[.!])\s+(?=[A-Z])")


def say_all(text: str, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
            rtl: bool = False) -> str | None:
    """A text of one sentence or several (an explanation, a result): each sentence read by :func:`say`,
    else the whole; None when it is not known."""
    sentences = _SENTENCE.split(text)
    if len(sentences) > 1:  # each sentence by itself first: a pattern's name could reach over a full stop
        said = [say(sentence, gettext, ngettext, rtl) for sentence in sentences]
        if None not in said:
            return " ".join(said)  # type: ignore[arg-type]
    return say(text, gettext, ngettext, rtl)
