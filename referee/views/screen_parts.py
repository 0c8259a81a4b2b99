"""Pieces of a table screen that are the same for every phone of one language, built once.

Every accepted entry makes each other phone at the table re-fetch its screen, so drawing a screen is
most of the server's work. Most of a screen differs from seat to seat, but some pieces do not: the
card names of the deck, the rows of card chips a reveal form offers (4 slots × a whole deck, for each
player), numbers written the phone's way, a table's own links. Those are kept here, per language,
in small bounded dictionaries (cleared when full: what they hold is cheap to build again).
"""

from __future__ import annotations

from typing import Any, Iterable

from flask import request, url_for
from flask_babel import format_number, gettext
from markupsafe import Markup, escape

from ..i18n import lang
from ..jinja_env import page_context
from ..i18n_rules import card_label, card_name

_LIMIT = 4096
_numbers: dict[tuple[str, int], str] = {}
_labels: dict[tuple, dict[str, str]] = {}
_chips: dict[tuple, Markup] = {}
_urls: dict[tuple, str] = {}


def _remember(cache: dict, key, value):
    if len(cache) >= _LIMIT:
        cache.clear()
    cache[key] = value
    return value


def number(value: Any) -> str:
    """``numberformat``: a whole number as the phone's language writes it (cached; Babel's formatting
    costs a tenth of a millisecond a number), anything else through Babel."""
    if type(value) is not int:
        return format_number(value)
    key = (lang(), value)
    found = _numbers.get(key)
    return found if found is not None else _remember(_numbers, key, format_number(value))


def card_labels_for(game, cards: Iterable[str]) -> dict[str, str]:
    """Each card code of a deck named in the phone's language ({"DRAW2": "Pesca 2", ...})."""
    cards = tuple(cards)
    key = (game.NAME, lang(), cards)
    found = _labels.get(key)
    if found is None:
        found = _remember(_labels, key, {v: card_label(game.card_label(v)) for v in cards})
    return found


def chips(name: str, deck: Iterable[str], labels: dict[str, str], checked: Any = None,
          required: bool = True) -> Markup:
    """One radio chip per card of the deck (a reveal's slot, a peek's note), ``checked`` ticked."""
    deck = tuple(deck)
    key = (name, deck, tuple(labels.get(v, "") for v in deck), checked, required)
    found = _chips.get(key)
    if found is None:
        req = " required" if required else ""
        found = _remember(_chips, key, Markup("".join(
            f'<label class="chip"><input type="radio" name="{escape(name)}" value="{escape(v)}"{req}'
            f'{" checked" if v == checked else ""}><span>{escape(labels.get(v, v))}</span></label>'
            for v in deck)))
    return found


def table_url(endpoint: str, **values: str) -> str:
    """``url_for(endpoint, match_id=...)`` for a table's own links, built once per table."""
    key = (endpoint, request.script_root, *values.items())
    found = _urls.get(key)
    return found if found is not None else _remember(_urls, key, url_for(endpoint, **values))


def dom_id(name: str) -> str:
    """A player's name as a part of an element id and a CSS selector: letters and digits of ASCII as
    they are, every other character as its code (``D'Angelo`` → ``D-27-Angelo``), so that no two names
    give the same id ("Grandma Ruth", "Grandma_Ruth") and none needs escaping."""
    return "".join(c if c.isascii() and c.isalnum() else f"-{ord(c):x}-" for c in str(name))


def and_list(items) -> str:
    """Names or numbers joined by the phone's "and": "Ana and Ben", "Ana, Ben and Cy" (not "Ana and Ben and
    Cy"), "3 ו־4" (Hebrew's "and" is a prefix, set apart by a maqaf before a name or a digit; a plain ``join``
    wrote "3 ו4")."""
    from ..i18n_rules import names_words

    return names_words([str(item) for item in items])


def init_app(app) -> None:
    app.jinja_env.filters["numberformat"] = number
    app.jinja_env.filters["dom_id"] = dom_id
    app.jinja_env.filters["and_list"] = and_list
    app.jinja_env.globals.update(chips=chips, card_face=card_face, card_word=card_word, face=standard_face,
                                 table_url=table_url, private_notes=private_notes, unknown_card=unknown_card)


def unknown_card() -> Markup:
    """A card nobody entered, as a face shows it: "?", which a screen reader reads as "unknown card" (in
    the phone's language) rather than "question mark"."""
    return Markup('<span aria-hidden="true">?</span><span class="visually-hidden">{}</span>').format(
        gettext("unknown card"))


_faces: dict[tuple, Markup] = {}


def card_face(value: Any, mine: Any = None, small: bool = False, marked: Iterable[str] = (),
              whose: str | None = None) -> Markup:
    """One card face: its value, "?" for unknown (read aloud as "unknown card"), and what only this phone knows
    (``mine``; on the phone for everyone, ``whose`` note it is: the phone is passed round). Faces read
    left to right in every language; cards are named as the table calls them (``card_name``); a card
    in ``marked`` (a game's power cards) is drawn as one. For a game whose deck has its own faces; the
    standard-deck games draw theirs with `standard_face`."""
    power = value in marked
    worded = (mine is not None and value is None) or power  # words in the phone's language
    worded = worded or value is None  # "unknown card", for a screen reader
    key = (lang(), value, mine, small, power, whose) if worded else (value, small)
    found = _faces.get(key)
    if found is None:
        kind = " unknown" if value is None else " power" if power else ""
        inner = unknown_card() if value is None else escape(card_name(value))
        if mine is not None and value is None:
            # said aloud too: a title is read by no screen reader on a phone
            only = gettext("%(name)s's note", name=whose) if whose else gettext("only you know this")
            inner += Markup('<small class="mine" title="{}"><span class="visually-hidden">{}: </span>{}</small>').format(
                only, only, card_name(mine))
        found = _remember(_faces, key, Markup(f'<span class="face{kind}{" small" if small else ""}">{inner}</span>'))
    return found


@page_context
def standard_face(context, value: Any, small: bool = False) -> Markup:
    """``face`` of the standard-deck games (Shithead, Spite & Malice, Cabo): "7♥" (red suits marked),
    "?" for a card nobody entered (read aloud as "unknown card"); the card named by the screen's ``labels`` (else ``card_name``).
    Built once per card and name (a Jinja macro imported with the context rebuilt its template's
    module on every screen, and a screen draws dozens of faces)."""
    unknown = value is None or value == "unknown"
    labels = context.get("labels")
    text = ("?", lang()) if unknown else labels.get(value, value) if labels is not None else card_name(value)
    key = ("standard", value, small, text)
    found = _faces.get(key)
    if found is None:
        kind = " unknown" if unknown else " red" if str(value)[-1:] in ("H", "D") else ""
        inner = unknown_card() if unknown else escape(text)
        found = _remember(_faces, key, Markup(f'<span class="face{kind}{" small" if small else ""}">{inner}</span>'))
    return found


def private_notes(view: dict) -> tuple:
    """What only this phone knows of the cards in the rows: with the version, the key its rows are
    drawn under (phones that know the same share one drawing)."""
    r = view.get("round")
    return tuple(slot["mine"] for row in r["rows"].values() for slot in row["slots"]) if r else ()


def card_word(value: Any) -> str:
    """A card named in words ("unknown" when nobody knows it)."""
    return gettext("unknown") if value is None else card_name(value)
