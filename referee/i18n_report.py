"""``referee check --lang he|it|en``: the words of the text report in a language.

The transcript and the JSON report stay language-neutral (rule IDs, card codes, the engines' English
sentences). The text report's own words (entry, REJECT/FLAG, round, totals, the counts) come from the
app's catalogue; each ruling, round explanation and result the engine said is read back by its shape
(``referee.i18n_rulings``) and said in the chosen language, and under each ruling the rule's sentence is
given too (the rules catalogue, by rule ID). A sentence that cannot be read back stays as recorded. No
Flask here: the catalogues are read with Babel directly.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from babel.support import NullTranslations, Translations

from .i18n import LANGUAGES, RTL, TRANSLATIONS
from .i18n_rulings import say_all
from .transcript import printable, shithead_lines, spite_malice_lines, text_lines as english_lines


@lru_cache(maxsize=8)
def catalogue(lang: str, domain: str) -> NullTranslations:
    return Translations.load(str(TRANSLATIONS), [lang], domain)


def rule_sentence(rule: str, lang: str) -> str:
    """The rule book's sentence for ``rule`` in ``lang``, or "" when it has none there."""
    from .games.rulebook import rule_text

    english = rule_text(rule)
    if not english:
        return ""
    found = catalogue(lang, "rules").pgettext(rule, english)
    return "" if found == english else found


def text_lines(found: Iterator[dict[str, Any]], count: int, res: dict[str, Any], entries: int,
               accepted: int, game: str = "", lang: str = "en") -> Iterator[str]:
    """The lines of ``referee check``'s text report, in ``lang`` ("en": exactly as before)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no such language: {lang!r}")
    if lang == "en":
        yield from english_lines(found, count, res, entries, accepted, game)
        return
    t = catalogue(lang, "messages")
    _, ngettext = t.gettext, t.ngettext

    def said(text: str) -> str:
        """An engine's sentence in ``lang``, or as recorded when it cannot be read back."""
        found = say_all(text, t.gettext, t.ngettext, rtl=lang in RTL) if text else None
        return text if found is None else found

    for r in found:
        verdict = _("REJECT") if r["verdict"] == "reject" else _("FLAG")
        status = ""
        if r.get("status") == "overridden" and r["verdict"] == "reject":
            status = " " + _("[overridden by %(who)s]") % {"who": r["by"] or _("the table")}
        elif r.get("status") and r["status"] != "open":
            word = {"accepted": "Accepted", "dismissed": "Dismissed", "overridden": "Dismissed"}.get(r["status"])
            status = f" [{_(word)}]" if word else f" [{r['status']}]"  # (a flag overridden is a dispute dismissed)
        yield printable(_("entry %(number)s: %(verdict)s %(rule)s: %(message)s") % {
            "number": r["event"], "verdict": verdict, "rule": r["rule"], "message": said(r["message"])} + status)
        sentence = rule_sentence(r["rule"], lang)
        if sentence:
            yield printable(f"    {r['rule']}: {sentence}")
    if game == "shithead":
        yield from shithead_lines(res, t)
    elif game == "spite_malice":
        yield from spite_malice_lines(res, t)
    else:  # rounds scored in points
        for rnd in res.get("rounds", []):
            scores = ", ".join(f"{p} {v}" for p, v in rnd.get("scores", {}).items())
            yield printable(_("round %(number)s: %(scores)s — %(why)s") % {
                "number": rnd["number"], "scores": scores, "why": said(rnd.get("explanation", ""))})
        if "totals" in res:
            yield printable(_("totals: %(scores)s") % {
                "scores": ", ".join(f"{p} {v}" for p, v in res["totals"].items())})
    yield printable(said(res["outcome"]) if res["over"] or res.get("ended_early") else _("match not finished"))
    refused = entries - accepted
    counts = ngettext("%(num)s entry", "%(num)s entries", entries) % {"num": entries}
    yield ", ".join([counts, ngettext("%(num)s accepted", "%(num)s accepted", accepted) % {"num": accepted},
                     ngettext("%(num)s refused", "%(num)s refused", refused) % {"num": refused}]) + \
        "; " + (_("no rulings") if not count else ngettext("%(num)s ruling", "%(num)s rulings", count) % {"num": count})


# Messages of this module, for extraction (the catalogue is read here with Babel, not Flask-Babel).
def _messages() -> None:  # pragma: no cover - never called
    from flask_babel import gettext, ngettext

    gettext("[overridden by %(who)s]")
    gettext("the table")
    gettext("Accepted")
    gettext("Dismissed")
    gettext("entry %(number)s: %(verdict)s %(rule)s: %(message)s")
    gettext("round %(number)s: %(scores)s — %(why)s")
    gettext("totals: %(scores)s")
    gettext("match not finished")
    ngettext("%(num)s accepted", "%(num)s accepted", 2)
    ngettext("%(num)s refused", "%(num)s refused", 2)
    gettext("no rulings")
    gettext("nobody")
    gettext(" and ")
    gettext("game %(number)s: %(name)s goes out first and wins (SH-52).")
    gettext("game %(number)s: %(name)s is the Shithead (SH-51); finishing order: %(names)s.")
    gettext("game %(number)s: finishing order: %(names)s.")
    gettext("tally (a point for each game won, most is best): %(scores)s")
    gettext("Shithead tally (a point for each game lost, fewest is best): %(scores)s")
    gettext("%(name)s builds the last pay-off card and wins (SM-40)")
    gettext("the stock runs out (SM-41); %(name)s has the fewest pay-off cards left and wins")
    gettext("the stock runs out (SM-41); the game is a draw (SM-V6)")
    gettext("the stock runs out (SM-41); equal pay-off piles, the game is a draw")
    ngettext("game %(number)s: %(end)s, %(num)s point; pay-off cards left: %(left)s.",
             "game %(number)s: %(end)s, %(num)s points; pay-off cards left: %(left)s.", 2)
    gettext("game %(number)s: %(end)s, no points (SM-V15); pay-off cards left: %(left)s.")
    gettext("game %(number)s: %(end)s; pay-off cards left: %(left)s.")
    ngettext("%(num)s ruling", "%(num)s rulings", 2)
