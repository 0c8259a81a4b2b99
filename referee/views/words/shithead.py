"""Shithead's entries and match results in the phone's language."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l, ngettext

from ...games import shithead_moves as m
from ...games.shithead_rules import say_card, say_cards
from ...i18n_rules import CARD_WORDS, card_label, names_words
from . import common

TITLE = _l("Shithead")  # as the players of each language call it



def failed_words(who: str, failed: dict) -> str:
    """A table card that could not go on the pile (SH-18, SH-19), as what happened (``failed_play``)."""
    card = card_label(say_card(failed["card"]))
    top, why, under = failed.get("top"), failed.get("why", "SH-12"), failed.get("under")
    if top is None:
        clause = _("cannot go")
    elif why == "SH-V15":
        clause = _("may not burn the 7 under the 3s at this table") if under else _("may not burn the 7 at this table")
    else:
        top = card_label(top)
        clause = _("cannot go on the %(top)s under the 3s", top=top) if under else _("cannot go on the %(top)s", top=top)
    if failed.get("zone") == "facedown":
        return _("%(name)s turns over the face-down %(card)s, which %(clause)s (%(rule)s), so %(name)s picks up the "
                 "pile and the %(card)s (SH-19).", name=who, card=card, clause=clause, rule=why)
    if failed.get("takes", True):
        return _("%(name)s plays the face-up %(card)s, which %(clause)s (%(rule)s), so %(name)s picks up the pile "
                 "and the %(card)s (SH-18).", name=who, card=card, clause=clause, rule=why)
    return _("%(name)s plays the face-up %(card)s, which %(clause)s (%(rule)s), so %(name)s picks up the pile and "
             "the %(card)s stays face up (SH-18).", name=who, card=card, clause=clause, rule=why)


def entry(move: Any, players: tuple[str, ...], failed: dict | None = None) -> str:
    """A Shithead entry said from its fields (cards as the screen names them); ``failed``: a table card
    that could not go on the pile, said as what happened."""
    shared = common(move, players, entry)
    if shared is not None:
        return shared
    who = players[move.seat] if getattr(move, "seat", None) is not None else _("The table")
    if failed is not None and isinstance(move, m.Play):
        return failed_words(who, failed)

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


def outcome(view: dict) -> str:
    """How the match ended (SH-52): who went out first or who is the Shithead, then, over several games, who
    wins the match. Raises KeyError and the like when the view does not fit (the engine's words are shown)."""
    history = view["history"]
    last = history[-1]
    winners = list(view.get("winners") or [])
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
                                   names=names_words(winners), best=best)
        else:
            said += " " + ngettext("After %(games)s games %(names)s wins the match with the fewest Shithead "
                                   "points (%(best)s).", "After %(games)s games %(names)s win the match with the "
                                   "fewest Shithead points (%(best)s each).", len(winners), games=len(history),
                                   names=names_words(winners), best=best)
    return said
