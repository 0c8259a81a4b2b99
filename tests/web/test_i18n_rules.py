"""The engines' words in the phone's language (referee/i18n_rules.py): the rule book by rule ID, the
house-rule switches, presets, card names and Rat-a-Tat Cat's entries; the engines stay free of gettext."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from markupsafe import escape

from referee import i18n, i18n_rules, store
from referee.games import GAMES
from referee.games.rulebook import GENERAL

HX = {"Origin": "http://localhost", "HX-Request": "true"}
ROOT = Path(__file__).resolve().parents[2]


def text(response) -> str:
    return response.get_data(as_text=True)


def _catalogue(path: Path):
    with path.open("rb") as handle:
        return read_po(handle, locale=path.parent.parent.name if path.suffix == ".po" else None)


def test_the_engines_never_import_a_translation_library():
    for path in (ROOT / "referee" / "games").glob("*.py"):
        source = path.read_text()
        assert not re.search(r"^\s*(from|import)\s+(flask|flask_babel|babel)\b", source, re.M), path.name


@pytest.mark.parametrize("domain", ["messages", "rules"])
def test_no_words_a_phone_shows_call_a_source_the_seed(domain):
    """"The seed" is the rule book of record's own name for the document a game was first written from;
    at the table it means nothing. Players read which one: Hebrew Wikipedia, or the Italian guide."""
    pot = _catalogue(i18n.TRANSLATIONS / f"{domain}.pot")
    said = [" ".join(m.id) if isinstance(m.id, tuple) else m.id for m in pot if m.id]
    assert len(said) > 100
    assert [words for words in said if re.search(r"\bseed\b", words, re.I)] == []


@pytest.mark.parametrize("game, published", [("ratatat", True), ("cabo", True), ("shithead", False),
                                             ("spite_malice", False)])
@pytest.mark.parametrize("language, publisher, standard", [("en", "publisher", "standard"), ("it", "editore", "di base")])
def test_only_a_published_games_rules_are_called_the_publishers(client, database, game, published, language,
                                                                 publisher, standard):
    """Shithead and Spite & Malice have no publisher: their first choices are the standard rules, on the
    rules page, a table's rules page and the new-table form alike."""
    match = store.create_match(database, game, ["Ana", "Ben"], {})
    for path in (f"/rules/{game}", f"/m/{match.id}/rules", f"/new/{game}"):
        page = text(client.get(path, headers={"Accept-Language": language}))
        tags = set(re.findall(r'<span class="tag">([^<]*)</span>', page)) - {"this table", "questo tavolo"}
        marks = set(re.findall(r"\((publisher|standard|editore|di base)\)</option>", page))
        assert tags | marks == {publisher if published else standard}, (path, tags, marks)
        assert marks or not path.startswith("/new/"), path
        assert (publisher in page) == published, path


def test_the_rules_catalogue_template_is_current():
    """rules.pot holds every sentence the engines can show (python -m referee.i18n_rules rewrites it)."""
    pot = _catalogue(i18n.TRANSLATIONS / "rules.pot")
    in_pot = {(m.context, m.id) for m in pot if m.id}
    assert {(c, e) for c, e, _ in i18n_rules.messages()} == in_pot


@pytest.mark.parametrize("lang", ["he", "it"])
def test_every_rule_book_is_complete(lang):
    """Every sentence of every game's rule book, every switch, value and preset has a translation."""
    catalogue = _catalogue(i18n.TRANSLATIONS / lang / "LC_MESSAGES" / "rules.po")
    wanted = {(c, e) for c, e, _ in i18n_rules.messages()}
    done = {(m.context, m.id) for m in catalogue if m.id and m.string and "fuzzy" not in m.flags}
    assert wanted <= done, sorted(wanted - done)[:5]
    for m in catalogue:
        if m.string:
            assert set(re.findall(r"\{\w+\}", m.string)) <= set(re.findall(r"\{\w+\}", m.id)), m.id


def test_the_rules_page_in_hebrew_states_each_rule_in_hebrew_with_its_id_left_to_right(client):
    page = text(client.get("/rules/ratatat", headers={"Accept-Language": "he"}))
    assert '<dt class="rule-id">RTC-34</dt><dd>משוך 2: מושכים קלף מהקופה.' in page
    assert "<h2>קלפי פקודה</h2>" in page
    assert "Rat-a-Tat Cat is for 2 to 6 players." not in page
    for section in GENERAL:
        for rule, _ in section.rules:
            assert re.search(rf'<dt class="rule-id">{rule}</dt><dd>[^<A-Za-z]', page), rule


def test_a_sentence_without_a_translation_shows_in_english_marked_as_english(app):
    """A rule whose English changed since it was translated shows as it now says, marked English."""
    rule, english = GAMES["cabo"].RULE_BOOK[0].rules[0]
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert "lang" not in str(i18n_rules.rule_words(rule, english))
        changed = english + " (changed)"
        assert str(i18n_rules.rule_words(rule, changed)) == f'<span lang="en" dir="ltr">{escape(changed)}</span>'


def test_the_new_table_form_offers_the_house_rules_in_italian(client):
    page = text(client.get("/new/ratatat", headers={"Accept-Language": "it"}))
    assert '<label for="rule-tie_policy">Pareggi in un giro</label>' in page
    assert "vince il giro chiunque abbia il punteggio più basso (editore)" in page
    assert "Le regole dell&#39;editore" in page or "Le regole dell'editore" in page


def test_number_switches_say_their_number_in_the_language(app):
    rounds = next(v for v in GAMES["ratatat"].VARIANTS if v.key == "rounds_n")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert i18n_rules.switch_value(rounds, 3) == "3 giri"
        assert i18n_rules.switch_value(rounds, 1) == "1 giro"
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert i18n_rules.switch_value(rounds, 3) == "3 סיבובים"
        assert i18n_rules.switch_value(rounds, 1) == "סיבוב אחד"
    with app.test_request_context():
        assert i18n_rules.switch_value(rounds, 3) == "3 rounds"


def test_game_and_card_names_as_each_table_calls_them(app):
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert i18n_rules.game_title("ratatat") == "חתחתול"
        assert i18n_rules.game_title("shithead") == "שיטהד"
        assert [i18n_rules.card_name(c) for c in ("DRAW2", "PEEK", "SWAP", "7")] == ["משוך 2", "הצץ", "החלף", "7"]
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert i18n_rules.game_title("spite_malice") == "Gatto e topo"
        assert i18n_rules.card_name("JOKER") == "Jolly"


def test_rat_a_tat_cat_entries_in_words_of_the_phone(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    phone = app.test_client()
    phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    phone.set_cookie(i18n.COOKIE, "it")
    for version, fields in enumerate([{"move": "turn_up", "card": "5"}, {"move": "draw"},
                                      {"move": "replace", "slot": "2", "out": "8"}]):
        assert phone.post(f"/m/{match.id}/entry", data={"version": version, **fields}, headers=HX).status_code == 200
    screen = text(phone.get(f"/m/{match.id}/screen"))
    assert "Annulla: Ana mette la carta nella posizione 2 e scarta 8." in screen
    history = text(phone.get(f"/m/{match.id}/history"))
    assert "Si scopre 5 sugli scarti." in history and "Ana pesca una carta." in history
    phone.set_cookie(i18n.COOKIE, "en")
    assert "Ana puts the card into slot 2 and discards an 8." in text(phone.get(f"/m/{match.id}/history"))


@pytest.mark.parametrize("policy", ["all_lowest", "all_lowest_except_caller", "no_winner", "caller_wins_ties"])
@pytest.mark.parametrize("scores, caller", [((4, 9, 6), 0), ((4, 4, 6), 0), ((4, 4, 6), 2), ((5, 5, 5), 1)])
def test_a_round_said_again_in_hebrew_agrees_with_the_engine(app, policy, scores, caller):
    from referee.games.ratatat_scoring import round_winners

    players = ("Ana", "Ben", "Cy")
    winners, english = round_winners(dict(enumerate(scores)), caller, policy, players)
    last = {"scores": dict(zip(players, scores)), "winners": [players[s] for s in winners],
            "caller": players[caller], "explanation": english}
    with app.test_request_context(headers={"Accept-Language": "he"}):
        words = str(i18n_rules.round_words({"rules": {"tie_policy": policy}}, last))
    assert 'lang="en"' not in words and "RTC-" in words
    low = min(scores)
    assert str(low) in words
    if len(winners) == 1 and scores.count(low) == 1:
        assert words.startswith(f"ל־\u2060{players[winners[0]]} הניקוד הנמוך ביותר")  # no line break after ל־
    with app.test_request_context(headers={"Accept-Language": "en"}):  # English says the tie rule in words too
        words = str(i18n_rules.round_words({"game": "ratatat", "rules": {"tie_policy": policy}}, last))
    assert policy not in words and "Tie policy" not in words and "RTC-" in words and str(low) in words


def _ratatat_rulings(games=("ratatat", "shithead", "spite_malice")) -> list[tuple[str, str]]:
    """The rulings of the documented Rat-a-Tat Cat, Shithead and Spite & Malice games."""
    from referee.transcript import check, loads

    found = []
    for path in sorted((ROOT / "docs" / "examples").glob("*.json")):
        transcript = loads(path.read_text())
        if transcript.game.NAME not in games:
            continue
        _, _, report = check(transcript)
        found += [(r["rule"], r["message"]) for r in report["rulings"]]
    return found


def test_the_examples_have_rulings_to_say():
    assert len(_ratatat_rulings()) >= 3


@pytest.mark.parametrize("lang", ["he", "it"])
def test_rat_a_tat_cat_and_shithead_rulings_are_said_in_the_phones_language(app, lang):
    with app.test_request_context(headers={"Accept-Language": lang}):
        for rule, message in _ratatat_rulings():
            words = i18n_rules.ruling_words(rule, message)
            assert 'lang="en"' not in str(words) and words != message, message
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert i18n_rules.ruling_words("GEN-7", "It is Ana's turn, not Ben's.") == "זה התור של Ana, לא של Ben."
        assert i18n_rules.ruling_words("RTC-12", "A Peek on the discard pile cannot be taken: a discarded power "
                                       "card is out of play.").startswith("אי אפשר לקחת הצץ מערימת הזריקה")
        assert i18n_rules.ruling_words("SH-12", "The card to beat is the K: a 5 is lower (play a K or higher, or a 2, 3 "
                                       "or 10).") == "הקלף שצריך לנצח הוא מלך: 5 נמוך ממנו (שחקו מלך או גבוה ממנו, או 2, 3 או 10)."
        assert i18n_rules.ruling_words("SH-12", "The card to beat is the 8: an A is lower (play an 8 or higher, or a "
                                       "2, 3 or 10).") == "הקלף שצריך לנצח הוא 8: אס נמוך ממנו (שחקו 8 או גבוה ממנו, או 2, 3 או 10)."
        assert i18n_rules.ruling_words("SM-12", "That pile needs a queen (or a king), not an 8.") == \
            "הערימה הזאת צריכה מלכה (או מלך), לא 8."
        unknown = i18n_rules.ruling_words("SM-1", "Something only Spite & Malice says.")
        assert str(unknown) == '<bdi lang="en" dir="ltr">Something only Spite &amp; Malice says.</bdi>'
    with app.test_request_context():
        assert i18n_rules.ruling_words("GEN-7", "It is Ana's turn, not Ben's.") == "It is Ana's turn, not Ben's."


def _play_example(database, example: str, after_each=None):
    """A documented example match (docs/examples/) entered at a table, its refused entries skipped, and
    ``after_each(match)`` called after each accepted one: (the match, its version)."""
    import json

    from referee import tables
    from referee.games.base import Ruling

    data = json.loads((ROOT / "docs" / "examples" / f"{example}.json").read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    version = 0
    for entry in data["entries"]:
        try:
            version = tables.append(database, match.id, version, {k: v for k, v in entry.items() if k != "note"},
                                    None).version
        except Ruling:
            continue
        if after_each is not None:
            after_each(match)
    return match, version


@pytest.mark.parametrize("example", ["shithead-burn-four", "shithead-interrupt", "spite-malice-king-chain",
                                     "spite-malice-side-stack"])
@pytest.mark.parametrize("lang", ["he", "it"])
def test_shithead_and_spite_malice_reminders_in_the_phones_language(app, database, example, lang):
    """What the referee reminds the table of after each entry (draw 1, burned, skipped, draw 5 from the
    stock...) and what beats the pile, at every step of the documented games."""
    phone = app.test_client()
    seen = []

    def check(match):
        if not seen:
            phone.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=HX)
            phone.set_cookie(i18n.COOKIE, lang)
            seen.append(0)
        screen = text(phone.get(f"/m/{match.id}/screen"))
        reminders = re.search(r'<ul class="reminders" id="reminders">(.*?)</ul>', screen, re.S)
        if reminders:
            seen[0] += 1
            assert 'lang="en"' not in reminders.group(1), reminders.group(1)
        beat = re.search(r'<p class="beat">(.*?)</p>', screen, re.S)
        if beat:
            assert 'lang="en"' not in beat.group(1), beat.group(1)

    _play_example(database, example, check)
    assert seen and seen[0]


@pytest.mark.parametrize("example", ["shithead-burn-four", "shithead-facedown", "spite-malice-king-chain",
                                     "spite-malice-side-stack", "draw2-chain", "flag-at-reveal", "cabo-scoring",
                                     "cabo-peek-spy-swap", "cambio-snap"])
@pytest.mark.parametrize("lang", ["he", "it"])
def test_every_entry_of_the_history_in_the_phones_language(app, database, example, lang):
    match, version = _play_example(database, example)
    phone = app.test_client()
    phone.set_cookie(i18n.COOKIE, lang)
    history = text(phone.get(f"/m/{match.id}/history"))
    words = re.findall(r'<span class="words">(.*?)</span>', history, re.S)
    assert len(words) == version
    assert not [w for w in words if 'lang="en"' in w]


@pytest.mark.parametrize("example", ["spite-malice-stock-out", "three-rounds", "cabo-scoring"])
def test_how_a_match_ended_in_the_phones_language(app, database, example):
    """The documented games that end their match: the "Match over" screen says how, in he and it."""
    match, version = _play_example(database, example)
    phone = app.test_client()
    for lang in ("he", "it"):
        phone.set_cookie(i18n.COOKIE, lang)
        screen = text(phone.get(f"/m/{match.id}/screen"))
        outcome = re.search(r'<p class="outcome">(.*?)</p>', screen, re.S)
        assert outcome is not None
        assert outcome.group(1).strip() and 'lang="en"' not in outcome.group(1), outcome.group(1)


@pytest.mark.parametrize("example", ["cabo-scoring", "cambio-snap", "cabo-peek-spy-swap"])
@pytest.mark.parametrize("lang", ["he", "it"])
def test_a_cabo_round_is_explained_in_the_phones_language(app, example, lang):
    from referee.transcript import check, loads

    _, _, report = check(loads((ROOT / "docs" / "examples" / f"{example}.json").read_text()))
    rounds = report["result"].get("rounds", [])
    assert rounds
    with app.test_request_context(headers={"Accept-Language": lang}):
        for r in rounds:
            words = str(i18n_rules.explanation_words(r["explanation"]))
            assert 'lang="en"' not in words and "CAB-" in words, r["explanation"]


def test_a_shithead_evening_and_a_spite_malice_game_end_in_the_phones_language(app):
    evening = {"game": "shithead", "outcome": "Cy is the Shithead. Finishing order: Ana, Ben.",
               "history": [{"number": 1, "order": ["Ben", "Cy"], "shithead": "Ana", "winner": None},
                           {"number": 2, "order": ["Ana", "Ben"], "shithead": "Cy", "winner": None}],
               "players": ["Ana", "Ben", "Cy"], "tally": [1, 0, 1], "winners": ["Ben"],
               "rules": {"end_mode": "last_is_loser"}}
    game = {"game": "spite_malice", "outcome": "Ann builds the last pay-off card and wins (SM-40).",
            "history": [{"number": 1, "winner": "Ann", "how": "payoff", "points": 9}], "players": ["Ann", "Bob"],
            "totals": [9, 0], "winners": ["Ann"], "rules": {}}
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert i18n_rules.outcome_words(evening) == (
            "Cy è lo Shithead. Ordine di arrivo: Ana, Ben. Dopo 2 partite Ben vince l’incontro con meno punti "
            "Shithead (0).")
        assert i18n_rules.outcome_words(game) == "Ann gioca l’ultima carta del mazzo personale e vince (SM-40)."
    with app.test_request_context():
        assert i18n_rules.outcome_words(evening) == evening["outcome"]


def test_a_card_word_remembered_in_one_language_is_not_given_to_another(app):
    """card_label remembers each translated card word per language: each phone still reads its own."""
    for _ in range(2):
        for header, word in (("he", "משוך 2"), ("it", None), ("en", "Draw 2")):
            with app.test_request_context(headers={"Accept-Language": header}):
                said = i18n_rules.card_name("DRAW2")
                if word is not None:
                    assert said == word
                else:
                    assert said not in ("משוך 2", "Draw 2") and said
    assert i18n_rules.card_name("7") == "7"  # not a word: as it is, with or without a request


@pytest.mark.parametrize("lang, accepted, dismissed, by_table", [
    ("en", "Accepted by Cy (entry 16). Why: she moved her cards", "Dismissed by Ben (entry 9).",
     "Dismissed by the table (entry 30)."),
    ("it", "Accettata da Cy (registrazione 16). Motivo: she moved her cards", "Respinta da Ben (registrazione 9).",
     "Respinta dal tavolo (registrazione 30)."),
])
def test_how_a_dispute_was_decided_is_said_in_the_phones_language(app, lang, accepted, dismissed, by_table):
    """The engines record a decision in English ("accepted by Cy at entry 16: …", "overridden" for what the
    screen calls Dismiss, "The table" for the phone for everyone); the screen says it again in the phone's
    language."""
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert i18n_rules.flag_decision("accepted", "accepted by Cy at entry 16: she moved her cards") == accepted
        assert i18n_rules.flag_decision("overridden", "overridden by Ben at entry 9") == dismissed
        assert i18n_rules.flag_decision("overridden", "overridden by The table at entry 30") == by_table
        assert i18n_rules.flag_decision("accepted", "") == {"en": "Accepted", "it": "Accettata"}[lang]


@pytest.mark.parametrize("outcome, italian", [
    ("Ben wins the match with 44 (Ana went over 100 and the lowest total wins, CAB-43).",
     "Ben vince la partita con 44 (Ana ha superato 100 e vince il totale più basso, CAB-43)."),
    ("Ben wins the match with 44 (lowest total after 3 rounds, RTC-53).",
     "Ben vince la partita con 44 (totale più basso dopo 3 giri, RTC-53)."),
    ("Ana and Ben share the win on 44 (lowest total after 1 round, RTC-53; a tie shares the win, RTC-55).",
     "Ana e Ben condividono la vittoria con 44 (totale più basso dopo 1 giro, RTC-53; a pari merito si divide la "
     "vittoria, RTC-55)."),
    ("Ben wins the match with 44 (something new, RTC-53).", "Ben vince la partita con 44 (RTC-53)."),
    ("Ben wins the match with 44 (lowest total after 1 round, CAB-V12).",
     "Ben vince la partita con 44 (totale più basso dopo 1 giro, CAB-V12)."),
])
def test_why_a_match_ended_is_said_in_the_phones_language(app, outcome, italian):
    """The reason in the engine's brackets is said again, not dropped; one these words do not know leaves
    the rule alone."""
    winners = ["Ana", "Ben"] if "share" in outcome else ["Ben"]
    view = {"outcome": outcome, "players": ["Ana", "Ben"], "totals": [44, 44], "winners": winners}
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert str(i18n_rules.match_words(view)) == italian


@pytest.mark.parametrize("lang, said", [("it", "Si gioca a 120 punti"), ("he", "משחקים עד 120 נקודות")])
def test_SM_43_with_the_tables_target_is_said_in_the_phones_language_with_its_number(app, lang, said):
    from referee.games import spite_malice as sm

    english = sm.rule_text("SM-43", sm.new_match(("Ann", "Bob"), {"match_target": 120}).rules)
    with app.test_request_context(headers={"Accept-Language": lang}):
        words = str(i18n_rules.rule_words("SM-43", english))
    assert words.startswith(said) and "lang=" not in words
    with app.test_request_context(headers={"Accept-Language": lang}):  # a sentence of another shape stays English
        assert "lang=" in str(i18n_rules.rule_words("SM-43", english.replace("120", "many")))
