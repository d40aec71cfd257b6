// The dealer's table screen: the tile picker (static/tiles.js), the fields shown for the
// chosen result, and the live preview from the engine. Without this
// script the form still works: "Preview" and "Save" are plain submit buttons.
(function () {
  "use strict";
  const form = document.getElementById("jogo-form");
  if (!form) return;

  // The tile picker (static/tiles.js, loaded before this script).
  window.tilePicker(form);

  // Show the fields of the chosen result only.
  function showResult() {
    const chosen = (form.querySelector('input[name="result"]:checked') || {}).value;
    form.querySelectorAll(".when-win").forEach((el) => { el.hidden = chosen !== "win"; });
    form.querySelectorAll(".when-false-win").forEach((el) => { el.hidden = chosen !== "false_win"; });
  }
  form.querySelectorAll('input[name="result"]').forEach((r) => r.addEventListener("change", showResult));
  showResult();

  // The live preview: the engine's verdict on what is entered, as the dealer enters it. The panel
  // is aria-busy from the first keystroke until the answer for the latest input is shown, so
  // assistive technology (and the browser tests) can tell a settled verdict from a stale one.
  const panel = document.getElementById("preview");
  // On a narrow screen the preview is far below the form: a bar kept in view repeats its verdict,
  // the grade and the total paid (pit/_verdict.html, sent inside the preview as a <template>).
  const bar = document.getElementById("verdict-bar");
  function busy(state) {
    panel.setAttribute("aria-busy", state);
    if (bar) bar.setAttribute("aria-busy", state);
  }
  function showVerdict() {
    const source = panel.querySelector("template.verdict-source");
    if (bar && source) bar.replaceChildren(source.content.cloneNode(true));
  }
  let timer = null;
  let asked = 0;
  // Mark the fields the latest verdict is about, and only those; a message left beside a field
  // from a refused save goes once its field is no longer in question.
  function markFields() {
    const invalid = new Set([...panel.querySelectorAll("[data-field]")].map((item) => item.dataset.field));
    form.querySelectorAll("input, select, textarea").forEach((field) => {
      if (invalid.has(field.name)) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    });
    form.querySelectorAll(".field-error").forEach((note) => { note.hidden = !invalid.has(note.dataset.field); });
  }

  async function refresh() {
    const mine = ++asked;
    const body = new FormData(form);
    body.set("action", "preview");
    let html = null;
    try {
      const response = await fetch(form.dataset.previewUrl, { method: "POST", body, credentials: "same-origin" });
      if (response.ok) html = await response.text();
    } finally {
      if (mine === asked) {  // otherwise a newer request is on its way
        if (html !== null) { panel.innerHTML = html; showVerdict(); markFields(); }
        busy("false");
      }
    }
  }
  function later(ms) {
    busy("true");
    clearTimeout(timer);
    timer = setTimeout(refresh, ms);
  }
  form.addEventListener("input", () => later(250));
  form.addEventListener("change", () => later(100));
})();
