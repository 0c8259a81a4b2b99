"""Error pages say what happened: the busy photo reader is no "Something went wrong", and a form refused
for its size is a form, not an upload."""
from __future__ import annotations

import http.client
import io
import re

import pytest

from referee import scans, store

POST = {"Origin": "http://localhost"}
HX = {**POST, "HX-Request": "true"}


def heading(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.get_data(as_text=True)).group(1)


@pytest.fixture
def seated(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    assert client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=POST).status_code == 303
    client.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"}, headers=HX)
    return match


@pytest.mark.parametrize("headers", [POST, HX], ids=["page", "htmx"])
def test_the_busy_photo_reader_says_the_referee_is_busy(client, monkeypatch, headers):
    def busy(*args, **kwargs):
        raise scans.Busy()

    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=POST).headers["Location"]
    monkeypatch.setattr(scans, "read_photo", busy)
    response = client.post(f"{deck}/photo", data={"photo": (io.BytesIO(b"x" * 100), "p.jpg")},
                           headers=headers, content_type="multipart/form-data")
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert heading(response) == "The referee is busy"
    assert "reading other photos" in response.get_data(as_text=True)
    assert "Something went wrong" not in response.get_data(as_text=True)


def _multipart(fields: list[tuple[str, str]]) -> bytes:
    return ("".join(f'--xx\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                    for name, value in fields) + "--xx--\r\n").encode()


MULTIPART = {**POST, "Content-Type": "multipart/form-data; boundary=xx"}


@pytest.mark.parametrize("body", [
    _multipart([("seat", "x" * 600_000)]),  # a text field past the form's limit
    _multipart([(f"f{i}", "1") for i in range(2000)]),  # more parts than a form has
], ids=["long field", "many parts"])
def test_a_form_refused_for_its_size_is_called_a_form(client, seated, body):
    response = client.post(f"/m/{seated.id}/seat", data=body, headers=MULTIPART)
    assert response.status_code == 413
    assert heading(response) == "That form is too large"
    assert "upload" not in response.get_data(as_text=True).lower()


def test_a_form_body_past_the_limit_is_a_form_too(client, seated):
    response = client.post(f"/m/{seated.id}/seat", data=b"seat=" + b"x" * (16 * 1024 * 1024),
                           headers={**POST, "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413 and heading(response) == "That form is too large"


def test_a_photo_past_the_upload_limit_is_still_an_upload(client, seated):
    response = client.post(f"/m/{seated.id}/scan", data={"photo": (io.BytesIO(b"x" * (16 * 1024 * 1024 + 1)), "p.jpg")},
                           headers=POST, content_type="multipart/form-data")
    assert response.status_code == 413 and heading(response) == "That upload is too large"


def test_a_chunked_body_past_the_limit_is_refused_by_the_server_before_flask(live_server, database):
    """Said here, not changed: a body of no stated length is read by the server (`RefereeASGI.spooled`) into a
    file before Flask runs, and one past the upload limit is answered there, in plain words: no page is made.
    The sender is still sending (40 MB) when the answer is ready: the rest is read and dropped first, so it
    reads the answer rather than a connection reset."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
    chunks = (b"x" * 1024 * 1024 for _ in range(40))
    conn.request("POST", f"/m/{match.id}/scan", body=chunks, encode_chunked=True, headers={
        "Origin": f"http://127.0.0.1:{live_server.port}", "Content-Type": "multipart/form-data; boundary=xx"})
    response = conn.getresponse()
    assert response.status == 413 and response.getheader("Content-Type").startswith("text/plain")
    conn.close()
