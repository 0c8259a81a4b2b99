// A switch that matters only under some values of another one (data-when: that switch's name,
// data-when-values: those values) shows only while one of them is chosen, and while that switch shows.
// Values compare as the form spells them, whatever the case ("True" and "true" alike).
const showSwitches = (form) => {
  if (!form) return;
  const spelled = (value) => String(value).trim().toLowerCase();
  const applies = (box, depth = 0) => {
    if (!box || !box.dataset.when) return true;
    const field = form.elements.namedItem(box.dataset.when);
    if (!field || depth > 10) return false;
    const wanted = box.dataset.whenValues.split(/\s+/).filter(Boolean).map(spelled);
    const owner = field.closest ? field.closest(".switch") : null;
    return wanted.includes(spelled(field.value)) && applies(owner, depth + 1);
  };
  for (const box of form.querySelectorAll(".switch[data-when]")) box.classList.toggle("applies", applies(box));
};

// New-table form: choosing a rule set sets every house-rule switch under "Customise" to its values.
document.addEventListener("change", (event) => {
  const radio = event.target;
  if (radio.matches && radio.matches('input[name="preset"]')) {
    const rules = JSON.parse(radio.dataset.rules || "{}");
    for (const [key, value] of Object.entries(rules)) {
      const field = radio.form.elements.namedItem(key);
      if (field) field.value = value === null ? "" : String(value);
    }
  }
  if (event.target.form) showSwitches(event.target.form);
});
document.addEventListener("input", (event) => { if (event.target.form) showSwitches(event.target.form); });
for (const form of document.forms) showSwitches(form);
window.addEventListener("pageshow", () => {  // a form the browser filled in again (back, reload)
  for (const form of document.forms) showSwitches(form);
});

// The group's known players: tapping one puts the name in the first empty player field (tapping it
// again empties its field); the buttons show who is in, and follow the group chosen. Typing still works.
(() => {
  const box = document.getElementById("known-players");
  if (!box) return;
  const form = box.closest("form");
  const fields = () => Array.from(form.querySelectorAll('input[name="player"]'));
  const key = (name) => name.normalize("NFKC").replace(/[\u200b-\u200f\u2060\ufeff]/g, "").trim().toLocaleLowerCase();
  const sync = () => {
    const names = new Set(fields().map((f) => key(f.value)).filter(Boolean));
    for (const b of box.querySelectorAll("button.known")) b.setAttribute("aria-pressed", names.has(key(b.dataset.name)) ? "true" : "false");
  };
  const show = () => {
    const chosen = form.elements.namedItem("group");
    const value = chosen ? chosen.value : "none";
    for (const set of box.querySelectorAll(".known-set")) set.hidden = set.dataset.group !== value;
    box.hidden = !box.querySelector(`.known-set[data-group="${CSS.escape(value)}"] button`);
  };
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button.known");
    if (!button) return;
    const name = button.dataset.name;
    const here = fields().find((f) => key(f.value) === key(name));
    if (here) {
      here.value = "";
    } else {
      const empty = fields().find((f) => f.value.trim() === "");
      if (!empty) return;  // every seat is taken
      empty.value = name;
      const more = empty.closest("details");
      if (more) more.open = true;  // a seventh player or more: the field shows where the name went
    }
    sync();
  });
  form.addEventListener("input", (event) => { if (event.target.name === "player") sync(); });
  form.addEventListener("change", (event) => { if (event.target.name === "group") show(); });
  show();
  sync();
})();
