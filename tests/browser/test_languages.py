"""A Rat-a-Tat Cat round at one table on three phones, each in its own language: Ana's in Hebrew (right to
left), Ben's in Italian, Cy's in English (issue 14). Every entry is a tap in the phone's own words; the
Hebrew screen mirrors while the slot rows keep the table's order (slot 1 leftmost, as it lies at the
owner's left); the round ends in a reveal scored on every phone.

Phone-sized screenshots (390 px wide) of the turn screen and the reveal in Hebrew and in Italian are written
to benchmarks/out/ (not in the repository), as the English ones are by test_round.py; docs/screens/ holds
copies: turn-screen-he.png, turn-screen-it.png, reveal-screen-he.png, reveal-screen-it.png."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee import store, tables

from .conftest import wait_for_subscribers
from .test_round import Phone

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
NAMES = ("turn-screen-he.png", "turn-screen-it.png", "reveal-screen-he.png", "reveal-screen-it.png")


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 60.0}


def seated(phone, live_server, match, name: str, locale: str) -> Phone:
    player = Phone(phone(locale), name)
    player.page.goto(f"{live_server.url}/m/{match.id}")
    player.page.locator("#seat-picker").get_by_role("button", name=name, exact=True).click()
    player.page.locator("#seat-picker").wait_for(state="detached")
    return player


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None
    return found


def reveal(p: Phone, seat: str, cards: list[str], button: str) -> int:
    form = p.page.locator(f"form.reveal-form:has(input[name=for][value='{seat}'])")
    for i, card in enumerate(cards, start=1):
        form.locator(f"label.chip:has(input[name=card{i}][value='{card}'])").click()
    return p._entry(form.get_by_role("button", name=button).click)


def test_a_round_with_a_phone_in_hebrew_one_in_italian_one_in_english(live_server, phone, database):
    SHOTS.mkdir(parents=True, exist_ok=True)
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana = seated(phone, live_server, match, "Ana", "he-IL")
    ben = seated(phone, live_server, match, "Ben", "it-IT")
    cy = seated(phone, live_server, match, "Cy", "en-US")
    wait_for_subscribers(match.id, 3)
    assert ana.page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    assert ben.page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["it", "ltr"]
    assert "אתם רושמים בשם Ana" in ana.page.locator("#screen").inner_text()
    assert "Registri per Ben" in ben.page.locator("#screen").inner_text()
    assert "You enter for Cy" in cy.page.locator("#screen").inner_text()

    # Ana turns up a 5, in Hebrew; the others see it live, each in their own words
    ana.open("הפכו את הקלף העליון")
    assert ana.choose("5") == 200
    ana.status("תורך, Ana")
    ben.status("Tocca a Ana")
    cy.status("Ana's turn")
    # Screen readers are told of the turn change by a region the redraw never replaces
    ben.page.wait_for_function("document.getElementById('announcer').textContent.includes('Tocca a Ana')")
    cy.page.wait_for_function("document.getElementById('announcer').textContent.includes(\"Ana's turn\")")

    # Ana draws: the Hebrew turn screen, mirrored, with the slots in the table's order
    assert ana.press("משכו מהקופה") == 200
    ben.page.locator("section.status", has_text="Ana ha in mano una carta del mazzo").wait_for()
    page = ana.page
    assert page.evaluate("getComputedStyle(document.querySelector('#status')).direction") == "rtl"
    card = box(page.locator("section.status"))
    status = box(page.locator("#status"))
    assert card["x"] + card["width"] - (status["x"] + status["width"]) < 24  # the heading starts at the right
    row = page.locator("#rows .row[data-player='Ana']")
    name, known = box(row.locator(".who bdi").first), box(row.locator(".who .muted"))
    assert known["x"] < name["x"]  # the subtotal mirrors to the far (left) side
    faces = row.locator("ol.faces")
    assert faces.get_attribute("dir") == "ltr"
    assert "מקום 1 משמאל ל־Ana" in faces.get_attribute("aria-label")
    numbers = faces.locator(".slot-number")
    assert numbers.all_inner_texts() == ["1", "2", "3", "4"]
    xs = [box(numbers.nth(i))["x"] for i in range(4)]
    assert xs == sorted(xs), "slot 1 is drawn leftmost, as it lies at the table"
    buttons = page.locator("#actions .slots-grid a.button")
    assert buttons.all_inner_texts() == ["מקום 1", "מקום 2", "מקום 3", "מקום 4"]
    bx = [box(buttons.nth(i))["x"] for i in range(4)]
    assert bx == sorted(bx)
    assert "Slots are numbered" not in page.locator("#rows").inner_text()
    assert "המקומות ממוספרים 1–4 משמאלו של כל שחקן" in page.locator("#rows").inner_text()
    page.screenshot(path=str(SHOTS / "turn-screen-he.png"))

    ana.open("מקום 2")
    assert "איזה קלף יצא ממקום 2?" in ana.page.locator("#pick").inner_text()
    assert ana.choose("8") == 200
    ben.status("Tocca a te, Ben")

    # Ben discards a 6, in Italian: his turn screen once he holds the card drawn
    assert ben.press("Pesca dal mazzo") == 200
    ana.page.locator("section.status", has_text="Ben").wait_for()
    ben.page.evaluate("window.scrollTo(0, 0)")
    assert ben.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # long Italian words fit
    slots = ben.page.locator("#actions .slots-grid a.button")
    assert slots.all_inner_texts() == ["Posizione 1", "Posizione 2", "Posizione 3", "Posizione 4"]
    assert all(box(slots.nth(i))["x"] + box(slots.nth(i))["width"] <= 390 for i in range(4))
    ben.page.screenshot(path=str(SHOTS / "turn-screen-it.png"))
    ben.open("Scartala scoperta")
    assert ben.choose("6") == 200
    cy.status("Your turn, Cy")

    # Cy discards a 7, in English
    assert cy.press("Draw from the pile") == 200
    cy.open("Discard it face up")
    assert cy.choose("7") == 200
    ana.status("תורך, Ana")

    # Ana discards a 9 and calls, in Hebrew
    assert ana.press("משכו מהקופה") == 200
    ana.open("זרקו אותו גלוי")
    assert ana.choose("9") == 200
    ana.page.locator("#actions summary", has_text="לקרוא „חתחתול!”").click()
    assert ana.press("כן, Ana קורא/ת חתחתול") == 200
    ben.page.locator("#final-turns", has_text="Ana ha chiamato Rat-a-Tat Cat — restano 2 turni").wait_for()
    cy.page.locator("#final-turns", has_text="Ana called Rat-a-Tat Cat — 2 turns left").wait_for()

    assert ben.press("Pesca dal mazzo") == 200
    ben.open("Scartala scoperta")
    assert ben.choose("4") == 200
    assert cy.press("Draw from the pile") == 200
    cy.open("Discard it face up")
    assert cy.choose("3") == 200

    # The reveal: each phone enters its own four cards in its own language
    ben.status("Giro 1: si scoprono le carte")
    ana.status("סיבוב 1: חשיפה")
    assert reveal(ana, "Ana", ["1", "2", "0", "1"], "לחשוף את Ana") == 200
    assert reveal(cy, "Cy", ["2", "3", "0", "1"], "Reveal Cy") == 200
    ben.page.locator(".reveal-block strong", has_text="Le carte di Ben, posizione 1 alla sinistra di Ben").wait_for()
    assert reveal(ben, "Ben", ["0", "2", "3", "1"], "Scopri Ben") == 200
    ben.status("Partita finita")
    ben.page.locator("#last-round h2", has_text=re.compile(r"^Giro 1: vince Ana$")).wait_for()
    ana.page.locator("#last-round h2", has_text="סיבוב 1: Ana מנצח/ת").wait_for()
    cy.page.locator("#last-round h2", has_text="Round 1: Ana wins").wait_for()
    assert "Totale" in ben.page.locator("#all-rounds").inner_text() if ben.page.locator("#all-rounds").count() else True
    ben.page.locator("#last-round p", has_text="Ana ha il punteggio più basso, 4, e vince il giro (RTC-51).").wait_for()
    ana.page.locator(".outcome", has_text="Ana מנצח/ת במשחק עם 4 (הסכום הנמוך ביותר אחרי סיבוב אחד, RTC-53).").wait_for()
    for p, name in ((ben, "reveal-screen-it.png"), (ana, "reveal-screen-he.png")):
        p.page.evaluate("window.scrollTo(0, 0)")  # the round's result comes first
        p.page.locator("#last-round").scroll_into_view_if_needed()
        p.page.screenshot(path=str(SHOTS / name))
    for name in NAMES:
        assert (SHOTS / name).stat().st_size > 10_000


def test_the_switch_and_the_large_type_view_on_a_phone(live_server, phone, database):
    """A phone's language and text size are its own, chosen with the switch on every page and kept."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    cy = seated(phone, live_server, match, "Ana", "en-US")
    page = cy.page
    page.get_by_role("button", name="עברית").click()
    page.wait_for_url(f"**/m/{match.id}")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    page.locator("#status", has_text="סיבוב 1").wait_for()
    small = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    page.get_by_role("button", name="טקסט גדול").click()
    page.wait_for_url(f"**/m/{match.id}")
    assert page.evaluate("document.documentElement.classList.contains('large')")
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") > small * 1.3
    assert page.get_by_role("button", name="טקסט גדול").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing spills sideways
    page.goto(f"{live_server.url}/rules/ratatat")  # both remembered on another page
    assert page.evaluate("document.documentElement.lang") == "he"
    assert page.evaluate("document.documentElement.classList.contains('large')")
    page.get_by_role("button", name="Italiano").click()
    page.wait_for_url("**/rules/ratatat")
    assert page.locator("h1").inner_text() == "Rat-a-Tat Cat: le regole"
    # keyboard: the skip link comes first and shows itself when focused
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").bounding_box()["y"] >= 0


def test_a_chart_legend_reads_after_its_colour_in_hebrew(phone):
    """On a right-to-left page a chart's legend words start just right of their colour squares (as in
    English), never over them or cut off at the chart's edge."""
    from referee import charts

    svg = charts.line_chart("סיכומים", ["1", "2"], [charts.Series("ניצח/ה", [3, 5]), charts.Series("Ana", [4, 2]),
                                                    charts.Series("Cy", [1, 1])], chart_id="rt")
    page = phone("he-IL")
    page.set_content(f'<!doctype html><html lang="he" dir="rtl"><body style="width:340px">{svg}</body></html>')
    boxes = page.evaluate("""() => [...document.querySelectorAll('svg text')].filter(t => t.previousElementSibling
        && t.previousElementSibling.tagName === 'rect' && t.previousElementSibling.getAttribute('width') === '10')
        .map(t => [t.previousElementSibling.getBBox().x, t.getBBox().x])""")
    assert len(boxes) == 3
    assert all(text_x >= square_x + 10 for square_x, text_x in boxes), boxes


def test_a_scored_round_fits_a_small_phone_in_large_type(live_server, phone, database):
    """The round just scored (each player's cards and score) stays inside its card at 360 px in large type:
    the cards wrap instead of pushing the scores out of sight."""
    from .test_accessibility import replayed

    match = replayed(database, "cabo-scoring.json", None)
    player = seated(phone, live_server, match, "Ana", "en-US")
    page = player.page
    page.set_viewport_size({"width": 360, "height": 740})
    page.get_by_role("button", name="Large type").click()
    page.wait_for_url(f"**/m/{match.id}")
    assert page.evaluate("document.documentElement.classList.contains('large')")
    card = page.locator("#last-round")
    card.wait_for()
    assert page.evaluate("(() => { const c = document.querySelector('#last-round');"
                         " return c.scrollWidth <= c.clientWidth + 1; })()")
    score = card.locator("td.num").first
    assert box(score)["x"] + box(score)["width"] <= 360


@pytest.mark.parametrize("locale", ["he-IL", "en-US"])
def test_the_four_slot_buttons_fit_the_narrowest_phone(live_server, phone, database, locale):
    """Holding a card at 320 px: the four "Slot 1–4" buttons (Hebrew "מקום 4" the widest) stay on the page."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    for version, entry in enumerate([{"move": "turn_up", "card": "5"}, {"move": "draw", "seat": "Ana"}]):
        tables.append(database, match.id, version, entry, None, seat=0)
    player = seated(phone, live_server, match, "Ana", locale)
    page = player.page
    page.set_viewport_size({"width": 320, "height": 640})
    page.reload()
    buttons = page.locator("#actions .slots-grid .button, #actions .slots-grid button")
    buttons.first.wait_for()
    assert buttons.count() >= 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    for i in range(buttons.count()):
        b = box(buttons.nth(i))
        assert b["x"] >= 0 and b["x"] + b["width"] <= 320


def test_a_screen_reader_hears_another_phones_entry_and_an_undone_call(live_server, phone, database):
    """Ben's phone says what Ana entered when her entry redraws his screen, as the history says it; her call
    taken back is said too ("Undone: …"), so nobody is left counting turns of a call that no longer stands.
    Ana's own phone does not read her own entries back to her."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    for version, entry in enumerate(({"move": "turn_up", "card": "5"}, {"move": "draw", "seat": "Ana"},
                                     {"move": "discard", "seat": "Ana", "card": "6"})):
        store.append(database, match.id, version, entry, None, tables.feed, replay_fn=tables.replay)
    ana = seated(phone, live_server, match, "Ana", "en-US")
    ben = seated(phone, live_server, match, "Ben", "it-IT")
    wait_for_subscribers(match.id, 2)
    assert ana.call() == 200
    announced = ben.page.locator("#announcer")
    expect(announced).to_contain_text("Ultima registrazione: ")
    expect(announced).to_contain_text("Ana")
    assert "Last entry" not in ana.page.locator("#announcer").text_content()
    assert ana.press("Undo: Ana calls Rat-a-Tat Cat!") == 200
    expect(announced).to_contain_text("Annullata: ")
    assert "Ultima registrazione" not in announced.text_content()  # an undo is said as what it took back
