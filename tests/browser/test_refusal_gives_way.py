"""A refusal stays on the screen while the phone reads it, through other phones' entries (live updates), and
gives way to the answer to this phone's next entry: two refusals are never shown at once, the older one
under the newer as if it were still the answer (Chromium, the real server)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee import store

from .test_scan_live import seated

pytestmark = pytest.mark.browser

HX = {"Origin": "http://localhost", "HX-Request": "true"}


def post_as_screen(page, fields: dict) -> None:
    """``fields`` posted from the table screen as one of its forms would post them (no form offers these: the
    answers are what is tested)."""
    page.evaluate("""(fields) => { const f = document.createElement('form'); f.method = 'post';
        f.setAttribute('hx-post', location.pathname + '/entry'); f.setAttribute('hx-target', '#screen');
        for (const [k, v] of Object.entries(fields)) {
          const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; f.appendChild(i); }
        document.getElementById('screen').appendChild(f); htmx.process(f); htmx.trigger(f, 'submit'); }""", fields)


def test_a_refusal_outlives_a_live_update_and_gives_way_to_the_next_answer(live_server, phone, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana = live_server.app.test_client()
    ana.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    assert ana.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"},
                    headers=HX).status_code == 200
    ben = seated(phone, live_server, match, "Ben")
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        post_as_screen(ben, {"version": "1", "move": "draw", "for": "Ben"})  # before Ana's turn is done
    assert answer.value.status == 422
    expect(ben.locator("#ruling")).to_contain_text("GEN-7")
    assert ana.post(f"/m/{match.id}/entry", data={"version": "1", "move": "draw"}, headers=HX).status_code == 200
    ben.locator("#screen [data-version='2']").wait_for()  # Ana's draw, live: Ben is still reading his refusal
    expect(ben.locator("#ruling")).to_contain_text("GEN-7")
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        post_as_screen(ben, {"version": "2", "move": "discard", "card": "Zoë", "for": "Ben"})
    assert answer.value.status == 400
    expect(ben.locator("#screen .notice")).to_contain_text("not a card")
    expect(ben.locator("#ruling")).to_have_count(0)  # the older refusal gave way to the newer answer
