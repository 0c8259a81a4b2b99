// Screen readers: say what changed when a live update redraws the table screen.
//
// The table screen is replaced whole (htmx) when any phone enters something, and a live region that is
// itself replaced is not reliably read out. So one region that is never replaced (#announcer, in every
// page) is told, after each redraw, another phone's entry (as the history says it), the new turn heading,
// the match's outcome, a call, an open snap, a dispute to decide, a ruling and the scores when they changed.
// It never touches the screen itself, so nothing a player is typing is disturbed.
(function () {
  "use strict";
  var last = {};

  function text(root, selector) {
    var el = root.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function announce(root, live) {
    var region = document.getElementById("announcer");
    if (!region) return;
    var now = {
      last: live ? text(root, "#last-entry") : last.last,  // another phone's entry; this phone's own is known
      status: text(root, "#status"),
      outcome: text(root, ".status .outcome"),  // who won the match: said before the last round's result
      ruling: text(root, "#ruling p"),
      banner: text(root, "#final-turns"),
      snap: text(root, "#snap-open"),  // a snap is a race: every player hears it is open, and a wrong one
      // the table is asked to decide (GEN-5): how many disputes are open, and what the newest is about
      disputes: [text(root, "#disputes h2"), text(root, "#disputes .flag:last-of-type p[id$='-what']")]
        .filter(Boolean).join(": "),
      result: text(root, "#last-round h2, #last-game h2"),
    };
    var said = [];
    var focused = document.activeElement;
    ["last", "status", "outcome", "banner", "snap", "disputes", "ruling", "result"].forEach(function (key) {
      // the ruling the keyboard was just moved to is read out by the move (screen.js): not twice
      if (key === "ruling" && focused && focused.closest && focused.closest("#ruling")) return;
      if (now[key] && now[key] !== last[key]) said.push(now[key]);
    });
    last = now;
    if (said.length) {
      region.textContent = said.reduce(function (all, words) {  // sentences apart, one full stop between
        return !all ? words : all + (/[.!?…]$/.test(all) ? " " : ". ") + words;
      }, "");
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var screen = document.getElementById("screen");
    if (screen) announce(screen, true);  // remember what the page opened with, without saying it
    var region = document.getElementById("announcer");
    if (region) region.textContent = "";
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    // a live update fetches the screen (GET); this phone's own entry answers its POST with it
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (target && target.id === "screen") announce(target, verb === "get");
  });
})();
