"""A game night runs past midnight: a match started at 1:30 on Saturday belongs to Friday's night on every
nights page — the group's, the player's and head-to-head — whatever the server's time zone (matches keep
their start in UTC)."""
from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest

from referee import nights, people
from tests.web.nights_helpers import TIED_ROUND, play, renamed


@pytest.fixture
def new_york(monkeypatch):
    """The server's local time is New York's (UTC-5 in December): the UTC date of an evening's match is
    already the next day's."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _started(database, match, moment: datetime) -> None:
    """The match as it was made at ``moment`` (its start kept in UTC, as store.now() writes it)."""
    stamp = moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")
    database.execute("UPDATE matches SET created_at = ? WHERE id = ?", (stamp, match.id))
    database.conn.commit()


def test_matches_after_midnight_are_on_the_nights_day_in_head_to_head_and_the_players_history(
        client, database, new_york):
    club = people.find_or_create_group(database, "Club")
    evening = datetime(2026, 12, 4, 21, 0).astimezone()       # Friday 9 pm, local time
    after_midnight = datetime(2026, 12, 5, 1, 30).astimezone()  # Saturday 1:30 am: still Friday's night
    first = play(database, TIED_ROUND, club.id, moment=evening)
    _started(database, first, evening)
    second = play(database, TIED_ROUND, club.id, moment=after_midnight)
    _started(database, second, after_midnight)
    alone = play(database, renamed(TIED_ROUND, {}), None)  # no group, so no night: its start decides
    _started(database, alone, after_midnight)
    assert nights.night_of_match(None, database.execute("SELECT created_at FROM matches WHERE id = ?",
                                                        (alone.id,)).fetchone()[0]) == "2026-12-04"
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")

    group = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    assert ">2026-12-04" in group and "2026-12-05" not in group  # the group's night, as the group page says it

    h2h = client.get("/nights/h2h", query_string={"a": ana.id, "b": ben.id}).get_data(as_text=True)
    assert h2h.count('href="/nights/m/') == 3
    assert h2h.count(">2026-12-04 ") == 3 and "2026-12-05" not in h2h

    player = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    history = player.split('<table class="history">', 1)[1].split("</table>", 1)[0]
    assert history.count("<td>2026-12-04</td>") == 3 and "2026-12-05" not in history


def test_the_night_of_a_table_is_the_evening_where_the_phone_is(client, database):
    """A Raspberry Pi keeps UTC: the phone that starts a table says its own time zone (a cookie its page
    sets), and the table's night is that zone's evening. A zone that is no zone is the server's own."""
    from zoneinfo import ZoneInfo

    from tests.conftest import SAME_ORIGIN

    club = people.find_or_create_group(database, "Club")
    days = {}
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):  # 25 hours apart: never the same evening
        client.set_cookie(nights.ZONE_COOKIE, zone)
        response = client.post("/new/ratatat", data={"player": ["Ana", "Ben"], "group": str(club.id)},
                               headers=SAME_ORIGIN)
        assert response.status_code == 303
        match_id = response.headers["Location"].rstrip("/").split("/")[-1]
        night = database.execute("SELECT n.day FROM matches m JOIN nights n ON n.id = m.night_id WHERE m.id = ?",
                                 (match_id,)).fetchone()[0]
        days[zone] = night
        assert night == nights.evening_of(datetime.now(ZoneInfo(zone)))
    assert days["Pacific/Kiritimati"] != days["Pacific/Pago_Pago"]


@pytest.mark.parametrize("zone", ["Not/AZone", "../../etc/passwd", "", "x" * 300, "Europe/Rome\u0000", "UTC+5"])
def test_a_zone_that_is_no_zone_is_the_servers_own(zone):
    assert nights.phone_now(zone) is None


def test_a_players_history_lists_matches_by_their_night_not_by_when_they_were_made(client, database):
    """An evening's match entered later (an import of last Saturday, a table started from a phone in another
    time zone) is listed with its evening: it was "latest" above the matches of a later night."""
    club = people.find_or_create_group(database, "Club")
    later_night = play(database, TIED_ROUND, club.id, moment=datetime(2026, 12, 5, 20, 0).astimezone())
    _started(database, later_night, datetime(2026, 12, 5, 20, 0).astimezone())
    earlier_night = play(database, TIED_ROUND, club.id, moment=datetime(2026, 11, 28, 20, 0).astimezone())
    _started(database, earlier_night, datetime(2026, 12, 6, 10, 0).astimezone())  # made afterwards
    ana = people.find_profile(database, "Ana")
    player = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    history = player.split('<table class="history">', 1)[1].split("</table>", 1)[0]
    assert history.index("<td>2026-12-05</td>") < history.index("<td>2026-11-28</td>")
