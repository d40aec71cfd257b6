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

  // The pay-all article is chosen by its number and a few words; its full text shows under it.
  const article = form.querySelector('select[name="pay_all_article"]');
  function showArticle() {
    form.querySelectorAll(".pay-all-article-text [data-article]").forEach((text) => {
      text.hidden = !article || text.dataset.article !== article.value;
    });
  }
  if (article) article.addEventListener("change", showArticle);

  // Keys (pit/_jogo_fields.html shows them): Alt and a control's letter (data-key) goes to it,
  // moves to the next result or presses the button; in a choice of seat the seat's key chooses it
  // (the legend's letters, and E S W N in every language), ⌫ chooses none. event.code, because
  // Alt changes the character typed on some keyboards.
  const seatKeys = { e: "E", s: "S", w: "W", n: "N" };
  form.querySelectorAll("[data-seat-key]").forEach((kbd) => {
    seatKeys[kbd.textContent.trim().toLowerCase()] = kbd.dataset.seatKey;
  });
  function choose(select, value) {
    if (![...select.options].some((option) => option.value === value)) return;
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.addEventListener("keydown", (event) => {
    const letter = /^Key([A-Z])$/.exec(event.code);
    if (!letter || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const control = form.querySelector(`[data-key="${letter[1].toLowerCase()}"]`);
    if (!control || control.closest("[hidden]")) return;
    event.preventDefault();
    if (control.matches("fieldset")) {
      const radios = [...control.querySelectorAll('input[type="radio"]')];
      const next = radios[(radios.findIndex((radio) => radio.checked) + 1) % radios.length];
      next.checked = true;
      next.focus();
      next.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (control.matches("button")) {
      control.click();
    } else {
      control.focus();
    }
  });
  form.addEventListener("keydown", (event) => {
    const select = event.target.closest("select[data-seat-choice]");
    if (!select || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      choose(select, "");
    } else if (seatKeys[event.key.toLowerCase()]) {
      event.preventDefault();
      choose(select, seatKeys[event.key.toLowerCase()]);
    }
  });

  // What the dealer has entered is kept in this tab (sessionStorage) for the jogo being entered
  // (data-draft-of: the game and the jogo's number): changing the language reloads the page, and
  // a fresh form (data-draft-restore) takes it back. A jogo saved moves the number on, so its
  // draft is dropped. The form's own key and number are never taken from a draft.
  const OWN = new Set(["csrfmiddlewaretoken", "key", "number", "action"]);
  function keepDraft() {
    if (!form.dataset.draft) return;
    const fields = [...new FormData(form)].filter(([name]) => !OWN.has(name));
    try {
      sessionStorage.setItem(form.dataset.draft, JSON.stringify({ of: form.dataset.draftOf, fields }));
    } catch (e) { /* storage full or refused: nothing is kept */ }
  }
  function restoreDraft() {
    if (!form.dataset.draft) return false;
    let draft = null;
    try { draft = JSON.parse(sessionStorage.getItem(form.dataset.draft) || "null"); } catch (e) { draft = null; }
    if (!draft || draft.of !== form.dataset.draftOf) {
      try { sessionStorage.removeItem(form.dataset.draft); } catch (e) { /* nothing kept */ }
      return false;
    }
    if (!("draftRestore" in form.dataset)) return false;
    const values = new Map();
    for (const [name, value] of draft.fields) values.set(name, [...(values.get(name) || []), value]);
    for (const control of form.elements) {
      if (!control.name || OWN.has(control.name) || control.type === "hidden" || control.type === "submit") continue;
      const kept = values.get(control.name) || [];
      if (control.type === "checkbox" || control.type === "radio") {
        if (control.type === "checkbox" || kept.length) control.checked = kept.includes(control.value);
      } else if (control.tagName === "SELECT" && control.multiple) {
        [...control.options].forEach((option) => { option.selected = kept.includes(option.value); });
      } else {
        control.value = kept.length ? kept[0] : "";
      }
    }
    form.querySelectorAll("[data-tiles]").forEach((field) => field.dispatchEvent(new Event("input")));
    showResult();
    showArticle();
    return true;
  }
  form.addEventListener("input", keepDraft);
  form.addEventListener("change", keepDraft);

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
  if (restoreDraft()) later(0);  // the preview of what was taken back, in the page's language
})();
