"""Playing at a table: the screen of one seat, entries posted from it, rulings, history, export.

A phone sends an intent (the entry's move and fields) and the version its screen showed; the server
validates it with the engine inside the store's transaction, appends it, commits, then rings the
doorbell. The answer is always a fresh screen for that phone:

* 200 — accepted (or the same phone's same entry sent again under its key); 409 — someone moved first,
  or the form's key was used for another entry or by another phone (nothing saved, the fresh screen
  shows why);
* 422 — the rules refuse it: the ruling (rule ID, plain words, entries involved) and nothing saved;
* 400 — a malformed form, 403 — a spectator or another player's seat.
"""
from __future__ import annotations
from flask_babel import gettext, ngettext

import dataclasses
import functools
import re
import secrets
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, session, url_for
from jinja2 import pass_context
from markupsafe import Markup, escape
from werkzeug.routing import BuildError

from .. import live, scans, store, tables, transcript
from ..db import get_db
from ..i18n import RTL, lang
from ..i18n_rules import describe_move, ruling_text
from ..i18n_rulings import isolated
from ..games.base import EntryError, ResolveFlag, Ruling
from ..games.ending import MOVE as END_MOVE, EndMatch, round_noun
from ..games.forms import LOG_MOVES, UNREADABLE
from ..games.redaction import entry_seat, redact_entry
from ..seats import (SHARED_SEAT, can_enter, held_by_a_phone, is_htmx, is_shared, is_watching, lost_seat, phone_seat,
                     require_entrant)
from ..security import device_id
from .screen_parts import card_labels_for, table_url

bp = Blueprint("play", __name__, url_prefix="/m/<match_id>")

SHARED = "shared"
CHOOSE = "choose"  # "Not you? Change seat": this phone gives its seat up and is asked who it is again
PICK_FIELDS = ("move", "slot", "field", "target", "seat", "then", "rank", "source", "card")


@bp.errorhandler(tables.GameNotInstalled)
def game_not_installed(err: tables.GameNotInstalled):
    from ..security import render_error

    return render_error(404, str(err))


# --- Who is this phone? ----------------------------------------------------------------------


# --- Loading ---------------------------------------------------------------------------------


def load(match_id: str):
    db = get_db()
    match = store.get_match(db, match_id)
    log = store.state_at(db, match, tables.replay, tables.feed)  # feed: as tables.append applied each entry
    return db, match, log


def shown_token(match, seat: int | None, shared: bool) -> str:
    """What a phone's screen was drawn for: the version and who the phone is — for the phone for everyone,
    with the seats other phones hold (it offers entries for the others only: a player taking her own seat
    takes her first look off it), and whether the next game has started (its screen offers to go there). A
    doorbell answers 204 when nothing of it changed, and a fresh screen when the phone lost its seat, a seat
    was taken beside the phone for everyone, or another phone started the next game."""
    again = "-n" if store.find_rematch(get_db(), match.id) else ""
    if shared:
        held = ".".join(str(i) for i in range(len(match.players)) if held_by_a_phone(match.id, i))
        return f"{match.version}-s{':' + held if held else ''}{again}"
    return f"{match.version}-{seat if seat is not None else 'w'}{again}"


def _moves_for_shared(log, match) -> list[dict]:
    """On the shared phone: the entries of every seat that may act now, the turn's first (a call by
    the player who just finished, a snap, an interrupt: each button names its player). A seat a
    phone holds or held is offered its entries as a phone without a seat knows the table (GEN-6): the
    card Cy drew and noted on his own phone is not named on a button ("Show the 12 and use its power"),
    nor told by which buttons there are."""
    game, state = log.game, log.state
    watched = None
    moves: list[dict] = []
    for seat in game.may_act(state):
        known = log
        if held_by_a_phone(match.id, seat):
            watched = watched or _as_watched(match, log)
            known = watched
        moves += [m for m in (game.move_to_dict(x, known.state.players) for x in game.legal_moves(known.state, seat))
                  if m not in moves]
    # a first look is noted by every player at the same moment, whoever's turn it is: for each player who
    # plays on this phone (not one on a phone of their own, GEN-6)
    acting = set(game.may_act(state))
    for seat in range(len(state.players)):
        if seat in acting or held_by_a_phone(match.id, seat):
            continue
        moves += [m for m in (game.move_to_dict(x, state.players) for x in game.legal_moves(state, seat))
                  if m.get("move") == "initial_peek" and m not in moves]
    return moves


_watched: dict[tuple, Any] = {}  # (database, match, version) -> the table as a phone without a seat knows it


def _as_watched(match, log):
    """The table as a phone without a seat knows it: its stored entries as that phone may see them
    (``redact``), replayed; the log itself when nothing in them is private. Kept per version (a log does
    not change once made): every redraw of the phones for everyone at that version reads it once."""
    key = (current_app.config["DATABASE"], match.id, match.version)
    found = _watched.get(key)
    if found is not None:
        return found
    stored = [item["entry"] for item in store.entries(get_db(), match.id, upto=match.version)]
    seen = log.game.redact(log.state, stored, None)
    watched = log
    if seen != stored:
        watched = tables.start(match)
        for position, entry in enumerate(seen):
            watched = tables.replay_one(watched, entry, position)
    if len(_watched) >= 64:
        _watched.clear()
    _watched[key] = watched
    return watched


def last_standing(log) -> str:
    """The entry an undo would take back, in words ("" when there is none)."""
    head = log.head
    if head.correction is not None:  # a correction was the table's last entry: the undo takes it back
        return gettext("the correction of entry %(number)s", number=head.correction[1])
    if head.parent is None or head.move is None:
        return ""
    try:
        return move_words(log.game, head.move, log.state.players, head.parent.state)
    except Exception:  # noqa: BLE001 - words for a button; the undo itself is checked by the engine
        return gettext("the last entry")


_undo_said: dict[tuple, str] = {}


def _undo_words(match, log) -> str:
    """`last_standing`, said once per version and language (every phone of a table names the same
    entry on its undo button)."""
    key = (current_app.config["DATABASE"], match.id, match.version, lang())
    words = _undo_said.get(key)
    if words is None:
        if len(_undo_said) >= 4096:
            _undo_said.clear()
        words = _undo_said[key] = last_standing(log)
    return words


_last_said: dict[tuple, str] = {}


def last_entry_words(match, log) -> str:
    """The table's last entry in words, as the history says it to every phone ("" before the first): a
    screen reader hears it when another phone's entry redraws the screen (static/announce.js): a swap of
    your card, a snap ("Last entry: …"), an undone call ("Undone: …"). Said once per version and language."""
    if not match.version:
        return ""
    key = (current_app.config["DATABASE"], match.id, match.version, lang())
    words = _last_said.get(key)
    if words is None:
        if len(_last_said) >= 4096:
            _last_said.clear()
        words = _last_said[key] = _last_words(match, log)
    return words


def _last_words(match, log) -> str:
    db, position = get_db(), match.version - 1
    last = store.entries(db, match.id, after=position, upto=position + 1)
    if not last:
        return ""
    undid = dict(log.undone).get(position)
    if undid is not None:
        taken = store.entries(db, match.id, after=undid, upto=undid + 1)
        if taken:
            return gettext("Undone: %(entry)s", entry=entry_words(log, taken[0]["entry"]))
    head = log.head  # the state it was applied to, when it stands: what became of it (Shithead, SH-18)
    before = head.parent.state if head.position == position and head.parent is not None else None
    return gettext("Last entry: %(words)s", words=entry_words(log, last[0]["entry"], before))


def screen_context(match, log, ruling: Ruling | None = None, notice: str = "",
                   entry: dict | None = None) -> dict[str, Any]:
    from .earlier import earlier_matches, running_tally
    from .moved_cards import moved_since_turn  # it says entries in this module's words
    game = log.game
    seat = phone_seat(match.id)
    shared = is_shared(match.id)
    acting = seat if seat is not None else (game.to_act(log.state) if shared else None)
    viewer, notes_elsewhere = acting, None
    if seat is None and acting is not None and held_by_a_phone(match.id, acting):
        viewer = None  # that player plays (or played) on their own phone: the shared phone shows none of their notes
        notes_elsewhere = match.players[acting]  # nor notes what they see (GEN-6)
    view = game.view(log.state, viewer)
    if shared:
        moves = _moves_for_shared(log, match)
    else:
        moves = view["legal"] if seat is not None else []
    table_moves = ([game.move_to_dict(m, log.state.players) for m in game.legal_moves(log.state, None)]
                   if seat is not None or shared else [])
    lost = lost_seat(match.id)
    if lost is not None and not notice:
        notice = gettext("Another phone has taken %(name)s's seat, so this phone now only watches. "
                   "Take a seat again to play.", name=match.players[lost])
    watching = is_watching(match.id) or lost is not None
    choosing = seat is None and not shared and not watching  # the page asks "who are you?" in its h1
    earlier = earlier_matches(get_db(), match) if match.rematch_of else []
    return {
        "match": match, "view": view, "seat": seat, "shared": shared, "acting": acting,
        "watching": watching, "choosing": choosing,
        # a match over shows its result first, and the seats under it (for notes, or a correction)
        "picker_last": choosing and bool(view.get("over")),
        "status_tag": "h2" if choosing and not view.get("over") else "h1",  # one h1 a page: the seat picker's, or the status
        "me": match.players[acting] if acting is not None else None,
        "moves": moves, "table_moves": table_moves, "notes_elsewhere": notes_elsewhere,
        # on the phone for everyone: the players on phones of their own, whose first look it does not note (GEN-6)
        "phone_seats": [name for i, name in enumerate(match.players) if held_by_a_phone(match.id, i)] if shared else [],
        "ruling": ruling, "notice": notice, "refused": entry,
        "rules_summary": rules_summary(match, view, game),
        "involved": _involved(ruling, log, match, entry), "variants": game.VARIANTS,
        "key": secrets.token_urlsafe(12), "can_undo": may_undo(log, seat, shared, _made_here(get_db(), match, log)),
        "undo_words": _undo_words(match, log), "last_words": last_entry_words(match, log),
        # the last entry was this phone's (its answer lost on the way: a picker it closed is not "another phone's")
        "last_mine": _entered_here(get_db(), match, match.version - 1),
        "moved": moved_since_turn(match, log, viewer),
        "claim_disputes": getattr(game, "CLAIM_DISPUTES", ()),
        "deck": game.cards(log.state), "game_templates": game.TEMPLATES,
        "rule_text": functools.partial(game.rule_text, rules=log.state.rules),  # as the table's house rules say
        "labels": card_labels_for(game, game.cards(log.state)),
        "join_link": join_link(match), "shown": shown_token(match, seat, shared),
        "entry_url": table_url("play.post_entry", match_id=match.id),
        "pick_url": table_url("play.pick", match_id=match.id),
        "history_url": table_url("play.history", match_id=match.id),
        "end_url": table_url("play.end_page", match_id=match.id) if (seat is not None or shared) and not view.get("over")
        else "",
        "play_again_url": _url_or_empty("home.play_again", match_id=match.id) if view.get("over") else "",
        "next_game_started": bool(view.get("over") and store.find_rematch(get_db(), match.id)),
        "standings_url": _standings_url(match.id) if view.get("over") else "",
        "earlier": earlier,
        "tally_across": running_tally(earlier, view),
        "corrected_since": _corrected_since_decided(get_db(), match, view),
    }


def may_undo(log, seat: int | None, shared: bool, made_here: bool = False) -> bool:
    """Whether this phone may undo what an undo would take back now (``log.undo_target()``): the shared
    phone anything; a seated phone the table's own entries, its seat's, any entry or correction it
    made itself (``made_here``), the match's ending (GEN-5: the table's decision, which a child's tap
    must not make alone) and a claim of the whole table's (``_a_claim``: who starts); but not another player's turn in the middle, which that player's screen
    would lose without a word: they undo it, or it is corrected from the history."""
    if log.undo_target() is None or (seat is None and not shared):
        return False
    if shared or made_here:
        return True
    if log.head.correction is not None:
        return False  # another phone's correction: that phone takes it back, or it is corrected again
    if isinstance(log.head.move, EndMatch) or _a_claim(log):
        return True
    owner = getattr(log.head.move, "seat", None)
    return owner is None or owner == seat


def _a_claim(log) -> bool:
    """Whether the entry an undo would take back claims something of the whole table (a game's ``CLAIMS``:
    who holds the lowest card and starts), which any seated phone may take back."""
    claims = getattr(log.game, "CLAIMS", ())
    return bool(claims) and log.game.move_to_dict(log.head.move, log.state.players).get("move") in claims


_entry_devices: dict[tuple, str | None] = {}


def _entered_here(db, match, position: int | None) -> bool:
    """Whether this phone made the stored entry at ``position`` (the device that did is read once per
    entry, which never changes: every phone's screen asks)."""
    if position is None or position < 0 or not device_id():
        return False
    key = (current_app.config["DATABASE"], match.id, position)
    if key not in _entry_devices:
        if len(_entry_devices) >= 4096:
            _entry_devices.clear()
        rows = store.entries(db, match.id, after=position, upto=position + 1)
        _entry_devices[key] = rows[0].get("device") if rows else None
    return _entry_devices[key] == device_id()


def _made_here(db, match, log) -> bool:
    """Whether this phone entered what an undo would take back now."""
    return _entered_here(db, match, log.undo_target())


def _standings_url(match_id: str) -> str:
    """A finished match of a group: the standings of its night (or the group's, played outside a night)."""
    from ..nights import match_group

    group_id, night_id = match_group(get_db(), match_id)
    if group_id is None:
        return ""
    return _url_or_empty("nights.group", group_id=group_id, night=night_id) if night_id else \
        _url_or_empty("nights.group", group_id=group_id)


@bp.app_template_global()
@pass_context
def entry_form(context, match, key: str, fields: dict, text: str, cls: str = "") -> Markup:
    """One whole entry as a form of hidden fields and a button (built in Python: a screen has many).
    On the shared phone the entry names who makes it (``for``). Inside a form fragment its version is
    the fragment's stand-in (``form_version``)."""
    url = escape(context["entry_url"])
    if context.get("shared") and "for" not in fields and context.get("me"):
        fields = {**fields, "for": context["me"]}
    hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items())
    client_key = escape(f"{key}-{'-'.join(str(v) for v in fields.values())}")
    return Markup(
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#screen" hx-swap="innerHTML" '
        f'hx-disabled-elt="find button" class="entry-form">'
        f'<input type="hidden" name="version" value="{context.get("form_version") or match.version}">'
        f'<input type="hidden" name="key" value="{client_key}">{hidden}'
        f'<button type="submit" class="{escape(cls)}">{escape(text)}</button></form>')


@bp.app_template_filter("card_labels")
@pass_context
def card_labels(context, cards, sep: str = " ") -> str:
    """Card codes as the screen names them ("7♥ 7♣"), from the match's ``labels``."""
    labels = context.get("labels") or {}
    return sep.join(labels.get(c, str(c)) for c in cards)


def _url_or_empty(endpoint: str, **values) -> str:
    try:
        return url_for(endpoint, **values)
    except BuildError:
        return ""


_fragments: dict[tuple, Markup] = {}
_forms: dict[tuple, Markup] = {}  # apart: a table's forms are kept all round, its fragments per version
_LIMIT = 4096


@bp.app_template_global()
@pass_context
def fragment(context, template: str, *key, **variables) -> Markup:
    """A part of a screen that is the same for every phone until ``key`` changes (a round's result, the
    match so far, a player's row): rendered once, then served from memory (every phone re-fetches its
    screen on every entry, so this is most of a screen's cost saved). ``variables`` are the template's
    own (a loop's, which Jinja does not hand to a call); ``key`` must determine them too."""
    if variables:
        html = _fragments.get((template, lang(), *key))
        if html is not None:
            return html
        context = context.derived(variables)
    return _drawn_once(_fragments, context, template, key)


def _drawn_once(cache: dict, context, template: str, key: tuple) -> Markup:
    cache_key = (template, lang(), *key)  # the same words for every phone of one language
    html = cache.get(cache_key)
    if html is None:
        if len(cache) > _LIMIT:
            cache.clear()
        html = cache[cache_key] = Markup(context.environment.get_template(template).render(context.get_all()))
    return html


_FORM_KEY = "\x00key\x00"  # never in a name or a card (names refuse control characters)
_FORM_VERSION = "\x00version\x00"


@bp.app_template_global()
@pass_context
def form_fragment(context, template: str, *key, **variables) -> Markup:
    """A part of a screen with forms that is the same until ``key`` changes (a player's reveal form at
    one version, the note of a first peek all round, what a seat may enter in one position of a turn),
    but for the phone's own submission key and the version the forms enter at: drawn once with
    stand-ins for the two (``key`` and ``form_version`` in the template; ``entry_form`` reads them),
    which are then replaced by this phone's. ``variables`` are the template's own. ``key`` must
    determine everything else the template reads; a form fragment inside another is keyed as its own
    and gets the outer one's stand-ins."""
    html = _forms.get((template, lang(), *key))  # drawn already: no context to derive for it
    if html is None:
        html = _drawn_once(_forms, context.derived({**variables, "key": _FORM_KEY, "form_version": _FORM_VERSION}),
                           template, key)
    version = context.get("form_version") or str(int(context["match"].version))
    # str's own replace: Markup's would escape its arguments and wrap each result
    return Markup(str.replace(str.replace(html, _FORM_KEY, str(escape(context["key"]))), _FORM_VERSION, version))


_pick_hrefs: dict[tuple, str] = {}


@bp.app_template_global()
def pick_href(base: str, **args) -> str:
    """A link to the card picker: cheaper than ``url_for`` for the many buttons of a screen, and each
    one built once (a table's buttons link to the same few pickers all evening)."""
    key = (base, *args.items())
    found = _pick_hrefs.get(key)
    if found is None:
        if len(_pick_hrefs) > 4096:
            _pick_hrefs.clear()
        found = _pick_hrefs[key] = base + "?" + urlencode({k: v for k, v in args.items() if v is not None and v != ""})
    return found


_rules_html: dict[tuple[str, str], str] = {}


def rules_summary(match, view: dict, game) -> Markup:
    """The house rules in force, as HTML; cached, since a match's rules never change (GEN-11)."""
    cache_key = (match.id, lang())
    html = _rules_html.get(cache_key)
    if html is None:
        if len(_rules_html) > 2048:
            _rules_html.clear()
        html = _rules_html[cache_key] = render_template(f"games/{game.TEMPLATES}/_rules.html", view=view,
                                                       variants=game.VARIANTS, open=False, match=match,
                                                       chosen=chosen_preset(match.game, view["rules"]))
    return Markup(html)


def chosen_preset(game_name: str, rules: dict) -> tuple[Any, int] | None:
    """The ready-made rule set (a preset of the new-table form) nearest a table's house rules, with how many
    switches the table set otherwise (a switch set by the table's size, or one that does not apply under
    the others, not counted), or None when the game's own rules are as near: the table says it plays
    "Cambio (standard deck, common rules)", as the family chose it, with a switch or two changed."""
    from ..games import get_game
    from ..games.base import resolve_rules
    from ..games.rulebook import applies

    try:
        game = get_game(game_name)
    except KeyError:
        return None
    counted = [v for v in game.VARIANTS if not v.derived and applies(v, rules)]

    def apart(preset_rules: dict) -> int:
        full = resolve_rules(game.VARIANTS, preset_rules)
        return sum(1 for v in counted if rules.get(v.key) != full[v.key])

    best, fewest = None, apart({})
    for preset in getattr(game, "PRESETS", ()):
        if dict(preset.rules) and (n := apart(dict(preset.rules))) < fewest:
            best, fewest = preset, n
    return None if best is None else (best, fewest)


def join_link(match) -> str:
    """The link other phones open to join this table (the LAN address when serving)."""
    from .home import join_url

    return join_url().rstrip("/") + table_url("home.join_link", code=match.join_code)


def move_words(game, move, players, before: Any = None) -> str:
    """A move in words; with the state it was applied to, as what became of it (``entry_words``)."""
    if isinstance(move, EndMatch):
        return end_words(game, move, players, before)
    if isinstance(move, ResolveFlag):
        decided = decision_words(move, players, before)
        if decided:
            return decided
    failed_play, entry_outcome = getattr(game, "failed_play", None), getattr(game, "entry_outcome", None)
    failed = failed_play(before, move) if before is not None and failed_play is not None else None
    outcome = entry_outcome(before, move) if before is not None and entry_outcome is not None else None
    return describe_move(game, move, players, failed, outcome)


def decision_words(move: ResolveFlag, players, before: Any) -> str:
    """A dispute decided, in words that say which dispute: its rule and what it was about, as the dispute
    said it (the engine names a flag by its number in the state, which nobody at the table sees). ""
    without the state it was decided in (the flag is not known then)."""
    flags = getattr(before, "flags", None) or ()
    if isinstance(move.flag, bool) or not isinstance(move.flag, int) or not 0 <= move.flag < len(flags):
        return ""
    flag = flags[move.flag]
    who = players[move.seat] if isinstance(move.seat, int) and 0 <= move.seat < len(players) else gettext("The table")
    what = ruling_text(flag.rule, flag.message)
    if move.decision == "accept":
        said = gettext("%(name)s accepts the dispute (%(rule)s): %(what)s", name=who, rule=flag.rule, what=what)
    else:
        said = gettext("%(name)s dismisses the dispute (%(rule)s): %(what)s", name=who, rule=flag.rule, what=what)
    return isolated(said) if lang() in RTL else said


def states_before(db, match, log, entries: list[dict] | None = None) -> dict[int, Any]:
    """The state each entry was applied to, by position (what a game needs to say what became of an entry:
    Shithead's failed plays, SH-18). A log opened from a snapshot (after a restart) knows only the entries
    after it, and a log knows no state before an entry undone or corrected since: then the stored entries
    (``entries``, or read here) are replayed from the deal, each from the state the log had reached."""
    befores = log.states_before()
    if entries is None and all(position in befores for position in log.positions()):
        return befores
    if entries is None:
        entries = store.entries(db, match.id, upto=match.version)
    if all(position in befores for position in range(len(entries))):
        return befores
    out, replayed = {}, tables.start(match)
    for position, item in enumerate(entries):
        out[position] = replayed.state
        replayed = tables.replay_one(replayed, item["entry"], position)
    return {**out, **befores}


def entry_words(log, entry: dict, before: Any = None) -> str:
    """An entry in words, or its move name when it does not parse (a refused entry). With the state it was
    applied to (``before``), a game may say what became of it (Shithead: a table card that could not go
    on the pile, ``failed_play``). A dispute's decision without it names the dispute from the table's
    disputes as they are now."""
    try:
        move = log.game.parse_move(entry, log.state.players, log.state.rules)
        if before is None and isinstance(move, ResolveFlag):
            decided = decision_words(move, log.state.players, log.state)
            if decided:
                return decided
        return move_words(log.game, move, log.state.players, before)
    except EntryError:
        return gettext("A %(move)s entry that could not be read.", move=str(entry.get("move", "malformed"))[:20])


def _involved(ruling: Ruling | None, log, match, refused: dict | None = None) -> list[dict]:
    """The entries a ruling points at, said in words and linked to the history (GEN-13); the entry just
    refused (``refused``) is said as what it would have entered."""
    if ruling is None:
        return []
    positions = [p for p in ruling.entries if p is not None and p >= 0]
    # Entry ``p`` of the log has seq p + 1; only the entries named are read (a long match's whole log
    # is not read again for each refusal).
    stored = {row["seq"] - 1: row["entry"] for row in store.entries(
        get_db(), match.id, after=min(positions), upto=max(positions) + 1)} if positions else {}
    count = match.version  # the entry just refused would have been this one
    standing = _standing_moves(log, set(stored))
    proposed = refused.get("entry") if isinstance(refused, dict) and refused.get("move") == "correct" else None
    out = []
    for position in ruling.entries:
        if position is None:
            continue
        if position in stored:
            words = entry_words(log, stored[position])
            if isinstance(proposed, dict) and refused.get("target") == position:
                # the entry a correction just refused would have made: what the ruling read (as it stands,
                # the entry contradicts nothing)
                said = entry_words(log, proposed)
                words = gettext("%(entry)s (the correction just refused).", entry=said[:-1] if said.endswith(".") else said)
            elif position in standing and standing[position] != _parsed(log, stored[position]):
                # corrected since: said as it stands, which is what the ruling read (the entry as first
                # made would contradict the reason given)
                said = move_words(log.game, standing[position], log.state.players)
                words = gettext("%(entry)s (as corrected).", entry=said[:-1] if said.endswith(".") else said)
        elif position == count:  # never stored: no number of the history is its
            said = entry_words(log, refused) if isinstance(refused, dict) else ""
            out.append({"number": None, "words": gettext("The entry just refused: %(entry)s", entry=said) if said
                        else gettext("The entry just refused")})
            continue
        else:
            continue
        out.append({"number": position, "words": words})
    return out


def _standing_moves(log, positions: set[int]) -> dict[int, Any]:
    """The move each of ``positions`` stands as in the log now (a correction replaces an entry's move);
    entries undone, set aside or behind a snapshot are not listed."""
    out, node = {}, log.head
    while node.parent is not None and len(out) < len(positions):
        if node.position in positions:
            out[node.position] = node.move
        node = node.parent
    return out


def _parsed(log, entry: dict) -> Any:
    try:
        return log.game.parse_move(entry, log.state.players, log.state.rules)
    except EntryError:
        return None


def render_screen(match, log, status: int = 200, **extra) -> Response:
    screens = current_app.extensions.get("referee.screens")  # `referee serve`'s screen processes
    if screens is not None and is_htmx() and not session.modified:
        wire = screen_extra_to_wire(**extra)
        if wire is not None:  # the same HTML, drawn there
            body = screens.render_screen(request.environ, match.id, match.version, wire)
            if body is not None:
                return _no_store(Response(body, status=status))
    ctx = screen_context(match, log, **extra)
    template = "table/_screen.html" if is_htmx() else "table/page.html"
    return _no_store(Response(render_template(template, **ctx), status=status))


def screen_extra_to_wire(ruling: Ruling | None = None, notice: str = "", entry: dict | None = None) -> dict | None:
    """What a screen shows beside the table (a refusal, a notice, the refused entry) as plain values a
    screen process can be sent (``marshal``); None when it cannot (words already marked up)."""
    if type(notice) is not str:
        return None
    return {"notice": notice, "entry": entry,
            "ruling": None if ruling is None else {"rule": ruling.rule, "message": ruling.message,
                                                   "entries": ruling.entries, "verdict": ruling.verdict,
                                                   "overridable": ruling.overridable}}


def screen_extra_from_wire(wire: dict | None) -> dict:
    """The keyword arguments of ``screen_context`` sent by ``screen_extra_to_wire``."""
    if not wire:
        return {}
    ruling = wire.get("ruling")
    return {"notice": wire.get("notice", ""), "entry": wire.get("entry"),
            "ruling": None if ruling is None else Ruling(
                ruling["rule"], ruling["message"], ruling["entries"], verdict=ruling["verdict"],
                overridable=ruling["overridable"])}


def _no_store(response: Response) -> Response:
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


# --- Pages -----------------------------------------------------------------------------------


@bp.get("")
def table(match_id: str):
    device_id()
    _, match, log = load(match_id)
    return render_screen(match, log)


@bp.get("/screen")
def screen(match_id: str):
    """The fragment each phone re-GETs when the doorbell rings: its own view only. A phone that
    already shows this version for the same seat (the doorbell of its own entry) gets 204, so a
    picker it has just opened stays open."""
    db = get_db()
    match = store.get_match(db, match_id)
    if _already_shown(db, match, request.args.get("shown", ""), request.args.get("posting") == "1"):
        return Response(status=204)  # without the match's state: about one re-fetch in four
    log = store.state_at(db, match, tables.replay, tables.feed)
    return _no_store(Response(render_template("table/_screen.html", **screen_context(match, log))))


def _already_shown(db, match, shown: str, posting: bool = False) -> bool:
    """The phone's screen is current: drawn at this version for the same seat, or, while this page waits
    for the answer to its own entry (``posting``), at an earlier one when every entry since was this
    phone's own (its answer carries the fresh screen; redrawing it here could close a picker the player
    has just opened). Another tab of the same phone, which made none of them, is redrawn."""
    version, _, who = shown.partition("-")
    current = shown_token(match, phone_seat(match.id), is_shared(match.id))
    if shown == current:
        return True
    if not version.isascii() or not version.isdigit() or len(version) > 9 or who != current.partition("-")[2]:
        return False
    return posting and int(version) < match.version and store.only_by(db, match.id, int(version), session.get("device"))


@bp.get("/seat")
def choose_seat(match_id: str):
    """Show the seat picker again (for a phone that chose to watch, or wants another seat)."""
    from ..seats import stand_up

    store.get_match(get_db(), match_id)
    if not can_enter(match_id):
        stand_up(match_id, "choose")
    return redirect(url_for("play.table", match_id=match_id), code=303)


@bp.get("/watch")
def watch(match_id: str):
    """The spectator link: a page that asks, since a link must not change a phone's seat (GET is safe)."""
    match = store.get_match(get_db(), match_id)
    return render_template("table/watch.html", match=match, seat=phone_seat(match_id))


@bp.get("/shared")
def share(match_id: str):
    """Switch this phone to "one phone for everyone": a page that asks, as the spectator link does (a link
    must not change a phone's seat); a seated phone gives its seat up in the same step (no need to leave
    it first). Its button posts to `take_seat`, as the seat picker's does."""
    match = store.get_match(get_db(), match_id)
    return render_template("table/share.html", match=match, seat=phone_seat(match_id), shared=is_shared(match_id))


@bp.post("/seat")
def take_seat(match_id: str):
    """Bind this phone to a seat, to the shared-device mode, or to watching; or ("choose": a phone that
    tapped the wrong name) give up this phone's own seat and show the seat picker again. Taking a seat
    another phone holds asks first; when confirmed it is recorded and that phone is told."""
    from .. import live
    from ..seats import holder_of, sit, stand_up, used_elsewhere

    match = store.get_match(get_db(), match_id)
    choice = request.form.get("seat", "")
    if choice in ("watch", SHARED, CHOOSE):
        stand_up(match_id, choice)  # only the seats this phone holds: never one another phone took over
        return redirect(url_for("play.table", match_id=match_id), code=303)
    if not choice.isascii() or not choice.isdigit() or len(choice) > 3:
        abort(400, description=gettext("Choose a seat from the list."))
    seat = int(choice)
    if not 0 <= seat < len(match.players):
        abort(422, description=gettext("That seat does not exist at this table."))
    if request.form.get("confirm") != "1":
        held = holder_of(match_id, seat) is not None
        used = used_elsewhere(match_id, seat) if phone_seat(match_id) != seat else None
        if held or used:
            return render_template("table/take_over.html", match=match, seat=seat, name=match.players[seat],
                                   held=held or used == "held"), 409
    sit(match_id, seat)
    # every phone re-fetches: one that lost the seat learns it; the phone for everyone stops entering for it
    # and showing its notes
    live.publish(match_id, live.SeatsChanged(match.version))
    return redirect(url_for("play.table", match_id=match_id), code=303)


@bp.get("/invite")
def invite(match_id: str):
    """The join link and its QR code, to show the other phones."""
    from .home import join_url, qr_svg

    match = store.get_match(get_db(), match_id)
    link = join_link(match)
    watch_link = join_url().rstrip("/") + url_for("play.watch", match_id=match.id)
    return render_template("table/invite.html", match=match, link=link, qr=qr_svg(link), watch_link=watch_link)


@bp.get("/pick")
def pick(match_id: str):
    """The second step of an entry: choose a card or a target (a fragment of buttons)."""
    _, match, log = load(match_id)
    require_entrant(match_id)
    fields = pick_fields(log.game, match.players, request.args)
    if fields is None:
        abort(400, description=gettext("Nothing to choose for that entry."))
    ctx = screen_context(match, log)
    ctx.update(pick=fields, pick_query=urlencode({k: v for k, v in fields.items() if v}),
               possible=log.game.still_possible(log.state))  # the cards that can still turn up (GEN-3)
    closed = None if _pick_open(log, match, fields, ctx) else _pick_closed_words(log, ctx)
    if closed is not None:  # a link kept from earlier, a second tab: no card to tap, the table moved on
        # 200, as the pickers' own "That choice is no longer open" always answered: a page that says so
        ctx.update(closed=closed, pick_template="table/pick_closed.html")
        template = "table/pick_closed.html" if is_htmx() else "table/pick_page.html"
        return _no_store(Response(render_template(template, **ctx)))
    template = (f"games/{log.game.TEMPLATES}/pick.html" if is_htmx()
                else "table/pick_page.html")
    return render_template(template, **ctx)


#: The entries a picker's move makes, where they are not its own name: cards played where they do not fit
#: (Shithead's ``play_any``, Spite & Malice's ``build_any``) are offered while the turn may play or build, and
#: so is a discard (refused, overridably, where a house rule puts the pay-off card first: SM-A9, GEN-5).
_PICK_ENTRIES = {"play_any": ("play", "pickup"), "build_any": ("build", "discard"), "discard": ("discard", "build")}


def _pick_open(log, match, fields: dict[str, str], ctx: dict) -> bool:
    """Whether the entry a picker is for is among those this phone may make now: an entry of its move
    (``_PICK_ENTRIES``) by the player the picker names (``seat``), else by this phone's seat (on the shared
    phone: by any seat that may act), or the table's own; and, for a picker whose tap makes a second entry
    (``then``: a Draw 2's draw), that entry still follows. Which place or card is chosen is the picker's
    own to say (its template), as before: only an entry no longer open at all closes it."""
    game, state = log.game, log.state
    kinds = _PICK_ENTRIES.get(fields["move"], (fields["move"],))
    named = fields["seat"]
    if named:
        seats = [match.players.index(named)]
    elif ctx["shared"]:
        seats = list(game.may_act(state))
    else:
        seats = [ctx["seat"]] if ctx["seat"] is not None else []
    found = [m for m in ctx["table_moves"] if m.get("move") in kinds and (not named or m.get("seat") in (None, named))]
    for seat in seats:
        found += [m for m in (game.move_to_dict(x, state.players) for x in game.legal_moves(state, seat))
                  if m.get("move") in kinds]
    if not found:
        return False
    return not fields["then"] or any(_follow_up_open(log, m, fields) for m in found)


def _follow_up_open(log, move: dict, fields: dict[str, str]) -> bool:
    """Whether the second entry of a one-tap pair (``then``) would follow ``move`` made now with some card:
    the move is tried with each card of the deck in the picker's field (the engine's own ruling, nothing
    saved); when no card of it is accepted, the tap's ruling will say why, and the picker stays open."""
    game, state = log.game, log.state
    field = fields["field"] or "card"
    tried = False
    for card in (*game.cards(state), "unknown"):
        try:
            parsed = game.parse_move({**move, field: card}, state.players, state.rules)
            after, _ = game.apply(state, parsed)
        except Exception:  # noqa: BLE001 - a card the rules refuse here: the next one is tried
            continue
        tried = True
        seat = getattr(parsed, "seat", None)
        if isinstance(seat, int) and any(game.move_to_dict(x, state.players).get("move") == fields["then"]
                                         for x in game.legal_moves(after, seat)):
            return True
    return not tried


def _pick_closed_words(log, ctx: dict) -> str:
    """Why a picker is closed, in plain words: the match is over, or what the table entered last (in the words
    the history uses, which never hold a card only one player saw, GEN-6)."""
    if ctx["view"].get("over"):
        return gettext("That choice is no longer open: the match is over.")
    last = _plain(ctx.get("undo_words") or "").strip().rstrip(".")
    if last:
        return gettext("That choice is no longer open: the table has moved on (the last entry: %(entry)s).",
                       entry=last)
    return gettext("That choice is no longer open: the table has moved on.")


_PLACE = re.compile(r"[1-9][0-9]?")  # a place in a row, as a picker link names it (1 to 99)
_FIELD_NAME = re.compile(r"[a-z_]{1,20}")  # the entry's field a picker fills in ("card", "out", "seen")
MAX_PICK_PLACES = 60  # a list of places (a matching claim's): no row holds more


def pick_fields(game, players, args) -> dict[str, str] | None:
    """A picker's fields (``PICK_FIELDS``) as its template reads them, or None when they are no picker's
    link (answered 400). Every field is there ("" when not sent), so no template meets a missing one; a
    place is a number from 1 to 99 (a list of them, "1,3", only for a move of the game's ``PICK_LISTS``);
    ``seat`` and ``target`` name a player of the table; ``field`` is a field's name; ``then`` is a second
    entry the game lets the move make in the same tap (``FOLLOW_UPS``). Whether a place, a player or a card
    is open now is the template's to say, from the moves open ("That choice is no longer open")."""
    fields = {name: args.get(name, "")[:40] for name in args.keys() if name in PICK_FIELDS}  # as the link has them
    for name in PICK_FIELDS:
        fields.setdefault(name, "")
    move = fields["move"]
    if move not in game.PICK_MOVES:
        return None
    if fields["slot"]:
        places = fields["slot"].split(",") if move in getattr(game, "PICK_LISTS", ()) else [fields["slot"]]
        if len(places) > MAX_PICK_PLACES or not all(_PLACE.fullmatch(place) for place in places):
            return None
    if any(fields[name] and fields[name] not in players for name in ("seat", "target")):
        return None
    if fields["field"] and not _FIELD_NAME.fullmatch(fields["field"]):
        return None
    if fields["then"] and fields["then"] not in getattr(game, "FOLLOW_UPS", {}).get(move, ()):
        return None
    return fields


def _history_rows(db, match, log, seat: int | None, at: int | None = None) -> tuple[list[dict], dict]:
    """The stored entries of one history page (``history_page``) with what became of each (``status``):
    it stands; it was undone; a later correction took its place (``by``, that correction's number); the
    rules set it aside (``why``: a correction before it changed what it fits, or it no longer applies on
    replay); or it is an undo. ``correct_number``: the entry to correct from this row, when it stands, is
    about the cards (or is a correction, corrected again) and this phone sees all of it. With them, the
    seat changes made while those entries were made, and the page: start, stop and total."""
    stored = store.entries(db, match.id)
    whole = [item["entry"] for item in stored]
    also = plays_for(match.id, match.players)
    seen = whole_for(log, whole, log.game.redact(log.state, whole, seat), also)
    photos = scans.kept_photos(db, match.id)
    decided = any(isinstance(item["entry"], dict) and item["entry"].get("move") in ("resolve_flag", END_MOVE)
                  for item in stored)
    start, stop = history_page(len(stored), at)
    # the state each entry was applied to: the round it was made in (the history is headed round by round),
    # what became of a play (SH-18) or a build (SM-12, SM-14), which dispute a decision decided, and after how
    # many rounds the table ended the match (a log opened from a snapshot replays from the deal, only as far
    # as this page's last entry)
    befores = states_before(db, match, log, stored[:stop])
    fates = _entry_fates(log, whole, as_owned(log, whole, seat, seen, also))
    rows = []
    for item, visible, fate in zip(stored[start:stop], seen[start:stop], fates[start:stop]):
        position = item["seq"] - 1
        words = entry_words(log, item["entry"], befores.get(position))
        rows.append({**item, **fate, "words": words, "plain": _plain(words), "kind": "entry",  # plain: in an attribute
                     "round": _round_of(befores.get(position)),
                     "photos": photos.get(item["seq"], []) if visible == item["entry"] else []})
    # the seat changes made after the last entry of the page before, up to this page's last entry
    after = stored[start - 1]["created_at"] if start else None
    until = stored[stop - 1]["created_at"] if stop < len(stored) else None
    for claim in _seat_claims(db, match):
        if (after is None or claim["created_at"] > after) and (until is None or claim["created_at"] <= until):
            rows.append(claim)
    rows.sort(key=lambda r: (r["created_at"], r.get("position", -1)))
    return rows, {"start": start, "stop": stop, "total": len(stored)}


def _round_of(before: Any) -> int | None:
    """The round (or game) an entry made from state ``before`` belongs to: one more than those finished, or,
    once the match is over (a correction, an undo, a dispute decided after it), the last one: no round 3
    heads the history of a match of two."""
    finished = getattr(before, "history", None) if before is not None else None
    if not isinstance(finished, (tuple, list)):
        return None
    return len(finished) + (0 if finished and getattr(before, "over", False) is True else 1)


def _entry_fates(log, whole: list, seen: list) -> list[dict]:
    """For each stored entry (``whole``, as this phone sees them: ``seen``), what became of it: its
    ``position``, ``status`` (with ``by``, ``undid``, ``rule`` and ``why`` as the status has them) and
    ``correct_number``, the entry a "Correct" on its row corrects (None: the row offers none). This is the
    one rule of what may be corrected: the history's buttons, the correction page and the server's check
    of a posted correction (``correct_refusal``) all read it."""
    standing = set(log.positions())
    set_aside = {position: (rule, message) for position, rule, message in log.refused}
    replaced_by = _corrections_standing(whole, log)
    undone_by = dict(log.undone)
    undone = set(undone_by.values())
    rows = []
    for position, (entry, visible) in enumerate(zip(whole, seen)):
        move = entry.get("move") if isinstance(entry, dict) else None
        target = entry.get("target") if move == "correct" else None
        row: dict[str, Any] = {"position": position, "status": "stands", "correct_number": None}
        if position in set_aside:
            row.update(status="set_aside", rule=set_aside[position][0], why=set_aside[position][1])
        elif move == "undo":
            row.update(status="undo", undid=undone_by.get(position))
        elif move == "correct":
            last = replaced_by.get(target)
            if position in undone:
                row["status"] = "undone"
            elif last is not None and last != position:
                row.update(status="corrected", by=last)
            elif target not in standing:
                row["status"] = "undone"
        elif position in replaced_by:
            row.update(status="corrected", by=replaced_by[position])
        elif position not in standing:
            row["status"] = "undone"
        if row["status"] == "stands" and visible == entry and (move == "correct" or move not in (*LOG_MOVES, END_MOVE)):
            row["correct_number"] = target if move == "correct" else position  # corrected again from its row
        rows.append(row)
    return rows


def correct_refusal(log, whole: list, number: Any, seat: int | None,
                    also: frozenset[int] = frozenset()) -> tuple[int, str] | None:
    """Why this phone may not correct stored entry ``number`` — (an HTTP status, the words) — or None when
    the history offers it a "Correct" for that entry (``_entry_fates``): a correction the history would
    not offer is refused whoever posts it, before the rules see it (an override, an undo or an undone
    entry is never replaced by a correction that sets aside what followed)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(whole):
        return 404, gettext("There is no such entry.")
    seen = as_owned(log, whole, seat, log.game.redact(log.state, whole, seat), also)
    if any(fate["correct_number"] == number for fate in _entry_fates(log, whole, seen)):
        return None
    entry = whole[number]
    hidden = None if isinstance(entry, dict) and entry.get("move") == "override" else \
        _hidden_from(log, whole, number, seat, also)  # (an override is never corrected, whoever's it is)
    if hidden:
        return 403, hidden
    if isinstance(entry, dict) and entry.get("move") == END_MOVE:
        return 422, gettext("Entry %(number)s ended the match: it cannot be corrected, but an undo takes it back.",
                            number=number)
    if isinstance(entry, dict) and entry.get("move") in LOG_MOVES:
        return 422, gettext("Entry %(number)s cannot be corrected: it is about other entries, not about the cards.",
                            number=number)
    return 422, gettext("Entry %(num)s is not an entry that stands, so it cannot be corrected.", num=number)


def private_write_refusal(log, whole: list, entry: dict, match) -> str | None:
    """Why this phone may not make ``entry`` (a correction, or the shared phone's own entry): it would
    record what only another seat saw (the card of a peek, a first look, a card drawn) — what that seat's
    own phone alone may enter (GEN-6); None when it may. The shared phone enters for a seat no phone holds
    or held, as it does its peeks."""
    correction = entry.get("move") == "correct"
    inner = entry.get("entry") if correction else entry
    seat = phone_seat(match.id)
    owner = inner.get("seat") if isinstance(inner, dict) else None
    if seat is None and is_shared(match.id) and owner in match.players \
            and not held_by_a_phone(match.id, match.players.index(owner)):
        seat = match.players.index(owner)
    if log.game.redact(log.state, [*whole, entry], seat)[-1] == entry and not (
            correction and _writes_another_seats_sight(log, whole, entry, seat)):
        return None
    name = owner if isinstance(owner, str) else "?"
    if not correction:
        return gettext("Only %(name)s's phone can note what %(name)s saw: enter it here without the card, or on "
                       "%(name)s's phone.", name=name)
    return gettext("Only %(name)s's phone can enter what %(name)s saw: ask them to correct it.", name=name)


def _writes_another_seats_sight(log, whole: list, entry: dict, seat: int | None) -> bool:
    """Whether correction ``entry`` writes what only its entry's player saw (a peek's card, a first look, a
    card drawn) that the entry it corrects does not already say, from a phone that is not that player's.
    A finished round's notes are open to every phone, but what a player saw is still theirs to say: another
    phone would put words in her mouth, and the note might then raise a dispute in her name (GEN-4, GEN-6)."""
    hide = getattr(log.game, "hide_private", None)
    inner = entry.get("entry")
    number = entry.get("target")
    if hide is None or not isinstance(inner, dict) or not isinstance(number, int) or not 0 <= number < len(whole):
        return False
    owner = inner.get("seat")
    if seat is not None and owner == log.state.players[seat]:
        return False
    try:
        private = {key for key, value in inner.items() if hide(log.state, inner).get(key) != value}
    except Exception:  # noqa: BLE001 - an entry the game cannot read: the engine says what is wrong with it
        return False
    if not private:
        return False
    last = _corrections_standing(whole, log).get(number)
    standing = whole[number] if last is None else whole[last].get("entry")
    while isinstance(standing, dict) and standing.get("move") == "override":
        standing = standing.get("entry")
    standing = standing if isinstance(standing, dict) else {}
    return any(standing.get(key) != inner.get(key) for key in private)


def _corrections_standing(entries: list, log) -> dict[int, int]:
    """For each corrected position, the number of the last correction of it the rules did not set aside
    and no undo took back."""
    gone = {position for position, _, _ in log.refused} | {target for _, target in log.undone}
    out: dict[int, int] = {}
    for position, entry in enumerate(entries):
        if isinstance(entry, dict) and entry.get("move") == "correct" and position not in gone \
                and isinstance(entry.get("target"), int):
            out[entry["target"]] = position
    return out


_DECIDED_AT = re.compile(r"(?:accepted|overridden) by .+? at entry (\d+)")


def _corrected_since_decided(db, match, view: dict) -> dict[int, tuple[int, int]]:
    """For each decided dispute, an entry it points at that was corrected after the decision: {flag id:
    (the entry corrected, the correction)}. The decision stays recorded, but the dispute is said as the
    corrected entries say it now: the table is told the words changed after it decided."""
    decided = [f for f in view.get("flags", ()) if f.get("status") != "open"]
    if not decided:
        return {}
    rows = db.conn.execute(  # (an entry stored before entries were bounded may not be JSON SQLite reads)
        "SELECT seq, target FROM (SELECT seq, CASE WHEN json_valid(entry) THEN json_extract(entry, '$.move') END"
        " AS move, CASE WHEN json_valid(entry) THEN json_extract(entry, '$.target') END AS target FROM entries"
        " WHERE match_id = ?) WHERE move = 'correct'", (match.id,)).fetchall()
    out = {}
    for f in decided:
        found = _DECIDED_AT.match(f.get("resolution") or "")
        if found is None:
            continue
        at = int(found.group(1))
        later = [(target, seq - 1) for seq, target in rows if seq - 1 > at and target in f.get("entries", ())]
        if later:
            out[f["id"]] = later[-1]
    return out


def _phone_owners(claims: list[dict]) -> tuple[dict[str, int], dict[str, int]]:
    """Whose phone each phone is: the first seat it took that no other phone had held (a phone that took Ana's
    seat over by mistake, then sat in Ben's, is Ben's), and, for naming it, that seat or else the first seat
    it held, unless that seat is another phone's own (a second phone that took Ben's seat for a while is not
    "Ben's phone": Ben's own phone is; it goes unnamed, "another phone")."""
    own: dict[str, int] = {}
    named: dict[str, int] = {}
    used: dict[int, set] = {}
    for claim in claims:
        device, seat = claim.get("device"), claim["seat"]
        if seat == SHARED_SEAT or not device:
            continue
        if not used.get(seat, set()) - {device}:
            own.setdefault(device, seat)
        named.setdefault(device, seat)
        used.setdefault(seat, set()).add(device)
    owned = set(own.values())
    return own, {**{d: s for d, s in named.items() if s not in owned}, **own}


def _seat_claims(db, match) -> list[dict]:
    """For the history (nothing private: no device ids): a seat taken by a phone after another phone held
    it, or by a phone that held another seat, named by whose phone it is (`_phone_owners`: "Ben's phone
    took Ana's seat": it then sees what Ana noted; "Ben's phone went back to Ben's seat"), and a phone
    turned into the phone for everyone (it may then enter for every seat no other phone holds)."""
    out = []
    held: dict[str, int] = {}  # the seat each phone last held
    claims = store.seat_claims(db, match.id)
    own, owners = _phone_owners(claims)  # whose phone each phone is (by its own seat; by a seat, to name it)
    first: dict[str, int] = {}  # the phones seen so far (their owners, once seen)
    users: dict[int, set] = {}  # the phones that ever held each seat
    players = match.players
    shared_since = None  # when a phone first became the phone for everyone
    first_entry = db.conn.execute("SELECT min(created_at) FROM entries WHERE match_id = ?", (match.id,)).fetchone()[0]

    def said(seat: int) -> Markup:  # a name isolated from the sentence's direction (Latin in Hebrew, and back)
        return Markup("<bdi>{}</bdi>").format(players[seat] if 0 <= seat < len(players) else "?")

    for claim in claims:
        device, seat = claim.get("device"), claim["seat"]
        if not device:
            continue
        if seat == SHARED_SEAT and shared_since is None:
            shared_since = claim["claimed_at"]
        before, mine = held.get(device), owners.get(device)
        words = None
        if seat == SHARED_SEAT:
            words = gettext("%(name)s's phone became the phone for everyone.", name=said(mine)) \
                if device in first and mine is not None else gettext("A phone became the phone for everyone.")
        else:
            others = users.get(seat, set()) - {device}
            moved = before is not None and before != seat
            if seat == own.get(device) and device in users.get(seat, set()) and (moved or others):
                words = gettext("%(name)s's phone went back to %(name)s's seat.", name=said(seat))  # its own again
            elif seat == own.get(device) and (moved or others):
                words = gettext("%(name)s's phone took %(name)s's own seat.", name=said(seat))
            elif moved and mine is not None:
                words = gettext("%(other)s's phone took %(name)s's seat.", other=said(mine), name=said(seat))
            elif moved:
                words = gettext("Another phone took over %(name)s's seat.", name=said(seat))
            elif others and mine is not None and mine != seat:
                words = gettext("%(other)s's phone took over %(name)s's seat.", other=said(mine), name=said(seat))
            elif others:
                words = gettext("Another phone took over %(name)s's seat.", name=said(seat))
            elif (before is None and not users.get(seat) and shared_since is not None and first_entry is not None
                  and claim["claimed_at"] > max(shared_since, first_entry)):
                # the seat was played on the phone for everyone until now: from here its notes show there no more
                words = gettext("%(name)s now plays on their own phone, no longer on the phone for everyone.",
                                name=said(seat))
            for other in [d for d, s in held.items() if s == seat and d != device]:
                del held[other]  # that phone lost the seat: it holds none now
            held[device] = seat
            first.setdefault(device, seat)
            users.setdefault(seat, set()).add(device)
        if words:
            out.append({"kind": "seat", "created_at": claim["claimed_at"], "words": Markup(words)})
    return out


@bp.get("/history")
def history(match_id: str):
    """The match's entries, a page of them at a time (``HISTORY_PAGE``): the latest, or the page holding
    entry ``at`` (a ruling's "Entry 12" links there), so a long match's history stays quick to serve."""
    db, match, log = load(match_id)
    ctx = screen_context(match, log)
    rows, page = _history_rows(db, match, log, phone_seat(match_id), request.args.get("at", type=int))
    ctx.update(rows=rows, page=page, game_rounds=round_noun(match.game) == "game")
    return render_template("table/history.html", **ctx)


HISTORY_PAGE = 200  # entries a history page shows


def history_page(total: int, at: int | None) -> tuple[int, int]:
    """The entries one history page shows, as (start, stop): pages of ``HISTORY_PAGE`` counted back from
    the latest entry, so the latest page is full and the page before it ends where it starts; the page
    holding entry ``at``, else the latest."""
    back = 0 if at is None or not 0 <= at < total else (total - 1 - at) // HISTORY_PAGE
    stop = total - back * HISTORY_PAGE
    return max(0, stop - HISTORY_PAGE), stop


@bp.get("/correct/<int:number>")
def correct_page(match_id: str, number: int):
    """Correct a past entry with the same pickers as the original: the fields, prefilled, to change (as
    the last correction of it says them, when it was corrected before)."""
    db, match, log = load(match_id)
    require_entrant(match_id, "correct an entry")
    history = [item["entry"] for item in store.entries(db, match_id)]
    refusal = correct_refusal(log, history, number, phone_seat(match_id), plays_for(match.id, match.players))
    if refusal:
        abort(*refusal)
    return _correction_page(db, match, log, history, number)


def _correction_page(db, match, log, history: list, number: int, status: int = 200, typed: dict | None = None,
                     set_aside: list | None = None, **extra) -> Response:
    """The correction page of entry ``number``: what it says now and its pickers, prefilled with it, or with
    what this phone ``typed`` (a correction it posted that was refused: ``extra`` holds the ruling or the
    notice, and ``entry``, the refused correction, to let stand). The reason typed is kept too."""
    last = _corrections_standing(history, log).get(number)
    original = history[number] if last is None else history[last]["entry"]
    if original.get("move") == "override" and isinstance(original.get("entry"), dict):
        original = original["entry"]  # a correction let stand (GEN-5): its pickers show the entry it holds
    ctx = screen_context(match, log, **extra)
    before = states_before(db, match, log).get(number) if last is None else None  # the entry as it was applied
    inner = typed.get("entry") if typed is not None else None
    ctx.update(number=number, original=inner if isinstance(inner, dict) else original, stored=original,
               words=entry_words(log, original, before), ruling_page=True,
               reason=typed.get("reason", "") if typed is not None else "",
               sight_elsewhere=_sight_elsewhere(match, log, original), set_aside=set_aside or [],
               places_n=_places_then(before))
    return _no_store(Response(render_template("table/correct.html", **ctx), status=status))


def _cards_named(entry: Any) -> list[str]:
    """Every card an entry names (a card, a reveal's cards, what was seen), as codes: the cards a photo kept
    with it may name (``scans.attach``)."""
    found: list[str] = []
    values = list(entry.values()) if isinstance(entry, dict) else []
    while values:
        value = values.pop(0)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
    return found


def _places_then(before: Any) -> int | None:
    """How many places the longest row had when the entry was made (a correction offers no place 7 where
    the rows held four cards); None when the state does not say (no rows, a correction corrected again)."""
    rows = getattr(getattr(before, "round", None), "rows", None)
    if not rows:
        return None
    lengths = [len(row) for row in (rows.values() if isinstance(rows, dict) else rows)]
    return max(lengths) if lengths else None


def _sight_elsewhere(match, log, entry: dict) -> str | None:
    """The player whose sight ``entry`` holds (a peek, a first look), when this phone may not say what they
    saw (`_writes_another_seats_sight`): the correction page keeps it as it stands."""
    owner = entry_seat(log.state, entry) if isinstance(entry, dict) else None
    if not isinstance(owner, int) or not 0 <= owner < len(match.players) or owner == phone_seat(match.id):
        return None
    if is_shared(match.id) and not held_by_a_phone(match.id, owner):
        return None
    return match.players[owner]


def _hidden_from(log, history: list, number: int, seat: int | None, also: frozenset[int] = frozenset()) -> str | None:
    """Why this phone may not correct entry ``number`` (the last correction of it, when there is one), or
    None: an entry holding what only another seat saw (a first look, a peek) would show this phone
    "unknown" there, and a correction would put that over what the player noted."""
    last = _corrections_standing(history, log).get(number)
    shown = number if last is None else last
    if not 0 <= shown < len(history) or as_owned(log, history, seat, history, also)[shown] == history[shown]:
        return None  # (a correction of no entry is the engine's to refuse, GEN-13)
    inner = history[shown].get("entry") if last is not None else history[shown]
    owner = entry_seat(log.state, inner if isinstance(inner, dict) else history[shown])
    name = log.state.players[owner] if owner is not None else "?"
    return gettext("Only %(name)s's phone can correct this entry: it holds what only %(name)s saw.", name=name)


def sees_whole(log, entries: list, seat: int | None, position: int) -> bool:
    """Whether seat ``seat`` sees stored entry ``position`` as it was entered (nothing in it is another
    seat's alone: a first look, a peek): the test for seeing its photo."""
    return log.game.redact(log.state, entries, seat)[position] == entries[position]


def as_owned(log, entries: list, seat: int | None, seen: list, also: frozenset[int] = frozenset()) -> list:
    """``seen`` (the entries as ``seat`` sees them now) with every other seat's private sighting hidden
    still, however the round went: once the cards are revealed anyone may read a first look, but only
    its player's phone may change it (GEN-6; ``hide_private``, for the games that have private sightings).
    The entries of the seats in ``also`` (those the phone for everyone plays for: ``plays_for``) stay whole."""
    hide = getattr(log.game, "hide_private", None)
    if hide is None:
        return whole_for(log, entries, seen, also)
    # Another seat's sighting this seat may not read now is that seat's alone whether or not a card was
    # noted in it: were one left "unknown" offered a "Correct" (or a correction let through) and one noted
    # not, the other phones would learn which it was. So each entry is also redacted as if every sighting
    # in it were noted, and one that redaction would hide is kept from this phone as a noted one is.
    probed = [_noted_everywhere(entry) for entry in entries]
    probed_seen = log.game.redact(log.state, probed, seat)
    out = []
    for entry, shown, probe, probe_seen in zip(entries, seen, probed, probed_seen):
        if _by_one_of(log, entry, also):
            out.append(entry)
        elif shown != entry:
            out.append(shown)
        else:
            hidden = redact_entry(log.state, entry, seat, 0, hide)
            out.append(hidden if hidden != entry else {**entry, "private": True} if probe_seen != probe else entry)
    return out


_PROBED = ("card", "seen", "target_seen")  # the fields a private sighting is noted in (``hide_private``)
_NOTED = "?"  # a sighting noted, in place of whatever was (a card, or nothing)


def _noted_everywhere(entry: Any) -> Any:
    """``entry`` with every sighting field holding a card noted (``_NOTED``), one a slot where slots are
    named (a first look left unknown is stored without them), nested entries too."""
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    if isinstance(entry.get("entry"), dict):
        out["entry"] = _noted_everywhere(entry["entry"])
    for key in _PROBED:
        value = entry.get(key)
        if isinstance(value, list):
            out[key] = [_NOTED if v in (None, "unknown") else v for v in value]
        elif value in (None, "unknown"):
            slots = entry.get("slots")
            out[key] = [_NOTED] * len(slots) if key == "seen" and isinstance(slots, list) else _NOTED
    return out


def plays_for(match_id: str, players: tuple | list) -> frozenset[int]:
    """The seats whose private entries this phone made and sees whole besides its own: for the phone for
    everyone, the seats no phone holds or held (it notes their first looks and peeks in front of everyone
    looking, CAB-2, RTC-6, and corrects them: no other phone may); for a player's phone, none."""
    if phone_seat(match_id) is not None or not is_shared(match_id):
        return frozenset()
    return frozenset(i for i in range(len(players)) if not held_by_a_phone(match_id, i))


def _by_one_of(log, entry: Any, seats: frozenset[int]) -> bool:
    """Whether ``entry`` (or the entry an override or a correction holds) is by one of ``seats``."""
    if not seats or not isinstance(entry, dict):
        return False
    inner = entry.get("entry") if entry.get("move") in ("override", "correct") else entry
    return isinstance(inner, dict) and entry_seat(log.state, inner) in seats


def whole_for(log, entries: list, seen: list, seats: frozenset[int]) -> list:
    """``seen`` with the entries by ``seats`` whole (``plays_for``)."""
    if not seats:
        return seen
    return [entry if _by_one_of(log, entry, seats) else shown for entry, shown in zip(entries, seen)]


@bp.get("/photo/<int:photo_id>.jpg")
def kept_photo(match_id: str, photo_id: int):
    """A photo kept with the match, outlines drawn, shown to every phone that may see its entry: a
    photo of a card only one seat saw (a peek, a first look) only to that seat's phone; none once its
    entry was undone (taken back, the photo went with it)."""
    from .nights import MAX_ID

    db, match, log = load(match_id)
    found = scans.kept_photo(db, match_id, photo_id) if photo_id <= MAX_ID else None  # SQLite's ids end there
    if found is None:
        abort(404, description=gettext("There is no such photo at this table."))
    seq, jpeg = found
    whole = [item["entry"] for item in store.entries(db, match_id)]
    if not 0 < seq <= len(whole) or not sees_whole(log, whole, phone_seat(match_id), seq - 1):
        abort(403, description=gettext("That photo shows what only another player saw."))
    if seq - 1 in dict(log.undone).values():
        abort(404, description=gettext("That photo's entry was undone: the photo went with it."))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "private, no-store"})


@bp.get("/transcript.json")
def download(match_id: str):
    """The match as a transcript: ``referee check`` on it gives the same rulings and scores. Mid-round,
    a phone's download holds only what that phone may see (another seat's peeks are left out)."""
    db, match, log = load(match_id)
    entries = log.game.redact(log.state, [e["entry"] for e in store.entries(db, match_id)], phone_seat(match_id))
    dealer = match.players[match.dealer] if match.dealer is not None else None  # a rematch's (SH-53)
    body = transcript.dumps(match.game, tuple(match.players), match.rules, dealer, entries,
                            title=f"Table {match.join_code}", match=match.id, date=match.created_at[:10])
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="referee-{match.id}.json"', "Cache-Control": "no-store"})


# --- Entries ---------------------------------------------------------------------------------


def _append(db, match_id: str, expected: int, entry: dict, key: str | None, follow: tuple = ()):
    """``tables.append`` for this phone; with ``follow`` (the (entry, key) pairs one tap makes after it), all
    of them in one transaction (``store.append``'s ``follow``): every one stands, or none does."""
    if not follow:
        return tables.append(db, match_id, expected, entry, key, seat=phone_seat(match_id), device=device_id())
    try:
        return store.append(db, match_id, expected, entry, key, tables.checked_feed, replay_fn=tables.replay,
                            seat=phone_seat(match_id), device=device_id(), notify=live.publish, follow=follow)
    except store.UnstorableEntry as err:  # as tables.append says it
        raise EntryError("entry", err.message) from None
    except TypeError as err:
        raise EntryError("entry", "The entry holds values that cannot be stored.") from err


class _Refused(Exception):
    """A form this phone may not post as it is: the status and the notice its screen shows (nothing saved)."""

    def __init__(self, status: int, notice: str):
        super().__init__(notice)
        self.status, self.notice = status, notice


def override_refusal(game, match, inner: Any) -> str | None:
    """Why this phone may not let the refused entry ``inner`` stand, or None. The screen offers a phone the
    override of its own refused entry, and the shared phone anyone's: the entry is read again as if this
    phone had posted it (``entry_to_form``, then ``entry_from_form`` with its own seat), and it must be
    whose it says (a seated phone's entry is its own seat's, but for one naming whose cards they are: a
    reveal, a pay-off top), the same check as the entry itself gets."""
    seat = phone_seat(match.id)
    if is_shared(match.id) or seat is None or not isinstance(inner, dict):
        return None  # the shared phone enters for anyone; what is no entry is the engine's to refuse
    players = tuple(match.players)
    named = inner.get("seat")
    try:
        owner = game.entry_from_form(game.entry_to_form(inner), players, seat, shared=False).get("seat")
    except Exception:  # noqa: BLE001 - an entry no form makes: only the phone's own seat, or nobody's, passes
        owner = named if named in (None, players[seat]) else players[seat]
    if owner == named:
        return None
    name = named if isinstance(named, str) and named in players else "?"
    return gettext("Only %(name)s's phone can let %(name)s's refused entry stand: ask them, or use the phone "
                   "for everyone.", name=name)


def follow_up(game, match, log, entry: dict, then: str) -> dict:
    """The second entry of a one-tap pair (``then``: a Draw 2 used, then its draw), read exactly as if this
    phone had posted it itself: its own seat, or on the shared phone the first entry's player (whom its
    buttons name). Only a continuation the game's forms offer after the first entry's move
    (``FOLLOW_UPS``), by the same player; raises _Refused otherwise."""
    if then not in getattr(game, "FOLLOW_UPS", {}).get(entry.get("move"), ()):
        raise _Refused(400, gettext("That entry cannot be followed by another in the same tap: enter each on "
                                    "its own."))
    shared = is_shared(match.id)
    form = {"move": then}
    if shared and isinstance(entry.get("seat"), str):
        form["for"] = entry["seat"]
    noted = request.form.get("then_card", "")
    if noted:  # the card drawn, noted for the drawer alone (RTC-K12): as "Draw and note the card" notes it
        if shared:
            raise _Refused(403, gettext("A card drawn is noted only on the drawer's own phone: enter the draw here "
                                        "without it."))
        form["card"] = noted
    try:
        follow = game.entry_from_form(form, tuple(match.players), phone_seat(match.id), shared=shared,
                                      turn=game.to_act(log.state))
    except EntryError as err:
        raise _Refused(400, _unreadable(err.message)) from None
    if follow.get("seat") != entry.get("seat"):
        name = entry["seat"] if isinstance(entry.get("seat"), str) else "?"
        raise _Refused(403, gettext("That tap would enter %(name)s's entry and then one of yours: enter each "
                                    "on its own.", name=name))
    return follow


def _alone_fits(log, match, expected: int, entry: dict) -> bool:
    """Whether ``entry`` alone fits the table as this phone's screen showed it (the rules refused the pair
    it began: then the entry that follows it was the one refused)."""
    if expected != match.version:
        return False
    try:
        tables.checked_feed(log, entry)
    except Exception:  # noqa: BLE001 - refused, malformed, or reaching back: not known to fit alone
        return False
    return True


@bp.post("/entry")
def post_entry(match_id: str):
    db, match, log = load(match_id)
    require_entrant(match_id)
    raw_version = request.form.get("version", "")
    if not raw_version.isascii() or not raw_version.isdigit() or len(raw_version) > 9:
        abort(400, description=gettext("The form is missing the version it was made for; reload the page."))
    expected = int(raw_version)
    key = request.form.get("key", "") or None  # never cut: the store bounds a long key by its digest
    target = request.form.get("target_entry", "") if request.form.get("move") == "correct" else ""
    if target.isascii() and target.isdigit() and len(target) <= 9 and int(target) >= match.version:
        # said before the corrected entry is read: its player and cards mean nothing for an entry never made
        return render_screen(match, log, 404, notice=gettext("There is no such entry."))
    try:
        entry = log.game.entry_from_form(request.form, tuple(match.players), phone_seat(match_id),
                                         shared=is_shared(match_id), turn=log.game.to_act(log.state))
    except EntryError as err:
        page = _unreadable_correction(db, match, log, _unreadable(err.message))
        return page if page is not None else render_screen(match, log, 400, notice=_unreadable(err.message))
    if (entry.get("move") == "undo" and expected == match.version and log.undo_target() is not None
            and not may_undo(log, phone_seat(match_id), is_shared(match_id), _made_here(db, match, log))):
        if log.head.correction is not None:
            return render_screen(match, log, 403, notice=gettext(
                "Only the phone that made the correction of entry %(number)s can undo it: ask them, or correct "
                "the entry again from the history.", number=log.head.correction[1]))
        owner = getattr(log.head.move, "seat", None)
        name = match.players[owner] if isinstance(owner, int) and 0 <= owner < len(match.players) else "?"
        return render_screen(match, log, 403, notice=gettext(
            "Only %(name)s's phone can undo %(name)s's entry: ask them, or correct it from the history.", name=name))
    if entry.get("move") == "correct":  # only what the history offers to correct (correct_refusal)
        whole = [item["entry"] for item in store.entries(db, match_id)]
        refusal = correct_refusal(log, whole, entry.get("target"), phone_seat(match_id),
                                  plays_for(match.id, match.players))
        if refusal:
            return render_screen(match, log, 403 if refusal[0] == 403 else 422, notice=refusal[1])
        refusal = private_write_refusal(log, whole, entry, match)
        if refusal:
            return render_screen(match, log, 403, notice=refusal)
        if not request.form.get("attach") and _changes_nothing(log, whole, entry):
            return _correction_answer(db, match, log, entry, 422, gettext(
                "Entry %(number)s already says that: nothing was changed.", number=entry["target"]))
        if request.form.get("set_aside_ok") != "1":
            gone = _would_set_aside(db, match, log, entry)
            if gone:  # asked first: a correction of a past round can undo every round since
                return _correction_answer(db, match, log, entry, 409, ngettext(
                    "This correction would set entry %(entries)s aside: it would no longer fit once the "
                    "correction is replayed (the history would say why). Record the correction again to make "
                    "it anyway, or go back to the history.",
                    "This correction would set entries %(entries)s aside: they would no longer fit once the "
                    "correction is replayed (the history would say why). Record the correction again to make "
                    "it anyway, or go back to the history.", len(gone), entries=_ranges(gone)), set_aside=gone)
    hide = getattr(log.game, "hide_private", None)  # (the whole log is read only for an entry with a card seen)
    if (is_shared(match_id) and entry.get("move") not in LOG_MOVES and hide is not None
            and hide(log.state, entry) != entry):
        refusal = private_write_refusal(log, [item["entry"] for item in store.entries(db, match_id)], entry, match)
        if refusal:
            return render_screen(match, log, 403, notice=refusal)
    if entry.get("move") == "override":  # only what this phone could have entered itself
        refusal = override_refusal(log.game, match, entry.get("entry"))
        if refusal:
            return render_screen(match, log, 403, notice=refusal)
    # One tap for two entries (``then``): both or neither. The second is read and checked before anything is
    # saved, and the store appends the two in one transaction, so a refused second never leaves the first
    # standing alone (nor a first refused, the second).
    follow: tuple = ()
    then = request.form.get("then", "")
    if then:
        try:
            follow = ((follow_up(log.game, match, log, entry, then), f"{key}-{then[:20]}" if key else None),)
        except _Refused as refused:
            return render_screen(match, log, refused.status, notice=refused.notice)
    for attempt in range(4):
        try:
            done = _append(db, match_id, expected, entry, key, follow)
            break
        except store.StaleVersion:
            match = store.get_match(db, match_id)
            log = store.state_at(db, match, tables.replay)
            if attempt < 3 and (_alongside(db, log.game, match_id, expected, entry)
                                or _correction_still_fits(db, log, match_id, expected, entry)):
                expected = match.version  # only other seats' reveals came first: this one stands beside them
                continue
            return _correction_answer(db, match, log, entry, 409, _came_first(db, log, match_id, expected))
        except store.KeyReused:
            return _moved_on(db, match_id)
        except Ruling as ruling:
            if (entry.get("move") == "correct" and not is_htmx() and "c_move" in request.form
                    and isinstance(entry.get("target"), int)):
                # the correction page's own form: the refusal is said there, over the form as it was filled in
                return _correction_page(db, match, log, [item["entry"] for item in store.entries(db, match_id)],
                                        entry["target"], 422, typed=entry, ruling=ruling, entry=entry)
            if follow and _alone_fits(log, match, expected, entry):  # the second entry was refused
                return render_screen(match, log, 422, ruling=ruling)
            return render_screen(match, log, 422, ruling=ruling, entry=entry)
        except EntryError as err:
            return render_screen(match, log, 400, notice=gettext("That entry is not complete: %(why)s",
                                                                 why=_form_words(err.message, err.field)))
    if request.form.get("attach") and not done.duplicate:
        scans.attach(db, match_id, done.seq, request.form["attach"], owner=device_id(), entered=_cards_named(entry))
    match = dataclasses.replace(match, version=done.version)
    set_aside = _set_aside_now(log, done.state)
    if not is_htmx():
        if set_aside:  # a correction set later entries aside: the history shows which, and why
            return redirect(url_for("play.history", match_id=match_id, at=done.seq - 1) + f"#e{done.seq - 1}", code=303)
        return redirect(url_for("play.table", match_id=match_id), code=303)
    return render_screen(match, done.state, notice=set_aside)


def _unreadable_correction(db, match, log, notice: str) -> Response | None:
    """A correction posted from the correction page that could not be read (a reason of nothing but spaces):
    that page again, with ``notice`` and the form as it was filled in; None for any other unreadable form (the
    table screen says it) or a correction this phone may not make."""
    form = request.form
    target = form.get("target_entry", "")
    if (form.get("move") != "correct" or is_htmx() or "c_move" not in form
            or not (target.isascii() and target.isdigit() and len(target) <= 9)):
        return None
    history = [item["entry"] for item in store.entries(db, match.id)]
    if correct_refusal(log, history, int(target), phone_seat(match.id), plays_for(match.id, match.players)):
        return None
    reason = form.get("reason", "")[:300]
    with_reason = form.copy()
    with_reason["reason"] = "-"  # read the pickers as typed, whatever the reason was
    try:
        typed = log.game.entry_from_form(with_reason, tuple(match.players), phone_seat(match.id),
                                         shared=is_shared(match.id), turn=log.game.to_act(log.state))
    except EntryError:
        typed = {}  # the pickers themselves unreadable: the entry as it stands
    return _correction_page(db, match, log, history, int(target), 400, typed={**typed, "reason": reason},
                            notice=notice)


def _unreadable(message: str) -> str:
    """The notice for a form no entry can be read from, with the reason in the phone's language: said once
    ("That entry is not readable: The entry is not readable." would say it twice)."""
    why = _form_words(message)
    if message == UNREADABLE:
        return why
    return gettext("That entry is not readable: %(why)s", why=why)


def _form_words(message: str, field: str = "") -> str:
    """Why a form's entry cannot be read, in the phone's language. A reason said from the field's side ("is
    "accept" or "override"") is given the field as its subject. What no catalogue says (only a form changed
    by hand, or one made for another screen, can be that wrong) is said in the phone's language in general
    words, never in English on a phone set to another language."""
    if message.startswith("is ") and field:
        message = f"{field.rsplit('.', 1)[-1]} {message}"
    said = ruling_text("", message)
    if said == message and lang() != "en":
        return gettext("The form was changed, or made for another screen: reload the page and enter it again.")
    return said


def _alongside(db, game, match_id: str, expected: int, entry: dict) -> bool:
    """Whether an entry made at version ``expected`` may still be applied now: it is one every player makes
    at the same moment for their own seat (a reveal, a first look: ``game.SIMULTANEOUS``), and so is every
    entry made since, each for another seat. The whole family reveals at once; only the first would
    otherwise be saved. The engine still checks it against the table as it is now."""
    moves = getattr(game, "SIMULTANEOUS", ())
    if entry.get("move") not in moves or not isinstance(entry.get("seat"), str):
        return False
    since = store.entries(db, match_id, after=expected)
    return bool(since) and all(isinstance(row["entry"], dict) and row["entry"].get("move") in moves
                               and row["entry"].get("seat") != entry["seat"] for row in since)


def _correction_still_fits(db, log, match_id: str, expected: int, entry: dict) -> bool:
    """Whether a correction made at version ``expected`` may be applied now: a correction replaces a past
    entry and replays what followed it, so entries of play made since do not change what it says; an undo
    or another correction might (of that very entry), and then the phone is shown the table first."""
    if entry.get("move") != "correct":
        return False
    since = store.entries(db, match_id, after=expected)
    if not since or any(not isinstance(row["entry"], dict) or row["entry"].get("move") in ("undo", "correct")
                        for row in since):
        return False
    whole = [item["entry"] for item in store.entries(db, match_id)]
    return correct_refusal(log, whole, entry.get("target"), phone_seat(match_id),
                           plays_for(match_id, log.state.players)) is None


def _changes_nothing(log, whole: list, entry: dict) -> bool:
    """Whether correction ``entry`` says what its entry already says (as its last correction says it): a
    form posted twice (the back button brings back a correction already made) records nothing; one that
    keeps a photo of the cards as proof is not asked this."""
    number = entry.get("target")
    last = _corrections_standing(whole, log).get(number)
    standing = whole[number] if last is None else whole[last].get("entry")
    if isinstance(standing, dict) and standing.get("move") == "override" and isinstance(standing.get("entry"), dict):
        standing = standing["entry"]
    players, rules = log.state.players, log.state.rules
    try:
        return log.game.parse_move(entry.get("entry"), players, rules) == log.game.parse_move(standing, players, rules)
    except Exception:  # noqa: BLE001 - either one unreadable: the engine says what is wrong with it
        return False


def _correction_answer(db, match, log, entry: dict, status: int, notice: str, set_aside: list | None = None
                       ) -> Response:
    """A correction not made: said on the correction page over the form as it was filled in, when it came
    from that page, so nothing typed is lost; else on the table screen. With ``set_aside`` (the entries it
    would set aside), the page's form asks again and then makes it."""
    if (entry.get("move") == "correct" and not is_htmx() and "c_move" in request.form
            and isinstance(entry.get("target"), int)):
        whole = [item["entry"] for item in store.entries(db, match.id)]
        return _correction_page(db, match, log, whole, entry["target"], status, typed=entry, notice=notice,
                                set_aside=set_aside or [])
    return render_screen(match, log, status, notice=notice)


def _would_set_aside(db, match, log, entry: dict) -> list[int]:
    """The entries that stand now and that correction ``entry`` would set aside (they would no longer fit on
    replay); [] when none would, or when the engine refuses the correction (it says why when it is made)."""
    try:
        try:
            after = tables.checked_feed(log, entry)
        except store.NeedsFullLog:
            log = store.replay_all(db, match, tables.replay)
            after = tables.checked_feed(log, entry)
    except Exception:  # noqa: BLE001 - refused or unreadable: answered when it is appended
        return []
    earlier = {position for position, _, _ in log.refused}
    return sorted({position for position, _, _ in after.refused if position not in earlier})


def _ranges(numbers: list[int]) -> str:
    """27, 28, 29, 31 -> "27–29, 31"."""
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(out)


def _set_aside_now(before, after) -> str:
    """A correction's answer names the later entries it set aside (they no longer fit; the history says why)."""
    earlier = {position for position, _, _ in before.refused}
    now = [str(position) for position, _, _ in after.refused if position not in earlier]
    if not now:
        return ""
    return ngettext("Entry %(entries)s no longer fits after the correction: the history says why.",
                    "Entries %(entries)s no longer fit after the correction: the history says why.",
                    len(now), entries=", ".join(now))


def _plain(words) -> str:
    """Words for a plain-text notice (an entry said in English on a Hebrew or Italian phone is marked up)."""
    return words.striptags() if isinstance(words, Markup) else words


def _moved_on(db, match_id: str, expected: int | None = None) -> Response:
    """409 with the table as it is now: entries came first since version ``expected`` (said by
    ``_came_first``), or, without it, this button's key was already used for another entry."""
    match = store.get_match(db, match_id)
    log = store.state_at(db, match, tables.replay)
    if expected is not None:
        return render_screen(match, log, 409, notice=_came_first(db, log, match_id, expected))
    return render_screen(match, log, 409, notice=gettext(
        "That button was already used for another entry: the table has moved on. Nothing of yours was "
        "saved: here is the table as it is now."))


def _came_first(db, log, match_id: str, expected: int) -> str:
    """Why a phone's entry was not saved: the entries made since its screen was drawn. Another phone's
    (two phones pressing "interrupt" at once: the second is told whose came first), or this phone's own
    (its earlier tap was saved but its reply was lost on the Wi-Fi, and it tapped again from the same
    screen): then it is told so, not that someone else entered. Each is said in the same words as the
    history says it, which never hold a card only one player saw (GEN-6)."""
    since = store.entries(db, match_id, after=expected)
    if not since:
        return gettext("Someone else entered something first. Nothing of yours was saved: here is the table as it "
                       "is now.")
    device = device_id()
    mine = [item for item in since if item.get("device") == device]
    others = [item for item in since if item.get("device") != device]

    def said(items) -> str:
        return "; ".join(_plain(entry_words(log, item["entry"])).rstrip(".") for item in items[:3])

    if not mine:
        return gettext("Someone else entered something first: %(entries)s. Nothing of yours was saved: here is the "
                       "table as it is now.", entries=said(others))
    if not others:
        return ngettext("Your earlier entry was saved: %(entries)s. This tap was not saved: here is the table as it "
                        "is now.",
                        "Your earlier entries were saved: %(entries)s. This tap was not saved: here is the table as "
                        "it is now.", len(mine), entries=said(mine))
    return ngettext("Your earlier entry was saved: %(entries)s. Someone else entered something too: %(others)s. "
                    "This tap was not saved: here is the table as it is now.",
                    "Your earlier entries were saved: %(entries)s. Someone else entered something too: %(others)s. "
                    "This tap was not saved: here is the table as it is now.",
                    len(mine), entries=said(mine), others=said(others))


# --- Ending the match early (referee/games/ending.py) -------------------------------------------------


def _ended_sentence(who: str, rounds: int, noun: str) -> str:
    """"Ana ended the match early by agreement after 2 rounds." (or games; or before any was completed)."""
    if noun == "game":
        if not rounds:
            return gettext("%(name)s ended the match early by agreement before any game was completed: no result.",
                           name=who)
        return ngettext("%(name)s ended the match early by agreement after %(num)s game.",
                        "%(name)s ended the match early by agreement after %(num)s games.", rounds, name=who)
    if not rounds:
        return gettext("%(name)s ended the match early by agreement before any round was completed: no result.",
                       name=who)
    return ngettext("%(name)s ended the match early by agreement after %(num)s round.",
                    "%(name)s ended the match early by agreement after %(num)s rounds.", rounds, name=who)


def end_words(game, move: EndMatch, players, before: Any = None) -> str:
    """The end of a match in words, for the history and the undo button: who ended it, and (with the state it
    was applied to) after how many rounds."""
    seat = move.seat
    who = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else gettext("The table")
    if before is None:
        return gettext("%(name)s ended the match early by agreement.", name=who)
    try:
        rounds = len(game.result(before).get("rounds") or [])
    except Exception:  # noqa: BLE001 - words for a button or a history row: never a reason to fail a screen
        return gettext("%(name)s ended the match early by agreement.", name=who)
    return _ended_sentence(who, rounds, round_noun(game.NAME))


@bp.app_template_global()
def ended_words(view: dict) -> str:
    """How a match ended early went, in the phone's language, from its view's ``ended``: who ended it after how
    many rounds, and who wins on the standings of the rounds completed ("" for a match not ended early)."""
    from ..i18n_rules import names_words

    ended = view.get("ended") if isinstance(view, dict) else None
    if not ended:
        return ""
    said = _ended_sentence(ended.get("by") or gettext("The table"), int(ended.get("rounds") or 0),
                           ended.get("noun") or "round")
    winners = list(ended.get("winners") or [])
    if ended.get("result") and len(winners) == 1:
        said += " " + gettext("%(name)s, first in the standings, wins.", name=winners[0])
    elif ended.get("result") and winners:
        said += " " + gettext("%(names)s, level first in the standings, share the win.", names=names_words(winners))
    return isolated(said) if lang() in RTL else said


def _may_end(match, log) -> Response | None:
    """Why this phone may not end the match now (a page saying it), or None. A watcher is refused by
    ``require_entrant`` (403); a match over already by its own rules, or ended already, is 409."""
    require_entrant(match.id, "play")
    if getattr(log.state, "over", False):
        return render_screen(match, log, 409, notice=gettext("This match is already over: there is nothing to end."))
    return None


@bp.get("/end")
def end_page(match_id: str):
    """"End the match now": a page that asks first, and says what will count (the rounds completed; the
    round in play is not scored). Its button posts to ``end_match``. Any seated phone or the shared phone."""
    db, match, log = load(match_id)
    refused = _may_end(match, log)
    if refused is not None:
        return refused
    game = log.game
    res = game.result(log.state)
    ctx = screen_context(match, log)
    ctx.update(rounds=len(res.get("rounds") or []), standings=list(res.get("standings") or []),
               noun=round_noun(game.NAME), end_post_url=table_url("play.end_match", match_id=match.id),
               table_page_url=table_url("play.table", match_id=match.id))
    return _no_store(Response(render_template("table/end.html", **ctx)))


@bp.post("/end")
def end_match(match_id: str):
    """End the match now (confirmed on ``end_page``): an entry of the log naming who ended it (the shared phone:
    the table), undone like any other. Answers as an entry does: the fresh screen (htmx) or back to the table."""
    db, match, log = load(match_id)
    require_entrant(match_id, "play")
    raw_version = request.form.get("version", "")
    if not raw_version.isascii() or not raw_version.isdigit() or len(raw_version) > 9:
        abort(400, description=gettext("The form is missing the version it was made for; reload the page."))
    if request.form.get("confirm", "") != "1":
        abort(400, description=gettext("Confirm that the table agrees to end the match: use the button of the "
                                       "page that asks."))
    refused = _may_end(match, log)
    if refused is not None:
        return refused
    expected = int(raw_version)
    key = request.form.get("key", "") or None
    seat = phone_seat(match_id)
    entry: dict[str, Any] = {"move": END_MOVE}
    if seat is not None and not is_shared(match_id):
        entry["seat"] = match.players[seat]
    try:
        done = _append(db, match_id, expected, entry, key)
    except store.StaleVersion:
        return _moved_on(db, match_id, expected)
    except store.KeyReused:
        return _moved_on(db, match_id)
    except Ruling as ruling:
        return render_screen(match, log, 422, ruling=ruling)
    except EntryError as err:
        return render_screen(match, log, 400, notice=_unreadable(err.message))
    if not is_htmx():
        return redirect(url_for("play.table", match_id=match_id), code=303)
    if request.form.get("from") == "page":  # the page that asked (its htmx post): on to the table's page
        return Response(status=204, headers={"HX-Redirect": table_url("play.table", match_id=match_id)})
    return render_screen(dataclasses.replace(match, version=done.version), done.state)
