// Pit terminals are shared: a signed-in page (templates/base.html loads this script on every one)
// that nobody has touched, in any of the site's tabs, for the session's idle limit goes to the
// login page. The server, past its own limit by then (casino.middleware.SessionIdleMiddleware),
// ends the session there and says why; logging in again comes back to this page.
// The server counts from the session's last request, so while somebody works here without
// sending anything (typing a long note) the page tells it so, at most once a minute.
"use strict";
(() => {
  const { idleSeconds, loginUrl, keepAliveUrl } = document.currentScript.dataset;
  const limit = Number(idleSeconds) * 1000;
  if (!(limit > 0)) return;
  // A request sent just after the last touch (the table's preview) reaches the server a moment
  // later than the touch: wait that much longer, so that the server's limit has passed too.
  const MARGIN = 5000;
  const TELL_EVERY = Math.min(60000, limit / 10);
  const SHARED = "casino.lastTouched";  // the latest touch or page load in any of the site's tabs

  let touched = Date.now();
  let told = touched;  // the server last heard from this page when it was loaded
  function share() {
    try { localStorage.setItem(SHARED, String(touched)); } catch { /* storage off: this tab alone */ }
  }
  function latest() {
    try { return Math.max(touched, Number(localStorage.getItem(SHARED)) || 0); } catch { return touched; }
  }
  function touch() {
    touched = Date.now();
    share();
    if (touched - told >= TELL_EVERY) {
      told = touched;
      fetch(keepAliveUrl, { credentials: "same-origin", cache: "no-store" }).catch(() => {});
    }
  }
  share();
  for (const kind of ["keydown", "pointerdown", "wheel"]) {
    document.addEventListener(kind, touch, { capture: true, passive: true });
  }
  const watch = setInterval(() => {
    if (Date.now() - latest() < limit + MARGIN) return;
    clearInterval(watch);
    const next = new URLSearchParams({ next: location.pathname + location.search });
    location.assign(`${loginUrl}?${next}`);
  }, 1000);
})();
