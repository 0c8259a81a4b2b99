"""Rat-a-Tat Cat's entries and rounds in the phone's language."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l
from markupsafe import Markup

from ...games import ratatat_moves as m
from ...i18n_rules import CARD_WORDS, card_name, engine_words, match_words, names_words
from . import common

TITLE = _l("Rat-a-Tat Cat")  # as the players of each language call it
PUBLISHED = True  # the house rules start at the publisher's (Gamewright's) rules
DECKS = {"ratatat": _l("Rat-a-Tat Cat deck (classic)"),
         "ratatat_deluxe": _l("Rat-a-Tat Cat deck (deluxe, with Super Peek)")}


outcome = match_words


def entry(move: Any, players: tuple[str, ...], outcome: dict[str, Any] | None = None) -> str:
    """A Rat-a-Tat Cat entry said from its fields (``outcome``: the game's ``entry_outcome``)."""
    seat = getattr(move, "seat", None)
    who = players[seat] if seat is not None else _("The table")

    def card(code: Any) -> str:
        return card_name(code) if code not in (None, "unknown") else str(CARD_WORDS["unknown"])

    match move:
        case m.TurnUp(card=c):
            return _("%(card)s is turned up on the discard pile.", card=card(c))
        case m.InitialPeek(seen=seen) if outcome and outcome.get("face_up"):
            shown = [card(c) for c in seen if c is not None]
            return (_("%(name)s's outer cards are turned face up: %(cards)s.", name=who, cards=names_words(shown))
                    if shown else _("%(name)s's outer cards are turned face up.", name=who))
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
    shared = common(move, players, entry)
    if shared is not None:
        return shared
    raise LookupError(type(move).__name__)


def round_words(view: dict, last: dict) -> str | Markup:
    """Why a Rat-a-Tat Cat round went as it did (RTC-51, the tie rule RTC-V1), in the phone's language:
    said again from the round's scores, its caller and the table's tie rule; the engine's own sentence
    whenever the two could disagree."""
    english = last.get("explanation", "")  # (in English too: the engine's names the tie rule's setting)
    try:
        scores, winners, caller = last["scores"], list(last["winners"]), last.get("caller")
        policy = view["rules"]["tie_policy"]
        low = min(scores.values())
        lowest = [name for name, score in scores.items() if score == low]
        if len(lowest) == 1 and winners == lowest:
            return _("%(name)s has the lowest score, %(score)s, and wins the round (RTC-51).", name=lowest[0], score=low)
        tie = _("%(names)s tie on %(score)s.", names=names_words(lowest), score=low)
        if policy == "no_winner" and not winners:
            return tie + " " + _("Under this table's tie rule (RTC-V1) a tied round has no winner.")
        if sorted(winners) == sorted(lowest):
            return tie + " " + (_("Under this table's tie rule (RTC-V1) they both win.") if len(lowest) == 2
                                else _("Under this table's tie rule (RTC-V1) they all win."))
        if caller in lowest and winners == [caller]:
            return tie + " " + _("Under this table's tie rule (RTC-V1) the caller, %(name)s, wins the tie.", name=caller)
        if caller in lowest and caller not in winners and sorted(winners + [caller]) == sorted(lowest):
            return tie + " " + _("Under this table's tie rule (RTC-V1) the caller, %(name)s, loses the tie.",
                                 name=caller)
    except (KeyError, TypeError, ValueError):
        pass
    return engine_words(english)
