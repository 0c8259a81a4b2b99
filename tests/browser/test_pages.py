"""Real Chromium at 390x844 against real waitress: the pages of a Rat-a-Tat Cat table.

(Waits are locator waits, never ``wait_for_function``: its string predicates need eval,
which the app's CSP forbids.)
"""

from __future__ import annotations

import re
import time

import pytest

from referee import store, tables

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy"]


@pytest.fixture
def app_config(app_config):
    """The real game behind the /new form (the shared fixture only lists a stand-in)."""
    return {**app_config, "GAMES": {"ratatat": "Rat-a-Tat Cat"}}


def csp_violations(page) -> list[str]:
    return [m for m in page.console_messages if "Content Security Policy" in m]


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390



def test_home_page_loads_htmx_2(live_server, phone):
    page = phone()
    response = page.goto(live_server.url + "/")
    assert response.status == 200
    page.wait_for_load_state("load")  # deferred scripts have run by now
    assert page.evaluate("window.htmx.version").startswith("2.")
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False  # meta config applied
    assert page.evaluate("htmx.config.allowEval") is False
    assert no_horizontal_scroll(page)  # readable at phone width: nothing wider than the viewport
    assert page.locator("button", has_text="Join").bounding_box()["height"] >= 44
    assert page.get_by_role("link", name="New Rat-a-Tat Cat table").is_visible()
    assert csp_violations(page) == []


def test_new_table_form_creates_a_match_with_house_rules(live_server, phone, database):
    page = phone()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="New Rat-a-Tat Cat table").click()
    page.wait_for_url("**/new/ratatat")
    assert no_horizontal_scroll(page)
    assert page.get_by_label("Player 2", exact=True).get_attribute("required") is not None
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_label("Player 3", exact=True).fill("Cy")
    page.get_by_text("Customise the house rules").click()  # the switches are folded under Customise
    page.locator("select[name=tie_policy]").select_option("no_winner")
    page.locator("input[name=rounds_n]").fill("5")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    match_id = page.url.rsplit("/", 1)[1]
    match = store.get_match(database, match_id)
    assert match.players == PLAYERS
    assert match.rules["tie_policy"] == "no_winner" and match.rules["rounds_n"] == 5

    picker = page.locator("#seat-picker")
    assert [b.strip() for b in picker.get_by_role("button").all_inner_texts()] == [
        *PLAYERS, "One phone for everyone", "Just watch"]
    assert f"Code {match.join_code}" in page.locator(".bar .code").inner_text()
    standings = page.locator("#standings").inner_text()
    assert "House rules: 2 differ from the publisher's" in standings
    page.locator(".rules-summary summary").click()
    rules = page.locator(".rules-summary").inner_text()
    assert "Number of rounds: 5 rounds" in rules and "Ties in a round: nobody wins the round" in rules
    assert "You are watching" in page.locator("#screen").inner_text()
    assert page.locator("#actions").count() == 0  # a spectator gets no entry buttons
    assert no_horizontal_scroll(page)
    assert csp_violations(page) == []


def test_join_by_code_and_live_update_via_sse(live_server, phone, database):
    match = store.create_match(database, "ratatat", PLAYERS)
    page = phone()
    page.goto(live_server.url + "/")
    page.fill("#code", match.join_code.lower())  # codes are case-insensitive
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"**/m/{match.id}")
    page.locator("#seat-picker").get_by_role("button", name="Ben", exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    screen = page.locator("#screen")
    assert "You enter for Ben" in screen.inner_text()
    assert "Cy deals four cards" in page.locator("#status + p").inner_text()
    assert page.get_by_role("link", name="Turn up the top card").is_visible()
    wait_for_subscribers(match.id, 1)
    # another phone's entry, committed through the store, rings the doorbell
    tables.append(database, match.id, 0, {"move": "turn_up", "card": "5"}, "other-phone", seat=0)
    page.locator("#screen [data-version='1']").wait_for(timeout=10_000)
    assert page.locator("#status").inner_text() == "Ana's turn"
    assert page.locator("#rows .piles .face").inner_text() == "5"
    assert "You enter for Ben" in screen.inner_text()  # the re-GET used this phone's own session
    assert page.locator("#actions").get_by_role("button", name="Draw from the pile").count() == 0
    assert no_horizontal_scroll(page)
    assert csp_violations(page) == []


def table_with_a_discard(database):
    """Ana and Ben's table, its discard pile started with a 3."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    store.append(database, match.id, 0, {"move": "turn_up", "card": "3"}, None, tables.feed,
                 replay_fn=tables.replay)
    return match


def one_phone_for_everyone(live_server, page, match):
    """The page joins the table by its link and becomes the one phone for everyone."""
    page.goto(f"{live_server.url}/j/{match.join_code}")
    page.wait_for_url(f"**/m/{match.id}")
    page.get_by_role("button", name="One phone for everyone").click()
    page.locator("#seat-picker").wait_for(state="detached")
    return page


def test_one_phone_for_everyone_enters_for_whoever_is_to_act(live_server, phone, database):
    match = table_with_a_discard(database)
    page = one_phone_for_everyone(live_server, phone(), match)
    assert page.locator("#status").inner_text() == "Your turn, Ana"
    assert "(one phone for everyone)" in page.locator("#screen").inner_text()
    wait_for_subscribers(match.id, 1)
    count_doorbells(page)
    fetched = []
    page.on("request", lambda r: fetched.append(r.url) if "/screen" in r.url else None)
    with page.expect_response(lambda r: r.url.endswith("/entry")):
        page.get_by_role("button", name="Draw from the pile").click()
    page.locator("body[data-doorbells='1']").wait_for()
    page.wait_for_timeout(300)
    assert fetched == []  # its own entry's doorbell asks for nothing: the answer was the fresh screen
    page.get_by_role("link", name="Discard it face up").click()
    page.locator("#pick").get_by_role("button", name="7", exact=True).click()
    page.locator("#status", has_text="Your turn, Ben").wait_for()
    assert page.locator("#rows .piles .face").inner_text() == "7"
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up", "draw", "discard"]


def count_doorbells(page) -> None:
    """From now on the page counts the doorbells its screen hears from the live stream, in <body
    data-doorbells>."""
    page.evaluate("""() => {
        let heard = 0;
        document.getElementById("screen").addEventListener("sse:changed", (event) => {
            if (event.detail instanceof MessageEvent) document.body.dataset.doorbells = String(++heard);
        });
    }""")


def test_a_doorbell_heard_while_the_phones_entry_is_on_its_way_is_fetched_after_the_answer(
        live_server, phone, database):
    """Another phone enters while this phone's entry is on its way (held here longer than the page
    waits for it): the answer (this phone's entry, version 2) must not hide the later entry (version
    3), whatever the page showed meanwhile; the screen is fetched again once the answer is in."""
    match = table_with_a_discard(database)
    page = one_phone_for_everyone(live_server, phone(), match)
    wait_for_subscribers(match.id, 1)
    count_doorbells(page)

    def another_phone_enters_meanwhile(route) -> None:
        answer = route.fetch()  # the draw is committed (version 2): its doorbell rings
        tables.append(database, match.id, 2, {"move": "discard", "seat": "Ana", "card": "7"}, "other-phone", seat=0)
        time.sleep(1.0)  # both doorbells reach the page before the draw's answer does
        route.fulfill(response=answer)

    page.route("**/entry", another_phone_enters_meanwhile)
    page.evaluate("""() => document.addEventListener("htmx:beforeRequest", (event) => {
        if (event.detail.requestConfig.verb !== "post") return;
        event.detail.xhr.addEventListener("loadend", () => { document.body.dataset.answered = "1"; });
    })""")
    page.get_by_role("button", name="Draw from the pile").click()
    page.locator("body[data-answered='1']").wait_for()  # the draw's answer (version 2) is on the screen
    page.locator("#status", has_text="Your turn, Ben").wait_for()  # and then the discard made meanwhile
    assert page.locator("#screen [data-version='3']").count() == 1
    assert page.locator("body").get_attribute("data-doorbells") == "2"
    assert page.locator("#rows .piles .face").inner_text() == "7"


def test_history_transcript_and_404_pages(live_server, phone, database):
    match = table_with_a_discard(database)
    page = phone()
    page.goto(f"{live_server.url}/m/{match.id}")
    with page.expect_navigation():
        page.get_by_role("button", name="Just watch").click()
    assert "You are watching" in page.locator("#screen").inner_text()
    assert page.locator("#actions").count() == 0
    page.get_by_role("link", name="History").click()
    page.wait_for_url(f"**/m/{match.id}/history")
    assert page.locator("ol.history > li.round-mark").inner_text() == "Round 1"  # the entries under their round
    entries = page.locator("ol.history > li:not(.round-mark)")
    assert entries.count() == 1  # the one entry of the log: the 3 turned up, numbered as rulings cite it
    assert entries.locator(".num").inner_text() == "#0"
    assert entries.locator(".words").inner_text() == "A 3 is turned up on the discard pile."
    assert entries.get_attribute("class") == "stands"
    assert no_horizontal_scroll(page)
    with page.expect_download() as download:
        page.goto(f"{live_server.url}/m/{match.id}")  # back to the table
        page.get_by_role("link", name="Download transcript").click()
    assert download.value.suggested_filename == f"referee-{match.id}.json"

    response = page.goto(f"{live_server.url}/m/nosuchtable")
    assert response.status == 404
    assert "Not found" in page.locator("main").inner_text()
    assert no_horizontal_scroll(page)
    response = page.goto(f"{live_server.url}/j/ZZZZ")
    assert response.status == 404
    assert "No table has that code" in page.locator("main").inner_text()
    assert csp_violations(page) == []


def test_a_picker_opened_from_the_keyboard_takes_the_focus(live_server, phone, database):
    """Enter on "Turn up the top card" opens the card picker in place of the actions: the keyboard's place
    goes to the picker (its question), and the next Tab reaches its first button, not the page's top."""
    match = store.create_match(database, "ratatat", PLAYERS)
    page = phone()
    page.goto(f"{live_server.url}/j/{match.join_code}")
    page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    page.wait_for_load_state("load")  # htmx has taken the links over: before, Enter follows the link's href
    link = page.locator("#actions").get_by_role("link", name="Turn up the top card")
    link.focus()
    page.keyboard.press("Enter")
    page.locator("#pick").wait_for()
    page.locator("#pick p:focus").wait_for()  # the question is read, not every card of the picker
    # a live update redraws the screen (here: the screen had been drawn for a watcher, so the server
    # sends a fresh one): the picker is fetched again and the keyboard stays in it
    page.evaluate("document.getElementById('pick').dataset.before = '1';"
                  "document.getElementById('seen-version').value = '0-w';"
                  "htmx.trigger('#screen', 'sse:changed', {data: '0 seats'})")
    page.locator("#pick:not([data-before]) p:focus").wait_for()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#pick') !== null")
    # the language buttons show where the keyboard is, the chosen one too
    page.locator(".prefs button[aria-pressed='true']").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true" and outline == "solid"


def test_the_keyboard_keeps_its_place_through_live_updates_and_goes_to_what_to_read_after_an_entry(
        live_server, phone, database):
    """Another phone's entry redraws the screen: the keyboard stays on the same link, or in the reason a
    player is typing with the caret where it was. After this phone's own entry it goes to the turn heading;
    after a refusal to the ruling."""
    match = store.create_match(database, "ratatat", PLAYERS)
    page = phone()
    page.goto(f"{live_server.url}/j/{match.join_code}")
    page.locator("#seat-picker").get_by_role("button", name="Ben", exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    page.wait_for_load_state("load")
    wait_for_subscribers(match.id, 1)
    page.get_by_role("link", name="History").focus()
    tables.append(database, match.id, 0, {"move": "turn_up", "card": "5"}, "other-phone", seat=0)
    page.locator("#screen [data-version='1']").wait_for(timeout=10_000)
    assert page.evaluate("document.activeElement.textContent.trim()") == "History"
    # a refusal (Ben draws on Ana's turn, from a screen drawn before: a stale form a phone can send)
    page.evaluate("""() => {
        const form = document.createElement('form');
        form.setAttribute('hx-post', document.querySelector('[hx-post*="/entry"]')?.getAttribute('hx-post')
                          || location.pathname + '/entry');
        form.setAttribute('hx-target', '#screen');
        form.innerHTML = '<input type="hidden" name="version" value="1"><input type="hidden" name="move" value="draw">'
                       + '<input type="hidden" name="for" value="Ben"><button id="stale-draw">Draw</button>';
        document.querySelector('#screen-body').appendChild(form);
        htmx.process(form);
    }""")
    page.locator("#stale-draw").click()
    page.locator("#ruling:focus").wait_for()
    reason = page.locator("#override-reason")
    reason.fill("we agreed")
    page.evaluate("document.getElementById('override-reason').setSelectionRange(3, 3)")
    tables.append(database, match.id, 1, {"move": "draw", "seat": "Ana"}, "other-phone-2", seat=0)
    page.locator("#screen [data-version='2']").wait_for(timeout=10_000)
    assert page.evaluate("document.activeElement.id") == "override-reason"
    assert page.evaluate("[document.activeElement.value, document.activeElement.selectionStart]") == ["we agreed", 3]
    page.keyboard.type("all ")
    assert reason.input_value() == "we all agreed"  # the keystrokes after the redraw land in the field
    tables.append(database, match.id, 2, {"move": "discard", "card": "9", "seat": "Ana"}, "other-phone-3", seat=0)
    page.locator("#screen [data-version='3']").wait_for(timeout=10_000)
    page.locator("#actions").get_by_role("button", name="Draw from the pile").click()
    page.locator("#screen [data-version='4']").wait_for()
    page.locator("#status:focus").wait_for()


def test_a_refused_correction_stays_on_its_page_at_its_own_address_with_the_override(live_server, phone, database):
    """The correction page posts without htmx: refused (GEN-3, a fifth 5), the answer is the correction page
    again with the ruling, its "Let it stand" form and the form as typed, and the address bar says the
    correction page's address, so a reload opens it (not the address the form was posted to)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    for seat, entry in [(None, {"move": "turn_up", "card": "5"}), (0, {"move": "draw"}),
                        (0, {"move": "discard", "card": "5"}), (1, {"move": "draw"}),
                        (1, {"move": "discard", "card": "5"}), (0, {"move": "draw"}),
                        (0, {"move": "discard", "card": "5"}), (1, {"move": "draw"}),
                        (1, {"move": "discard", "card": "9"})]:
        entry = entry if seat is None else {**entry, "seat": match.players[seat]}
        tables.append(database, match.id, store.get_match(database, match.id).version, entry, None, seat=seat)
    page = phone()
    page.goto(f"{live_server.url}/j/{match.join_code}")
    page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    page.goto(f"{live_server.url}/m/{match.id}/correct/8")
    page.locator("#correct-form input[name='c_card'][value='5']").check(force=True)
    page.locator("#correct-form input[name='reason']").fill("it was a 5")
    page.locator("#correct-form button[type=submit]").click()
    page.locator("#ruling:focus").wait_for()  # where the keyboard and a screen reader start
    assert "GEN-3" in page.locator("#ruling").inner_text()
    assert page.url == f"{live_server.url}/m/{match.id}/correct/8"
    assert page.locator("#ruling form.override").count() == 1
    assert page.locator("#correct-form input[name='reason']").input_value() == "it was a 5"  # as typed
    assert page.locator("#correct-form input[name='c_card'][value='5']").is_checked()
    assert page.reload().status == 200
    assert page.locator("#ruling").count() == 0  # nothing was saved: the correction page as it is
    assert csp_violations(page) == []
