"""Each game's entries and results in the phone's language (referee/views/words/): one module per game,
found by the game's TEMPLATES name; a game without one is shown as its engine says it."""
from __future__ import annotations

import io
import re

import pytest

from referee import i18n_rules, store
from referee.games import GAMES
from referee.games import spite_malice_moves as sm
from referee.games.base import Undo
from referee.views import words

from .cardphotos import standard_row_photo
from .test_cabo_table import CAMBIO
from .test_shithead_table import FACEUP, ShPhone


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_words_module_with_the_entries_it_says(name):
    module = words.for_game(GAMES[name].TEMPLATES)
    assert module is not None and callable(module.entry)
    assert module.__name__ == f"referee.views.words.{GAMES[name].TEMPLATES}"


@pytest.mark.parametrize("asked", ["", None, "chess", "../ratatat", "ratatat.x", "__init__", "_x"])
def test_a_name_that_is_no_games_module_finds_none(asked):
    assert words.for_game(asked) is None


def test_the_entries_every_game_shares_are_said_alike(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        said = {name: words.for_game(GAMES[name].TEMPLATES).entry(Undo(0), ("Ana", "Ben"))
                for name in GAMES}
    assert len(set(said.values())) == 1 and "Ana" in next(iter(said.values()))


def test_an_entry_made_by_the_table_is_said_of_a_thing_not_of_a_person(app):
    """The phone for everyone corrects an entry: Hebrew said "השולחן מתקן/ת" (the slash for a person's he or
    she); the table is a thing: "השולחן מתקן". Each shared entry made by the table has its own words."""
    from referee.games.base import Correct, Override, ResolveFlag
    from referee.games.ratatat_moves import Draw

    module = words.for_game("ratatat")
    made = [Correct(3, Draw(0), "a slip"), Override(Draw(0), "GEN-7", "fine"), ResolveFlag(0, "accept"),
            ResolveFlag(0, "override"), Undo()]
    with app.test_request_context(headers={"Accept-Language": "he"}):
        said = [module.entry(move, ("Ana", "Ben")) for move in made]
    assert said[0].startswith("השולחן מתקן את רישום 3") and said[4] == "השולחן מבטל את הרישום האחרון."
    assert all("/ת" not in s.split(":")[0] and s.startswith("השולחן") for s in said), said  # Ana, a person, keeps hers


def test_a_game_without_a_words_module_is_shown_as_its_engine_says_it_marked_english(app, monkeypatch):
    class Plain:
        TEMPLATES = "no_such_game"

        @staticmethod
        def describe(move, players):
            return f"{players[move.seat]} undoes."

    with app.test_request_context(headers={"Accept-Language": "he"}):
        said = str(i18n_rules.describe_move(Plain, Undo(1), ("Ana", "Ben")))
        outcome = str(i18n_rules.outcome_words({"game": "no_such_game", "outcome": "Ben wins."}))
    assert "Ben undoes." in said and 'lang="en"' in said
    assert "Ben wins." in outcome


LRI, PDI = "\u2066", "\u2069"
NOT_ISOLATED = re.compile(r"(?<![\u2066\w])(?:10|[2-9AJQK])[♠♥♦♣]")  # a card with a suit outside an isolate
POST = {"Origin": "http://localhost"}


def _in_hebrew(phone) -> None:
    assert phone.client.post("/lang", data={"lang": "he", "next": "/"}, headers=POST).status_code == 303


def test_a_card_label_is_a_left_to_right_isolate_in_hebrew_only(app):
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert i18n_rules.card_label("7♥") == LRI + "7♥" + PDI and i18n_rules.card_label("10♣") == LRI + "10♣" + PDI
        assert i18n_rules.card_label("5") == "5" and LRI not in i18n_rules.card_label("Joker")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert i18n_rules.card_label("7♥") == "7♥"


def test_hebrew_chips_dropdowns_and_sentences_keep_each_card_rank_first(app, database):
    """Shithead's chips and its face-up sentence ("Ana: 9♠ K♦ A♥"), Cambio's dropdowns: every card with a
    suit is a left-to-right isolate in Hebrew, so that "7♥" does not read "♥7"."""
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    phones = [ShPhone(app, match.id, str(seat)) for seat in range(3)]
    for phone in phones:
        _in_hebrew(phone)
    screen = phones[0].screen()
    assert f'<span class="red">{LRI}7♥{PDI}</span>' in screen and f'<span class="">{LRI}10♣{PDI}</span>' in screen
    for phone, name in zip(phones, ("Ana", "Ben", "Cy")):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    screen, history = phones[0].screen(), phones[0].client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert f"Ana: {LRI}9♠{PDI} {LRI}K♦{PDI} {LRI}A♥{PDI}." in history
    assert not NOT_ISOLATED.findall(screen) and not NOT_ISOLATED.findall(history)

    cambio = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana = ShPhone(app, cambio.id, "0")
    _in_hebrew(ana)
    screen = ana.screen()
    assert f'<option value="7H">{LRI}7♥{PDI}</option>' in screen and not NOT_ISOLATED.findall(screen)


def test_a_scanned_card_is_confirmed_rank_first_in_hebrew(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann = ShPhone(app, match.id, "0")
    _in_hebrew(ann)
    response = ann.client.post(f"/m/{match.id}/scan", headers={**POST, "HX-Request": "true"},
                               content_type="multipart/form-data",
                               data={"move": "top", "for": "Ann", "photo": (io.BytesIO(standard_row_photo(["KH"])), "p.jpg")})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and re.search(rf'<button type="submit" class="big confirm-scan">[^<]*{LRI}K♥{PDI}</button>', html)


def test_a_spite_and_malice_card_is_said_in_history_as_on_the_screen_scanned_or_tapped(app, database):
    """A pay-off top read from a photo is entered with its suit ("KH"), one tapped by its rank ("5"): the
    history says both as the screen names them ("K♥", "5"), never the code."""
    with app.test_request_context(headers={"Accept-Language": "en"}):
        said = [words.for_game("spite_malice").entry(m, ("Ann", "Bob")) for m in
                (sm.Top(0, "KH"), sm.Top(1, "5"), sm.Build(0, 1, "payoff", "KH"), sm.Discard(1, 2, "10D"),
                 sm.Top(0, "JOKER"), sm.Top(1, None))]
    assert said == ["Ann's pay-off top: K♥.", "Bob's pay-off top: 5.", "Ann builds K♥ from the pay-off pile on pile 1.",
                    "Bob discards 10♦ onto side stack 2.", "Ann's pay-off top: Joker.", "Bob's pay-off top: unknown."]
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann = ShPhone(app, match.id, "0")
    assert ann.post(move="top", card="KH").status_code == 200
    assert ann.post(move="top", card="5", **{"for": "Bob"}).status_code == 200
    history = ann.client.get(f"/m/{match.id}/history").get_data(as_text=True).replace("&#39;", "'")
    assert "Ann's pay-off top: K♥." in history and "Bob's pay-off top: 5." in history
    assert "KH" not in re.sub(r"<[^>]*>", "", history)  # in no words shown (a form's random key may hold KH)
    _in_hebrew(ann)
    history = ann.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert f"{LRI}K♥{PDI}" in history and not NOT_ISOLATED.findall(history)
