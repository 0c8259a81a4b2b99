"""A table ends its match early ("End the match now", referee/views/play.py end_page and end_match): a page that
asks first and says what will count, an entry of the log naming who ended it, undone like any other entry; the
result of the rounds completed on the table, in its history, its transcript, ``referee check``, the exports and
the game nights."""
from __future__ import annotations

import json
import re

import pytest

from referee import nights, people, stats, store, tables
from referee.transcript import check, loads
from tests.web.nights_helpers import example, play

from .test_play import HX, Phone, ana_revealed_against_the_known_2, text

PLAIN = {"Origin": "http://localhost"}  # a plain form post (no htmx), as a browser without JavaScript sends it
ROUND_ONE = 11  # entries of three-rounds.json that make its first round (scored at the last reveal)
GAMES = [("ratatat", ["Ana", "Ben", "Cy"]), ("cabo", ["Ana", "Ben"]), ("shithead", ["Ana", "Ben"]),
         ("spite_malice", ["Ana", "Ben"])]


def _rtc(database, upto: int = ROUND_ONE + 2, group_id: int | None = None) -> store.Match:
    """Rat-a-Tat Cat (Ana, Ben, Cy), its first round scored and the second begun (``upto`` entries)."""
    return play(database, example("three-rounds"), group_id, upto=upto)


def _end_form(page: str) -> dict[str, str]:
    form = re.search(r'<form method="post" action="(/m/\w+/end)"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None, "no form on the page that asks"
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))


def _end(phone: Phone, headers=PLAIN):
    page = text(phone.client.get(f"{phone.url}/end"))
    return phone.client.post(f"{phone.url}/end", data=_end_form(page), headers=headers)


def _stored(database, match_id: str) -> list[dict]:
    return [row["entry"] for row in store.entries(database, match_id)]


@pytest.mark.parametrize("game, players", GAMES, ids=[g for g, _ in GAMES])
def test_every_tables_menu_offers_it_to_a_seated_phone_and_the_shared_phone_not_a_watcher(app, database, game,
                                                                                         players):
    match = store.create_match(database, game, players)
    for who, offered in (("0", True), ("shared", True), ("watch", False)):
        page = text(Phone(app, match.id, who).client.get(f"/m/{match.id}"))
        nav = re.search(r'<nav class="card links".*?</nav>', page, re.S).group(0)
        assert (f'href="/m/{match.id}/end"' in nav and "End the match now" in nav) is offered, who
        actions = re.search(r'<section class="card actions".*?</section>', page, re.S)
        assert actions is None or "End the match now" not in actions.group(0)  # not beside the entry buttons


def test_the_page_that_asks_says_what_will_count(app, database):
    match = _rtc(database)
    ana = Phone(app, match.id, "0")
    page = text(ana.client.get(f"/m/{match.id}/end"))
    assert "End the match now?" in page
    assert "The 1 round completed counts: the standings below are the result" in page
    assert "The round in play is not scored." in page
    assert "An undo takes it back, and the match goes on." in page
    standings = re.search(r'<table class="scores" id="end-standings">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r"<bdi>(\w+)</bdi>", standings) == ["Ana", "Cy", "Ben"]  # three-rounds: 7, 12, 19... best first
    assert _end_form(page)["version"] == str(match.version) and _end_form(page)["confirm"] == "1"
    assert len(_stored(database, match.id)) == ROUND_ONE + 2  # asking saved nothing


def test_before_any_round_the_page_says_there_will_be_no_result(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"])
    page = text(Phone(app, match.id, "shared").client.get(f"/m/{match.id}/end"))
    assert "No game has been completed yet: the match ends with no result" in page


def test_ending_after_one_round_records_who_and_shows_the_result(app, database):
    match = _rtc(database)
    before = tables.replay(match, _stored(database, match.id))
    totals = before.game.result(before.state)["totals"]
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    response = _end(ana)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/m/{match.id}")
    assert _stored(database, match.id)[-1] == {"move": "end_match", "seat": "Ana"}
    page = text(ben.client.get(f"/m/{match.id}"))
    assert "Match ended early" in page
    winner = min(totals, key=totals.get)
    said = re.search(r'<p class="outcome" id="ended-early">(.*?)</p>', page, re.S).group(1)
    assert said == (f"Ana ended the match early by agreement after 1 round. {winner}, first in the standings, "
                    "wins.")
    assert 'name="move" value="draw"' not in page and "End the match now" not in page  # nothing more to enter
    assert "The match, round by round" in page  # the rounds completed, as at a match's end
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    res = log.game.result(log.state)
    assert res["over"] and res["winners"] == [winner] and res["totals"] == totals
    # the history says it in plain words
    history = text(ben.client.get(f"/m/{match.id}/history"))
    assert "Ana ended the match early by agreement after 1 round." in history
    row = re.search(rf'<li class="stands" id="e{ROUND_ONE + 2}">(.*?)</li>', history, re.S).group(1)
    assert "Correct" not in row  # undone, never corrected
    assert ana.client.get(f"/m/{match.id}/correct/{ROUND_ONE + 2}").status_code == 422


def test_the_htmx_post_answers_with_the_screen(app, database):
    match = _rtc(database)
    shared = Phone(app, match.id, "shared")
    fields = _end_form(text(shared.client.get(f"{shared.url}/end")))
    assert fields.pop("from") == "page"
    response = shared.client.post(f"{shared.url}/end", data=fields, headers=HX)
    assert response.status_code == 200 and 'id="screen-body"' in text(response)
    assert "The table ended the match early by agreement after 1 round." in text(response)
    assert _stored(database, match.id)[-1] == {"move": "end_match"}  # the shared phone: the table ended it


def test_the_page_that_asks_is_sent_on_to_the_table_once_its_htmx_post_ended_the_match(app, database):
    match = _rtc(database)
    ana = Phone(app, match.id, "0")
    response = _end(ana, HX)
    assert response.status_code == 204 and response.headers["HX-Redirect"].endswith(f"/m/{match.id}")
    assert _stored(database, match.id)[-1] == {"move": "end_match", "seat": "Ana"}


@pytest.mark.parametrize("undone_by", ["Ana", "Ben"])
def test_an_undo_takes_it_back_and_the_match_goes_on(app, database, undone_by):
    match = _rtc(database)
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert _end(ana).status_code == 303
    page = text(ana.client.get(f"/m/{match.id}"))
    assert "Undo: Ana ended the match early by agreement after 1 round." in page
    watcher = Phone(app, match.id, None)
    assert watcher.post(move="undo").status_code == 403  # a phone watching takes no part in the decision
    assert "Undo: Ana ended the match" in text(ben.client.get(f"/m/{match.id}"))
    response = (ana if undone_by == "Ana" else ben).post(move="undo")  # ending is the table's decision (GEN-5):
    # any seated phone takes it back, not only the phone that tapped it
    assert response.status_code == 200 and "Match ended early" not in text(response)
    assert _stored(database, match.id)[-1]["move"] == "undo"  # a new entry: the end stays in the log
    history = text(ana.client.get(f"/m/{match.id}/history"))
    assert re.search(rf'<li class="gone" id="e{ROUND_ONE + 2}">.*?undone', history, re.S)
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    assert not log.game.result(log.state)["over"] and log.game.to_act(log.state) is not None
    assert "End the match now" in text(ana.client.get(f"/m/{match.id}"))  # it can be ended again


def test_an_entry_after_the_end_is_refused_and_nothing_saved(app, database):
    match = _rtc(database)
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert _end(ana).status_code == 303
    count = len(_stored(database, match.id))
    response = ben.post(move="draw")
    assert response.status_code == 422 and "GEN-13" in text(response)
    assert len(_stored(database, match.id)) == count


def test_a_match_already_over_or_ended_is_not_ended_again(app, database):
    match = play(database, example("three-rounds"), None)  # its three rounds played: over by its rules
    ana = Phone(app, match.id, "0")
    assert "End the match now" not in text(ana.client.get(f"/m/{match.id}"))
    response = ana.client.get(f"/m/{match.id}/end")
    assert response.status_code == 409 and "already over" in text(response)
    response = ana.client.post(f"/m/{match.id}/end", data={"version": str(match.version), "confirm": "1"},
                               headers=PLAIN)
    assert response.status_code == 409 and len(_stored(database, match.id)) == len(example("three-rounds")["entries"])
    ended = _rtc(database)
    ben = Phone(app, ended.id, "1")
    form = _end_form(text(ben.client.get(f"/m/{ended.id}/end")))
    assert ben.client.post(f"/m/{ended.id}/end", data=form, headers=PLAIN).status_code == 303
    form["version"] = str(int(form["version"]) + 1)
    form["key"] += "-again"
    assert ben.client.post(f"/m/{ended.id}/end", data=form, headers=PLAIN).status_code == 409


def test_a_watcher_may_not_end_it(app, database):
    match = _rtc(database)
    watcher = Phone(app, match.id, "watch")
    for response in (watcher.client.get(f"/m/{match.id}/end"),
                     watcher.client.post(f"/m/{match.id}/end", data={"version": str(match.version), "confirm": "1"},
                                         headers=PLAIN)):
        assert response.status_code == 403 and "You are watching this table" in text(response)
    assert _stored(database, match.id)[-1]["move"] != "end_match"


@pytest.mark.parametrize("fields, status, words", [
    ({"confirm": "1"}, 400, "The form is missing the version it was made for"),
    ({"version": "²", "confirm": "1"}, 400, "The form is missing the version it was made for"),
    ({"version": "9" * 5000, "confirm": "1"}, 400, "The form is missing the version it was made for"),
    ({"version": "{v}"}, 400, "Confirm that the table agrees to end the match"),
    ({"version": "{v}", "confirm": "yes"}, 400, "Confirm that the table agrees to end the match"),
    ({"version": "0", "confirm": "1"}, 409, "Someone else entered something first"),
    ({"version": "{v}", "confirm": "1", "key": "x" * 5000}, 303, ""),
])
def test_hostile_fields_are_4xx_with_a_message(app, database, fields, status, words):
    match = _rtc(database)
    ana = Phone(app, match.id, "0")
    data = {k: v.replace("{v}", str(match.version)) for k, v in fields.items()}
    response = ana.client.post(f"/m/{match.id}/end", data=data, headers=PLAIN)
    assert response.status_code == status
    assert words in text(response)
    ended = _stored(database, match.id)[-1]["move"] == "end_match"
    assert ended is (status == 303)


def test_the_transcript_and_referee_check_replay_it(app, database, client):
    match = _rtc(database)
    ana = Phone(app, match.id, "0")
    assert _end(ana).status_code == 303
    download = ana.client.get(f"/m/{match.id}/transcript.json")
    data = json.loads(download.get_data(as_text=True))
    assert data["entries"][-1] == {"move": "end_match", "seat": "Ana"}
    _, steps, report = check(loads(download.get_data(as_text=True)))
    assert all(step.accepted for step in steps) and report["ok"]
    assert report["result"]["over"] and report["result"]["ended_early"]["rounds"] == 1
    assert report["result"]["outcome"].startswith("Ana ended the match early by agreement after 1 round")


def test_the_cli_check_prints_the_outcome(app, database, tmp_path):
    from click.testing import CliRunner

    from referee.transcript_cli import check_command

    match = _rtc(database, upto=3)
    ana = Phone(app, match.id, "0")
    assert _end(ana).status_code == 303
    path = tmp_path / "ended.json"
    path.write_text(ana.client.get(f"/m/{match.id}/transcript.json").get_data(as_text=True))
    result = CliRunner().invoke(check_command, [str(path)])
    assert result.exit_code == 0, result.output
    assert "Ana ended the match early by agreement before any round was completed: no result." in result.output
    result = CliRunner().invoke(check_command, [str(path), "--json"])
    assert json.loads(result.output)["result"]["ended_early"] == {"by": "Ana", "rounds": 0, "noun": "round",
                                                                  "result": False}


def test_a_long_match_ended_then_reopened_from_its_snapshot_is_still_ended(app, database):
    match = _rtc(database, upto=15)  # with the end: 16 entries, a snapshot kept
    ana = Phone(app, match.id, "0")
    assert _end(ana).status_code == 303
    store.state_cache.clear()  # as after a restart
    fresh = store.get_match(database, match.id)
    assert fresh.version == 16
    log = store.state_at(database, fresh, tables.replay, tables.feed)
    assert log.game.result(log.state)["over"] and log.game.view(log.state, None)["ended"]["by"] == "Ana"
    store.state_cache.clear()
    assert ana.post(move="undo").status_code == 200  # the undo reaches back past the snapshot
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    assert not log.game.result(log.state)["over"]


def test_the_nights_count_it_as_finished_and_say_it_ended_early(app, database, client):
    group = people.find_or_create_group(database, "Family")
    match = _rtc(database, group_id=group.id)
    unplayed = play(database, example("three-rounds"), group.id, upto=2)
    for m in (match, unplayed):
        assert _end(Phone(app, m.id, "1")).status_code == 303
    night = nights.match_group(database, match.id)[1]
    page = text(client.get(f"/nights/g/{group.id}", query_string={"night": night}))
    items = re.findall(r"<li><a href=\"/nights/m/(\w+)\">.*?</li>", page, re.S)
    assert set(items) == {match.id, unplayed.id}
    assert "(ended early)" in page and "(ended early: no result)" in page and "(still being played)" not in page
    tables_ = stats.standings(database, stats.Scope(group.id))
    assert [t.matches for t in tables_] == [1]  # the match with a round counts; the other has no result
    rows = {r["name"]: r for r in tables_[0].rows}
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    winner = log.game.result(log.state)["winners"][0]
    assert rows[winner]["won"] == 1 and sum(r["won"] for r in rows.values()) == 1
    assert all(r["matches"] == 1 for r in rows.values())
    match_page = text(client.get(f"/nights/m/{match.id}"))
    assert 'id="ended-early">ended early</span>' in match_page
    assert "Ben ended the match early by agreement after 1 round." in match_page
    profile = database.execute("SELECT id FROM profiles WHERE name = 'Ana'").fetchone()[0]
    player = text(client.get(f"/nights/p/{profile}"))
    assert "ended early: no result" in player and "(ended early)" in player


def test_the_exports_hold_it_and_an_import_replays_it(app, database):
    from referee import exports

    group = people.find_or_create_group(database, "Family")
    match = _rtc(database, group_id=group.id)
    assert _end(Phone(app, match.id, "2")).status_code == 303
    doc = exports.export_group(database, group.id)
    text_ = json.dumps(doc)
    assert '"move": "end_match"' in text_ and '"seat": "Cy"' in text_
    csv = exports.export_csv(database, group.id)
    assert csv.count(f",{match.id},") == 3 and f",{match.id},ratatat,{{}},1,1," in csv  # one round, over
    from referee import db as dbmod

    path = str(app.config["DATABASE"]).replace(".sqlite", "-other.sqlite")
    dbmod.migrate(path)
    elsewhere = dbmod.connect(path)
    try:
        imported = exports.import_data(elsewhere, json.loads(json.dumps(doc)))
        assert imported.added == [match.id]
        moved = store.get_match(elsewhere, match.id)
        log = store.state_at(elsewhere, moved, tables.replay)
        assert log.game.result(log.state)["over"] and log.game.view(log.state, None)["ended"]["by"] == "Cy"
    finally:
        elsewhere.close()


@pytest.mark.parametrize("game, players", GAMES, ids=[g for g, _ in GAMES])
def test_ended_before_any_round_every_phone_shows_no_result_and_only_the_undo(app, database, game, players):
    """No round (or game) completed: every phone's table still loads and says there is no result; the only
    entry left to make is the undo of the end, on every seated phone (the table's decision, GEN-5)."""
    match = store.create_match(database, game, players)
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert _end(ana).status_code == 303
    for phone in (ana, ben, Phone(app, match.id, None)):
        page = phone.client.get(f"/m/{match.id}")
        assert page.status_code == 200, text(page)[:300]
        assert "Match ended early" in text(page) and "no result" in text(page)
    page = text(ana.client.get(f"/m/{match.id}"))
    assert set(re.findall(r'name="move" value="(\w+)"', page)) == {"undo"}
    assert "move=" not in "".join(re.findall(r'href="([^"]*pick[^"]*)"', page))  # no picker to open either
    assert set(re.findall(r'name="move" value="(\w+)"', text(ben.client.get(f"/m/{match.id}")))) == {"undo"}
    assert not re.findall(r'name="move" value="(\w+)"', text(Phone(app, match.id, None).client.get(f"/m/{match.id}")))


def test_a_dispute_open_when_the_match_is_ended_is_shown_left_open_with_nothing_to_decide(app, database):
    match, ana, ben = ana_revealed_against_the_known_2(app, database)
    bens = {"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}
    assert ben.post(move="reveal", **bens).status_code == 200
    assert "1 dispute to decide" in text(ben.client.get(f"/m/{match.id}"))
    assert _end(ben).status_code == 303
    page = text(ana.client.get(f"/m/{match.id}"))
    assert "1 dispute left open when the match was ended" in page
    assert 'value="resolve_flag"' not in page and "1 dispute to decide" not in page
