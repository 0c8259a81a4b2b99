"""When the computer cannot store anything while serving (the disk fills, the file turns read-only), a
phone is told so in plain words with 503, and the operator's console gets one line, not a traceback per
request; any other database error is still the usual 500.

The errors are SQLite's own, raised for real: a connection opened read-only (``mode=ro``) for "attempt to
write a readonly database" (a chmod does not stop root, who may run these tests), and a database capped at
its size (``PRAGMA max_page_count``) for "database or disk is full". Either is put in the request thread's
connection pool, where the app takes its connection from."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from sqlite_utils import Database

from referee import db as dbmod
from referee import security

ORIGIN = {"Origin": "http://localhost"}
CANNOT_WRITE = ("The referee cannot save right now: the computer running it cannot write its file. Nothing was "
                "saved; tell whoever runs the referee.")
DISK_FULL = ("The referee cannot save right now: the computer running it has a full disk. Nothing was saved; "
             "tell whoever runs the referee.")


@pytest.fixture(autouse=True)
def fresh_console():
    said = getattr(security, "_said", {})  # when the console was last told of each trouble
    said.clear()
    yield
    said.clear()


def _pooled(app, conn: sqlite3.Connection) -> None:
    """Make ``conn`` this thread's idle connection to the app's database: the next request uses it."""
    path = app.config["DATABASE"]
    dbmod.close_idle()
    dbmod.checkin(Database(conn), path)


def _new_table(client):
    return client.post("/new/ratatat", data={"player": ["Ann", "Bo"]}, headers=ORIGIN)


def test_a_read_only_database_answers_503_in_plain_words(app, client, caplog):
    assert _new_table(client).status_code == 303  # the schema is there, writes work
    path = app.config["DATABASE"]
    _pooled(app, sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False))
    with caplog.at_level(logging.ERROR, logger="referee.security"):
        response = _new_table(client)
        again = client.post("/new/ratatat", data={"player": ["Ann", "Bo"]},
                            headers={**ORIGIN, "HX-Request": "true"})
    dbmod.close_idle()
    assert response.status_code == 503
    html = response.get_data(as_text=True)
    assert "The referee cannot save right now" in html and CANNOT_WRITE in html
    assert "Something went wrong" not in html
    assert again.status_code == 503 and CANNOT_WRITE in again.get_data(as_text=True)  # htmx: into #flash
    assert again.headers["HX-Retarget"] == "#flash"
    records = [r for r in caplog.records if r.name == "referee.security"]
    assert len(records) == 1 and records[0].exc_info is None  # one plain line for both requests
    line = records[0].getMessage()
    assert path in line and "cannot be written" in line and "\n" not in line


def test_a_full_disk_answers_503_in_plain_words(app, client, caplog):
    assert _new_table(client).status_code == 303
    path = app.config["DATABASE"]
    conn = sqlite3.connect(path, check_same_thread=False)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: SQLite says the disk is full
    _pooled(app, conn)
    statuses = []
    with caplog.at_level(logging.ERROR, logger="referee.security"):
        for _ in range(60):
            response = _new_table(client)
            statuses.append(response.status_code)
            if response.status_code == 503:
                break  # (each request gives the connection back to the pool: the next one takes it again)
    assert statuses[-1] == 503 and set(statuses) <= {303, 503}, statuses
    html = response.get_data(as_text=True)
    assert DISK_FULL in html
    records = [r for r in caplog.records if r.name == "referee.security"]
    assert len(records) == 1 and "the disk is full" in records[0].getMessage() and records[0].exc_info is None
    dbmod.close_idle()
    conn.close()


def test_storage_trouble_is_told_apart_from_other_errors(tmp_path):
    path = tmp_path / "x.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    readonly = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as err:
        readonly.execute("INSERT INTO t VALUES (1)")
    readonly.close()
    assert dbmod.storage_trouble(err.value) == "readonly"
    conn = sqlite3.connect(path)
    with pytest.raises(sqlite3.OperationalError) as err:
        conn.execute("SELECT * FROM nosuch")
    assert dbmod.storage_trouble(err.value) is None
    conn.close()
    assert dbmod.storage_trouble(sqlite3.OperationalError("disk I/O error")) == "readonly"
    assert dbmod.storage_trouble(sqlite3.OperationalError("database or disk is full")) == "full"
    assert dbmod.storage_trouble(ValueError("disk is full")) is None


def test_any_other_database_error_is_still_the_usual_500(app, client, caplog):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served (TESTING would raise it in the test)
    assert _new_table(client).status_code == 303
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute("ALTER TABLE matches RENAME TO matches_gone")  # a real "no such table" on the next look
    conn.commit()
    conn.close()
    dbmod.close_idle()
    with caplog.at_level(logging.ERROR):
        response = client.get("/m/abcdefgh")
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert "Something went wrong" in html and "cannot save" not in html
    assert any(r.exc_info for r in caplog.records)  # logged with its traceback, as before
    assert not [r for r in caplog.records if r.name == "referee.security"]



def test_a_form_posted_to_its_own_page_offers_that_page_again(app, client):
    """The page asking "End the match now?" posts to its own address: the 503 page links back to it (going
    back asks again), not only to the start."""
    made = _new_table(client)
    match_id = made.headers["Location"].split("/m/")[1].split("/")[0]
    assert client.post(f"/m/{match_id}/seat", data={"seat": "0"}, headers=ORIGIN).status_code == 303
    page = f"http://localhost/m/{match_id}/end"
    path = app.config["DATABASE"]
    _pooled(app, sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False))
    response = client.post(f"/m/{match_id}/end", data={"version": "0", "confirm": "1"},
                           headers={**ORIGIN, "Referer": page})
    dbmod.close_idle()
    assert response.status_code == 503
    assert f'href="{page}">Back to the page before' in response.get_data(as_text=True)
