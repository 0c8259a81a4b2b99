"""Refusals in the phone's language: a photo the referee cannot use (vision's errors, said by their kind in
the web layer), a request for another host or from another site, werkzeug's own error words, and a rename
or merge of players that cannot be (referee/people.py, which stays free of Flask)."""
from __future__ import annotations

import io
import re

import pytest

import vision
from referee import i18n, people, scans, store
from referee.i18n import upload_error_words

HX = {"Origin": "http://localhost", "HX-Request": "true"}


def text(response) -> str:
    return response.get_data(as_text=True)


@pytest.mark.parametrize("error, he, it", [
    (vision.EmptyUpload(), "הקובץ שהועלה ריק. בחרו תמונה.", "Il file caricato è vuoto. Scegli una foto."),
    (vision.UploadTooLarge(31 * 2**20 + 2**19, 25 * 2**20), "התמונה בגודל 31.5 MB; המגבלה היא 25 MB. שלחו תמונה קטנה יותר.",
     "La foto pesa 31,5 MB; il limite è 25 MB. Manda una foto più piccola."),
    (vision.UnsupportedFormat(), "הקובץ הזה אינו תמונת JPEG, PNG או WebP.", "Questo file non è una foto JPEG, PNG o WebP."),
    (vision.TooManyPixels(20000, 20000, 50_000_000), "התמונה בגודל 20000×20000 פיקסלים; המגבלה היא 50 מגה־פיקסל. "
     "שלחו תמונה קטנה יותר.", "La foto è di 20000×20000 pixel; il limite è 50 megapixel. Manda una foto più piccola."),
    (vision.CorruptImage("JPEG structure broken"), "התמונה פגומה או חלקית ואי אפשר לקרוא אותה.",
     "La foto è danneggiata o incompleta e non si può leggere."),
    (vision.TeachError("Found 3 card(s) in the photo but 1 name(s) were given; photograph the cards apart from each "
                       "other on a plain table."),
     "בתמונה נמצאו 3 קלפים אבל ניתן שם אחד; צלמו את הקלפים מרוחקים זה מזה על שולחן חלק.",
     "Nella foto sono state trovate 3 carte ma è stato dato 1 nome; fotografa le carte separate l’una dall’altra su "
     "un tavolo liscio."),
    (vision.TeachError("Name at least one card to teach."), "כדי ללמד, תנו שם לקלף אחד לפחות.",
     "Per insegnare, indica almeno una carta."),
    (scans.Busy(), "השופט קורא עכשיו תמונות אחרות. נסו שוב בעוד כמה שניות.",
     "L’arbitro sta leggendo altre foto. Riprova tra qualche secondo."),
])
def test_every_kind_of_photo_refusal_is_said_in_the_phones_language(app, error, he, it):
    with app.test_request_context(headers={"Accept-Language": "he"}):
        assert upload_error_words(error) == he
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert upload_error_words(error) == it
    with app.test_request_context():
        assert upload_error_words(error) == str(error)


def test_every_upload_error_of_vision_has_its_words():
    """A new kind of upload error in vision/errors.py needs its words in the web layer."""
    kinds = {cls.__name__ for cls in vars(vision).values()
             if isinstance(cls, type) and issubclass(cls, vision.UploadError) and cls is not vision.UploadError}
    source = open(i18n.__file__, encoding="utf-8").read()
    assert kinds and all(f'kind == "{kind}"' in source for kind in kinds), kinds


def test_an_empty_photo_at_the_table_is_refused_in_hebrew(client, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    client.set_cookie(i18n.COOKIE, "he")
    response = client.post(f"/m/{match.id}/scan", data={"move": "turn_up", "field": "card",
                                                         "photo": (io.BytesIO(b""), "photo.jpg")},
                           headers=HX, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "הקובץ שהועלה ריק. בחרו תמונה." in text(response)


def test_a_request_for_another_host_is_refused_in_italian(client):
    response = client.get("/", headers={"Host": "attacker.example:8000", "Accept-Language": "it"})
    assert response.status_code == 400
    body = text(response)
    assert "questo server risponde solo ai propri nomi e indirizzi" in body and "--allow-host attacker.example" in body
    assert '<html lang="it"' in body


def test_a_request_from_another_site_is_refused_in_hebrew(client):
    response = client.post("/lang", data={"lang": "en", "next": "/"},
                           headers={"Origin": "http://evil.example", "Accept-Language": "he"})
    assert response.status_code == 403
    assert "בקשה מאתר אחר נדחתה (Origin: http://evil.example)." in text(response)
    response = client.post("/lang", data={"lang": "en"}, headers={"Accept-Language": "it"})
    assert "Richiesta senza intestazione Origin rifiutata; usa i moduli dell’app." in text(response)
    response = client.post("/lang", data={"lang": "en"}, headers={"Sec-Fetch-Site": "cross-site", "Accept-Language": "it"})
    assert "Richiesta da un altro sito rifiutata (Sec-Fetch-Site: cross-site)." in text(response)


def test_werkzeugs_own_words_are_said_in_the_phones_language(client):
    """An abort() without words of its own says the referee's words for its status, not werkzeug's."""
    body = text(client.get("/no/such/page", headers={"Accept-Language": "he"}))
    assert "אין כאן דף כזה. בדקו את הקישור או חזרו להתחלה." in body and "requested URL" not in body
    assert "There is no such page here. Check the link or go back to the start." in text(client.get("/no/such/page"))


def test_player_refusals_are_said_in_the_phones_language(app, client, database):
    ana = people.create_profile(database, "Ana")
    people.create_profile(database, "Ben")
    client.set_cookie(i18n.COOKIE, "it")
    response = client.post(f"/nights/p/{ana.id}/rename", data={"name": "ben"}, headers=HX)
    assert response.status_code == 422
    assert "Nuovo nome: C’è già un giocatore che si chiama Ben." in text(response).replace("&#39;", "'")
    response = client.post(f"/nights/p/{ana.id}/unrename", headers=HX)
    assert "Questo giocatore non ha nessun cambio di nome da annullare." in text(response)
    client.set_cookie(i18n.COOKIE, "he")
    response = client.post(f"/nights/p/{ana.id}/merge", data={"other": str(ana.id)}, headers=HX)
    assert "אלה כבר אותו שחקן." in text(response)
    response = client.post(f"/nights/p/{ana.id}/rename", data={"name": "   "}, headers=HX)
    assert "לשחקן צריך שם שרואים אותו" in text(response)


def test_people_stays_english_and_free_of_flask_outside_a_page(database):
    source = open(people.__file__, encoding="utf-8").read()
    assert not re.search(r"^\s*(from|import)\s+(flask|flask_babel)\b", source, re.M)
    people.create_profile(database, "Ana")
    with pytest.raises(people.PeopleError) as err:
        people.create_profile(database, "ana")
    assert err.value.message == "There is already a player called Ana." and err.value.field == "name"
    assert str(err.value) == "name: There is already a player called Ana."


def test_a_new_table_the_rules_refuse_is_refused_in_the_phones_language(client):
    response = client.post("/new/ratatat", data={"players": "Ana"}, headers={**HX, "Accept-Language": "he"})
    assert response.status_code == 422
    assert "RTC-1: בחתחתול משחקים 2–6 שחקנים, לא 1." in text(response)
    response = client.post("/new/cabo", data={"players": "Ana"}, headers={**HX, "Accept-Language": "it"})
    assert response.status_code == 422
    assert "CAB-1: Con il mazzo di Cabo si gioca in 2–5, non in 1." in text(response)


def _notice(response) -> str:
    import html

    found = re.search(r'<div class="notice" role="status">(.*?)</div>', text(response), re.S)
    return html.unescape(found.group(1)) if found else ""


@pytest.mark.parametrize("fields, it", [
    ({"move": "discard", "card": "99", "stack": "1"},
     "Questa registrazione non è completa: '99' non è una carta di questo mazzo."),
    ({"move": "discard", "card": "7", "stack": "1", "for": "Zoë"},
     "Questa registrazione non si legge: 'Zoë' non gioca a questo tavolo."),
    ({"move": "nonsense"}, "Questa registrazione non si legge: 'nonsense' non è una registrazione di questo gioco."),
    ({"move": ""}, "Questa registrazione non si legge: Il modulo non indica nessuna registrazione."),
    ({"move": "resolve_flag", "flag": "0", "decision": "bogus"},
     "Questa registrazione non è completa: Il modulo è stato modificato, o era per un’altra schermata: ricarica la "
     "pagina e registra di nuovo."),
])
def test_a_form_changed_by_hand_is_refused_in_the_phones_language(client, database, fields, it):
    """A Spite & Malice form edited in the page: refused (400) in Italian on an Italian phone, with no field name
    such as "(entry.card)" and no English; what no catalogue says is said in general words."""
    match = store.create_match(database, "spite_malice", ["Ana", "Ben"], {"payoff_size": 5})
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    for version, entry in enumerate(({"move": "top", "card": "9"}, {"move": "top", "card": "4", "for": "Ben"})):
        assert client.post(f"/m/{match.id}/entry", data={"version": str(version), **entry}, headers=HX).status_code == 200
    client.set_cookie(i18n.COOKIE, "it")
    response = client.post(f"/m/{match.id}/entry", data={"version": "2", **fields}, headers=HX)
    assert response.status_code == 400 and _notice(response) == it
    assert len(store.entries(database, match.id)) == 2


def test_a_reason_too_long_is_refused_not_cut_short(client, database):
    """A dispute's reason is at most 300 characters: 5,001 are refused with the count (400), nothing stored;
    before, the first 300 were kept without a word."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    response = client.post(f"/m/{match.id}/entry", headers=HX, data={
        "version": "0", "move": "end", "reason": "ש" * 5001})
    said = _notice(response)
    assert response.status_code == 400 and "A reason has at most 300 characters, not 5001." in said
    assert store.entries(database, match.id) == []
