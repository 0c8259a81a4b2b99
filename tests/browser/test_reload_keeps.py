"""What a phone is entering survives a full reload of the table page in the same tab (Chromium, the real
server): a typed draft, an open picker, a refusal with the override reason being typed, and a scan not yet
confirmed with the player's corrections, which is then confirmed as corrected. A table's saved draft never shows on another table's page; a scan whose
photo the server no longer keeps is not put back (the server's own words say the photo is gone), nor one
for an entry another phone made meanwhile (said so, as after a live update)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee import scans, store
from tests.web.test_cabo_table import CAMBIO

from .test_scan_live import ANN, at_cambio_reveal, checked, chip, confirm_records, cy_enters_his_face_up_cards, photo, seated

pytestmark = pytest.mark.browser


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


def cambio_table(database):
    return store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)


def kept_keys(page) -> list[str]:
    return page.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('referee-keep:'))")


def no_broken_images(page) -> bool:
    return page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")


def test_a_typed_first_look_survives_a_reload(live_server, phone, database):
    match = cambio_table(database)
    ana = seated(phone, live_server, match, "Ana")
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("3H")
    note.locator("select[name=seen2]").select_option("9D")
    ana.reload()
    note = ana.locator("details.peek-note")
    expect(note.locator("select[name=seen1]")).to_have_value("3H")
    expect(note.locator("select[name=seen2]")).to_have_value("9D")
    assert note.evaluate("d => d.open")
    assert kept_keys(ana) == []  # taken out once put back
    with ana.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        note.get_by_role("button", name="Save my look").click()
    assert answer.value.status == 200
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "initial_peek"


def test_a_dispute_decision_typed_survives_a_reload(live_server, phone, database):
    from tests.web.test_play import ana_revealed_against_the_known_2

    match, ana, ben = ana_revealed_against_the_known_2(live_server.app, database)
    bens = {"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}
    assert ben.post(move="reveal", **bens).status_code == 200
    page = seated(phone, live_server, match, "One phone for everyone")  # both seats are held by the phones above
    page.wait_for_load_state("load")  # the page's scripts, which keep the draft, have run (a busy machine is slow)
    reason = page.locator("#disputes").get_by_label("What the table decided (recorded)")
    reason.fill("she moved her cards")
    page.reload()
    expect(reason).to_have_value("she moved her cards")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        page.locator("#disputes").get_by_role("button", name="Accept").click()
    assert answer.value.status == 200
    assert "Why: she moved her cards" in page.locator("#decided").inner_text()


def test_an_open_picker_and_what_it_stands_in_for_survive_a_reload(live_server, phone, database):
    match = cambio_table(database)
    ana = seated(phone, live_server, match, "Ana")
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("3H")
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    expect(ana.locator("#pick")).to_have_count(1)
    ana.reload()
    expect(ana.locator("#pick")).to_have_count(1)  # the picker is open again
    ana.locator("#pick").get_by_role("link", name="Back").click()
    expect(ana.locator("#pick")).to_have_count(0)
    note = ana.locator("details.peek-note")
    expect(note.locator("select[name=seen1]")).to_have_value("3H")
    assert note.evaluate("d => d.open")


@pytest.fixture
def shithead(live_server, phone, database):
    match = store.create_match(database, "shithead", ["Ann", "Bo", "Cy"], {})
    return match, seated(phone, live_server, match, "Ann")


def scan_and_correct_face_up(ann, tmp_path):
    block = ann.locator("#faceup-Ann")
    block.locator(".scan-form input[type=file]").set_input_files(photo(tmp_path, ANN))
    expect(block.locator("img.overlay")).to_have_count(1)
    assert sorted(checked(block)) == sorted(ANN)
    chip(block, "QS").click()  # the Q♠ read is a Q♥
    chip(block, "QH").click()
    return block


def test_a_scanned_face_up_correction_survives_a_reload_and_is_confirmed(shithead, database, tmp_path):
    match, ann = shithead
    scan_and_correct_face_up(ann, tmp_path)
    ann.reload()
    block = ann.locator("#faceup-Ann")
    expect(block.locator("img.overlay")).to_have_count(1)
    assert block.locator("img.overlay").evaluate("i => i.complete && i.naturalWidth > 0")
    assert sorted(checked(block)) == sorted(["7H", "QH", "2D"])
    expect(block.locator(".camera-open")).to_have_count(1)  # its live camera button works again (127.0.0.1)
    assert kept_keys(ann) == []
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        block.get_by_role("button", name="These are Ann's face-up cards").click()
    assert answer.value.status == 200, ann.locator("#screen").inner_text()[:400]
    entry = store.entries(database, match.id)[-1]["entry"]
    assert entry["move"] == "faceup" and sorted(entry["cards"]) == sorted(["7H", "QH", "2D"])


def test_a_scanned_cambio_reveal_with_a_correction_survives_a_reload(live_server, phone, database, tmp_path):
    match = at_cambio_reveal(live_server.app, database)
    ana = seated(phone, live_server, match, "Ana")
    block = ana.locator("#reveal-Ana")
    block.locator(".scan-form input[type=file]").set_input_files(
        photo(tmp_path, ["7D", "QS", "2D", "KC"], seed=7, left=60, step=370, top=260))
    confirm = block.locator("button.confirm-reveal")
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♠ 2♦ K♣")
    block.locator("select[name=card2]").select_option("QH")  # the Q♠ read is a Q♥
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♥ 2♦ K♣")
    ana.reload()
    expect(block.locator("img.overlay")).to_have_count(1)
    assert block.locator("select[name=card2]").input_value() == "QH"
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♥ 2♦ K♣")
    confirm_records(ana, confirm, database, match, {"move": "reveal", "seat": "Ana", "cards": ["7D", "QH", "2D", "KC"]})


def test_a_scan_in_a_picker_survives_a_reload(live_server, phone, database, tmp_path):
    match = cambio_table(database)
    ana = seated(phone, live_server, match, "Ana")
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ana.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["10H"]))
    expect(ana.locator("#scan-result .read-label")).to_have_text("10♥")
    ana.reload()
    expect(ana.locator("#pick #scan-result .read-label")).to_have_text("10♥")  # the picker is back, its scan too
    expect(ana.locator("#pick img.overlay")).to_have_count(1)
    confirm_records(ana, ana.locator("#scan-result button.confirm-scan"), database, match,
                    {"move": "turn_up", "card": "10H"})


def test_a_draft_is_kept_for_its_own_table_only(live_server, phone, database):
    first, second = cambio_table(database), cambio_table(database)
    ana = seated(phone, live_server, first, "Ana")
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("3H")
    ana.goto(f"{live_server.url}/m/{second.id}")  # the same tab, another table
    ana.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    ana.locator("#seat-picker").wait_for(state="detached")
    note = ana.locator("details.peek-note")
    expect(note.locator("select[name=seen1]")).to_have_value("unknown")
    assert not note.evaluate("d => d.open")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("9D")
    ana.goto(f"{live_server.url}/m/{first.id}")
    note = ana.locator("details.peek-note")
    expect(note.locator("select[name=seen1]")).to_have_value("3H")  # its own draft, not the other table's
    assert note.evaluate("d => d.open")
    ana.goto(f"{live_server.url}/m/{second.id}")
    expect(ana.locator("details.peek-note select[name=seen1]")).to_have_value("9D")


def test_a_scan_whose_photo_is_gone_is_not_put_back(shithead, database, tmp_path, monkeypatch):
    match, ann = shithead
    scan_and_correct_face_up(ann, tmp_path)
    monkeypatch.setattr(scans.scans, "seconds", 0)  # the server keeps photos for no time at all
    ann.reload()
    expect(ann.locator("#flash")).to_contain_text("That photo is gone")
    block = ann.locator("#faceup-Ann")
    expect(block.locator(".faceup-form")).to_have_count(1)
    expect(ann.locator(".scan-result")).to_have_count(0)
    expect(ann.locator("img.overlay")).to_have_count(0)
    assert no_broken_images(ann)
    assert checked(block) == []  # its corrections went with it: nothing half-entered is left
    assert store.entries(database, match.id) == []


def test_a_scan_not_put_back_after_the_language_changed_is_said_so(shithead, database, tmp_path):
    """A scan box is in the server's words: one taken before the phone's language changed is not put back
    in the old language, and the player is told, in the new one, to scan again."""
    match, ann = shithead
    scan_and_correct_face_up(ann, tmp_path)
    ann.get_by_role("button", name="עברית").click()
    ann.wait_for_url(f"**/m/{match.id}")
    expect(ann.locator("#flash .scan-dropped")).to_have_count(1)
    assert ann.locator("#flash .scan-dropped").inner_text().startswith("הקלפים שסרקתם")
    expect(ann.locator("img.overlay")).to_have_count(0)
    assert store.entries(database, match.id) == []


def test_a_scan_in_a_picker_whose_photo_is_gone_is_not_put_back(live_server, phone, database, tmp_path,
                                                                monkeypatch):
    match = cambio_table(database)
    ana = seated(phone, live_server, match, "Ana")
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ana.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["10H"]))
    expect(ana.locator("#scan-result .read-label")).to_have_text("10♥")
    monkeypatch.setattr(scans.scans, "seconds", 0)
    ana.reload()
    expect(ana.locator("#flash")).to_contain_text("That photo is gone")
    expect(ana.locator("#pick")).to_have_count(1)  # the picker is open again, without the scan
    expect(ana.locator("#pick .scan-form")).to_have_count(1)
    expect(ana.locator("#scan-result button.confirm-scan")).to_have_count(0)
    expect(ana.locator("img.overlay")).to_have_count(0)
    assert no_broken_images(ana)
    assert store.entries(database, match.id) == []


def test_a_scan_for_an_entry_made_meanwhile_is_said_to_be_dropped(shithead, live_server, phone, database, tmp_path):
    match, ann = shithead
    scan_and_correct_face_up(ann, tmp_path)
    ann.locator("nav.links").get_by_role("link", name="Rules").click()  # the scan is kept as the page is left
    ann.wait_for_url("**/rules**")
    cy = seated(phone, live_server, match, "Cy")  # meanwhile another phone enters Ann's face-up cards
    cy.locator("details.other-faceup summary", has_text="Ann").click()
    form = cy.locator("form.faceup-form[data-faceup-for='Ann']")
    for card in ["7H", "QH", "2D"]:
        chip(form, card).click()
    with cy.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        form.get_by_role("button", name="These are Ann's face-up cards").click()
    assert answer.value.status == 200
    ann.goto(f"{live_server.url}/m/{match.id}")
    expect(ann.locator("#flash")).to_contain_text("The cards you scanned were not entered")
    expect(ann.locator("img.overlay")).to_have_count(0)
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["faceup"]


def photo_on_its_way(page, box: str, tmp_path) -> list:
    """Ann's face-up cards photographed in ``box`` and held in the network (the upload on its way): the
    held requests, to let go with ``continue_()``."""
    held = []
    page.route("**/scan", lambda route: held.append(route))
    page.locator(f"{box} .scan-form input[type=file]").set_input_files(photo(tmp_path, ANN))
    while not held:
        page.wait_for_timeout(20)
    return held


def reload_asks(page, asked: list) -> None:
    """A reload asks first: the browser's own question before leaving (dismissed: the page stays)."""
    page.evaluate("location.reload()")
    for _ in range(250):
        if asked:
            break
        page.wait_for_timeout(20)
    assert asked == ["beforeunload"]


def test_a_reload_while_a_photo_is_on_its_way_asks_first(shithead, tmp_path):
    """A photo still being sent cannot be kept across a reload: the browser asks before leaving, and does not
    once the photo is read (its result is then kept as above)."""
    _, ann = shithead
    asked = []
    ann.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    block = ann.locator("#faceup-Ann")
    held = photo_on_its_way(ann, "#faceup-Ann", tmp_path)
    reload_asks(ann, asked)
    expect(block.locator(".scan-progress")).to_be_visible()  # stayed: the photo is still on its way
    held[0].continue_()
    ann.unroute("**/scan")
    expect(block.locator("img.overlay")).to_have_count(1)
    ann.reload()
    assert asked == ["beforeunload"]


def test_a_reload_asks_first_even_when_the_screen_was_redrawn_while_the_photo_is_on_its_way(shithead, live_server,
                                                                                           phone, tmp_path):
    """Another phone's entry redraws the screen while the photo is still being sent: leaving still asks."""
    match, ann = shithead
    cy = seated(phone, live_server, match, "Cy")
    asked = []
    ann.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    held = photo_on_its_way(ann, "#faceup-Ann", tmp_path)
    cy_enters_his_face_up_cards(cy)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")
    reload_asks(ann, asked)
    held[0].continue_()
    ann.unroute("**/scan")
    expect(ann.locator("#faceup-Ann img.overlay")).to_have_count(1)


def draw_out_of_turn(page) -> None:
    """Ben's draw at version 1, before Ana's turn is done, posted from his screen as a button would post it
    (no button offers it: the refusal, GEN-7, is what is tested)."""
    page.evaluate("""() => { const f = document.createElement('form'); f.method = 'post';
        f.setAttribute('hx-post', location.pathname + '/entry'); f.setAttribute('hx-target', '#screen');
        for (const [k, v] of [['version', '1'], ['move', 'draw'], ['for', 'Ben']]) {
          const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; f.appendChild(i); }
        document.getElementById('screen').appendChild(f); htmx.process(f); htmx.trigger(f, 'submit'); }""")


def test_a_refusal_and_the_override_reason_typed_survive_a_reload(live_server, phone, database):
    """Ben's phone enters a draw before Ana's turn is done: refused (GEN-7), with the override offered. The
    reason half typed and the refusal itself come back after a reload, while the table is as it was."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    tables = live_server.app.test_client()
    tables.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers={"Origin": "http://localhost", "HX-Request": "true"})
    assert tables.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"},
                       headers={"Origin": "http://localhost", "HX-Request": "true"}).status_code == 200
    ben = seated(phone, live_server, match, "Ben")
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        draw_out_of_turn(ben)
    assert answer.value.status == 422
    ruling = ben.locator("#ruling")
    expect(ruling).to_contain_text("GEN-7")
    ruling.locator("#override-reason").fill("Ana let Ben go first")
    ben.reload()
    expect(ben.locator("#ruling")).to_contain_text("GEN-7")
    expect(ben.locator("#override-reason")).to_have_value("Ana let Ben go first")
    ben.get_by_role("button", name="Italiano").click()  # a refusal said in English is not shown on an Italian page
    expect(ben.locator("#flash .ruling-dropped")).to_contain_text("Il rifiuto che stavi leggendo era nell’altra lingua")
    assert ben.locator("#ruling").count() == 0
    ben.get_by_role("button", name="English").click()
    ben.locator("#screen [data-version]").wait_for()
    draw_out_of_turn(ben)
    expect(ben.locator("#ruling")).to_contain_text("GEN-7")
    ben.locator("#override-reason").fill("Ana let Ben go first")
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ben.locator("#ruling form.override button").click()
    assert answer.value.status == 200
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "override"
