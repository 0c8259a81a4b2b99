"""Spite & Malice's entries and match results in the phone's language."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l
from markupsafe import Markup

from ...games import spite_malice_moves as m
from ...games.spite_malice_table import card_label as table_label
from ...i18n_rules import CARD_WORDS, card_label, ruling_words
from . import common

TITLE = _l("Spite & Malice")  # as the players of each language call it



def entry(move: Any, players: tuple[str, ...], outcome: dict[str, Any] | None = None) -> str:
    """A Spite & Malice entry said from its fields; with what a build came to (``entry_outcome``), the rank
    it counted as and the pile it completed."""
    if outcome and outcome.get("drew") is not None:  # the cards owed, said as how many they were
        return entry(m.Draw(move.seat, outcome["drew"]), players)
    if outcome and outcome.get("then"):  # the reshuffle the top brought about, as its ruling says it
        return Markup("{} {}").format(entry(move, players), ruling_words("SM-7", outcome["then"]))
    if outcome:
        said = entry(move, players)
        if outcome.get("counts_as"):
            said = _("%(entry)s It counts as %(rank)s.", entry=said, rank=outcome["counts_as"])
        if outcome.get("completed"):
            said = _("%(entry)s Pile %(num)s is complete.", entry=said, num=outcome["completed"])
        return said
    shared = common(move, players, entry)
    if shared is not None:
        return shared
    who = players[move.seat] if getattr(move, "seat", None) is not None else _("The table")

    def card(code: Any) -> str:  # as the screen names it: "K♥" scanned, "5" tapped, "Joker"
        return str(CARD_WORDS["unknown"]) if code in (None, "unknown") else card_label(table_label(code))

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


def outcome(view: dict) -> str:
    """How the match ended: the pay-off built (SM-40), the stock run out (SM-41), a draw, or the match over
    several games. Raises KeyError and the like when the view does not fit (the engine's words are shown)."""
    history = view["history"]
    last = history[-1]
    winners = list(view.get("winners") or [])
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
