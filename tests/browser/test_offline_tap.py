"""A tap that cannot reach the referee is said so where the player looks (Chromium, the real server): the
laptop's server stopped, or an answer that is not the referee's (a 502 from whatever stands in between), or
a photo whose upload fails on the network. Nothing the player chose is lost, the button can be tapped again,
and the second tap saves the entry exactly once."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee import store
from referee.server import Background
from tests.web.test_cabo_table import CAMBIO
from tests.web.test_play import Phone

from .conftest import wait_for_subscribers
from .test_scan_live import ANN, checked, photo, seated

pytestmark = pytest.mark.browser

UNREACHABLE = "Could not reach the referee: nothing was saved. Check the Wi-Fi, then tap again."
SCAN_UNREACHABLE = "Could not reach the referee: the photo was not read. Check the Wi-Fi, then scan again."


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


class Laptop:
    """The app served as `referee serve` serves it, on a port that stays the same when the server is stopped
    (the laptop's server gone: every request fails on the network) and started again."""

    def __init__(self, app):
        self.app = app
        self.background: Background | None = Background(app, "127.0.0.1", threads=8)
        self.port = self.background.port
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.background.stop()
        self.background = None

    def start(self) -> None:
        self.background = Background(self.app, "127.0.0.1", port=self.port, threads=8)


@pytest.fixture
def laptop(app):
    server = Laptop(app)
    yield server
    if server.background is not None:
        server.background.stop()


def entry_posted(page):
    return page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry"))


def first_look_open(phone, laptop, database):
    """Ana's phone at a Cambio table, her first look's note open: (the match, her page, the note)."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana = seated(phone, laptop, match, "Ana")
    wait_for_subscribers(match.id, 1)
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    return match, ana, note


def test_a_tap_while_the_server_is_down_is_said_and_keeps_what_was_chosen(laptop, phone, database):
    match, ana, note = first_look_open(phone, laptop, database)
    note.locator("select[name=seen1]").select_option("3H")
    note.locator("select[name=seen2]").select_option("9D")
    save = note.get_by_role("button", name="Save my look")

    laptop.stop()
    with ana.expect_event("requestfailed", lambda r: r.url.endswith("/entry")):
        save.click()
    flash = ana.locator("#flash")
    expect(flash).to_have_text(UNREACHABLE)
    expect(flash).to_have_attribute("aria-live", "polite")  # said to a screen reader, politely
    expect(save).to_be_enabled()
    expect(note.locator("select[name=seen1]")).to_have_value("3H")
    expect(note.locator("select[name=seen2]")).to_have_value("9D")
    assert note.evaluate("d => d.open")
    assert store.entries(database, match.id) == []

    laptop.start()  # the live connection comes back: the message goes, what was chosen stays
    expect(flash).to_have_text("", timeout=20_000)
    expect(note.locator("select[name=seen1]")).to_have_value("3H")
    with entry_posted(ana) as answer:
        save.click()
    assert answer.value.status == 200
    entries = store.entries(database, match.id)
    assert [e["entry"]["move"] for e in entries] == ["initial_peek"]
    assert entries[0]["entry"]["seen"] == ["3H", "9D"]


def test_the_message_goes_when_the_phone_is_back_on_the_wi_fi(laptop, phone, database):
    """The phone off the Wi-Fi for a moment: the tap made then is said not saved; back online, the screen is
    asked for and the referee answers, so the message goes (it stayed until a later entry was saved, telling
    the table nothing could be saved while everything could)."""
    match, ana, note = first_look_open(phone, laptop, database)
    note.locator("select[name=seen1]").select_option("QH")
    ana.context.set_offline(True)
    note.get_by_role("button", name="Save my look").click()
    flash = ana.locator("#flash")
    expect(flash).to_have_text(UNREACHABLE)
    with ana.expect_response(lambda r: "/screen" in r.url):
        ana.context.set_offline(False)
    expect(flash).to_have_text("")
    expect(note.locator("select[name=seen1]")).to_have_value("QH")  # what was chosen stays, to tap again
    assert store.entries(database, match.id) == []


def test_a_key_press_that_fails_on_the_network_leaves_focus_on_its_button(laptop, phone, database):
    """From the keyboard on the phone for everyone: the button pressed is disabled while its request runs,
    which sent focus to the page itself, and a tap that never reached the referee left it there (a keyboard
    or screen-reader user had to find the button again from the top). Focus is back on it, to press again."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 2})
    Phone(laptop.app, match.id, "shared").post(move="turn_up", card="5", **{"for": "Ann"})
    page = phone()
    page.goto(f"{laptop.url}/m/{match.id}")
    page.locator("#seat-picker").get_by_role("button", name="One phone for everyone").click()
    page.locator("#seat-picker").wait_for(state="detached")
    page.wait_for_load_state("load")
    page.route("**/entry", lambda route: route.abort("internetdisconnected"))
    draw = page.get_by_role("button", name="Draw from the pile")
    draw.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#flash")).to_have_text(UNREACHABLE)
    expect(draw).to_be_focused()
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "turn_up"


def test_a_tap_that_fails_on_the_network_can_be_tapped_again_and_is_saved_once(laptop, phone, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana = seated(phone, laptop, match, "Ana")
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("KS")
    ana.route("**/entry", lambda route: route.abort("internetdisconnected"))
    save = note.get_by_role("button", name="Save my look")
    save.click()
    expect(ana.locator("#flash")).to_have_text(UNREACHABLE)
    expect(save).to_be_enabled()
    expect(note.locator("select[name=seen1]")).to_have_value("KS")
    save.click()  # still down: said again, still nothing saved
    expect(ana.locator("#flash .unreachable")).to_have_count(1)
    ana.unroute("**/entry")
    with entry_posted(ana) as answer:
        save.click()
    assert answer.value.status == 200
    expect(ana.locator("#flash")).to_have_text("")  # the entry was saved: the message no longer applies
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["initial_peek"]


def test_an_answer_that_is_not_the_referees_is_not_put_on_the_screen(laptop, phone, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 2})
    Phone(laptop.app, match.id, "shared").post(move="turn_up", card="5", **{"for": "Ann"})
    ann = seated(phone, laptop, match, "Ann")
    version = ann.locator("#screen-body").get_attribute("data-version")
    ann.route("**/entry", lambda route: route.fulfill(
        status=502, content_type="text/html", body="<html><body><h1>502 Bad Gateway</h1></body></html>"))
    draw = ann.locator("#actions").get_by_role("button", name="Draw from the pile")
    with entry_posted(ann) as answer:
        draw.click()
    assert answer.value.status == 502
    expect(ann.locator("#flash")).to_have_text(UNREACHABLE)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", version)  # the screen as it was
    assert "Bad Gateway" not in ann.locator("body").inner_text()
    expect(draw).to_be_enabled()
    ann.unroute("**/entry")
    with entry_posted(ann) as answer:
        draw.click()
    assert answer.value.status == 200
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up", "draw"]


def test_a_photo_that_cannot_be_sent_is_said_beside_its_scan_button(laptop, phone, database, tmp_path):
    match = store.create_match(database, "shithead", ["Ann", "Bo", "Cy"], {})
    ann = seated(phone, laptop, match, "Ann")
    ann.route("**/scan", lambda route: route.abort("internetdisconnected"))
    block = ann.locator("#faceup-Ann")
    picture = photo(tmp_path, ANN)
    block.locator(".scan-form input[type=file]").set_input_files(picture)
    note = block.locator(".scan-form .scan-error")
    expect(note).to_have_text(SCAN_UNREACHABLE)
    expect(note).to_have_attribute("role", "alert")
    expect(ann.locator("#flash")).to_have_text("")
    expect(block.locator(".scan-progress")).to_be_hidden()
    ann.unroute("**/scan")
    block.locator(".scan-form input[type=file]").set_input_files(picture)  # the same photo, sent again
    expect(block.locator("img.overlay")).to_have_count(1)
    assert sorted(checked(block)) == sorted(ANN)
    expect(block.locator(".scan-error")).to_have_count(0)


def test_a_phone_back_on_the_wifi_catches_up_with_the_table(live_server, phone, database, monkeypatch):
    """Ana's phone loses the Wi-Fi while Ben enters his turn, and finds it again: it shows the table as it is
    now at once (before, it waited for the next entry anyone made, its live stream not knowing it had been cut).
    Chromium's offline switch leaves an open stream open, so the ring a cut stream never hears is held back."""
    from referee import live

    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = seated(phone, live_server, match, "Ana")
    wait_for_subscribers(match.id, 1)
    ben = Phone(live_server.app, match.id, "1")
    ana.context.set_offline(True)
    with monkeypatch.context() as cut:
        cut.setattr(live.broker, "publish", lambda match_id, version: 0)
        assert ben.post(move="turn_up", card="5").status_code == 200
    ana.wait_for_timeout(300)
    assert ana.locator("#screen [data-version='0']").count() == 1  # still the table it last heard of
    ana.context.set_offline(False)
    ana.locator("#screen [data-version='1']").wait_for(timeout=5000)
