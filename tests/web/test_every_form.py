"""Every form the app shows, read from its pages rather than listed by hand (so a new game's or a new
page's forms are covered as soon as they exist), for every game at several points of play, as a seated
phone, the shared phone and a watcher see them, sent back with hostile values: never a 500."""
from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import store, tables

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAME_EXAMPLES = ["three-rounds", "shithead-facedown", "spite-malice-king-chain", "cabo-scoring"]
HX = {"Origin": "http://localhost", "HX-Request": "true"}
HOSTILE = ["²", "٣", "١٢", "9" * 5000, "[" * 100_000, '{"a":' * 5000, "\x00", "\x1b[2J", "\ud7ff", "-1", "-0",
           "+1", "1e9", "1.5", " 1", "NaN", "Infinity", "0x10", "", "x" * 5000, "Ana\u200b", "null", "{}", "[]",
           "🂡", "<script>", "9999999999999999999999", "0", "1", "2", "3", "10", "K", "QS", "JOKER", "BACK",
           "shared", "watch"]


class _Forms(HTMLParser):
    """Each form's method, where it goes, and the values its fields would send as shown."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            action = a.get("hx-post") or a.get("action") or a.get("hx-get") or ""
            method = "POST" if a.get("hx-post") or a.get("method", "").lower() == "post" else "GET"
            self._form = {"action": action, "method": method, "fields": {}}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag in ("input", "button", "textarea") and a.get("name"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a and a["name"] in self._form["fields"]:
                return
            self._form["fields"][a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self._form["fields"].setdefault(self._select, a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def _forms_of(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return [f for f in parser.forms if f["action"].startswith("/") and "/events" not in f["action"]]


def _played(database, name: str, share: float) -> str:
    """A match of the example's game, players and rules, with the first part of its entries entered
    (stepping back past any entry the example shows being refused)."""
    transcript = json.loads((EXAMPLES / f"{name}.json").read_text())
    match = store.create_match(database, transcript["game"], transcript["players"], transcript.get("rules", {}))
    for version, entry in enumerate(transcript["entries"][:int(len(transcript["entries"]) * share)]):
        try:
            tables.append(database, match.id, version, entry, None)
        except Exception:  # noqa: BLE001 - a refused example entry: the match stays where it was
            break
    return match.id


@pytest.fixture
def forms(app, database):
    """(phone, form) for every form on every page of a match of each game, early and mid-play."""
    found: list[tuple[object, dict]] = []
    for name in GAME_EXAMPLES:
        for share in (0.0, 0.5):
            match_id = _played(database, name, share)
            for seat in ("shared", "0", None):  # the shared phone first: it would take a held seat over
                phone = app.test_client()
                if seat is not None:
                    assert phone.post(f"/m/{match_id}/seat", data={"seat": seat}, headers=HX).status_code == 303
                pages = [f"/m/{match_id}", f"/m/{match_id}/history", f"/m/{match_id}/correct/0", f"/m/{match_id}/end",
                         "/", "/decks",
                         "/nights/", f"/new/{store.get_match(database, match_id).game}"]
                for page in pages:
                    html = phone.get(page).get_data(as_text=True)
                    found += [(phone, f) for f in _forms_of(html)]
                    for picker in re.findall(r'hx-get="(/m/[^"]*/pick\?[^"]*)"', html):
                        answer = phone.get(picker.replace("&amp;", "&"), headers=HX).get_data(as_text=True)
                        found += [(phone, f) for f in _forms_of(answer)]
    unique = {(id(phone), f["action"], tuple(sorted(f["fields"].items()))): (phone, f) for phone, f in found}
    return list(unique.values())  # the language switch is on every page: once per phone


def test_the_pages_show_the_forms_of_every_kind(forms):
    """The harvest reaches the table's entry forms, its pickers, seats, corrections and the new-table form."""
    actions = {re.sub(r"/m/\w+", "/m/X", f["action"].split("?")[0]) for _, f in forms}
    assert {"/m/X/entry", "/m/X/seat", "/m/X/scan", "/m/X/end", "/lang"} <= actions
    assert any(a.startswith("/new/") for a in actions)
    moves = {f["fields"].get("move") for _, f in forms if f["action"].endswith("/entry")}
    assert len(moves) >= 8  # several kinds of entry, across the four games


def test_every_form_sent_back_with_hostile_values_answers_below_500(forms):
    """Each form as shown, with one to three of its fields (or a field it does not have) given a hostile
    value or left out: a 4xx with a message or an accepted entry, never a 500."""

    by_action: dict[str, list] = {}
    for phone, form in forms:  # each kind of form (each kind of entry) as likely as another, however many pages show it
        kind = re.sub(r"/m/\w+", "/m/X", form["action"].split("?")[0]) + " " + form["fields"].get("move", "")
        by_action.setdefault(kind, []).append((phone, form))

    @settings(max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "300")), deadline=None, database=None)
    @given(action=st.sampled_from(sorted(by_action)), data=st.data())
    def send(action, data):
        phone, form = data.draw(st.sampled_from(by_action[action]))
        fields = dict(form["fields"])
        names = sorted(fields) + ["card", "slot", "for", "entry", "version", "seat", "cards"]
        for _ in range(data.draw(st.integers(1, 3))):
            name = data.draw(st.sampled_from(names))
            if data.draw(st.integers(0, 9)) == 0:
                fields.pop(name, None)
            else:
                fields[name] = data.draw(st.sampled_from(HOSTILE) | st.text(max_size=12))
        if form["method"] == "GET":
            answer = phone.get(form["action"].replace("&amp;", "&"), query_string=fields, headers=HX)
        else:
            answer = phone.post(form["action"].replace("&amp;", "&"), data=fields, headers=HX)
        assert answer.status_code < 500, (form["action"], fields, answer.status_code)
        if answer.status_code >= 400:
            assert answer.get_data(as_text=True).strip(), "a refusal says why"

    send()
