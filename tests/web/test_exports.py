"""A group's history out and back in: the JSON round trip gives the same standings, importing twice
changes nothing, a single transcript comes in as a finished match, the CSV has a row per player per
round, and hostile files are refused naming the field (4xx on the web, never a 500)."""
from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timezone

import pytest

from referee import db as dbmod
from referee import exports, nights, people, stats
from tests.conftest import SAME_ORIGIN
from tests.web.nights_helpers import TIED_ROUND, example, play, renamed

MON = datetime(2026, 11, 30, 21, 0, tzinfo=timezone.utc)
TUE = datetime(2026, 12, 1, 21, 0, tzinfo=timezone.utc)


def _standings(db, group_name):
    group = people.find_or_create_group(db, group_name)
    out = {}
    for scope in (stats.Scope(group.id), *(stats.Scope(group.id, n.id) for n in nights.group_nights(db, group.id))):
        night = nights.get_night(db, scope.night_id).day if scope.night_id else None
        for t in stats.standings(db, scope):
            out[(night, t.game, t.rules_key)] = [{k: v for k, v in r.items() if k != "profile_id"} for r in t.rows]
    return out


@pytest.fixture
def history(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id, MON)
    play(database, renamed(example("flag-at-reveal"), {"Ana": "Annie"}), g.id, TUE)
    play(database, TIED_ROUND, g.id, TUE)
    play(database, example("three-rounds"), g.id, TUE)
    play(database, example("spite-malice-stock-out"), g.id, TUE)
    play(database, example("tie"), g.id, TUE)  # not finished
    people.merge(database, people.find_profile(database, "Annie").id, people.find_profile(database, "Ana").id)
    return g


def test_export_then_import_into_an_empty_database_gives_the_same_standings(history, database, tmp_path):
    before = _standings(database, "Club")
    data = json.loads(json.dumps(exports.export_group(database, history.id)))
    assert data["format"] == "referee-group/1" and len(data["matches"]) == 6
    assert {p["name"] for p in data["profiles"] if p["merged_into"]} == {"Annie"}
    other = dbmod.connect(tmp_path / "empty.sqlite")
    dbmod.migrate(tmp_path / "empty.sqlite")
    try:
        done = exports.import_data(other, data)
        assert len(done.added) == 6
        assert _standings(other, "Club") == before
        again = exports.import_data(other, json.loads(json.dumps(data)))
        assert (again.added, len(again.skipped)) == ([], 6)
        assert _standings(other, "Club") == before
        counts = [other.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("matches", "entries", "profiles", "profile_events", "nights", "groups")]
        exports.import_data(other, data)
        assert counts == [other.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                          for t in ("matches", "entries", "profiles", "profile_events", "nights", "groups")]
    finally:
        other.close()


def test_csv_has_one_row_per_player_per_round(history, database):
    rows = list(csv.DictReader(io.StringIO(exports.export_csv(database, history.id))))
    three = [r for r in rows if r["house_rules"] == "{}" and r["game"] == "ratatat"]
    assert len(three) == 9  # three rounds, three players
    assert {r["house_rules_words"] for r in three} == {"The publisher's rules"}  # said, for a spreadsheet's reader
    ana = [r for r in three if r["player"] == "Ana"]
    assert [r["score"] for r in ana] == ["7", "12", "5"] and ana[0]["round_result"] == "won"
    annie = [r for r in rows if r["player"] == "Annie"]
    assert annie and all(r["profile"] == "Ana" for r in annie)  # merged: the person's name
    # a round shared is a win for each, said as every page says it (it said "tied")
    assert {r["round_result"] for r in rows if r["match"] and r["player"] in ("Ana", "Ben")} >= {"won", "won (shared)"}
    assert "tied" not in {r["round_result"] for r in rows} | {r["match_result"] for r in rows}
    assert {r["ended_early"] for r in rows} == {"0"}


def test_the_csv_marks_a_match_the_table_ended_early(database):
    g = people.find_or_create_group(database, "Club")
    ended = play(database, example("ended-early"), g.id)
    play(database, example("three-rounds"), g.id)
    rows = list(csv.DictReader(io.StringIO(exports.export_csv(database, g.id))))
    marks = {(r["match"] == ended.id, r["ended_early"]) for r in rows}
    assert marks == {(True, "1"), (False, "0")}


def test_a_csv_export_brought_back_is_said_to_be_one(history, database):
    """Importing the CSV export (kept for a spreadsheet) says it is one, and which file imports, not "line 1
    column 1: not valid JSON"; nothing changes."""
    text = exports.export_csv(database, history.id)
    before = database.execute("SELECT count(*) FROM matches").fetchone()[0]
    with pytest.raises(exports.ImportProblem) as problem:
        exports.import_data(database, exports.read(text.encode("utf-8")))
    assert "a CSV export: only a JSON export" in str(problem.value) and "not valid JSON" not in str(problem.value)
    assert database.execute("SELECT count(*) FROM matches").fetchone()[0] == before


def test_csv_never_hands_a_spreadsheet_a_formula(database):
    g = people.find_or_create_group(database, "Club")
    play(database, renamed(example("flag-at-reveal"), {"Ana": "=cmd()"}), g.id)
    text = exports.export_csv(database, g.id)
    assert ",'=cmd()," in text and ",=cmd()," not in text


def test_a_single_transcript_is_imported_as_a_finished_match_once(database):
    data = example("flag-at-reveal")
    done = exports.import_data(database, data, "Club", "2026-11-29")
    (match_id,) = done.added
    assert exports.import_data(database, example("flag-at-reveal"), "Club", "2026-11-29").skipped == [match_id]
    g = people.find_or_create_group(database, "Club")
    assert [n.day for n in nights.group_nights(database, g.id)] == ["2026-11-29"]
    (table,) = stats.standings(database, stats.Scope(g.id))
    assert [(r["name"], r["won"]) for r in table.rows] == [("Ana", 1), ("Ben", 0)]
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, example("tie"))  # a match still being played
    assert err.value.field == "entries"


HOSTILE = [
    (b"\xff\xfe", "(file)"),
    (b"{", "line 1 column 2"),
    (b"[1, 2]", "(top level)"),
    (b"[" * 100000 + b"]" * 100000, "(top level)"),
    (b'{"format": "nope"}', "format"),
    (b'{"format": "referee-group/1", "group": {"name": ""}}', "group.name"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "profiles": [{"id": "x"}]}', "profiles[0].id"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "nights": [{"id": 1, "day": "2026-13-45"}]}', "nights[0].day"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "matches": [{"transcript": {"game": "chess", "entries": []}}]}',
     "matches[0].transcript.game"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "matches": [{"transcript": {"game": "ratatat",'
     b' "players": ["A", "B"], "entries": [{"move": "fly"}]}}]}', "matches[0].transcript.entries[0].move"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "matches": [{"night": 7, "transcript": {"game": "ratatat",'
     b' "players": ["A", "B"], "entries": []}}]}', "matches[0].night"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "extra": 1}', "extra"),
    (b'{"format": "referee-transcript/1", "game": "ratatat", "players": ["A", "A"], "entries": []}',
     "(transcript).players"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "profiles": [{"id": 1, "name": "A", "merged_into": 2},'
     b' {"id": 2, "name": "B", "merged_into": 1}]}', "profiles.merged_into (1)"),
    (b'{"format": "referee-group/1", "group": {"name": "G"}, "profiles": [{"id": 1, "name": "A", "merged_into": 2},'
     b' {"id": 2, "name": "B", "merged_into": 3}, {"id": 3, "name": "C", "merged_into": 2}]}',
     "profiles.merged_into (1)"),
]


@pytest.mark.parametrize("body,field", HOSTILE)
def test_hostile_import_files_name_the_field_and_change_nothing(database, body, field):
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, exports.read(body))
    assert err.value.field == field
    for table in ("matches", "profiles", "groups"):  # the file is read whole before anything is written
        assert database.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)


@pytest.mark.parametrize("body,field", HOSTILE[:6])
def test_hostile_import_files_on_the_web_are_422(client, body, field):
    response = client.post("/nights/import", data={"file": (io.BytesIO(body), "x.json")}, headers=SAME_ORIGIN,
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert field in response.get_data(as_text=True)


@pytest.mark.parametrize("group", ["\u200b", "x" * 300, "a\u0000b"])
def test_a_hostile_group_for_a_transcript_is_422(client, database, group):
    body = json.dumps(example("flag-at-reveal")).encode()
    response = client.post("/nights/import", data={"file": (io.BytesIO(body), "t.json"), "group": group},
                           headers=SAME_ORIGIN, content_type="multipart/form-data")
    assert response.status_code == 422 and "group" in response.get_data(as_text=True)
    assert database.execute("SELECT count(*) FROM matches").fetchone() == (0,)


def test_export_and_import_on_the_web(client, history, database):
    response = client.get(f"/nights/g/{history.id}/export.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    assert client.get(f"/nights/g/{history.id}/export.csv").mimetype == "text/csv"
    again = client.post("/nights/import", data={"file": (io.BytesIO(response.data), "club.json")},
                        headers=SAME_ORIGIN, content_type="multipart/form-data")
    assert again.status_code == 303 and "imported=0" in again.headers["Location"]
    page = client.get(again.headers["Location"]).get_data(as_text=True)  # says why nothing came in
    assert "0 matches imported." in page and "were here already: a match is never counted twice." in page
    assert client.post("/nights/import", data={}, headers=SAME_ORIGIN).status_code == 422
    assert client.get("/nights/g/9999/export.json").status_code == 404


def test_a_match_dealt_by_another_seat_goes_out_and_back_in_with_its_dealer(database, tmp_path):
    """A rematch is dealt by the last game's loser (SH-53), not the game's default dealer: its entries
    replay only from that deal, so its transcript names the dealer and the import keeps it."""
    from referee import store, tables

    doc = example("flag-at-reveal")
    match = store.create_match(database, "ratatat", ["Ben", "Ana"], doc["rules"], dealer=0)  # Ana acts first
    for i, entry in enumerate(doc["entries"]):
        tables.append(database, match.id, i, entry, None)
    match = store.get_match(database, match.id)
    out = json.loads(json.dumps(exports.transcript_of(database, match)))
    assert out["dealer"] == "Ben"
    other = dbmod.connect(tmp_path / "empty.sqlite")
    dbmod.migrate(tmp_path / "empty.sqlite")
    try:
        (match_id,) = exports.import_data(other, out).added
        imported = store.get_match(other, match_id)
        assert imported.dealer == 0 and imported.version == len(doc["entries"])
        replayed = tables.replay(imported, [e["entry"] for e in store.entries(other, match_id)])
        assert replayed.state.over and replayed.state.winners == store.state_at(database, match, tables.replay).state.winners
    finally:
        other.conn.close()


def test_GEN_6_a_round_still_being_played_goes_out_as_a_phone_without_a_seat_sees_it(database):
    g = people.find_or_create_group(database, "Family")
    round_ = example("plain-round")
    play(database, round_, g.id, MON, upto=3)  # Ana has peeked at two cards and drawn one
    play(database, round_, g.id, TUE)  # a finished round: every card was shown
    playing, finished = (m["transcript"] for m in exports.export_group(database, g.id)["matches"])
    assert "'0', '1'" not in str(playing["entries"][1]) and playing["entries"][1]["move"] == "initial_peek"
    assert playing["entries"][0] == round_["entries"][0]  # the card turned up lies face up for everyone
    assert finished["entries"] == round_["entries"]


# --- The transcript names who dealt the first game, default dealer or not (failed before its fix) --------

@pytest.mark.parametrize("game, dealer, deals", [
    ("ratatat", "Cy", "Cy deals four cards to each player"),
    ("cabo", "Cy", "Cy deals four cards face down to each player"),
    ("shithead", "Ana", "Ana deals everyone"),
])
def test_the_transcript_of_a_match_dealt_by_the_default_dealer_names_the_dealer(client, database, tmp_path, game,
                                                                                 dealer, deals):
    """The screen of a first round says who deals; the exported transcript says it too (it named only a
    rematch's dealer), and read back it deals the same first round."""
    from referee import store, tables
    from referee.transcript import from_data

    match = store.create_match(database, game, ["Ana", "Ben", "Cy"])
    assert deals in client.get(f"/m/{match.id}/screen").get_data(as_text=True)
    download = client.get(f"/m/{match.id}/transcript.json")
    assert download.status_code == 200 and download.get_json()["dealer"] == dealer
    doc = json.loads(json.dumps(exports.transcript_of(database, match)))
    assert doc["dealer"] == dealer
    assert from_data(doc).start() == from_data(download.get_json()).start() == tables.start(match).state


def test_a_played_match_goes_out_and_back_in_with_its_default_dealer_and_an_old_transcript_still_imports(
        client, database, tmp_path):
    """Export -> import of a whole Rat-a-Tat Cat match dealt by the default dealer: the dealer is named
    and kept, and the entries replay to the same result. A transcript written before the dealer was always
    named (no "dealer" field) still imports, dealt by the game's default dealer as before."""
    from referee import store, tables
    from referee.transcript import loads

    doc = example("three-rounds")
    match = store.create_match(database, "ratatat", doc["players"], doc.get("rules") or {})
    for i, entry in enumerate(doc["entries"]):
        tables.append(database, match.id, i, entry, None)
    match = store.get_match(database, match.id)
    played = store.state_at(database, match, tables.replay).state
    download = client.get(f"/m/{match.id}/transcript.json").get_data(as_text=True)
    assert loads(download).dealer == doc["players"][-1]
    out = json.loads(json.dumps(exports.transcript_of(database, match)))
    assert out["dealer"] == doc["players"][-1]
    old = {k: v for k, v in out.items() if k != "dealer"}
    for i, sent in enumerate((out, old)):
        other = dbmod.connect(tmp_path / f"empty{i}.sqlite")
        dbmod.migrate(tmp_path / f"empty{i}.sqlite")
        try:
            (match_id,) = exports.import_data(other, sent).added
            imported = store.get_match(other, match_id)
            assert imported.dealer == (len(doc["players"]) - 1 if sent is out else None)
            assert imported.version == len(doc["entries"])
            again = store.state_at(other, imported, tables.replay).state
            assert again.over and again.winners == played.winners and again.totals == played.totals
            assert exports.transcript_of(other, imported)["dealer"] == doc["players"][-1]
        finally:
            other.conn.close()


def test_an_edited_transcript_on_the_web_is_a_422_that_says_what_differs(client, database):
    """The same match id with other players: refused, saying so (it was taken as "already here" before,
    and the group named on the form was made, empty)."""
    doc = {**example("flag-at-reveal"), "match": "abcd2345"}
    done = exports.import_data(database, doc, "Night Crew")
    assert done.added == ["abcd2345"] and done.group.name == "Night Crew"
    body = json.dumps(renamed(doc, {"Ana": "Zoe"})).encode()
    response = client.post("/nights/import", data={"file": (io.BytesIO(body), "t.json"), "group": "Fam"},
                           headers=SAME_ORIGIN, content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "match abcd2345 is already here with other players (Ana, Ben)" in page
    assert [g.name for g in people.groups(database)] == ["Night Crew"]
    with pytest.raises(exports.AlreadyHere) as err:
        exports.import_data(database, renamed(doc, {"Ana": "Zoe"}), "Fam")
    assert err.value.field == "match" and err.value.refused == [
        ("match", "match abcd2345 is already here with other players (Ana, Ben); it was not changed")]
    again = exports.import_data(database, doc, "Fam")  # the same: said where it is, no group made
    assert (again.skipped, again.where, again.group) == (["abcd2345"], {"abcd2345": "Night Crew"}, None)
    assert again.words() == "0 matches imported, 1 already here, in Night Crew"
    assert [g.name for g in people.groups(database)] == ["Night Crew"]


@pytest.mark.parametrize("entries, words", [
    ([{"move": "end_match", "seat": "Ana"}], "was ended before any round was completed: it has no result"),
    ([{"move": "end_match", "seat": "Ana"}, {"move": "undo", "seat": "Ana"}], "is not finished"),
])
def test_a_transcript_ended_with_no_result_is_refused_in_words_of_its_end(database, entries, words):
    data = {"format": "referee-transcript/1", "game": "ratatat", "players": ["Ana", "Ben"], "entries": entries}
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, data)
    assert words in str(err.value)


def test_a_match_exported_while_being_played_is_brought_up_to_date_by_a_later_export(database, tmp_path):
    """Exported after 13 entries and imported elsewhere, then played to its end here: the later export brings
    its later entries in (the standings match), and imports the same once only."""
    from referee import tables

    g = people.find_or_create_group(database, "Club")
    doc = example("three-rounds")
    match = play(database, doc, g.id, MON, upto=13)
    early = json.loads(json.dumps(exports.export_group(database, g.id)))
    other = dbmod.connect(tmp_path / "other.sqlite")
    dbmod.migrate(tmp_path / "other.sqlite")
    try:
        assert exports.import_data(other, early).added == [match.id]
        for i, entry in enumerate(doc["entries"][13:], start=13):
            tables.append(database, match.id, i, entry, None)
        late = json.loads(json.dumps(exports.export_group(database, g.id)))
        done = exports.import_data(other, late)
        assert (done.added, done.skipped, done.continued, done.refused) == ([], [], [match.id], [])
        assert "1 brought up to date" in done.words()
        assert _standings(other, "Club") == _standings(database, "Club")
        again = exports.import_data(other, late)
        assert (again.skipped, again.continued) == ([match.id], [])
        with pytest.raises(exports.AlreadyHere):  # the earlier file is not "played on": it lacks entries here
            exports.import_data(other, early)
    finally:
        other.close()


def test_the_csv_gives_each_round_s_running_total_and_the_match_s_result(database):
    """The totals are the standings' own (Cabo's exact 100 goes back to 50, CAB-44), so a spreadsheet adds
    up to the referee's result."""
    g = people.find_or_create_group(database, "Club")
    cabo = example("cabo-scoring")
    play(database, cabo, g.id)
    rows = list(csv.DictReader(io.StringIO(exports.export_csv(database, g.id))))
    cabo_rows = [r for r in rows if r["game"] == "cabo"]
    finals = {}
    for r in cabo_rows:
        finals[r["player"]] = int(r["total"])
    assert finals == {"Ana": 56, "Ben": 105, "Cy": 49}  # the example's standings
    assert sum(int(r["score"]) for r in cabo_rows if r["player"] == "Ana") != 56  # the reset is in the total only
    assert {r["player"]: r["match_result"] for r in cabo_rows if r["round"] == "1"} == {"Ana": "", "Ben": "",
                                                                                       "Cy": "won"}


def test_a_match_played_at_a_table_here_is_never_played_on_by_a_file(app, database):
    """A file that carries a match of this referee's own tables further is refused for it: a table's entries
    come from its phones, each checked for who may make it, never from an upload."""
    from referee import store

    g = people.find_or_create_group(database, "Club")
    doc = example("three-rounds")
    match = play(database, doc, g.id, MON, upto=13)
    later = json.loads(json.dumps(exports.export_group(database, g.id)))
    later["matches"][0]["transcript"]["entries"] += doc["entries"][13:]
    store.claim_seat(database, match.id, 0, "phone-a")  # Ana's phone sits at it
    with pytest.raises(exports.AlreadyHere) as err:
        exports.import_data(database, later)
    assert "is played at a table here" in err.value.refused[0][1]
    assert store.get_match(database, match.id).version == 13


def test_a_file_too_long_to_import_in_seconds_is_refused_before_any_replay(client, database):
    """A match of more entries than any evening holds, or a file of more entries in all than an import
    replays in seconds, is refused at once (a phone on the network cannot hold a worker for a minute), in
    the phone's language; nothing is written."""
    def group(*sizes: int) -> bytes:
        matches = [{"transcript": {"game": "ratatat", "players": ["A", "B"], "entries": [{"move": "draw"}] * n}}
                   for n in sizes]
        return json.dumps({"format": "referee-group/1", "group": {"name": "G"}, "matches": matches}).encode()

    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, exports.read(group(exports.MAX_ENTRIES + 1)))
    assert err.value.field == "matches[0].transcript.entries" and str(exports.MAX_ENTRIES) in err.value.message
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, exports.read(group(*[exports.MAX_ENTRIES] * 3, 1)))
    assert err.value.field == "matches" and "export fewer nights at a time" in err.value.message
    response = client.post("/nights/import", data={"file": (io.BytesIO(group(*[exports.MAX_ENTRIES] * 3, 1)), "g.json")},
                           headers={**SAME_ORIGIN, "Accept-Language": "it"}, content_type="multipart/form-data")
    assert response.status_code == 422 and "60000" in response.get_data(as_text=True)
    assert "export fewer nights" not in response.get_data(as_text=True)  # said in Italian
    assert database.execute("SELECT count(*) FROM matches").fetchone() == (0,)


def test_a_transcript_is_dated_by_its_night_and_comes_back_in_on_that_night(database, tmp_path):
    """A match of Monday's night (its start kept in UTC, perhaps the next calendar day: after midnight, or
    another time zone) goes out dated by that night, and a transcript brought into another database lands
    on that night, not on the UTC date of its start."""
    g = people.find_or_create_group(database, "Club")
    match = play(database, example("flag-at-reveal"), g.id, MON)
    assert match.created_at[:10] != "2026-11-30"  # started now; its night says Monday
    doc = json.loads(json.dumps(exports.transcript_of(database, match)))
    assert doc["date"] == "2026-11-30"
    other = dbmod.connect(tmp_path / "other.sqlite")
    dbmod.migrate(tmp_path / "other.sqlite")
    try:
        exports.import_data(other, doc, "Club")
        club = people.find_or_create_group(other, "Club")
        assert [n.day for n in nights.group_nights(other, club.id)] == ["2026-11-30"]
    finally:
        other.conn.close()
