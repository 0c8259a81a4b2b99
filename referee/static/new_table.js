// New-table form: choosing a rule set sets every house-rule switch under "Customise" to its values.
document.addEventListener("change", (event) => {
  const radio = event.target;
  if (!radio.matches || !radio.matches('input[name="preset"]')) return;
  const rules = JSON.parse(radio.dataset.rules || "{}");
  for (const [key, value] of Object.entries(rules)) {
    const field = radio.form.elements.namedItem(key);
    if (field) field.value = value === null ? "" : String(value);
  }
});
