"""Spite & Malice: how many pay-off cards are left is said with the language's plural forms (Italian "ne resta 1",
not "ne restano 1"): the engine's "turn the next pay-off card ... (1 left)" and the screen's "1 left" both ask the
catalogue through ngettext, with the number of cards left."""
from __future__ import annotations

import pytest
from jinja2 import pass_context

from referee import i18n_rulings, store

from .test_play import Phone, text

SENTENCE = "%(name)s: turn the next pay-off card and enter it (%(num)s left)."


class Asked:
    """A catalogue that says every message in English and notes how it was asked for."""

    def __init__(self) -> None:
        self.singular: list[str] = []
        self.plural: list[tuple[str, str, int]] = []

    def gettext(self, message: str) -> str:
        self.singular.append(message)
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.plural.append((singular, plural, n))
        return singular if n == 1 else plural


@pytest.mark.parametrize("left", [0, 1, 2, 12])
def test_the_engines_next_pay_off_card_sentence_is_a_plural(left):
    asked = Asked()
    said = i18n_rulings.say(f"Ana: turn the next pay-off card and enter it ({left} left).", asked.gettext,
                            asked.ngettext)
    assert said == f"Ana: turn the next pay-off card and enter it ({left} left)."
    assert SENTENCE not in asked.singular
    assert [(s, n) for s, _, n in asked.plural] == [(SENTENCE, left)]


def test_the_screens_cards_left_is_a_plural(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann = Phone(app, match.id, "0")
    asked: list[tuple[str, int]] = []
    env = app.jinja_env
    plain_gettext, plain_ngettext = env.globals["gettext"], env.globals["ngettext"]

    @pass_context
    def ngettext(context, singular, plural, n, **variables):
        asked.append((singular, n))
        return plain_ngettext(context, singular, plural, n, **variables)

    @pass_context
    def gettext(context, message, **variables):
        asked.append((message, None))
        return plain_gettext(context, message, **variables)

    env.globals.update(ngettext=ngettext, gettext=gettext, _=gettext)
    try:
        page = text(ann.client.get(f"/m/{match.id}"))
    finally:
        env.globals.update(ngettext=plain_ngettext, gettext=plain_gettext, _=plain_gettext)
    assert "5 left" in page
    assert ("%(num)s left", None) not in asked
    assert asked.count(("%(num)s left", 5)) == 2  # each player's pay-off pile
