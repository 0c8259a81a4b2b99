"""Teaching one deck from several phones at once (real threads, a real SQLite file): every face taught is
kept, and forgetting a face keeps what another phone taught meanwhile."""

from __future__ import annotations

import io
import re
import threading

import vision

from referee import decks

from .cardphotos import row_photo

HX = {"Origin": "http://localhost", "HX-Request": "true"}
PLAIN = {"Origin": "http://localhost"}


def _photo_token(client, deck: str, label: str, seed: int) -> str:
    """Step 1 of teaching: the photo of one card, read; the token step 2 names it with."""
    response = client.post(f"{deck}/photo", data={"photo": (io.BytesIO(row_photo([label], seed=seed)), "p.jpg")},
                           headers=HX, content_type="multipart/form-data")
    assert response.status_code == 200
    return re.search(r'name="token" value="([^"]+)"', response.get_data(as_text=True)).group(1)


def _deck(client, name="Ours") -> tuple[str, str]:
    location = client.post("/decks", data={"name": name, "kind": "ratatat"}, headers=HX).headers["Location"]
    return location, location.rsplit("/", 1)[1]


def test_four_phones_teaching_one_deck_at_once_keep_every_face(app, database, monkeypatch):
    """Every phone has read the deck and made its references before any of them writes (the teaching is
    held until all four have): each writes onto the deck as it is then."""
    faces = ["1", "2", "3", "4"]
    phones = [app.test_client() for _ in faces]
    deck, deck_id = _deck(phones[0])
    tokens = [_photo_token(phone, deck, face, seed) for seed, (phone, face) in enumerate(zip(phones, faces))]
    together = threading.Barrier(len(phones))
    teach = vision.teach

    def teach_then_wait(*args, **kwargs):
        refs = teach(*args, **kwargs)
        together.wait(timeout=30)
        return refs

    monkeypatch.setattr(vision, "teach", teach_then_wait)
    answers = []

    def post(phone, token, face):
        answers.append(phone.post(f"{deck}/teach", data={"token": token, "label0": face}, headers=PLAIN).status_code)

    threads = [threading.Thread(target=post, args=args) for args in zip(phones, tokens, faces)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == [303] * 4
    taught = decks.get(database, deck_id)
    assert taught.faces == {face: 1 for face in faces}
    assert sorted(decks.references(taught).labels) == faces  # one reference a face: each phone's photo


def test_a_face_forgotten_while_another_phone_teaches_keeps_what_it_taught(app, database, monkeypatch):
    """One phone forgets "1" having read the deck before another phone's "2" was written: "2" stays."""
    teacher, forgetter = app.test_client(), app.test_client()
    deck, deck_id = _deck(teacher)
    token = _photo_token(teacher, deck, "1", 0)
    assert teacher.post(f"{deck}/teach", data={"token": token, "label0": "1"}, headers=PLAIN).status_code == 303
    token = _photo_token(teacher, deck, "2", 1)
    read, written = threading.Event(), threading.Event()
    forget, save = decks.forget, decks.save

    def forget_late(db, deck_read, face):
        read.set()  # the deck was read (without "2")
        assert written.wait(30)
        return forget(db, deck_read, face)

    def save_early(db, deck_read, refs, labels):
        assert read.wait(30)
        try:
            return save(db, deck_read, refs, labels)
        finally:
            written.set()

    monkeypatch.setattr(decks, "forget", forget_late)
    monkeypatch.setattr(decks, "save", save_early)
    answers = {}
    place = decks.FACES["ratatat"].index("1")
    threads = [threading.Thread(target=lambda: answers.update(forgot=forgetter.post(
                   f"{deck}/forget", data={"face": str(place)}, headers=PLAIN).status_code)),
               threading.Thread(target=lambda: answers.update(taught=teacher.post(
                   f"{deck}/teach", data={"token": token, "label0": "2"}, headers=PLAIN).status_code))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert answers == {"forgot": 303, "taught": 303}
    after = decks.get(database, deck_id)
    assert after.faces == {"2": 1} and decks.references(after).labels == ["2"]
