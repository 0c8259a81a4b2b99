"""The phone's language: English, Hebrew or Italian (Flask-Babel).

Each phone chooses for itself: the language switch on every page (remembered in a cookie), else the
browser's ``Accept-Language``, else English. Phones at one table may each use their own. Hebrew reads
right to left (``dir="rtl"``); card faces, numbers and rule IDs stay left to right in the templates.

The catalogues are ``referee/translations/<lang>/LC_MESSAGES/messages.po``; the compiled ``.mo`` files
sit beside them in the repository (a test checks they match the ``.po``), and an app that finds one
missing compiles it at start. ``python -m referee.i18n`` recompiles them all after an edit;
``python -m referee.i18n update`` first gathers the messages again (see docs/languages.md).
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any
from pathlib import Path

from flask import Flask, Response, abort, g, redirect, request
from babel import Locale
from flask_babel import Babel, gettext
from .jinja_env import page_context
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from .headers import vary_on

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
LANGUAGES: dict[str, str] = {"en": "English", "he": "עברית", "it": "Italiano"}  # each in its own words
RTL = frozenset({"he"})
DEFAULT = "en"
COOKIE = "referee_lang"
COOKIE_AGE = 400 * 24 * 3600  # the most a browser keeps a cookie


def select_locale() -> str:
    """The cookie when it names a language we have, else the best of Accept-Language, else English.
    A cookie naming anything else is ignored (never an error: the phone would be locked out)."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    header = request.headers.get("Accept-Language", "")[:ACCEPTED_LENGTH]  # a phone's is a few dozen characters
    found = _accepted.get(header)
    if found is None:
        try:
            best = parse_accept_header(header, LanguageAccept).best_match(LANGUAGES.keys())
        except Exception:  # noqa: BLE001 - a malformed header is the same as none
            best = None
        if len(_accepted) >= 1024:
            _accepted.clear()
        found = _accepted[header] = best or DEFAULT
    return found


_NUMBERS = frozenset((int, float, bool))  # put into words as they are (%d, %s alike), never escaped
_accepted: dict[str, str] = {}  # Accept-Language header -> language (a phone sends the same one each time)
ACCEPTED_LENGTH = 256  # the part of an Accept-Language header read: 1,024 of them are kept at most


_locales: dict[str, Locale] = {}  # one parsed Locale per language, given to Flask-Babel for each request


def lang() -> str:
    """The language of this request's page ("en", "he" or "it"). Chosen once per request by
    `select_locale`, as Flask-Babel would choose it; its parsed Locale is handed to Flask-Babel, which
    would otherwise parse the same code again on each request."""
    context_g = g._get_current_object()  # (one look-up of the context: this is asked about nine times a screen)
    cached = context_g.__dict__.get("referee_lang")
    if cached is None:
        babel = context_g.__dict__.get("_flask_babel")
        locale = getattr(babel, "babel_locale", None) if babel is not None else None
        if locale is None:  # the usual case: nothing of the page has asked Flask-Babel yet
            code = select_locale()
            locale = _locales.get(code)
            if locale is None:
                locale = _locales[code] = Locale.parse(code)
            if babel is None:
                babel = context_g._flask_babel = SimpleNamespace()
            babel.babel_locale = locale
        cached = context_g.referee_lang = locale.language if locale.language in LANGUAGES else DEFAULT
    return cached


def text_dir() -> str:
    return "rtl" if lang() in RTL else "ltr"


def _safe_next(target: str) -> str:
    """Where to go back after switching: a path on this server only (never another site)."""
    if (not target or len(target) > 2000 or not target.startswith("/") or target.startswith("//")
            or "\\" in target or any(ord(c) < 32 for c in target)):
        return "/"
    return target


def switch_language() -> Response:
    """POST /lang: remember this phone's language and go back to the page it was on."""
    chosen = request.form.get("lang", "")
    if chosen not in LANGUAGES:
        abort(400, description=gettext("Choose one of the languages offered: %(list)s.",
                                       list=", ".join(LANGUAGES.values())))
    response = redirect(_safe_next(request.form.get("next", "")), code=303)
    response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return response


LARGE_COOKIE = "referee_large"


def large_type() -> bool:
    """The large-type table view (a shared phone or a tablet in the middle of the table): remembered
    per phone by the switch, or asked for by a link with ``?large=1`` (``?large=0`` turns it off)."""
    asked = request.args.get("large")
    if asked in ("0", "1"):
        return asked == "1"
    return request.cookies.get(LARGE_COOKIE) == "1"


def switch_large_type() -> Response:
    """POST /large: remember whether this phone shows the large-type view."""
    chosen = request.form.get("large", "")
    if chosen not in ("0", "1"):
        abort(400, description=gettext("The text size is either large (1) or normal (0)."))
    target = _safe_next(request.form.get("next", ""))
    if "large=" in target:  # the remembered choice wins over a ?large= in the page's address
        path, _, query = target.partition("?")
        kept = "&".join(p for p in query.split("&") if not p.startswith("large="))
        target = path + ("?" + kept if kept else "")
    response = redirect(target, code=303)
    response.set_cookie(LARGE_COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return response


def upload_error_words(err: Exception) -> str:
    """A photo the referee refuses (``vision.UploadError`` and its kinds, ``scans.Busy``), said in the phone's
    language by the kind of error: ``vision`` says it in English and knows nothing of Flask. The numbers in
    the English (sizes, limits, counts) are read back from it; an error of a kind not known here is shown
    as said."""
    import re

    from flask_babel import format_decimal, ngettext

    kind = type(err).__name__
    english = str(err)
    if lang() == "en":
        return english
    numbers = re.findall(r"\d+(?:\.\d+)?", english)
    if kind == "EmptyUpload":
        return gettext("The upload is empty. Please choose a photo.")
    if kind == "UploadTooLarge" and len(numbers) >= 2:
        return gettext("The photo is %(size)s MB; the limit is %(limit)s MB. Please send a smaller photo.",
                       size=format_decimal(float(numbers[0]), "0.0"), limit=numbers[1])
    if kind == "UnsupportedFormat":
        return gettext("This file is not a JPEG, PNG or WebP photo.")
    if kind == "TooManyPixels" and len(numbers) >= 3:
        return gettext("The photo is %(width)s×%(height)s pixels; the limit is %(limit)s megapixels. Please send a "
                       "smaller photo.", width=numbers[0], height=numbers[1], limit=numbers[2])
    if kind == "CorruptImage":
        return gettext("The photo is damaged or incomplete and cannot be read.")
    if kind == "TeachError" and english.startswith("Name at least one card"):
        return gettext("Name at least one card to teach.")
    if kind == "TeachError" and english.startswith("Found ") and len(numbers) >= 2:
        found = ngettext("Found %(num)s card in the photo", "Found %(num)s cards in the photo", int(numbers[0]))
        given = ngettext("%(num)s name was given", "%(num)s names were given", int(numbers[1]))
        return gettext("%(found)s but %(given)s; photograph the cards apart from each other on a plain table.",
                       found=found, given=given)
    if kind == "Busy":
        return gettext("The referee is reading other photos right now. Try again in a few seconds.")
    return english


def _say_people(message: str, fields: dict) -> str:
    """A refusal of ``referee.people`` (a rename, a merge, a group's name) in the phone's language; English
    outside a request (the command line)."""
    from flask import has_request_context

    if not has_request_context():
        return message % fields if fields else message
    return gettext(message, **fields)


def compile_catalogues(force: bool = False) -> list[Path]:
    """Compile each catalogue (``messages.po``, ``rules.po``) to its ``.mo`` (when missing, or always with ``force``)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and not force:
            continue
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=po.parent.parent.name)
        tmp = mo.with_suffix(f".mo.{os.getpid()}")
        with tmp.open("wb") as handle:
            write_mo(handle, catalog)
        os.replace(tmp, mo)  # atomic: screen processes may start at the same moment
        written.append(mo)
    return written


def init_app(app: Flask) -> None:
    try:
        compile_catalogues()
    except OSError:  # a read-only install keeps the committed .mo files
        pass
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.add_extension("jinja2.ext.i18n")  # {% trans %} (Flask-Babel installs the callables)
    _translate_once_per_page(app)
    app.add_url_rule("/lang", "lang", switch_language, methods=["POST"])
    app.add_url_rule("/large", "large_type", switch_large_type, methods=["POST"])
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, page_lang=lang, page_dir=text_dir, large_type=large_type)
    app.after_request(_vary)
    from . import people

    people.TRANSLATE = _say_people
    from .i18n_rules import template_globals

    app.jinja_env.globals.update(template_globals())


_PAGE_TRANSLATIONS = "_page_translations"


def _translate_once_per_page(app: Flask) -> None:
    """The templates' gettext finds the phone's catalogue once per page, not once per message.

    Flask-Babel's callables look up the request, the locale and the catalogue on every message; a
    table screen holds dozens, and those lookups were a third of drawing it. A context processor puts
    the page's catalogue in the template context, and the callables read it from there (a template
    rendered without it, such as a macro imported without context, looks it up as before)."""
    from flask_babel import get_translations

    def catalogue(context):
        found = context.get(_PAGE_TRANSLATIONS)
        return found if found is not None else get_translations()

    @page_context
    def gettext_(context, string):
        return catalogue(context).ugettext(string)

    @page_context
    def ngettext_(context, singular, plural, n):
        return catalogue(context).ungettext(singular, plural, n)

    @page_context
    def pgettext_(context, message_context, string):
        return catalogue(context).upgettext(message_context, string)

    @page_context
    def npgettext_(context, message_context, singular, plural, n):
        return catalogue(context).unpgettext(message_context, singular, plural, n)

    app.jinja_env.install_gettext_callables(gettext=gettext_, ngettext=ngettext_, pgettext=pgettext_,
                                            npgettext=npgettext_, newstyle=True)
    for name in ("ngettext", "pgettext", "npgettext"):  # jinja2.ext's wrappers read only the page too
        app.jinja_env.globals[name].page_context_only = True

    @page_context
    def underscore(context, string, **variables):
        """``_()`` and ``gettext()`` in one call: what jinja2.ext's newstyle gettext does around gettext_."""
        found = catalogue(context).ugettext(string)
        if not context.eval_ctx.autoescape:
            return found % variables
        if not variables:  # most words of a screen: only a "%%" to undo
            return Markup(found.replace("%%", "%") if "%" in found else found)
        # as Markup's own % does (each value escaped, numbers kept for %d), at a third of its cost
        return Markup(found % {name: value if type(value) in _NUMBERS else escape(value)
                               for name, value in variables.items()})

    app.jinja_env.globals.update(_=underscore, gettext=underscore)
    by_language: dict[str, Any] = {}  # Flask-Babel keeps one catalogue per language too; this skips its lookups

    @app.context_processor
    def page_catalogue() -> dict:
        language = lang()
        found = by_language.get(language)
        if found is None:
            found = by_language[language] = get_translations()
        return {_PAGE_TRANSLATIONS: found}


def _vary(response: Response) -> Response:
    """A page's words depend on the phone's language cookie and Accept-Language. A link asking for the
    large-type view (``?large=1``, say the tablet's bookmark) is remembered like the switch."""
    vary_on(response, "Accept-Language", "Cookie")
    asked = request.args.get("large")
    if asked in ("0", "1") and request.cookies.get(LARGE_COOKIE) != asked and request.method == "GET":
        response.set_cookie(LARGE_COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


def update_catalogues() -> None:
    """After changing words: gather every message again (templates and views with babel.cfg; the
    engines' words by key), merge them into each language's catalogues (new and changed ones empty, to
    translate), and compile. The tests then list what is left to translate."""
    from babel.messages.frontend import CommandLineInterface

    from .i18n_rules import DOMAIN as RULES, write_pot

    os.chdir(TRANSLATIONS.parent.parent)  # the catalogues name files relative to the repository
    cli = CommandLineInterface()
    cli.run(["pybabel", "-q", "extract", "-F", "babel.cfg", "-k", "_l", "-k", "Nn_:1,2", "-k", "Said", "--no-wrap", "--sort-by-file",
             "--project=referee", "-o", str(TRANSLATIONS / "messages.pot"), "."])
    write_pot()
    for domain in ("messages", RULES):
        cli.run(["pybabel", "-q", "update", "-i", str(TRANSLATIONS / f"{domain}.pot"), "-d", str(TRANSLATIONS),
                 "-D", domain, "--no-wrap", "--ignore-obsolete", "--no-fuzzy-matching"])


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["update"]:
        update_catalogues()
    for path in compile_catalogues(force=True):
        print(f"compiled {path.relative_to(TRANSLATIONS.parent.parent)}")
