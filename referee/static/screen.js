// The table screen: keep what a player is entering when the screen is redrawn.
//
// Another phone's entry rings the doorbell and this phone re-fetches its screen; a refused entry
// (409, 422, 400) also answers with a fresh screen. Either would wipe a half-filled form. So before such a
// swap we note every field the player touched (in forms and <details> marked data-draft), the open
// <details>, and the open picker; after the swap we put them back where the new screen still has
// them. The new screen's hidden fields (its version) are kept, so the entry is made at the version
// the player now sees. After the player's own entry is accepted, nothing is restored.
// The doorbell of the player's own entry asks for nothing (see below).
(function () {
  "use strict";
  var draft = null;

  // A form posted without htmx (the correction page) is answered with the table page, a refusal on it,
  // at the address it was posted to: the address bar shows the table's, so a reload opens the table.
  var home = document.querySelector("[data-table-path]");
  if (home && window.history && location.pathname !== home.dataset.tablePath) {
    history.replaceState(null, "", home.dataset.tablePath);
  }
  // ... and that refusal is where the keyboard (and a screen reader) starts
  var refusal = document.querySelector("#screen #ruling");
  if (refusal) {
    refusal.setAttribute("tabindex", "-1");
    refusal.focus();
  }

  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);
  function touch(event) {
    var el = event.target;
    if (el && el.form && el.type !== "hidden") el.dataset.touched = "1";
  }

  function isScreen(el) { return el && el.id === "screen"; }

  function keepsDraft(detail) {
    if (!isScreen(detail.target)) return false;
    var fromDoorbell = isScreen(detail.requestConfig && detail.requestConfig.elt);
    // a refused entry (409 stale, 422 against the rules, 400 unreadable) keeps what was tapped, to mend it
    return fromDoorbell || (detail.xhr && [400, 409, 422].indexOf(detail.xhr.status) >= 0);
  }

  function take(screen) {
    var out = { fields: [], open: [], pick: null };
    screen.querySelectorAll("[data-draft]").forEach(function (box) {
      if (box.tagName === "DETAILS" && box.open) out.open.push(box.dataset.draft);
      box.querySelectorAll("input, select, textarea").forEach(function (el) {
        if (!el.dataset.touched) return;
        out.fields.push({ box: box.dataset.draft, name: el.name, value: el.value,
                          type: el.type, checked: el.checked });
      });
    });
    var pick = screen.querySelector("#pick[data-pick]");
    if (pick) {
      out.pick = pick.dataset.pick;
      out.focused = pick.contains(document.activeElement);  // the keyboard is in the picker: it stays there
    }
    out.ruling = screen.querySelector("#ruling");  // a refusal this phone is still reading
    out.focus = focusKey(screen);
    return out;
  }

  // Where the keyboard is on the screen, said so that the redrawn screen's own element can be found
  // again: its id; else its name (and value, for a choice) in its draft box; else its address; else,
  // for a button, its words. A text field's caret goes back where it was.
  function focusKey(screen) {
    var el = document.activeElement;
    if (!el || el === document.body || !screen.contains(el)) return null;
    var box = el.closest("[data-draft]");
    var key = { id: el.id, name: el.getAttribute("name"), value: el.value, type: el.type, tag: el.tagName,
                box: box ? box.dataset.draft : null, href: el.getAttribute("href"),
                get: el.getAttribute("hx-get"), words: el.textContent.replace(/\s+/g, " ").trim() };
    try {
      if (typeof el.selectionStart === "number") { key.start = el.selectionStart; key.end = el.selectionEnd; }
    } catch (e) { /* an input type without a caret */ }
    return key;
  }

  function findKey(screen, key) {
    var scope = key.box && screen.querySelector('[data-draft="' + CSS.escape(key.box) + '"]') || screen;
    var candidates = [];
    if (key.id && document.getElementById(key.id)) candidates.push(document.getElementById(key.id));
    if (key.name) {
      var sel = '[name="' + CSS.escape(key.name) + '"]';
      if (key.type === "radio" || key.type === "checkbox") sel += '[value="' + CSS.escape(key.value || "") + '"]';
      candidates.push(scope.querySelector(sel));
    }
    if (key.href) candidates.push(screen.querySelector('a[href="' + CSS.escape(key.href) + '"]'));
    if (key.get) candidates.push(screen.querySelector('[hx-get="' + CSS.escape(key.get) + '"]'));
    if (key.tag === "BUTTON" || key.tag === "SUMMARY") {
      candidates.push(Array.prototype.find.call(scope.querySelectorAll(key.tag), function (b) {
        return b.textContent.replace(/\s+/g, " ").trim() === key.words;
      }));
    }
    return candidates.find(function (el) { return el && screen.contains(el) && el.type !== "hidden"; }) || null;
  }

  function refocus(screen, key) {
    var el = key && findKey(screen, key);
    if (!el) return;
    el.focus({ preventScroll: true });
    if (typeof key.start === "number") {
      try { el.setSelectionRange(key.start, key.end); } catch (e) { /* no caret here */ }
    }
  }

  // After this phone's own entry the keyboard goes to what it needs to read next: the ruling or the
  // notice of a refusal, else the turn heading.
  function focusAfterEntry(detail) {
    var refused = detail.xhr && [400, 409, 422].indexOf(detail.xhr.status) >= 0;
    var el = refused ? document.querySelector("#ruling, #screen .notice") : document.getElementById("status");
    if (!el) return;
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: !refused });
    if (refused && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }

  function put(screen, saved) {
    var body = screen.querySelector("[data-version]");
    if (saved.ruling && body && !screen.querySelector("#ruling")) {
      saved.ruling.querySelectorAll('input[name="version"]').forEach(function (v) {
        v.value = body.dataset.version;  // an override now applies to the table as it is
      });
      var notice = body.querySelector(".notice");
      body.insertBefore(saved.ruling, notice ? notice.nextSibling : body.children[1] || null);
      if (window.htmx) htmx.process(saved.ruling);
    }
    saved.open.forEach(function (name) {
      var box = screen.querySelector('details[data-draft="' + CSS.escape(name) + '"]');
      if (box) box.open = true;
    });
    // the open picker's fields are put back once the picker is fetched again (below)
    var later = restore(screen, saved.fields);
    if (saved.pick) {
      var path = saved.pick.split("?")[0];
      var still = Array.prototype.some.call(screen.querySelectorAll("#actions a[hx-get]"), function (a) {
        return a.getAttribute("hx-get") === saved.pick ||
               (a.getAttribute("hx-get").split("?")[0] === path && samePick(a.getAttribute("hx-get"), saved.pick));
      });
      if (still && window.htmx) {
        htmx.ajax("GET", saved.pick, { target: "#actions", swap: "innerHTML" }).then(function () {
          restore(screen, later);
          var pick = document.getElementById("pick"), was = saved.focus && findKey(screen, saved.focus);
          if (saved.focused && was && pick && pick.contains(was)) refocus(screen, saved.focus);
          else if (saved.focused) focusOn(pick);
        });
      }
    }
  }

  // Put saved fields back into the boxes of the screen that still have them; the fields whose box
  // is not (yet) on the screen are returned.
  function restore(screen, fields) {
    var missing = [];
    fields.forEach(function (f) {
      var box = screen.querySelector('[data-draft="' + CSS.escape(f.box) + '"]');
      if (!box) { missing.push(f); return; }
      var sel = '[name="' + CSS.escape(f.name) + '"]';
      if (f.type === "radio" || f.type === "checkbox") {
        sel += '[value="' + CSS.escape(f.value) + '"]';
        var box_el = box.querySelector(sel);
        if (box_el) { box_el.checked = f.checked; box_el.dataset.touched = "1"; }
        return;
      }
      var el = box.querySelector(sel);
      if (el && el.type !== "hidden") { el.value = f.value; el.dataset.touched = "1"; }
    });
    return missing;
  }

  function samePick(a, b) {
    var pa = new URLSearchParams(a.split("?")[1] || ""), pb = new URLSearchParams(b.split("?")[1] || "");
    pa.delete("then"); pb.delete("then");
    pa.sort(); pb.sort();
    return pa.toString() === pb.toString();
  }

  // A doorbell for the version this screen already shows needs no re-fetch: it rang for this phone's
  // own entry, whose answer is the fresh screen. It usually rings while that entry is still on its
  // way, so a doorbell heard meanwhile waits for the answer (at most WAIT_MS: a slow answer must not
  // hold back the other phones' entries). Once the answer is in, the screen is fetched if a doorbell
  // rang for a later version than it shows (another phone entered meanwhile: the answer, drawn
  // earlier, must not hide it). A seat taken over rings at the same version ("<v> seats"): always
  // fetched.
  var WAIT_MS = 400;
  var posting = 0, heard = 0, waiting = null, letThrough = false;

  function shownVersion() {
    var seen = document.getElementById("seen-version");
    return seen ? parseInt(seen.value, 10) : NaN;  // "<version>-<who>"
  }

  function entryPost(detail) {
    return detail.requestConfig && detail.requestConfig.verb === "post" && isScreen(detail.target);
  }

  function fetchScreen(version) {
    var screen = document.getElementById("screen");
    if (!screen || !window.htmx) return;
    letThrough = true;
    htmx.trigger(screen, "sse:changed", { data: String(version) });
    letThrough = false;
  }

  document.addEventListener("htmx:confirm", function (event) {
    var d = event.detail, rang = d.triggeringEvent;
    if (!isScreen(d.elt) || !rang || rang.type !== "sse:changed" || !rang.detail || letThrough) return;
    var data = String(rang.detail.data);
    if (!/^[0-9]+$/.test(data)) return;
    var version = parseInt(data, 10);
    if (version <= shownVersion()) {
      event.preventDefault();
    } else if (posting > 0) {
      heard = Math.max(heard, version);
      event.preventDefault();
      if (!waiting) waiting = setTimeout(function () {
        waiting = null;
        if (posting > 0 && heard > shownVersion()) fetchScreen(heard);
      }, WAIT_MS);
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!entryPost(event.detail) || !xhr) return;
    posting++;
    // on the request itself: a live update may have replaced the form that sent it, and the events
    // of a form no longer on the page reach no listener
    xhr.addEventListener("loadend", answered);
  });

  // An error answer is put in #flash (security.py); a later post that succeeds (a scan that reads, an
  // entry saved) makes it stale, and it goes.
  document.addEventListener("htmx:afterRequest", function (event) {
    var d = event.detail, flash = document.getElementById("flash");
    if (!flash || !d.successful || !d.requestConfig || d.requestConfig.verb !== "post") return;
    if (d.target && d.target.id === "flash") return;
    flash.textContent = "";
  });

  function answered() {  // after htmx has put the answer on the screen (its own load handler ran first)
    posting = Math.max(0, posting - 1);
    if (posting > 0) return;
    if (waiting) { clearTimeout(waiting); waiting = null; }
    var version = heard;
    heard = 0;
    if (version > shownVersion()) fetchScreen(version);
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && !target.isConnected && target.id && document.getElementById(target.id)) {
      // a picker asked for before a live update redrew the screen: it goes where its target is now
      event.detail.target = document.getElementById(target.id);
    }
    draft = keepsDraft(event.detail) ? take(event.detail.target) : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var d = event.detail;
    if (draft && isScreen(d.target)) {
      put(d.target, draft);
      if (entryPost(d)) focusAfterEntry(d);
      else if (!(draft.pick && draft.focused)) refocus(d.target, draft.focus);  // the picker takes it back itself
    } else if (entryPost(d)) {
      focusAfterEntry(d);
    }
    draft = null;
    focusPicker(d);
  });

  // A picker opened by a tap replaces the actions, the link that was tapped with them: the keyboard's
  // place would fall back to the top of the page. It goes to the picker instead (its question first).
  function focusPicker(detail) {
    var elt = detail.requestConfig && detail.requestConfig.elt;
    if (!detail.target || detail.target.id !== "actions" || !elt || elt.tagName !== "A") return;
    focusOn(document.getElementById("pick"));
  }
  function focusOn(pick) {
    if (!pick) return;
    var question = pick.querySelector("p, legend, h2, h3") || pick;  // its question is read, not every card
    if (!question.hasAttribute("tabindex")) question.setAttribute("tabindex", "-1");
    question.focus();
  }
})();
