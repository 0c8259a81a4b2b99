"""The game-night screens through the Flask test client: standings, a player's page, head-to-head,
a match round by round, renames and merges, the new-table form's group and profiles, and hostile
fields answered 4xx with a message."""
from __future__ import annotations

import html
import re

import pytest

from referee import people, stats, store
from tests.conftest import SAME_ORIGIN
from tests.web.nights_helpers import TIED_ROUND, example, play, renamed


@pytest.fixture
def club(app, database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    play(database, TIED_ROUND, g.id)
    play(database, example("three-rounds"), g.id)
    return g


def test_standings_page_shows_each_rule_set_apart_with_a_chart_and_its_table(client, club):
    page = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    assert page.count('<table class="standings"') == 2  # rounds_n 1, and the default rules
    assert "Number of rounds: 1 round" in page and "The publisher&#39;s rules" in page
    said = re.findall(r"House rules: [^<]*", page)  # each rule set's tie policy, though both keep the default (GEN-11)
    assert len(said) == 2 and all("; Ties in a round: " in words for words in said), said
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="chart"' in page and "<title id=\"wins-by-night-title\">" in page
    assert '<table class="chart-data">' in page
    assert "<script" not in page.split("<main", 1)[1]


def test_standings_filters_by_game_and_rules(client, club):
    page = client.get(f"/nights/g/{club.id}", query_string={"game": "ratatat", "rules": "{}"}).get_data(as_text=True)
    assert page.count('<table class="standings"') == 1 and ">Cy</a>" in page


@pytest.mark.parametrize("query", [{"game": "chess"}, {"night": "x"}, {"night": "99999"}, {"rules": "\x00"},
                                   {"rules": "x" * 3000}, {"night": "1" * 30}])
def test_hostile_filters_are_4xx(client, club, query):
    response = client.get(f"/nights/g/{club.id}", query_string=query)
    assert 400 <= response.status_code < 500


def test_player_page_history_and_form_chart(client, club, database):
    ana = people.find_profile(database, "Ana")
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    assert "Ana" in page and 'id="form"' in page and "won (shared)" in page
    assert client.get("/nights/p/999999").status_code == 404
    # her own standings rows carry no "#": one row each, it always said 1, whatever her place in the group
    assert '<table class="standings"' in page and 'class="rank"' not in page
    group = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    assert '<th scope="col" class="rank">#</th>' in group  # the group's tables rank everyone


def test_head_to_head_page(client, club, database):
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    page = client.get("/nights/h2h", query_string={"a": ana.id, "b": ben.id}).get_data(as_text=True)
    assert "Ana ahead" in page and page.count('href="/nights/m/') == 3  # three finished matches together
    assert page.count("<tr><th scope=\"row\" class=\"what\">Rat-a-Tat Cat") == 2  # never mixed across house rules
    same = client.get("/nights/h2h", query_string={"a": ana.id, "b": ana.id},
                      headers={"Referer": "http://localhost/nights/h2h"})
    assert same.status_code == 422 and "Choose two different players." in same.get_data(as_text=True)
    assert "b:" not in same.get_data(as_text=True)  # no field's name of the form, a person's words
    assert 'href="http://localhost/nights/h2h">Back to the page before' in same.get_data(as_text=True)
    bad = client.get("/nights/h2h", query_string={"a": "-1", "b": "x"}, headers={"Referer": "http://evil.test/x"})
    assert bad.status_code == 400 and "evil.test" not in bad.get_data(as_text=True)  # back only to this server


def test_match_page_running_totals(client, database, club):
    match_id = database.execute("SELECT id FROM matches WHERE rules = '{}'").fetchone()[0]
    page = client.get(f"/nights/m/{match_id}").get_data(as_text=True)
    assert 'id="running-totals"' in page and "<td>3</td><td>24</td><td>27</td><td>30</td>" in page
    # GEN-11: a score sheet always says how ties are decided, even by the default rule
    assert "House rules: The publisher&#39;s rules; Ties in a round: " in page
    assert client.get("/nights/m/nosuchid").status_code == 404


def test_rename_merge_and_undo_through_the_forms(client, database, club):
    ana = people.find_profile(database, "Ana")
    other = people.create_profile(database, "Annie")
    assert client.post(f"/nights/p/{ana.id}/rename", data={"name": "Anna"}, headers=SAME_ORIGIN).status_code == 303
    assert people.get_profile(database, ana.id).name == "Anna"
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    assert "Undo the rename: back to “Ana”" in page and "renamed “Anna”" in page
    assert client.post(f"/nights/p/{ana.id}/unrename", headers=SAME_ORIGIN).status_code == 303
    assert people.get_profile(database, ana.id).name == "Ana"
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    assert "Undo the rename" not in page and "rename undone: “Ana” again" in page
    assert client.post(f"/nights/p/{ana.id}/rename", data={"name": "Anna"}, headers=SAME_ORIGIN).status_code == 303
    assert client.post(f"/nights/p/{ana.id}/merge", data={"other": other.id}, headers=SAME_ORIGIN).status_code == 303
    assert people.get_profile(database, other.id).canonical_id == ana.id
    assert client.get(f"/nights/p/{other.id}").status_code == 303  # to the person's page
    assert client.post(f"/nights/p/{other.id}/unmerge", headers=SAME_ORIGIN).status_code == 303
    assert people.get_profile(database, other.id).canonical_id == other.id
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)  # the profile merged into says both
    assert "“Annie” merged into “Anna”" in page and "merge of “Annie” into “Anna” undone" in page


def test_the_merge_form_offers_only_those_who_may_be_the_same_person(client, database, club):
    """Ben sat at Ana's table: he is another person, and merging him was refused after being offered first.
    Only someone who never played with Ana is offered."""
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    annie = people.create_profile(database, "Annie")
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    offered = page.split('id="merge-other"')[1].split("</select>")[0]
    assert f'value="{annie.id}"' in offered and f'value="{ben.id}"' not in offered and f'value="{ana.id}"' not in offered
    # which name is kept is said before the merge (from a misspelt name's page, it folded the right one in)
    form = html.unescape(page.split('id="merge-form"')[1].split("</form>")[0])
    assert "The name kept is Ana; to keep the other name, merge from that person's page." in form
    assert people.tablemates(database, ana.id) >= {ana.canonical_id, ben.canonical_id}
    assert annie.canonical_id not in people.tablemates(database, ana.id)


def test_a_refused_rename_is_said_at_its_form_on_the_players_page_with_the_name_typed(client, database, club):
    ana = people.find_profile(database, "Ana")
    response = client.post(f"/nights/p/{ana.id}/rename", data={"name": "ben"}, headers=SAME_ORIGIN)
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and 'id="rename-form"' in page  # the page itself, not a dead end
    problem = page.split('id="rename-form"')[1].split("</form>")[0]
    assert "There is already a player called Ben." in problem and 'value="ben"' in problem
    assert 'aria-describedby="rename-problem"' in problem
    assert people.get_profile(database, ana.id).name == "Ana"


@pytest.mark.parametrize("path,data", [
    ("rename", {"name": ""}), ("rename", {"name": "x" * 500}), ("rename", {"name": "Ben"}),
    ("merge", {"other": "abc"}), ("merge", {"other": ""}), ("merge", {"other": "9" * 40}), ("merge", {}),
    ("unmerge", {}), ("unrename", {}),
])
def test_hostile_profile_forms_are_422_with_a_message(client, database, club, path, data):
    ana = people.find_profile(database, "Ana")
    response = client.post(f"/nights/p/{ana.id}/{path}", data=data, headers=SAME_ORIGIN)
    assert response.status_code in (404, 422)
    assert "<p" in response.get_data(as_text=True)


def test_new_table_form_offers_groups_and_profiles_and_links_the_match(client, database, club):
    form = client.get("/new/ratatat").get_data(as_text=True)
    assert '<datalist id="profile-names">' in form and '<option value="Ana">' in form
    assert f'<option value="{club.id}" selected>Club</option>' in form  # the last group played in
    known = re.search(rf'<div class="known-set" data-group="{club.id}"[^>]*>(.*?)</div>', form, re.S).group(1)
    assert re.findall(r'data-name="([^"]+)"', known) == ["Ana", "Ben", "Cy"]  # the group's players, to tap
    response = client.post("/new/ratatat", data={"player": ["ana", "Dee"], "group": str(club.id)}, headers=SAME_ORIGIN)
    assert response.status_code == 303
    match_id = response.headers["Location"].rstrip("/").split("/")[-1]
    row = database.execute("SELECT group_id, night_id FROM matches WHERE id = ?", (match_id,)).fetchone()
    assert row[0] == club.id and row[1] is not None
    seats = database.execute("SELECT p.name FROM match_seats s JOIN profiles p ON p.id = s.profile_id"
                             " WHERE match_id = ? ORDER BY seat", (match_id,)).fetchall()
    assert seats == [("Ana",), ("Dee",)]  # "ana" is Ana's profile


def test_a_table_of_strangers_left_in_the_group_the_form_chose_is_asked_about_once(client, database, club):
    form = client.get("/new/ratatat").get_data(as_text=True)
    assert f'name="group_offered" value="{club.id}"' in form  # the form chose the club by itself
    data = {"player": ["Gina", "Hugo"], "group": str(club.id), "group_offered": str(club.id)}
    asked = client.post("/new/ratatat", data=data, headers=SAME_ORIGIN)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 422
    assert "None of these players has played in Club before: is this table for Club? If it is, tap" in page
    assert 'name="group_offered" value=""' in page and f'<option value="{club.id}" selected>Club</option>' in page
    in_club = lambda: database.execute("SELECT count(*) FROM matches WHERE group_id = ?", (club.id,)).fetchone()[0]  # noqa: E731
    before = in_club()
    assert client.post("/new/ratatat", data={**data, "group_offered": ""}, headers=SAME_ORIGIN).status_code == 303
    assert in_club() == before + 1  # asked once: the same choice again makes the table in the club
    # a table with one of the club's players, or a group chosen on purpose, is not asked about
    member = {**data, "player": ["Gina", "ana"]}
    assert client.post("/new/ratatat", data=member, headers=SAME_ORIGIN).status_code == 303
    assert client.post("/new/ratatat", data={**data, "group": "none"}, headers=SAME_ORIGIN).status_code == 303


def test_a_new_table_refuses_one_person_in_two_seats_by_a_merged_name(client, database, club):
    """Zoë's old profile "Zoe" was merged into hers: a table with both names would seat one person twice
    and count the match twice in her standings. Refused (422, the names said), nothing made."""
    zoe, zoe2 = people.create_profile(database, "Zoë"), people.create_profile(database, "Zoe")
    people.merge(database, zoe2.id, zoe.id)
    tables_before = database.execute("SELECT count(*) FROM matches").fetchone()[0]
    groups_before = len(people.groups(database))
    response = client.post("/new/ratatat", data={"player": ["Zoe", "Zoë", "Dana"], "new_group": "Another lot"},
                           headers=SAME_ORIGIN)
    assert response.status_code == 422
    assert "Players: Zoe and Zoë are the same player (their profiles were merged): one seat each." in \
        response.get_data(as_text=True)
    assert database.execute("SELECT count(*) FROM matches").fetchone()[0] == tables_before
    assert len(people.groups(database)) == groups_before
    assert client.post("/new/ratatat", data={"player": ["Zoe", "Dana"]}, headers=SAME_ORIGIN).status_code == 303


def test_new_table_with_a_new_group(client, database):
    response = client.post("/new/ratatat", data={"player": ["A", "B"], "group": "none", "new_group": "Sunday lot"},
                           headers=SAME_ORIGIN)
    assert response.status_code == 303
    assert [g.name for g in people.groups(database)] == ["Sunday lot"]


@pytest.mark.parametrize("data", [{"group": "abc"}, {"group": "99999"}, {"group": "1" * 50},
                                  {"new_group": "\u200b"}, {"new_group": "x\u0000"}])
def test_hostile_group_fields_are_422_on_the_form(client, data):
    response = client.post("/new/ratatat", data={"player": ["A", "B"], **data}, headers=SAME_ORIGIN)
    assert response.status_code == 422
    assert re.search(r'id="form-error"', response.get_data(as_text=True))


def test_nights_index_and_a_new_group(client, database):
    assert client.post("/nights/groups", data={"name": "Friday"}, headers=SAME_ORIGIN).status_code == 303
    page = client.get("/nights/").get_data(as_text=True)
    assert "Friday" in page and "Tonight is the evening of" in page
    empty = client.post("/nights/groups", data={"name": ""}, headers=SAME_ORIGIN)
    assert empty.status_code == 422 and "a group needs a name that shows" in empty.get_data(as_text=True)


def test_play_again_stays_in_the_group(client, database, club):
    match = play(database, example("flag-at-reveal"), club.id)
    response = client.post(f"/m/{match.id}/again", headers=SAME_ORIGIN)
    assert response.status_code == 303
    rematch = database.execute("SELECT group_id FROM matches WHERE rematch_of = ?", (match.id,)).fetchone()
    assert rematch == (club.id,)
    assert stats.refresh(database) >= 1


@pytest.mark.parametrize("path", ["/nights/g/99999999999999999999999", "/nights/p/99999999999999999999999",
                                  "/nights/g/99999999999999999999999/export.json", "/nights/m/%00", "/nights/g/-1",
                                  "/nights/h2h?a=99999999999&b=1"])
def test_links_to_nothing_are_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/nights/p/99999999999999999999999/rename", "/nights/p/99999999999999999999999/merge",
                                  "/nights/p/99999999999999999999999/unmerge", "/nights/p/99999999999999999999999/unrename"])
def test_forms_for_nobody_are_404(client, path):
    assert client.post(path, data={"name": "x", "other": "1"}, headers=SAME_ORIGIN).status_code == 404


def test_a_finished_table_links_to_its_nights_standings(client, database, club):
    night = database.execute("SELECT id FROM nights WHERE group_id = ?", (club.id,)).fetchone()[0]
    finished = database.execute("SELECT id FROM matches WHERE rules = '{}'").fetchone()[0]
    page = client.get(f"/m/{finished}").get_data(as_text=True)
    assert f'href="/nights/g/{club.id}?night={night}" id="night-standings"' in page
    playing = play(database, example("three-rounds"), club.id, upto=5)  # still being played: no link yet
    assert 'id="night-standings"' not in client.get(f"/m/{playing.id}").get_data(as_text=True)
    alone = play(database, TIED_ROUND)  # finished, in no group: no standings to link to
    page = client.get(f"/m/{alone.id}").get_data(as_text=True)
    assert "Match over" in page and 'id="night-standings"' not in page


def test_the_known_players_are_the_groups_latest_with_merges_followed(database, club):
    other = people.find_or_create_group(database, "Other")
    play(database, renamed(TIED_ROUND, {"Ana": "Dee", "Ben": "Bob"}), other.id)
    people.merge(database, people.find_profile(database, "Bob").id, people.find_profile(database, "Ben").id)
    assert [p.name for p in people.known_players(database, other.id)] == ["Ben", "Dee"]  # Bob counts as Ben
    assert {p.name for p in people.known_players(database, club.id)} == {"Ana", "Ben", "Cy"}
    assert [p.name for p in people.known_players(database)][:2] == ["Ben", "Dee"]  # any group: the latest first
    assert people.known_players(database, 987654) == []


def _standings_rows(page: str) -> list[str]:
    return re.findall(r'<th scope="row" class="who"><a href="/nights/p/\d+">([^<]+)</a></th>\s*(.*?)</tr>', page, re.S)


def test_the_first_look_after_an_upgrade_counts_a_batch_at_a_time(app, client, database, club):
    """An old database's matches have no summaries yet: each look counts at most a batch and says how
    far it has got; the last one shows the same standings as ever."""
    play(database, example("three-rounds"), club.id)
    play(database, TIED_ROUND, club.id)
    before = _standings_rows(client.get(f"/nights/g/{club.id}").get_data(as_text=True))
    assert len(before) == 5  # two tables: Ana and Ben; Ana, Ben and Cy
    ana = people.find_profile(database, "Ana")
    player_before = client.get(f"/nights/p/{ana.id}").get_data(as_text=True).count("<tr>")
    for table in ("standings_totals", "seat_summaries", "match_summaries"):  # what a schema upgrade drops
        database.execute(f"DELETE FROM {table}")
    app.config["STANDINGS_BATCH"] = 2
    counted = lambda: database.execute("SELECT count(*) FROM match_summaries").fetchone()[0]  # noqa: E731
    seen = []
    for _ in range(5):
        response = client.get(f"/nights/g/{club.id}")
        page = response.get_data(as_text=True)
        assert response.status_code == 200
        if '<table class="standings"' in page:
            break
        seen.append((re.search(r"being counted \((\d+) of (\d+) matches\)", page).groups(), counted()))
        assert f'hx-get="/nights/g/{club.id}"' in page and f'<a href="/nights/g/{club.id}">Count on</a>' in page
    assert seen == [(("2", "5"), 2), (("4", "5"), 4)]  # never more than a batch in one request
    assert _standings_rows(page) == before and counted() == 5
    for table in ("standings_totals", "seat_summaries", "match_summaries"):
        database.execute(f"DELETE FROM {table}")
    h2h = client.get("/nights/h2h", query_string={"a": ana.id, "b": people.find_profile(database, "Ben").id})
    assert "being counted (2 of 5 matches)" in h2h.get_data(as_text=True) and counted() == 2
    assert "being counted (4 of 5 matches)" in client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    assert client.get(f"/nights/p/{ana.id}").get_data(as_text=True).count("<tr>") == player_before  # one left: at once
    play(database, TIED_ROUND, club.id)  # a match played since: counted with the standings, no waiting
    assert '<table class="standings"' in client.get(f"/nights/g/{club.id}").get_data(as_text=True)


def test_referee_serve_counts_an_old_databases_summaries_in_the_background(app, database, club):
    for table in ("standings_totals", "seat_summaries", "match_summaries"):
        database.execute(f"DELETE FROM {table}")
    worker = stats.count_in_background(app.config["DATABASE"], batch=2)
    worker.join(timeout=60)
    assert not worker.is_alive() and worker.counted == 3
    assert stats.stale(database, club.id) == [] and stats.standings(database, stats.Scope(club.id), fresh=False)


def test_house_rules_on_the_nights_screens_are_said_in_the_phones_language(client, database, club):
    it = {"Accept-Language": "it"}
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    match_id = database.execute("SELECT id FROM matches WHERE rules != '{}'").fetchone()[0]
    for path in (f"/nights/g/{club.id}", f"/nights/p/{ana.id}", f"/nights/h2h?a={ana.id}&b={ben.id}",
                 f"/nights/m/{match_id}"):
        page = client.get(path, headers=it).get_data(as_text=True)
        assert "Numero di giri: 1 giro" in page, path  # the switch and its value as the rules page says them
        assert "Number of rounds" not in page and "1 round" not in page, path
    page = client.get(f"/nights/g/{club.id}", headers=it).get_data(as_text=True)
    assert "Le regole dell&#39;editore" in page and "default house rules" not in page
    from datetime import date

    from babel.dates import format_date

    from referee import nights
    day = database.execute("SELECT day FROM nights WHERE group_id = ?", (club.id,)).fetchone()[0]
    assert format_date(date.fromisoformat(day), "full", locale="it") in page  # the night's day in Italian too
    assert nights.night_title(day) not in page
    page = client.get(f"/nights/g/{club.id}", headers={"Accept-Language": "he"}).get_data(as_text=True)
    assert "חוקי היצרן" in page and "Number of rounds" not in page
    page = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    assert "Number of rounds: 1 round" in page and "The publisher&#39;s rules" in page
    said = re.findall(r"House rules: [^<]*", page)  # each rule set's tie policy, though both keep the default (GEN-11)
    assert len(said) == 2 and all("; Ties in a round: " in words for words in said), said


def test_standings_figures_are_written_as_the_phones_language_writes_numbers(client, club):
    """An average in the standings is 12.5 in English and 12,5 in Italian (before: "12.5" on an Italian page)."""
    from referee import i18n

    def averages(page: str) -> list[str]:
        return re.findall(r"<td>(\d+[.,]\d+)</td>", page)

    english = averages(client.get(f"/nights/g/{club.id}").get_data(as_text=True))
    assert english and all("." in figure for figure in english)
    client.set_cookie(i18n.COOKIE, "it")
    italian = averages(client.get(f"/nights/g/{club.id}").get_data(as_text=True))
    assert italian == [figure.replace(".", ",") for figure in english]


def test_a_match_nobody_has_entered_anything_in_for_half_a_day_was_left_unfinished(client, database, club,
                                                                                     monkeypatch):
    """A table abandoned mid-match is no longer said to be "still being played" on the night's page and the
    players' pages once nothing was entered in it for 12 hours; one entered in just now still is."""
    with monkeypatch.context() as clock:  # its entries made long ago, on tonight's night
        clock.setattr(store, "now", lambda: "2026-01-01T20:00:00.000+00:00")
        left = play(database, example("three-rounds"), club.id, upto=5)
    playing = play(database, example("three-rounds"), club.id, upto=3)
    night = database.execute("SELECT id FROM nights WHERE group_id = ?", (club.id,)).fetchone()[0]
    page = client.get(f"/nights/g/{club.id}", query_string={"night": night}).get_data(as_text=True)
    said = {m: re.search(rf'href="/nights/m/{m}">.*?</li>', page, re.S).group(0) for m in (left.id, playing.id)}
    assert "(left unfinished)" in said[left.id] and "(still being played)" not in said[left.id]
    assert "(still being played)" in said[playing.id]
    ana = people.find_profile(database, "Ana")
    mine = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    assert mine.count("left unfinished") == 1 and mine.count("still being played") == 1


def test_two_matches_of_the_night_with_the_same_players_are_told_apart_by_their_start_and_code(client, database):
    """A family plays again: the night listed "Rat-a-Tat Cat: Grandma, Dad, Mia, Leo" twice, alike. Each line
    says when its match started (in the phone's own time, local_time.js) and its table's code."""
    from referee import nights

    group = people.find_or_create_group(database, "Family")
    first = play(database, example("three-rounds"), group.id)
    second = play(database, example("three-rounds"), group.id, upto=2)
    night = nights.match_group(database, first.id)[1]
    page = client.get(f"/nights/g/{group.id}", query_string={"night": night}).get_data(as_text=True)
    lines = re.findall(r"<li><a href=\"/nights/m/\w+\">.*?</li>", page, re.S)
    said = [line.split('">', 1)[1].split("</a>")[0] for line in lines]
    assert len(lines) == 2 and said[0] == said[1] == "Rat-a-Tat Cat: Ana, Ben, Cy"  # the same game and players
    for line, match in zip(lines, (first, second)):
        assert re.search(r'started <time datetime="[^"]+Z" data-local="time">[^<]+</time>, code ' + match.join_code, line)
    assert first.join_code != second.join_code
