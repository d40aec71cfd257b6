// The hand calculator: the tile picker (static/tiles.js) is attached to the form by its
// data-tile-picker mark; this script only shows the discarder when the way the winning tile
// came has one, and marks the winner's hand. Without it the form works the same.
(function () {
  "use strict";
  const form = document.getElementById("hand-form");
  if (!form) return;
  const how = form.querySelector('[name="winning_from"]');
  const winner = form.querySelector('[name="winner"]');
  const discarder = form.querySelector("label.discarder");

  function show() {
    if (how && discarder) discarder.hidden = !["discard", "robbing_kong"].includes(how.value);
    if (winner) {
      form.querySelectorAll(".seat-hand").forEach((hand) => {
        hand.classList.toggle("winner", hand.dataset.seat === winner.value);
      });
    }
  }
  form.addEventListener("change", show);
  show();
})();
