// What buttons do beyond sending a form.
(function () {
  "use strict";
  // A link drawn as a button that acts in place (hx-get: a picker opened where it stands; without script a
  // plain link to the same screen) is pressed with Space as well as Enter, as anything that looks like a
  // button is: a link alone answers only Enter, and Space scrolled the page instead. It stays a link to a
  // screen reader: it opens another screen's worth of choices, as it does without script.
  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    var link = event.target.closest && event.target.closest("a.button[hx-get]");
    if (!link) return;
    event.preventDefault();
    link.click();
  });
  // "Not yet" under a question asked before an entry (a call: "Yes, Gil calls…") closes the question and
  // gives the focus back to what opened it; only the undo of the last entry stood beside "Yes" before.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.not-yet");
    var asked = button && button.closest("details");
    if (!asked) return;
    asked.open = false;
    var summary = asked.querySelector("summary");
    if (summary) summary.focus();
  });
})();
