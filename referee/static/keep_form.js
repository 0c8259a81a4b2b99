// A form marked data-keep (the correction page: a card chosen, a reason typed) keeps what was filled in
// across a reload of its page in this tab (the table screen keeps its own drafts: screen.js), and forgets it
// once posted. Hidden fields (the version, the key) are the page's own, never put back.
(function () {
  "use strict";

  function storeKey(form) { return "keep:" + location.pathname + ":" + form.dataset.keep; }

  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && ["hidden", "file", "submit", "button"].indexOf(el.type) < 0;
    });
  }

  function save(form) {
    var out = fields(form).map(function (el) {
      return { name: el.name, value: el.value, type: el.type, checked: el.checked };
    });
    try { sessionStorage.setItem(storeKey(form), JSON.stringify(out)); } catch (e) { /* no storage */ }
  }

  function restore(form) {
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(storeKey(form)) || "null"); } catch (e) { /* unreadable */ }
    if (!Array.isArray(saved)) return;
    var els = fields(form);
    saved.forEach(function (f) {
      if (!f || typeof f.name !== "string") return;
      els.forEach(function (el) {
        if (el.name !== f.name || el.type !== f.type) return;
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === f.value) el.checked = !!f.checked;
        } else if (typeof f.value === "string") {
          el.value = f.value;
        }
      });
    });
  }

  function setUp() {
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      restore(form);
      form.addEventListener("input", function () { save(form); });
      form.addEventListener("change", function () { save(form); });
      form.addEventListener("submit", function () {
        try { sessionStorage.removeItem(storeKey(form)); } catch (e) { /* no storage */ }
      });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
