"""A decision that cannot be taken back asks first (issue 24 §6): closing a table, approving or
rejecting a correction, resolving or escalating a variance case, resolving a flag. The form's
POST without `confirmed=yes` changes nothing: it answers a page that says what is about to
happen, with the same fields kept and a button that sends them again, confirmed. A step on the
server, not a script's dialog, so that it holds without scripts and in every browser (the
"End game" button asks with a dialog as well, static/casino.js; these ask on a page).
Shared by the pit, the count (cases) and the audit (flags)."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"
NOT_ECHOED = {"csrfmiddlewaretoken", CONFIRMED}


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRMED) == "yes"


def ask(request: HttpRequest, *, question: str, consequence: str, button: str, back: str,
        note: str = "") -> HttpResponse:
    """The confirmation page: `question` as its title, `consequence` (what cannot be undone), the
    note the person wrote if any, `button` to go on and a way `back` to where he was."""
    kept = [(name, value) for name, values in request.POST.lists() if name not in NOT_ECHOED for value in values]
    return render(request, "pit/confirm.html", {"question": question, "consequence": consequence, "note": note,
                                                "button": button, "back": back, "kept": kept,
                                                "action": request.get_full_path()})
