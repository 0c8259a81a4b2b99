"""An imported transcript's ``date`` becomes its match's date: a real calendar date (YYYY-MM-DD, maybe with
its time) or the file is refused naming ``date`` (422 on the web); files Referee wrote still import, and
`referee check` still ignores the field (docs/transcripts.md)."""
from __future__ import annotations

import io
import json

import pytest

from referee import exports, transcript
from tests.conftest import SAME_ORIGIN
from tests.web.nights_helpers import example

BAD_DATES = ["9999-99-99", 12, "<script>", "x" * 300, "2026-02-30", "2026-13-01", "", "2026-11-30junk",
             "2026-11-30T25:00", "20261130", True, ["2026-11-30"], {"day": "2026-11-30"}, "2026-11-30\n"]
GOOD_DATES = ["2026-11-30", "2024-02-29", "2026-11-30T21:00", "2026-11-30T21:00:05.123+00:00",
              "2026-11-30 21:00:05Z"]


def _post(client, doc: dict, **form):
    body = json.dumps(doc).encode()
    return client.post("/nights/import", data={"file": (io.BytesIO(body), "t.json"), **form}, headers=SAME_ORIGIN,
                       content_type="multipart/form-data")


def _matches(database) -> list[tuple[str, str]]:
    return database.execute("SELECT id, created_at FROM matches").fetchall()


@pytest.mark.parametrize("date", BAD_DATES, ids=repr)
def test_a_transcript_with_no_calendar_date_is_422_naming_date(client, database, date):
    response = _post(client, {**example("flag-at-reveal"), "date": date})
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "(transcript).date" in page and "YYYY-MM-DD" in page
    assert _matches(database) == []


@pytest.mark.parametrize("date", GOOD_DATES)
def test_a_calendar_date_with_or_without_its_time_is_the_matchs_date(client, database, date):
    response = _post(client, {**example("flag-at-reveal"), "date": date})
    assert response.status_code == 303
    ((_, created),) = _matches(database)
    assert created == date


@pytest.mark.parametrize("doc", [example("flag-at-reveal"), {**example("flag-at-reveal"), "date": None}],
                         ids=["no date", "null"])
def test_a_transcript_without_a_date_still_imports(client, database, doc):
    assert _post(client, doc).status_code == 303 and len(_matches(database)) == 1


def test_a_group_exports_transcripts_and_the_command_lines_import_are_checked_too(database):
    bad = {"format": "referee-group/1", "group": {"name": "G"},
           "matches": [{"transcript": {**example("flag-at-reveal"), "date": "9999-99-99"}}]}
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, bad)
    assert err.value.field == "matches[0].transcript.date"
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, {**example("flag-at-reveal"), "date": "<script>"}, "Club")
    assert err.value.field == "(transcript).date"
    assert _matches(database) == []


def test_a_downloaded_transcript_goes_out_and_back_in(client, database):
    """What Referee writes (``date``: the match's day) imports, into the group's night of that day."""
    doc = {**example("flag-at-reveal"), "date": "2026-11-29", "title": "Table ABCD", "match": "abcdefgh"}
    assert _post(client, doc, group="Club").status_code == 303
    assert _matches(database) == [("abcdefgh", "2026-11-29")]


def test_referee_check_still_ignores_the_date():
    doc = {**example("flag-at-reveal"), "date": "last Tuesday"}
    assert transcript.check(transcript.loads(json.dumps(doc)))[2]["ok"] is not None
    with pytest.raises(transcript.TranscriptError) as err:
        transcript.from_data(doc)
    assert err.value.where == "date"


@pytest.mark.parametrize("created", ["9999-99-99", "<script>", 12, "2026-11-30junk"], ids=repr)
def test_a_group_exports_created_at_must_be_a_calendar_date_too(database, created):
    bad = {"format": "referee-group/1", "group": {"name": "G"},
           "matches": [{"transcript": example("flag-at-reveal"), "created_at": created}]}
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, bad)
    assert err.value.field == "matches[0].created_at"
    assert _matches(database) == []


@pytest.mark.parametrize("day", ["2026-13-01", "2026-02-30"])
def test_a_night_written_right_but_not_on_the_calendar_says_so(database, day):
    """`referee import --night 2026-13-01`: it is written YYYY-MM-DD, so the refusal says it is no day."""
    with pytest.raises(exports.ImportProblem) as err:
        exports.import_data(database, example("flag-at-reveal"), "Club", day)
    assert (err.value.field, err.value.message) == ("night", f"{day} is not a day of the calendar (YYYY-MM-DD)")
