// The live floor (/floor/, casino/floor/live_views.py): fills each table's card from its data and
// keeps it up to date from the floor's socket, one message per event (docs/floor.md). Every word
// comes from the page (#floor-labels, in the reader's language); the messages carry codes,
// numbers and names only. When the socket drops, the page says so and asks for the cards every
// few seconds until the socket is back.
"use strict";
(() => {
  const floor = document.querySelector(".floor[data-socket]");
  if (!floor) return;
  const labels = JSON.parse(document.getElementById("floor-labels").textContent);
  const words = labels.words;
  const live = floor.querySelector(".live-mark");
  const dropped = floor.querySelector(".dropped");
  const pollMs = 1000 * Number(floor.dataset.pollSeconds || 5);
  let polling = null;

  const say = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
  const element = (tag, className, text) => {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  };
  const number = (value) => Number(value).toLocaleString(document.documentElement.lang || undefined);

  function fill(card) {
    const place = floor.querySelector(`.card[data-table="${card.id}"]`);
    if (!place) return;  // a table this page does not show (its filters)
    const slot = (name) => place.querySelector(`[data-slot="${name}"]`);
    place.classList.toggle("closed", !card.open);
    slot("state").textContent = card.open ? words.open : words.closed;
    const game = card.game;
    slot("game").textContent = game
      ? [say(words.game, {id: game.id}), say(words.next_jogo, {number: card.next_jogo}),
         labels.round[game.round_wind] || ""].filter(Boolean).join(" · ")
      : words.no_game;
    const seats = slot("seats");
    seats.replaceChildren(...(game ? game.seats.filter(Boolean) : []).map((seat) => {
      const row = element("li", seat.chair === game.banker ? "banker" : "");
      const chair = element("span", "chair", String(seat.chair + 1));
      chair.title = say(words.chair, {n: seat.chair + 1});
      row.append(chair,
                 element("span", "player", seat.player), element("span", "capital", number(seat.capital)));
      if (seat.chair === game.banker) row.title = words.banker;
      if (seat.below) {  // casino rule C-1: the next jogo waits for a top-up or the seat's change
        row.classList.add("short", seat.below === "zero" ? "below-zero" : "below-minimum");
        row.append(element("span", "below", seat.below === "zero" ? words.below_zero
          : say(words.below_minimum, {missing: number(seat.missing)})));
        row.title = say(words.minimum, {minimum: number(game.minimum)});
      }
      return row;
    }));
    const duty = slot("duty");
    duty.replaceChildren(
      element("span", "", `${words.dealer}: ${card.dealers.join(", ") || words.nobody}`),
      element("span", "", `${words.supervisor}: ${card.supervisors.join(", ") || words.nobody}`));
    slot("when").replaceChildren(
      element("span", "", card.last_jogo_at ? say(words.last_jogo, {time: card.last_jogo_at}) : words.no_jogo),
      element("span", "", say(words.shift, {number: card.shift.number, jogos: card.shift.jogos,
                                            commission: number(card.shift.commission)})));
    slot("counts").replaceChildren(...[["alerts", card.alerts], ["corrections", card.corrections],
                                       ["flags", card.flags]].map(([name, count]) => {
      const badge = element("span", count ? `count hot ${name}` : `count ${name}`, `${words[name]} ${count}`);
      badge.dataset.count = count;
      return badge;
    }));
    const box = card.box;
    slot("box").textContent = say(labels.box[box.state], {shift: box.shift, shifts: (box.shifts || []).join(", ")});
    slot("box").dataset.state = box.state;
  }

  function showLive(isLive) {
    live.hidden = !isLive;
    dropped.hidden = isLive;
    floor.dataset.live = isLive ? "yes" : "no";
  }

  async function refresh() {
    try {
      const response = await fetch(floor.dataset.cardsUrl, {credentials: "same-origin",
                                                            headers: {Accept: "application/json"}});
      if (response.ok) (await response.json()).cards.forEach(fill);
    } catch (error) { /* the server is out of reach too: the next tick asks again */ }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${floor.dataset.socket}`);
    socket.addEventListener("open", () => {
      showLive(true);
      if (polling) { clearInterval(polling); polling = null; }
      refresh();  // what changed while the socket was not there
    });
    socket.addEventListener("message", (event) => JSON.parse(event.data).cards.forEach(fill));
    socket.addEventListener("close", () => {
      showLive(false);
      if (!polling) polling = setInterval(refresh, pollMs);
      setTimeout(connect, pollMs);
    });
  }

  JSON.parse(document.getElementById("floor-cards").textContent).forEach(fill);
  connect();
  // What the clock changes, or a process that shares no channel layer with this server (the
  // scheduler's tick in `make run`), sends no message here: read every card once a minute too.
  setInterval(() => { if (!polling) refresh(); }, 60000);
})();
