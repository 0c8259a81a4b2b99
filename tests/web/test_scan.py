"""Scanning at the table and teaching a deck, with card photos made in code (real OpenCV, real SQLite)."""
from __future__ import annotations

import io
import re
import struct
import zlib

import pytest

import cv2
import numpy as np

from referee import decks, scans, store, tables
import vision
from vision import synth

from .cardphotos import FACES, face, row_photo, standard_row_photo

HX = {"Origin": "http://localhost", "HX-Request": "true"}


def upload(client, url, data: bytes, name="photo.jpg", **fields):
    form = {**fields, "photo": (io.BytesIO(data), name)}
    return client.post(url, data=form, headers=HX, content_type="multipart/form-data")


@pytest.fixture
def taught(client):
    """A Rat-a-Tat Cat deck taught from four photos (4 + 4 + 4 + 1 faces)."""
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    for seed, group in enumerate((FACES[0:4], FACES[4:8], FACES[8:12], FACES[12:])):
        html = upload(client, f"{deck}/photo", row_photo(group, seed=seed)).get_data(as_text=True)
        token = re.search(r'name="token" value="([^"]+)"', html).group(1)
        assert html.count('name="label') == len(group)
        response = client.post(f"{deck}/teach", data={"token": token, **{f"label{i}": g for i, g in enumerate(group)}},
                               headers=HX)
        learnt = ", ".join(map(decks.face_name, group))
        assert response.status_code == 200 and f"Learnt {learnt}" in response.get_data(as_text=True)
    return deck


@pytest.fixture
def seated(client, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    return match


def test_teaching_records_every_face(client, taught):
    html = client.get(taught).get_data(as_text=True)
    assert html.count('class="done"') == 13 and 'class="todo">Card back<' in html
    assert "Draw 2 ✓" in html and "Peek ✓" in html and "DRAW2" not in html


def test_the_teach_screen_names_cards_and_offers_only_the_editions_faces(client):
    classic = client.post("/decks", data={"name": "Classic", "kind": "ratatat"}, headers=HX).headers["Location"]
    deluxe = client.post("/decks", data={"name": "Deluxe", "kind": "ratatat_deluxe"}, headers=HX).headers["Location"]
    html = upload(client, f"{classic}/photo", row_photo(["SWAP", "DRAW2"])).get_data(as_text=True)
    assert '<option value="DRAW2">Draw 2</option>' in html and '<option value="SWAP">Swap</option>' in html
    assert "SUPERPEEK" not in html and "Super Peek" not in client.get(classic).get_data(as_text=True)
    assert "Super Peek" in client.get(deluxe).get_data(as_text=True)
    assert "deluxe, with Super Peek" in client.get("/decks").get_data(as_text=True)


def test_single_card_scan_is_read_and_confirmed(client, taught, seated, database):
    response = upload(client, f"/m/{seated.id}/scan", row_photo(["5"], seed=9, kind="cloth"),
                      move="turn_up", field="card")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'read-label">5<', html)
    overlay = re.search(r'src="(/scan/[^"]+\.jpg)"', html).group(1)
    image = client.get(overlay)
    assert image.status_code == 200 and image.data[:3] == b"\xff\xd8\xff"
    # Confirming posts the entry the scan filled in.
    confirm = dict(re.findall(r'name="(\w+)" value="([^"]*)"', html.split("confirm-scan")[0].rsplit("<form", 1)[1]))
    assert confirm["move"] == "turn_up" and confirm["card"] == "5"
    assert client.post(f"/m/{seated.id}/entry", data=confirm, headers=HX).status_code == 200
    assert store.entries(database, seated.id)[0]["entry"] == {"move": "turn_up", "card": "5"}


def gap_row_photo(labels: list[str | None], seed: int = 4) -> bytes:
    """A JPEG of a row of four slots on cloth; None leaves a slot's card out of the photo."""
    rng = np.random.default_rng(seed)
    scene = synth.background("cloth", (1600, 900), rng)
    w, h = synth.CARD_SIZE
    for i, label in enumerate(labels):
        if label is not None:
            corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([90 + i * 370, 260])
            scene = synth.paste_card(scene, face(label), corners + rng.uniform(-10, 10, (4, 2)).astype(np.float32))
    return cv2.imencode(".jpg", synth.photo_effects(scene, rng, blur=0.8, glare=False))[1].tobytes()


def at_reveal(database, ana: str = "Ana", ben: str = "Ben"):
    """A match at the reveal: Ana called after taking the turned-up 2 into slot 3 (RTC-31)."""
    match = store.create_match(database, "ratatat", [ana, ben])
    moves = [{"move": "turn_up", "card": "2"}, {"seat": ana, "move": "take_discard"},
             {"seat": ana, "move": "replace", "slot": 3, "out": "6"}, {"seat": ana, "move": "call"},
             {"seat": ben, "move": "draw"}, {"seat": ben, "move": "discard", "card": "8"}]
    for i, entry in enumerate(moves):
        store.append(database, match.id, i, entry, None, tables.feed, replay_fn=tables.replay)
    return store.get_match(database, match.id)


def checked(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(card\d)" value="([^"]*)" required checked', html))


def reveal_scan(client, match, labels, seed=4):
    return upload(client, f"/m/{match.id}/scan", gap_row_photo(labels, seed), move="reveal", **{"for": "Ana"})


def test_GEN_4_a_read_that_differs_from_the_phone_s_own_note_is_marked_before_the_reveal(client, taught, database):
    """Ana peeked at her slot 1 (a 9, only she knows it): her own photo read of 3 there is shown beside
    her note, on her phone only, before it turns into a dispute at the reveal."""
    from .test_cabo_table import shown

    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    moves = [{"move": "turn_up", "card": "2"}, {"seat": "Ana", "move": "initial_peek", "slots": [1, 4],
                                                "seen": ["9", "0"]},
             {"seat": "Ana", "move": "take_discard"}, {"seat": "Ana", "move": "replace", "slot": 3, "out": "6"},
             {"seat": "Ana", "move": "call"}, {"seat": "Ben", "move": "draw"},
             {"seat": "Ben", "move": "discard", "card": "8"}]
    for i, entry in enumerate(moves):
        store.append(database, match.id, i, entry, None, tables.feed, replay_fn=tables.replay)
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    html = reveal_scan(client, match, ["3", "PEEK", "9", "0"]).get_data(as_text=True)
    slot1, slot4 = (html.split(f"<legend>Slot {i}")[1].split("</legend>")[0] for i in (1, 4))
    assert "the photo says 3; you noted 9" in shown(slot1)
    assert "you noted" not in shown(slot4)  # 0, as noted
    # drawn hidden, as the row would read reversed (a photo from across the table): 0 where she noted 9, and
    # 3 where she noted 0
    assert "the photo says 0; you noted 9" in slot1.split("data-reversed")[1]
    assert "the photo says 3; you noted 0" in slot4.split("data-reversed")[1]
    client.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=HX)  # Ben's phone: Ana's note is hers
    bens = reveal_scan(client, match, ["3", "PEEK", "9", "0"]).get_data(as_text=True)
    assert "<legend>Slot 1" in bens and "you noted" not in bens


def test_reveal_scan_fills_the_four_slots_left_to_right(client, taught, seated):
    response = reveal_scan(client, seated, ["3", "PEEK", "9", "0"])
    assert checked(response.get_data(as_text=True)) == {"card1": "3", "card2": "PEEK", "card3": "9", "card4": "0"}


def test_a_row_of_two_cards_or_more_offers_to_turn_its_order_round_and_a_lone_card_does_not(client, taught, seated):
    """Taken from across the table, a row lies the other way round: the button is there when the order is
    the photo's (two cards read or more), not for one card alone."""
    assert "data-reverse-row" in reveal_scan(client, seated, ["3", None, "9", None]).get_data(as_text=True)
    alone = reveal_scan(client, seated, [None, "PEEK", None, None]).get_data(as_text=True)
    assert checked(alone) == {"card2": "PEEK"} and "data-reverse-row" not in alone


def turned_row_scan(client, seated, rotation: int) -> str:
    """Ana's reveal scanned from a photo of her row 1 5 9 0 turned by ``rotation`` (cv2.ROTATE_*)."""
    photo = cv2.imdecode(np.frombuffer(gap_row_photo(["1", "5", "9", "0"]), np.uint8), cv2.IMREAD_COLOR)
    turned = cv2.imencode(".jpg", cv2.rotate(photo, rotation))[1].tobytes()
    return upload(client, f"/m/{seated.id}/scan", turned, move="reveal", **{"for": "Ana"}).get_data(as_text=True)


def test_a_row_photographed_from_across_the_table_fills_the_slots_in_the_players_order(client, taught, seated):
    """Rat-a-Tat Cat's faces show which way up they lie: a row photographed upside down (from the other side
    of the table) is placed from the photo's right, the player's left, and the screen says so."""
    html = turned_row_scan(client, seated, cv2.ROTATE_180)
    assert checked(html) == {"card1": "1", "card2": "5", "card3": "9", "card4": "0"}
    assert "The cards lie upside down in the photo (taken from across the table)" in html
    assert "upside down" not in reveal_scan(client, seated, ["1", "5", "9", "0"]).get_data(as_text=True)


def test_a_row_photographed_turned_a_quarter_fills_the_slots_from_the_top(client, taught, seated):
    html = turned_row_scan(client, seated, cv2.ROTATE_90_CLOCKWISE)
    assert checked(html) == {"card1": "1", "card2": "5", "card3": "9", "card4": "0"}
    assert "The cards lie top to bottom in the photo: they were placed from the top." in html
    assert "top to bottom" not in reveal_scan(client, seated, ["1", "5", "9", "0"]).get_data(as_text=True)


def test_a_read_that_differs_from_what_the_table_knew_is_marked_before_the_reveal(client, taught, database):
    """Ana's slot 3 is the 2 she took from the discard pile (known to all): a photo read of 9 there is
    shown beside what was known, for the player to check before confirming (a misread photo must not
    turn into a dispute without a word)."""
    match = at_reveal(database)
    client.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=HX)
    html = reveal_scan(client, match, ["3", "PEEK", "9", "0"]).get_data(as_text=True)
    slot3 = html.split("<legend>Slot 3")[1].split("</legend>")[0]
    assert "the photo says 9; known as 2" in slot3
    assert "known as" not in html.split("<legend>Slot 1")[1].split("</legend>")[0]


def test_a_photo_of_more_cards_than_the_row_says_so(client, taught, seated):
    """Five cards in the photo of a four-card reveal: the largest four are taken, and the player is told
    to check them (not picked silently)."""
    from tests.web.cardphotos import face

    rng = np.random.default_rng(2)
    scene = synth.background("wood", (1600, 900), rng)
    w, h = synth.CARD_SIZE
    for i, label in enumerate(["3", "PEEK", "9", "0", "5"]):
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([60 + i * 305, 260])
        scene = synth.paste_card(scene, face(label), corners)
    photo = cv2.imencode(".jpg", scene)[1].tobytes()
    response = upload(client, f"/m/{seated.id}/scan", photo, move="reveal", **{"for": "Ana"})
    html = response.get_data(as_text=True)
    assert "The photo shows 5 cards, more than 4: the largest were taken; check they are the right ones." in html


def test_a_card_not_found_leaves_its_own_slot_empty_to_tap(client, taught, seated):
    """2, Swap, (a card not in the photo), 2: the last 2 stays in slot 4, slot 3 is "not found"."""
    html = reveal_scan(client, seated, ["2", "SWAP", None, "2"]).get_data(as_text=True)
    assert checked(html) == {"card1": "2", "card2": "SWAP", "card4": "2"}
    slot3 = html.split("<legend>Slot 3")[1].split("</fieldset>")[0]
    assert "not found: tap it" in slot3 and 'value="2" required>' in slot3
    assert ('Reveal Ana: 2 Swap <span aria-hidden="true">?</span><span class="visually-hidden">unknown card</span> 2'
            in html)  # a screen reader says "unknown card", not "question mark"


def test_a_rescan_replaces_the_previous_result(client, taught, seated):
    first = reveal_scan(client, seated, ["3", "PEEK", "9", "0"]).get_data(as_text=True)
    second = reveal_scan(client, seated, ["3", "PEEK", "9", "1"], seed=5).get_data(as_text=True)
    for html in (first, second):  # one block, swapped over the one it was scanned from
        ids = re.findall(r'\bid="([^"]+)"', html)
        assert html.lstrip().startswith('<div class="reveal-block scan-reveal" id="reveal-Ana">')
        assert len(ids) == len(set(ids)) and html.count("<img") == 1
        assert 'hx-target="#reveal-Ana" hx-swap="outerHTML"' in html
    old, new = (re.search(r'src="(/scan/[^"]+\.jpg)"', h).group(1) for h in (first, second))
    assert client.get(old).status_code == 404  # the previous photo of Ana's row is dropped
    assert client.get(new).status_code == 200
    assert checked(second)["card4"] == "1"


def test_one_scan_and_one_confirmation_reveal_a_player(client, taught, database):
    match = at_reveal(database)
    client.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=HX)
    html = reveal_scan(client, match, ["5", "SWAP", "2", "4"]).get_data(as_text=True)
    form = html.split('class="stack reveal-form scan-reveal-form"')[1].split("</form>")[0]
    assert re.search(r'class="big confirm-reveal">Reveal Ana: 5 Swap 2 4</button>', form)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"(?: required checked)?>', form.replace(' required>', '>')))
    fields.update(checked(form))
    assert {k: fields[k] for k in ("move", "for", "card1", "card2", "card3", "card4")} == {
        "move": "reveal", "for": "Ana", "card1": "5", "card2": "SWAP", "card3": "2", "card4": "4"}
    assert fields["version"] == str(match.version) and fields["key"]
    assert client.post(f"/m/{match.id}/entry", data=fields, headers=HX).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "reveal", "seat": "Ana",
                                                              "cards": ["5", "SWAP", "2", "4"]}


def test_the_rules_drop_an_impossible_read_to_unknown(client, taught, database):
    """Four 8s are already on the discard pile: a fifth 8 is a misread (RTC-K8, GEN-3)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    photo = row_photo(["8"], seed=3)
    before = upload(client, f"/m/{match.id}/scan", photo, move="turn_up", field="card").get_data(as_text=True)
    assert 'read-label">8<' in before  # the same photo reads as an 8 while 8s can still turn up

    moves = [{"move": "turn_up", "card": "8"}]
    for seat, slot in (("Ana", 1), ("Ben", 1), ("Ana", 2)):
        moves += [{"seat": seat, "move": "draw"}, {"seat": seat, "move": "replace", "slot": slot, "out": "8"}]
    for i, entry in enumerate(moves):
        store.append(database, match.id, i, entry, None, tables.feed, replay_fn=tables.replay)
    html = upload(client, f"/m/{match.id}/scan", photo, move="discard", field="card").get_data(as_text=True)
    assert "read-label" not in html and "Not sure which card this is" in html  # found, then dropped
    assert "Read 8, which cannot turn up here (every copy is already on the table" in html  # and said so


def test_untaught_deck_answers_unknown_and_says_why(client, seated):
    html = upload(client, f"/m/{seated.id}/scan", row_photo(["5"]), move="turn_up", field="card").get_data(as_text=True)
    assert "Not sure which card this is" in html or "No card found" in html
    assert "read-label" not in html


def test_a_photo_without_cards_is_unknown(client, taught, seated):
    import cv2
    import numpy as np

    rng = np.random.default_rng(5)
    noise = (rng.random((600, 800, 3)) * 255).astype("uint8")
    jpeg = cv2.imencode(".jpg", noise)[1].tobytes()
    html = upload(client, f"/m/{seated.id}/scan", jpeg, move="turn_up", field="card").get_data(as_text=True)
    assert "read-label" not in html


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


@pytest.mark.parametrize("data,status", [
    (b"", 400),
    (row_photo(["1"])[:2000], 400),                      # truncated JPEG
    (b"these are not the cards you are looking for", 415),  # a text file named .jpg
    (png_header(20000, 20000) + b"\x00" * 100, 413),       # 400 megapixels, refused before decoding
])
def test_bad_uploads_are_clear_4xx_and_nothing_is_kept(client, seated, database, data, status):
    before = len(scans.scans._items)
    response = upload(client, f"/m/{seated.id}/scan", data, move="turn_up", field="card")
    assert response.status_code == status
    assert "<html" in response.get_data(as_text=True) or response.headers.get("HX-Retarget") == "#flash"
    assert "<h1>That photo cannot be used</h1>" in response.get_data(as_text=True)  # not "made no sense"
    assert len(scans.scans._items) == before
    assert database.conn.execute("SELECT count(*) FROM photos").fetchone()[0] == 0


def test_a_30_mb_upload_is_413(client, seated):
    response = upload(client, f"/m/{seated.id}/scan", b"\xff\xd8\xff" + b"\x00" * (30 * 1024 * 1024))
    assert response.status_code == 413
    assert "a photo may be at most 15 MB" in response.get_data(as_text=True)
    assert vision.MAX_BYTES == 15 * 2**20  # the limit those words give


def test_a_photo_just_over_the_limit_is_said_at_its_own_size(client, seated):
    """Only the first 15 MB and a byte are read: the photo is still said at its whole size (was 15.1 MB)."""
    photo = cv2.imencode(".jpg", np.full((120, 160, 3), 200, np.uint8))[1].tobytes()
    response = upload(client, f"/m/{seated.id}/scan", photo + b"\x00" * (15 * 2**20 + 2**19 - len(photo)),
                      move="turn_up", field="card")
    assert response.status_code == 413
    assert "The photo is 15.5 MB; the limit is 15 MB." in response.get_data(as_text=True)


def test_scan_needs_a_photo_and_a_purpose(client, seated):
    assert client.post(f"/m/{seated.id}/scan", data={"move": "turn_up"}, headers=HX).status_code == 400
    assert upload(client, f"/m/{seated.id}/scan", row_photo(["1"]), move="explode").status_code == 400


def test_spectators_cannot_scan(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    watcher = app.test_client()
    response = upload(watcher, f"/m/{match.id}/scan", row_photo(["1"]), move="turn_up", field="card")
    assert response.status_code == 403


def test_photo_kept_only_when_asked(client, taught, seated, database):
    html = upload(client, f"/m/{seated.id}/scan", row_photo(["5"], seed=9), move="turn_up",
                  field="card").get_data(as_text=True)
    token = re.search(r'name="attach" value="([^"]+)"', html).group(1)
    assert database.conn.execute("SELECT count(*) FROM photos").fetchone()[0] == 0
    client.post(f"/m/{seated.id}/entry", data={"version": "0", "move": "turn_up", "card": "5", "attach": token},
                headers=HX)
    assert database.conn.execute("SELECT count(*) FROM photos").fetchone()[0] == 1


def test_expired_overlay_and_teach_token(client, taught):
    assert client.get("/scan/nope.jpg").status_code == 404
    assert client.post(f"{taught}/teach", data={"token": "gone", "label0": "1"}, headers=HX).status_code == 410


def test_deck_errors(client):
    assert client.post("/decks", data={"name": "", "kind": "ratatat"}, headers=HX).status_code == 422
    assert client.post("/decks", data={"name": "X", "kind": "tarot"}, headers=HX).status_code == 422
    assert client.get("/decks/nope").status_code == 404
    deck = client.post("/decks", data={"name": "X", "kind": "ratatat"}, headers=HX).headers["Location"]
    html = upload(client, f"{deck}/photo", row_photo(["1", "2"])).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    bad = client.post(f"{deck}/teach", data={"token": token, "label0": "1", "label1": "QS"}, headers=HX)
    assert bad.status_code == 422


def zero_png(width: int, height: int) -> bytes:
    """An all-black PNG: a few hundred KB that decodes to width × height × 3 bytes."""
    row = b"\x00" * (1 + width * 3)
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    chunk = b"IDAT" + idat
    return (png_header(width, height) + struct.pack(">I", len(idat)) + chunk + struct.pack(">I", zlib.crc32(chunk))
            + struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND")))


def test_a_hostile_png_is_read_at_working_size_and_keeps_no_image(client, seated):
    data = zero_png(6300, 6300)  # 113 KB, 40 megapixels: allowed, but must not be kept whole
    assert len(data) < 200_000
    response = upload(client, f"/m/{seated.id}/scan", data, name="x.png", move="turn_up", field="card")
    assert response.status_code == 200 and "No card found" in response.get_data(as_text=True)
    token = re.search(r'/scan/([^"]+)\.jpg', response.get_data(as_text=True)).group(1)
    scan = scans.scans.get(token)
    assert scan.image is None and max(scan.size) <= 1600
    # two JPEGs at working size (the photo shown back, and the photo as taken, to keep with the entry)
    assert scan.nbytes == len(scan.overlay) + len(scan.plain) < 2_000_000 and max(scan.size) <= 1600


def test_the_scan_store_is_bounded_in_bytes():
    store_ = scans.ScanStore(keep=64, max_bytes=3_000_000)
    image = np.full((1200, 1600, 3), 128, np.uint8)  # 5.8 MB when kept
    kept = store_.put(image, [], keep_image=True)
    assert store_.get(kept.token) is None  # too big for the store on its own: not kept
    tokens = [store_.put(image, [], place=f"p{i}").token for i in range(30)]
    assert store_.nbytes <= 3_000_000 and store_.get(tokens[-1]) is not None
    assert store_.put(image, [], place="p29").token != tokens[-1] and store_.get(tokens[-1]) is None


def test_too_many_photos_at_once_answer_503_with_retry_after(client, seated, monkeypatch):
    monkeypatch.setattr(scans.gate, "timeout", 0.05)
    held = [scans.gate.enter(1) for _ in range(scans.gate.at_once)]  # other phones' photos being read
    try:
        response = upload(client, f"/m/{seated.id}/scan", row_photo(["1"]), move="turn_up", field="card")
    finally:
        for cost in held:
            scans.gate.leave(cost)
    assert response.status_code == 503 and response.headers["Retry-After"] == str(scans.RETRY_AFTER)
    assert "reading other photos" in response.get_data(as_text=True)
    assert upload(client, f"/m/{seated.id}/scan", row_photo(["1"]), move="turn_up", field="card").status_code == 200


def test_a_large_decode_waits_for_the_memory_budget():
    gate = scans.Gate(at_once=3, budget=100, timeout=0.05)
    first = gate.enter(80)
    with pytest.raises(scans.Busy):
        gate.enter(30)  # a free place, but not the memory
    second = gate.enter(20)
    gate.leave(first)
    gate.leave(second)
    assert gate.enter(500) == 100  # more than the whole budget: let in alone
    with pytest.raises(scans.Busy):
        gate.enter(1)


def test_photos_are_shown_only_to_the_phone_that_took_them(app, client, taught, seated):
    html = upload(client, f"/m/{seated.id}/scan", row_photo(["5"], seed=9), move="turn_up",
                  field="card").get_data(as_text=True)
    overlay = re.search(r'src="(/scan/[^"]+\.jpg)"', html).group(1)
    other = app.test_client()
    assert client.get(overlay).status_code == 200
    assert other.get(overlay).status_code == 404
    # Any phone on the LAN may teach the household's deck, but not with another phone's photo.
    teach = upload(client, f"{taught}/photo", row_photo(["1"], seed=2)).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', teach).group(1)
    refused = other.post(f"{taught}/teach", data={"token": token, "label0": "1"}, headers=HX)
    assert refused.status_code == 410
    assert upload(other, f"{taught}/photo", row_photo(["1"], seed=2)).status_code == 200


def test_a_kept_photo_is_shown_in_the_history_to_the_phones_that_may_see_its_entry(app, client, taught, seated,
                                                                                database):
    def scan_token() -> str:
        html = upload(client, f"/m/{seated.id}/scan", row_photo(["5"], seed=9), move="turn_up",
                      field="card").get_data(as_text=True)
        return re.search(r'name="attach" value="([^"]+)"', html).group(1)

    ben = app.test_client()
    ben.post(f"/m/{seated.id}/seat", data={"seat": "1"}, headers=HX)
    watcher = app.test_client()
    # A phone may keep only a photo it took itself.
    assert ben.post(f"/m/{seated.id}/entry", data={"version": "0", "move": "turn_up", "card": "5",
                                                   "attach": scan_token()}, headers=HX).status_code == 200
    assert database.conn.execute("SELECT count(*) FROM photos").fetchone()[0] == 0
    assert client.post(f"/m/{seated.id}/entry", data={
        "version": "1", "move": "correct", "target_entry": "0", "c_move": "turn_up", "c_card": "5",
        "reason": "the photo shows it", "attach": scan_token()}, headers=HX).status_code == 200
    assert database.conn.execute("SELECT count(*) FROM photos").fetchone()[0] == 1
    # A first look is Ana's alone: so is its photo.
    version = store.get_match(database, seated.id).version
    assert client.post(f"/m/{seated.id}/entry", data={"version": str(version), "move": "initial_peek", "slots": "1,4",
                                                      "seen1": "3", "seen2": "8", "attach": scan_token()},
                       headers=HX).status_code == 200
    public, private = [row[0] for row in database.conn.execute("SELECT id FROM photos ORDER BY id")]
    for phone, sees_private in ((client, True), (ben, False), (watcher, False)):
        history = phone.get(f"/m/{seated.id}/history").get_data(as_text=True)
        assert f"/photo/{public}.jpg" in history
        assert (f"/photo/{private}.jpg" in history) is sees_private
        shown = phone.get(f"/m/{seated.id}/photo/{public}.jpg")
        assert shown.status_code == 200 and shown.mimetype == "image/jpeg" and shown.data[:2] == b"\xff\xd8"
        assert phone.get(f"/m/{seated.id}/photo/{private}.jpg").status_code == (200 if sees_private else 403)
    assert client.get(f"/m/{seated.id}/photo/{private + 1}.jpg").status_code == 404
    other = store.create_match(database, "ratatat", ["Cy", "Di"])
    assert client.get(f"/m/{other.id}/photo/{public}.jpg").status_code == 404  # another table's photo


def test_a_name_with_an_apostrophe_gets_its_photo_reveal(client, taught, database):
    """A reveal scanned for D'Angelo replaces his reveal block: its id works as a CSS selector."""
    match = at_reveal(database, "D'Angelo", "Zoe")
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    screen = client.get(f"/m/{match.id}/screen").get_data(as_text=True)
    assert 'id="reveal-D-27-Angelo"' in screen and 'hx-target="#reveal-D-27-Angelo"' in screen
    html = upload(client, f"/m/{match.id}/scan", gap_row_photo(["3", "PEEK", "9", "0"], 4), move="reveal",
                  **{"for": "D'Angelo"}).get_data(as_text=True)
    assert html.lstrip().startswith('<div class="reveal-block scan-reveal" id="reveal-D-27-Angelo">')
    assert checked(html) == {"card1": "3", "card2": "PEEK", "card3": "9", "card4": "0"}


def test_an_outline_that_is_not_a_card_is_marked_so_and_skipped(client, database):
    """A paper lying among the cards is outlined too: the player marks it "not a card" and the others
    are taught, each under its own name."""
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    html = upload(client, f"{deck}/photo", row_photo(["1", "2", "X", "3"], blank_at=2)).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    assert html.count('name="label') == 4 and html.count('<option value="none">Not a card</option>') == 4
    response = client.post(f"{deck}/teach", data={"token": token, "label0": "1", "label1": "2", "label2": "none",
                                                  "label3": "3"}, headers=HX)
    assert response.status_code == 200, response.get_data(as_text=True)[-400:]
    assert "Learnt 1, 2, 3." in response.get_data(as_text=True)
    page = client.get(deck).get_data(as_text=True)
    assert page.count('class="done"') == 3
    # what was taught reads those cards again, in a photo without the paper
    match_photo = row_photo(["3", "1", "2"], seed=7)
    reads = [r.label for r in scans.read_photo(match_photo, "ratatat", decks.references(decks.all_decks(database)[0]),
                                               None).reads]
    assert reads == ["3", "1", "2"]
    # nothing named at all, or a name that is not a face, is still a 422 with a message
    html = upload(client, f"{deck}/photo", row_photo(["1", "X"], blank_at=1)).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    for labels in ({"label0": "none", "label1": "none"}, {"label0": "1", "label1": "<none>"}):
        refused = client.post(f"{deck}/teach", data={"token": token, **labels}, headers=HX)
        assert refused.status_code == 422 and refused.get_data(as_text=True).strip()


def test_each_name_goes_with_the_number_drawn_on_its_card(client, database):
    """The names are taken for the outlines the photo shown back numbered, in that order: teaching
    does not look for the cards again (a search that found them otherwise would swap names)."""
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    html = upload(client, f"{deck}/photo", row_photo(["4", "7", "SWAP"], seed=3)).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    with client.session_transaction() as session:
        kept = scans.scans.get(token, owner=session["device"])
    kept.reads.reverse()  # as if the photo shown back had numbered the row right to left
    response = client.post(f"{deck}/teach", data={"token": token, "label0": "SWAP", "label1": "7", "label2": "4"},
                           headers=HX)
    assert response.status_code == 200, response.get_data(as_text=True)[-400:]
    reads = [r.label for r in scans.read_photo(row_photo(["7", "SWAP", "4"], seed=7), "ratatat",
                                               decks.references(decks.all_decks(database)[0]), None).reads]
    assert reads == ["7", "SWAP", "4"]


def test_two_decks_of_one_kind_are_read_together(client, database, taught):
    """A second taught edition of the deck (a family's old and new box): both serve the tables, merged."""
    other = client.post("/decks", data={"name": "Grandma's", "kind": "ratatat"}, headers=HX).headers["Location"]
    html = upload(client, f"{other}/photo", row_photo(FACES[:2], seed=9)).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    assert client.post(f"{other}/teach", data={"token": token, "label0": FACES[0], "label1": FACES[1]},
                       headers=HX).status_code == 200
    assert len(decks.references_for_kind(database, "ratatat")) == len(FACES) + 2
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    response = upload(client, f"/m/{match.id}/scan", row_photo(["5"], seed=9, kind="cloth"), move="turn_up",
                      field="card")
    assert response.status_code == 200 and re.search(r'read-label">5<', response.get_data(as_text=True))


def scattered_photo(cards: list[tuple[str, int, int]], seed: int = 5) -> bytes:
    """A JPEG of Rat-a-Tat Cat-like cards lying apart, each (label, x, y of its top left corner), on a table."""
    rng = np.random.default_rng(seed)
    scene = synth.background("wood", (1600, 1200), rng)
    w, h = synth.CARD_SIZE
    for label, x0, y0 in cards:
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([x0, y0])
        scene = synth.paste_card(scene, face(label), corners + rng.uniform(-10, 10, (4, 2)).astype(np.float32))
    scene = synth.photo_effects(scene, rng, blur=0.8, glare=False)
    ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


SCATTERED = [("9", 120, 520), ("5", 650, 60), ("0", 1180, 780)]  # left to right 9, 5, 0; by rows 5, 9, 0


def test_the_teaching_photo_numbers_the_cards_as_the_form_does(client, database):
    """The photo shown back numbers each card found (1, 2, 3 in the order of the form's fields "Card 1, 2, 3"),
    no "?": a player who names the cards by those numbers teaches each card under its own name."""
    from tests.vision.test_recognise import number_drawn_at
    import vision

    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    html = upload(client, f"{deck}/photo", scattered_photo(SCATTERED)).get_data(as_text=True)
    assert "3 cards found, numbered as in the photo." in html and "left to right" not in html
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    scan = scans.scans.get(token)
    served = client.get(f"/scan/{token}.jpg").data
    assert served == vision.draw_overlay(scan.image, scan.reads, numbered=True)
    shown = vision.decode_upload(served)
    numbers = [number_drawn_at(shown, r.outline) for r in scan.reads]
    assert numbers == [1, 2, 3] and re.findall(r"Card (\d)", html) == ["1", "2", "3"]
    # the player reads each card's number on the photo and names that field: card n is the one numbered n
    lying = {}
    for read in scan.reads:
        x = np.asarray(read.outline).mean(axis=0)[0]
        lying[number_drawn_at(shown, read.outline)] = min(SCATTERED, key=lambda c: abs(c[1] + 125 - x))[0]
    assert [lying[n] for n in (1, 2, 3)] == ["5", "9", "0"]
    response = client.post(f"{deck}/teach", data={"token": token, **{f"label{n - 1}": lying[n] for n in lying}},
                           headers=HX)
    assert response.status_code == 200 and "Learnt 5, 9, 0." in response.get_data(as_text=True)
    refs = decks.references(decks.all_decks(database)[0])
    assert [r.label for r in scans.read_photo(row_photo(["0", "9", "5"], seed=7), "ratatat", refs, None).reads] == \
        ["0", "9", "5"]


def teach_row(client, deck: str, photo: bytes, labels: list[str]):
    html = upload(client, f"{deck}/photo", photo).get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', html).group(1)
    return client.post(f"{deck}/teach", data={"token": token, **{f"label{i}": g for i, g in enumerate(labels)}},
                       headers=HX)


def forget(client, deck: str, name: str, headers=HX):
    """Forget the face named ``name`` as the deck's page offers it (by its place among the kind's faces)."""
    page = client.get(deck).get_data(as_text=True)
    value = re.search(rf'<option value="(\d+)">{re.escape(name)}</option>', page).group(1)
    return client.post(f"{deck}/forget", data={"face": value}, headers=headers)


def test_a_face_taught_wrong_is_forgotten_and_taught_again(client, database):
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    deck_id = deck.rsplit("/", 1)[1]
    assert teach_row(client, deck, row_photo(["1", "2", "3"], seed=1), ["2", "1", "3"]).status_code == 200  # wrong
    assert teach_row(client, deck, row_photo(["1", "2"], seed=2), ["1", "2"]).status_code == 200

    def read(labels, seed=7):
        refs = decks.references(decks.get(database, deck_id))
        return [r.label for r in scans.read_photo(row_photo(labels, seed=seed), "ratatat", refs, None).reads]

    assert read(["1", "2", "3"]) != ["1", "2", "3"]  # taught again over the wrong teach: still not sure
    page = client.get(deck).get_data(as_text=True)
    assert re.search(r'<select name="face" required>.*<option value="1">1</option>', page)
    for name in ("1", "2"):
        response = forget(client, deck, name)
        assert response.status_code == 200 and f"Forgot {name}" in response.get_data(as_text=True)
    taught = decks.get(database, deck_id)
    assert taught.faces == {"3": 1} and decks.references(taught).labels == ["3"]
    page = client.get(deck).get_data(as_text=True)
    assert 'class="todo">1<' in page and 'class="done">3 ✓<' in page and '<option value="1">' not in page
    assert teach_row(client, deck, row_photo(["1", "2"], seed=2), ["1", "2"]).status_code == 200
    assert read(["1", "2", "3"]) == ["1", "2", "3"]
    # without htmx, the form's answer is the deck's page
    response = forget(client, deck, "3", headers={"Origin": "http://localhost"})
    assert response.status_code == 303 and response.headers["Location"].endswith(deck)
    assert decks.get(database, deck_id).faces == {"1": 1, "2": 1}
    # the deck's page names the faces it offers to forget, never by their codes
    deluxe = client.post("/decks", data={"name": "Deluxe", "kind": "ratatat_deluxe"}, headers=HX).headers["Location"]
    assert teach_row(client, deluxe, row_photo(["DRAW2", "SWAP"], seed=2), ["DRAW2", "SUPERPEEK"]).status_code == 200
    page = client.get(deluxe).get_data(as_text=True)
    assert ">Draw 2</option>" in page and ">Super Peek</option>" in page and "DRAW2" not in page
    assert forget(client, deluxe, "Super Peek").status_code == 200
    assert decks.get(database, deluxe.rsplit("/", 1)[1]).faces == {"DRAW2": 1}


@pytest.mark.parametrize("face", ["", "QS", "4", "13", "14", "99", "999", "-1", "+1", "1.0", " 1", "٣", "1\x00",
                                  "x" * 5000, "9" * 5000, "<script>", "none"])
def test_forgetting_a_face_the_deck_has_not_been_taught_is_refused(client, database, face):
    """A face is sent by its place among the kind's faces ("4": the face 4; 13: the card back; 14: none,
    there are 14 Rat-a-Tat Cat faces): any other value, or a face not taught, is a 422."""
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    assert teach_row(client, deck, row_photo(["1", "2"], seed=2), ["1", "2"]).status_code == 200
    response = client.post(f"{deck}/forget", data={"face": face}, headers=HX)
    assert response.status_code == 422 and response.get_data(as_text=True).strip()
    assert decks.all_decks(database)[0].faces == {"1": 1, "2": 1}


def test_a_deck_is_deleted_after_asking_again(client, database):
    ours = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    other = client.post("/decks", data={"name": "Grandma's", "kind": "ratatat"}, headers=HX).headers["Location"]
    assert teach_row(client, ours, row_photo(["1", "2"], seed=2), ["1", "2"]).status_code == 200
    assert teach_row(client, other, row_photo(["3"], seed=3), ["3"]).status_code == 200
    page = client.get(ours).get_data(as_text=True)
    assert f'href="{ours}/delete"' in page
    # a face only the other deck was taught is not this deck's to forget
    assert client.post(f"{ours}/forget", data={"face": decks.FACES["ratatat"].index("3")}, headers=HX).status_code == 422
    assert decks.get(database, other.rsplit("/", 1)[1]).faces == {"3": 1}
    asking = client.get(f"{ours}/delete").get_data(as_text=True)
    assert f'<form method="post" action="{ours}/delete"' in asking and "Delete the deck" in asking
    assert decks.get(database, ours.rsplit("/", 1)[1]) is not None  # asking deletes nothing
    # another site's form, or none at all, is refused (as every form of the app)
    assert client.post(f"{ours}/delete", headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post(f"{ours}/delete").status_code == 403
    response = client.post(f"{ours}/delete", headers={"Origin": "http://localhost"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/decks")
    assert client.get(ours).status_code == 404 and client.get(f"{ours}/delete").status_code == 404
    assert [d.name for d in decks.all_decks(database)] == ["Grandma's"]
    assert decks.references_for_kind(database, "ratatat").labels == ["3"]  # only the other deck is read
    assert "Ours" not in client.get("/decks").get_data(as_text=True)
    # a deck gone, or one that never was: 404, never a 500
    for url in (ours, "/decks/nope", "/decks/" + "x" * 3000, "/decks/%00"):
        for path, data in (("/delete", {}), ("/forget", {"face": "1"}), ("/photo", {}), ("/teach", {"token": "x"})):
            assert client.post(url + path, data=data, headers=HX).status_code == 404, (url, path)
    assert client.post(f"{other}/forget", data={"face": "3"}, headers={"Origin": "http://evil.example"}).status_code == 403
    assert decks.all_decks(database)[0].faces == {"3": 1}


def test_a_teaching_photo_of_a_bare_table_says_no_card_and_offers_no_name(client):
    """A photo of the table alone is no card to name (naming one was refused: "Found 0 card(s)"); a close-up
    of one card filling the frame is offered a name."""
    deck = client.post("/decks", data={"name": "Ours", "kind": "ratatat"}, headers=HX).headers["Location"]
    table = synth.background("wood", (1200, 900), np.random.default_rng(3))
    html = upload(client, f"{deck}/photo", cv2.imencode(".jpg", table)[1].tobytes()).get_data(as_text=True)
    assert "No card found in the photo" in html and 'name="label0"' not in html
    close_up = cv2.imencode(".jpg", face("7"))[1].tobytes()
    html = upload(client, f"{deck}/photo", close_up).get_data(as_text=True)
    assert 'name="label0"' in html and "No card found" not in html


def test_a_reveal_photo_whose_cards_are_found_but_none_read_says_so_as_no_card_found(client, taught, seated):
    """Cards of another deck lie in the row: outlined, none of them taught. The screen said "0 of the 4 cards
    read; tap the slot marked “not found”", where a photo with nothing in it says "No card found"."""
    html = upload(client, f"/m/{seated.id}/scan", standard_row_photo(["9S", "KD", "4C", "QH"], left=60, step=380),
                  move="reveal", **{"for": "Ana"}).get_data(as_text=True)
    assert "No card found in the photo: pick Ana" in html and "0 of the 4" not in html


def test_a_photo_kept_with_an_entry_names_only_the_cards_entered(app, database):
    """Cambio: the turn-up photographed with two more cards beside it, kept with the entry. The photo kept
    named all three to every phone; it outlines and names only the card entered."""
    from .test_cabo_table import CAMBIO

    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    client = app.test_client()
    assert client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers={"Origin": "http://localhost"}).status_code == 303
    html = upload(client, f"/m/{match.id}/scan", standard_row_photo(["9S", "KD", "4C"], left=100, step=500),
                  move="turn_up", field="card").get_data(as_text=True)
    token = re.search(r'name="attach" value="([^"]+)"', html).group(1)
    scan = scans.scans.get(token)
    assert sorted(r.label for r in scan.reads) == ["4C", "9S", "KD"]
    answer = client.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "KD",
                                                       "attach": token}, headers=HX)
    assert answer.status_code == 200
    kept = bytes(database.conn.execute("SELECT jpeg FROM photos WHERE match_id = ?", (match.id,)).fetchone()[0])
    plain = cv2.imdecode(np.frombuffer(scan.plain, np.uint8), cv2.IMREAD_COLOR)
    assert kept == vision.draw_overlay(plain, [r for r in scan.reads if r.label == "KD"]) != scan.overlay


def test_the_photo_of_an_entry_undone_goes_with_it(client, taught, seated, database):
    """A turn-up confirmed with its photo kept, then undone: the history still offered the photo, and anyone
    could open it. Taken back, the entry's photo is neither offered nor served."""
    html = upload(client, f"/m/{seated.id}/scan", row_photo(["5"], seed=9), move="turn_up",
                  field="card").get_data(as_text=True)
    token = re.search(r'name="attach" value="([^"]+)"', html).group(1)
    client.post(f"/m/{seated.id}/entry", data={"version": "0", "move": "turn_up", "card": "5", "attach": token},
                headers=HX)
    photo_id = database.conn.execute("SELECT id FROM photos").fetchone()[0]
    assert client.get(f"/m/{seated.id}/photo/{photo_id}.jpg").status_code == 200
    assert f"/photo/{photo_id}.jpg" in client.get(f"/m/{seated.id}/history").get_data(as_text=True)
    assert client.post(f"/m/{seated.id}/entry", data={"version": "1", "move": "undo"}, headers=HX).status_code == 200
    assert f"/photo/{photo_id}.jpg" not in client.get(f"/m/{seated.id}/history").get_data(as_text=True)
    gone = client.get(f"/m/{seated.id}/photo/{photo_id}.jpg")
    assert gone.status_code == 404 and "undone" in gone.get_data(as_text=True)
