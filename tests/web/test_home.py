"""The new-table form (rule sets, switches in words, hostile fields) and playing again."""

from __future__ import annotations

import json
import re
import threading

import pytest

from referee import store, tables
from referee.games import ratatat as R
from referee.games.base import resolve_rules
from referee.games.ratatat_moves import Call, Discard, Draw, Reveal, TurnUp
from referee.games.ratatat_presets import BY_KEY, PRESETS
from referee.games.ratatat_rules import VARIANTS

ORIGIN = {"Origin": "http://localhost"}


def create(client, **form):
    form.setdefault("player", ["Ann", "Bo"])
    return client.post("/new/ratatat", data=form, headers=ORIGIN)


def created(client, database, **form):
    response = create(client, **form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return store.get_match(database, response.headers["Location"].rsplit("/", 1)[1])


# --- Rule sets -----------------------------------------------------------------------------------


def test_every_rule_set_is_offered_with_its_words_and_switch_values(client):
    html = client.get("/new/ratatat").get_data(as_text=True)
    for preset in PRESETS:
        radio = re.search(rf'<input type="radio" name="preset" value="{preset.key}" data-rules=\'([^\']*)\'', html)
        assert radio, preset.key
        assert json.loads(radio.group(1)) == resolve_rules(VARIANTS, preset.rules)
        assert preset.name.replace("'", "&#39;") in html and preset.description.replace("'", "&#39;") in html
    assert re.search(r'value="publisher" data-rules=\'[^\']*\' checked', html)  # the publisher's by default


def test_rule_sets_differ_only_where_rules_md_says(client):
    assert BY_KEY["publisher"].rules == {}
    assert BY_KEY["seed"].rules == {"draw2_mode": "seed_two_turns", "seed_reveal_then_choose": True}
    for preset in PRESETS:
        R.new_match(("Ann", "Bo"), preset.rules)  # every preset is a valid set of house rules


@pytest.mark.parametrize("preset", [p.key for p in PRESETS])
def test_a_rule_set_alone_sets_the_house_rules(client, database, preset):
    match = created(client, database, preset=preset)
    assert match.rules == BY_KEY[preset].rules


def test_switches_set_on_the_form_override_the_rule_set(client, database):
    match = created(client, database, preset="family", tie_policy="no_winner", elimination_inclusive="true")
    assert match.rules == {"power_into_row": "forbidden", "game_end_mode": "elimination", "tie_policy": "no_winner"}


def test_switches_are_hidden_where_they_do_not_apply(client):
    html = client.get("/new/ratatat").get_data(as_text=True)
    assert 'class="switch only-game_end_mode-timed" id="switch-minutes"' in html
    assert 'class="switch only-game_end_mode-elimination" id="switch-elimination_threshold"' in html
    assert 'class="switch only-game_end_mode-rounds" id="switch-rounds_n"' in html
    css = client.get("/static/rules.css").get_data(as_text=True)
    assert '.switch[class*=" only-"] { display: none; }' in css
    assert 'option[value="timed"]:checked) .only-game_end_mode-timed' in css


# --- Hostile fields -------------------------------------------------------------------------------


@pytest.mark.parametrize("field, value, words", [
    ("preset", "poker", "Choose one of the rule sets offered"),
    ("tie_policy", "coin", "Ties in a round: choose one of the choices offered"),
    ("tie_policy", "", None),  # blank: the rule set's value
    ("power_use_optional", "maybe", "Using a drawn power: choose one of the choices offered"),
    ("rounds_n", "-3", "Number of rounds: enter a whole number"),
    ("rounds_n", "0", "Number of rounds: enter a whole number from 1 to "),
    ("rounds_n", "1e3", "enter a whole number"),
    ("rounds_n", "٣", "enter a whole number"),  # an Arabic-Indic digit
    ("rounds_n", "9" * 5000, "enter a whole number"),
    ("minutes", "100001", "Minutes of play: enter a whole number from 1 to "),
    ("stalemate_rotations", "never", "enter a whole number"),
    ("min_rotations_before_call", "\x00", "enter a whole number"),
])
def test_hostile_rule_fields_get_a_message_and_save_nothing(client, database, field, value, words):
    response = create(client, player=["Ann <b>", "Bo"], **{field: value})
    if words is None:
        assert response.status_code == 303
        return
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and words in html
    assert 'value="Ann &lt;b&gt;"' in html  # what was typed is kept (and escaped)
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0


@pytest.mark.parametrize("value", ["-5", "٣", "4", "27", "9" * 40])
def test_a_number_out_of_a_switchs_range_is_answered_with_that_range(client, database, value):
    """Spite & Malice's pay-off pile holds 5 to 26 cards (SM-V1): any other number is answered with that
    range, not with the form's general limit."""
    response = client.post("/new/spite_malice", data={"player": ["Ann", "Bo"], "payoff_size": value},
                           headers=ORIGIN)
    assert response.status_code == 422
    assert "Pay-off pile: enter a whole number from 5 to 26." in response.get_data(as_text=True)


@pytest.mark.parametrize("players, words", [
    (["A" * 41, "Bo"], "at most 40 characters"),
    (["Ann"], "RTC-1"),
    ([f"P{i}" for i in range(7)], "RTC-1"),
    (["Ann", "ANN"], "&#39;Ann&#39; and &#39;ANN&#39; are the same name to the table (capitals and invisible"),
    (["Ann", "Ann"], "two players are both called &#39;Ann&#39;: add an initial to one of them"),
    (["Ann", "An\u200bn"], "U+200B"),  # equal but for an invisible character
    (["\u200b\u200d", "Bo"], "U+200B"),
    (["\u3164", "Bo"], "a player needs a name that shows"),  # only a Hangul filler
    (["Ann", "Ann\u3164"], "are the same name to the table"),  # equal but for an invisible letter
    (["Ann\x1b[31m", "Bo"], "control or format character U+001B"),
    (["Ann\x00", "Bo"], "U+0000"),
])
def test_bad_player_names_are_refused_on_the_form(client, database, players, words):
    response = create(client, player=players)
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and words in html, html[-2000:]
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0


def test_names_are_stored_as_the_engine_returns_them(client, database):
    match = created(client, database, player=["  Zoe\u0301 ", "", "Bo", "e\u0301" * 40])
    assert match.players == ["Zo\u00e9", "Bo", "\u00e9" * 40]  # NFC: 80 code points typed, 40 kept


def test_repeated_and_unknown_fields_do_not_break_the_form(client, database):
    response = client.post("/new/ratatat", data={"player": ["Ann", "Bo"], "tie_policy": ["no_winner", "coin"],
                                                 "colour": "red", "rules.x": "1"}, headers=ORIGIN)
    assert response.status_code == 303


# --- Play again -----------------------------------------------------------------------------------

ROUND = [TurnUp("5"), Draw(0), Discard(0), Call(0), Draw(1), Discard(1),
         Reveal(0, ("1", "2", "3", "4")), Reveal(1, ("0", "6", "7", "8"))]


def finished_match(database, rules=None):
    """A one-round match played to its end through the store and the real engine."""
    match = store.create_match(database, "ratatat", ["Ann", "Bo"], {"rounds_n": 1, **(rules or {})})
    for version, move in enumerate(ROUND):
        store.append(database, match.id, version, R.move_to_dict(move, ("Ann", "Bo")), None, tables.feed,
                     replay_fn=tables.replay, notify=lambda *a: None)
    return store.get_match(database, match.id)


def take(client, match_id, seat):
    response = client.post(f"/m/{match_id}/seat", data={"seat": seat}, headers=ORIGIN)
    assert response.status_code == 303


def again(client, match_id):
    response = client.post(f"/m/{match_id}/again", headers=ORIGIN)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def test_play_again_starts_the_same_table_and_keeps_each_phone_in_its_seat(app, database):
    old = finished_match(database, {"tie_policy": "no_winner"})
    ann, bo, shared, watcher = (app.test_client() for _ in range(4))
    take(shared, old.id, "shared")  # first: once phones hold seats, the shared phone would take them over
    take(ann, old.id, "0")
    take(bo, old.id, "1")
    take(watcher, old.id, "watch")
    new_id = again(shared, old.id)
    assert [again(c, old.id) for c in (bo, ann, watcher)] == [new_id] * 3  # the same new match
    new = store.get_match(database, new_id)
    assert (new.game, new.players, new.rules, new.version) == ("ratatat", old.players, old.rules, 0)
    assert new.rematch_of == old.id and new.id != old.id
    assert store.seat_holder(database, new_id, 1) is not None and store.seat_holder(database, new_id, 0) is not None
    with bo.session_transaction() as session:
        assert session["seats"][new_id] == 1
    with ann.session_transaction() as session:
        assert session["seats"][new_id] == 0
    with shared.session_transaction() as session:
        assert new_id in session["shared"] and new_id not in session.get("seats", {})
    with watcher.session_transaction() as session:
        assert new_id in session["watching"] and new_id not in session.get("seats", {})


def test_the_other_phones_are_told_the_next_game_has_started_and_go_there(app, database, monkeypatch):
    """A family plays again from Mum's phone: the others, still on "Match over", are rung at once and
    shown that the next game has started (before, they stayed on the old table even after reloading)."""
    from referee import live

    old = finished_match(database)
    ann, bo = app.test_client(), app.test_client()
    take(ann, old.id, "0")
    take(bo, old.id, "1")
    shown = f"{old.version}-1"
    assert bo.get(f"/m/{old.id}/screen?shown={shown}").status_code == 204  # nothing new yet
    page = bo.get(f"/m/{old.id}").get_data(as_text=True)
    assert "Play again: same players, same rules" in page and "next game has started" not in page
    rung = []
    monkeypatch.setattr(live, "publish", lambda match_id, version: rung.append((match_id, version)))
    new_id = again(ann, old.id)
    assert [(m, type(v)) for m, v in rung] == [(old.id, live.SeatsChanged)]  # rung even at the same version
    screen = bo.get(f"/m/{old.id}/screen?shown={shown}")
    assert screen.status_code == 200
    text = screen.get_data(as_text=True)
    assert "The next game has started, with the same players and rules." in text and "Go to the next game" in text
    assert again(bo, old.id) == new_id  # the button takes Bo to the same game, in his seat
    with bo.session_transaction() as session:
        assert session["seats"][new_id] == 1
    again(ann, old.id)
    assert len(rung) == 1  # the game already started: no one is rung again


def test_play_again_does_not_take_a_seat_another_phone_holds_in_the_new_match(app, database):
    old = finished_match(database)
    ann, newcomer = app.test_client(), app.test_client()
    take(ann, old.id, "0")
    new_id = again(newcomer, old.id)
    take(newcomer, new_id, "0")  # sat as Ann in the new match before Ann's phone asked
    holder = store.seat_holder(database, new_id, 0)
    assert again(ann, old.id) == new_id
    assert store.seat_holder(database, new_id, 0) == holder  # not taken over without asking
    with ann.session_transaction() as session:
        assert new_id not in session.get("seats", {})
    response = ann.post(f"/m/{new_id}/seat", data={"seat": "0"}, headers=ORIGIN)
    assert response.status_code == 409  # taking it over asks first, as anywhere


def test_two_phones_playing_again_at_once_get_one_match(app, database):
    old = finished_match(database)
    results = []

    def ask():
        results.append(again(app.test_client(), old.id))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(results) == 4
    assert database.conn.execute("SELECT count(*) FROM matches WHERE rematch_of = ?", (old.id,)).fetchone()[0] == 1


def test_play_again_only_once_the_match_is_over(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    response = client.post(f"/m/{match.id}/again", headers=ORIGIN)
    assert response.status_code == 409 and "still being played" in response.get_data(as_text=True)
    assert client.post("/m/nosuchid/again", headers=ORIGIN).status_code == 404
    assert client.post(f"/m/{match.id}/again").status_code == 403  # no Origin: refused as cross-site
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 1


@pytest.mark.parametrize("game", ["ratatat", "shithead", "spite_malice"])
def test_every_game_s_form_posted_as_shown_creates_the_table_with_each_choice(client, database, game):
    """Every switch posted as the form shows it (the selected option, the number in the box) creates the
    table; each other option of a choice (3, "auto", "no limit" written as the form writes them) is read
    back as the engine's own value."""
    from referee.games import get_game

    engine = get_game(game)
    html = client.get(f"/new/{game}").get_data(as_text=True)
    form: dict = {"player": ["Ann", "Bo", "Cy"][:max(2, engine.MIN_PLAYERS)]}
    for select in re.finditer(r'<select id="rule-(\w+)" name="\w+">(.*?)</select>', html, re.S):
        form[select.group(1)] = re.search(r'<option value="([^"]*)" selected', select.group(2)).group(1)
    for box in re.finditer(r'<input id="rule-(\w+)" name="\w+"[^>]*value="([^"]*)"', html):
        form[box.group(1)] = box.group(2)
    assert len(form) > 3
    response = client.post(f"/new/{game}", data=form, headers=ORIGIN)
    assert response.status_code == 303, re.findall(r'class="error"[^>]*>(.*?)<', response.get_data(as_text=True))
    for variant in engine.VARIANTS:
        for choice in variant.choices:
            if isinstance(choice, bool) or f'name="{variant.key}"' not in html:
                continue
            response = client.post(f"/new/{game}", data={**form, variant.key: str(choice)}, headers=ORIGIN)
            if response.status_code != 303:  # another switch may rule this one out: it says so
                assert response.status_code == 422
                continue
            match = store.get_match(database, response.headers["Location"].rsplit("/", 1)[1])
            assert match.rules.get(variant.key, variant.default) == choice, (variant.key, choice)


def test_a_switch_that_follows_from_the_players_is_not_asked_and_not_read(client, database):
    """Spite & Malice's table size (SM-V14) follows from the names: the form does not offer it, and a
    stale value posted with three names does not refuse the table."""
    page = client.get("/new/spite_malice").get_data(as_text=True)
    assert 'name="players"' not in page and 'name="payoff_size"' in page
    response = client.post("/new/spite_malice", data={"player": ["Ann", "Bo", "Cy"], "players": "2"}, headers=ORIGIN)
    assert response.status_code == 303, response.get_data(as_text=True)[:600]
    match = store.get_match(database, response.headers["Location"].rsplit("/", 1)[1])
    assert match.players == ["Ann", "Bo", "Cy"] and match.rules.get("players") == "3-4"


@pytest.mark.parametrize("game, most", [("shithead", 11), ("cabo", 8), ("ratatat", 6), ("spite_malice", 4)])
def test_the_new_table_form_offers_a_field_for_every_seat_the_game_has(client, database, game, most):
    """README: Shithead seats up to 11, Cabo with a standard deck 8. Six fields show; the others are under
    "More players", opened by itself when a name is there (a refused form shown again)."""
    page = client.get(f"/new/{game}").get_data(as_text=True)
    assert page.count('name="player"') == most
    assert ("More players (up to %d)" % most in page) is (most > 6)
    if most > 6:
        names = [f"P{i}" for i in range(1, most + 1)]
        deck = {"preset": "cambio_common"} if game == "cabo" else {}  # eight at a standard deck (CAB-1)
        response = client.post(f"/new/{game}", data={"player": names, **deck}, headers=ORIGIN)
        assert response.status_code == 303, response.get_data(as_text=True)[:300]
        again = client.post(f"/new/{game}", data={"player": names + ["P99"], **deck}, headers=ORIGIN)
        shown = again.get_data(as_text=True)
        assert again.status_code in (400, 422) and 'value="P99"' in shown and '<details class="more-players stack" open>' in shown


@pytest.mark.parametrize("players, lang, words", [
    (["Ann", "ann"], "it", "sono lo stesso nome per il tavolo"),
    (["Ann", "Ann"], "he", "שני שחקנים נקראים שניהם"),
])
def test_names_the_table_cannot_tell_apart_are_said_in_the_phones_language(client, database, players, lang, words):
    response = client.post("/new/ratatat", data={"player": players}, headers={**ORIGIN, "Accept-Language": lang})
    assert response.status_code == 422 and words in response.get_data(as_text=True)


def test_a_mistyped_table_code_comes_back_in_its_field_with_why(client, database):
    """A code no table has: the home page again, 404, saying so beside the field, the code typed kept and
    focused so one letter can be mended; a code that exists goes to its table."""
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    response = client.post("/join", data={"code": "BNFL"}, headers=ORIGIN)
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and "No table has the code &#39;BNFL&#39;" in page
    assert re.search(r'<input id="code" name="code"[^>]*value="BNFL" autofocus aria-describedby="join-problem"', page)
    answer = client.post("/join", data={"code": match.join_code.lower()}, headers=ORIGIN)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/m/{match.id}")


@pytest.mark.parametrize("game, said", [
    ("ratatat", "the first one plays first"), ("cabo", "the first one plays first"),
    ("shithead", "the first one deals (the lowest card starts, SH-4)"),
    ("spite_malice", "the higher pay-off top starts (SM-7)")])
def test_the_new_table_form_says_who_starts_as_the_game_decides_it(client, database, game, said):
    """Rat-a-Tat Cat and Cabo: the last player deals, so the first listed plays first; Shithead: the first
    listed deals the first game and the lowest card starts (SH-4); Spite & Malice: the pay-off tops decide."""
    page = client.get(f"/new/{game}").get_data(as_text=True)
    assert f"Players, in seating order (clockwise); {said}" in page


def test_undoing_the_entry_that_ended_a_match_asks_first_and_says_the_next_game_has_started(app, database):
    """A phone back on a finished match (the browser's Back, after Play again) taps Undo: one tap reopened the
    match and took it out of the night's results. The undo of a finished match asks first, as calling does."""
    old = finished_match(database)
    ann, bo = app.test_client(), app.test_client()
    take(ann, old.id, "0")
    take(bo, old.id, "1")
    page = bo.get(f"/m/{old.id}").get_data(as_text=True)
    confirm = page.split('<details class="confirm undo"', 1)[1].split("</details>", 1)[0]
    assert "Undo: Bo reveals" in confirm.split("</summary>", 1)[0]  # the button names the entry, and opens a question
    assert "The match is over. Undoing this entry opens it again" in confirm and "next game has started" not in confirm
    assert "Yes, undo and open the match again" in confirm and "Keep it over" in confirm
    again(ann, old.id)
    confirm = bo.get(f"/m/{old.id}").get_data(as_text=True).split('<details class="confirm undo"', 1)[1]
    assert "The next game has started already; it stays as it is." in confirm.split("</details>", 1)[0]
