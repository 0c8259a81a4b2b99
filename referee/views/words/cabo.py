"""Cabo / Cambio's entries in the phone's language."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l, ngettext

from ...games import cabo_moves as m
from ...i18n_rules import CARD_WORDS, card_label, match_words
from . import common

TITLE = _l("Cabo / Cambio")  # as the players of each language call it
PUBLISHED = True  # the house rules start at the publisher's (Bezier Games') 2nd edition
DECKS = {"cabo": _l("Cabo deck (0 to 13)")}  # the standard deck is every game's


outcome = match_words


def _card(code: Any) -> str:
    return str(CARD_WORDS["unknown"]) if code in (None, "unknown") else card_label(m.label(code))


def failed_words(who: str, players: tuple[str, ...], move: Any, failed: dict) -> str:
    """A snap that did not match (CAB-6), as what happened (``cabo_apply.failed_play``): the card went back and
    the snapper took a penalty card."""
    card = _card
    given, places = failed.get("penalty", 0), list(failed.get("places") or ())
    if not given:
        cost = _("no penalty card (the draw pile is empty)")
    elif given == 1 and places:
        cost = _("a penalty card (place %(place)s)", place=places[0])
    else:
        cost = ngettext("%(num)s penalty card (places %(places)s)", "%(num)s penalty cards (places %(places)s)",
                        given, num=given, places=", ".join(map(str, places)))
    onto = failed.get("onto")
    snapped = card(failed.get("card", move.card))
    if move.owner in (None, move.seat):
        if onto is None:
            return _("%(name)s snaps their own place %(place)s (%(card)s), which does not match the discard: it goes "
                     "back, and %(name)s takes %(cost)s (CAB-6).", name=who, place=move.slot, card=snapped, cost=cost)
        return _("%(name)s snaps their own place %(place)s (%(card)s), which does not match the %(top)s: it goes "
                 "back, and %(name)s takes %(cost)s (CAB-6).", name=who, place=move.slot, card=snapped, top=card(onto),
                 cost=cost)
    if onto is None:
        return _("%(name)s snaps %(owner)s's place %(place)s (%(card)s), which does not match the discard: it goes "
                 "back, and %(name)s takes %(cost)s (CAB-6).", name=who, owner=players[move.owner], place=move.slot,
                 card=snapped, cost=cost)
    return _("%(name)s snaps %(owner)s's place %(place)s (%(card)s), which does not match the %(top)s: it goes "
             "back, and %(name)s takes %(cost)s (CAB-6).", name=who, owner=players[move.owner], place=move.slot,
             card=snapped, top=card(onto), cost=cost)


def entry(move: Any, players: tuple[str, ...], failed: dict | None = None) -> str:
    """A Cabo / Cambio entry said from its fields (places numbered as CAB-1 numbers them); ``failed``: a snap
    that did not match, said as what happened."""
    shared = common(move, players, entry)
    if shared is not None:
        return shared
    seat = getattr(move, "seat", None)
    who = players[seat] if seat is not None else _("The table")
    if failed is not None and isinstance(move, m.Snap):
        return failed_words(who, players, move, failed)
    card = _card

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
        case m.TakeDiscard(card=None):
            return _("%(name)s takes the top card of the discard pile.", name=who)
        case m.TakeDiscard(card=c):  # it lay face up: every seat saw it (CAB-3)
            return _("%(name)s takes the top card of the discard pile, %(card)s.", name=who, card=card(c))
        case m.Replace(slot=slot, out=out):
            return _("%(name)s puts the card into place %(place)s and discards %(card)s.", name=who, place=slot,
                     card=card(out))
        case m.Match(slots=slots, cards=codes, out=out) if codes and out is not None:  # a failed claim, 1st edition
            return _("%(name)s claims places %(places)s match, showing %(cards)s, and discards %(card)s.", name=who,
                     places=", ".join(map(str, slots)), cards=cards(codes), card=card(out))
        case m.Match(slots=slots, out=out) if out is not None:
            return _("%(name)s claims places %(places)s match, and discards %(card)s.", name=who,
                     places=", ".join(map(str, slots)), card=card(out))
        case m.Match(slots=slots, cards=codes) if codes and not m.all_match(move):
            return _("%(name)s claims places %(places)s match, showing %(cards)s: they do not all match (CAB-5).",
                     name=who, places=", ".join(map(str, slots)), cards=cards(codes))
        case m.Match(slots=slots, cards=codes) if codes:
            return _("%(name)s claims places %(places)s match, showing %(cards)s.", name=who,
                     places=", ".join(map(str, slots)), cards=cards(codes))
        case m.Match(slots=slots) if not m.all_match(move):
            return _("%(name)s claims places %(places)s match: they do not all match (CAB-5).", name=who,
                     places=", ".join(map(str, slots)))
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
