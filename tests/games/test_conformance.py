"""Every registered game fulfils the game interface (referee/games/interface.py): a new game is offered
by adding it to the registry and passing this file.

Random complete games are played through the interface only, as the web layer plays them: each entry
is one the game offers (``legal_moves`` of a seat that ``may_act``, or of the table), its unknown cards
filled in from the deck, turned into the form a phone posts (``entry_to_form``) and read back by the
game's own form adapter (``entry_from_form``). Along the way:

* the form and the JSON form of every entry round-trip;
* a refused entry changes nothing and its ruling names a rule the game's rules page states;
* the state round-trips through its JSON form, and replaying the accepted entries gives the live state;
* no seat's view depends on anything that seat may not see: it equals the view after replaying the log
  as redacted for that seat (what its download holds), the spectator's too;
* the result reads as ``referee check`` prints it.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAMES
from referee.games.base import Ruling, resolve_rules
from referee.games.interface import Game
from referee.games.log import Log
from referee.games.rulebook import book

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"
NAMES = sorted(GAMES)
MAX_ENTRIES = 600
CARD_FIELDS = ("card", "out", "seen")


@pytest.mark.parametrize("name", NAMES)
def test_the_module_has_the_shape_of_a_game(name):
    game = GAMES[name]
    assert isinstance(game, Game)
    assert game.NAME == name and game.TITLE and isinstance(game.ENGINE_VERSION, int)
    assert 1 <= game.MIN_PLAYERS <= game.MAX_PLAYERS
    for screen in ("screen.html", "pick.html", "correct.html", "_rules.html"):
        assert (TEMPLATES / game.TEMPLATES / screen).is_file(), screen
    for preset in game.PRESETS:
        assert preset.name and preset.description
        resolve_rules(game.VARIANTS, dict(preset.rules))  # every preset is a valid set of house rules
    sentences = book(game)
    for v in game.VARIANTS:
        assert sentences.get(v.rule), v.rule
    assert all(game.card_label(card) for card in game.cards(game.new_match(_players(game, game.MIN_PLAYERS))))


def _players(game, n: int) -> tuple[str, ...]:
    return tuple(["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"][:n])


def _fill(game, state, entry: dict, rng: random.Random) -> dict:
    """A legal entry's unknown cards, filled in as a table would: a card that may still turn up."""
    seat = state.players.index(entry["seat"]) if isinstance(entry.get("seat"), str) else None
    possible = sorted(game.still_possible(state, seat)) or game.cards(state)
    out = dict(entry)
    for name in CARD_FIELDS:
        if out.get(name) == "unknown" and rng.random() < 0.9:
            out[name] = rng.choice(possible)
    if isinstance(out.get("cards"), list):
        out["cards"] = [rng.choice(possible) if c == "unknown" else c for c in out["cards"]]
    if isinstance(out.get("seen"), list):
        out["seen"] = [rng.choice(possible) if c == "unknown" and rng.random() < 0.5 else c for c in out["seen"]]
    return out


def _offered(game, state) -> list:
    """Every entry some phone is offered now: each seat that may act, and the table's."""
    moves = []
    for seat in (*game.may_act(state), None):
        for m in game.legal_moves(state, seat):
            if m not in moves:
                moves.append(m)
    if not moves:  # between turns every seat may have something (a first peek): ask each
        for seat in range(len(state.players)):
            moves += [m for m in game.legal_moves(state, seat) if m not in moves]
    return moves


def _through_the_form(game, state, entry: dict) -> dict:
    """The entry as a phone posts it and the game's form adapter reads it back."""
    players = state.players
    form = game.entry_to_form(entry)
    assert all(isinstance(v, str) for v in form.values()), form
    seat = players.index(entry["seat"]) if isinstance(entry.get("seat"), str) else None
    back = game.entry_from_form(form, players, seat, shared=False, turn=game.to_act(state))
    assert game.parse_move(back, players, state.rules) == game.parse_move(entry, players, state.rules), (entry, back)
    return back


def _check_ruling(game, rule: str, page_ids: set[str]) -> None:
    assert game.rule_text(rule), f"{rule} has no sentence"
    assert rule in page_ids, f"{rule} is not on the rules page"


def _replay(game, state0, entries: list[dict]):
    log = Log.start(game, state0)
    for position, entry in enumerate(entries):
        log, _ = log.feed(game.parse_move(entry, state0.players, state0.rules), position)
    return log.state


def _check_views(game, state0, state, entries: list[dict]) -> None:
    as_dict = game.state_to_dict(state)
    assert game.state_to_dict(game.state_from_dict(json.loads(json.dumps(as_dict)))) == as_dict
    assert game.state_to_dict(_replay(game, state0, entries)) == as_dict  # replay = live
    replayed: dict[str, object] = {}  # a game with nothing private gives every seat the same log
    for seat in (None, *range(len(state.players))):
        redacted = game.redact(state, entries, seat)
        key = json.dumps(redacted, sort_keys=True)
        if key not in replayed:
            replayed[key] = _replay(game, state0, redacted)
        assert game.view(replayed[key], seat) == game.view(state, seat), seat


def play(game, seed: int, n_players: int, preset: int, page_ids: set[str]) -> tuple[object, int]:
    """One random match through the interface; returns its last state and the entries accepted."""
    rng = random.Random(seed)
    rules = dict(game.PRESETS[preset % len(game.PRESETS)].rules) if game.PRESETS else {}
    state0 = game.new_match(_players(game, n_players), rules)
    log, entries = Log.start(game, state0), []
    for step in range(MAX_ENTRIES):
        state = log.state
        offered = _offered(game, state)
        if not offered:
            break
        move = rng.choice(offered)
        entry = _fill(game, state, game.move_to_dict(move, state.players), rng)
        entry = _through_the_form(game, state, entry)
        parsed = game.parse_move(json.loads(json.dumps(entry)), state.players, state.rules)
        before = game.state_to_dict(state)
        try:
            log, result = log.feed(parsed, len(entries))
        except Ruling as ruling:
            assert game.state_to_dict(log.state) == before  # refused: nothing changed
            _check_ruling(game, ruling.rule, page_ids)
            continue
        entries.append(entry)
        for event in result.events:
            if event.get("rule"):
                _check_ruling(game, event["rule"], page_ids)
        if step % 97 == 0:
            _check_views(game, state0, log.state, entries)
    state = log.state
    for flag in state.flags:
        _check_ruling(game, flag.rule, page_ids)
    _check_views(game, state0, state, entries)
    result = game.result(state)
    assert set(result) >= {"rounds", "totals", "standings", "over", "winners", "outcome", "house_rules"}
    assert result["over"] == bool(state.over)
    return state, len(entries)


@pytest.fixture(scope="module")
def rule_pages():
    """The rule IDs each game's rules page has an anchor for (served by the real app)."""
    import re

    from referee import create_app

    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "x"})
    pages = {}
    with app.test_client() as client:
        for name in NAMES:
            html = client.get(f"/rules/{name}").get_data(as_text=True)
            pages[name] = set(re.findall(r'id="([A-Z]+-[A-Z]?\d+)"', html))
    return pages


@pytest.mark.parametrize("name", NAMES)
def test_random_complete_games_through_the_interface(name, rule_pages):
    game = GAMES[name]

    @settings(max_examples=60, deadline=None, database=None)
    @given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(game.MIN_PLAYERS, min(game.MAX_PLAYERS, 5)),
           preset=st.integers(0, 10))
    def one_match(seed, n_players, preset):
        play(game, seed, n_players, preset, rule_pages[name])

    one_match()


@pytest.mark.parametrize("name", NAMES)
def test_random_play_finishes_matches(name, rule_pages):
    """The random player is not stuck: matches end within the entries allowed (a game that can never
    finish, or offers nothing while not over, fails here)."""
    game = GAMES[name]
    finished = 0
    for seed in range(6):  # the presets in turn: a match to a target may outlast the entries allowed
        state, _ = play(game, seed, game.MIN_PLAYERS, seed, rule_pages[name])
        finished += bool(state.over)
        if not state.over:
            assert _offered(game, state), "nothing to enter, yet the match is not over"
    assert finished >= 1
