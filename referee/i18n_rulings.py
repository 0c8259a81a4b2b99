"""The referee's rulings, read back by their shape and said again in another language.

The rules engines (``referee/games/``) say every ruling, reminder and result in English with names,
numbers and cards in it. Each sentence an engine can build has a pattern here (the English with its
variable parts as named groups) and the English message the catalogues translate (``messages``
domain, marked with ``N_`` for extraction). Where the engine says a sentence just as the message
does, the pattern is made from the message (``_same``); the others are written out. The web layer (``referee.i18n_rules.ruling_words``) and the
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

TABLE = "The table"  # the engines' word for the whole table acting, in place of a player's name
LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate: a card such as 7♥ keeps its order in Hebrew


def N_(message: str) -> str:
    """Marks an English message for extraction; translated when said (``say``)."""
    return message


def _under_3s(plain: str, under: str) -> Callable[[dict], str]:
    """A Shithead sentence's words where its card lies under see-through 3s (SH-11) or not: the pattern's
    ``under`` group says which."""
    return lambda found: under if found.get("under") else plain


def Nn_(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Marks a message with plural forms; ``count`` names the field that chooses the form."""
    return singular, plural, count


_CARD = r"(?:[Aa]n? )?(?:Peek|Swap|Draw 2|Super Peek|\d+)"

# What a field of a sentence is read as, by its name, unless the sentence says otherwise (``_same``).
_GROUPS = {**dict.fromkeys(("name", "names", "other", "cards", "next", "tops", "totals", "winners", "known", "left",
                            "hint"), r".+"),
           **dict.fromkeys(("num", "entry", "high", "pile", "place", "seen", "after", "at", "copies", "flag", "hand",
                            "now", "stock", "slot"), r"\d+"),
           **dict.fromkeys(("score", "sum", "total", "a"), r"-?\d+"),
           **dict.fromkeys(("claimed", "code", "top", "ranks"), r"\S+")}
_SPECIAL = re.compile(r"([.^$*+?{}\[\]\\|()])")


def _same(message: str, **groups: str) -> tuple[str, str]:
    """(pattern, message) for a sentence the engines say just as the catalogue's English does: the pattern
    is the message itself, each ``%(field)s`` read by ``groups[field]`` or else by ``_GROUPS``."""
    pattern = _SPECIAL.sub(r"\\\1", message)
    return re.sub(r"%\\\((\w+)\\\)s", lambda m: f"(?P<{m[1]}>{groups.get(m[1], _GROUPS.get(m[1], '.+'))})",
                  pattern), message


_RULINGS_EN: tuple[tuple[str, Any], ...] = (
    # --- A number a form sent out of its field's range (games/forms.py, WHOLE_WORDS) ---------------------
    _same(N_("A slot must be a place from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("A place in a row must be a number from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("A building pile must be a number from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("A side stack must be a number from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("The number of cards drawn must be from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("The number of an entry must be from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    _same(N_("The number of a flag must be from %(low)s to %(high)s."), low=r"\d+", high=r"\d+"),
    # --- A form's field that no screen sends (games/forms.py, games/cards.py, games/base.py) --------------
    (r"(?P<value>.+) is not a card of this deck \(.+, or unknown\)\.?", N_("%(value)s is not a card of this deck.")),
    (r"(?P<value>.+) is not a card\.?", N_("%(value)s is not a card.")),
    (r"(?P<value>.+) is not a player at this table\.?", N_("%(value)s is not a player at this table.")),
    (r"(?P<value>.+) is not an entry of .+", N_("%(value)s is not an entry of this game.")),
    _same(N_("The form names no entry.")),
    _same(N_("No card was chosen: tap the card or cards played, then the button.")),
    _same(N_("A reason has at most %(most)s characters, not %(num)s."), most=r"\d+"),
    _same(N_("That field has at most %(most)s characters, not %(num)s."), most=r"\d+"),
    # --- The general rules, the log and the setting up of a table ---------------------------------------
    _same(N_("There is no entry to undo.")),
    _same(N_("The entry is not readable.")),  # an override's refused entry that is not one (games/forms.py)
    _same(N_("Entry %(num)s is not an entry that stands, so it cannot be corrected.")),
    _same(N_("Rat-a-Tat Cat is for %(low)s–%(high)s players, not %(num)s."), low=r"\d+"),
    _same(N_("With the Cabo deck the game is for %(low)s–%(high)s players, not %(num)s."), low=r"\d+"),
    _same(N_("With a standard deck the game is for %(low)s–%(high)s players, not %(num)s."), low=r"\d+"),
    # --- Rat-a-Tat Cat's rarer rulings ------------------------------------------------------------------
    _same(N_("A round ends only by a call (RTC-V18 stalemate is off at this table).")),
    _same(N_("A stalemate can be declared only between turns, before any call.")),
    (r"A stalemate needs (?P<num>\d+) full round\(s\) of turns without a call\.",
     Nn_("A stalemate needs %(num)s full round of turns without a call.",
         "A stalemate needs %(num)s full rounds of turns without a call.", "num")),
    _same(N_("The initial peek is at two different cards (RTC-V8 any_two).")),
    _same(N_("The initial peek is at two different cards: one slot was given twice.")),
    _same(N_("Give one card for each slot looked at, or none.")),
    _same(N_("%(name)s's slot %(slot)s shows %(card)s placed there from a draw (entry %(entry)s); this table "
             "forbids drawn power cards in the row (RTC-V5, RTC-K7)."), card="an? .+"),
    _same(N_("%(name)s's slot %(slot)s shows %(card)s placed there from a draw (entry %(entry)s); this table "
             "requires drawn powers to be used (RTC-V6)."), card="an? .+"),
    _same(N_("The draw pile is empty.")),
    # --- Rounds and matches scored in points (Rat-a-Tat Cat, Cabo / Cambio): said as the result screens say them
    _same(N_("%(name)s has the lowest score, %(score)s, and wins the round (RTC-51).")),
    _same(N_("%(names)s tie on %(score)s.")),
    (r"Tie policy all_lowest \(RTC-V1\): every player on the lowest score wins\.",
     N_("Under this table's tie rule (RTC-V1) they all win.")),
    (r"Tie policy all_lowest \(RTC-V1\): both players on the lowest score win\.",
     N_("Under this table's tie rule (RTC-V1) they both win.")),
    (r"Tie policy no_winner \(RTC-V1\): a tied round has no winner\.",
     N_("Under this table's tie rule (RTC-V1) a tied round has no winner.")),
    (r"Tie policy \w+ \(RTC-V1\): the caller is not among them, so they all win\.",
     N_("Under this table's tie rule (RTC-V1) they all win.")),
    (r"Tie policy \w+ \(RTC-V1\): the caller is not among them, so they both win\.",
     N_("Under this table's tie rule (RTC-V1) they both win.")),
    (r"Tie policy all_lowest_except_caller \(RTC-V1\): the caller (?P<name>.+) loses the tie, so (?P<names>.+) wins?\.",
     N_("Under this table's tie rule (RTC-V1) the caller, %(name)s, loses the tie.")),
    (r"Tie policy caller_wins_ties \(RTC-V1\): the caller (?P<name>.+) wins the tie\.",
     N_("Under this table's tie rule (RTC-V1) the caller, %(name)s, wins the tie.")),
    (r"(?P<name>.+) wins the match with (?P<total>-?\d+) \((?:.*?[^A-Z])?(?P<rule>(?:RTC|CAB|GEN)-\d+)\b.*\)\.",
     N_("%(name)s wins the match with %(total)s (%(rule)s).")),
    (r"(?P<names>.+) share the win on (?P<total>-?\d+) \((?:.*?[^A-Z])?(?P<rule>(?:RTC|CAB|GEN)-\d+)\b.*\)\.",
     N_("%(names)s share the win on %(total)s (%(rule)s).")),
    # --- A match ended early by the table (games/ending.py) -----------------------------------------------
    (r"(?P<name>.+) ended the match early by agreement after (?P<num>\d+) rounds?\.",
     Nn_("%(name)s ended the match early by agreement after %(num)s round.",
         "%(name)s ended the match early by agreement after %(num)s rounds.", "num")),
    (r"(?P<name>.+) ended the match early by agreement after (?P<num>\d+) games?\.",
     Nn_("%(name)s ended the match early by agreement after %(num)s game.",
         "%(name)s ended the match early by agreement after %(num)s games.", "num")),
    _same(N_("%(name)s ended the match early by agreement before any round was completed: no result.")),
    _same(N_("%(name)s ended the match early by agreement before any game was completed: no result.")),
    _same(N_("%(name)s ended the match early by agreement.")),
    _same(N_("%(name)s, first in the standings, wins.")),
    _same(N_("%(names)s, level first in the standings, share the win.")),
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
    _same(N_("A look-and-swap looks at one of your own cards and one of another player's.")),
    _same(N_("Give one card for each place looked at, or none.")),
    _same(N_("Give one card for each place turned up, or none.")),
    _same(N_("%(name)s has no card to put back in its place: a card taken from the discard pile must replace one.")),
    _same(N_("The card kept takes the place of one of the matched cards.")),
    _same(N_("The cards entered (%(cards)s) all match, but the entry says otherwise.")),
    _same(N_("The cards entered (%(cards)s) do not all match, but the entry says otherwise.")),
    _same(N_("Name every card turned up, or say whether they all matched.")),
    _same(N_("%(card)s has no power: 7 and 8 peek, 9 and 10 spy, 11 and 12 swap."), card="An? .+"),
    _same(N_("%(card)s has no power: 7 and 8 peek, 9 and 10 spy, jacks and queens swap, and look-and-swap cards "
             "look then swap."), card="An? .+"),
    _same(N_("%(card)s has no card to act on now: discard it instead."), card="An? .+"),
    _same(N_("No player has discarded onto this discard pile yet: a snap answers a card a player has just "
             "discarded, not the card turned up to start the pile.")),
    _same(N_("There is no fresh discard to snap onto: a snap comes before the next move of the player whose turn it "
             "is (GEN-7).")),
    _same(N_("%(card)s matches %(card2)s, but the entry says otherwise."), card="An? .+", card2="an? .+"),
    _same(N_("%(card)s does not match %(card2)s, but the entry says otherwise."), card="An? .+", card2="an? .+"),
    _same(N_("%(name)s owes nobody a card: a card is given only for another player's card snapped away.")),
    _same(N_("A player calls instead of taking a turn: at the start of their own turn, before drawing.")),
    _same(N_("At this table a player calls at the end of their own turn.")),
    _same(N_("At this table the round ends when the draw pile runs out: there is no reshuffle.")),
    _same(N_("There is no discard pile to reshuffle under its top card.")),
    _same(N_("Cards are turned up only when the round is over: after the call and everyone else's last turn, or "
             "when the draw pile runs out (CAB-22).")),
    _same(N_("%(name)s's cards are already turned up (correct that entry instead).")),
    _same(N_("Name the one card in %(name)s's place %(place)s.")),
    _same(N_("%(name)s's place %(place)s is already face up.")),
    (r"(?P<name>.+) has (?P<num>\d+) cards?: name each of them, place by place\.",
     Nn_("%(name)s has %(num)s card: name each of them, place by place.",
         "%(name)s has %(num)s cards: name each of them, place by place.", "num")),
    _same(N_("Name the card in %(name)s's place %(place)s: the round is scored from every card (a card the table "
             "already knows may stay unknown).")),
    _same(N_("%(name)s noted %(card)s at entry %(at)s, but the card in %(owner)s's place %(place)s showed %(card2)s "
             "at entry %(seen)s."), card="an? .+", owner=".+"),
    _same(N_("%(name)s noted %(card)s at entry %(at)s, but the card in %(owner)s's slot %(slot)s showed %(card2)s "
             "at entry %(seen)s."), card="an? .+", owner=".+"),
    _same(N_("%(name)s noted %(card)s at entry %(at)s, but the card showed %(card2)s at entry %(seen)s."),
          card="an? .+"),
    _same(N_("The first look is at the cards dealt, places 1 to %(num)s.")),
    (r"(?P<name>.+)'s (?P<power>Peek|Spy|blind Swap|look-and-swap) has no card left to act on: the turn ends\.",
     N_("%(name)s's power has no card left to act on: the turn ends.")),
    # --- Shithead's rarer rulings -----------------------------------------------------------------------
    _same(N_("%(name)s's face-up cards are already entered: correct that entry in the history instead.")),
    (r"Each player has (?P<most>\d+) face-up cards; (?P<num>\d+) were entered\.",
     Nn_("Each player has %(most)s face-up cards; %(num)s was entered.",
         "Each player has %(most)s face-up cards; %(num)s were entered.", "num")),
    _same(N_("At this table the player on the dealer's left starts: %(name)s.")),
    _same(N_("%(card)s is not a natural card: the lowest of 4, 5, 6… starts."), card=r"\S+"),
    (r"(?P<name>.+) shows (?P<card>\S+) face up, lower than (?P<other>.+)'s (?P<card2>\S+): (?P=name) starts\.",
     N_("%(name)s shows %(card)s face up, lower than %(other)s's %(card2)s: %(name)s starts.")),
    (r"(?P<name>.+) shows (?P<card>\S+) face up, as low as (?P<other>.+)'s (?P<card2>\S+), and comes first from the "
     r"dealer's left: (?P=name) starts\.",
     N_("%(name)s shows %(card)s face up, as low as %(other)s's %(card2)s, and comes first from the dealer's left: "
        "%(name)s starts.")),
    _same(N_("%(card)s is one of %(name)s's face-up cards: those are played once the hand and the stock are empty."),
          card=r"\S+"),
    _same(N_("%(num)s cards of one rank are more than the deck holds.")),
    (r"(?P<name>.+) declared (?P<card>\S+) as their lowest card: the first play must include an? (?P<rank>\S+)\.",
     N_("%(name)s declared %(card)s as their lowest card: the first play must include a %(rank)s.")),
    (r"(?P<name>.+) has (?P<num>\d+) card(?:s|\(s\))? in hand and the stock is not empty: face-up cards are not played yet\.",
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
    _same(N_("%(name)s can play: at this table the pile is picked up only by a player who cannot play.")),
    _same(N_("Too late: another entry came first (entry %(entry)s), and the pile is now empty.")),
    _same(N_("Too late: another entry came first (entry %(entry)s), and the top of the pile is now %(card)s."),
          card=r"\S+"),
    _same(N_("Too late: another entry came first, and the pile is now empty.")),
    _same(N_("Too late: another entry came first, and the top of the pile is now %(card)s."), card=r"\S+"),
    _same(N_("%(name)s played those cards: only a card just drawn may be added (SH-41).")),
    _same(N_("Only %(name)s, who just played, may add to that play; %(other)s did not play it.")),
    _same(N_("Table cards wait until the hand is empty (SH-20).")),
    _same(N_("Too late: there is no play of %(name)s's to add to now (entry %(entry)s).")),
    _same(N_("Too late: there is no play of %(name)s's to add to now.")),
    (r"Only an? (?P<rank>\S+) may be added to (?P<name>.+)'s (?P=rank)s\.",
     N_("Only a %(rank)s may be added to %(name)s's %(rank)ss.")),
    (r"(?P<name>.+) drew only (?P<num>\d+) card\(s\) after that play\.",
     Nn_("%(name)s drew only %(num)s card after that play.", "%(name)s drew only %(num)s cards after that play.",
         "num")),
    _same(N_("%(name)s is the Shithead.")),
    _same(N_("Finishing order: %(names)s.")),
    (r"Finishing order: \.", N_("Finishing order: nobody.")),
    _same(N_("%(name)s goes out first and wins (SH-52).")),
    # --- Spite & Malice's rarer rulings -----------------------------------------------------------------
    (r"After the 9(?P<under> under the 3s)? the next card must be of its suit \((?P<card>.+)\), or a 2, 3 or 10\.",
     _under_3s(N_("After the 9 the next card must be of its suit (%(card)s), or a 2, 3 or 10."),
               N_("After the 9 under the 3s the next card must be of its suit (%(card)s), or a 2, 3 or 10."))),
    (r"After the 9(?P<under> under the 3s)? the next card must be of its suit \((?P<card>.+)\), or a 2 or 10\.",
     _under_3s(N_("After the 9 the next card must be of its suit (%(card)s), or a 2 or 10."),
               N_("After the 9 under the 3s the next card must be of its suit (%(card)s), or a 2 or 10."))),
    (r"After the 9(?P<under> under the 3s)? the next card must be of its suit \((?P<card>.+)\), or (?P<anywhere>an? .+)\.",
     _under_3s(N_("After the 9 the next card must be of its suit (%(card)s), or %(anywhere)s."),
               N_("After the 9 under the 3s the next card must be of its suit (%(card)s), or %(anywhere)s."))),
    _same(N_("At this table a side stack takes the same rank or one lower: only an ace goes on an ace.")),
    _same(N_("There are no jokers at this table.")),
    (r"All (?P<num>\d+) (?P<ranks>\S+) of the decks are already face up on the table: (?P<card>an? \S+) now must be a "
     r"mis-tap or a misread photo\.", N_("All %(num)s × %(ranks)s of the decks are already face up on the table: "
                                        "another %(card)s now must be a mis-tap or a misread photo.")),
    _same(N_("%(name)s's pay-off top is already entered (%(code)s): correct that entry in the history instead.")),
    _same(N_("%(name)s's pay-off top is already entered as unknown.")),
    _same(N_("A king does not decide who starts at this table: %(names)s shuffle the king back into the pay-off "
             "pile and turn a new top.")),
    _same(N_("Equal pay-off tops (%(names)s): toss a coin and enter who starts.")),
    _same(N_("Play has started: %(name)s started.")),
    _same(N_("The coin is tossed between %(names)s: one of them starts.")),
    (r"(?P<name>.+) holds (?P<hand>\d+) cards?: exactly (?P<owed>\d+) must be drawn to make (?P<total>\d+), not "
     r"(?P<num>\d+)\.", Nn_("%(name)s holds %(hand)s card: exactly %(owed)s must be drawn to make %(total)s, not "
                            "%(num)s.", "%(name)s holds %(hand)s cards: exactly %(owed)s must be drawn to make "
                            "%(total)s, not %(num)s.", "hand")),
    _same(N_("The %(claimed)s is under the top of %(name)s's side stack %(num)s: only the top card, the %(top)s, "
             "may be played.")),
    _same(N_("%(name)s's pay-off top is the %(top)s, not the %(claimed)s.")),
    _same(N_("%(name)s's side stack %(num)s is the %(top)s, not the %(claimed)s.")),
    _same(N_("Pile %(pile)s is complete: set its %(num)s cards aside until the stock runs out.")),
    _same(N_("%(name)s has no cards in hand (the stock could not refill it, SM-A8).")),
    (r"Each player has only one side stack: the card goes onto it\.",
     N_("Each player has only one side stack: the card goes onto it.")),
    (r"Each player has at most (?P<num>\d+) side stacks?: the card goes onto one of them\.",
     N_("Each player has at most %(num)s side stacks: the card goes onto one of them.")),
    _same(N_("At this table %(name)s's pay-off %(code)s must be built first: it goes on a new pile.")),
    _same(N_("At this table %(name)s's pay-off %(code)s must be built first: it goes on pile %(pile)s.")),
    _same(N_("The stock is short: shuffle the set-aside cards into it (now %(num)s).")),
    _same(N_("%(name)s builds the last pay-off card and wins the game.")),
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
    _same(N_("the game is a draw (SM-V6).")),
    _same(N_("equal pay-off piles (%(left)s), the game is a draw.")),
    _same(N_("%(name)s has the fewest pay-off cards left (%(left)s) and wins.")),
    (r"(?P<name>.+) has the fewest pay-off cards left \((?P<left>.+)\) and wins, (?P<points>\d+) points?\.",
     Nn_("%(name)s has the fewest pay-off cards left (%(left)s) and wins, %(points)s point.",
         "%(name)s has the fewest pay-off cards left (%(left)s) and wins, %(points)s points.", "points")),
    _same(N_("Nobody wins.")),
    _same(N_("%(name)s wins the match with %(num)s points (%(totals)s).")),
    _same(N_("At this table a side stack takes the same rank or one lower: %(card)s or %(card2)s goes on %(card3)s."),
          card=r"an? \S+", card2=r"an? \S+", card3=r"an? \S+"),
    # --- The common rulings at play (Rat-a-Tat Cat, the general rules, Shithead, Spite & Malice, Cabo) ---
    _same(N_("It is %(name)s's turn, not %(other)s's.")),
    (r"It is (?P<name>.+)'s turn, not (?P<other>.+)'s(?P<hint>.+)\.", N_("It is %(name)s's turn, not %(other)s's.")),
    _same(N_("%(name)s is in the middle of a turn.")),
    _same(N_("%(name)s is not playing this round.")),
    (r"The deck has only (?P<copies>\d+) × (?P<card>.+), and (?P<seen>\d+) (?:is|are) already known on the table: "
     r"this sighting would be one too many \(a misread or a wrong card\?\)\.",
     Nn_("The deck has only %(copies)s × %(card)s, and %(seen)s is already known on the table: this sighting "
         "would be one too many (a misread or a wrong card?).",
         "The deck has only %(copies)s × %(card)s, and %(seen)s are already known on the table: this sighting "
         "would be one too many (a misread or a wrong card?).", "seen")),
    (r"The deck has only (?P<copies>\d+) × (?P<card>.+), and (?P<seen>\d+) (?:is|are) already known on the table "
     r"\((?P<here>\d+) of them in this entry\): this sighting would be one too many \(a misread or a wrong card\?\)\.",
     Nn_("The deck has only %(copies)s × %(card)s, and %(seen)s is already known on the table (%(here)s of them in "
         "this entry): this sighting would be one too many (a misread or a wrong card?).",
         "The deck has only %(copies)s × %(card)s, and %(seen)s are already known on the table (%(here)s of them in "
         "this entry): this sighting would be one too many (a misread or a wrong card?).", "seen")),
    _same(N_("This card was known to be %(card)s (entry %(entry)s) but shows %(card2)s now (entry %(now)s).")),
    _same(N_("The card in %(owner)s's place %(place)s was known to be %(card)s (entry %(entry)s) but shows %(card2)s now "
             "(entry %(now)s)."), owner=".+"),
    _same(N_("The card in %(owner)s's slot %(slot)s was known to be %(card)s (entry %(entry)s) but shows %(card2)s now "
             "(entry %(now)s)."), owner=".+"),
    _same(N_("The match is over: no more entries can be played.")),
    _same(N_("%(rule)s does not refuse this entry, so there is nothing to override."), rule="[A-Z]+-[A-Z0-9]+"),
    _same(N_("That dispute is no longer open: it was decided already.")),
    _same(N_("There is no such dispute now: an entry it was about may have been corrected.")),
    _same(N_("That dispute reads differently now (an entry it points at was corrected): decide it again.")),
    _same(N_("Turn up the top card of the draw pile to start the discard pile first.")),
    _same(N_("%(name)s called and gets no more turns; the round is over, reveal the cards.")),
    _same(N_("The final turns are over: reveal the cards.")),
    _same(N_("%(name)s called: the caller takes no more turns, every other player takes one.")),
    _same(N_("%(name)s's Draw 2 is over: the card drawn was used or both draws were taken, so there is no further "
             "draw.")),
    _same(N_("Resolve the %(card)s first."), card="Peek|Swap|Draw 2|Super Peek"),
    (r"(?P<name>.+) holds no card to (?P<what>.+): draw or take one first\.",
     N_("%(name)s holds no card to use: draw or take one first.")),
    _same(N_("The discard pile has already been started.")),
    _same(N_("The draw pile is empty: reshuffle the discard pile first.")),
    (r"The draw pile is empty: reshuffle the discard pile first \(RTC-A8\)\.",
     N_("The draw pile is empty: reshuffle the discard pile first.")),
    _same(N_("The draw pile is empty: shuffle the discard pile into a new draw pile (enter a reshuffle) and turn up "
             "a new discard first.")),
    _same(N_("%(name)s already holds a card: replace a card with it or discard it.")),
    _same(N_("%(name)s already holds a card: take exactly one card per turn.")),
    _same(N_("Both Draw 2 draws come from the draw pile, never from the discard pile.")),
    _same(N_("The discard pile is empty: turn up a card to start it first.")),
    (r"(?P<card>" + _CARD + r") on the discard pile cannot be taken: a discarded power card is out of play\.",
     N_("%(card)s on the discard pile cannot be taken: a discarded power card is out of play.")),
    (r"Under this table's rules \(RTC-V5 forbidden\) a drawn power card may only be used or discarded, not put "
     r"into the row\.", N_("Under this table's rules (RTC-V5) a drawn power card may only be used or discarded, "
                           "not put into the row.")),
    _same(N_("Under this table's rules (RTC-V6) a drawn power card must be used.")),
    _same(N_("Under this table's rules (RTC-V6) a drawn Swap must be used.")),
    _same(N_("A card taken from the discard pile must replace one of your cards; it cannot be put straight back.")),
    _same(N_("A power card in a row has no power: powers work only for a card just drawn from the draw pile "
             "(RTC-19).")),
    _same(N_("Powers work only for a card just drawn from the draw pile during your turn.")),
    (r"(?P<card>" + _CARD + r") is not a power card\.", N_("%(card)s is not a power card.")),
    _same(N_("A card taken from the discard pile gives no power (RTC-11); powers work only for a card drawn from "
             "the draw pile.")),
    _same(N_("There is no Peek to resolve: a Peek is used right after it is drawn.")),
    _same(N_("%(name)s has no cards this round.")),
    _same(N_("A Peek looks at one of your own cards.")),
    _same(N_("There is no Swap to resolve: a Swap is used right after it is drawn.")),
    _same(N_("Name your card and the other player's card to swap.")),
    _same(N_("A Swap exchanges one of your cards with a card of another player, not two of your own.")),
    _same(N_("Under this table's rules (RTC-V11) the caller %(name)s's cards are locked after the call.")),
    (r"With the outer cards face up \(RTC-V8 outer_face_up\) only face-down cards may be swapped\.",
     N_("With the outer cards face up (RTC-V8) only face-down cards may be swapped.")),
    _same(N_("%(name)s has already called this round: only one call per round.")),
    _same(N_("The round is already over.")),
    _same(N_("Under this table's rules (RTC-V9) a player calls instead of taking a turn, at the start of their own "
             "turn.")),
    _same(N_("A player calls at the end of their own turn, after taking a card (RTC-20: calling is not a turn).")),
    _same(N_("A player calls only at the end of their own turn, before the next player acts.")),
    _same(N_("Under this table's rules (RTC-V10) nobody may call before %(num)s full round(s) of turns.")),
    _same(N_("The draw pile still has %(num)s card(s): reshuffle only when it is empty.")),
    _same(N_("There is no discard pile to reshuffle.")),
    _same(N_("This match is not timed.")),
    _same(N_("Time was already called.")),
    _same(N_("Cards are revealed only when the round is over: after the call and the final turns (RTC-42).")),
    _same(N_("%(name)s's cards are already revealed (correct that entry instead).")),
    _same(N_("Name all %(num)s cards: the round is scored from them.")),
    _same(N_("%(name)s's slot %(slot)s holds no revealed power card to replace."), slot=r"\d"),
    _same(N_("Name the card drawn to replace the power card.")),
    _same(N_("The discard pile is empty.")),
    _same(N_("The initial peek happens once, before the player's first turn.")),
    _same(N_("The initial peek is at the two outer cards, slots 1 and 4.")),
    # Shithead's rulings at play
    _same(N_("It is %(name)s's turn, not %(other)s's (four of a kind out of turn is an interrupt).")),
    (r"The card to beat is the (?P<rank>\w+)(?P<under> under the 3s)?: an? (?P<played>\w+) is lower \(play an? \w+ or "
     r"higher, or a 2, 3 or 10\)\.",
     _under_3s(N_("The card to beat is the %(rank)s: a %(played)s is lower (play a %(rank)s or higher, or a 2, 3 or 10)."),
               N_("The card to beat is the %(rank)s under the 3s: a %(played)s is lower (play a %(rank)s or higher, or "
                  "a 2, 3 or 10)."))),
    (r"A 7(?P<under> under the 3s)? is on top: the next card must be a 7 or lower, or a 2, 3 or 10\.",
     _under_3s(N_("A 7 is on top: the next card must be a 7 or lower, or a 2, 3 or 10."),
               N_("A 7 under the 3s is on top: the next card must be a 7 or lower, or a 2, 3 or 10."))),
    (r"The card to beat is the (?P<rank>\w+)(?P<under> under the 3s)?: an? (?P<played>\w+) is lower \(play an? \w+ or "
     r"higher, or a 2 or 10\)\.",
     _under_3s(N_("The card to beat is the %(rank)s: a %(played)s is lower (play a %(rank)s or higher, or a 2 or 10)."),
               N_("The card to beat is the %(rank)s under the 3s: a %(played)s is lower (play a %(rank)s or higher, or "
                  "a 2 or 10)."))),
    (r"A 7(?P<under> under the 3s)? is on top: the next card must be a 7 or lower, or a 2 or 10\.",
     _under_3s(N_("A 7 is on top: the next card must be a 7 or lower, or a 2 or 10."),
               N_("A 7 under the 3s is on top: the next card must be a 7 or lower, or a 2 or 10."))),
    (r"A 7(?P<under> under the 3s)? is on top: at this table a 10 may not burn it\.",
     _under_3s(N_("A 7 is on top: at this table a 10 may not burn it."),
               N_("A 7 under the 3s is on top: at this table a 10 may not burn it."))),
    # ... where the house rules let other cards go on anything (SH-V2, SH-V4, SH-V5, SH-V15): the list is read
    # by ``_anywhere_words``
    (r"The card to beat is the (?P<rank>\w+)(?P<under> under the 3s)?: an? (?P<played>\w+) is lower \(play an? \w+ or "
     r"higher, or (?P<anywhere>an? .+)\)\.",
     _under_3s(N_("The card to beat is the %(rank)s: a %(played)s is lower (play a %(rank)s or higher, or %(anywhere)s)."),
               N_("The card to beat is the %(rank)s under the 3s: a %(played)s is lower (play a %(rank)s or higher, or "
                  "%(anywhere)s)."))),
    (r"A 7(?P<under> under the 3s)? is on top: the next card must be a 7 or lower, or (?P<anywhere>an? .+)\.",
     _under_3s(N_("A 7 is on top: the next card must be a 7 or lower, or %(anywhere)s."),
               N_("A 7 under the 3s is on top: the next card must be a 7 or lower, or %(anywhere)s."))),
    _same(N_("The pile is empty: picking it up would be a pass (SH-10). Play any card.")),
    _same(N_("A play puts at least one card on the pile.")),
    _same(N_("Name every card played: they are all face up on the pile.")),
    _same(N_("Say which rank the joker plays as.")),
    _same(N_("A play is cards of one rank only: %(cards)s.")),
    _same(N_("Face-up cards are played one at a time at this table.")),
    _same(N_("Face-down cards are turned over one at a time.")),
    (r"(?P<name>.+) has only (?P<num>\d+) cards? in hand\.", N_("%(name)s has only %(num)s card(s) in hand.")),
    _same(N_("%(name)s is out of this game.")),
    _same(N_("%(name)s has no cards left.")),
    _same(N_("Play has not started: enter who starts first.")),
    _same(N_("Play has started: the face-up cards and the swaps are settled.")),
    _same(N_("Enter %(name)s's face-up cards first.")),
    _same(N_("Enter every player's face-up cards first: %(names)s.")),
    _same(N_("At this table face-up cards are not swapped.")),
    _same(N_("At this table nobody plays out of turn.")),
    _same(N_("With only two players left nobody plays out of turn.")),
    _same(N_("It is %(name)s's own turn: play the cards as the turn.")),
    (r"An interrupt must complete four of a kind: that makes (?P<num>\d+) (?P<rank>\w+)s\.",
     N_("An interrupt must complete four of a kind: that makes %(num)s × %(rank)s.")),
    _same(N_("The pile is empty: an interrupt completes four of a kind on top of the pile.")),
    (r"The top of the pile is (?P<card>\S+): an interrupt completes four of a kind of the rank on top, not an? "
     r"(?P<rank>\w+)\.", N_("The top of the pile is %(card)s: an interrupt completes four of a kind of the rank on top, "
                           "not a %(rank)s.")),
    _same(N_("Face-down cards cannot interrupt (SH-A9).")),
    _same(N_("Every %(card)s is already somewhere else on the table: this must be a mis-tap or a misread photo.")),
    # a swap before play (SH-3) naming a card seen elsewhere (GEN-3): the hand card put face up, or the face-up
    # card nobody entered that it takes into the hand
    _same(N_("Every %(card)s is already somewhere else on the table (%(where)s), so %(name)s has none in the hand to "
             "swap face up: this must be a mis-tap or a misread photo."), card=r"\S+"),
    _same(N_("Every %(card)s is already somewhere else on the table (%(where)s), so the face-up card %(name)s takes "
             "into the hand cannot be one: this must be a mis-tap or a misread photo."), card=r"\S+"),
    # face-up cards entered (SH-2), or the lowest card shown to start (SH-4), that conservation rules out (GEN-3)
    _same(N_("Every %(card)s is already somewhere else on the table (%(where)s), so none of %(name)s's face-up cards "
             "can be one: this must be a mis-tap or a misread photo."), card=r"\S+"),
    _same(N_("%(name)s's face-up cards name %(card)s more times than this table's deck still holds (the others: "
             "%(where)s): this must be a mis-tap or a misread photo."), card=r"\S+"),
    _same(N_("%(name)s's face-up cards name %(card)s more times than this table's deck holds: this must be a mis-tap "
             "or a misread photo."), card=r"\S+"),
    _same(N_("Every %(card)s is already somewhere else on the table (%(where)s), so the lowest card %(name)s shows "
             "to start cannot be one: this must be a mis-tap or a misread photo."), card=r"\S+"),
    _same(N_("Every %(card)s is already somewhere else on the table (%(where)s): this must be a mis-tap or a misread "
             "photo."), card=r"\S+"),  # where each copy is: read by ``_where_words``
    _same(N_("There is no %(card)s in this table's deck.")),
    (r"The table knows every card in (?P<name>.+)'s hand \((?P<known>.+)\): (?P<cards>.+) (?:is|are) not among them\.",
     N_("The table knows every card in %(name)s's hand (%(known)s): %(cards)s is not among them.")),
    _same(N_("%(card)s is not among %(name)s's face-up cards.")),
    # Cabo / Cambio: why a round scored as it did (each sentence of the engine's explanation)
    _same(N_("The draw pile ran out and ended the round (CAB-22).")),
    _same(N_("Kamikaze: %(name)s ended on 12, 12, 13 and 13, so scores 0 and everyone else scores 50 (CAB-42).")),
    _same(N_("Nobody called, so everyone scores their sum and nobody gets the caller's 0 (CAB-40).")),
    _same(N_("%(name)s called with the lowest sum, %(low)s (a tie counts), so scores 0; everyone else scores their "
             "sum (CAB-40)."), low=r"-?\d+"),
    _same(N_("%(name)s called with the lowest sum, %(low)s, so scores 0; everyone else scores their sum (CAB-40)."),
          low=r"-?\d+"),
    _same(N_("%(name)s called with %(sum)s, not the lowest sum (%(low)s), so scores %(a)s + 10 = %(score)s (CAB-40)."),
          low=r"-?\d+"),
    (r"(?P<names>.+) (?:has|have) the lowest sum, (?P<low>-?\d+), and scores? 0 \(CAB-41\)\.",
     N_("%(names)s: the lowest sum, %(low)s, scores 0 (CAB-41).")),
    _same(N_("%(name)s called but was not lowest: %(sum)s + 5 = %(score)s.")),
    _same(N_("Everyone scores their sum (CAB-44).")),
    _same(N_("%(name)s has the lowest score, %(score)s, and wins the round."), name="[^,]+"),
    _same(N_("%(names)s tie on %(score)s: under this table's tie rule a tied round has no winner (CAB-V9).")),
    (r"(?P<names>.+) tie on (?P<score>-?\d+): under this table's tie rule \(CAB-V9, CAB-A4\) (?P<winners>.+) wins? the "
     r"round\.", N_("%(names)s tie on %(score)s: under this table's tie rule (CAB-V9, CAB-A4) the round goes to "
                    "%(winners)s.")),
    (r"(?P<names>.+) reached exactly 100 and drops? to 50 \(CAB-43\)\.", N_("%(names)s: exactly 100, down to 50 (CAB-43).")),
    # Cabo / Cambio's rulings at play
    _same(N_("%(name)s has no card in place %(place)s.")),
    _same(N_("%(name)s first gives one of their cards to %(other)s for the card snapped from place %(place)s.")),
    _same(N_("The round is over: turn up the cards.")),
    _same(N_("The draw pile ran out, so the round is over: turn up the cards.")),
    _same(N_("%(name)s already holds a card: keep it in place of a card, or discard it.")),
    _same(N_("The first look happens once, before the player's first turn.")),
    _same(N_("The first look is at two different cards.")),
    _same(N_("The first look is at two different cards: one place was given twice.")),
    _same(N_("The first look is at the two cards nearest you, places 3 and 4 (the bottom row of the square).")),
    _same(N_("The draw pile is empty: take the top discard or call.")),
    _same(N_("The draw pile is empty: shuffle the discard pile, all but its top card, into a new draw pile first "
             "(enter a reshuffle).")),
    _same(N_("This table plays without matching exchanges: keep the card in place of one card, or discard it.")),
    _same(N_("A matching exchange turns up two or more different cards of your own.")),
    _same(N_("The cards entered do not all match.")),
    _same(N_("A card taken from the discard pile must be kept in place of one of your cards (or of a matching set); "
             "it cannot be put straight back.")),
    _same(N_("A card taken from the discard pile gives no power, only its points (CAB-3).")),
    _same(N_("A Peek (7 or 8) looks at one of your own cards.")),
    _same(N_("A Spy (9 or 10) looks at another player's card.")),
    _same(N_("Name both cards to swap.")),
    _same(N_("A Swap exchanges cards of two different players.")),
    _same(N_("A blind Swap exchanges one of your own cards with another player's card.")),
    _same(N_("%(name)s called: nobody may swap the caller's cards.")),
    _same(N_("%(name)s called: nobody may snap the caller's cards or change them.")),
    _same(N_("This table plays without snapping.")),
    _same(N_("No snapping once the cards are being turned up for scoring.")),
    _same(N_("A card was already snapped onto this discard: only the first good snap counts, and nobody may snap "
             "onto a snapped card.")),
    _same(N_("%(name)s already snapped wrongly onto this discard.")),
    _same(N_("Name the snapped card and the discard it lands on, or say whether they match.")),
    _same(N_("The top of the discard pile is %(card)s (snapped onto a card of that rank at entry %(entry)s): it cannot "
             "be %(card2)s."), card="an? .+", card2="an? .+"),
    _same(N_("The card in hand is kept here, not discarded: only a failed claim without a penalty (1st edition) puts "
             "it onto the discard pile.")),
    # Spite & Malice's rulings at play
    (r"That pile needs (?:an?) (?P<need>\w+) \(or a king\), not (?:an?) (?P<card>\w+)\.",
     N_("That pile needs %(need)s (or a king), not %(card)s.")),
    (r"Only an ace or a king starts a pile, not (?:an?) (?P<card>\w+)\.", N_("Only an ace or a king starts a pile, not %(card)s.")),
    (r"Only an ace starts a pile, not (?:an?) (?P<card>\w+)\.", N_("Only an ace starts a pile, not %(card)s.")),
    _same(N_("At this table a king may not start a pile: only an ace starts one.")),
    _same(N_("%(name)s draws %(num)s from the stock first (the hand is empty).")),
    _same(N_("%(name)s draws %(num)s from the stock first (back up to 5).")),
    _same(N_("%(name)s's turn ended with the discard onto a side stack: it is %(other)s's turn now.")),
    _same(N_("%(name)s's turn ended with the discard: only the refill is left.")),
    _same(N_("%(name)s discarded and draws %(num)s from the stock to end the turn (SM-V5); then it is the next "
             "player's turn."), num=r"\d+"),
    _same(N_("%(name)s has already discarded this turn: one discard ends the turn.")),
    _same(N_("A card on a building pile stays there until the pile is complete.")),
    _same(N_("A pay-off card goes only onto a building pile, never onto a side stack.")),
    _same(N_("Cards never move from one side stack to another: only a hand card goes onto a side stack.")),
    (r"There (?:is|are) already (?P<num>\d+) building piles?, the most this table allows: build on (?:it|one of them)\.",
     Nn_("There is already %(num)s building pile, the most this table allows: build on it.",
         "There are already %(num)s building piles, the most this table allows: build on one of them.", "num")),
    _same(N_("Play has not started: enter the pay-off tops (and who starts) first.")),
    _same(N_("Enter the pay-off tops first: %(names)s.")),
    _same(N_("%(name)s has no pay-off cards left.")),
    _same(N_("%(name)s has no cards in hand.")),
    _same(N_("%(name)s has no side stack %(num)s: it is empty.")),
    (r"No draw is owed now: (?P<name>.+) holds (?P<num>\d+) cards?\.", N_("No draw is owed now: %(name)s holds %(num)s card(s).")),
    (r"The stock holds only (?P<num>\d+) cards?\.", N_("The stock holds only %(num)s card(s).")),
    _same(N_("Enter %(name)s's new pay-off top first (tap unknown if nobody saw it): then the card built from it "
             "can be checked.")),
    _same(N_("Every %(card)s of the decks (%(num)s) is already face up on the table: this must be a mis-tap or a "
             "misread photo."), card=r"\S+"),
    # Shithead: what beats the pile, and the reminders the referee owes the table after a play
    _same(N_("anything")),
    _same(N_("anything (a 2 is on top)")),
    (r"an? (?P<rank>\w+) \(the card declared, SH-4\)", N_("a %(rank)s (the card declared, SH-4)")),
    _same(N_("a 7 or lower, or a 2, 3 or 10")),
    (r"an? (?P<rank>\w+) or higher, or a 2, 3 or 10", N_("a %(rank)s or higher, or a 2, 3 or 10")),
    _same(N_("a 7 or lower, or a 2 or 10")),
    (r"an? (?P<rank>\w+) or higher, or a 2 or 10", N_("a %(rank)s or higher, or a 2 or 10")),
    (r"a 7 or lower, or (?P<anywhere>an? .+)", N_("a 7 or lower, or %(anywhere)s")),
    (r"an? (?P<rank>\w+) or higher, or (?P<anywhere>an? .+)", N_("a %(rank)s or higher, or %(anywhere)s")),
    (r"a card of the 9's suit \((?P<card>.+)\), or (?P<anywhere>an? .+)", N_("a card of the 9's suit (%(card)s), or "
                                                                          "%(anywhere)s")),
    _same(N_("%(name)s starts: the higher pay-off top (%(tops)s).")),
    _same(N_("%(name)s starts: entered by the table.")),
    _same(N_("%(name)s starts and must play the %(rank)s."), rank=r"\w+"),
    _same(N_("%(name)s starts.")),
    _same(N_("Burned: the pile goes out of play (a 10).")),
    _same(N_("Burned: the pile goes out of play (four of a kind).")),
    _same(N_("%(name)s: draw %(num)s.")),
    _same(N_("%(name)s is out, number %(num)s.")),
    _same(N_("%(name)s plays again.")),
    _same(N_("The direction of play reverses.")),
    _same(N_("Skipped: %(names)s.")),
    _same(N_("Everyone else is skipped: %(name)s plays again.")),
    (r"(?P<name>.+) picks up (?P<num>\d+) cards?; (?P<next>.+) leads onto the empty pile\.",
     N_("%(name)s picks up the pile (%(num)s); %(next)s leads onto the empty pile.")),
    _same(N_("%(name)s interrupts: %(other)s's turn is lost.")),
    _same(N_("%(name)s adds %(cards)s.")),
    # Spite & Malice: what the table owes the referee, and what happened
    _same(N_("%(name)s: turn up the pay-off top and enter it.")),
    (r"(?P<name>.+): turn the next pay-off card and enter it \((?P<num>\d+) left\)\.",
     Nn_("%(name)s: turn the next pay-off card and enter it (%(num)s left).",
         "%(name)s: turn the next pay-off card and enter it (%(num)s left).", "num")),
    _same(N_("Enter who starts.")),
    _same(N_("%(name)s: draw %(num)s from the stock (hand %(hand)s → %(after)s).")),
    _same(N_("%(name)s: build, then end the turn with one hand card onto a side stack.")),
    _same(N_("Not every pay-off top is known: enter who starts.")),
    _same(N_("Equal pay-off tops: %(names)s shuffle their pay-off piles and turn new tops.")),
    _same(N_("%(name)s has built every hand card: draw 5 more and carry on.")),
    _same(N_("Pile %(pile)s is complete: shuffle its %(num)s cards into the stock (now %(stock)s).")),
    _same(N_("Game %(num)s: shuffle all the decks together, deal the pay-off piles and hands, and enter the pay-off tops.")),
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
_RANK_LETTERS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}  # a rank as a sentence names it by its letter


def _card_phrase(phrase: str | None, gettext: Callable[[str], str]) -> str:
    """ "a Peek", "an 8", "A Draw 2", "a queen", "7♥" -> the card as the screen names it."""
    if not phrase:
        return ""
    word = phrase.split(" ", 1)[1] if phrase[:2].lower() in ("a ", "an") and " " in phrase else phrase
    if word.lower() in RANK_WORDS:
        return gettext(RANK_WORDS[word.lower()])
    if word in _RANK_LETTERS:  # a bare rank by its letter ("a J is lower"), as the buttons say it
        return gettext(RANK_WORDS[_RANK_LETTERS[word]])
    if word in CARD_WORDS:
        return gettext(CARD_WORDS[word])
    return word


_LTR_RUNS = re.compile(r"(?<![\w\u2066])(?:(?:10|[2-9AKQJ])[♠♥♦♣]|[A-Z]{2,3}-[A-Z]?\d+)(?![\w\u2069])")


def isolated(text: str) -> str:
    """``text`` (a sentence of a right-to-left language) with each card with a suit ("4♠") and each rule
    id ("SH-12") in a left-to-right isolate, so that the suit stays after the rank and the id in one
    piece; what is isolated already is left as it is."""
    return _LTR_RUNS.sub(lambda m: LRI + m.group(0) + PDI, text)


MAQAF = "\u05be"  # Hebrew hyphen: the prefix "and" (ו) joins a name in Latin letters or digits by it
WORD_JOINER = "\u2060"  # no line break here


def and_joined(names: list[str], word: str) -> str:
    """``names`` joined by the language's "and" (``word``); a prefix "and" (Hebrew "ו", which ends
    without a space) takes a maqaf before a name that does not start with a Hebrew letter: "ו־Ana" (and no
    line break after it)."""
    if word.endswith(" ") or not word.strip():
        return word.join(names)
    out = names[0] if names else ""
    for name in names[1:]:
        out += word + (MAQAF + WORD_JOINER if name and not "\u05d0" <= name[0] <= "\u05ea" else "") + name
    return out


_ANYWHERE = re.compile(r"(?:an? (?P<first>\w+)(?P<more>(?:, \w+)*)(?: or (?P<last>\w+))?)?(?P<joker>(?:, or )?a joker)?")


def _anywhere_words(value: str, gettext: Callable[[str], str]) -> str:
    """The cards that go on anything, as a Shithead sentence lists them ("a 2, 3, 9 or 10, or a joker"),
    said in the catalogue's language; as said if it is not such a list."""
    found = _ANYWHERE.fullmatch(value)
    if found is None or not (found["first"] or found["joker"]):
        return value
    ranks = [r for r in (found["first"], *found["more"].split(", "), found["last"]) if r]
    said = ""
    if len(ranks) == 1:
        said = gettext(N_("a %(rank)s")) % {"rank": ranks[0]}
    elif ranks:
        said = gettext(N_("a %(ranks)s or %(last)s")) % {"ranks": ", ".join(ranks[:-1]), "last": ranks[-1]}
    if found["joker"]:
        said = gettext(N_("%(cards)s, or a joker")) % {"cards": said} if said else gettext(N_("a joker"))
    return said


_PLACES = ((re.compile(r"the pile"), N_("the pile")), (re.compile(r"the burned cards"), N_("the burned cards")),
           (re.compile(r"(?P<name>.+)'s face-up cards"), N_("%(name)s's face-up cards")),
           (re.compile(r"(?P<name>.+)'s hand"), N_("%(name)s's hand")))


def _where_words(value: str, gettext: Callable[[str], str]) -> str:
    """Where a Shithead card already is ("Mom's face-up cards, the pile"), said in the catalogue's language;
    a place it does not know stays as said."""
    said = []
    for place in value.split(", "):
        for pattern, words in _PLACES:
            found = pattern.fullmatch(place)
            if found:
                said.append(gettext(words) % found.groupdict())
                break
        else:
            said.append(place)
    return ", ".join(said)


def _field(key: str, value: str | None, gettext: Callable[[str], str], rtl: bool) -> str:
    if value is None:
        return ""
    if key == "name" and value == TABLE:  # who ended a match on the phone for everyone (games/ending.py)
        return gettext(N_("The table"))
    if key.startswith("anywhere"):
        return _anywhere_words(value, gettext)
    if key.startswith("where"):
        return _where_words(value, gettext)
    if key.startswith(("card", "need", "code")):
        value = _card_phrase(value, gettext)
    elif key.startswith(("names", "winners")):  # "Ana and Ben", "Ana, Ben and Cy"
        value = and_joined(value.split(" and "), gettext(" and "))
    elif key.startswith("ranks"):  # "kings", "7s"
        singular = _PLURAL_RANKS.get(value, value[:-1] if value.endswith("s") else value)
        value = _card_phrase(singular, gettext)
    elif key.startswith(("rank", "played")) and value in _RANK_LETTERS:  # "a J or higher": the buttons say "Fante"
        value = gettext(RANK_WORDS[_RANK_LETTERS[value]])
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
                said = ngettext(singular, plural, int(raw[count])) % fields
            else:
                said = gettext(words) % fields
            return prefixes_joined(said) if rtl else said
    return None


_PREFIX = re.compile("(?<![\u05d0-\u05ea])([\u05d1\u05d5\u05db\u05dc\u05de\u05e9\u05d4])" + MAQAF
                     + "([\u2066-\u2068]?)(.)")


def prefixes_joined(text: str) -> str:
    """A Hebrew sentence with each one-letter prefix ("ל־", "ו־", "ה־", written before a name, a number or a
    card the catalogue cannot know) joined to its word as Hebrew writes it: straight onto a Hebrew word
    ("לסבא", not "ל־סבא"), and by a maqaf that no line break parts from what follows ("ל־Ana", "ה־4")."""
    def joined(m: re.Match) -> str:
        letter, isolate, first = m.groups()
        if first == WORD_JOINER:
            return m.group(0)  # joined already (``and_joined``)
        if "\u05d0" <= first <= "\u05ea":
            return letter + isolate + first
        return letter + MAQAF + WORD_JOINER + isolate + first
    return _PREFIX.sub(joined, text)


_STOP = re.compile(r"(?<=[.!])\s+")  # where a sentence may end: the next may begin with a name in any script


def say_all(text: str, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
            rtl: bool = False) -> str | None:
    """A text of one sentence or several (an explanation, a result), read by :func:`say` sentence by
    sentence; None when it is not known. A full stop may also stand inside a name ("J. Li"), so the
    shortest sentences that are all known are taken, the whole text last."""
    starts = [0] + [m.end() for m in _STOP.finditer(text)]
    ends = [m.start() for m in _STOP.finditer(text)] + [len(text)]
    rest: list[str | None] = [None] * len(starts) + [""]  # rest[i]: the text from starts[i] on, said
    for i in range(len(starts) - 1, -1, -1):
        for j in range(i, len(starts)):
            if rest[j + 1] is None:
                continue
            said = say(text[starts[i]:ends[j]], gettext, ngettext, rtl)
            if said is not None:
                rest[i] = said + (" " + rest[j + 1] if rest[j + 1] else "")
                break
    return rest[0]
