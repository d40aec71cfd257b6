// The seating form's player picker (pit/_seat.html): typing a player's name lists the casino's
// players whose name holds it (pit:patron_find, as the reader may see them: masked for a
// dealer); choosing one fills the chair's hidden player id. Typing again forgets the choice: a
// name not chosen makes a new player. Without this script the form still works: every name
// makes a new player.
(function () {
  "use strict";
  const form = document.querySelector("form.seat-form[data-find-url]");
  if (!form) return;
  const url = form.dataset.findUrl;
  const table = form.dataset.table;
  // The form is aria-busy while a name waits to be looked up (a test waits for it too).
  let looking = 0;
  function busy(change) {
    looking += change;
    form.setAttribute("aria-busy", looking > 0 ? "true" : "false");
  }

  form.querySelectorAll("[data-player-name]").forEach((input) => {
    const chair = input.dataset.playerName;
    const patron = form.querySelector(`input[name="patron_${chair}"]`);
    const known = form.querySelector(`[data-player-known="${chair}"]`);
    const list = form.querySelector(`[data-player-matches="${chair}"]`);
    let asked = 0;
    let timer = null;

    function close() {
      list.hidden = true;
      list.replaceChildren();
    }
    function choose(found) {
      input.value = found.label;
      patron.value = found.id;
      known.hidden = false;
      close();
      input.focus();
    }
    function show(players) {
      list.replaceChildren(...players.map((found) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = found.label;
        button.dataset.patron = found.id;
        button.addEventListener("click", () => choose(found));
        item.append(button);
        return item;
      }));
      list.hidden = players.length === 0;
    }
    async function find() {
      timer = null;
      const query = input.value.trim();
      const mine = ++asked;
      try {
        if (query.length < 2) { close(); return; }
        const response = await fetch(`${url}?q=${encodeURIComponent(query)}&table=${table}`,
                                     { headers: { Accept: "application/json" } });
        if (!response.ok || mine !== asked) return;  // a later keystroke asked again
        show(await response.json());
      } finally {
        busy(-1);
      }
    }
    input.addEventListener("input", () => {
      patron.value = "";  // a name typed is a new player until one is chosen
      known.hidden = true;
      if (timer) clearTimeout(timer); else busy(+1);
      timer = setTimeout(find, 200);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") close();
      if (event.key === "ArrowDown" && !list.hidden) {
        event.preventDefault();
        list.querySelector("button").focus();
      }
    });
    list.addEventListener("keydown", (event) => {
      const buttons = [...list.querySelectorAll("button")];
      const at = buttons.indexOf(document.activeElement);
      if (event.key === "Escape") { close(); input.focus(); }
      if (event.key === "ArrowDown" && at < buttons.length - 1) { event.preventDefault(); buttons[at + 1].focus(); }
      if (event.key === "ArrowUp") { event.preventDefault(); (at > 0 ? buttons[at - 1] : input).focus(); }
    });
  });
})();
