"""A whole 3-player Shithead game on three phones (Chromium at 390x844, the real server), every entry
made by tapping, from the first face-up card to the Shithead.

The cards lie as a real deal would (a fixed shuffle, written out below); a simulated table
(tests/games/shithead_sim.py) holds the true hands the referee never sees and says what an honest table
does next: a careful player plays their lowest cards, the whole set of a rank, and picks up only when
nothing goes. The phone of the player who acts taps it: chips for the face-up cards, a rank and its
cards for a play, a face-up card, "Turn over a face-down card", "Pick up the pile", "Interrupt".
Along the way:

* each entry reaches the other phones live (they show the new version without reloading);
* a burn is announced on the phones with its rule ("Burned", SH-32 / SH-35) and the burner plays on;
* the first time a player can complete four of a kind out of turn, that player presses "Interrupt"
  while the player whose turn it is taps their own entry at the same moment: exactly one is saved,
  and the other phone is told which entry came first (409), nothing of its own saved;
* at the end every phone shows the finishing order and the Shithead, and the download replays to it.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from referee import store
from referee.games import shithead as sh
from referee.games.shithead_rules import rank_of
from referee.transcript import check, loads

from .conftest import wait_for_subscribers

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "games"))
from shithead_sim import Table  # noqa: E402

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
OUT = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
NAMES = ("Ana", "Ben", "Cy")
# The deal: face down, face up, in the hand (per player), then the stock, drawn from the end.
DOWN = [["6C", "3H", "QS"], ["8C", "KC", "KD"], ["9C", "9S", "KS"]]
UP = [["JH", "10S", "AS"], ["AC", "JC", "2S"], ["9D", "5H", "7D"]]
HAND = [["QC", "AH", "6H"], ["3C", "4S", "JD"], ["2H", "10H", "5S"]]
STOCK = ["4D", "6S", "4H", "7S", "8D", "2D", "3S", "2C", "7H", "5C", "7C", "4C", "10D", "QH", "9H", "8S", "AD",
         "JS", "8H", "KH", "10C", "3D", "5D", "QD", "6D"]
SPECIAL = ("2", "3", "7", "8", "10")
ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


def label(card: str) -> str:
    return card[:-1] + SUITS[card[-1]]


def careful(options: list):
    """What a careful player does: interrupt when they can; else the lowest ordinary rank, all of it."""
    for kind in (sh.Interrupt, sh.FaceUp, sh.Start):
        found = [m for m in options if isinstance(m, kind)]
        if found:
            return found[0]
    plays = [m for m in options if isinstance(m, sh.Play)]
    if plays:
        return min(plays, key=lambda m: (rank_of(m.cards[0]) in SPECIAL, ORDER.index(rank_of(m.cards[0])),
                                         -len(m.cards)))
    return next(m for m in options if isinstance(m, sh.Pickup))


class Phone:
    def __init__(self, page, name: str):
        self.page, self.name = page, name
        page.set_default_timeout(TIMEOUT)

    def entry(self, tap) -> int:
        """Tap something that posts an entry; the HTTP status of the answer."""
        with self.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            tap()
        return answer.value.status

    def actions(self):
        return self.page.locator("#actions")

    def open(self, name: str) -> None:
        self.actions().get_by_role("link", name=name, exact=True).click()
        self.page.locator("#pick").wait_for()

    def tick(self, scope, cards) -> None:
        for card in cards:
            chip = scope.locator(f"label.chip:has(input[value='{card}'])")
            if not chip.locator("input").is_checked():
                chip.click()


def tap_entry(phone: Phone, state, move) -> int:
    """The taps for ``move`` on ``phone`` (the screen shows state ``state``)."""
    page, acts = phone.page, phone.actions()
    if isinstance(move, sh.FaceUp):
        form = page.locator(f"form.faceup-form[data-faceup-for='{NAMES[move.seat]}']")
        phone.tick(form, move.cards)
        return phone.entry(form.get_by_role("button").click)
    if isinstance(move, sh.Start):
        phone.open("I start: the lowest card")
        return phone.entry(page.locator("#pick").get_by_role("button", name=label(move.card), exact=True).click)
    if isinstance(move, sh.Pickup):
        return phone.entry(acts.get_by_role("button", name=re.compile(r"^Pick up the pile")).click)
    if isinstance(move, sh.Interrupt):
        return phone.entry(acts.get_by_role("button", name=re.compile(r"^Interrupt")).click)
    where = sh.view(state, move.seat)["seats"][move.seat]["zone"]
    if where == "facedown":
        phone.open("Turn over a face-down card")
        return phone.entry(page.locator("#pick").get_by_role("button", name=label(move.cards[0]), exact=True).click)
    if where == "faceup":
        return phone.entry(acts.get_by_role("button", name=" ".join(map(label, move.cards)), exact=True).click)
    rank = rank_of(move.cards[0])
    phone.open(RANK_NAMES.get(rank, rank))
    pick = page.locator("#pick")
    if pick.locator("input[type=checkbox]").count():  # the one card it can be is said, not ticked
        phone.tick(pick, move.cards)
    return phone.entry(pick.get_by_role("button", name=re.compile(r"^Play (them|it)$")).click)


def test_three_phones_play_a_whole_game_with_an_interrupt_race_and_burns(live_server, phone, database):
    # --- Ana creates the table; Ben and Cy join by the link -------------------------------------
    ana = Phone(phone(), "Ana")
    ana.page.goto(live_server.url + "/")
    ana.page.get_by_role("link", name="New Shithead table").click()
    for i, name in enumerate(NAMES, start=1):
        ana.page.get_by_label(f"Player {i}", exact=True).fill(name)
    ana.page.get_by_role("button", name="Create the table").click()
    ana.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    match = store.get_match(database, ana.page.url.rsplit("/", 1)[1])
    assert match.game == "shithead"
    phones = [ana]
    for name in NAMES:
        if name != "Ana":
            p = Phone(phone(), name)
            p.page.goto(f"{live_server.url}/j/{match.join_code}")
            p.page.wait_for_url(f"**/m/{match.id}")
            phones.append(p)
    for p in phones:
        p.page.locator("#seat-picker").get_by_role("button", name=p.name, exact=True).click()
        p.page.locator("#seat-picker").wait_for(state="detached")
    wait_for_subscribers(match.id, 3)

    table = Table(NAMES, {}, 0)
    table.down, table.up, table.hand = [list(x) for x in DOWN], [list(x) for x in UP], [list(x) for x in HAND]
    table.stock = list(STOCK)
    table._subset = lambda cards, least=1: tuple(sorted(cards)[:least] if least > 1 else cards)

    raced = burns = fails = 0
    version = 0
    while table.state.phase != "over":
        move = careful(table.honest_entries())
        actor = phones[move.seat]
        for p in phones:  # every phone is up to date, live
            p.page.locator(f"#screen [data-version='{version}']").wait_for()
        if isinstance(move, sh.Interrupt) and not raced:
            # The turn's player taps their own entry at the same moment; the interrupt reaches the server first.
            turn = phones[table.state.turn]
            own = careful([m for m in table.honest_entries() if not isinstance(m, sh.Interrupt)])
            held = []
            turn.page.route("**/entry", lambda route: held.append(route))  # the turn's entry is on its way, held in the network
            turn_entry_tap(turn, table.state, own)
            while not held:
                turn.page.wait_for_timeout(20)
            assert tap_entry(actor, table.state, move) == 200
            turn.page.locator(f"#screen [data-version='{version + 1}']").wait_for()  # the interrupt, live
            with turn.page.expect_response(lambda r: r.url.endswith("/entry")) as late:
                held[0].continue_()
            turn.page.unroute("**/entry")
            assert late.value.status == 409
            notice = turn.page.locator(".notice", has_text="Someone else entered something first")
            notice.wait_for()
            assert f"{NAMES[move.seat]} interrupts" in notice.inner_text()
            assert store.get_match(database, match.id).version == version + 1  # exactly one saved
            OUT.mkdir(parents=True, exist_ok=True)
            turn.page.screenshot(path=str(OUT / "shithead-interrupt-lost.png"), full_page=True)
            actor.page.screenshot(path=str(OUT / "shithead-interrupt.png"), full_page=True)
            raced += 1
        else:
            status = tap_entry(actor, table.state, move)
            assert status == 200, (move, actor.page.locator("#screen").inner_text()[:600])
        events = table.enter(move)
        version += 1
        kinds = [e["kind"] for e in events]
        if "burn" in kinds:
            burns += 1
            other = phones[(move.seat + 1) % 3]
            other.page.locator("#reminders", has_text="Burned").wait_for()
            rule = next(e["rule"] for e in events if e["kind"] == "burn")
            assert rule in other.page.locator("#reminders").inner_text()
        fails += "fail" in kinds
        assert version < 120, "the game should be over by now"

    assert raced == 1 and burns >= 1
    result = table.state.history[0]
    shithead = NAMES[result.shithead]
    for p in phones:
        p.page.locator("#last-game h2", has_text=f"{shithead} is the Shithead").wait_for()
        order = p.page.locator("#last-game ol.finishing-order li").all_inner_texts()
        assert order[:2] == [NAMES[s] for s in result.order]
    ana.page.screenshot(path=str(OUT / "shithead-game-over.png"), full_page=True)
    download = ana.page.request.get(f"{live_server.url}/m/{match.id}/transcript.json")
    _, _, report = check(loads(download.text()))
    assert report["ok"] and report["result"]["rounds"][0]["shithead"] == shithead
    assert store.get_match(database, match.id).version == version


def turn_entry_tap(turn: Phone, state, move) -> None:
    """Start the turn player's entry without waiting for its answer (the route holds it back)."""
    acts = turn.actions()
    if isinstance(move, sh.Pickup):
        acts.get_by_role("button", name=re.compile(r"^Pick up the pile")).click()
        return
    where = sh.view(state, move.seat)["seats"][move.seat]["zone"]
    if where == "faceup":
        acts.get_by_role("button", name=" ".join(map(label, move.cards)), exact=True).click()
        return
    if where == "facedown":
        turn.open("Turn over a face-down card")
        turn.page.locator("#pick").get_by_role("button", name=label(move.cards[0]), exact=True).click()
        return
    rank = rank_of(move.cards[0])
    turn.open(RANK_NAMES.get(rank, rank))
    pick = turn.page.locator("#pick")
    turn.tick(pick, move.cards)
    pick.get_by_role("button", name="Play them").click()


def test_an_open_picker_keeps_what_was_tapped_when_another_phone_enters(live_server, phone, database):
    """A live update draws the screen again and fetches the open picker again: the chips the player had
    tapped in it are tapped again (a swap half chosen survives another player's swap)."""
    from playwright.sync_api import expect

    from referee import tables

    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    for seat, (name, cards) in enumerate((("Ana", UP[0]), ("Ben", UP[1]))):
        tables.append(database, match.id, seat, {"move": "faceup", "seat": name, "cards": cards}, None, seat=seat)
    page = phone()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/j/{match.join_code}")
    page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    page.locator("#seat-picker").wait_for(state="detached")
    wait_for_subscribers(match.id, 1)
    page.locator("#actions").get_by_role("link", name="Swap a hand card with a face-up card").click()
    def tap(name: str, value: str) -> None:
        page.locator(f"#pick label.chip:has(input[name='{name}'][value='{value}'])").click()

    def tapped(name: str, value: str) -> None:
        expect(page.locator(f"#pick input[name='{name}'][value='{value}']")).to_be_checked()

    def swap() -> int:
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            page.locator("#pick").get_by_role("button", name="Swap").click()
        return answer.value.status

    tap("out", "AS")
    tap("card", "2C")
    tables.append(database, match.id, 2, {"move": "swap", "seat": "Ben", "card": "3C", "out": "AC"}, None, seat=1)
    page.locator("#screen [data-version='3']").wait_for()
    tapped("out", "AS")
    tapped("card", "2C")
    # no card lying face up is offered as Ana's hand card (GEN-3): not Ben's J♣, nor the 3♣ he just swapped up
    for card in ("JC", "3C", "JH", "AS"):
        expect(page.locator(f"#pick input[name='card'][value='{card}']")).to_have_count(0)
    assert swap() == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "swap", "seat": "Ana", "card": "2C", "out": "AS"}
