"""What a phone shows and reads after its own entry (Chromium, the real server): a refusal stays on the screen
while the phone reads it, through other phones' entries (live updates), and gives way to the answer to its next
entry (two refusals are never shown at once, the older one under the newer as if it were still the answer); an
entry made, the turn heading takes the focus and is read with what was entered and what comes next."""
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


def test_after_its_own_entry_a_phone_reads_what_was_entered_and_what_comes_next(live_server, phone, database):
    """Keyboard and screen reader: after Ann's own entry the focus goes to the turn heading, which is read with
    the entry just made and the referee's reminders (SM-15: turn the next pay-off card), not alone."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    bob = live_server.app.test_client()
    bob.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=HX)
    ann = seated(phone, live_server, match, "Ann")
    for version, fields in enumerate(({"move": "top", "card": "K", "for": "Ann"}, {"move": "top", "card": "4"})):
        assert bob.post(f"/m/{match.id}/entry", data={"version": str(version), **fields}, headers=HX).status_code == 200
    ann.locator("#screen [data-version='2']").wait_for()
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        post_as_screen(ann, {"version": "2", "move": "build", "source": "payoff", "pile": "1", "for": "Ann"})
    assert answer.value.status == 200
    status = ann.locator("#status")
    expect(status).to_be_focused()
    described = status.get_attribute("aria-describedby").split()
    assert described == ["last-entry", "reminders"]
    said = " ".join(ann.locator(f"#{name}").inner_text() for name in described)
    assert "Ann builds" in said and "SM-15" in said
