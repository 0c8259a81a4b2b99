"""The table log as a document ("transcript"): a whole physical match in JSON, replayed by
``referee check``. The format is described in docs/transcripts.md.

    {"format": "referee-transcript/1", "game": "<a registered game>", "players": ["Ana", "Ben"],
     "rules": {<house rules that differ from the defaults>}, "dealer": "Ben",
     "entries": [{"move": "turn_up", "card": "5"}, {"seat": "Ana", "move": "draw"}, ...]}

A transcript may be hostile (nested 100,000 deep, huge numbers, a million entries): reading one raises
:class:`TranscriptError` naming the field at fault and nothing else, and :func:`check_stream` replays
one entry at a time, keeping rulings as plain data, so memory stays flat whatever its length.
"""
from __future__ import annotations

import heapq
import json
import re
import tempfile
from gettext import NullTranslations
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Iterator, Protocol

from .games import GAMES, get_game
from .games.base import EntryError, Ruling, normalise_players, show
from .games.ending import with_ending
from .games.log import Log, Step, replay, rulings, state_rulings

FORMAT = "referee-transcript/1"
_TOP_FIELDS = {"format", "game", "players", "rules", "dealer", "entries", "title", "date", "note",
               "exported_at", "match"}
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


class TranscriptError(ValueError):
    """Not a valid transcript: ``where`` names the field and position at fault."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Transcript:
    game: Any
    players: tuple[str, ...]
    rules: dict[str, Any]
    dealer: Any
    moves: list[Any]
    meta: dict[str, Any]

    def start(self):
        return self.game.new_match(self.players, self.rules, self.dealer)


# --- Reading -----------------------------------------------------------------------------------


def _position(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line} column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


def _value(text: str, pos: int, where: str) -> tuple[Any, int]:
    """One JSON value at ``pos`` (no leading space): (value, end); hostile input is a TranscriptError."""
    try:
        return _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as err:
        raise TranscriptError(f"line {err.lineno} column {err.colno}", f"not valid JSON ({err.msg})") from None
    except RecursionError:
        raise TranscriptError(where, f"nested too deeply ({_position(text, pos)})") from None
    except ValueError as err:  # e.g. an integer of more than 4,300 digits
        raise TranscriptError(where, f"not a value the referee reads ({_position(text, pos)}: "
                                     f"{str(err)[:80]})") from None


def _skip(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()


def _expect(text: str, pos: int, char: str, what: str) -> int:
    if text[pos:pos + 1] != char:
        found = text[pos:pos + 1] or "the end of the file"
        raise TranscriptError(_position(text, pos), f"not valid JSON (expected {what}, found {found!r})")
    return pos + 1


class _Document:
    """A transcript's top-level fields, read without building the entries: those are read one at a
    time by :meth:`entries`, so a transcript of a million entries never sits in memory whole."""

    def __init__(self, text: str):
        self.text = text
        self.fields: dict[str, Any] = {}
        self.entries_at: int | None = None  # offset of the entries list
        self.count = 0
        pos = _skip(text, 0)
        if text[pos:pos + 1] != "{":
            if pos == len(text):
                raise TranscriptError("line 1 column 1", "not valid JSON (the file is empty)")
            _value(text, pos, "(top level)")  # invalid JSON is said first
            raise TranscriptError("(top level)", "a transcript is a JSON object")
        pos = _skip(text, pos + 1)
        if text[pos:pos + 1] == "}":
            pos += 1
        else:
            while True:
                key, pos = _value(text, pos, "(top level)")
                if not isinstance(key, str):
                    raise TranscriptError(_position(text, pos), "not valid JSON (a key is a string)")
                pos = _skip(text, _expect(text, _skip(text, pos), ":", "':'"))
                if key == "entries" and text[pos:pos + 1] == "[":
                    self.fields.pop("entries", None)
                    self.entries_at = pos
                    self.count, pos = self._scan_entries(pos)
                else:
                    self.fields[key], pos = _value(text, pos, show(key)[1:-1])
                    if key == "entries":
                        self.entries_at = None
                pos = _skip(text, pos)
                if text[pos:pos + 1] == "}":
                    pos += 1
                    break
                pos = _skip(text, _expect(text, pos, ",", "',' or '}'"))
        if _skip(text, pos) != len(text):
            raise TranscriptError(_position(text, _skip(text, pos)), "not valid JSON (Extra data)")
        if self.entries_at is not None:
            self.fields["entries"] = []  # a list: read by entries()

    def _scan_entries(self, pos: int) -> tuple[int, int]:
        """Check the entries list is valid JSON (each entry built and dropped); (count, end)."""
        count = sum(1 for _ in self._iter(pos))
        return count, self._end

    def _iter(self, pos: int) -> Iterator[tuple[Any, int]]:
        text = self.text
        pos = _skip(text, pos + 1)
        if text[pos:pos + 1] == "]":
            self._end = pos + 1
            return
        i = 0
        while True:
            value, pos = _value(text, pos, f"entries[{i}]")
            pos = _skip(text, pos)
            yield value, pos
            if text[pos:pos + 1] == "]":
                self._end = pos + 1
                return
            pos = _skip(text, _expect(text, pos, ",", "',' or ']'"))
            i += 1

    def entries(self) -> Iterator[Any]:
        if self.entries_at is None:
            yield from self.fields.get("entries") or ()
            return
        for value, _ in self._iter(self.entries_at):
            yield value


@dataclass(frozen=True)
class Header:
    """A transcript's game, players, house rules and dealer, checked."""

    game: Any
    players: tuple[str, ...]
    rules: dict[str, Any]
    dealer: Any
    meta: dict[str, Any]
    _seen: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def start(self):
        return self.game.new_match(self.players, self.rules, self.dealer)

    def parse(self, entry: Any, i: int) -> Any:
        if type(entry) is dict and len(entry) <= 8:  # the same entry again: moves are immutable values
            try:
                key = tuple(entry.items())
                move = self._seen.get(key)
            except TypeError:  # unhashable values
                key, move = None, None
            if move is not None:
                return move
            move = self._parse(entry, i)
            if key is not None:
                if len(self._seen) >= 1024:
                    self._seen.clear()
                self._seen[key] = move
            return move
        return self._parse(entry, i)

    def _parse(self, entry: Any, i: int) -> Any:
        try:
            return self.game.parse_move(entry, self.players, self.rules, where=f"entries[{i}]")
        except EntryError as err:
            raise TranscriptError(err.field, err.message) from None


GROUP_FORMAT = "referee-group/1"  # a group's whole history (referee/exports.py): imported, not checked


def _header(data: dict[str, Any]) -> Header:
    if data.get("format") == GROUP_FORMAT:
        raise TranscriptError("format", f"this is a group's whole history ({GROUP_FORMAT}), not one match's "
                                        "transcript: bring it in with `referee import`")
    for key in data:
        if key not in _TOP_FIELDS:
            raise TranscriptError(show(key)[1:-1], "is not a transcript field")
    if "format" in data and data["format"] != FORMAT:
        raise TranscriptError("format", f"expected {FORMAT!r}, not {show(data['format'])}")
    name = data.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise TranscriptError("game", f"{show(name)} is not a game the referee knows ({', '.join(GAMES)})")
    game = with_ending(get_game(name))  # a match the table ended early replays as it was played
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TranscriptError("players", "a list of player names")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise TranscriptError("rules", "an object of house rules")
    if not isinstance(data.get("entries"), list):
        raise TranscriptError("entries", "a list of entries")
    try:
        players_t = normalise_players(players)
        state = game.new_match(players_t, rules, data.get("dealer"))
    except EntryError as err:
        raise TranscriptError(err.field, err.message) from None
    except Ruling as ruling:
        raise TranscriptError("players", f"{ruling.rule}: {ruling.message}") from None
    meta = {k: data[k] for k in ("title", "date", "note", "match", "exported_at") if k in data}
    return Header(game, state.players, rules, data.get("dealer"), meta)


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TIME = re.compile(r"[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?")


def check_date(value: Any, where: str = "date") -> str:
    """A transcript's ``date`` as a match's date: a calendar date written YYYY-MM-DD (what every download
    and export writes), or that date with its time (an ISO 8601 time after ``T`` or a space: ``12:30``,
    ``12:30:05.123``, ``Z`` or an offset such as ``+02:00``). Anything else raises TranscriptError."""
    message = "a calendar date written YYYY-MM-DD (or YYYY-MM-DDTHH:MM:SS)"
    if not isinstance(value, str) or len(value) > 40:
        raise TranscriptError(where, message)
    day = _DATE.match(value)
    rest = value[day.end():] if day else ""
    if day is None or (rest and not _TIME.fullmatch(rest)):
        raise TranscriptError(where, message)
    try:
        date.fromisoformat(day.group(0))
        if rest:
            datetime.fromisoformat(day.group(0) + "T" + rest[1:].replace("Z", "+00:00"))
    except ValueError:
        raise TranscriptError(where, message) from None
    return value


def loads(text: str) -> Transcript:
    """Parse and validate a transcript; raises :class:`TranscriptError`."""
    doc = _Document(text)
    header = _header(doc.fields)
    moves = [header.parse(entry, i) for i, entry in enumerate(doc.entries())]
    return Transcript(header.game, header.players, header.rules, header.dealer, moves, header.meta)


def from_data(data: Any) -> Transcript:
    """A transcript brought into the referee's store (an import): read as `loads` reads one, and its
    ``date``, which becomes the match's date, must be a calendar date (`check_date`)."""
    if not isinstance(data, dict):
        raise TranscriptError("(top level)", "a transcript is a JSON object")
    header = _header(data)
    if data.get("date") is not None:
        check_date(data["date"])
    moves = [header.parse(entry, i) for i, entry in enumerate(data["entries"])]
    return Transcript(header.game, header.players, header.rules, header.dealer, moves, header.meta)


# --- Replaying ---------------------------------------------------------------------------------


def check(transcript: Transcript) -> tuple[Log, list[Step], dict[str, Any]]:
    """Replay a transcript: every ruling and the result, as ``referee check --json`` prints them."""
    log, steps = replay(transcript.game, transcript.start(), transcript.moves)
    found = rulings(log, steps)
    report = {"ok": not found, "rulings": found, "result": result(log.game, log.state)}
    return log, steps, report


@dataclass
class Checked:
    """What :func:`check_stream` found: the rulings (in log order, read once), the result and counts."""

    rulings: Iterator[dict[str, Any]]
    count: int
    result: dict[str, Any]
    entries: int
    accepted: int
    game: str = ""


def check_stream(text: str, spill: Any) -> Checked:
    """Validate and replay the transcript ``text`` one entry at a time. Refusals are written to
    ``spill`` (a text file) as JSON lines as they happen and merged, in log order, with the rulings
    the final state remembers: memory does not grow with the number of entries."""
    doc = _Document(text)
    header = _header(doc.fields)
    log = Log.start(header.game, header.start())
    entries = accepted = count = 0
    set_aside: dict[int, int] = {}  # a correction's position: how many entries it set aside (flagged)
    undone: set[int] = set()  # positions an undo took back: a correction's set-asides stand again
    for position, entry in enumerate(doc.entries()):
        move = header.parse(entry, position)
        entries += 1
        try:
            log, step = log.feed(move, position)
        except Ruling as ruling:
            spill.write(_ENCODE({"event": position, "verdict": "reject", "rule": ruling.rule,
                                 "message": ruling.message, "entries": list(ruling.entries)}) + "\n")
            count += 1
            continue
        accepted += 1
        for d in step.later:
            spill.write(_ENCODE({"event": position, "verdict": "flag", "rule": d["rule"],
                                 "message": d["message"], "entries": [d["entry"], position]}) + "\n")
            count += 1
        if step.later:
            set_aside[position] = len(step.later)
        undone.update(e["entry"] for e in step.events if e.get("kind") == "undone" and isinstance(e.get("entry"), int))
    remembered = state_rulings(log.state)
    withdrawn = undone & set(set_aside)  # corrections taken back: what they set aside is no ruling now
    count -= sum(set_aside[p] for p in withdrawn)
    spill.seek(0)
    steps = (r for r in (_DECODER.decode(line) for line in spill)
             if not (r["verdict"] == "flag" and r["event"] in withdrawn))
    merged = heapq.merge(steps, remembered, key=lambda r: r["event"])
    return Checked(merged, count + len(remembered), result(log.game, log.state), entries, accepted,
                   header.game.NAME)


def result(game: Any, state: Any) -> dict[str, Any]:
    """Scores, winners and match standings by player name: the game says what they are."""
    return game.result(state)


def first_dealer(game_name: str, players: Any, rules: dict[str, Any], dealer: Any = None) -> str | None:
    """Who deals a match's first game, by name: ``dealer`` (a seat or a name) or, when None, the game's
    default dealer, as the first round's screen says it. None for a game whose deal nobody makes (Spite &
    Malice: the pay-off tops decide who starts, SM-7), or a match this referee cannot deal (a game not
    installed here). A transcript without the field is dealt by the default dealer, as it always was."""
    if game_name not in GAMES:
        return None
    try:
        state = get_game(game_name).new_match(tuple(players), rules, dealer)
    except (EntryError, Ruling, ValueError, TypeError, KeyError):
        return None
    seat = getattr(state, "dealer", None)
    if seat is None:  # dealt round by round (Rat-a-Tat Cat, Cabo): the first round's dealer
        seat = getattr(getattr(state, "round", None), "dealer", None)
    names = getattr(state, "players", ())
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None


def dumps(game_name: str, players: tuple[str, ...], rules: dict[str, Any], dealer: Any,
          entries: list[dict[str, Any]], **meta: Any) -> str:
    """A transcript document for entries already in their JSON form (the app's export); it names the
    first game's dealer, the game's default one too (``first_dealer``)."""
    doc: dict[str, Any] = {"format": FORMAT, "game": game_name, **meta, "players": list(players),
                           "rules": rules}
    dealer = first_dealer(game_name, players, rules, dealer) or dealer
    if dealer is not None:
        doc["dealer"] = dealer
    doc["entries"] = entries
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# --- Writing the report ------------------------------------------------------------------------

def printable(text: Any) -> str:
    """``text`` with every control, format or line-breaking character written as an escape, so that
    a name or a message can never start a line of the report or hide part of it."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def ruling_line(r: dict[str, Any]) -> str:
    status = f" [{r['status']}]" if r.get("status") and r["status"] != "open" else ""
    if r.get("status") == "overridden" and r["verdict"] == "flag":
        status = " [dismissed]"  # as the table screen says it (the engine's status for it is "overridden")
    if r.get("status") == "overridden" and r["verdict"] == "reject":
        status = f" [overridden by {r['by'] or 'the table'}{': ' + r['reason'] if r['reason'] else ''}]"
    return printable(f"entry {r['event']}: {r['verdict'].upper()} {r['rule']}: {r['message']}{status}")


class Catalogue(Protocol):
    """What the result lines are said with: a catalogue's gettext and ngettext (English: the messages as
    they are; ``referee check --lang`` passes Hebrew's or Italian's, referee/i18n_report.py)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


ENGLISH: Catalogue = NullTranslations()


def _scored_lines(res: dict[str, Any]) -> Iterator[str]:
    """Rounds scored in points (Rat-a-Tat Cat): each round's scores and why, then the totals."""
    for rnd in res["rounds"]:
        scores = ", ".join(f"{p} {v}" for p, v in rnd["scores"].items())
        yield printable(f"round {rnd['number']}: {scores} — {rnd['explanation']}")
    yield printable("totals: " + ", ".join(f"{p} {v}" for p, v in res["totals"].items()))


def shithead_lines(res: dict[str, Any], t: Catalogue = ENGLISH) -> Iterator[str]:
    """Shithead has no points: each game's finishing order and its Shithead (or its winner), then the
    evening's tally once a game is over (RULES.md §4.7, §4.12 H1, H2); in ``t``'s language."""
    _ = t.gettext
    for game in res["rounds"]:
        order = ", ".join(game["order"]) or _("nobody")
        if game.get("winner") is not None:
            line = _("game %(number)s: %(name)s goes out first and wins (SH-52).") % {
                "number": game["number"], "name": game["winner"]}
        elif game.get("shithead") is not None:
            line = _("game %(number)s: %(name)s is the Shithead (SH-51); finishing order: %(names)s.") % {
                "number": game["number"], "name": game["shithead"], "names": order}
        else:
            line = _("game %(number)s: finishing order: %(names)s.") % {"number": game["number"], "names": order}
        yield printable(line)
    if res["rounds"]:
        scores = ", ".join(f"{p} {v}" for p, v in res["totals"].items())
        if res["house_rules"].get("end_mode") == "first_out_wins":
            yield printable(_("tally (a point for each game won, most is best): %(scores)s") % {"scores": scores})
        else:
            yield printable(_("Shithead tally (a point for each game lost, fewest is best): %(scores)s") % {
                "scores": scores})


def spite_malice_lines(res: dict[str, Any], t: Catalogue = ENGLISH) -> Iterator[str]:
    """Spite & Malice: how each finished game ended — the last pay-off card built (SM-40) or the stock
    run out (SM-41) — with the pay-off cards left and the points, then the totals (RULES.md §3.5, §3.10),
    in ``t``'s language. Under ``scoring: "none"`` (SM-V7) there are no points to say."""
    _, ngettext = t.gettext, t.ngettext
    rules = res["house_rules"]
    scored = rules.get("scoring") != "none"
    for game in res["rounds"]:
        winner, points = game["winner"], game["points"]
        left = ", ".join(f"{p} {n}" for p, n in game["payoff_left"].items())
        if game["how"] == "payoff":
            end = _("%(name)s builds the last pay-off card and wins (SM-40)") % {"name": winner}
        elif winner is not None:
            end = _("the stock runs out (SM-41); %(name)s has the fewest pay-off cards left and wins") % {
                "name": winner}
        elif rules.get("stock_exhaustion") == "draw":
            end = _("the stock runs out (SM-41); the game is a draw (SM-V6)")
        else:
            end = _("the stock runs out (SM-41); equal pay-off piles, the game is a draw")
        if scored and winner is not None and points:
            line = ngettext("game %(number)s: %(end)s, %(num)s point; pay-off cards left: %(left)s.",
                            "game %(number)s: %(end)s, %(num)s points; pay-off cards left: %(left)s.", points)
        elif scored and winner is not None:
            line = _("game %(number)s: %(end)s, no points (SM-V15); pay-off cards left: %(left)s.")
        else:
            line = _("game %(number)s: %(end)s; pay-off cards left: %(left)s.")
        yield printable(line % {"number": game["number"], "end": end, "num": points, "left": left})
    if res["rounds"] and scored:
        yield printable(_("totals: %(scores)s") % {"scores": ", ".join(f"{p} {v}" for p, v in res["totals"].items())})


_RESULT_LINES = {"shithead": shithead_lines, "spite_malice": spite_malice_lines}


def text_lines(found: Iterator[dict[str, Any]], count: int, res: dict[str, Any], entries: int,
               accepted: int, game: str = "") -> Iterator[str]:
    """The lines of the human-readable report of ``referee check`` (``game``: the game's name)."""
    for r in found:
        yield ruling_line(r)
    yield from _RESULT_LINES.get(game, _scored_lines)(res)
    yield printable(res["outcome"] if res["over"] or res.get("ended_early") else "match not finished")
    yield (f"{entries} entries, {accepted} accepted, {entries - accepted} refused; "
           f"{'no rulings' if not count else str(count) + (' ruling' if count == 1 else ' rulings')}")


def format_text(transcript: Transcript, steps: list[Step], report: dict[str, Any]) -> str:
    """The human-readable report of ``referee check``."""
    accepted = sum(1 for s in steps if s.accepted)
    return "\n".join(text_lines(iter(report["rulings"]), len(report["rulings"]), report["result"],
                                len(steps), accepted, transcript.game.NAME))


def json_chunks(checked: Checked) -> Iterator[str]:
    """``referee check --json``: the report as one JSON document, written a ruling at a time."""
    yield f'{{"ok": {"false" if checked.count else "true"}, "rulings": ['
    for i, r in enumerate(checked.rulings):
        yield ("" if i == 0 else ", ") + json.dumps(r, ensure_ascii=False)
    yield '], "result": ' + json.dumps(checked.result, ensure_ascii=False) + "}"


def open_spill() -> Any:
    """A temporary file for the rulings of a long replay (deleted when closed)."""
    return tempfile.TemporaryFile("w+", encoding="utf-8")


__all__ = ["FORMAT", "TranscriptError", "Transcript", "Header", "Checked", "loads", "from_data", "check_date",
           "check", "check_stream", "result", "dumps", "format_text", "text_lines", "json_chunks", "printable",
           "open_spill"]
