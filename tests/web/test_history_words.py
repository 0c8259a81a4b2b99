"""The history, the undo button and the snap banner say what happened to a move that failed: a wrong snap
(CAB-6) went back and cost a penalty card; a face-down card that could not go (SH-19) was picked up with
the pile. Not as if the move had succeeded."""
from __future__ import annotations

import html
import re

from referee import i18n, store, tables
from referee.games import cabo, shithead
from referee.games.cabo_apply import failed_play
from referee.games.cabo_moves import Discard, Draw, Snap, TurnUp
from referee.i18n_rules import describe_move

from .test_cabo_table import CAMBIO, CaboPhone

MOM, DAD, CY = 0, 1, 2


def _history_row(client, match_id: str, number: int) -> str:
    page = client.get(f"/m/{match_id}/history").get_data(as_text=True)
    row = re.search(rf'<li[^>]*id="e{number}".*?</li>', page, re.S)
    assert row is not None, page[:400]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", row.group(0))).split())


def _cambio_wrong_snap(database):
    """Mom discards the 7♣; Dad snaps his own place 1, a J♠: it goes back and he takes a penalty card."""
    match = store.create_match(database, "cabo", ["Mom", "Dad", "Cy"], CAMBIO)
    players = ("Mom", "Dad", "Cy")
    version = 0
    for move in (TurnUp("5H"), Draw(MOM), Discard(MOM, "7C"), Snap(DAD, 1, None, "JS")):
        version = tables.append(database, match.id, version, cabo.move_to_dict(move, players), None).version
    return match


WRONG = ("Dad snaps their own place 1 (a J♠), which does not match the 7♣: it goes back, and Dad takes a penalty "
         "card (place 5) (CAB-6).")


def test_CAB_T14_a_wrong_snap_in_words_in_every_language(app):
    state = cabo.new_match(("Mom", "Dad", "Cy"), CAMBIO)
    for move in (TurnUp("5H"), Draw(MOM), Discard(MOM, "7C")):
        state, _ = cabo.apply(state, move)
    move = Snap(DAD, 1, None, "JS")
    failed = failed_play(state, move)
    said = {}
    for language in ("en", "it", "he"):
        with app.test_request_context(headers={"Cookie": f"{i18n.COOKIE}={language}"}):
            said[language] = str(describe_move(cabo, move, state.players, failed))
            assert str(describe_move(cabo, move, state.players)) != said[language]  # without it: as entered
    assert said["en"] == WRONG
    for language in ("it", "he"):
        assert "CAB-6" in said[language] and "Dad" in said[language] and "5" in said[language]


def test_CAB_T14_the_history_and_the_undo_button_say_a_wrong_snap_as_what_happened(app, database):
    match = _cambio_wrong_snap(database)
    dad = CaboPhone(app, match.id, "1")
    assert _history_row(dad.client, match.id, 3).startswith("#3 " + WRONG)
    assert "Undo: " + WRONG in html.unescape(dad.screen())


def test_CAB_T14_the_snap_banner_says_the_penalty(app, database):
    match = _cambio_wrong_snap(database)
    screen = html.unescape(CaboPhone(app, match.id, "2").screen())
    banner = re.search(r'<p class="banner" id="snap-open">(.*?)</p>', screen, re.S)
    assert banner is not None and "no match: Dad took a penalty card" in re.sub(r"<[^>]+>", "", banner.group(1))


def _game_until_a_face_down_card_fails():
    """The entries of an honest two-player table up to the first face-down card that cannot go (SH-19)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "games"))
    from shithead_sim import Table

    for seed in range(300):
        t = Table(("Mom", "Dad"), {}, seed)
        moves = []
        while t.state.phase in ("setup", "play"):
            options = t.honest_entries()
            if not options:
                break
            move = t.rng.choice(options)
            events = t.enter(move)
            moves.append(move)
            if any(e.get("kind") == "fail" and e.get("zone") == "facedown" for e in events):
                return moves
    raise AssertionError("no face-down card failed")


def test_SH_T21_a_face_down_flip_that_cannot_go_is_said_as_what_happened(app, database):
    moves = _game_until_a_face_down_card_fails()
    match = store.create_match(database, "shithead", ["Mom", "Dad"], {})
    version = 0
    for move in moves:
        version = tables.append(database, match.id, version, shithead.move_to_dict(move, ("Mom", "Dad")), None).version
    row = _history_row(app.test_client(), match.id, len(moves) - 1)
    assert "turns over the face-down" in row and "(SH-19)" in row, row


def test_SH_T21_an_undone_face_down_flip_is_still_said_as_what_happened(app, database):
    """The table undoes the flip: the history's struck-through row still says what that entry was, as the
    Undo button said it (the flip picked up with the pile), not "Dad plays 5♠"."""
    moves = _game_until_a_face_down_card_fails()
    match = store.create_match(database, "shithead", ["Mom", "Dad"], {})
    version = 0
    for move in moves:
        version = tables.append(database, match.id, version, shithead.move_to_dict(move, ("Mom", "Dad")), None).version
    tables.append(database, match.id, version, {"move": "undo", "seat": "Mom"}, None)
    row = _history_row(app.test_client(), match.id, len(moves) - 1)
    assert "turns over the face-down" in row and "(SH-19)" in row, row


def test_CAB_T05_a_failed_matching_claim_says_the_cards_do_not_all_match(app):
    """A keeps a 2 and claims her places 1 and 3 are both 6s; they show 6 and 9 (2nd edition: both stay face up
    and the 2 is added). The history said only "Ana claims places 1, 3 match, showing 6, 9.", as if it held."""
    from referee.games.cabo_moves import Match

    failed, held, unsaid = Match(0, (1, 3), ("6H", "9S")), Match(0, (1, 3), ("6H", "6S")), Match(0, (1, 3), matched=False)
    for language, words in (("en", "they do not all match (CAB-5)"), ("it", "non sono tutte uguali (CAB-5)")):
        with app.test_request_context(headers={"Cookie": f"{i18n.COOKIE}={language}"}):
            assert words in str(describe_move(cabo, failed, ("Ana", "Ben")))
            assert words in str(describe_move(cabo, unsaid, ("Ana", "Ben")))
            assert words not in str(describe_move(cabo, held, ("Ana", "Ben")))
    with app.test_request_context():
        assert str(describe_move(cabo, failed, ("Ana", "Ben"))) == (
            "Ana claims places 1, 3 match, showing 6♥, 9♠: they do not all match (CAB-5).")
