"""Game nights on screen: groups, standings per night and all time (per game and house rules), a
player's page and history, head-to-head, a match round by round, renames and merges."""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _

from markupsafe import Markup, escape

from .. import charts, exports, nights, people, stats, store
from ..db import get_db
from ..games import GAMES
from ..games.base import name_key
from ..i18n import lang
from ..i18n_imports import import_problem_text
from ..i18n_rules import game_title, preset_name, switch_label, switch_value, time_of

bp = Blueprint("nights", __name__, url_prefix="/nights")

MAX_KEY = 2000  # characters of a house-rules filter
TIE_POLICY = "tie_policy"  # the switch every score sheet names, even at its default (GEN-11)


def rules_words(game: str, key: str, ties: bool = False) -> str | Markup:
    """The house rules of a ``rules_key`` in the phone's language, as a person says them
    (``stats.rules_parts``): the ready-made rule set they build on, by the name the new-table form gives
    it ("Common rules (pagat), one game"), then each switch off it, its name and its value as the rules
    pages say them ("Pay-off pile: 5 cards"); none off the defaults: the name of the rules the game plays
    by default ("The publisher's rules"). With ``ties``, as a score sheet says them: the tie policy too,
    even when the rules keep its default (GEN-11).
    """
    try:
        base, switches = stats.rules_parts(game, key)
        tie = next((v for v in GAMES[game].VARIANTS if v.key == TIE_POLICY), None) if ties else None
        if tie is not None and all(v is not tie for v, _ in switches):  # GEN-11: a score sheet always says it
            switches = [*switches, (tie, json.loads(key).get(tie.key, tie.default))]
    except (KeyError, ValueError, AttributeError, TypeError):
        return key
    said = [preset_name(game, base)] if base is not None else []
    said += [_switch_words(switch_label(v), switch_value(v, value)) for v, value in switches]
    return Markup("; ").join(said) if said else _("the default house rules")


def _switch_words(label: str | Markup, value: str | Markup) -> Markup:
    """"Pay-off pile: 5 cards"; a value that says itself with a colon ("off: a single game") in brackets
    instead ("Match (off: a single game)"), so that no colon follows another."""
    if ":" in str(value):
        return Markup(escape(_("%(switch)s (%(value)s)"))) % {"switch": label, "value": value}
    return Markup("{}: {}").format(label, value)


def table_name(game: str, key: str) -> str:
    """What a table of standings counts, as plain text (a chart's title): the game and its house rules."""
    said = rules_words(game, key)
    return f"{game_title(game)} — {said.striptags() if isinstance(said, Markup) else said}"


@bp.app_template_global()
def night_words(day: str) -> str:
    """A night's day in the phone's language ("Tuesday 1 December 2026")."""
    if lang() == "en":
        return nights.night_title(day)
    from datetime import date

    from flask_babel import format_date

    try:
        return format_date(date.fromisoformat(day), "full")
    except ValueError:
        return day


@bp.app_template_global()
def local_time(stamp: str | None, kind: str = "time") -> str | Markup:
    """A stored timestamp on screen: ``<time datetime="…Z" data-local="time">`` around the server's text
    (the time of day, or for ``kind`` "datetime" the day and the time, in the server's clock zone), which
    static/local_time.js writes again in the phone's own time zone and the page's language. A stamp that
    names no moment: its text alone."""
    said = str(stamp or "")
    text = time_of(said) if kind == "time" else said[:16].replace("T", " ")
    moment = nights.moment_utc(stamp)
    if moment is None:
        return text
    return Markup('<time datetime="{}" data-local="{}">{}</time>').format(moment, kind, text)


def _int_arg(name: str) -> int | None:
    raw = request.args.get(name, "")
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        abort(400, description=_("This link is not one the page makes: open the page again and follow its links."))
    return int(raw)


MAX_ID = 2 ** 63 - 1  # SQLite's largest integer: a longer number in a link names nothing


def _group(group_id: int) -> people.Group:
    group = people.get_group(get_db(), group_id) if group_id <= MAX_ID else None
    if group is None:
        abort(404, description=_("There is no such group."))
    return group


def _profile(profile_id: int) -> people.Profile:
    profile = people.get_profile(get_db(), profile_id) if profile_id <= MAX_ID else None
    if profile is None:
        abort(404, description=_("There is no such player."))
    return profile


def _scope(group_id: int | None) -> stats.Scope:
    """The standings filter from the query: night, game, house rules (each checked)."""
    night_id = _int_arg("night")
    if night_id is not None:
        night = nights.get_night(get_db(), night_id)
        if night is None or night.group_id != group_id:
            abort(404, description=_("This group has no such night."))
    game = request.args.get("game") or None
    if game is not None and game not in GAMES:
        abort(400, description=_("Choose one of the games offered."))
    key = request.args.get("rules")
    if key is not None and (len(key) > MAX_KEY or not key.isprintable()):
        abort(400, description=_("Choose one of the house rules offered."))
    return stats.Scope(group_id, night_id, game, key or None)


STANDINGS_BATCH = 100
"""Matches summed up at most in one request (config ``STANDINGS_BATCH``): after an upgrade drops the
summaries, or an import from an older Referee, the first look counts them a batch at a time and says
how far it has got, instead of holding one request for the whole history."""


def _counting(group_id: int | None):
    """Count at most a batch of the summaries missing; None when that was all of them (the figures are
    ready to read), otherwise the page saying how far the counting has got is the answer (it asks
    again by itself, and a link does the same without script)."""
    db = get_db()
    limit = max(1, int(current_app.config.get("STANDINGS_BATCH", STANDINGS_BATCH)))
    todo = stats.stale(db, group_id)
    stats.refresh(db, ids=todo[:limit])
    if len(todo) <= limit:
        return None
    total = stats.countable(db, group_id)
    done = max(0, total - len(stats.stale(db, group_id)))
    response = Response(render_template("nights/counting.html", done=done, total=total,
                                        again=request.full_path if request.query_string else request.path))
    response.headers["Retry-After"] = "1"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/")
def index():
    db = get_db()
    groups = people.groups(db)
    return render_template("nights/index.html", groups=groups, players=people.profiles(db),
                           tonight={g.id: nights.tonight(db, g.id, phone_now()) for g in groups},
                           evening=night_words(nights.evening_of(phone_now())))


@bp.post("/groups")
def create_group():
    try:
        group = people.find_or_create_group(get_db(), request.form.get("name", ""))
    except people.PeopleError as err:
        abort(422, description=_("Group name: %(message)s", message=err.message))
    return redirect(url_for("nights.group", group_id=group.id), code=303)


def _wins_chart(db, scope: stats.Scope, names: dict[int, str], chart_id: str = "wins-by-night"):
    """Running wins by night for one table of standings: its game under its house rules, named as the
    table is (None when no night has a finished match of it)."""
    shitheads = scope.game == "shithead"  # a game of Shithead has a loser, not a winner: who was Shithead
    days, per = stats.wins_by_night(db, scope, "shitheads" if shitheads else "wins")
    if not days:
        return None
    ranked = sorted(per.items(), key=lambda kv: (-kv[1][-1], names.get(kv[0], "")))[:charts.MAX_SERIES]
    series = [charts.Series(names.get(pid, "?"), values) for pid, values in ranked]
    game = table_name(scope.game, scope.rules_key)
    if len(days) < 2:  # one night: a bar for each player
        title = (_("Times Shithead on the night of %(night)s: %(game)s", night=night_words(days[0]), game=game)
                 if shitheads else
                 _("Matches won on the night of %(night)s: %(game)s", night=night_words(days[0]), game=game))
        svg = charts.bar_chart(title, [s.name for s in series], [s.values[-1] for s in series],
                               chart_id=chart_id)
    else:
        title = (_("Times Shithead, night by night: %(game)s", game=game) if shitheads
                 else _("Matches won, night by night: %(game)s", game=game))
        svg = charts.line_chart(title, [d[5:] for d in days], series, chart_id=chart_id)
    rows = [[day, *(s.values[i] for s in series)] for i, day in enumerate(days)]
    return {"svg": svg, "title": title, "headings": [_("Night"), *(s.name for s in series)], "rows": rows}


@bp.get("/g/<int:group_id>")
def group(group_id: int):
    db = get_db()
    grp = _group(group_id)
    scope = _scope(group_id)
    counting = _counting(group_id)
    if counting is not None:
        return counting
    tables = stats.standings(db, scope, fresh=False)  # counted just now
    sets = stats.rule_sets(db, scope)
    # a chart for each table of standings, of what that table counts (its game under its house rules)
    names = dict(db.conn.execute("SELECT id, name FROM profiles")) if tables else {}
    charts_of = [_wins_chart(db, stats.Scope(group_id, scope.night_id, t.game, t.rules_key), names,
                             "wins-by-night" if i == 0 else f"wins-by-night-{i + 1}") for i, t in enumerate(tables)]
    night = nights.get_night(db, scope.night_id) if scope.night_id else None
    return render_template("nights/group.html", group=grp, scope=scope, tables=tables, sets=sets, charts=charts_of,
                           nights=nights.group_nights(db, group_id), night=night,
                           tonight=nights.tonight(db, group_id, phone_now()), members=people.group_members(db, group_id),
                           games=GAMES, rules_words=rules_words, title_of=night_words,
                           matches=_night_matches(db, scope.night_id) if scope.night_id else [],
                           imported=_int_arg("imported"), already=_int_arg("already"), refused=_int_arg("refused"),
                           continued=_int_arg("continued"))


def _night_matches(db, night_id: int) -> list[dict]:
    rows = db.conn.execute("SELECT m.id FROM matches m WHERE m.night_id = ? ORDER BY m.created_at", (night_id,))
    matches = [store.get_match(db, match_id) for (match_id,) in rows]
    ended = nights.ended_early(db, matches)  # "(ended early)" beside them: finished, by the table's agreement
    out = []
    for match in matches:
        summary = db.conn.execute("SELECT over FROM match_summaries WHERE match_id = ? AND version = ?",
                                  (match.id, match.version)).fetchone()
        out.append({"match": match, "over": bool(summary and summary[0]) or match.id in ended,
                    "ended": ended.get(match.id)})
    left = nights.left_unfinished(db, [item["match"].id for item in out if not item["over"]])
    for item in out:
        item["left"] = item["match"].id in left  # "(left unfinished)", not "(still being played)"
    return out


def _ended_of(db, history: list[dict]) -> dict[str, dict]:
    """The matches of a player's history the table ended early (``nights.ended_early``), by id."""
    ids = [h["id"] for h in history]
    maybe = store.with_move(db, ids, "end_match")
    return nights.ended_early(db, [store.get_match(db, match_id) for match_id in ids if match_id in maybe])


@bp.get("/p/<int:profile_id>")
def player(profile_id: int):
    db = get_db()
    profile = _profile(profile_id)
    if profile.canonical_id != profile.id:
        return redirect(url_for("nights.player", profile_id=profile.canonical_id), code=303)
    counting = _counting(None)
    if counting is not None:
        return counting
    return _player_page(db, profile)


def _player_page(db, profile, problem: dict | None = None):
    """A person's page; with ``problem`` ({"form": "rename" | "undo" | "merge", "words", "typed"}), the
    refusal of what was just asked, said at its form with what was typed kept (422)."""
    tables = stats.standings(db, stats.Scope(), profile=profile.id)
    history = stats.history(db, profile.id)
    form = stats.form_by_night(db, profile.id)
    chart = None
    if form:
        title = _("%(name)s's form: matches won each night", name=profile.name)
        chart = {"svg": charts.bar_chart(title, [d[5:] for d, _, _ in form], [w for _, _, w in form],
                                         chart_id="form", name=_("won")), "title": title,
                 "headings": [_("Night"), _("Matches"), _("Won")], "rows": [list(r) for r in form]}
    return render_template("nights/player.html", profile=profile, tables=tables, chart=chart,
                           history=history, ended=_ended_of(db, history), games=GAMES, rules_words=rules_words,
                           left=nights.left_unfinished(db, [h["id"] for h in history if not h["over"]]),
                           merged=people.merged_from(db, profile.id), mergeable=_mergeable(db, profile),
                           events=people.profile_events(db, profile.id),
                           last_rename=people.last_rename(db, profile.id), problem=problem), 422 if problem else 200


def _profile_form_field(name: str) -> int:
    raw = request.form.get(name, "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12:
        abort(422, description=_("Choose a player from the list."))
    return int(raw)


@bp.post("/p/<int:profile_id>/rename")
def rename(profile_id: int):
    profile = _profile(profile_id)
    try:
        people.rename(get_db(), profile_id, request.form.get("name", ""))
    except people.PeopleError as err:
        return _refused(profile, "rename", _("New name: %(message)s", message=err.message),
                        request.form.get("name", "")[:40])
    return redirect(url_for("nights.player", profile_id=profile_id), code=303)


def _mergeable(db, profile) -> list:
    """The profiles that may be merged into this person's: not this person already, nor anyone who sat at a
    table with them (two people: the merge is refused)."""
    mates = people.tablemates(db, profile.id) | {profile.canonical_id}
    return [p for p in people.profiles(db) if p.canonical_id not in mates]


def _refused(profile, form: str, words: str, typed: str = ""):
    """The person's page again with the refusal at its form (a merged profile's: the error page)."""
    if profile.canonical_id != profile.id:
        abort(422, description=words)
    return _player_page(get_db(), profile, {"form": form, "words": words, "typed": typed})


@bp.post("/p/<int:profile_id>/unrename")
def unrename(profile_id: int):
    """Undo the last rename: the name before it comes back (recorded as an event of its own)."""
    profile = _profile(profile_id)
    try:
        people.undo_rename(get_db(), profile_id)
    except people.PeopleError as err:
        return _refused(profile, "undo", _("Undo the rename: %(message)s", message=err.message))
    return redirect(url_for("nights.player", profile_id=profile_id), code=303)


@bp.post("/p/<int:profile_id>/merge")
def merge(profile_id: int):
    """Merge another profile of the same person into this one."""
    profile = _profile(profile_id)
    other = _profile_form_field("other")
    try:
        people.merge(get_db(), other, profile_id)
    except people.PeopleError as err:
        return _refused(profile, "merge", _("Merge: %(message)s", message=err.message))
    return redirect(url_for("nights.player", profile_id=profile_id), code=303)


@bp.post("/p/<int:profile_id>/unmerge")
def unmerge(profile_id: int):
    """Undo a merge: ``profile_id`` is the profile that was merged into another."""
    profile = _profile(profile_id)
    into = profile.canonical_id
    try:
        people.unmerge(get_db(), profile_id)
    except people.PeopleError as err:
        abort(422, description=_("Undo the merge: %(message)s", message=err.message))
    return redirect(url_for("nights.player", profile_id=into), code=303)


@bp.get("/h2h")
def head_to_head():
    db = get_db()
    a, b = _int_arg("a"), _int_arg("b")
    pa = _profile(a) if a is not None else None
    pb = _profile(b) if b is not None else None
    result = None
    if pa and pb:
        if pa.canonical_id == pb.canonical_id:
            abort(422, description=_("Choose two different players."))
        pa, pb = _profile(pa.canonical_id), _profile(pb.canonical_id)
        counting = _counting(None)
        if counting is not None:
            return counting
        result = stats.head_to_head(db, pa.id, pb.id)
    return render_template("nights/h2h.html", a=pa, b=pb, result=result, players=people.profiles(db), games=GAMES,
                           rules_words=rules_words)


@bp.get("/m/<match_id>")
def match(match_id: str):
    db = get_db()
    try:
        m = store.get_match(db, match_id)
    except store.UnknownMatch:
        abort(404, description=_("There is no such match."))
    if m.game not in GAMES:
        abort(404, description=_("This referee does not have that match's game."))
    players, series = stats.running_totals(db, m)
    rounds = len(series[0]) if series else 0
    title = _("Running totals round by round: %(players)s", players=", ".join(players))
    svg = charts.line_chart(title, [str(i + 1) for i in range(rounds)],
                            [charts.Series(n, v) for n, v in zip(players, series)], chart_id="running-totals") \
        if rounds else None
    seats = db.conn.execute("SELECT s.seat, p.canonical_id FROM match_seats s JOIN profiles p ON p.id = s.profile_id"
                            " WHERE s.match_id = ? ORDER BY s.seat", (m.id,)).fetchall()
    group_id, night_id = nights.match_group(db, m.id)
    result, view = stats.match_result(db, m)  # a game scored without points (Shithead) has no chart: its games
    return render_template("nights/match.html", match=m, players=players, series=series, rounds=rounds, svg=svg,
                           result=result, view=view, ended=view.get("ended"),
                           title=title, links=[(n, dict(seats).get(i)) for i, n in enumerate(players)],
                           rows=[[i + 1, *(s[i] for s in series)] for i in range(rounds)], game=GAMES[m.game],
                           group_id=group_id, already=_int_arg("already"), elsewhere=_int_arg("elsewhere"),
                           continued=_int_arg("continued"),
                           group_name=people.get_group(db, group_id).name if group_id else None,
                           night=nights.get_night(db, night_id) if night_id else None,
                           rules=rules_words(m.game, stats.rules_key(m.rules), ties=True))


# --- Export and import ----------------------------------------------------------------------------


@bp.get("/g/<int:group_id>/export.json")
def export_json(group_id: int):
    grp = _group(group_id)
    body = json.dumps(exports.export_group(get_db(), grp.id), ensure_ascii=False, indent=1) + "\n"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="referee-group-{grp.id}.json"', "Cache-Control": "no-store"})


@bp.get("/g/<int:group_id>/export.csv")
def export_csv(group_id: int):
    grp = _group(group_id)
    return Response(exports.export_csv(get_db(), grp.id), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="referee-group-{grp.id}-rounds.csv"',
        "Cache-Control": "no-store"})


@bp.post("/import")
def import_file():
    """A group's export, or one finished match's transcript (into the group named on the form)."""
    upload = request.files.get("file")
    if upload is None:
        abort(422, description=_("file: choose a JSON file to import."))
    try:
        data = exports.read(upload.read())
        done = exports.import_data(get_db(), data, request.form.get("group") or None)
    except exports.AlreadyHere as err:
        abort(422, description=_("The file was not imported. %(field)s: %(message)s", field=err.field, message="; ".join(
            import_problem_text(message) for _field, message in err.refused)))
    except exports.ImportProblem as err:
        abort(422, description=_("The file was not imported. %(field)s: %(message)s", field=err.field,
                                 message=import_problem_text(err.message)))
    if done.group is not None:
        return redirect(url_for("nights.group", group_id=done.group.id, imported=len(done.added),
                                already=len(done.skipped) or None, refused=len(done.refused) or None,
                                continued=len(done.continued) or None), code=303)
    if done.added:
        return redirect(url_for("nights.match", match_id=done.added[0]), code=303)
    if done.continued:
        return redirect(url_for("nights.match", match_id=done.continued[0], continued=1), code=303)
    if done.skipped:  # already here: said on its page, and where it stays when the form named another group
        typed = (request.form.get("group") or "").strip()
        elsewhere = bool(typed) and name_key(typed) != name_key(done.where.get(done.skipped[0]) or "")
        return redirect(url_for("nights.match", match_id=done.skipped[0], already=1, elsewhere=int(elsewhere) or None),
                        code=303)
    return redirect(url_for("nights.index"), code=303)


# --- The new-table form: which group, and the players' profiles -------------------------------------

NO_GROUP = "none"


def table_form_context(form) -> dict:
    """What the new-table form shows of groups and profiles: the groups (the last one played in chosen,
    unless the form says otherwise), every profile's name for the player fields to offer, and each
    group's known players (those of its latest tables; of any table for no group) to tap."""
    db = get_db()
    chosen = form.get("group") if form else None
    if chosen is None:
        last = nights.last_group(db)
        chosen = str(last) if last is not None else NO_GROUP
    groups = people.groups(db)
    known = {NO_GROUP: [p.name for p in people.known_players(db)]}
    known.update({str(g.id): [p.name for p in people.known_players(db, g.id)] for g in groups})
    # the group the form chose by itself (the last one played in): a table of strangers to it is asked about
    # once; the form shown again after that says nothing chose it (the player has seen the question)
    offered = chosen if form is None else ""
    return {"groups": groups, "chosen_group": chosen, "group_offered": offered,
            "new_group": (form or {}).get("new_group", "")[:40],
            "profile_names": [p.name for p in people.profiles(db)], "known_players": known}


def table_group(form) -> int | None:
    """The group a new table is for, from its form: a group offered, or a new one named (made now);
    None for none. Raises people.PeopleError naming the field."""
    db = get_db()
    new = (form.get("new_group") or "").strip()
    if new:
        return people.find_or_create_group(db, new).id
    raw = form.get("group") or NO_GROUP
    if raw == NO_GROUP:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12 or people.get_group(db, int(raw)) is None:
        raise people.PeopleError("Group", "choose one of the groups offered.")
    return int(raw)


def phone_now():
    """Now in the time zone of the phone asking (None: the server's own), for which evening it is."""
    return nights.phone_now(request.cookies.get(nights.ZONE_COOKIE))


def link_table(match, group_id: int | None) -> None:
    """The new table's players as profiles; with a group, the group's night of tonight (the phone's)."""
    nights.link_match(get_db(), match, group_id, phone_now())
