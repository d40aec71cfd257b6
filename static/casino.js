// Behaviour every page shares, in a file rather than inline (the Content-Security-Policy allows
// scripts from this site's files only, no inline script or on* attribute):
// - a <select data-autosubmit> sends its form when it changes (the language menu; it has a
//   button for when scripts are off);
// - a <form data-confirm="question"> asks the question before it is sent;
// - a <button data-print> prints the page (receipts, the end-of-game and day summaries).
"use strict";
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) select.form.submit();
});
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
document.addEventListener("click", (event) => {
  if (event.target.closest("button[data-print]")) window.print();
});
