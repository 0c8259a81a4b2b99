"""Times in the phone's own time zone (Chromium at 390x844 against the real server, whose clock keeps UTC as
a Raspberry Pi's does): a match's history and a player's page write each moment in the zone the phone is
set to and in the page's language (static/local_time.js), again after htmx redraws a part of the page, and
leave the server's text as it is on a phone without script."""
from __future__ import annotations

import pytest

from referee import people, store
from tests.web.nights_helpers import TIED_ROUND, play

from .conftest import PHONE

pytestmark = pytest.mark.browser

STAMP = "2026-12-05T02:59:57.123+00:00"  # every entry and profile event: 2:59:57 am UTC, 4:59:57 am in Jerusalem
JERUSALEM = "Asia/Jerusalem"  # UTC+2 in December


@pytest.fixture
def at_2_59(monkeypatch):
    monkeypatch.setattr(store, "now", lambda: STAMP)
    monkeypatch.setattr(people, "now", lambda: STAMP)


@pytest.fixture
def phone_in(browser):
    """A phone-sized page of a phone set to a time zone and a language (and, or not, running script),
    in a context of the shared Chromium (tests/browser/conftest.py)."""
    contexts = []

    def new_phone(zone: str, locale: str = "en-US", script: bool = True):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                                      locale=locale, timezone_id=zone, java_script_enabled=script)
        contexts.append(context)
        return context.new_page()

    yield new_phone
    for context in contexts:
        context.close()


def _shown(page, selector: str = "time") -> list[str]:
    return [t.replace("\u202f", " ").replace("\u200f", "") for t in page.locator(selector).all_inner_texts()]


def test_the_history_shows_each_entrys_time_in_the_phones_time_zone(live_server, database, phone_in, at_2_59):
    match = play(database, TIED_ROUND)
    page = phone_in(JERUSALEM)
    page.goto(f"{live_server.url}/m/{match.id}/history")
    page.locator("time[data-localised]").first.wait_for()
    assert _shown(page) == ["4:59:57 AM"] * len(TIED_ROUND["entries"])  # not the server's 2:59:57 AM


@pytest.mark.parametrize("locale, lang", [("he-IL", "he"), ("it-IT", "it")])
def test_the_history_writes_times_in_the_pages_language(live_server, database, phone_in, at_2_59, locale, lang):
    match = play(database, TIED_ROUND)
    page = phone_in(JERUSALEM, locale)
    page.goto(f"{live_server.url}/m/{match.id}/history")
    page.locator("time[data-localised]").first.wait_for()
    assert page.evaluate("document.documentElement.lang") == lang
    said = page.evaluate("new Intl.DateTimeFormat(document.documentElement.lang, {timeStyle: 'medium',"
                         " timeZone: 'Asia/Jerusalem'}).format(new Date('2026-12-05T02:59:57Z'))")
    assert set(page.locator("time").all_inner_texts()) == {said}
    assert "4:59:57" in said and "AM" not in said  # 24 hours, as Hebrew and Italian write the time


def test_the_player_page_shows_the_profiles_events_in_the_phones_time_zone(live_server, database, phone_in, at_2_59):
    play(database, TIED_ROUND)
    ana = people.find_profile(database, "Ana")
    people.rename(database, ana.id, "Anna")
    page = phone_in(JERUSALEM)
    page.goto(f"{live_server.url}/nights/p/{ana.id}")
    page.get_by_text("What happened to this profile").click()
    page.locator("time[data-localised]").first.wait_for()
    assert _shown(page, "details time") == ["Dec 5, 2026, 4:59 AM"] * 2  # created, renamed


def test_times_redrawn_by_htmx_are_written_in_the_phones_time_zone_again(live_server, database, phone_in, at_2_59):
    match = play(database, TIED_ROUND)
    page = phone_in(JERUSALEM)
    page.goto(f"{live_server.url}/m/{match.id}/history")
    page.locator("time[data-localised]").first.wait_for()
    page.evaluate("document.querySelector('ol.history').dataset.old = 'yes'")
    page.evaluate("htmx.ajax('GET', location.pathname, {target: 'ol.history', select: 'ol.history',"
                  " swap: 'outerHTML'})")  # the list as the server writes it, put in by htmx
    page.locator("ol.history:not([data-old])").wait_for()
    page.locator("ol.history:not([data-old]) time[data-localised]").first.wait_for()
    assert _shown(page, "ol.history time") == ["4:59:57 AM"] * len(TIED_ROUND["entries"])


def test_without_script_the_servers_text_stays(live_server, database, phone_in, at_2_59):
    match = play(database, TIED_ROUND)
    page = phone_in(JERUSALEM, script=False)
    page.goto(f"{live_server.url}/m/{match.id}/history")
    assert _shown(page) == ["2:59:57 AM"] * len(TIED_ROUND["entries"])


def test_the_phone_tells_the_server_its_time_zone_for_the_night_of_a_new_table(live_server, phone_in):
    """The cookie the new-table form is posted with says the phone's zone (referee/nights.py, phone_now)."""
    page = phone_in("Pacific/Kiritimati")
    page.goto(f"{live_server.url}/")
    page.locator("body").wait_for()
    page.wait_for_function("document.cookie.indexOf('referee_tz=') >= 0")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies["referee_tz"] == "Pacific/Kiritimati"
