"""A whole short game of Spite & Malice (pay-off piles of 5) on two phones (Chromium at 390x844, the
real server), every entry tapped, from the pay-off tops to the win.

A simulated table (tests/games/spite_malice_helpers.py) holds the true cards the referee never sees and
plays as a keen player would: the pay-off top when it fits, then side-stack tops, then hand cards, then
a discard. Each of its entries is first tapped on the phone of the player it belongs to — a rank for a
pay-off top, "I drew N cards", a source then a pile for a build, "End the turn", a rank and a side stack
for the discard — and the other phone is checked to show it live. At the end both phones show the
winner and the points, and the download replays to the same result.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee import store, tables
from referee.games import spite_malice as sm
from referee.transcript import check, loads
from tests.games.spite_malice_helpers import TrueTable

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
OUT = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
NAMES = ("Ann", "Bob")
RULES = {"payoff_size": 5, "match_target": None}
SEED = 193  # a deal whose game builds from the pay-off pile, the hand and side stacks, draws and discards


class Keen(random.Random):
    """The simulated players always take the keen choice (every entry with its card, every build looked
    for); the deck is still shuffled by the seed."""

    def random(self) -> float:
        return 0.0

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k)


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


def rank(card: str) -> str:
    return card if card in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") else card[:-1]


class Phone:
    def __init__(self, page, name: str):
        self.page, self.name = page, name
        page.set_default_timeout(TIMEOUT)

    def entry(self, tap) -> int:
        with self.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            tap()
        return answer.value.status

    def open(self, name) -> None:
        self.page.locator("#actions").get_by_role("link", name=name, exact=True).click()
        self.page.locator("#pick").wait_for()

    def tap(self, move, state) -> int:
        """The taps a player makes for ``move``; the HTTP status of the entry."""
        pick = self.page.locator("#pick")
        if isinstance(move, sm.Top):
            self.open("Enter your pay-off top")
            return self.entry(pick.get_by_role("button", name=rank(move.card), exact=True).click)
        if isinstance(move, sm.Start):
            return self.entry(self.page.get_by_role("button", name=f"{self.name} starts").click)
        if isinstance(move, sm.Draw):
            return self.entry(self.page.get_by_role("button", name=re.compile(r"^I drew \d+ cards? from the stock")).click)
        if isinstance(move, sm.Build):
            where = {"hand": "Hand", "payoff": "Pay-off"}.get(move.source, f"Side {move.source[4:]}:")
            card = "K" if rank(move.card) == "K" else rank(move.card)
            self.open(f"{where} {card}")
            piles = len(state.center)
            target = (f"Pile {move.pile} (on" if move.pile <= piles and state.center[move.pile - 1]
                      else "Start a new pile")
            return self.entry(pick.get_by_role("button", name=re.compile("^" + re.escape(target))).click)
        assert isinstance(move, sm.Discard)
        self.open("End the turn: a hand card onto a side stack")
        pick.locator(f"label.chip:has(input[name=card][value='{rank(move.card)}'])").click()
        return self.entry(pick.get_by_role("button", name=re.compile(rf"^Side {move.stack} ")).click)


def test_two_phones_play_a_short_game_to_a_win(live_server, phone, database):
    ann = Phone(phone(), "Ann")
    ann.page.goto(live_server.url + "/")
    ann.page.get_by_role("link", name="New Spite & Malice table").click()
    for i, name in enumerate(NAMES, start=1):
        ann.page.get_by_label(f"Player {i}", exact=True).fill(name)
    ann.page.get_by_text("Customise the house rules").click()
    ann.page.locator("input[name=payoff_size]").fill("5")
    ann.page.locator("input[name=match_target]").fill("off")
    ann.page.get_by_role("button", name="Create the table").click()
    ann.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    match = store.get_match(database, ann.page.url.rsplit("/", 1)[1])
    assert match.game == "spite_malice" and match.rules.get("payoff_size") == 5
    bob = Phone(phone(), "Bob")
    bob.page.goto(f"{live_server.url}/j/{match.join_code}")
    bob.page.wait_for_url(f"**/m/{match.id}")
    phones = [ann, bob]
    for p in phones:
        p.page.locator("#seat-picker").get_by_role("button", name=p.name, exact=True).click()
        p.page.locator("#seat-picker").wait_for(state="detached")
    wait_for_subscribers(match.id, 2)

    table = TrueTable(Keen(SEED), RULES)
    enter = table.enter
    kinds: list[str] = []

    def tapped_then_entered(move):
        """Each entry of the true table is first tapped on its player's phone, then followed."""
        version = len(kinds)
        for p in phones:  # both phones are up to date, live
            p.page.locator(f"#screen [data-version='{version}']").wait_for()
        server = store.state_at(database, store.get_match(database, match.id), tables.replay).state
        status = phones[move.seat].tap(move, server)
        assert status == 200, (move, phones[move.seat].page.locator("#screen").inner_text()[:600])
        if len(kinds) == 14:  # mid-game: piles, side stacks, the turn screen
            OUT.mkdir(parents=True, exist_ok=True)
            phones[move.seat].page.screenshot(path=str(OUT / "spite-malice-turn.png"), full_page=True)
        kinds.append(type(move).__name__ + ("/" + move.source if isinstance(move, sm.Build) else ""))
        return enter(move)

    table.enter = tapped_then_entered
    table.play(200)

    assert table.state.over and table.state.history[-1].how == "payoff"
    assert {"Top", "Draw", "Discard", "Build/hand", "Build/payoff"} <= {k for k in kinds}
    assert any(k.startswith("Build/side") for k in kinds)
    result = table.state.history[-1]
    winner, points = NAMES[result.winner], result.points
    for p in phones:
        p.page.locator("#last-game h2", has_text=f"{winner} wins, {points} point").wait_for()
        assert "built the last pay-off card" in p.page.locator("#last-game").inner_text()
    ann.page.screenshot(path=str(OUT / "spite-malice-over.png"), full_page=True)
    download = ann.page.request.get(f"{live_server.url}/m/{match.id}/transcript.json")
    _, _, report = check(loads(download.text()))
    assert report["ok"] and report["result"]["winners"] == [winner]
    assert report["result"]["totals"][winner] == points
