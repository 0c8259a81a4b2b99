"""``referee check --lang he|it|en``: the words of the text report in a language.

The transcript and the JSON report stay language-neutral (rule IDs, card codes, the engines' English
sentences). The text report's own words (entry, REJECT/FLAG, round, totals, the counts) come from the
app's catalogue, and under each ruling the rule's sentence is given in the chosen language (the rules
catalogue, by rule ID) where it has one. No Flask here: the catalogues are read with Babel directly.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from babel.support import NullTranslations, Translations

from .i18n import LANGUAGES, TRANSLATIONS
from .transcript import printable, text_lines as english_lines


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
    for r in found:
        verdict = _("REJECT") if r["verdict"] == "reject" else _("FLAG")
        status = ""
        if r.get("status") == "overridden" and r["verdict"] == "reject":
            status = " " + _("[overridden by %(who)s]") % {"who": r["by"] or _("the table")}
        elif r.get("status") and r["status"] != "open":
            status = f" [{_(r['status'].capitalize())}]" if r["status"] in ("accepted", "dismissed") else \
                f" [{r['status']}]"
        yield printable(_("entry %(number)s: %(verdict)s %(rule)s: %(message)s") % {
            "number": r["event"], "verdict": verdict, "rule": r["rule"], "message": r["message"]} + status)
        sentence = rule_sentence(r["rule"], lang)
        if sentence:
            yield printable(f"    {r['rule']}: {sentence}")
    if game not in ("shithead", "spite_malice"):  # rounds scored in points
        for rnd in res.get("rounds", []):
            scores = ", ".join(f"{p} {v}" for p, v in rnd.get("scores", {}).items())
            yield printable(_("round %(number)s: %(scores)s — %(why)s") % {
                "number": rnd["number"], "scores": scores, "why": rnd.get("explanation", "")})
        if "totals" in res:
            yield printable(_("totals: %(scores)s") % {
                "scores": ", ".join(f"{p} {v}" for p, v in res["totals"].items())})
    else:  # the other games' result lines stay as the engine says them
        lines = list(english_lines(iter(()), 0, res, entries, accepted, game))
        yield from lines[:-2]
    yield printable(res["outcome"] if res["over"] else _("match not finished"))
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
    ngettext("%(num)s ruling", "%(num)s rulings", 2)
