// The tile picker, shared by the dealer's table screen (pit/table.js) and the hand calculator:
// the tile pictures put a tile into the tile field last chosen, the tiles typed or picked are
// drawn under each field, and "Type" brings the on-screen keyboard back. Without this script
// every tile field is a plain text field in the notation (123m 456p 789s 11z).
//
// tilePicker(form) attaches it to one form; a <form data-tile-picker> gets it on its own.
(function () {
  "use strict";

  function attach(form) {
    const SUITS = "mpsz";
    const MARK = { m: "萬", p: "筒", s: "索" };
    const HONOUR = { 1: "東", 2: "南", 3: "西", 4: "北", 5: "", 6: "發", 7: "中" };

    // "123m55z" -> ["1m", "2m", "3m", "5z", "5z"]; null when it is not notation.
    function codes(text) {
      const compact = text.replace(/\s+/g, "");
      if (!/^(?:[1-9]+[mps]|[1-7]+z)*$/.test(compact)) return null;
      const out = [];
      for (const [, digits, suit] of compact.matchAll(/([1-9]+)([mpsz])/g)) {
        for (const digit of digits) out.push(digit + suit);
      }
      return out;
    }

    // ["1m", "5z", "2m"] -> "12m5z", grouped by suit in the order m p s z, sorted within.
    function notation(list) {
      const sorted = [...list].sort((a, b) => SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || a[0] - b[0]);
      let out = "";
      sorted.forEach((code, i) => {
        out += code[0];
        if (i === sorted.length - 1 || sorted[i + 1][1] !== code[1]) out += code[1];
      });
      return out;
    }

    function drawTiles(strip, text) {
      strip.textContent = "";
      const list = codes(text);
      if (!list) return;
      for (const code of list) {
        const tile = document.createElement("span");
        tile.className = "tile t-" + code + " s-" + code[1];
        const number = document.createElement("b");
        const mark = document.createElement("i");
        if (code[1] === "z") { mark.textContent = HONOUR[code[0]]; } else { number.textContent = code[0]; mark.textContent = MARK[code[1]]; }
        tile.append(number, mark);
        strip.append(tile);
      }
    }

    const tileFields = [...form.querySelectorAll("[data-tiles]")];
    let target = tileFields[0];
    function redraw(field) {
      const strip = form.querySelector(`[data-strip-for="${field.id}"]`);
      if (strip) drawTiles(strip, field.value);
    }
    tileFields.forEach((field) => {
      field.addEventListener("focus", () => { target = field; markTarget(); });
      field.addEventListener("input", () => redraw(field));
      redraw(field);
    });
    function markTarget() {
      tileFields.forEach((f) => f.classList.toggle("picking", f === target));
    }
    markTarget();

    // On a tablet the on-screen keyboard would cover the tile pictures: while the pictures are the
    // chosen input, the tile fields ask for no keyboard (inputmode="none"; a hardware keyboard still
    // types). The "Type" button brings the keyboard back, and the choice is kept on this device.
    const typing = form.querySelector("[data-tile-typing]");
    function useKeyboard(on) {
      tileFields.forEach((f) => f.setAttribute("inputmode", on ? "text" : "none"));
      if (typing) typing.setAttribute("aria-pressed", on ? "true" : "false");
      try { localStorage.setItem("pit.tileInput", on ? "keyboard" : "pictures"); } catch (e) { /* private mode */ }
    }
    let keyboard = false;
    try { keyboard = localStorage.getItem("pit.tileInput") === "keyboard"; } catch (e) { /* private mode */ }
    useKeyboard(keyboard);
    if (typing) {
      typing.hidden = false;
      typing.addEventListener("click", () => {
        useKeyboard(typing.getAttribute("aria-pressed") !== "true");
        if (target) target.focus();
      });
    }

    // Art. 2: the game has four of each tile. A fifth copy, counted over every tile field of the
    // form (a field of one tile is replaced, so its own tile does not count), is refused as it is
    // tapped, with the page's note (pit/_palette.html) until the next tile is taken.
    const note = form.querySelector("[data-fifth-copy]");
    function say(text) { if (note) note.textContent = text; }
    function copiesElsewhere(code) {
      return tileFields.filter((f) => !(f === target && f.dataset.tiles === "one"))
        .flatMap((f) => codes(f.value) || []).filter((c) => c === code).length;
    }

    form.querySelectorAll("[data-tile]").forEach((button) => {
      button.addEventListener("click", () => {
        if (!target) return;
        const code = button.dataset.tile;
        if (copiesElsewhere(code) >= 4) {
          say(note ? note.dataset.fifthCopy : "");
          return;
        }
        say("");
        if (target.dataset.tiles === "one") {
          target.value = code;
        } else {
          const list = codes(target.value) || [];
          list.push(code);
          target.value = notation(list);
        }
        redraw(target);
        target.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
    const back = form.querySelector("[data-tile-back]");
    if (back) {
      back.addEventListener("click", () => {
        if (!target) return;
        say("");
        const list = codes(target.value) || [];
        list.pop();
        target.value = notation(list);
        redraw(target);
        target.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }

  }

  window.tilePicker = attach;
  document.querySelectorAll("form[data-tile-picker]").forEach(attach);
})();
