"""Why a file was not imported (``referee.exports.ImportProblem``), in the phone's language.

The importer says its problems in English, as ``referee import`` prints them: a field of the file and a
sentence. On the web page the sentence is read back by its shape and said again in the phone's language:
the problems a family meets (a match not finished, one already here with other content, a file that is not
JSON), an engine's ruling inside a transcript (``referee.i18n_rulings``); any other stays as said. The
field (``matches[3].transcript.entries[7]``) is the file's own path and stays as it is.
"""
from __future__ import annotations

import re

from flask_babel import gettext, ngettext

from .i18n import RTL, lang
from .i18n_rulings import N_, and_joined, say_all

# (pattern, msgid): sentences of referee/exports.py and referee/transcript.py; the groups fill the msgid
_PROBLEMS = (
    (r"this transcript's match was ended before any round was completed: it has no result to bring in",
     N_("this transcript's match was ended before any round was completed: it has no result to bring in")),
    (r"this transcript's match is not finished: only a finished match is imported",
     N_("this transcript's match is not finished: only a finished match is imported")),
    (r"not a text file \(expected UTF-8 JSON\)", N_("not a text file (expected UTF-8 JSON)")),
    (r"not valid JSON \((?P<why>.*)\)", N_("not valid JSON (%(why)s)")),
    (r"a CSV export: only a JSON export \(referee export without --csv\) or a transcript can be imported",
     N_("a CSV export: only a JSON export (referee export without --csv) or a transcript can be imported")),
    (r"nested too deeply, or a number too long, to read", N_("nested too deeply, or a number too long, to read")),
    (r"a transcript is a JSON object", N_("a transcript is a JSON object")),
    (r"expected (?P<a>'[^']*') or (?P<b>'[^']*'), not (?P<found>.+)", N_("expected %(a)s or %(b)s, not %(found)s")),
    (r"expected (?P<what>.+), not (?P<found>.+)", N_("expected %(what)s, not %(found)s")),
    (r"an export or a transcript is a JSON object", N_("an export or a transcript is a JSON object")),
    # a name in the file (a group's, a player's: referee/games/base.py normalise_name)
    (r"a group needs a name that shows", N_("a group needs a name that shows")),
    (r"a player needs a name that shows", N_("a player needs a name that shows")),
    (r"a player's name is text", N_("a player's name is text")),
    (r"a name has at most (?P<num>\d+) characters", N_("a name has at most %(num)s characters")),
    (r"a name cannot hold the control or format character (?P<char>U\+[0-9A-F]+)",
     N_("a name cannot hold the control or format character %(char)s")),
    (r"is not a field of a group export", N_("is not a field of a group export")),
    (r"a list of at most (?P<num>\d+) entries", N_("a list of at most %(num)s entries")),
    (r"at most (?P<most>\d+) entries in all, not (?P<num>\d+): export fewer nights at a time",
     N_("at most %(most)s entries in all, not %(num)s: export fewer nights at a time")),
    (r"is not a transcript field", N_("is not a transcript field")),
    (r"(?P<name>.+) is not a game the referee knows \((?P<games>.+)\)",
     N_("%(name)s is not a game the referee knows (%(games)s)")),
    (r"cannot be read \((?P<why>\w+)\)", N_("cannot be read (%(why)s)")),
    (r"a day written YYYY-MM-DD", N_("a day written YYYY-MM-DD")),
    (r"(?P<day>\S+) is not a day of the calendar \(YYYY-MM-DD\)", N_("%(day)s is not a day of the calendar (YYYY-MM-DD)")),
    (r"match (?P<id>\S+) is played at a table here: its later entries come from its phones, not from a file; "
     r"it was not changed",
     N_("match %(id)s is played at a table here: its later entries come from its phones, not from a file; it was "
        "not changed")),
    (r"match (?P<id>\S+) was played on here meanwhile; it was not changed",
     N_("match %(id)s was played on here meanwhile; it was not changed")),
)
_ALREADY = re.compile(r"match (?P<id>\S+) is already here (?P<differs>.+); it was not changed")
_CLAUSE = re.compile(r"as a match of another game \([^)]*\)|with other players \(.*?\)(?=, with | and with |$)|"
                     r"with other entries \([^)]*\)|with other house rules|with another date \([^)]*\)")
_ENTRIES_COUNTED = re.compile(r"with other entries \((?P<here>\d+) here, (?P<file>\d+) in the file\)")
_ENTRY_DIFFERS = re.compile(r"with other entries \(entry (?P<num>\d+) differs\)")


def import_problem_text(message: str) -> str:
    """``message`` (an import problem's sentence) in the phone's language, or as said when it is not one
    of the known shapes."""
    message = "" if message is None else str(message)
    if lang() == "en" or not message:
        return message
    for pattern, words in _PROBLEMS:
        found = re.fullmatch(pattern, message)
        if found:
            return gettext(words, **found.groupdict())
    found = _ALREADY.fullmatch(message)
    if found:
        clauses = [_clause(c) for c in _CLAUSE.findall(found["differs"])]
        if clauses and all(clauses):
            last = and_joined([", ".join(clauses[:-1]), clauses[-1]], gettext(" and ")) if len(clauses) > 1 \
                else clauses[0]
            return gettext("match %(id)s is already here %(differs)s; it was not changed", id=found["id"], differs=last)
    said = say_all(message, gettext, ngettext, rtl=lang() in RTL)
    return message if said is None else said


def _clause(text: str) -> str | None:
    """One "with other …" clause of a match already here, said again; None when it is not one."""
    found = _ENTRIES_COUNTED.fullmatch(text)
    if found:
        return gettext("with other entries (%(here)s here, %(file)s in the file)", **found.groupdict())
    found = _ENTRY_DIFFERS.fullmatch(text)
    if found:
        return gettext("with other entries (entry %(num)s differs)", num=found["num"])
    for prefix, words in (("as a match of another game (", N_("as a match of another game (%(what)s)")),
                          ("with other players (", N_("with other players (%(what)s)")),
                          ("with another date (", N_("with another date (%(what)s)"))):
        if text.startswith(prefix) and text.endswith(")"):
            return gettext(words, what=text[len(prefix):-1])
    return gettext("with other house rules") if text == "with other house rules" else None
