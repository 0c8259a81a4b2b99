"""The card pickers (``GET /m/<id>/pick``) of every game, given every pick parameter missing, empty, huge,
negative, non-numeric, out of range or a list, from the phone whose turn it is and from the shared phone,
as a fragment and as a whole page: a picker or a message, never a 500 (the view checks the parameters,
``play.pick_fields``, so no template meets a missing or malformed one). Each table is played through
its entries, and the pickers are walked at several moments of it (a power being used, a reveal...)."""
from __future__ import annotations

import html

import pytest

from referee import store, tables
from referee.views.play import PICK_FIELDS

from .test_play import HX, Phone, text

MISSING = object()
VALUES = [MISSING, "", "0", "-1", "1", "99", "9" * 40, "1.5", "x", "1,9", "1,,2", ",", "٣", "Nobody", "<b>"]
NOTHING = "Nothing to choose for that entry."
GONE = "That choice is no longer open: the table has moved on."
CLOSED = "That choice is no longer open"  # the whole message names the last entry
CAMBIO = {"deck": "standard_jokers", "initial_look": "nearest_two", "matching_exchange": "off",
          "snap_enabled": True, "discard_taken_face_up": False, "round_score": "plain",
          "tie_policy": "all_lowest_except_caller", "kamikaze": False, "exact_100_reset": "off",
          "game_end": "rounds", "deck_out_ends_round": False, "next_round_order": "clockwise", "rounds_n": 1}

WALK = "walk"  # a step of a script: walk every picker here
# (game, players, rules, script): a step is WALK, or (who posts: a seat's index or "shared", the entry's fields)
TABLES = {
    "ratatat": ("ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1}, [
        WALK, (0, {"move": "turn_up", "card": "5"}), WALK,
        (0, {"move": "draw"}), WALK, (0, {"move": "replace", "slot": "2", "out": "8"}),
        (1, {"move": "draw"}), (1, {"move": "power", "card": "SWAP"}), WALK,
        (1, {"move": "swap", "slot": "1", "target": "Ana", "target_slot": "3"}), (1, {"move": "call"}),
        (2, {"move": "draw"}), (2, {"move": "power", "card": "PEEK"}), WALK,
        (2, {"move": "peek", "slot": "1", "seen": "unknown"}),
        (0, {"move": "draw"}), (0, {"move": "discard", "card": "7"}),
        (0, {"move": "reveal", "for": "Ana", "card1": "0", "card2": "4", "card3": "2", "card4": "1"}),
        (2, {"move": "reveal", "for": "Ben", "card1": "3", "card2": "PEEK", "card3": "5", "card4": "9"}),
        (2, {"move": "reveal", "for": "Cy", "card1": "6", "card2": "6", "card3": "1", "card4": "SWAP"}), WALK]),
    "ratatat-draw2": ("ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1}, [
        (0, {"move": "turn_up", "card": "5"}), (0, {"move": "draw"}),
        (0, {"move": "power", "card": "DRAW2", "then": "draw"}), WALK]),
    "cabo": ("cabo", ["Ana", "Ben"], {}, [
        WALK, ("shared", {"move": "turn_up", "card": "5"}), WALK, ("shared", {"move": "draw"}), WALK,
        ("shared", {"move": "power", "card": "11"}), WALK, ("shared", {"move": "swap"}),
        ("shared", {"move": "draw"}), ("shared", {"move": "power", "card": "9"}), WALK]),
    "cambio": ("cabo", ["Ana", "Ben", "Cy"], CAMBIO, [
        (0, {"move": "turn_up", "card": "5H"}), (0, {"move": "draw"}), (0, {"move": "power", "card": "KS"}), WALK,
        (2, {"move": "snap", "slot": "1", "owner": "Ben", "card": "KC"}), WALK,
        (2, {"move": "give", "slot": "4"}),
        (0, {"move": "look_swap", "slot": "3", "target": "Ben", "target_slot": "2", "swap": "1"}),
        (1, {"move": "draw"}), (1, {"move": "replace", "slot": "1", "out": "9S"}), WALK]),
    "shithead": ("shithead", ["Ana", "Ben", "Cy"], {}, [
        WALK, (0, {"move": "faceup", "cards": "9S,KD,AH"}), (1, {"move": "faceup", "cards": "5H,6S,QD"}),
        (2, {"move": "faceup", "cards": "JH,8D,10C"}), WALK, (0, {"move": "start", "card": "4C"}), WALK,
        (0, {"move": "play", "cards": "4C"}), (1, {"move": "play", "cards": "KS"}), WALK]),
    "spite_malice": ("spite_malice", ["Ann", "Bob"], {"payoff_size": 5}, [
        WALK, (0, {"move": "top", "card": "9"}), (0, {"move": "top", "card": "4", "for": "Bob"}), WALK,
        (0, {"move": "build", "source": "hand", "card": "A", "pile": "1"}), WALK,
        (0, {"move": "discard", "card": "7", "stack": "1"}), WALK]),
}


def _state(database, match_id):
    match = store.get_match(database, match_id)
    return store.state_at(database, match, tables.replay)


def _open_moves(log) -> list[dict]:
    """Every entry open now, of any seat or the table, as its dict."""
    game, state = log.game, log.state
    seats = list(game.may_act(state)) + [None]
    return [game.move_to_dict(m, state.players) for seat in seats for m in game.legal_moves(state, seat)]


def _base(move: dict) -> dict[str, str]:
    """The picker's fields that reach the branch of an open entry (its place, player, source...)."""
    base = {"move": move["move"], "field": "card"}
    slot = move.get("slots") or move.get("slot")
    if slot:
        base["slot"] = ",".join(str(s) for s in slot) if isinstance(slot, list) else str(slot)
    for field, keys in (("seat", ("seat",)), ("target", ("target", "owner")), ("source", ("owner", "source")),
                        ("card", ("card",))):
        value = next((move[k] for k in keys if isinstance(move.get(k), str)), None)
        if value is not None:
            base[field] = value
    if isinstance(move.get("card"), str) and move["card"][:-1]:
        base["rank"] = move["card"][:-1]
    return base


def _get(phone: Phone, args: dict, htmx: bool = True):
    response = phone.client.get(f"{phone.url}/pick", query_string=args, headers=HX if htmx else {})
    body = html.unescape(text(response))
    assert response.status_code < 500, (args, response.status_code)
    if 'class="pick pick-closed"' in body:  # an entry no longer open (test_pick_closed.py): said, no card to tap
        assert response.status_code == 200 and CLOSED in body and "cardbtn" not in body, (args, body[:300])
    if response.status_code >= 400:
        assert NOTHING in body or "watching" in body, (args, response.status_code, body[:300])
    return response


def _walk(log, on_turn: Phone, shared: Phone) -> int:
    """Every picker move of the game, every parameter given every value (one at a time, over the bare move
    and over the fields of an entry open now); returns how many answers were read."""
    game, opened, count = log.game, _open_moves(log), 0
    for move in game.PICK_MOVES:
        bases = [({"move": move}, (on_turn,))]
        bases += [(_base(m), (on_turn, shared)) for m in [m for m in opened if m["move"] == move][:1]]
        for base, phones in bases:
            for phone in phones:
                _get(phone, base)
                _get(phone, base, htmx=False)  # the whole page
                count += 2
            for param in PICK_FIELDS:
                if param == "move":
                    continue
                for value in VALUES:
                    args = {k: v for k, v in base.items() if k != param}
                    if value is not MISSING:
                        args[param] = value
                    for phone in phones:
                        _get(phone, args)
                        count += 1
    return count


@pytest.mark.parametrize("name", list(TABLES))
def test_every_picker_answers_every_pick_parameter_below_500(app, database, name):
    game, players, rules, script = TABLES[name]
    match = store.create_match(database, game, players, rules)
    shared = Phone(app, match.id, "shared")  # first: it takes no seat a phone holds
    seated = [Phone(app, match.id, str(i)) for i in range(len(players))]
    walked = 0
    for step in script:
        if step == WALK:
            log = _state(database, match.id)
            turn = log.game.to_act(log.state)
            walked += _walk(log, seated[turn if turn is not None else 0], shared)
            continue
        who, fields = step
        phone = shared if who == "shared" else seated[who]
        response = phone.post(**fields)
        assert response.status_code == 200, (name, fields, text(response)[:500])
    assert walked > 500


# --- The crafted links a tester found answering 500 (each failed before its fix) ------------------------------


def _cabo(app, database, rules: dict | None = None, players=("Ana", "Ben")):
    match = store.create_match(database, "cabo", list(players), rules or {})
    shared = Phone(app, match.id, "shared")
    assert shared.post(move="turn_up", card="5").status_code == 200
    return match, shared


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("args", [{"move": "replace"}, {"move": "peek"}, {"move": "replace", "slot": ""},
                                  {"move": "match", "slot": "1,9"}, {"move": "match", "slot": "9"}])
def test_a_cabo_picker_without_its_place_or_beyond_the_row_says_it_is_no_longer_open(app, database, args, htmx):
    match, shared = _cabo(app, database)
    assert shared.post(move="draw").status_code == 200
    seated = Phone(app, match.id, str(_state(database, match.id).state.round.turn))
    for phone in (seated, shared):
        response = _get(phone, args, htmx)
        assert response.status_code == 200
        if args["move"] == "peek":  # no peek is open while a card is held: the picker is closed, saying why
            assert CLOSED in html.unescape(text(response)) and "cardbtn" not in text(response)
            continue
        if args["move"] != "match":
            assert GONE in html.unescape(text(response))
        else:  # a place beyond the row is not chosen: place 1 alone is no claim yet
            assert "Claim: they match" not in text(response) and "Place 4" in text(response)
            assert ("Place 1 ✓" in text(response)) == ("1" in args["slot"].split(","))
            assert "Place 9" not in text(response)


@pytest.mark.parametrize("game", ["cabo", "ratatat"])
def test_a_swap_picker_without_its_place_during_a_swap_power_is_no_500(app, database, game):
    if game == "cabo":
        match, shared = _cabo(app, database)
        shared.post(move="draw")
        assert shared.post(move="power", card="11").status_code == 200
    else:
        match = store.create_match(database, "ratatat", ["Ana", "Ben"])
        shared = Phone(app, match.id, "shared")
        for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "power", "card": "SWAP"}):
            assert shared.post(**fields).status_code == 200
    seated = Phone(app, match.id, str(_state(database, match.id).state.round.turn))
    for phone in (seated, shared):
        for htmx in (True, False):
            response = _get(phone, {"move": "swap"}, htmx)
            assert response.status_code == 200
            assert GONE in html.unescape(text(response))


@pytest.mark.parametrize("args", [{"move": "replace", "slot": "-1"}, {"move": "replace", "slot": "x"},
                                  {"move": "replace", "slot": "1,2"}, {"move": "replace", "slot": "9" * 40},
                                  {"move": "peek", "slot": "1", "target": "Nobody"},
                                  {"move": "replace", "slot": "1", "field": "<b>"},
                                  {"move": "discard", "then": "call"}, {"move": "nope"}])
def test_a_malformed_pick_parameter_is_a_400_that_says_so(app, database, args):
    match, shared = _cabo(app, database)
    response = shared.client.get(f"{shared.url}/pick", query_string=args, headers=HX)
    assert response.status_code == 400 and NOTHING in html.unescape(text(response))
