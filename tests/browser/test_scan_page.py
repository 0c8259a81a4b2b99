"""Scanning through the page in Chromium: teach a deck from a photo, then scan a card at the table
and confirm it; and the live camera preview (Chromium's fake camera) on a secure origin."""
from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from referee import store
from tests.web.cardphotos import row_photo

pytestmark = pytest.mark.browser


def photo_file(tmp_path, labels, seed=1, kind="wood"):
    path = tmp_path / f"photo-{'-'.join(labels)}-{seed}.jpg"
    path.write_bytes(row_photo(labels, seed=seed, kind=kind))
    return str(path)


def test_teach_then_scan_a_card_and_confirm_it(live_server, phone, database, tmp_path):
    page = phone()
    page.goto(live_server.url + "/decks")
    page.fill("input[name=name]", "Our deck")
    page.click("button:has-text('New deck')")
    page.set_input_files("#teach input[type=file]", photo_file(tmp_path, ["3", "5", "PEEK", "8"]))
    expect(page.locator("#teach-step select")).to_have_count(4, timeout=20_000)
    for i, label in enumerate(["3", "5", "PEEK", "8"]):
        page.select_option(f"select[name=label{i}]", label)
    page.click("button:has-text('Teach these cards')")
    expect(page.locator("#teach-result")).to_contain_text("Learnt 3, 5, Peek, 8")

    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ana')")
    page.click("a:has-text('Turn up the top card')")
    page.set_input_files("#actions .scan-form input[type=file]", photo_file(tmp_path, ["5"], seed=8, kind="cloth"))
    expect(page.locator("#scan-result .read-label")).to_have_text("5", timeout=20_000)
    assert page.locator("#scan-result img.overlay").evaluate("img => img.naturalWidth") > 0
    page.click("button.confirm-scan")
    expect(page.locator("#rows .piles")).to_contain_text("(1)")
    assert store.entries(database, match.id)[0]["entry"] == {"move": "turn_up", "card": "5"}


CAMERA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]


@pytest.fixture
def camera_phone(browser):
    """A phone whose Chromium has a fake camera (launched by the same Playwright as ``browser``)."""
    from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

    with_camera = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + CAMERA_ARGS)
    context = with_camera.new_context(viewport=PHONE, is_mobile=True, has_touch=True, permissions=["camera"])
    yield context.new_page()
    with_camera.close()


def test_live_camera_preview_uploads_a_frame(live_server, camera_phone, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    page = camera_phone
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ana')")
    page.click("a:has-text('Turn up the top card')")
    page.click("#actions .camera-open")
    expect(page.locator(".camera video")).to_be_visible()
    page.locator(".camera video").evaluate(
        "v => new Promise(ok => v.videoWidth ? ok() : v.addEventListener('loadeddata', () => ok(), {once: true}))")
    page.click(".camera-take")
    # Chromium's fake camera shows a test pattern, not a card: the referee says so, and offers the picker.
    expect(page.locator("#scan-result")).to_contain_text(re.compile("No card found|Not sure which card"),
                                                         timeout=20_000)
    assert store.entries(database, match.id) == []


def test_a_camera_error_is_said_in_words_and_offers_the_camera_app(live_server, phone, tmp_path):
    """This Chromium has no camera (and no permission to one): the live preview fails for real."""
    page = phone()
    page.goto(live_server.url + "/decks")
    page.fill("input[name=name]", "Our deck")
    page.click("button:has-text('New deck')")
    page.click("#teach .camera-open")
    status = page.locator(".camera .camera-status")
    expect(status).to_contain_text("The live camera could not start")
    expect(status).to_contain_text("camera app instead")
    expect(page.locator(".camera video")).to_have_count(0)
    expect(page.locator(".camera .camera-take")).to_have_count(0)  # no black panel with a dead button
    with page.expect_file_chooser() as chooser:
        page.click(".camera .camera-app")
    expect(page.locator(".camera")).to_have_count(0)
    chooser.value.set_files(photo_file(tmp_path, ["3", "5"]))
    expect(page.locator("#teach-step select")).to_have_count(2, timeout=20_000)


def test_one_scan_and_one_tap_reveal_a_player(live_server, phone, database, tmp_path):
    from tests.web.test_scan import at_reveal, gap_row_photo

    page = phone()
    page.goto(live_server.url + "/decks")
    page.fill("input[name=name]", "Ours")
    page.click("button:has-text('New deck')")
    taught = tmp_path / "teach.jpg"
    taught.write_bytes(row_photo(["5", "SWAP", "2", "4"], seed=3))
    page.set_input_files("#teach input[type=file]", str(taught))
    for i, label in enumerate(["5", "SWAP", "2", "4"]):
        page.select_option(f"select[name=label{i}]", label)
    page.click("button:has-text('Teach these cards')")
    expect(page.locator("#teach-result")).to_contain_text("Learnt 5, Swap, 2, 4")

    match = at_reveal(database)
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ben')")
    page.click("summary:has-text(\"Enter Ana's cards\")")
    row = tmp_path / "row.jpg"
    row.write_bytes(gap_row_photo(["5", "SWAP", None, "4"]))  # slot 3's card is out of the photo
    page.set_input_files("#reveal-Ana .scan-form input[type=file]", str(row))
    confirm = page.locator("#reveal-Ana button.confirm-reveal")
    # a screen reader hears "unknown card", not "question mark", for the card not found
    expect(confirm).to_have_accessible_name("Reveal Ana: 5 Swap unknown card 4", timeout=20_000)
    expect(confirm.locator("[aria-hidden=true]")).to_have_text("?")
    # ... and sees the "?" set apart from the cards beside it (a button lays its words out as a flex row,
    # which dropped the spaces: "Swap?4")
    gaps = confirm.evaluate("""b => {
      const q = b.querySelector('[aria-hidden=true]'), box = q.getBoundingClientRect();
      const edge = (node, last) => { const r = document.createRange(); r.selectNodeContents(node);
        const rects = [...r.getClientRects()].filter(x => x.width > 0); return last ? rects.at(-1).right : rects[0].left; };
      let after = q.nextSibling;
      while (after && (!after.textContent.trim() || after.classList?.contains('visually-hidden'))) after = after.nextSibling;
      return [box.left - edge(q.previousSibling, true), edge(after, false) - box.right];
    }""")
    assert min(gaps) >= 3, gaps
    page.locator("#reveal-Ana label.chip:has(input[name=card3][value='2'])").click()
    expect(confirm).to_have_text("Reveal Ana: 5 Swap 2 4")
    page.locator("#reveal-Ana label.chip:has(input[name=card3][value='2']) input").evaluate(
        "el => { el.checked = false; el.dispatchEvent(new Event('change', {bubbles: true})); }")
    expect(confirm).to_have_accessible_name("Reveal Ana: 5 Swap unknown card 4")  # rebuilt on the phone alike
    page.locator("#reveal-Ana label.chip:has(input[name=card3][value='2'])").click()
    expect(confirm).to_have_text("Reveal Ana: 5 Swap 2 4")
    expect(page.locator("#reveal-Ana img.overlay")).to_have_count(1)
    confirm.click()
    expect(page.locator("#reveal-Ana button.confirm-reveal")).to_have_count(0)
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "reveal", "seat": "Ana",
                                                             "cards": ["5", "SWAP", "2", "4"]}


def test_a_big_photo_is_scaled_on_the_phone_before_upload(live_server, phone, database, tmp_path):
    """camera.js decodes the chosen photo as a blob image (which the page's CSP must allow) and sends it
    at most 1600 px long as a JPEG: a phone's 12-megapixel photo is not uploaded whole."""
    import cv2

    from tests.web.test_scan import at_reveal, gap_row_photo

    big = cv2.resize(cv2.imdecode(np.frombuffer(gap_row_photo(["5", "SWAP", "2", "4"]), np.uint8),
                                  cv2.IMREAD_COLOR), (4000, 2250))
    path = tmp_path / "big.png"
    cv2.imwrite(str(path), big)
    match = at_reveal(database)
    page = phone()
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script("""document.addEventListener("htmx:beforeRequest", function (e) {
        var input = e.detail.elt.querySelector && e.detail.elt.querySelector("input[type=file]");
        var file = input && input.files && input.files[0];
        if (!file) return;
        createImageBitmap(file).then(function (b) {
          window.sentPhoto = {name: file.name, type: file.type, size: file.size, width: b.width, height: b.height};
        });
    }, true);""")
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ben')")
    page.click("summary:has-text(\"Enter Ana's cards\")")
    page.set_input_files("#reveal-Ana .scan-form input[type=file]", str(path))
    sent = None
    for _ in range(200):  # (wait_for_function evaluates a string: the page's CSP forbids that)
        sent = page.evaluate("window.sentPhoto || null")
        if sent:
            break
        page.wait_for_timeout(100)
    assert sent["name"] == "photo.jpg" and sent["type"] == "image/jpeg", sent
    assert max(sent["width"], sent["height"]) == 1600 and sent["size"] < path.stat().st_size / 4, sent
    assert violations == []


def test_the_camera_buttons_and_errors_speak_the_phones_language(live_server, phone):
    """camera.js adds its buttons and says a camera error in the page's language (Hebrew here)."""
    page = phone("he-IL")
    page.goto(live_server.url + "/decks")
    page.fill("input[name=name]", "החפיסה שלנו")
    page.locator("input[name=name]").press("Enter")
    expect(page.locator("#teach .camera-open")).to_have_text("מצלמה חיה")
    page.click("#teach .camera-open")
    status = page.locator(".camera .camera-status")
    expect(status).to_contain_text("המצלמה החיה לא הצליחה להתחיל")
    expect(page.locator(".camera .camera-app")).to_have_text("פתחו את אפליקציית המצלמה")
    assert "camera" not in status.inner_text()


def test_an_error_said_for_one_photo_goes_when_the_next_is_read(live_server, phone, database, tmp_path):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    page = phone()
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ana')")
    page.click("a:has-text('Turn up the top card')")
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(row_photo(["5"], seed=2)[:3000])  # a photo cut off in the middle
    page.set_input_files("#pick .scan-form input[type=file]", str(broken))
    # said beside the button that sent it, where the player looks, not at the top of the page
    error = page.locator("#pick .scan-form .scan-error[role=alert]")
    expect(error).to_contain_text("damaged or incomplete", timeout=20_000)
    expect(error).to_be_in_viewport()
    expect(page.locator("#flash")).to_have_text("")
    page.set_input_files("#pick .scan-form input[type=file]", photo_file(tmp_path, ["5"]))
    expect(page.locator("#scan-result")).not_to_be_empty(timeout=20_000)
    expect(page.locator(".scan-error")).to_have_count(0)
    expect(page.locator("#flash")).to_have_text("")
