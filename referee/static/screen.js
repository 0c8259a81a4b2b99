// The table screen: keep what a player is entering when the screen is redrawn.
//
// Another phone's entry rings the doorbell and this phone re-fetches its screen; a refused entry
// (409, 422, 400) also answers with a fresh screen. Either would wipe a half-filled form. So before such a
// swap we note every field the player touched (in forms and <details> marked data-draft), the open
// <details>, and the open picker; after the swap we put them back where the new screen still has
// them. The new screen's hidden fields (its version) are kept, so the entry is made at the version
// the player now sees. After the player's own entry is accepted, nothing is restored.
// What was typed on the screen is kept too while a picker stands in for the actions (and put back on
// Back, or when the screen is redrawn), and a scan survives every redraw until it is confirmed (below).
// The doorbell of the player's own entry asks for nothing (see below). A full reload keeps both (at the end).
(function () {
  "use strict";
  var draft = null;
  var stash = null;         // what was typed in the actions a picker now stands in for
  var pendingPick = null;   // the picker being fetched again after a redraw

  // A form posted without htmx (the correction page) is answered with the table page, a refusal on it,
  // at the address it was posted to: the address bar shows the table's, so a reload opens the table.
  var home = document.querySelector("[data-table-path]");
  if (home && window.history && location.pathname !== home.dataset.tablePath) {
    history.replaceState(null, "", home.dataset.tablePath);
  }
  // A refused correction is answered with its own page again, filled as typed: the address bar shows that
  // page's address (``data-address``), so a reload opens it rather than posting the form again.
  var address = document.querySelector("main [data-address]");
  if (address && window.history && location.pathname !== address.dataset.address) {
    history.replaceState(null, "", address.dataset.address);
  }
  // ... and that refusal is where the keyboard (and a screen reader) starts
  var refusal = document.querySelector("#screen #ruling, main [data-address] #ruling");
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
        if (!el.dataset.touched || el.type === "file") return;  // a photo chosen is never typed back in
        out.fields.push({ box: box.dataset.draft, name: el.name, value: el.value,
                          type: el.type, checked: el.checked, nth: sameChoices(box, el).indexOf(el) });
      });
    });
    var pick = screen.querySelector("#pick[data-pick]");
    if (pick) {
      out.pick = pick.dataset.pick;
      out.focused = pick.contains(document.activeElement);  // the keyboard is in the picker: it stays there
    } else if (pendingPick && screen.querySelector("#actions")) {
      out.pick = pendingPick;  // redrawn again before the picker came back: it is fetched once more
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

  // Where the keyboard was, put back on the redrawn screen; when that control is gone (another phone's entry
  // took it away: a draw made for this player on the phone for everyone), the turn heading, not the page's top.
  function refocus(screen, key) {
    if (!key) return;
    var el = findKey(screen, key) || screen.querySelector("#status");
    if (!el) return;
    if (el.tabIndex < 0 && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");  // a heading
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
    if (!refused) {  // read with the heading: what was just entered, and what the referee asks next
      var said = ["last-entry", "reminders"].filter(function (id) { return document.getElementById(id); });
      if (said.length) el.setAttribute("aria-describedby", said.join(" "));
    }
    el.focus({ preventScroll: !refused });
    if (refused && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }

  function put(screen, saved, live) {
    var body = screen.querySelector("[data-version]");
    if (live) staleNotice(screen);
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
      // still offered: by a link of the actions that opens it, or opens its first step (a picker's later
      // steps, a rank tapped or a place chosen, add their fields to the link's: "…&rank=7")
      var still = Array.prototype.some.call(screen.querySelectorAll("#actions a[hx-get]"), function (a) {
        return a.getAttribute("hx-get") === saved.pick ||
               (a.getAttribute("hx-get").split("?")[0] === path && stepOf(a.getAttribute("hx-get"), saved.pick));
      });
      if (still && window.htmx) {
        pendingPick = saved.pick;
        htmx.ajax("GET", saved.pick, { target: "#actions", swap: "innerHTML" }).then(function () {
          restore(screen, later);
          var pick = document.getElementById("pick"), was = saved.focus && findKey(screen, saved.focus);
          if (saved.focused && was && pick && pick.contains(was)) refocus(screen, saved.focus);
          else if (saved.focused) focusOn(pick);
          if (pendingPick === saved.pick) { pendingPick = null; drop(parkedPicks()); }  // answered, not swapped
        }, function () { pendingPick = null; drop(parkedPicks()); });
        return;
      }
    }
    drop(parkedPicks());  // no picker comes back: a scan made in it is for an entry no longer offered
    if (saved.pick && live) pickGone(screen, saved.focused);
  }

  // A notice of the page's own words in #flash (a polite live region), once: one said before of the same
  // kind goes first, so that a screen reader hears it again. Null when there is nowhere, or nothing, to say.
  function flashNotice(kind, words) {
    var flash = document.getElementById("flash");
    if (!flash || !words) return null;
    var old = flash.querySelector("." + kind);
    if (old) old.remove();
    var note = document.createElement("div");
    note.className = "notice " + kind;
    note.textContent = words;
    flash.appendChild(note);
    return note;
  }

  // Another phone's entry took away what this phone had started to enter (a snap closed by the next
  // turn, a power whose cards went): the player is told so, with that entry's words, and a keyboard
  // that was in the picker lands on the words, not at the top of the page. When the entry was this
  // phone's own (sent, its answer lost), the player is told it was saved.
  function pickGone(screen, focused) {
    var last = screen.querySelector("#last-entry");
    // this phone's own entry, whose answer was lost on the way (the Wi-Fi dropped): saved, not refused
    var words = last && last.hasAttribute("data-mine") ? home.dataset.pickMine : home.dataset.pickGone;
    var note = words && flashNotice("pick-gone", words + (last ? " " + last.textContent : ""));
    if (!note) return;
    note.setAttribute("tabindex", "-1");
    if (focused) note.focus();
  }

  // A notice that another phone's entry took away what this phone had started ("… Undone: Cy plays 3♣")
  // is about that entry: the next entry from another phone makes it stale, and it goes (the keyboard on
  // it goes to the turn heading). Before, it stayed until this phone's own next entry.
  function staleNotice(screen) {
    var old = document.querySelector("#flash .pick-gone");
    if (!old) return;
    var had = document.activeElement === old;
    old.remove();
    if (had) refocus(screen, { tag: "H2" });
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
        var box_el = box.querySelectorAll(sel)[Math.max(f.nth || 0, 0)];
        if (box_el) {
          box_el.checked = f.checked;
          box_el.dataset.touched = "1";
          // a choice put back is never hidden: the folded part of a form it lies in is opened (a discard
          // "Not from the hand?" refused, then tried again: the source chosen stayed, out of sight)
          var folded = box_el.closest("details");
          if (f.checked && !box_el.defaultChecked && folded && box.contains(folded)) folded.open = true;
        }
        return;
      }
      var el = box.querySelector(sel);
      if (el && el.type !== "hidden" && el.type !== "file") { el.value = f.value; el.dataset.touched = "1"; }
    });
    return missing;
  }

  function samePicker(a, b) {
    return a === b || (a.split("?")[0] === b.split("?")[0] && samePick(a, b));
  }

  // Whether picker ``b`` is picker ``a`` or a later step of it: every field of ``a`` is in ``b``, the same.
  function stepOf(a, b) {
    var pa = new URLSearchParams(a.split("?")[1] || ""), pb = new URLSearchParams(b.split("?")[1] || "");
    var all = true;
    pa.forEach(function (value, key) { if (key !== "then" && pb.getAll(key).indexOf(value) < 0) all = false; });
    return all;
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

  // Back on the Wi-Fi, or the phone woken up: the table may have moved on while the live stream was cut, and
  // the stream may not know yet that it was. The screen is asked for once (answered 204 when it is current).
  function catchUp() {
    var shown = shownVersion();
    if (document.visibilityState !== "hidden" && !isNaN(shown)) fetchScreen(shown + 1);
  }
  window.addEventListener("online", catchUp);
  document.addEventListener("visibilitychange", catchUp);

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
  // A redraw asked for while this page's own entry is on its way says so: the server then skips a redraw its
  // answer will bring (another tab of the same phone, which is not posting, is redrawn).
  document.addEventListener("htmx:configRequest", function (event) {
    var d = event.detail;
    if (isScreen(d.elt) && posting > 0 && String(d.verb).toLowerCase() === "get") d.parameters.posting = "1";
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

  // A photo refused (not a photo, damaged, too large, the scanner busy) is said beside the scan button
  // that sent it, where the player is looking, not in #flash at the top of a long page.
  document.addEventListener("htmx:afterSwap", function (event) {
    var d = event.detail, elt = d.requestConfig && d.requestConfig.elt;
    var form = elt && elt.closest ? elt.closest(".scan-form") : null;
    if (!form || !d.target || d.target.id !== "flash") return;
    var note = scanNote(form);
    note.innerHTML = d.target.innerHTML;
    d.target.textContent = "";
    note.scrollIntoView({block: "nearest"});
  });

  function scanNote(form) {  // where a scan form says what went wrong, beside its button
    var note = form.querySelector(".scan-error");
    if (!note) {
      note = document.createElement("div");
      note.className = "scan-error notice";
      note.setAttribute("role", "alert");
      form.appendChild(note);
    }
    return note;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt, form = elt && elt.closest ? elt.closest(".scan-form") : null;
    var note = form && form.querySelector(".scan-error");
    if (note) note.remove();  // the next photo: the last one's error no longer applies
  });

  // --- A tap that never reached the referee ----------------------------------------------------------
  // The laptop's server stopped, or the phone lost the Wi-Fi: htmx gives up on the request (htmx:sendError,
  // htmx:timeout) and nothing at all would change. Or something that is not the referee answers in its place
  // (a 502 or 504 page from whatever stands between: the referee's every answer carries its own security
  // headers): that page is not put on the screen. Either way the player is told so where they look: in
  // #flash (a polite live region, as the app's other notices), or beside the scan button a photo was sent
  // from (as a photo refused is said). Nothing on the screen changes, so what they chose is still there, and
  // the same button can be tapped again: its form holds the same one-time key, so an entry that did reach
  // the referee after all is never saved twice (and a later tap is told its earlier entry was saved). The
  // message goes once the referee answers again: a later entry saved, the live connection back after it was
  // lost, or any other answer of its own.
  function unreachableWords(name, english) {
    var flash = document.getElementById("flash");
    return (flash && flash.dataset[name]) || english;
  }

  function unreachable(elt) {
    var screen = document.getElementById("screen");
    if (!elt || elt === screen || elt === document.body || elt === document.documentElement) return;  // no tap
    var form = elt.closest ? elt.closest(".scan-form") : null;
    if (form) {  // (a form parked across a live update says it when put back)
      var note = scanNote(form);
      note.textContent = unreachableWords("unreachableScan",
        "Could not reach the referee: the photo was not read. Check the Wi-Fi, then scan again.");
      var input = form.querySelector("input[type=file]");
      if (input) input.value = "";  // the same photo can be chosen again (a file input unchanged says nothing)
      if (note.isConnected) note.scrollIntoView({block: "nearest"});
      return;
    }
    var flash = document.getElementById("flash");
    if (!flash) return;
    var old = flash.querySelector(".unreachable");
    if (old) old.remove();  // said again, so that a screen reader hears it again
    var box = document.createElement("div"), words = document.createElement("p");
    box.className = "error-box unreachable";
    words.textContent = unreachableWords("unreachable",
      "Could not reach the referee: nothing was saved. Check the Wi-Fi, then tap again.");
    box.appendChild(words);
    flash.appendChild(box);
    flash.scrollIntoView({block: "nearest"});
  }

  function reachable() {
    var flash = document.getElementById("flash"), old = flash && flash.querySelector(".unreachable");
    if (old) old.remove();
  }

  function gaveUp(event) {
    var d = event.detail;
    if (d.xhr) d.xhr.refereeSaid = true;
    unreachable(d.elt || (d.requestConfig && d.requestConfig.elt));
  }
  document.addEventListener("htmx:sendError", gaveUp);
  document.addEventListener("htmx:timeout", gaveUp);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var d = event.detail, xhr = d.xhr, elt = d.elt;
    if (!xhr) return;
    // The events of a form a live update took off the page meanwhile reach no listener: its request says it.
    xhr.addEventListener("abort", function () { xhr.refereeAborted = true; });
    xhr.addEventListener("loadend", function () {
      if (xhr.status === 0 && !xhr.refereeSaid && !xhr.refereeAborted) unreachable(elt);
    });
    // The button tapped is disabled while its request runs (hx-disabled-elt), which sends the keyboard's
    // focus to the page itself: when nothing came back to put on the screen, focus returns to the button,
    // to tap again, rather than to the top of the page.
    var tapped = document.activeElement;
    if (!tapped || tapped === document.body) return;
    xhr.addEventListener("loadend", function () {
      if (xhr.status !== 0 && !xhr.refereeSaid) return;  // an answer was put on the screen: it places focus
      setTimeout(function () {
        var lost = !document.activeElement || document.activeElement === document.body;
        if (lost && tapped.isConnected && !tapped.disabled) tapped.focus();
      }, 0);
    });
  });

  // Registered before the draft is taken (below): a page that is not the referee's is no redraw.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail, xhr = d.xhr;
    if (!d.isError || !xhr || xhr.getResponseHeader("Content-Security-Policy") !== null) return;
    d.shouldSwap = false;
    xhr.refereeSaid = true;
    unreachable(d.requestConfig && d.requestConfig.elt || d.elt);
  });

  // Any answer of the referee's own (a screen fetched when the phone came back online, a picker opened) shows
  // it is reachable again: the message would otherwise stay until the next entry is saved, saying nothing
  // can be saved while everything can.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 500 && xhr.getResponseHeader("Content-Security-Policy") !== null) {
      reachable();
    }
  });

  var liveLost = false;
  document.addEventListener("htmx:sseError", function () { liveLost = true; });
  document.addEventListener("htmx:sseOpen", function () {
    if (liveLost) reachable();
    liveLost = false;
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
    leaving(event.detail);
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var d = event.detail;
    if (isScreen(d.target)) {
      unparkBlocks(d.target);
      var typed = stash;
      stash = null;
      if (typed) putTyped(d.target, typed);
      if (!draft && !pendingPick) drop(parkedPicks());
    } else if (isActions(d.target) && isGet(d)) {
      unparkPicks(d.target, d.requestConfig.path);
    }
    if (draft && isScreen(d.target)) {
      var live = isScreen(d.requestConfig && d.requestConfig.elt);
      if (!live) draft.ruling = null;  // this phone's own entry was answered: the answer replaces the refusal read
      put(d.target, draft, live);
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

  function isActions(el) { return el && el.id === "actions"; }
  function isGet(detail) { return detail.requestConfig && detail.requestConfig.verb === "get"; }

  // --- What is about to be swapped away ------------------------------------------------------------
  // The screen redrawn: its scans are parked (those of the picker only when the picker is fetched again:
  // not after Back, nor after an entry made in it). The actions replaced by a picker: what was typed in
  // them is kept for when they come back, and their scans parked. A picker replaced by the same picker
  // (fetched again after a redraw): its scan is parked for it.
  function leaving(detail) {
    var target = detail.target;
    if (!target || detail.shouldSwap === false) return;
    if (isScreen(target)) {
      var accepted = entryPost(detail) && detail.xhr && detail.xhr.status < 300;
      park(target, !!draft, accepted ? detail.requestConfig.elt : null);
    } else if (isActions(target) && isGet(detail)) {
      var typed = take(target);
      if (typed.fields.length || typed.open.length) {
        stash = stash || { fields: [], open: [] };
        typed.fields.forEach(function (f) {  // the latest of each field (of each choice of a group)
          stash.fields = stash.fields.filter(function (g) { return fieldKey(g) !== fieldKey(f); });
          stash.fields.push(f);
        });
        typed.open.forEach(function (name) { if (stash.open.indexOf(name) < 0) stash.open.push(name); });
      }
      var path = detail.requestConfig.path, shown = target.querySelector("#pick[data-pick]");
      park(target, (!!pendingPick && path === pendingPick) || (shown && samePicker(shown.dataset.pick, path)), null);
    }
  }

  function fieldKey(f) {
    return [f.box, f.name, f.type === "radio" || f.type === "checkbox" ? f.value + "\u0000" + (f.nth || 0) : ""]
      .join("\u0000");
  }

  // The chips of a box with the same name and value as ``el`` (three "?" chips for three unseen cards), in
  // order: which of them was ticked is kept by its place among them.
  function sameChoices(box, el) {
    if (el.type !== "radio" && el.type !== "checkbox") return [el];
    return Array.prototype.slice.call(
      box.querySelectorAll('[name="' + CSS.escape(el.name) + '"][value="' + CSS.escape(el.value) + '"]'));
  }

  function putTyped(screen, typed) {
    typed.open.forEach(function (name) {
      var box = screen.querySelector('details[data-draft="' + CSS.escape(name) + '"]');
      if (box) box.open = true;
    });
    restore(screen, typed.fields);
  }

  // --- A scan survives a redrawn screen ----------------------------------------------------------
  // A scan box (the block a scan's result replaces whole, a player's face-up or reveal block: its
  // id; or the scan part of a picker: data-scan) holds a scan form and, once read, its result: the photo, the
  // reads and the player's corrections. A box holding a scan (its photo on its way or being read, or
  // read) is taken off the screen whole before the screen is redrawn — another phone's entry, a refusal,
  // this phone's own entry made elsewhere, a picker and Back — and put back, the very same elements, in
  // place of the new screen's box of the same name: a photo still being read is read into it, and its
  // entry is made at the version the screen now shows. Taken off before the swap, htmx does not clean
  // it up: its upload, its indicator and its listeners go on. A box the new screen no longer has (its
  // entry can no longer be made) is not dropped silently: the player is told, in the box's own words.
  var parked = [];  // { key, box, pick: the address of the picker it was in, or null }

  function holdsScan(box) {
    return !!box.querySelector(".scan-result, .scan-form[data-reading]");
  }

  // The scan box of a scan form, and its name (the same in the redrawn screen).
  function scanBox(form) {
    var box = form.closest("[data-scan]");
    if (box) return { box: box, key: "[data-scan=\"" + CSS.escape(box.dataset.scan) + "\"]" };
    var target = form.getAttribute("hx-target") || "";
    for (box = form.parentElement; box && target.charAt(0) === "#"; box = box.parentElement) {
      if (box.id === target.slice(1)) return { box: box, key: '[id="' + CSS.escape(box.id) + '"]' };
    }
    return null;
  }

  // The scan boxes in ``root`` holding a scan, each once: { key, box, pick } as parked.
  function scanBoxes(root) {
    var out = [];
    root.querySelectorAll(".scan-form").forEach(function (form) {
      var found = scanBox(form), box = found && found.box;
      if (!box || !root.contains(box) || !holdsScan(box)) return;
      if (out.some(function (p) { return p.box === box; })) return;
      var pick = box.closest("#pick");
      out.push({ key: found.key, box: box, pick: pick ? pick.dataset.pick || "" : null });
    });
    return out;
  }

  function park(root, picks, except) {
    scanBoxes(root).forEach(function (p) {
      if (!root.contains(p.box)) return;  // inside a box parked just before
      if ((p.pick !== null && !picks) || (except && p.box.contains(except))) return;
      parked.push(p);
      p.box.remove();
    });
  }

  function shownBody() { return document.querySelector("#screen [data-version]"); }

  function putBack(there, box) {
    there.replaceWith(box);
    var body = shownBody();
    if (body) {
      box.querySelectorAll('input[name="version"]').forEach(function (v) { v.value = body.dataset.version; });
    }
    if (window.htmx) htmx.process(box);
    // camera.js gives a box put back from a reload its live camera button (a parked box keeps its own)
    box.dispatchEvent(new CustomEvent("referee:putback", { bubbles: true }));
  }

  function unparkBlocks(screen) {
    var gone = [];
    parked = parked.filter(function (p) {
      if (p.pick !== null) return true;
      var there = screen.querySelector(p.key);
      if (there) putBack(there, p.box);
      else gone.push(p);
      return false;
    });
    drop(gone);
  }

  function parkedPicks() {
    var picks = parked.filter(function (p) { return p.pick !== null; });
    parked = parked.filter(function (p) { return p.pick === null; });
    return picks;
  }

  // A picker came: a scan parked for this very picker goes back into it. The picker fetched again after
  // a redraw came without the box (the entry is no longer offered there): its scan is dropped, said so.
  function unparkPicks(actions, path) {
    var pick = actions.querySelector("#pick[data-pick]");
    var refetched = pendingPick && path === pendingPick;
    if (refetched) pendingPick = null;
    var gone = [];
    parked = parked.filter(function (p) {
      if (p.pick === null) return true;
      var same = pick && samePicker(pick.dataset.pick, p.pick);
      var there = same && pick.querySelector(p.key);
      if (there) { putBack(there, p.box); return false; }
      if (refetched) { gone.push(p); return false; }
      return true;
    });
    drop(gone);
  }

  // Scans whose entry can no longer be made: nothing of them is entered, a photo still being read is not
  // shown when it is, and the player is told so plainly.
  function drop(gone) {
    var words = "";
    gone.forEach(function (p) {
      var form = p.box.querySelector(".scan-form");
      if (!form) return;
      form.dataset.dropped = "1";
      form.addEventListener("htmx:beforeSwap", function (event) { event.detail.shouldSwap = false; });
      words = words || form.dataset.droppedWords || "";
    });
    flashNotice("scan-dropped", words);
  }

  // A photo on its way is marked on its form until its answer is in (camera.js marks it from the moment
  // it is chosen); a result read while the screen moved on to a later version is entered at that one.
  var photosSent = 0;  // photo uploads on their way, wherever their box is now (on the screen, or parked)
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt, xhr = event.detail.xhr;
    if (!form || !form.classList || !form.classList.contains("scan-form") || !xhr) return;
    form.dataset.reading = "1";
    photosSent++;
    xhr.addEventListener("loadend", function () { delete form.dataset.reading; photosSent--; });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var form = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!form || !form.classList || !form.classList.contains("scan-form")) return;
    var result = document.querySelector(form.getAttribute("hx-target")), body = shownBody();
    if (!result || !body) return;
    result.querySelectorAll('input[name="version"]').forEach(function (v) {
      if (parseInt(v.value, 10) < parseInt(body.dataset.version, 10)) v.value = body.dataset.version;
    });
  });

  // --- A full reload keeps them too -------------------------------------------------------------
  // Phones reload the table page often (a background tab discarded, a pull to refresh). Whenever the page
  // is hidden or left, what the player is entering is written to this tab's sessionStorage under the
  // table's own path: the draft as taken above (with what was typed in the actions a picker stands in
  // for), and each scan box holding a read photo, as its HTML with the player's corrections in it. The
  // next load of that table's page takes it out and puts it back as after a redraw — not a refusal being
  // read, nor the keyboard's place. Only what this phone's screen already shows is kept.
  var KEEP = home && document.getElementById("screen") ? "referee-keep:" + home.dataset.tablePath : null;
  var restoring = false;  // the saved copy is being put back: a reload meanwhile leaves it saved as it is

  // The box as it stands, its fields' current values written into its HTML; without what belongs to
  // this page only (a live camera button and its preview, a request on its way).
  function snapshot(box) {
    var copy = box.cloneNode(true), from = box.querySelectorAll("input, select, textarea");
    copy.querySelectorAll("input, select, textarea").forEach(function (el, i) {
      var was = from[i];
      if (el.type === "checkbox" || el.type === "radio") el.toggleAttribute("checked", was.checked);
      else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o, j) { o.toggleAttribute("selected", was.options[j].selected); });
      } else if (el.tagName === "TEXTAREA") el.textContent = was.value;
      else if (el.type !== "file") el.setAttribute("value", was.value);
    });
    copy.querySelectorAll(".camera-open, .camera").forEach(function (el) { el.remove(); });
    copy.querySelectorAll(".htmx-request button[disabled]").forEach(function (el) { el.removeAttribute("disabled"); });
    [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))).forEach(function (el) {
      el.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
      delete el.dataset.reading;
      delete el.dataset.dropped;
    });
    return copy.outerHTML;
  }

  function save() {
    var screen = document.getElementById("screen");
    if (!KEEP || !screen || restoring) return;
    var d = take(screen), kept = { fields: d.fields, open: d.open, pick: d.pick, scans: [],
                                   lang: document.documentElement.lang };
    if (stash) {
      stash.fields.forEach(function (f) {
        if (!kept.fields.some(function (g) { return fieldKey(g) === fieldKey(f); })) kept.fields.push(f);
      });
      stash.open.forEach(function (name) { if (kept.open.indexOf(name) < 0) kept.open.push(name); });
    }
    var boxes = parked.concat(scanBoxes(screen));
    boxes.forEach(function (p) {
      if (!p.box.querySelector(".scan-result")) return;  // a photo still on its way is lost with the page
      if (boxes.some(function (q) { return q !== p && q.box.contains(p.box); })) return;  // kept with its outer box
      var img = p.box.querySelector("img.overlay");
      kept.scans.push({ key: p.key, pick: p.pick, photo: img ? img.getAttribute("src") : "", html: snapshot(p.box) });
    });
    // a refusal this phone is still reading, with the override it may be typing a reason into
    var ruling = screen.querySelector("#ruling"), body = screen.querySelector("[data-version]");
    if (ruling && body) kept.ruling = { html: ruling.outerHTML, version: body.dataset.version };
    try {
      if (kept.fields.length || kept.open.length || kept.pick || kept.scans.length || kept.ruling) {
        sessionStorage.setItem(KEEP, JSON.stringify(kept));
      } else {
        sessionStorage.removeItem(KEEP);
      }
    } catch (e) { /* no storage (full, or turned off): a reload loses them, as it did */ }
  }
  window.addEventListener("pagehide", save);
  // A photo still on its way cannot be kept (its upload goes with the page): leaving or reloading the page
  // then asks first, in the browser's own words.
  window.addEventListener("beforeunload", function (event) {
    var being = function (box) { return !!box.querySelector(".scan-form[data-reading]"); };
    if (!photosSent && !being(document) && !parked.some(function (p) { return being(p.box); })) return;
    event.preventDefault();
    event.returnValue = "";
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") save();
  });
  // the page itself came back (the back-forward cache): it shows all of it, the copy is not needed
  window.addEventListener("pageshow", function (event) { if (event.persisted && KEEP) forget(); });

  // Whether the server still keeps a scan's photo (a few minutes: scans.py): true, else the server's own
  // words for it (its 404 as htmx would show it in #flash), or "" if the server could not be asked.
  function stillKept(scan) {
    if (scan.otherLang) return Promise.resolve("");
    if (!scan.photo) return Promise.resolve(true);
    var ask = function (method, headers) {
      return fetch(scan.photo, { method: method, headers: headers || {}, credentials: "same-origin", cache: "no-store" });
    };
    return ask("HEAD").then(function (answer) {
      if (answer.ok) return true;
      return ask("GET", { "HX-Request": "true" }).then(function (r) { return r.ok ? "" : r.text(); });
    }).catch(function () { return ""; });
  }

  function restoreKept() {
    var kept = null;
    if (!KEEP) return;
    try {
      kept = JSON.parse(sessionStorage.getItem(KEEP) || "null");
    } catch (e) { /* nothing readable is kept */ }
    if (!kept || typeof kept !== "object") { forget(); return; }
    restoring = true;
    var fields = kept.fields || [], scans = kept.scans || [];
    // A scan box is in the server's words: one saved in another language (the page was reloaded by the
    // language switch) is not put back, lest one block stay in the old language; it can be scanned again.
    if (kept.lang !== document.documentElement.lang) {
      scans.forEach(function (scan) { scan.otherLang = true; });
    }
    Promise.all(scans.map(stillKept)).then(function (alive) {
      var screen = document.getElementById("screen"), flash = document.getElementById("flash"), said = false;
      restoring = false;
      forget();
      if (!screen) return;
      scans.forEach(function (scan, i) {
        var made = document.createElement("template");
        made.innerHTML = scan.html || "";
        var box = made.content.firstElementChild;
        if (!box) return;
        if (alive[i] === true) {
          parked.push({ key: scan.key, box: box, pick: scan.pick === undefined ? null : scan.pick });
          return;
        }
        // The photo is gone (or the words changed language): the scan is dropped with its corrections, lest
        // they half-fill the plain form, and the server's own words say so ("That photo is gone: photos are
        // kept only for a few minutes. Scan again."). A player would rather scan again than confirm reads
        // they can no longer check against the photo (and "keep the photo" would keep nothing).
        var names = Array.prototype.map.call(box.querySelectorAll("[data-draft]"), function (b) { return b.dataset.draft; });
        if (box.dataset.draft) names.push(box.dataset.draft);
        fields = fields.filter(function (f) { return names.indexOf(f.box) < 0; });
        if (alive[i] && flash && !said) { flash.insertAdjacentHTML("beforeend", alive[i]); said = true; }
        if (scan.otherLang && !said && flashNotice("scan-dropped", home.dataset.scanOtherLanguage)) {
          said = true;  // said in the page's language
        }
      });
      unparkBlocks(screen);  // a box whose entry can no longer be made is dropped and said so, as live
      put(screen, { fields: fields, open: kept.open || [], pick: kept.pick || null, ruling: keptRuling(screen, kept) });
    });
  }
  function forget() {
    try { sessionStorage.removeItem(KEEP); } catch (e) { /* no storage */ }
  }

  // The refusal kept over a reload, when the table is still as it was refused at (its override would apply
  // to it) and the page is in the language it was said in; else nothing: the entry can be made again.
  function keptRuling(screen, kept) {
    var r = kept.ruling, body = screen.querySelector("[data-version]");
    if (!r || typeof r.html !== "string") return null;
    if (kept.lang !== document.documentElement.lang) {  // said in the other language: said so in this one
      flashNotice("ruling-dropped", home.dataset.rulingOtherLanguage);
      return null;
    }
    if (!body || body.dataset.version !== String(r.version) || screen.querySelector("#ruling")) return null;
    var made = document.createElement("template");
    made.innerHTML = r.html;
    var el = made.content.firstElementChild;
    return el && el.id === "ruling" ? el : null;
  }
  // after htmx has set up the page (its own DOMContentLoaded listener was added first)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restoreKept);
  else restoreKept();
})();
