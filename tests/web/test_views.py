"""Home page, joining by code, creating a table, the table page and its screen."""

from __future__ import annotations

import pytest

from referee import store

ORIGIN = {"Origin": "http://localhost"}


def test_home_page(client):
    response = client.get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    assert "/static/vendor/htmx-ext-sse-2.2.4.min.js" in html
    assert "<svg" in html and 'class="qr"' in html  # QR inline SVG
    assert 'id="join-url"' in html and "http://localhost/" in html
    assert "<script>" not in html and " style=" not in html  # CSP 'self' holds
    assert 'name="code"' in html and 'href="/new/ratatat"' in html
    assert 'href="/rules/ratatat">The rules of Rat-a-Tat Cat</a>' in html


def test_home_page_uses_configured_join_url(app, client):
    app.config["JOIN_URL"] = "http://192.168.1.20:8000/"
    assert "http://192.168.1.20:8000/" in client.get("/").get_data(as_text=True)


def test_home_page_without_games(app, client):
    app.config["GAMES"] = {}
    assert "No games are installed yet" in client.get("/").get_data(as_text=True)


def test_static_assets_are_served(client):
    for path in ["/static/app.css", "/static/vendor/htmx-2.0.11.min.js", "/static/vendor/htmx-ext-sse-2.2.4.min.js"]:
        response = client.get(path)
        assert response.status_code == 200, path
        response.close()


def test_every_page_names_its_icon_so_phones_do_not_ask_for_a_missing_favicon(client):
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg"' in html
    response = client.get("/static/favicon.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    response.close()


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_join_by_code_redirects_to_table(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    response = client.post("/join", data={"code": f" {match.join_code.lower()} "}, headers=ORIGIN)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/m/{match.id}"


def test_join_link_redirects_to_table(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    response = client.get(f"/j/{match.join_code}")
    assert response.status_code == 303 and response.headers["Location"] == f"/m/{match.id}"
    assert client.get("/j/QQQQ").status_code == 404


def test_join_with_unknown_or_empty_code_is_404(client):
    for code in ["ZZZZ", "", "   "]:
        response = client.post("/join", data={"code": code}, headers=ORIGIN)
        assert response.status_code == 404
        assert "Check the code" in response.get_data(as_text=True)


def test_new_table_form_offers_every_house_rule_in_words(client):
    html = client.get("/new/ratatat").get_data(as_text=True)
    for rule_id in [f"RTC-V{n}" for n in range(1, 21)]:
        assert f'href="/rules/ratatat#{rule_id}"' in html, rule_id
    assert 'name="tie_policy"' in html
    assert "everyone on the lowest score wins the round (publisher)" in html
    assert "seed two turns" not in html and "allowed no power" not in html  # no jargon
    assert "<details class=\"customise\"" in html and "<script>" not in html and " style=" not in html
    assert client.get("/new/poker").status_code == 404


def test_create_table_with_house_rules(client, database):
    form = {"player": ["Ann", " Bo ", "", "Cy"], "tie_policy": "no_winner", "rounds_n": "5",
            "caller_protected_after_call": "true", "stalemate_rotations": "off", "draw2_mode": "official_forfeit"}
    response = client.post("/new/ratatat", data=form, headers=ORIGIN)
    assert response.status_code == 303
    match = store.get_match(database, response.headers["Location"].rsplit("/", 1)[1])
    assert (match.game, match.players, match.version) == ("ratatat", ["Ann", "Bo", "Cy"], 0)
    # only what differs from the publisher's rules is stored
    assert match.rules == {"tie_policy": "no_winner", "rounds_n": 5, "caller_protected_after_call": True}
    summary = client.get(f"/m/{match.id}").get_data(as_text=True)
    assert "Number of rounds: 5 rounds" in summary and "Ties in a round: nobody wins the round" in summary


def test_home_quick_form_creates_a_default_table(client, database):
    response = client.post("/tables", data={"game": "ratatat", "players": "Ann\n\n Bo \n"}, headers=ORIGIN)
    assert response.status_code == 303


def test_create_table_errors_are_clear_and_save_nothing(client, database):
    seven = {"player": [f"P{i}" for i in range(7)]}
    response = client.post("/new/ratatat", data=seven, headers=ORIGIN)
    assert response.status_code == 422 and "RTC-1" in response.get_data(as_text=True)
    assert client.post("/new/ratatat", data={"player": ["Ann"]}, headers=ORIGIN).status_code == 422
    assert client.post("/new/ratatat", data={"player": ["Ann", "ann"]}, headers=ORIGIN).status_code == 422
    bad = client.post("/new/ratatat", data={"player": ["Ann", "Bo"], "tie_policy": "coin"}, headers=ORIGIN)
    assert bad.status_code == 422 and "Ties in a round: choose one of the choices offered" in bad.get_data(as_text=True)
    assert client.post("/new/ratatat", data={"player": ["Ann", "Bo"], "rounds_n": "x"}, headers=ORIGIN).status_code == 422
    assert client.post("/new/poker", data={"player": ["Ann", "Bo"]}, headers=ORIGIN).status_code == 404
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0


def test_home_lists_recent_tables_newest_first(client, database):
    first = store.create_match(database, "ratatat", ["Ann", "Bo"])
    second = store.create_match(database, "ratatat", ["<b>Cy</b>", "Di"])
    html = client.get("/").get_data(as_text=True)
    assert 'id="recent"' in html
    assert html.index(f"/m/{second.id}") < html.index(f"/m/{first.id}")
    assert "&lt;b&gt;Cy&lt;/b&gt;" in html and "<b>Cy</b>" not in html


def test_home_says_which_recent_tables_are_finished(client, database):
    import json
    import re
    from pathlib import Path

    from referee import tables

    data = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "plain-round.json").read_text())
    done = store.create_match(database, data["game"], data["players"], data["rules"])
    version = 0
    for entry in data["entries"]:
        version = tables.append(database, done.id, version, entry, None).version
    playing = store.create_match(database, data["game"], data["players"], data["rules"])
    tables.append(database, playing.id, 0, data["entries"][0], None)
    ended = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "ended-early.json").read_text())
    early = store.create_match(database, ended["game"], ended["players"], ended.get("rules") or {})
    version = 0
    for entry in ended["entries"]:
        version = tables.append(database, early.id, version, entry, None).version
    html = client.get("/").get_data(as_text=True)
    item = lambda m: re.search(rf'<li><a href="/m/{m.id}">.*?</li>', html, re.S).group(0)  # noqa: E731
    assert "finished" in item(done) and "still being played" not in item(done)
    assert "still being played" in item(playing) and "finished" not in item(playing)
    assert "ended early" in item(early) and "still being played" not in item(early)
    # nothing entered for a day: the table was left, not still being played
    with pytest.MonkeyPatch.context() as clock:
        clock.setattr(store, "now", lambda: "2026-01-01T20:00:00.000+00:00")
        left = store.create_match(database, data["game"], data["players"], data["rules"])
        tables.append(database, left.id, 0, data["entries"][0], None)
    html = client.get("/").get_data(as_text=True)
    assert "left unfinished" in item(left) and "still being played" not in item(left)
    assert "left unfinished" not in item(done) + item(playing)
