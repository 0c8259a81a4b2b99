"""The phone's language (referee/i18n.py): chosen by the switch (a cookie), else Accept-Language, else
English; each phone at a table its own; Hebrew right to left; hostile switches and cookies; the
catalogues complete and compiled; no template text outside the catalogue."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from markupsafe import Markup

from referee import i18n, store

HX = {"Origin": "http://localhost", "HX-Request": "true"}
POST = {"Origin": "http://localhost"}
ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


def text(response) -> str:
    return response.get_data(as_text=True)


def html_tag(page: str) -> str:
    return re.search(r"<html[^>]*>", page).group(0)


# --- Choosing the language ----------------------------------------------------------------------


def test_english_when_the_phone_says_nothing(client):
    page = text(client.get("/"))
    assert 'lang="en" dir="ltr"' in html_tag(page)
    assert "Join a table" in page


@pytest.mark.parametrize("header, lang, words", [
    ("he-IL,he;q=0.9,en;q=0.5", "he", "הצטרפות לשולחן"),
    ("it-IT,it;q=0.9", "it", "Unisciti a un tavolo"),
    ("fr-FR,fr;q=0.9,it;q=0.4", "it", "Unisciti a un tavolo"),
    ("de-DE", "en", "Join a table"),
])
def test_accept_language_picks_the_best_language_we_have(client, header, lang, words):
    page = text(client.get("/", headers={"Accept-Language": header}))
    assert f'lang="{lang}"' in html_tag(page)
    assert words in page


def test_hebrew_pages_read_right_to_left(client):
    page = text(client.get("/", headers={"Accept-Language": "he"}))
    assert 'dir="rtl"' in html_tag(page)
    assert 'dir="ltr"' in html_tag(text(client.get("/", headers={"Accept-Language": "it"})))


def test_the_switch_is_remembered_and_wins_over_accept_language(client):
    response = client.post("/lang", data={"lang": "it", "next": "/rules/ratatat"}, headers=POST)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/rules/ratatat")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{i18n.COOKIE}=it") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    page = text(client.get("/", headers={"Accept-Language": "he"}))
    assert 'lang="it"' in html_tag(page) and "Unisciti a un tavolo" in page


def test_every_page_offers_the_switch_with_the_current_language_pressed(client):
    page = text(client.get("/rules/ratatat", headers={"Accept-Language": "he"}))
    switch = re.search(r'<form method="post" action="/lang".*?</form>', page, re.S).group(0)
    for code, name in i18n.LANGUAGES.items():
        assert f'value="{code}" lang="{code}"' in switch and name in switch
    assert re.search(r'value="he"[^>]*aria-pressed="true"', switch)
    assert 'name="next" value="/rules/ratatat"' in switch


@pytest.mark.parametrize("value", ["", "fr", "HE", "he ", "x" * 5000, "../../etc", "\x00", "עברית"])
def test_a_hostile_language_switch_is_a_400_with_a_message(client, value):
    response = client.post("/lang", data={"lang": value, "next": "/"}, headers=POST)
    assert response.status_code == 400
    assert "Choose one of the languages offered" in text(response)
    assert "Set-Cookie" not in response.headers or i18n.COOKIE not in response.headers["Set-Cookie"]


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil", "javascript:alert(1)",
                                    "/ok\r\nSet-Cookie: x=1", "", "x" * 3000])
def test_the_switch_goes_back_only_to_a_page_of_this_server(client, target):
    response = client.post("/lang", data={"lang": "he", "next": target}, headers=POST)
    assert response.status_code == 303
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_the_switch_needs_the_apps_own_origin(client):
    assert client.post("/lang", data={"lang": "he"}, headers={"Origin": "http://evil.example"}).status_code == 403


@pytest.mark.parametrize("cookie", ["fr", "", "he\x7f", "x" * 4000, "it;he", "<script>"])
def test_a_hostile_cookie_is_ignored_never_a_500(client, cookie):
    client.set_cookie(i18n.COOKIE, cookie)
    response = client.get("/", headers={"Accept-Language": "it"})
    assert response.status_code == 200
    assert 'lang="it"' in html_tag(text(response))


@pytest.mark.parametrize("header", ["*", ";;;q=", "he;q=abc", "x" * 8000, "it;q=0.1, he;q=0.2"])
def test_a_strange_accept_language_is_never_a_500(client, header):
    response = client.get("/", headers={"Accept-Language": header})
    assert response.status_code == 200


def test_answers_vary_by_language(client):
    vary = client.get("/").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_each_phone_at_a_table_reads_its_own_language(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    phones = {}
    for seat, lang in (("0", "he"), ("1", "it"), ("2", "en")):
        phone = app.test_client()
        assert phone.post(f"/m/{match.id}/seat", data={"seat": seat}, headers=HX).status_code == 303
        assert phone.post("/lang", data={"lang": lang, "next": "/"}, headers=POST).status_code == 303
        phones[lang] = phone
    # The same screen, cached parts included, drawn for each phone in its own language, in turn.
    for _ in range(2):
        he = text(phones["he"].get(f"/m/{match.id}/screen"))
        it = text(phones["it"].get(f"/m/{match.id}/screen"))
        en = text(phones["en"].get(f"/m/{match.id}/screen"))
        assert "סיבוב 1" in he and "Giro 1" in it and "Round 1" in en
        assert "Round 1" not in he and "סיבוב" not in it and "Giro" not in en
    page = text(phones["he"].get(f"/m/{match.id}"))
    assert 'dir="rtl"' in html_tag(page)
    # The slot rows keep the table's order, left to right, and say so.
    assert re.search(r'<ol class="faces" dir="ltr" aria-label="הקלפים של Ana, מקום 1 משמאל ל־Ana">', page)


def test_a_turn_in_hebrew_and_a_refusal_names_its_rule(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    phone = app.test_client()
    phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    phone.set_cookie(i18n.COOKIE, "he")
    screen = text(phone.post(f"/m/{match.id}/entry", data={"version": 0, "move": "turn_up", "card": "5"}, headers=HX))
    assert "תורך, Ana" in screen and "משכו מהקופה" in screen
    refused = phone.post(f"/m/{match.id}/entry", data={"version": 1, "move": "call"}, headers=HX)
    assert refused.status_code == 422
    body = text(refused)
    assert "(RTC-" in body and "REJECT" not in body and "שום דבר לא נשמר." in body


# --- The large-type view ------------------------------------------------------------------------


def test_the_large_type_view_is_a_remembered_switch_or_a_link(client):
    assert 'class="large"' not in html_tag(text(client.get("/")))
    assert 'class="large"' in html_tag(text(client.get("/?large=1")))
    assert 'class="large"' in html_tag(text(client.get("/rules/ratatat")))  # the link is remembered
    assert 'class="large"' not in html_tag(text(client.get("/?large=0")))
    assert 'class="large"' not in html_tag(text(client.get("/")))
    response = client.post("/large", data={"large": "1", "next": "/rules/ratatat?large=0"}, headers=POST)
    assert response.status_code == 303 and response.headers["Location"].endswith("/rules/ratatat")
    assert 'class="large"' in html_tag(text(client.get("/")))
    assert 'class="large"' not in html_tag(text(client.get("/?large=0")))


@pytest.mark.parametrize("value", ["", "2", "yes", "1 ", "x" * 1000])
def test_a_hostile_large_type_switch_is_a_400_with_a_message(client, value):
    response = client.post("/large", data={"large": value}, headers=POST)
    assert response.status_code == 400
    assert "The text size is either large (1) or normal (0)." in text(response)


# --- The catalogues -----------------------------------------------------------------------------

CATALOGUES = sorted(i18n.TRANSLATIONS.glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _catalogue(path: Path):
    with path.open("rb") as handle:
        return read_po(handle, locale=path.parent.parent.name)


def test_every_language_has_its_catalogues():
    langs = {p.parent.parent.name for p in CATALOGUES if p.stem == "messages"}
    assert langs == set(i18n.LANGUAGES) - {i18n.DEFAULT}


@pytest.mark.parametrize("path", [p for p in CATALOGUES if p.stem == "messages"], ids=lambda p: p.parent.parent.name)
def test_no_message_is_untranslated_or_fuzzy(path):
    catalogue = _catalogue(path)
    pot = _catalogue(i18n.TRANSLATIONS / "messages.pot")
    missing = [m.id for m in pot if m.id and (catalogue.get(m.id, m.context) is None)]
    assert not missing, f"not in {path.parent.parent.name}: {missing[:10]}"
    for message in catalogue:
        if not message.id:
            continue
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(forms), f"untranslated: {message.id!r}"
        assert "fuzzy" not in message.flags, f"fuzzy: {message.id!r}"
        english = message.id if isinstance(message.id, str) else message.id[-1]
        for form in forms:  # a translation may leave out %(num)s ("one card"), never add a name
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(english)), (message.id, form)
            assert form.count("<") == english.count("<"), (message.id, form)


# A word the English keeps apart must stay apart in a translation: a phone that says "discard" for a
# Spite & Malice build cannot tell building from ending the turn; one dispute box that says "entry" two
# ways reads as two kinds of thing.
KEPT_APART = {"it": [(re.compile(r"\bbuil(d|ds|t)\b|\bbuilding pile", re.I), re.compile(r"\bscart", re.I)),
                     (re.compile(r"\bentry\b|\bentries\b", re.I), re.compile(r"\bvoc[ei]\b", re.I))],
              "he": [(re.compile(r"\bentry\b|\bentries\b", re.I), re.compile(r"רשומ"))]}


@pytest.mark.parametrize("lang", sorted(KEPT_APART))
def test_a_translation_keeps_apart_the_words_the_english_keeps_apart(lang):
    catalogue = _catalogue(i18n.TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po")
    wrong = []
    for message in catalogue:
        english = message.id if isinstance(message.id, str) else " ".join(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for said, not_as in KEPT_APART[lang]:
            if message.id and said.search(english) and any(not_as.search(f) for f in forms):
                wrong.append((english, forms[0]))
    assert not wrong, wrong[:5]


def test_the_template_of_messages_holds_every_message_of_the_code():
    """The .pot is current: every _("...") of the templates and views is in it (re-extract after an edit)."""
    from babel.messages.extract import extract_from_dir

    pot = _catalogue(i18n.TRANSLATIONS / "messages.pot")
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in pot}
    method_map = [("referee/views/**.py", "python"), ("referee/*.py", "python"), ("templates/**.html", "jinja2")]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT, method_map, keywords={"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "pgettext": ((1, "c"), 2)}):
        found.add(message if isinstance(message, str) else message[0])
    assert not found - known, sorted(found - known)[:10]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_the_compiled_catalogues_match_their_sources(path):
    """A clean clone serves translations without compiling: the .mo beside each .po says the same."""
    mo = path.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: python -m referee.i18n"
    with mo.open("rb") as handle:
        compiled = read_mo(handle)
    source = _catalogue(path)
    expected = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
                for m in source if m.id and (all(m.string) if isinstance(m.string, (list, tuple)) else m.string)}
    got = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string
           for m in compiled if m.id and (m.context, m.id if isinstance(m.id, str) else m.id[0]) in expected}
    assert len(got) == len(expected)
    assert got == expected


# --- No words outside the catalogue -------------------------------------------------------------

# Tokens a template may show as they are: a code's example, a keyword the form accepts, symbols.
ALLOWED_WORDS = {"ABCD", "off"}
# CSS classes and other identifiers that templates pass as string literals.
IDENTIFIER = re.compile(r"^[\w.#:/\-]*( [\w\-]+)*$")


def _text_outside_gettext(source: str) -> list[str]:
    source = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    found = []
    # String literals inside Jinja that are words for people, not inside _() / ngettext().
    for block in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", source, flags=re.S):
        stripped = re.sub(r"\b(?:_|gettext|ngettext|pgettext)\(\s*(['\"]).*?(?<!\\)\1(\s*,\s*(['\"]).*?(?<!\\)\3)?", "_(", block,
                          flags=re.S)
        for quote, literal in re.findall(r"(['\"])((?:(?!\1).)*)\1", stripped):
            words = re.findall(r"[A-Za-z]{2,}", literal)
            if not words:
                continue
            if re.search(r"[A-Z][a-z]{2,}", literal) or (" " in literal.strip() and not IDENTIFIER.match(literal)):
                found.append(literal)
    # Text between tags and in the attributes people read.
    html = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", source, flags=re.S)
    for attribute in re.findall(r'\b(?:placeholder|aria-label|title|alt)="([^"]*)"', html):
        found += [w for w in re.findall(r"[A-Za-z]{2,}", attribute) if w not in ALLOWED_WORDS]
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"<[^>]*>", " ", html)
    html = re.sub(r"&\w+;|&#\d+;", " ", html)
    found += [w for w in re.findall(r"[A-Za-z]{2,}", html) if w not in ALLOWED_WORDS]
    return found


TEMPLATE_FILES = sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_templates_hold_no_words_outside_the_catalogue(path):
    assert _text_outside_gettext(path.read_text()) == []


def test_the_check_itself_finds_words_outside_the_catalogue():
    assert _text_outside_gettext("<p>Hello {{ name }}</p>") == ["Hello"]
    assert _text_outside_gettext("{{ entry_form(a, b, {}, 'Draw a card', 'big') }}") == ["Draw a card"]
    assert _text_outside_gettext('<input placeholder="Your name">') == ["Your", "name"]
    assert _text_outside_gettext("<p>{{ _('Hello %(n)s', n=x) }} {{ ngettext('a card', 'cards', n) }}</p>") == []
    assert _text_outside_gettext("{{ entry_form(a, b, {'move': 'draw'}, _('Draw'), 'secondary small') }}") == []


@pytest.mark.parametrize("source, values, expected", [
    ('{{ _("%(name)s has %(num)d cards", name=who, num=n) }}', {"who": "<b>Al & Bo</b>", "n": 3},
     "&lt;b&gt;Al &amp; Bo&lt;/b&gt; has 3 cards"),
    ('{{ _("%(share).1f%% of %(name)s", share=x, name=who) }}', {"x": 12.34, "who": None}, "12.3% of None"),
    ('{{ _("100%% sure") }}', {}, "100% sure"),
    ('{{ _("Yes, %(name)s calls Rat-a-Tat Cat", name=who) }}', {"who": Markup("<i>Cy</i>")},
     "Yes, <i>Cy</i> calls Rat-a-Tat Cat"),
])
def test_words_put_into_a_template_are_escaped_as_markups_own_percent_does(app, source, values, expected):
    with app.test_request_context("/"):
        out = app.jinja_env.from_string(source).render(**values)
        assert out == expected
        assert out == str(Markup(source.split('"')[1]) % {  # what Markup's own % gives
            k: values[v] for k, v in re.findall(r"(\w+)=(\w+)", source)})


@pytest.mark.parametrize("headers, expected", [
    ({}, "en"),
    ({"Accept-Language": "he-IL,he;q=0.9"}, "he"),
    ({"Accept-Language": "it;q=0.8, en;q=0.5"}, "it"),
    ({"Accept-Language": "fr"}, "en"),
    ({"Cookie": f"{i18n.COOKIE}=he", "Accept-Language": "it"}, "he"),
])
def test_the_page_language_and_flask_babels_locale_agree(app, headers, expected):
    """lang() chooses once per request and hands its Locale to Flask-Babel: both say the same, whichever
    is asked first."""
    from flask_babel import format_decimal, get_locale

    for lang_first in (True, False):
        with app.test_request_context("/", headers=headers):
            if lang_first:
                assert i18n.lang() == expected
                assert get_locale().language == expected
            else:
                assert get_locale().language == expected
                assert i18n.lang() == expected
            assert format_decimal(1234.5) == {"en": "1,234.5", "he": "1,234.5", "it": "1.234,5"}[expected]


def test_a_long_accept_language_is_read_by_its_start_and_kept_short(client):
    """A header far longer than any phone sends picks the language of its start, and the languages kept
    per header (``i18n._accepted``) hold only its first ``ACCEPTED_LENGTH`` characters."""
    for i in range(5):
        page = client.get("/", headers={"Accept-Language": f"it;q=0.9, x{i}-" + "y" * 200_000}).get_data(as_text=True)
        assert 'lang="it"' in page
    assert max(len(header) for header in i18n._accepted) <= i18n.ACCEPTED_LENGTH


def test_power_cards_are_named_as_words_a_reader_expects():
    """Hebrew says one power card as "one" (not "power card no. 1") and a power card replaced "by the card"
    (no prefix glued to a card's name); Italian says "Usa Pesca 2" as it says "Usa Sbircia", one way."""
    from babel.support import Translations

    from referee.i18n import TRANSLATIONS

    he = Translations.load(str(TRANSLATIONS), ["he"], "messages")
    one = he.ngettext("%(num)s power card, to be replaced by a draw at the reveal",
                      "%(num)s power cards, to be replaced by a draw at the reveal", 1) % {"num": 1}
    assert one.startswith("קלף פקודה אחד") and "1" not in one
    replaced = he.gettext("%(name)s's slot %(slot)s power card is replaced by %(card)s.")
    assert (replaced % {"name": "Ana", "slot": 2, "card": "משוך 2"}).endswith("מוחלף בקלף משוך 2.")
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = [it.gettext("Use %(card)s") % {"card": "Pesca 2"},
            it.gettext("Use the Draw 2, draw and note the card (only you will see it)")]
    assert all(s.startswith("Usa Pesca 2") for s in said), said
