"""Why a file was not imported, said in the phone's language: the importer's English sentences read back
by their shape (a match not finished, one already here with other content, a file that is not JSON), and
a file partly refused says so on the group's page."""
from __future__ import annotations

import io
import json

import pytest

from referee import exports, people
from referee.i18n import COOKIE
from referee.i18n_imports import import_problem_text
from tests.conftest import SAME_ORIGIN
from tests.web.nights_helpers import example, play

ALREADY = ("match abc123 is already here with other players (Ana, Ben), with other entries (entry 4 differs) and "
           "with another date (2026-11-30); it was not changed")


@pytest.mark.parametrize("message,it", [
    ("this transcript's match is not finished: only a finished match is imported",
     "la partita di questa trascrizione non è finita: si importa solo una partita finita"),
    ("not valid JSON (Expecting value)", "JSON non valido (Expecting value)"),
    (ALREADY, "la partita abc123 è già qui con altri giocatori (Ana, Ben), con altre registrazioni (la registrazione 4 "
              "è diversa) e con un'altra data (2026-11-30); non è stata cambiata"),
])
def test_an_import_problem_is_said_in_italian(app, message, it):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert import_problem_text(message) == it
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert import_problem_text(message) == message


@pytest.mark.parametrize("message,it", [
    ("expected 'referee-group/1' or 'referee-transcript/1', not 'x'",
     "atteso 'referee-group/1' o 'referee-transcript/1', non 'x'"),
    ("an export or a transcript is a JSON object", "un'esportazione o una trascrizione è un oggetto JSON"),
])
def test_the_file_s_own_shape_is_said_in_italian_whole(app, message, it):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert import_problem_text(message) == it


def test_a_group_named_by_spaces_alone_is_refused_as_a_group_in_the_phones_language(client, database):
    client.set_cookie(COOKIE, "it")
    body = json.dumps(example("flag-at-reveal")).encode()
    response = client.post("/nights/import", data={"file": (io.BytesIO(body), "f.json"), "group": "   "},
                           headers=SAME_ORIGIN, content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "group" in page and "player" not in page.split("<main", 1)[1]
    with client.application.test_request_context(headers={"Accept-Language": "it"}):
        from flask_babel import gettext
        assert gettext("a group needs a name that shows") in page


def test_a_sentence_of_no_known_shape_stays_as_said(app):
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert import_problem_text("something nobody wrote") == "something nobody wrote"
        assert import_problem_text("match x is already here with other moods; it was not changed") == \
            "match x is already here with other moods; it was not changed"
        assert import_problem_text(ALREADY) != ALREADY


def _post(client, data):
    return client.post("/nights/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "f.json")},
                       headers=SAME_ORIGIN, content_type="multipart/form-data")


def test_a_refused_import_is_said_in_the_phones_language(client, database):
    client.set_cookie(COOKIE, "it")
    response = _post(client, example("tie"))  # a match still being played
    assert response.status_code == 422
    assert "si importa solo una partita finita" in response.get_data(as_text=True)


def test_a_file_partly_refused_says_so_on_the_groups_page(client, database):
    """One match of the file comes in; another is already here with other entries: the page says one was
    imported and one was not, and why."""
    club = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), club.id)
    play(database, example("three-rounds"), club.id)
    data = json.loads(json.dumps(exports.export_group(database, club.id)))
    here, new = data["matches"]
    new["transcript"]["match"] = "a" * len(new["transcript"]["match"])  # not here yet
    here["transcript"]["entries"].pop()  # the file's copy of the match here lacks its last entry
    response = _post(client, data)
    assert response.status_code == 303 and "refused=1" in response.headers["Location"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "1 match imported." in page
    assert "1 match of the file was not imported: a match with its number is already here with other" in page


def test_a_transcript_already_here_says_so_and_where_it_stays(client, database):
    body = example("flag-at-reveal")
    first = _post_to(client, body, "Club")
    assert first.status_code == 303 and "already" not in first.headers["Location"]
    again = _post_to(client, body, "Other club")
    assert again.status_code == 303 and "already=1" in again.headers["Location"]
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "This match was here already: nothing was imported" in page
    assert "It stays in its own group, Club, not in the one named on the form." in page
    same = client.get(_post_to(client, body, "").headers["Location"]).get_data(as_text=True)
    assert "This match was here already" in same and "It stays in" not in same


def _post_to(client, data, group):
    return client.post("/nights/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "f.json"),
                                               "group": group}, headers=SAME_ORIGIN, content_type="multipart/form-data")
