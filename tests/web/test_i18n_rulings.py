"""Every ruling an engine can say has a Hebrew and an Italian translation (referee/i18n_rulings.py).

The engines build their rulings, reminders and results in English with names, numbers and cards in them
(``check``, ``refuse``, ``flag``, ``note``, ``Ruling``). This test reads the engines' source, finds every
such sentence, fills its variable parts with a sample (a name, a number, a card as that engine writes it)
and asks the catalogues for it: a sentence no pattern reads, or whose message has no translation, fails
here with its file and line. Sentences an engine builds in one function and says in another (how a game
ended) are listed below as the engine writes them.
"""
from __future__ import annotations

import ast
import re
import itertools
from pathlib import Path

import pytest
from babel.support import Translations

from referee import i18n_rulings
from referee.i18n import TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "referee" / "games"
SAYS = {"check": 2, "refuse": 1, "flag": 1, "note": 1, "Ruling": 1}  # which argument is the sentence
# Functions whose sentences reach the table through another call: (file, function) -> how they are said.
CLAUSES = {("shithead_logic.py", "illegal"): "rule_and_words", ("spite_malice_rules.py", "build_problem"): "clause",
           ("spite_malice_rules.py", "side_problem"): "clause", ("spite_malice_apply.py", "standing"): "rule_and_words",
           ("shithead_logic.py", "describe_top"): "words", ("ratatat_scoring.py", "round_winners"): "rule_and_words",
           ("ratatat_scoring.py", "match_winners_sentence"): "words", ("cabo_scoring.py", "round_scores"): "append",
           ("cabo_scoring.py", "match_outcome"): "words"}
# Samples for the variable parts, by the expression's source text (the first key found in it wins).
SAMPLES = (
    ("goes_anywhere(", ["a 2, 3 or 10", "a 2 or 10"]), ("anywhere", ["a 2, 3 or 10", "a 2 or 10"]),
    ("a_rank(last.rank)", ["a 7"]), ("a_rank(", ["a 7", "an 8"]), ("', '.join((t.value", ["6, 9"]), ("join", ["Ana, Ben"]), ("say_cards(", ["6♦ 6♥"]), ("say_card(", ["7♣"]),
    ("sentence_card(", ["A 5", "A K♥"]), ("card_words(r.power)[2:]", ["Peek", "Draw 2"]),
    ("card_words(", ["a Swap", "an 8"]), ("POWER_WORDS[r.step][2:]", ["Spy"]),
    ("POWER_WORDS[", ["a Peek", "a look-and-swap"]), ("said(", ["a 7", "an 8"]), ("said", ["7♣"]),
    ("rank_of(", ["4"]), ("_plural(", ["7s", "kings"]), ("_s(", ["s"]), ("cannot_go(", ["cannot go on the K", "cannot go on the 8 under the 3s",
                                                              "may not burn the 7 at this table", "cannot go"]),
    ("move.rule", ["SH-12"]), ("why[0]", ["SH-12"]), ("came", [" (entry 4)", ""]),
    ("hint", ["", " (four of a kind out of turn is an interrupt)"]),
    ("now", ["the pile is now empty", "the top of the pile is now K♥"]), ("deck", ["the Cabo deck", "a standard deck"]),
    ("last.rank", ["7"]), ("st.top", ["8H"]), ("top", ["8H"]), ("claimed", ["6D"]), ("where", ["side stack 1", "pay-off top"]),
    ("fits", ["pile 2", "a new pile"]), ("under", ["", " under the 3s"]), ("sign", ["♥"]), ("rank", ["7"]),
    ("card", ["7"]), ("name(", ["Ana"]), ("players[", ["Ana"]), ("who", ["Ana"]), ("names", ["Ana, Ben"]),
    ("tied", ["Ana, Ben"]), ("missing", ["Ana, Ben"]), ("owed)", ["Ana, Ben"]), ("why", ["the higher pay-off top (Ann 9, Bob 4)",
                                                                                      "entered by the table"]),
)
# Sentences the sampling puts together that no engine can say (two parts decided by one condition).
CANNOT = {"A 5 has no power: 7 and 8 peek, 9 and 10 spy, jacks and queens swap.",
          "A K♥ has no power: 7 and 8 peek, 9 and 10 spy, 11 and 12 swap, and look-and-swap cards look then swap.",
          "A 5 has no power: 7 and 8 peek, 9 and 10 spy, 11 and 12 swap, and look-and-swap cards look then swap.",
          "A K♥ has no power: 7 and 8 peek, 9 and 10 spy, jacks and queens swap.",
          # a pay-off top has nothing under it that the table has seen (claim's ``below`` is empty)
          "The 6D is under the top of Ana's pay-off top: only the top card, the 8H, may be played."}
WHAT = {("holding", "what"): ["discard", "keep", "put into the row"],
        ("resolving", "what"): ["Peek or Spy", "Swap", "look-and-swap"],
        ("match_winners_sentence", "why"): ["lowest total after 3 rounds, RTC-53"],
        ("match_outcome", "why"): ["Ben went over 100 and the lowest total wins, CAB-43"],
        ("round_winners", "policy"): ["all_lowest_except_caller", "caller_wins_ties"]}
# How a game or a match ended, as the engines build it across functions (shithead_apply.maybe_end,
# spite_malice_apply.win, exhausted and end_game).
RESULTS = (
    "Ana goes out first and wins (SH-52).",
    "Ana is the Shithead. Finishing order: Ben, Cy.",
    "Finishing order: Ben, Cy.",
    "Ann builds the last pay-off card and wins the game.",
    "Ann builds the last pay-off card and wins the game: 1 point (1 pay-off cards left).",
    "Ann builds the last pay-off card and wins the game: 10 points (5 + 5 pay-off cards left).",
    "Ann builds the last pay-off card and wins the game: 7 points (7 pay-off cards left).",
    "The stock cannot give Bob the 1 card owed (it is empty): Bob has the fewest pay-off cards left (Ann 20, Bob 19) "
    "and wins, 1 point.",
    "The stock cannot give Bob the 3 cards owed (it holds 2): Ann has the fewest pay-off cards left (Ann 3, Bob 5) "
    "and wins, 2 points.",
    "The stock cannot give Ana the 2 cards owed (it is empty): Ana has the fewest pay-off cards left (Ana 16, Ben 17) "
    "and wins.",
    "The stock cannot give Ana the 2 cards owed (it holds 1): equal pay-off piles (Ana 20, Ben 20), the game is a draw. "
    "Nobody wins.",
    "The stock cannot give Ana the 1 card owed (it is empty): the game is a draw (SM-V6). Nobody wins.",
    "Ann wins the match with 51 points (Ann 51, Bob 25).",
    "Game 2: shuffle all the decks together, deal the pay-off piles and hands, and enter the pay-off tops.",
)


def _variants(node: ast.AST, function: ast.AST) -> list[str] | None:
    """Every sentence ``node`` can build, its variable parts sampled; None for what cannot be read here."""
    if isinstance(node, ast.Constant):
        return [node.value if isinstance(node.value, str) else str(node.value)]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            found = _variants(value, function)
            if found is None:
                return None
            parts.append(found)
        return ["".join(p) for p in itertools.product(*parts)]
    if isinstance(node, ast.FormattedValue):
        return _variants(node.value, function)
    if isinstance(node, ast.IfExp):
        body, orelse = _variants(node.body, function), _variants(node.orelse, function)
        return None if body is None or orelse is None else body + orelse
    if isinstance(node, ast.BinOp) and ast.unparse(node.left).startswith("sentence_start("):
        return []  # a clause of spite_malice_rules, read where it is built (CLAUSES)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and not any(
            isinstance(side, ast.Constant) and not isinstance(side.value, str) for side in (node.left, node.right)):
        left, right = _variants(node.left, function), _variants(node.right, function)
        return None if left is None or right is None else [a + b for a in left for b in right]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # 's' * (n != 1)
        return ["s"]
    if isinstance(node, ast.Name):  # a sentence kept in a variable of the same function
        said = [a.value for a in ast.walk(function) if isinstance(a, ast.Assign) and len(a.targets) == 1
                and isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id and _is_text(a.value)]
        if said:
            found = [_variants(value, function) for value in said]
            return None if None in found else [v for f in found for v in f]
    if isinstance(node, (ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.BinOp)):
        return _sample(ast.unparse(node), function)
    return None


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) or _is_text(node.orelse)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _sample(source: str, function: ast.AST) -> list[str]:
    if (function.name, source) in WHAT:
        return WHAT[(function.name, source)]
    for key, values in SAMPLES:
        if key in source:
            return values
    return ["3"]


def engine_sentences() -> list[tuple[str, str]]:
    """(where, sentence) for every sentence the engines' source builds for the table."""
    out = []
    for path in sorted(GAMES.glob("*.py")):
        tree = ast.parse(path.read_text())
        for function in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            how = CLAUSES.get((path.name, function.name))
            nodes = []
            for node in ast.walk(function):
                if isinstance(node, ast.Call):
                    called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                    at = SAYS.get(called)
                    if at is not None and len(node.args) > at and not isinstance(node.args[at], ast.Starred):
                        if not (isinstance(node.args[at], ast.Name) and node.args[at].id in ("message", "words", "outcome")):
                            nodes.append(node.args[at])
                    if how == "rule_and_words" and called == "append" and node.args and isinstance(node.args[0], ast.Tuple):
                        nodes.append(node.args[0].elts[1])
                    if how == "append" and called == "append" and node.args:
                        nodes.append(node.args[0])
                if how and isinstance(node, ast.Return) and node.value is not None:
                    value = node.value
                    if how == "rule_and_words" and isinstance(value, ast.Tuple):
                        nodes.append(value.elts[1])
                    elif how in ("clause", "words") and (isinstance(value, ast.JoinedStr) or (
                            isinstance(value, ast.Constant) and isinstance(value.value, str))):
                        nodes.append(value)
            for node in nodes:
                found = _variants(node, function)
                assert found is not None, f"{path.name}:{node.lineno}: {ast.unparse(node)}"
                for sentence in found:
                    if how == "clause" and node in [n.value for n in ast.walk(function) if isinstance(n, ast.Return)]:
                        sentence = sentence[:1].upper() + sentence[1:] + "."
                    if sentence and sentence != "3" and sentence not in CANNOT:
                        out.append((f"{path.name}:{node.lineno}", sentence))
    return out


class Strict:
    """A catalogue's gettext that records every message it has no translation for."""

    def __init__(self, lang: str):
        self.t = Translations.load(str(TRANSLATIONS), [lang], "messages")
        self.missing: list[str] = []

    def gettext(self, message: str) -> str:
        found = self.t._catalog.get(message)
        if not found:
            self.missing.append(message)
            return message
        return found

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if not self.t._catalog.get((singular, 0)):
            self.missing.append(singular)
            return singular if n == 1 else plural
        return self.t.ngettext(singular, plural, n)


def test_the_scan_finds_the_engines_sentences():
    found = {sentence for _, sentence in engine_sentences()}
    assert len(found) > 250
    assert "It is Ana's turn, not Ana's." in found
    assert "Ana's 7♣ cannot go on the 8 under the 3s (SH-12), so Ana picks up the pile and the 7♣ and plays from the " \
           "hand again (SH-20)." in found
    assert "That pile needs a 7 (or a king), not an 8." in found  # a clause of spite_malice_rules, said as a sentence


@pytest.mark.parametrize("lang", ["he", "it"])
def test_every_ruling_the_engines_can_say_has_a_translation(lang):
    strict = Strict(lang)
    unread, untranslated = [], []
    for where, sentence in engine_sentences() + [("result", r) for r in RESULTS]:
        strict.missing = []
        said = i18n_rulings.say_all(sentence, strict.gettext, strict.ngettext, rtl=lang == "he")
        if said is None:
            unread.append(f"{where}: {sentence}")
        elif strict.missing:
            untranslated.append(f"{where}: {strict.missing}")
    assert not unread, f"{len(unread)} sentences no pattern reads, e.g.:\n" + "\n".join(unread[:20])
    assert not untranslated, "\n".join(untranslated[:20])


def test_a_sentence_is_read_by_its_own_pattern_not_a_more_general_one():
    """An engine sentence that two patterns read is read by the more particular one (listed first)."""
    def words(message: str) -> str:
        return message

    def plural(singular: str, many: str, n: int) -> str:
        return singular if n == 1 else many

    assert i18n_rulings.say("Cy shows 4♥ face up, lower than Ana's 5♥: Cy starts.", words, plural) == \
        "Cy shows 4♥ face up, lower than Ana's 5♥: Cy starts."
    assert i18n_rulings.say("Ben starts.", words, plural) == "Ben starts."
    assert i18n_rulings.say("Resolve a blind Swap first.", words, plural) == "Resolve the blind Swap first."


@pytest.mark.parametrize("name", ["מיכל", "ana", "J. Li", "Ana"])
def test_a_result_of_two_sentences_is_said_whatever_script_or_case_the_name_begins_with(name):
    """A Cabo round's result is two sentences; the second begins with the winner's name, which may be
    Hebrew, lower case or hold a full stop of its own."""
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = i18n_rulings.say_all(f"{name} called with the lowest sum, 6, so scores 0; everyone else scores their sum "
                                f"(CAB-40). {name} has the lowest score, 0, and wins the round.", it.gettext, it.ngettext)
    assert said is not None and "called" not in said and "wins" not in said and said.count(name) == 2


def test_GEN_3_one_copy_already_known_is_said_in_the_singular():
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    for seen, words in ((1, "e 1 è già nota"), (2, "e 2 sono già note")):
        said = i18n_rulings.say(f"The deck has only 3 × 0, and {seen} {'is' if seen == 1 else 'are'} already known "
                                "on the table: this sighting would be one too many (a misread or a wrong card?).",
                                it.gettext, it.ngettext)
        assert words in said


def test_cards_with_a_suit_keep_their_order_in_hebrew():
    he = Translations.load(str(TRANSLATIONS), ["he"], "messages")
    said = i18n_rulings.say("Ana's 7♣ cannot go on the K (SH-12), so Ana picks up the pile and plays from the hand "
                            "again (SH-20).", he.gettext, he.ngettext, rtl=True)
    assert "\u20667♣\u2069" in said and "SH-12" in said and "Ana" in said
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = i18n_rulings.say("Ana's 7♣ cannot go on the K (SH-12), so Ana picks up the pile and plays from the hand "
                            "again (SH-20).", it.gettext, it.ngettext)
    assert said == "7♣ di Ana non può andare su K (SH-12), quindi Ana raccoglie la pila e torna a giocare dalla mano (SH-20)."


@pytest.mark.parametrize("lang, words", [
    ("he", "הקלף העליון בערימה האישית של Ann כבר נרשם (9H): תקנו את הרישום ההוא בהיסטוריה במקום."),
    ("it", "La carta in cima al mazzo personale di Ann è già inserita (9H): correggi invece quella registrazione nella "
           "cronologia.")])
def test_a_spite_and_malice_refusal_on_the_table_screen_is_in_the_phones_language(app, database, lang, words):
    """Ann enters her pay-off top a second time (SM-15): her phone says why in its own language."""
    import json

    from referee import i18n, store, tables

    data = json.loads((ROOT / "docs" / "examples" / "spite-malice-side-stack.json").read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    version = 0
    for entry in data["entries"][:2]:
        version = tables.append(database, match.id, version, entry, None).version
    phone = app.test_client()
    phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers={"Origin": "http://localhost", "HX-Request": "true"})
    phone.set_cookie(i18n.COOKIE, lang)
    response = phone.post(f"/m/{match.id}/entry", data={"version": version, "move": "top", "card": "9H"},
                          headers={"Origin": "http://localhost", "HX-Request": "true"})
    assert response.status_code == 422
    ruling = re.search(r'<div class="ruling reject"[^>]*>(.*?)</div>', response.get_data(as_text=True), re.S)
    assert ruling is not None and "SM-15" in ruling.group(1)
    assert words in ruling.group(1).replace("&#39;", "'") and 'lang="en"' not in ruling.group(1)


def test_the_hebrew_and_takes_a_maqaf_before_a_name_in_latin_letters():
    he = Translations.load(str(TRANSLATIONS), ["he"], "messages")
    said = i18n_rulings.say("Ana and Ben tie on 12.", he.gettext, he.ngettext, rtl=True)
    assert "Ana ו\u05be\u2060Ben" in said  # and no line break parts them (U+2060, word joiner)
    assert i18n_rulings.and_joined(["אנה", "בן"], " ו") == "אנה ובן"  # a Hebrew name takes the ו directly
    assert i18n_rulings.and_joined(["Ana", "Ben", "Cy"], " e ") == "Ana e Ben e Cy"


def test_names_in_words_join_with_the_phones_and(app):
    from referee.i18n_rules import names_words
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert names_words(["Ana", "Ben", "Cy"]) == "Ana, Ben ו\u05be\u2060Cy"
        assert names_words(["Ana", "דנה"]) == "Ana ודנה"


def test_cards_and_rule_ids_in_a_hebrew_sentence_are_isolated_once():
    said = i18n_rulings.isolated("Ana משחק/ת 4♠ ו־10♥ (SH-12).")
    assert said == "Ana משחק/ת \u20664♠\u2069 ו־\u206610♥\u2069 (\u2066SH-12\u2069)."
    assert i18n_rulings.isolated(said) == said  # already isolated: unchanged
    assert i18n_rulings.isolated("K♥ and Q♣") == "\u2066K♥\u2069 and \u2066Q♣\u2069"


def test_an_entry_in_hebrew_keeps_its_card_in_order(app):
    from referee.games import get_game
    from referee.games.shithead_moves import Play
    from referee.i18n_rules import describe_move
    with app.test_request_context(headers={"Accept-Language": "he"}):
        said = describe_move(get_game("shithead"), Play(0, ("4S",)), ("Ana", "Ben"))
    assert "\u20664♠\u2069" in said


@pytest.mark.parametrize("lang", ["he", "it"])
def test_every_number_a_form_refuses_is_said_in_the_phones_language(lang):
    """A number out of its field's range (games/forms.py) is told what the field holds, in Hebrew and Italian."""
    from referee.games.forms import WHOLE_WORDS

    strict = Strict(lang)
    for what, words in WHOLE_WORDS.items():
        sentence = words % {"low": 1, "high": 4}
        said = i18n_rulings.say_all(sentence, strict.gettext, strict.ngettext, rtl=lang == "he")
        assert said is not None and not strict.missing, (what, said, strict.missing)
        assert "1" in said and "4" in said and said != sentence


@pytest.mark.parametrize("lang, one, many", [
    ("it", "C'è già una pila centrale", "Ci sono già 3 pile centrali"),
    ("he", "כבר יש ערימת בנייה אחת", "כבר יש 3 ערימות בנייה"),
])
def test_SM_13_one_building_pile_is_said_as_one(lang, one, many):
    strict = Strict(lang)
    said = i18n_rulings.say("There is already 1 building pile, the most this table allows: build on it.",
                            strict.gettext, strict.ngettext)
    assert said.startswith(one) and not strict.missing
    said = i18n_rulings.say("There are already 3 building piles, the most this table allows: build on one of them.",
                            strict.gettext, strict.ngettext)
    assert said.startswith(many)


def test_italian_shithead_words_agree_in_gender():
    """"un 7 o più basso" (a 7: masculine), and the card drawn to add is "un'altra carta" whatever its
    rank (a Donna is feminine): the sentences a phone in Italian reads at a Shithead table."""
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = it.gettext("A 7 is on top: the next card must be a 7 or lower, or a 2, 3 or 10.")
    assert "un 7 o più basso" in said
    added = it.gettext("%(name)s drew another %(rank)s: add it") % {"name": "Luca", "rank": "Donna"}
    assert added == "Luca ha pescato un’altra carta uguale (Donna): aggiungila"


@pytest.mark.parametrize("ruling, said", [
    ("The card to beat is the Q: a 5 is lower (play a Q or higher, or a 2, 3 or 10).",
     "La carta da battere è Donna: 5 vale meno (gioca Donna o più, oppure un 2, 3 o 10)."),
    ("The card to beat is the K under the 3s: a J is lower (play a K or higher, or a 2 or 10).",
     "La carta da battere è Re, sotto i 3: Fante vale meno (gioca Re o più, oppure un 2 o 10)."),
    ("Ana declared 4♣ as their lowest card: the first play must include a Q.",
     "Ana ha dichiarato 4♣ come carta più bassa: la prima giocata deve comprendere una carta Donna."),
    ("That pile needs a Q (or a king), not a 5.", "Quella pila vuole Donna (o un re), non 5."),
    ("Marco and Sofia tie on 10: under this table's tie rule (CAB-V9, CAB-A4) Marco and Sofia win the round.",
     "Marco e Sofia pareggiano a 10: con la regola dei pareggi di questo tavolo (CAB-V9, CAB-A4) il giro va a Marco "
     "e Sofia."),
])
def test_italian_rulings_read_naturally(ruling, said):
    """A queen is feminine in Italian ("la donna"): a ruling naming the rank by its letter says "Q", or "una
    carta Q", never "il Q" or "un Q" (SH-11, SM-12); players sharing a round are joined by "e", not "and"."""
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    assert i18n_rulings.say(ruling, it.gettext, it.ngettext) == said


def test_a_power_card_in_a_gen_3_ruling_is_said_as_the_table_calls_it():
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = i18n_rulings.say("The deck has only 3 × Swap, and 3 are already known on the table: this sighting would be "
                            "one too many (a misread or a wrong card?).", it.gettext, it.ngettext)
    assert said.startswith("Il mazzo ha solo 3 × Scambia, e 3 sono già note")


def test_a_gen_3_ruling_on_a_reveal_says_how_many_known_copies_it_showed_itself():
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = i18n_rulings.say("The deck has only 4 × 0, and 4 are already known on the table (2 of them in this entry): "
                            "this sighting would be one too many (a misread or a wrong card?).", it.gettext, it.ngettext)
    assert said.startswith("Il mazzo ha solo 4 × 0, e 4 sono già note sul tavolo (2 in questa registrazione)")


def test_SM_41_a_hebrew_prefix_joins_a_hebrew_name_without_a_maqaf_and_never_breaks_from_a_latin_one():
    """The stock ran out for Grandpa (סבא): Hebrew said "לתת ל־סבא", and a narrow screen broke the line after
    "ל־". A one-letter prefix goes straight onto a Hebrew word, and keeps its maqaf, unbroken, before Latin."""
    he = Translations.load(str(TRANSLATIONS), ["he"], "messages")
    sentence = ("The stock cannot give {} the 2 cards owed (it is empty): {} has the fewest pay-off cards left "
                "(Ann 20, {} 19) and wins, 1 point.")
    said = i18n_rulings.say_all(sentence.format("סבא", "סבא", "סבא"), he.gettext, he.ngettext, rtl=True)
    assert "לסבא" in said and "ל־סבא" not in said
    said = i18n_rulings.say_all(sentence.format("Bob", "Bob", "Bob"), he.gettext, he.ngettext, rtl=True)
    assert "ל־\u2060Bob" in said
    assert i18n_rulings.prefixes_joined("דו־שיח") == "דו־שיח"  # a maqaf inside a word is the word's own


def test_a_rank_named_by_its_letter_is_said_as_the_buttons_say_it():
    """Italian said "Gioca una carta J o più alta" over buttons reading "Fante": a rank a sentence names by its
    letter is said in words, as every card button says it."""
    it = Translations.load(str(TRANSLATIONS), ["it"], "messages")
    said = i18n_rulings.say("a J or higher, or a 2, 3 or 10", it.gettext, it.ngettext)
    assert said == "una carta Fante o più alta, oppure un 2, 3 o 10"
    assert "Asso" in i18n_rulings.say("an A or higher, or a 2, 3 or 10", it.gettext, it.ngettext)
    assert "carta 7" in i18n_rulings.say("a 7 or higher, or a 2, 3 or 10", it.gettext, it.ngettext)
