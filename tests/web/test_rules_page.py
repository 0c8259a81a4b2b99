"""The rules pages: every rule by ID with its anchor, the house rules in words, this table's choices;
the links that rulings use; the house rules on the table screen."""

from __future__ import annotations

import html as htmllib
import re

from referee import store
from referee.games.rulebook import rule_text
from referee.games.ratatat_rules import VARIANTS, WORDS
from referee.views.rules import rule_link, rule_url
from tests.web.test_rulebook import RULES_MD_IDS, cited_by_the_engine

RAW_VALUES = sorted({str(c) for v in VARIANTS for c in v.choices if "_" in str(c)})


def visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", html)))


def test_every_rule_has_its_anchor_and_sentence_on_the_rules_page(client):
    response = client.get("/rules/ratatat")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    text = visible_text(html)
    for rule_id in sorted(cited_by_the_engine() | set(RULES_MD_IDS)):
        assert html.count(f'id="{rule_id}"') == 1, rule_id
        assert rule_text(rule_id) in text, rule_id
    for heading in ("Setting up", "A turn", "Power cards", "Calling and the end of a round",
                    "Scoring and the end of the match", "House rules", "For every game"):
        assert f"<h2>{heading}</h2>" in html, heading
    assert "<script>" not in html and " style=" not in html


def test_the_house_rules_are_in_words_with_the_publishers_marked(client):
    html = client.get("/rules/ratatat").get_data(as_text=True)
    section = visible_text(html[html.index('id="house-rules"'):])
    for raw in RAW_VALUES + ["True", "False", "None"]:
        assert raw not in section, raw
    for key, words in WORDS.items():
        for value_words in words.values():
            assert value_words in section, (key, value_words)
    assert section.count("publisher") >= len(VARIANTS)
    assert "this table" not in section


def test_a_tables_rules_page_marks_what_the_table_chose(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"], {"tie_policy": "no_winner", "rounds_n": 5})
    html = client.get(f"/m/{match.id}/rules").get_data(as_text=True)
    mine = visible_text(html[html.index('id="this-table"'):html.index("<nav")])
    assert "Ties in a round: nobody wins the round (publisher: everyone on the lowest score wins the round)" in mine
    assert "Number of rounds: 5 rounds (publisher: 3 rounds)" in mine
    assert "Draw 2" not in mine  # only what differs (and always the tie rule)
    house = html[html.index('id="house-rules"'):]
    assert re.search(r"nobody wins the round <span class=\"tag\">this table</span>", house)
    assert re.search(r"5 rounds <span class=\"tag\">this table</span>", house)
    assert house.count("this table</span>") == len(VARIANTS)  # every switch shows this table's choice
    plain = store.create_match(database, "ratatat", ["Ann", "Bo"])
    assert "This table plays the publisher's rules." in client.get(f"/m/{plain.id}/rules").get_data(as_text=True)


def test_unknown_games_and_tables_have_no_rules_page(client, database):
    assert client.get("/rules/poker").status_code == 404
    assert client.get("/m/nosuchid/rules").status_code == 404
    odd = store.create_match(database, "ratatat", ["Ann", "Bo"], {"tie_policy": "coin"})
    assert client.get(f"/m/{odd.id}/rules").status_code == 404


def test_rule_links_point_at_the_rule_on_its_page(app, client, database):
    with app.test_request_context():
        assert rule_url("RTC-34") == "/rules/ratatat#RTC-34"
        assert rule_url("GEN-7", "abc123") == "/m/abc123/rules#GEN-7"
        link = rule_link("RTC-V5", "abc123")
        assert link == ('<a class="rule-link" href="/m/abc123/rules#RTC-V5" target="_blank" rel="noopener">'
                        'RTC-V5</a>')
        assert "&lt;" in rule_link("<b>", None)
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    with app.test_request_context():
        url = rule_url("RTC-34", match.id)
    page = client.get(url.split("#")[0])
    assert page.status_code == 200 and 'id="RTC-34"' in page.get_data(as_text=True)


def test_house_rules_on_the_table_screen_are_folded_and_in_words(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"],
                               {"tie_policy": "all_lowest_except_caller", "caller_protected_after_call": True,
                                "game_end_mode": "timed", "minutes": 45})
    html = client.get(f"/m/{match.id}").get_data(as_text=True)
    summary = html[html.index('<details class="rules-summary"'):]
    summary = summary[:summary.index("</details>")]
    assert '<details class="rules-summary">' in summary  # folded
    text = visible_text(summary)
    assert "Ties in a round: everyone on the lowest score wins, but a caller who ties loses" in text
    assert "The caller's cards after the call: are locked, so nobody may swap them" in text
    assert "Minutes of play: 45 minutes" in text and "Number of rounds" not in text
    for raw in RAW_VALUES + ["True", "False", "None"]:
        assert raw not in text, raw
    assert f'href="/m/{match.id}/rules"' in summary


def test_the_shithead_rules_page_has_every_rule_of_section_4_and_its_house_rules_in_words(client):
    from referee.games import shithead

    ids = ([f"SH-{n}" for n in (*range(1, 6), *range(10, 21), *range(30, 38), *range(40, 44), *range(50, 54))]
           + [f"SH-K{n}" for n in range(1, 12)])  # every SH rule of RULES.md §4
    html = client.get("/rules/shithead").get_data(as_text=True)
    text = visible_text(html)
    for rule_id in sorted(set(ids) | {v.rule for v in shithead.VARIANTS} | {"SH-40", "SH-41", "SH-43"}):
        assert html.count(f'id="{rule_id}"') == 1, rule_id
        assert shithead.rule_text(rule_id) in text, rule_id
    section = visible_text(html[html.index('id="house-rules"'):])
    for raw in ("last_is_loser", "first_out_wins", "one_at_a_time", "True", "False", "None"):
        assert raw not in section, raw


def test_the_spite_malice_rules_page_has_every_rule_of_section_3_and_its_house_rules_in_words(client):
    from referee.games import spite_malice

    ids = ([f"SM-{n}" for n in (*range(1, 8), *range(10, 24), *range(40, 44))]
           + [f"SM-K{n}" for n in range(1, 10)])  # every SM rule of RULES.md §3
    html = client.get("/rules/spite_malice").get_data(as_text=True)
    text = visible_text(html)
    for rule_id in sorted(set(ids) | {v.rule for v in spite_malice.VARIANTS}):
        assert html.count(f'id="{rule_id}"') == 1, rule_id
        assert spite_malice.rule_text(rule_id) in text, rule_id
    section = visible_text(html[html.index('id="house-rules"'):])
    for raw in ("fewest_payoff_wins", "pagat_5_plus", "start_of_turn", "True", "False", "None"):
        assert raw not in section, raw


def test_no_anchor_is_given_twice_on_any_games_rules_pages(client, database):
    """Cabo's next-round switch is named after the rule it changes (CAB-45), which the rule book states
    too: a link to CAB-45 lands on the rule, and the page holds each id once."""
    for game in ("ratatat", "shithead", "spite_malice", "cabo"):
        match = store.create_match(database, game, ["Ana", "Ben"], {})
        for path in (f"/rules/{game}", f"/m/{match.id}/rules"):
            ids = re.findall(r'\sid="([^"]+)"', client.get(path).get_data(as_text=True))
            assert len(ids) > 20
            assert sorted(i for i in set(ids) if ids.count(i) > 1) == [], path
    cabo = client.get("/rules/cabo").get_data(as_text=True)
    assert 'id="CAB-45"><dt class="rule-id">CAB-45</dt><dd>Cabo: the last round' in cabo
