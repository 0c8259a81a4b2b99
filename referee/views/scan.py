"""Scanning cards with the phone's camera, and teaching the referee a deck.

One scan component serves every place a card is entered: the phone posts a photo (from
``<input type=file accept=image/* capture=environment>``, which works over plain HTTP on the LAN),
the server finds and reads the cards, and answers with the photo, outlines and labels drawn over
it, and the reads to confirm or correct by tap. The rules are the second opinion: a read of a card
the table has already seen all copies of is dropped to "unknown" (RTC-K8, GEN-3).

Who sees a photo: only the phone that took it (the overlay and the teaching step check the
phone's device id). A taught deck belongs to the household: any phone on the LAN may teach it,
and the deck's references (not photos) serve every table.
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext

import vision
from vision.types import ACCEPT

from .. import decks, scans
from ..db import get_db
from ..i18n import upload_error_words
from ..i18n_rules import card_label
from ..seats import is_htmx, require_entrant
from ..security import device_id, render_error
from .play import load, screen_context

bp = Blueprint("scan", __name__)


@bp.app_template_global()
def side_stack_takes(rules: dict, top: str | None, card: str) -> bool:
    """Whether a Spite & Malice side stack topped by ``top`` takes ``card`` under the table's order of side
    stacks (SM-V12): a scanned discard is offered only the stacks it may go on."""
    from ..games.spite_malice_rules import side_problem

    return side_problem(None if top in (None, "unknown") else top, card, rules) is None

PICK_FIELDS = ("move", "slot", "field", "target", "owner", "for")


def _photo():
    """The uploaded photo as a file object (werkzeug spools it to disk: read only when its turn comes)."""
    upload = request.files.get("photo")
    if upload is None:
        abort(400, description=gettext("Choose a photo to scan."))
    return upload.stream


def _upload_error(err: vision.UploadError | scans.Busy):
    if isinstance(err, scans.Busy):
        return render_error(err.status, upload_error_words(err), {"Retry-After": str(err.retry_after)})
    return render_error(err.status, upload_error_words(err), title=gettext("That photo cannot be used"))


def ruled_out(game, scan: scans.Scan, allowed: set[str] | None, labels: dict[str, str]) -> list[str]:
    """The cards a scan read surely that the table rules out (every copy seen, or not in its deck), named
    as the screen names cards: left unknown by the reader (GEN-3), and said so on the phone."""
    out = []
    for read in scan.reads:
        if read.label is None and read.alternatives and allowed is not None:
            best, sure = read.alternatives[0]
            if sure >= ACCEPT and best not in allowed:
                out.append(labels.get(best) or card_label(game.card_label(best)))
    return out


def row_slots(scan: scans.Scan, n: int) -> list[str | None]:
    """The ``n`` slots of a row, left to right: each the read of the card lying there, None where no
    card was found or read (the player taps it)."""
    placed = vision.place_in_row([r.outline for r in scan.reads], scan.size, n)
    if row_turned(scan):  # taken from across the table: the player's left is the photo's right
        placed = placed[::-1]
    return [scan.reads[i].label if i is not None else None for i in placed]


def row_turned(scan: scans.Scan) -> bool:
    """The row lies upside down in the photo (a taught deck's faces say so: ``vision.upside_down``)."""
    return vision.upside_down([getattr(r, "turned", None) for r in scan.reads])


@bp.post("/m/<match_id>/scan")
def scan_at_table(match_id: str):
    """Read the card(s) in a photo for one entry: a single card, or a row of cards (a player's four at a
    reveal) — the game says which (``scan_spec``)."""
    _, match, log = load(match_id)
    require_entrant(match_id, "scan cards")
    purpose = {k: request.form[k][:40] for k in PICK_FIELDS if request.form.get(k)}
    game, state = log.game, log.state
    spec = game.scan_spec(state, purpose)
    if spec is None:
        abort(400, description=gettext("Nothing to scan for."))
    kind, references = _recogniser(game, match.game, state)
    allowed = game.still_possible(state, spec.seat)
    place = f"{match_id}:{purpose['move']}:{purpose.get('for', '')}"
    try:
        scan = scans.read_photo(_photo(), kind, references, allowed, owner=device_id(), place=place)
    except (vision.UploadError, scans.Busy) as err:
        return _upload_error(err)
    ctx = screen_context(match, log)
    ctx.update(scan=scan, purpose=purpose, kind=kind, taught=references is not None,
               ruled_out=ruled_out(game, scan, allowed, ctx["labels"]))
    if spec.cards > 1:
        slots = [label if label in ctx["labels"] else None for label in row_slots(scan, spec.cards)]
        ctx.update(slots=slots, reveal_for=purpose.get("for", ""), row=spec.cards,
                   row_down=len(scan.reads) > 1 and vision.runs_down([r.outline for r in scan.reads]),
                   row_turned=row_turned(scan), lay=vision.lay_of([r.outline for r in scan.reads]))
        return render_template([f"games/{game.TEMPLATES}/_row_result.html", "scan/_reveal_result.html"], **ctx)
    return render_template([f"games/{game.TEMPLATES}/_card_result.html", "scan/_card_result.html"], **ctx)


def _recogniser(game, name: str, state) -> tuple[str, object]:
    """The recogniser that reads this match's cards, and the taught references it reads them with. A game
    whose deck depends on the house rules says which deck a match uses (``deck_kind``: Cabo's own deck, or
    a standard deck under Cambio's rules); its own deck is read with the decks taught as that deck only.
    Otherwise the game's first deck kind, with every deck that recogniser reads."""
    deck_kind = getattr(game, "deck_kind", None)
    if deck_kind is None:
        kind = decks.recogniser_for_game(name)
        return kind, decks.references_for_kind(get_db(), kind)
    own = deck_kind(state)
    kind = decks.RECOGNISER[own]
    if own == "standard":
        return kind, decks.references_for_kind(get_db(), kind)
    merged = None
    for deck in decks.all_decks(get_db()):
        refs = decks.references(deck) if deck.kind == own else None
        if refs is not None and len(refs):
            merged = refs if merged is None else merged.merge(refs)
    return kind, merged


@bp.get("/scan/<token>.jpg")
def overlay(token: str):
    """The photo with outlines and labels drawn over it (kept in memory a few minutes only)."""
    scan = scans.scans.get(token, owner=device_id())
    if scan is None:  # expired, or taken by another phone: photos are shown only to the phone that took them
        abort(404, description=gettext("That photo is gone: photos are kept only for a few minutes. Scan again."))
    return Response(scan.overlay, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


# --- Teaching a deck -------------------------------------------------------------------------


@bp.get("/decks")
def deck_list():
    return render_template("scan/decks.html", decks=decks.all_decks(get_db()), kinds=decks.KIND_TITLES)


@bp.post("/decks")
def deck_create():
    kind = request.form.get("kind", "")
    try:  # the rules of player and group names
        name = decks.clean_name(request.form.get("name", ""))
    except decks.NameProblem as problem:
        if problem.why == "control":
            abort(422, description=gettext("Deck name: %(message)s", message=gettext(
                "a name cannot hold the control or format character %(char)s", char=problem.char)))
        if problem.why == "long":
            abort(422, description=gettext("Deck name: %(message)s", message=gettext(
                "a name has at most %(num)s characters", num=decks.MAX_NAME)))
        abort(422, description=gettext("Give the deck a name, e.g. “Grandma's deck”."))
    if kind not in decks.FACES:
        abort(422, description=gettext("Choose the kind of deck."))
    deck = decks.create(get_db(), name, kind)
    return redirect(url_for("scan.deck_page", deck_id=deck.id), code=303)


def _deck_or_404(deck_id: str) -> decks.Deck:
    deck = decks.get(get_db(), deck_id)
    if deck is None:
        abort(404, description=gettext("There is no such deck."))
    return deck


@bp.get("/decks/<deck_id>")
def deck_page(deck_id: str):
    deck = _deck_or_404(deck_id)
    return render_template("scan/teach.html", deck=deck, faces=decks.FACES[deck.kind], result=None,
                           name=decks.face_name)


@bp.post("/decks/<deck_id>/photo")
def deck_photo(deck_id: str):
    """Step 1: find the cards in a teaching photo; the player then names each one."""
    deck = _deck_or_404(deck_id)
    try:
        scan = scans.read_photo(_photo(), decks.RECOGNISER[deck.kind], decks.references(deck), None,
                                owner=device_id(), place=f"teach:{deck.id}", keep_image=True, numbered=True)
    except (vision.UploadError, scans.Busy) as err:
        return _upload_error(err)
    # nothing found: a close-up (its edges card margin) is one card to name; any other photo has none
    close_up = not scan.reads and scan.image is not None and vision.frame_is_card(scan.image)
    return render_template("scan/_teach_result.html", deck=deck, faces=decks.FACES[deck.kind], scan=scan,
                           name=decks.face_name, close_up=close_up)


@bp.post("/decks/<deck_id>/teach")
def deck_teach(deck_id: str):
    """Step 2: the names the player tapped become references of this deck."""
    deck = _deck_or_404(deck_id)
    scan = scans.scans.get(request.form.get("token", ""), owner=device_id())
    if scan is None or scan.image is None:
        abort(410, description=gettext("That photo is gone (photos are kept for a few minutes). Take it again."))
    named = [request.form.get(f"label{i}", "") for i in range(len(scan.reads) or 1)]
    skip = scans.NOT_A_CARD if scan.reads else None  # an outline found may be marked "not a card"
    if not all(label in decks.FACES[deck.kind] or label == skip for label in named):
        abort(422, description=gettext("Name every card in the photo, or mark what is not a card."))
    labels = [label for label in named if label != skip]
    if not labels:
        abort(422, description=gettext("Name at least one card in the photo."))
    # each name goes with the outline its number was drawn on in the photo shown back (not found again)
    outlines = [r.outline for r, label in zip(scan.reads, named) if label != skip] if scan.reads else None
    try:
        refs = vision.teach(scan.image, labels, decks.references(deck), outlines=outlines)
    except vision.TeachError as err:
        return render_error(422, upload_error_words(err))
    deck = decks.save(get_db(), deck, refs, labels)
    body = render_template("scan/teach.html", deck=deck, faces=decks.FACES[deck.kind],
                           result=gettext("Learnt %(faces)s.", faces=", ".join(card_label(decks.face_name(f)) for f in labels)), name=decks.face_name)
    if is_htmx():
        return body
    return redirect(url_for("scan.deck_page", deck_id=deck.id), code=303)


@bp.post("/decks/<deck_id>/forget")
def deck_forget(deck_id: str):
    """Forget one face of the deck, every photo taught of it (a face taught wrong, to teach it again)."""
    deck = _deck_or_404(deck_id)
    faces = decks.FACES[deck.kind]
    number = request.form.get("face", "")  # the face's place among the kind's faces (the page shows names only)
    if not (number.isascii() and number.isdigit() and len(number) <= 3 and int(number) < len(faces)):
        abort(422, description=gettext("Choose a face of this deck to forget."))
    face = faces[int(number)]
    if not deck.faces.get(face):
        abort(422, description=gettext("That face has not been taught: there is nothing to forget."))
    deck = decks.forget(get_db(), deck, face)
    if is_htmx():
        return render_template("scan/teach.html", deck=deck, faces=decks.FACES[deck.kind], name=decks.face_name,
                               result=gettext("Forgot %(face)s: photograph it again to teach it.",
                                              face=card_label(decks.face_name(face))))
    return redirect(url_for("scan.deck_page", deck_id=deck.id), code=303)


@bp.get("/decks/<deck_id>/delete")
def deck_delete_page(deck_id: str):
    """Deleting a deck is asked for again before it is done."""
    return render_template("scan/delete_deck.html", deck=_deck_or_404(deck_id))


@bp.post("/decks/<deck_id>/delete")
def deck_delete(deck_id: str):
    deck = _deck_or_404(deck_id)
    decks.delete(get_db(), deck.id)
    return redirect(url_for("scan.deck_list"), code=303)
