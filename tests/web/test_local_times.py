"""Times are written for the phone's clock, not the server's: a match's history and a player's page give
each moment as <time datetime="…Z"> (ISO 8601, UTC) around the server's own text, which
static/local_time.js (loaded by every page) writes again in the phone's time zone and language; without
script the server's text stays (tests/browser/test_local_times.py drives it in Chromium)."""
from __future__ import annotations

import re

import pytest

from referee import nights, people, store
from tests.web.nights_helpers import TIED_ROUND, play

STAMP = "2026-12-05T02:59:57.123+00:00"  # as store.now() keeps it: 4:59:57 on a phone in Jerusalem


@pytest.fixture
def at_2_59(monkeypatch):
    """Every entry and profile event made now is stamped STAMP."""
    monkeypatch.setattr(store, "now", lambda: STAMP)
    monkeypatch.setattr(people, "now", lambda: STAMP)


def _times(page: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<time datetime="([^"]+)" data-local="([a-z]+)">([^<]*)</time>', page)


def test_the_history_gives_each_entrys_time_as_its_utc_moment_around_the_servers_text(client, database, at_2_59):
    match = play(database, TIED_ROUND)
    page = client.get(f"/m/{match.id}/history").get_data(as_text=True)
    times = _times(page)
    assert len(times) == len(TIED_ROUND["entries"])  # one for each entry
    ((moment, kind, text),) = set(times)
    assert (moment, kind) == ("2026-12-05T02:59:57Z", "time")
    assert text.replace("\u202f", " ") == "2:59:57 AM"  # the server's text, as before (its clock's zone: UTC)


def test_the_player_page_gives_each_profile_events_moment(client, database, at_2_59):
    play(database, TIED_ROUND)
    ana = people.find_profile(database, "Ana")
    people.rename(database, ana.id, "Anna")
    page = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    events = page.split("What happened to this profile", 1)[1].split("</ul>", 1)[0]
    assert _times(events) == [("2026-12-05T02:59:57Z", "datetime", "2026-12-05 02:59")] * 2  # made, renamed


def test_every_page_loads_the_script_that_writes_times_in_the_phones_zone(client, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {})
    for path in ("/", f"/m/{match.id}/history", "/nights/"):
        page = client.get(path).get_data(as_text=True)
        assert '<script src="/static/local_time.js" defer></script>' in page, path
    script = client.get("/static/local_time.js")
    assert script.status_code == 200 and "Intl.DateTimeFormat" in script.get_data(as_text=True)
    assert "htmx:load" in script.get_data(as_text=True)  # a screen redrawn by htmx is written again


@pytest.mark.parametrize("stamp, moment", [
    ("2026-12-05T02:59:57.123+00:00", "2026-12-05T02:59:57Z"),
    ("2026-12-05T04:59:57+02:00", "2026-12-05T02:59:57Z"),  # another zone: the same moment, in UTC
    ("2026-12-05T02:59:57Z", "2026-12-05T02:59:57Z"),
    ("2026-12-05 02:59:57", "2026-12-05T02:59:57Z"),  # no zone: kept in UTC
    ("yesterday", None), ("", None), (None, None),
])
def test_a_stored_stamp_is_given_as_its_moment_in_utc(stamp, moment):
    assert nights.moment_utc(stamp) == moment


def test_a_stamp_that_names_no_moment_keeps_its_text_alone(app):
    from referee.views.nights import local_time

    with app.test_request_context():
        assert local_time("2026-12-05T02:59:57+00:00", "datetime") == \
            '<time datetime="2026-12-05T02:59:57Z" data-local="datetime">2026-12-05 02:59</time>'
        assert "<time" not in str(local_time("soon", "datetime")) and str(local_time("soon", "datetime")) == "soon"
