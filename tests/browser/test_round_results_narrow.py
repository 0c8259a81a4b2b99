"""A round's result on the narrowest phones (Chromium, 320–360 px, English and Hebrew): each player's row of
four cards — Cambio's square, a Joker among them — stays on one line, in the order of its places, beside its
score; no card's name breaks mid-word ("Jok/er"); nothing scrolls sideways. In large type, where four
large cards cannot share a line with the score, the square is shown two by two, never three and one."""
from __future__ import annotations

import pytest

from referee import store, tables
from referee.games import get_game

from .test_languages import seated

pytestmark = pytest.mark.browser

CAMBIO = dict(next(p for p in get_game("cabo").PRESETS if p.key == "cambio_common").rules)
ENTRIES = [{"move": "turn_up", "card": "4C"}, {"seat": "Ana", "move": "call"},
           {"seat": "Ben", "move": "draw", "card": "8H"}, {"seat": "Ben", "move": "discard", "card": "8H"},
           {"seat": "Cy", "move": "draw", "card": "3H"}, {"seat": "Cy", "move": "discard", "card": "3H"},
           {"seat": "Ana", "move": "reveal", "cards": ["JOKER", "10H", "QS", "KD"]},
           {"seat": "Ben", "move": "reveal", "cards": ["AS", "3S", "9S", "10C"]},
           {"seat": "Cy", "move": "reveal", "cards": ["6D", "10D", "4H", "JOKER"]}]

ROWS = """() => [...document.querySelectorAll('#last-round table.scores tbody tr')].map(tr => {
  const faces = [...tr.querySelectorAll('.face')].map(f => {
    const r = f.getBoundingClientRect(), text = document.createRange();
    text.selectNodeContents(f);
    return {x: Math.round(r.left), y: Math.round(r.top), right: Math.round(r.right), name: f.textContent,
            lines: new Set([...text.getClientRects()].map(q => Math.round(q.top))).size,
            cut: f.scrollWidth > f.clientWidth + 1};
  });
  const score = tr.querySelector('td.num').getBoundingClientRect();
  return {who: tr.querySelector('th').textContent.trim(), faces, score: {x: score.left, right: score.right}};
})"""

FITS = """() => { const c = document.querySelector('#last-round');
  return {page: document.documentElement.scrollWidth, card: c.scrollWidth <= c.clientWidth + 1}; }"""

LAYOUTS = """() => [...document.querySelectorAll('ol.faces')].map(ol =>
  [...ol.querySelectorAll('li.slot')].map(li => Math.round(li.getBoundingClientRect().top)))"""


def _cambio_round(database) -> store.Match:
    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    version = 0
    for entry in ENTRIES:
        version = tables.append(database, match.id, version, entry, None).version
    return match


@pytest.mark.parametrize("locale", ["en-US", "he-IL"])
def test_a_row_of_four_cards_stays_on_one_line_at_320_to_360_px(live_server, phone, database, locale):
    match = _cambio_round(database)
    page = seated(phone, live_server, match, "Ana", locale).page
    for width in (320, 340, 360):
        page.set_viewport_size({"width": width, "height": 740})
        page.reload()
        page.locator("#last-round table.scores tbody tr").first.wait_for(state="attached")
        rows = page.evaluate(ROWS)
        assert len(rows) == 3
        for row in rows:
            faces = row["faces"]
            assert len(faces) == 4, row
            assert len({f["y"] for f in faces}) == 1, (width, row)  # one line: never three and one
            assert [f["x"] for f in faces] == sorted(f["x"] for f in faces), (width, row)  # places 1 to 4, left to right
            assert all(f["lines"] == 1 and not f["cut"] for f in faces), (width, row)  # "Joker", never "Jok/er"
            assert 0 <= row["score"]["x"] and row["score"]["right"] <= width, (width, row)
        names = [f["name"].strip("\u2066\u2067\u2068\u2069") for r in rows for f in r["faces"]]
        assert sum(len(n) >= 4 for n in names) == 2, names  # the two jokers, the longest names
        fits = page.evaluate(FITS)
        assert fits["page"] <= width and fits["card"], (width, fits)
        for places in page.evaluate(LAYOUTS):  # the next round's layouts, place by place: one line each
            assert len(set(places)) == 1, (width, places)


GROWN = """() => [...document.querySelectorAll('ol.faces')].map(ol => {
  const row = ol.parentElement.getBoundingClientRect();
  return [...ol.querySelectorAll('li.slot')].map(li => { const r = li.getBoundingClientRect(), f = li.querySelector('.face');
    return {top: Math.round(r.top), inside: r.left >= row.left - 1 && r.right <= row.right + 1,
            cut: f.scrollWidth > f.clientWidth + 1}; });
})"""


@pytest.mark.parametrize("locale", ["en-US", "he-IL"])
def test_a_layout_grown_to_five_places_stays_on_one_line(live_server, phone, database, locale):
    """Cambio before the reveal: a wrong snap's penalty card has grown Cy's layout to five places, and it
    still lies on one line inside its row at 320 and 360 px, as do the others."""
    from .test_accessibility import replayed

    match = replayed(database, "cambio-snap.json", 18)
    page = seated(phone, live_server, match, "Ana", locale).page
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 740})
        page.reload()
        page.locator("ol.faces li.slot").first.wait_for(state="attached")
        layouts = page.evaluate(GROWN)
        assert sorted(len(places) for places in layouts) == [4, 4, 5], layouts  # Ben's snapped place is empty
        for places in layouts:
            assert len({p["top"] for p in places}) == 1, (width, places)
            assert all(p["inside"] and not p["cut"] for p in places), (width, places)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_in_large_type_a_square_that_cannot_share_a_line_is_two_by_two(live_server, phone, database):
    match = _cambio_round(database)
    page = seated(phone, live_server, match, "Ana", "en-US").page
    page.get_by_role("button", name="Large type").click()
    page.wait_for_url(f"**/m/{match.id}")
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 740})
        page.reload()
        page.locator("#last-round table.scores tbody tr").first.wait_for(state="attached")
        assert page.evaluate("document.documentElement.classList.contains('large')")
        for row in page.evaluate(ROWS):
            faces = row["faces"]
            lines = sorted({f["y"] for f in faces})
            assert len(lines) in (1, 2), (width, row)
            if len(lines) == 2:  # 1 2 over 3 4
                assert [f["y"] for f in faces] == [lines[0], lines[0], lines[1], lines[1]], (width, row)
                assert abs(faces[0]["x"] - faces[2]["x"]) <= 1, (width, row)
            assert all(f["lines"] == 1 and not f["cut"] for f in faces), (width, row)
            assert row["score"]["right"] <= width, (width, row)
        assert page.evaluate(FITS)["card"], width


HEADS = """() => [...document.querySelectorAll('#all-rounds thead th')].map(th => {
  const text = document.createRange();
  text.selectNodeContents(th);
  return new Set([...text.getClientRects()].map(q => Math.round(q.top))).size;
})"""


def test_the_round_by_round_table_never_breaks_a_name_mid_word_at_320_px(live_server, phone, database):
    """Six players at 320 px: the header keeps "Round" and every name whole (the table scrolls sideways
    inside its card instead of breaking "Ben" into "Be/n")."""
    names = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]
    match = store.create_match(database, "ratatat", names, {"rounds_n": 1})
    entries = [{"move": "turn_up", "card": "5"}, {"seat": "Ana", "move": "draw"},
               {"seat": "Ana", "move": "discard", "card": "5"}, {"seat": "Ana", "move": "call"}]
    for name in names[1:]:
        entries += [{"seat": name, "move": "draw"}, {"seat": name, "move": "discard"}]
    entries += [{"seat": name, "move": "reveal", "cards": [str(i)] * 2 + [str((i + 6) % 9)] * 2}
                for i, name in enumerate(names)]
    version = 0
    for entry in entries:
        version = tables.append(database, match.id, version, entry, None).version
    page = seated(phone, live_server, match, "Ana", "en-US").page
    page.set_viewport_size({"width": 320, "height": 740})
    page.wait_for_selector("#all-rounds thead th")
    assert page.evaluate(HEADS) == [1] * 7
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320


def _kamikaze_twice(database) -> store.Match:
    """Cabo for four: Ana's 12, 13, 12, 13 two rounds running (Kamikaze, CAB-42) takes Ben, Cy and Dee to 50 and
    then to exactly 100, back to 50 (CAB-43)."""
    players = ["Ana", "Ben", "Cy", "Dee"]
    match = store.create_match(database, "cabo", players, {})
    hands = {"Ana": ["12", "13", "12", "13"], "Ben": ["1", "2", "3", "4"], "Cy": ["1", "2", "3", "5"],
             "Dee": ["1", "2", "3", "6"]}

    def add(seat: int, entry: dict) -> None:
        tables.append(database, match.id, store.get_match(database, match.id).version, entry, None, seat=seat)

    def turn() -> int | None:
        log = store.state_at(database, store.get_match(database, match.id), tables.replay)
        return log.game.to_act(log.state)

    for _ in range(2):
        add(0, {"move": "turn_up", "card": "4"})
        caller = turn()
        add(caller, {"move": "call", "seat": players[caller]})
        while (t := turn()) is not None:
            add(t, {"move": "draw", "seat": players[t]})
            add(t, {"move": "discard", "seat": players[t], "card": "8"})
        for seat, name in enumerate(players):
            add(seat, {"move": "reveal", "seat": name, "cards": hands[name]})
    return store.get_match(database, match.id)


def test_CAB_43_four_players_scores_round_by_round_fit_a_phone_with_their_totals_back_to_50(live_server, phone,
                                                                                              database):
    """Three players back to 50 in one round: "100 → 50" beside their scores widened three columns, and Dee's
    was cut at the phone's edge (a swipe showed it). The round's cells carry a mark, the note sits under the
    table, and every column of scores is in sight at 390 px."""
    match = _kamikaze_twice(database)
    page = seated(phone, live_server, match, "Dee", "en-US").page
    table = page.locator("#all-rounds .scroll-x")
    table.wait_for()
    assert page.locator("#all-rounds tbody tr").nth(1).locator("sup.reset-mark").count() == 3
    assert "Round 2: Ben, Cy and Dee, exactly 100 (CAB-43): 100 → 50" in page.locator("#all-rounds .reset-notes").inner_text()
    assert table.evaluate("(el) => el.scrollWidth <= el.clientWidth")
