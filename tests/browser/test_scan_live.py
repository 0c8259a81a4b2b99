"""A scan at a table survives the live updates of the other phones (Chromium, the real server, several
phones): the photo, its reads and the player's corrections stay until the player confirms them; a photo
still being read when another phone's entry arrives is read and shown all the same; a scan for an entry
that can no longer be made is said so in words. The confirm button of a scanned reveal names the cards
chosen; what was typed on the screen is still there after a picker and Back."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee import store, tables
from tests.web.cardphotos import standard_row_photo
from tests.web.test_cabo_table import CAMBIO, CaboPhone
from tests.web.test_scan import taught  # noqa: F401  (a fixture: a Rat-a-Tat Cat deck taught)

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

TIMEOUT = 20_000
ANN = ["7H", "QS", "2D"]
CY = ["9C", "5H", "JD"]


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


def seated(phone, live_server, match, name):
    page = phone()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/m/{match.id}")
    page.locator("#seat-picker").get_by_role("button", name=name, exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    page.wait_for_load_state("load")  # the table page's scripts have run: a tap is htmx's, not the bare form's
    return page


def photo(tmp_path, labels, **kw) -> str:
    path = tmp_path / f"{'-'.join(labels)}.jpg"
    path.write_bytes(standard_row_photo(labels, **kw))
    return str(path)


def chip(scope, card):
    return scope.locator(f"label.chip:has(input[value='{card}'])")


def checked(scope) -> list[str]:
    return scope.locator("input[name=cards]:checked").evaluate_all("els => els.map(e => e.value)")


def confirm_records(phone, confirm, database, match, entry) -> None:
    """Tapping the scan's confirm button records exactly ``entry``."""
    with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        confirm.click()
    assert answer.value.status == 200
    assert store.entries(database, match.id)[-1]["entry"] == entry


def cy_enters_his_face_up_cards(cy):
    form = cy.locator("form.faceup-form[data-faceup-for='Cy']")
    for card in CY:
        chip(form, card).click()
    with cy.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        form.get_by_role("button", name="These are Cy's face-up cards").click()
    assert answer.value.status == 200


@pytest.fixture
def shithead(live_server, phone, database):
    match = store.create_match(database, "shithead", ["Ann", "Bo", "Cy"], {})
    ann, cy = seated(phone, live_server, match, "Ann"), seated(phone, live_server, match, "Cy")
    wait_for_subscribers(match.id, 2)
    return match, ann, cy


def test_a_scan_and_its_correction_survive_another_phones_entry(shithead, database, tmp_path):
    match, ann, cy = shithead
    block = ann.locator("#faceup-Ann")
    block.locator(".scan-form input[type=file]").set_input_files(photo(tmp_path, ANN))
    expect(block.locator("img.overlay")).to_have_count(1)
    assert sorted(checked(block)) == sorted(ANN)
    chip(block, "QS").click()  # the Q♠ read is a Q♥
    chip(block, "QH").click()
    cy_enters_his_face_up_cards(cy)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")  # Cy's entry, live
    expect(block.locator("img.overlay")).to_have_count(1)  # the photo and its reads are still there
    assert sorted(checked(block)) == sorted(["7H", "QH", "2D"])
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        block.get_by_role("button", name="These are Ann's face-up cards").click()
    assert answer.value.status == 200, ann.locator("#screen").inner_text()[:400]
    entry = store.entries(database, match.id)[-1]["entry"]
    assert entry["move"] == "faceup" and sorted(entry["cards"]) == sorted(["7H", "QH", "2D"])


def test_a_photo_still_being_read_across_a_live_update_is_shown_when_read(shithead, database, tmp_path):
    match, ann, cy = shithead
    held = []
    ann.route("**/scan", lambda route: held.append(route))  # the photo is on its way, held in the network
    block = ann.locator("#faceup-Ann")
    block.locator(".scan-form input[type=file]").set_input_files(photo(tmp_path, ANN))
    while not held:
        ann.wait_for_timeout(20)
    expect(block.locator(".scan-progress")).to_be_visible()
    cy_enters_his_face_up_cards(cy)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")
    ann.wait_for_timeout(300)
    expect(block.locator(".scan-progress")).to_be_visible()  # "Reading the photo…" is still said
    held[0].continue_()
    ann.unroute("**/scan")
    expect(block.locator("img.overlay")).to_have_count(1)
    assert sorted(checked(block)) == sorted(ANN)
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        block.get_by_role("button", name="These are Ann's face-up cards").click()
    assert answer.value.status == 200
    assert sorted(store.entries(database, match.id)[-1]["entry"]["cards"]) == sorted(ANN)


def at_cambio_reveal(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    table = CaboPhone(app, match.id, "shared")  # one phone for everyone: the players' own seats stay free
    table.ok(move="turn_up", card="4C")
    table.ok(move="draw", **{"for": "Ana"})
    table.ok(move="discard", card="5S", **{"for": "Ana"})
    table.ok(move="call", **{"for": "Ben"})
    table.ok(move="draw", **{"for": "Ana"})
    assert "Round 1: reveal" in table.ok(move="discard", card="8D", **{"for": "Ana"})
    return match


def ana_scans_her_cambio_reveal(live_server, phone, database, tmp_path):
    """Ana's and Ben's phones at the Cambio reveal; Ana has scanned her row (7♦ Q♠ 2♦ K♣) and not confirmed
    it: (match, its version, Ana's page, Ben's, her reveal block, its confirm button)."""
    match = at_cambio_reveal(live_server.app, database)
    version = store.get_match(database, match.id).version
    ana, ben = seated(phone, live_server, match, "Ana"), seated(phone, live_server, match, "Ben")
    wait_for_subscribers(match.id, 2)
    block = ana.locator("#reveal-Ana")
    block.locator(".scan-form input[type=file]").set_input_files(
        photo(tmp_path, ["7D", "QS", "2D", "KC"], seed=7, left=60, step=370, top=260))
    confirm = block.locator("button.confirm-reveal")
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♠ 2♦ K♣")
    return match, version, ana, ben, block, confirm


def test_a_scanned_cambio_reveal_names_its_cards_and_survives_another_phones_reveal(live_server, phone, database,
                                                                                     tmp_path):
    match, version, ana, ben, block, confirm = ana_scans_her_cambio_reveal(live_server, phone, database, tmp_path)
    block.locator("select[name=card2]").select_option("QH")  # the Q♠ read is a Q♥
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♥ 2♦ K♣")
    for i, card in enumerate(["AS", "2S", "3S", "4S"], start=1):
        ben.locator(f"#reveal-Ben select[name=card{i}]").select_option(card)
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ben.locator("#reveal-Ben").get_by_role("button", name="Reveal Ben").click()
    assert answer.value.status == 200
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", str(version + 1))
    expect(block.locator("img.overlay")).to_have_count(1)
    assert block.locator("select[name=card2]").input_value() == "QH"
    expect(confirm).to_have_text("Reveal Ana: 7♦ Q♥ 2♦ K♣")
    confirm_records(ana, confirm, database, match, {"move": "reveal", "seat": "Ana", "cards": ["7D", "QH", "2D", "KC"]})


@pytest.fixture
def cambio(live_server, phone, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = seated(phone, live_server, match, "Ana"), seated(phone, live_server, match, "Ben")
    wait_for_subscribers(match.id, 2)
    return match, ana, ben


def ben_notes_his_first_look(ben):
    ben.locator("details.peek-note summary").click()
    ben.locator("details.peek-note select[name=seen1]").select_option("5C")
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ben.locator("details.peek-note").get_by_role("button", name="Save my look").click()
    assert answer.value.status == 200


def test_a_scan_in_a_picker_survives_another_phones_entry(cambio, database, tmp_path):
    match, ana, ben = cambio
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ana.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["10H"]))
    expect(ana.locator("#scan-result .read-label")).to_have_text("10♥")
    ben_notes_his_first_look(ben)
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", "1")
    expect(ana.locator("#pick")).to_have_count(1)
    expect(ana.locator("#pick #scan-result .read-label")).to_have_text("10♥")  # the picker is back, its scan too
    with ana.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ana.locator("#scan-result button.confirm-scan").click()
    assert answer.value.status == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "turn_up", "card": "10H"}


def test_a_scan_for_an_entry_another_phone_made_is_said_to_be_dropped(cambio, database, tmp_path):
    match, ana, ben = cambio
    held = []
    ana.route("**/scan", lambda route: held.append(route))
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ana.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["10H"]))
    while not held:
        ana.wait_for_timeout(20)
    ben.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ben.locator("#pick").get_by_role("link", name="5", exact=True).click()
    with ben.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ben.locator("#pick").get_by_role("button", name="5♣", exact=True).click()
    assert answer.value.status == 200
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", "1")
    expect(ana.locator("#flash")).to_contain_text("The cards you scanned were not entered")
    held[0].continue_()
    ana.unroute("**/scan")
    ana.wait_for_timeout(500)
    expect(ana.locator("#scan-result")).to_have_count(0)
    expect(ana.locator("#flash")).to_contain_text("The cards you scanned were not entered")
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up"]


@pytest.mark.parametrize("live", [False, True], ids=["picker-and-back", "live-update-in-the-picker"])
def test_a_first_look_typed_is_still_there_after_a_picker_and_back(cambio, live):
    match, ana, ben = cambio
    note = ana.locator("details.peek-note")
    note.locator("summary").click()
    note.locator("select[name=seen1]").select_option("3H")
    note.locator("select[name=seen2]").select_option("9D")
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    expect(ana.locator("#pick")).to_have_count(1)
    if live:  # another phone's entry redraws the screen meanwhile: the picker comes back, and then Back
        ben_notes_his_first_look(ben)
        expect(ana.locator("#screen-body")).to_have_attribute("data-version", "1")
        expect(ana.locator("#pick")).to_have_count(1)
    ana.locator("#pick").get_by_role("link", name="Back").click()
    expect(ana.locator("#pick")).to_have_count(0)
    note = ana.locator("details.peek-note")
    expect(note.locator("select[name=seen1]")).to_have_value("3H")
    expect(note.locator("select[name=seen2]")).to_have_value("9D")
    assert note.evaluate("d => d.open")


def ben_scans_anas_row(ben, tmp_path):
    """Ben's phone at Rat-a-Tat Cat's reveal scans Ana's row (5 Swap 2 4, read with the taught deck) and
    does not confirm it yet: (her reveal block, its confirm button)."""
    from tests.web.test_scan import gap_row_photo

    ben.locator("summary", has_text="Enter Ana's cards").click()
    row = tmp_path / "row.jpg"
    row.write_bytes(gap_row_photo(["5", "SWAP", "2", "4"]))
    block = ben.locator("#reveal-Ana")
    block.locator(".scan-form input[type=file]").set_input_files(str(row))
    confirm = block.locator("button.confirm-reveal")
    expect(confirm).to_have_text("Reveal Ana: 5 Swap 2 4")
    return block, confirm


def test_a_scanned_rat_a_tat_cat_reveal_survives_another_phones_reveal(live_server, phone, database, taught,
                                                                       tmp_path):
    from tests.web.test_scan import at_reveal

    match = at_reveal(database)
    ana, ben = seated(phone, live_server, match, "Ana"), seated(phone, live_server, match, "Ben")
    wait_for_subscribers(match.id, 2)
    block, confirm = ben_scans_anas_row(ben, tmp_path)
    block.locator("label.chip:has(input[name=card2][value='PEEK'])").click()  # the Swap read is a Peek
    expect(confirm).to_have_text("Reveal Ana: 5 Peek 2 4")
    ana.locator("summary", has_text="Enter Ben's cards").click()
    for i, card in enumerate(["1", "3", "9", "0"], start=1):
        ana.locator(f"#reveal-Ben label.chip:has(input[name=card{i}][value='{card}'])").click()
    with ana.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ana.locator("#reveal-Ben").get_by_role("button", name="Reveal Ben").click()
    assert answer.value.status == 200
    expect(ben.locator("#screen-body")).to_have_attribute("data-version", str(match.version + 1))
    expect(block.locator("img.overlay")).to_have_count(1)
    expect(confirm).to_have_text("Reveal Ana: 5 Peek 2 4")
    confirm_records(ben, confirm, database, match, {"move": "reveal", "seat": "Ana", "cards": ["5", "PEEK", "2", "4"]})


def test_a_scanned_pay_off_top_survives_the_other_players_top(live_server, phone, database, tmp_path):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann, bob = seated(phone, live_server, match, "Ann"), seated(phone, live_server, match, "Bob")
    wait_for_subscribers(match.id, 2)
    ann.locator("#actions").get_by_role("link", name="Enter your pay-off top").click()
    ann.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["9S"]))
    expect(ann.locator("#scan-result button.confirm-scan")).to_have_count(1)
    read = ann.locator("#scan-result .read-label").inner_text()
    bob.locator("#actions").get_by_role("link", name="Enter your pay-off top").click()
    with bob.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        bob.locator("#pick").get_by_role("button", name="4", exact=True).click()
    assert answer.value.status == 200
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")
    expect(ann.locator("#pick #scan-result .read-label")).to_have_text(read)
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ann.locator("#scan-result button.confirm-scan").click()
    assert answer.value.status == 200
    entry = store.entries(database, match.id)[-1]["entry"]
    assert entry["move"] == "top" and entry["seat"] == "Ann" and entry["card"] in ("9", "9S")


def test_a_cambio_row_photographed_from_across_the_table_is_turned_round_by_one_tap(live_server, phone, database,
                                                                                    tmp_path):
    match, version, ana, ben, block, confirm = ana_scans_her_cambio_reveal(live_server, phone, database, tmp_path)
    block.get_by_role("button", name="Photo taken from across the table? Reverse the order").click()
    expect(confirm).to_have_text("Reveal Ana: K♣ 2♦ Q♠ 7♦")
    for i, card in enumerate(["AS", "2S", "3S", "4S"], start=1):
        ben.locator(f"#reveal-Ben select[name=card{i}]").select_option(card)
    ben.locator("#reveal-Ben").get_by_role("button", name="Reveal Ben").click()
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", str(version + 1))
    assert [block.locator(f"select[name=card{i}]").input_value() for i in range(1, 5)] == ["KC", "2D", "QS", "7D"]
    confirm_records(ana, confirm, database, match, {"move": "reveal", "seat": "Ana", "cards": ["KC", "2D", "QS", "7D"]})


def test_a_rat_a_tat_cat_row_is_turned_round_and_back(live_server, phone, database, taught, tmp_path):
    from tests.web.test_scan import at_reveal

    match = at_reveal(database)
    ben = seated(phone, live_server, match, "Ben")
    block, confirm = ben_scans_anas_row(ben, tmp_path)
    turn = block.get_by_role("button", name="Photo taken from across the table? Reverse the order")
    slot3 = block.locator("fieldset.reveal-slot").nth(2).locator("legend")
    expect(slot3).to_have_text("Slot 3", use_inner_text=True)  # the 2 read there is the 2 the table knows she took
    turn.click()
    expect(confirm).to_have_text("Reveal Ana: 4 2 Swap 5")
    expect(ben.locator("#announcer")).to_have_text("Reveal Ana: 4 2 Swap 5")  # said to a screen reader
    # the note beside each slot follows the row (it stayed where it was, about the card read there before)
    expect(slot3).to_have_text("Slot 3 the photo says Swap; known as 2", use_inner_text=True)
    turn.click()
    expect(slot3).to_have_text("Slot 3", use_inner_text=True)
    block.locator("label.chip:has(input[name=card4][value='3'])").click()
    expect(confirm).to_have_text("Reveal Ana: 5 Swap 2 3")
    turn.click()
    expect(confirm).to_have_text("Reveal Ana: 3 2 Swap 5")
    confirm_records(ben, confirm, database, match, {"move": "reveal", "seat": "Ana", "cards": ["3", "2", "SWAP", "5"]})


def test_two_face_up_cards_nobody_saw_are_tapped_and_kept_across_another_phones_entry(shithead, database):
    """GEN-14: a face-up card nobody could see is "?"; there is one "?" chip per face-up card, and which of
    them were ticked survives a live update (chips of the same card are told apart by their place)."""
    match, ann, cy = shithead
    form = ann.locator("form.faceup-form[data-faceup-for='Ann']")
    unseen = form.locator("input[name=cards][value=unknown]")
    expect(unseen).to_have_count(3)
    chip(form, "7H").click()
    form.locator("label.chip:has(input[value=unknown])").nth(1).click()
    form.locator("label.chip:has(input[value=unknown])").nth(2).click()
    mark = form.locator("label.chip:has(input[value=unknown])").nth(1).locator("span[aria-hidden=true]")
    assert mark.evaluate("e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"  # the "?" shows on the tick
    cy_enters_his_face_up_cards(cy)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")
    assert unseen.evaluate_all("els => els.map(e => e.checked)") == [False, True, True]
    with ann.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        form.get_by_role("button", name="These are Ann's face-up cards").click()
    assert answer.value.status == 200, ann.locator("#screen").inner_text()[:400]
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "faceup", "seat": "Ann",
                                                              "cards": ["7H", "unknown", "unknown"]}


def test_cards_tapped_after_a_refused_photo_survive_another_phones_entry(shithead, tmp_path):
    """The file field of a refused photo is not written back when the screen is redrawn (a browser refuses
    that, and the fields after it were once left unrestored, with a script error)."""
    match, ann, cy = shithead
    errors = []
    ann.on("pageerror", lambda err: errors.append(str(err)))
    notes = tmp_path / "notes.jpg"
    notes.write_bytes(b"shopping list: milk, eggs\n" * 20)
    ann.locator("summary", has_text="Enter Bo's face-up cards").click()
    block = ann.locator("#faceup-Bo")
    block.locator(".scan-form input[type=file]").set_input_files(str(notes))
    expect(ann.get_by_text("cannot", exact=False).first).to_be_visible()
    form = ann.locator("form.faceup-form[data-faceup-for='Bo']")
    chip(form, "8C").click()
    chip(form, "9S").click()
    cy_enters_his_face_up_cards(cy)
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "1")
    assert sorted(checked(ann.locator("form.faceup-form[data-faceup-for='Bo']"))) == ["8C", "9S"]
    assert errors == []


def test_a_spite_and_malice_hand_card_is_built_and_discarded_from_photos(live_server, phone, database, tmp_path):
    """A build and a discard by photo: the card read is placed by one tap on the pile or side stack; the
    photo can be taken again after a result (its box keeps its place), and Ann's phone follows."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    for version, entry in enumerate(({"move": "top", "seat": "Ann", "card": "4"}, {"move": "top", "seat": "Bob", "card": "9"})):
        store.append(database, match.id, version, entry, None, tables.feed, replay_fn=tables.replay)
    ann, bob = seated(phone, live_server, match, "Ann"), seated(phone, live_server, match, "Bob")
    wait_for_subscribers(match.id, 2)
    scan_form = bob.locator("#actions .scan-box[data-scan=build] input[type=file]")
    scan_form.set_input_files(photo(tmp_path, ["8D"], seed=5))  # an 8 fits no pile yet
    expect(bob.locator("#scan-build .scan-unknown")).to_contain_text("fits no pile now")
    scan_form.set_input_files(photo(tmp_path, ["AS"]))  # taken again: the answer replaces the last one
    confirm = bob.locator("#scan-build").get_by_role("button", name="Start a new pile")
    confirm_records(bob, confirm, database, match, {"move": "build", "seat": "Bob", "pile": 1, "source": "hand",
                                                    "card": "AS"})
    expect(ann.locator("#screen-body")).to_have_attribute("data-version", "3")
    bob.locator("#actions").get_by_role("link", name="End the turn: a hand card onto a side stack").click()
    bob.locator("#pick .scan-form input[type=file]").set_input_files(photo(tmp_path, ["9D"], seed=5))
    confirm = bob.locator("#scan-result").get_by_role("button", name="Side 1 (new)")
    confirm_records(bob, confirm, database, match, {"move": "discard", "seat": "Bob", "stack": 1, "card": "9D"})
    expect(ann.locator("#actions")).to_contain_text("Build from the hand")


def test_a_card_half_entered_in_a_pickers_second_step_survives_another_phones_entry(cambio, database):
    """Ana drew and is placing the card: place 1, the rank 7, and the suits of the 7 are offered. Ben notes
    his first look meanwhile: Ana's screen is redrawn and she is still at the 7's suits, the keyboard with
    her; one tap enters the card."""
    match, ana, ben = cambio
    ana.locator("#actions").get_by_role("link", name="Turn up the top card").click()
    ana.locator("#pick").get_by_role("link", name="5", exact=True).click()
    with ana.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ana.locator("#pick").get_by_role("button", name="5♣", exact=True).click()
    assert answer.value.status == 200
    ana.locator("#actions").get_by_role("button", name="Draw from the pile").click()
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", "2")
    ana.locator("#actions a[hx-get*='move=replace'][hx-get*='slot=1']").first.click()
    ana.locator("#pick").get_by_role("link", name="7", exact=True).click()
    expect(ana.locator("#pick")).to_contain_text("The 7 of:")
    ben_notes_his_first_look(ben)
    expect(ana.locator("#screen-body")).to_have_attribute("data-version", "3")
    expect(ana.locator("#pick")).to_contain_text("The 7 of:")
    with ana.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        ana.locator("#pick").get_by_role("button", name="7♦", exact=True).click()
    assert answer.value.status == 200
    entry = store.entries(database, match.id)[-1]["entry"]
    assert entry["move"] == "replace" and entry["slot"] == 1 and "7D" in entry.values()
