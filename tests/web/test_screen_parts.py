"""The pieces of a screen built once per language (referee/views/screen_parts.py): each is what the
template wrote before, in the phone's language, and a cached piece never leaks into another language."""
from __future__ import annotations

import re

import pytest

from referee.games import get_game
from referee.views import screen_parts


def in_language(app, lang: str):
    return app.test_request_context("/", headers={"Accept-Language": lang})


@pytest.mark.parametrize("lang, written", [("en", "12,345"), ("it", "12.345"), ("he", "12,345")])
def test_numbers_are_written_the_phones_way_and_cached_per_language(app, lang, written):
    with in_language(app, lang):
        assert screen_parts.number(12345) == written
        assert screen_parts.number(12345) == written  # from the cache
        assert screen_parts.number(2.5) == ("2,5" if lang == "it" else "2.5")  # not a whole number: Babel


def test_card_names_follow_the_language_and_do_not_leak_between_languages(app):
    game = get_game("ratatat")
    cards = ("7", "DRAW2", "PEEK")
    with in_language(app, "it"):
        italian = screen_parts.card_labels_for(game, cards)
    with in_language(app, "en"):
        english = screen_parts.card_labels_for(game, cards)
    assert english == {"7": "7", "DRAW2": "Draw 2", "PEEK": "Peek"}
    assert italian["7"] == "7" and italian["DRAW2"] != "Draw 2"


def test_chips_tick_the_known_card_and_escape_every_name(app):
    with in_language(app, "en"):
        html = str(screen_parts.chips("card2", ["5", "<b>"], {"5": "5", "<b>": "<b>&"}, checked="5"))
    assert html.count('<label class="chip">') == 2
    assert '<input type="radio" name="card2" value="5" required checked>' in html
    assert "<b>" not in html and "&lt;b&gt;&amp;" in html
    with in_language(app, "en"):
        unticked = str(screen_parts.chips("seen1", ["5"], {"5": "5"}, required=False))
    assert "checked" not in unticked and "required" not in unticked


def test_a_face_shows_the_card_unknown_or_what_only_this_phone_knows(app):
    with in_language(app, "en"):
        assert str(screen_parts.card_face("7")) == '<span class="face">7</span>'
        assert str(screen_parts.card_face("PEEK", small=True, marked=("PEEK",))) == '<span class="face power small">Peek</span>'
        mine = str(screen_parts.card_face(None, mine="3"))
        assert screen_parts.card_word(None) == "unknown"
    assert mine == ('<span class="face unknown"><span aria-hidden="true">?</span><span class="visually-hidden">unknown card'
                    '</span><small class="mine" title="only you know this"><span class="visually-hidden">only you know '
                    'this: </span>3</small></span>')  # read aloud "unknown card, only you know this: 3", not "unknown card 3"
    with in_language(app, "he"):
        hebrew = str(screen_parts.card_face(None, mine="3"))
    assert hebrew != mine and 'title="only you know this"' not in hebrew


def test_a_tables_links_are_built_once_and_match_url_for(app):
    with in_language(app, "en"):
        from flask import url_for

        assert screen_parts.table_url("play.pick", match_id="abc") == url_for("play.pick", match_id="abc")
        assert screen_parts.table_url("play.pick", match_id="abc") == "/m/abc/pick"


@pytest.mark.parametrize("value, small, labels, html", [
    ("7H", False, {"7H": "7♥"}, '<span class="face red">7♥</span>'),
    ("QS", True, {"QS": "Q♠"}, '<span class="face small">Q♠</span>'),
    ("10D", False, None, None),  # named by card_name when the screen gives no labels
    (None, False, {}, '<span class="face unknown"><span aria-hidden="true">?</span>'
                      '<span class="visually-hidden">unknown card</span></span>'),
    ("unknown", True, {}, '<span class="face unknown small"><span aria-hidden="true">?</span>'
                          '<span class="visually-hidden">unknown card</span></span>'),
    ("JOKER", False, {"JOKER": "<Joker>"}, '<span class="face">&lt;Joker&gt;</span>'),
])
def test_a_standard_card_face_as_the_games_draw_it(app, value, small, labels, html):
    from referee.i18n_rules import card_name

    template = app.jinja_env.from_string("{{ face(value, small) }}|{% for i in [1] %}{{ face(value, small) }}{% endfor %}")
    with app.test_request_context():
        values = {"value": value, "small": small, **({"labels": labels} if labels is not None else {})}
        drawn = template.render(**values)
    expected = html or f'<span class="face red">{card_name(value)}</span>'
    assert drawn == f"{expected}|{expected}"


def test_a_rank_in_words_is_said_in_each_requests_language(app):
    """``rank_name`` is imported without the page's context (its module is built once): the words still
    follow each request's language."""
    from referee import i18n

    template = app.jinja_env.from_string('{% from "table/_standard_card.html" import rank_name %}'
                                         '{{ rank_name("J") }}|{{ rank_name("7") }}')
    said = {}
    for language in ("en", "it", "en"):
        with app.test_request_context(headers={"Cookie": f"{i18n.COOKIE}={language}"}):
            said.setdefault(language, set()).add(template.render())
    assert said == {"en": {"Jack|7"}, "it": {"Fante|7"}}


def test_a_name_in_an_element_id_needs_no_escaping_and_no_two_names_share_one():
    names = ["D'Angelo", "ג'ני", "Grandma Ruth", "Grandma_Ruth", "Ana", "a.b#c"]
    ids = [screen_parts.dom_id(n) for n in names]
    assert ids[0] == "D-27-Angelo" and ids[4] == "Ana"
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9-]+", i) for i in ids)  # a CSS selector as it stands


UNKNOWN_CARD = '<span aria-hidden="true">?</span><span class="visually-hidden">unknown card</span>'


def test_an_unknown_card_is_read_aloud_as_unknown_card_not_question_mark(app):
    """A "?" face is hidden from screen readers, which read "unknown card" (in the phone's language)."""
    template = app.jinja_env.from_string("{{ face(none) }}|{{ face('unknown', True) }}")
    with in_language(app, "en"):
        assert str(screen_parts.card_face(None)) == f'<span class="face unknown">{UNKNOWN_CARD}</span>'
        assert UNKNOWN_CARD in str(screen_parts.card_face(None, mine="3"))
        assert template.render() == (f'<span class="face unknown">{UNKNOWN_CARD}</span>|'
                                     f'<span class="face unknown small">{UNKNOWN_CARD}</span>')
    with in_language(app, "it"):
        italian = str(screen_parts.card_face(None)) + app.jinja_env.from_string("{{ face(none) }}").render()
    assert "unknown card" not in italian and italian.count('<span aria-hidden="true">?</span>') == 2


def test_every_question_mark_on_a_table_screen_is_named_unknown_card(app, database):
    """Shithead's set-up (face-up cards not yet entered) and a Spite & Malice pay-off top nobody entered."""
    from referee import store

    for game, players in (("shithead", ["Ana", "Ben"]), ("spite_malice", ["Ana", "Ben"])):
        match = store.create_match(database, game, players, {})
        phone = app.test_client()
        phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers={"Origin": "http://localhost"})
        html = phone.get(f"/m/{match.id}").get_data(as_text=True)
        bare = re.findall(r'>\?<', html.replace('<span aria-hidden="true">?</span>', ""))
        assert html.count(UNKNOWN_CARD) or game == "spite_malice", game
        assert bare == [], (game, [m.start() for m in re.finditer(r'>\?<', html)])


@pytest.mark.parametrize("lang, items, said", [
    ("en", [3, 4], "3 and 4"), ("en", ["Ana", "Ben", "Cy"], "Ana, Ben and Cy"),
    ("it", ["Ana", "Ben", "Cy"], "Ana, Ben e Cy"),
    ("it", [3, 4], "3 e 4"),
    ("he", [3, 4], "3 ו־\u20604"),  # Hebrew's "and" is a prefix: a maqaf before a digit (it wrote "3 ו4"),
    ("he", ["Ana", "Ben"], "Ana ו־\u2060Ben"),  # and no line break after it (U+2060, word joiner)
    ("he", ["אנה", "בן"], "אנה ובן")])
def test_a_list_is_joined_by_the_phones_and(app, lang, items, said):
    from flask import render_template_string

    with in_language(app, lang):
        assert render_template_string("{{ items|and_list }}", items=items) == said
