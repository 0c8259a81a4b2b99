// Times in the phone's own time zone and the page's language.
//
// The server writes each moment as <time datetime="2026-12-05T02:59:57Z" data-local="time">2:59:57 AM</time>:
// the ISO moment (UTC) for this script, and the server's own text, which stays as it is without script.
// The server's clock zone is not the phone's (a Raspberry Pi keeps UTC), so the text is written again
// here from the moment: in the zone the phone is set to, in the page's language (<html lang>, or the
// phone's own variant of it: en-GB writes 24 hours). data-local says what to write: "time" (the time
// of day) or "datetime" (the day and the time). A screen redrawn by htmx is written again as it comes in.
(function () {
  "use strict";
  var STYLES = {
    time: { timeStyle: "medium" },
    datetime: { dateStyle: "medium", timeStyle: "short" },
  };
  var made = {};

  // The page's language; the phone's own variant of it (en-GB for en) when the phone prefers one.
  function locale() {
    var page = (document.documentElement.lang || "").toLowerCase();
    var theirs = navigator.languages || [navigator.language];
    for (var i = 0; i < theirs.length; i++) {
      var tag = theirs[i] || "";
      if (page && tag.toLowerCase().split("-")[0] === page) return tag;
    }
    return page || undefined;
  }

  function formatter(kind) {
    var where = locale();
    var key = where + " " + kind;
    if (!made[key]) {
      try {
        made[key] = new Intl.DateTimeFormat(where, STYLES[kind]);
      } catch (err) {  // a language tag this browser does not know: its own language, still the phone's zone
        made[key] = new Intl.DateTimeFormat(undefined, STYLES[kind]);
      }
    }
    return made[key];
  }

  function localise(root) {
    if (!root || !root.querySelectorAll || !window.Intl) return;
    var found = Array.prototype.slice.call(root.querySelectorAll("time[datetime][data-local]"));
    if (root.matches && root.matches("time[datetime][data-local]")) found.push(root);
    found.forEach(function (el) {
      var kind = STYLES[el.dataset.local] ? el.dataset.local : "time";
      var stamp = el.getAttribute("datetime");
      var when = new Date(stamp);
      if (isNaN(when.getTime())) return;  // the server's text stays
      var text = formatter(kind).format(when);
      if (el.textContent !== text) el.textContent = text;
      el.dataset.localised = stamp;  // written here (what a test waits for)
    });
  }

  // The zone the phone is set to, told to the server once (a cookie): which evening a table started on
  // belongs to is the table's, not the server's (referee/nights.py, phone_now).
  function tellZone() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (!/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;  // an IANA name ("Europe/Rome"): safe in a cookie
    var said = "referee_tz=" + zone;
    if (document.cookie.split("; ").indexOf(said) >= 0) return;
    document.cookie = said + "; path=/; max-age=31536000; SameSite=Lax";
  }

  tellZone();
  localise(document);  // deferred: the page is parsed
  document.addEventListener("DOMContentLoaded", function () { localise(document); });
  // htmx:load comes for each element htmx puts in (a swapped screen, an out-of-band part);
  // htmx:afterSwap for the swap as a whole (an outerHTML swap's target is the element it replaced)
  document.addEventListener("htmx:load", function (event) { localise(event.target); });
  document.addEventListener("htmx:afterSwap", function () { localise(document.body); });
})();
