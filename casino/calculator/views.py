"""The hand calculator: a hand entered once, scored side by side under the
Portaria's rule sets and the classical rule books. A training tool: it records nothing."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode

from casino.pit.forms import palette

from .forms import HandForm, form_data
from .scoring import score_hand

# A worked example to start from: Serralheiro §10(c), North's hand (the opener is South). The rest
# of his hand, a chow and a pair, scores nothing.
EXAMPLE = {
    "round_wind": "E", "banker": "E", "opener": "S", "winner": "N", "winning_from": "discard", "discarder": "W",
    "winning_tile": "3m", "only_possible_tile": False,
    "players": {"N": {"concealed": "12m55s", "flowers": "f3 g1",
                      "melds": [{"kind": "kong", "tiles": "1111z", "exposed": False},
                                {"kind": "pong", "tiles": "111s", "exposed": True},
                                {"kind": "pong", "tiles": "444s", "exposed": True}]}},
}


@login_required
def calculator(request: HttpRequest) -> HttpResponse:
    """GET only: the form, and once a hand is sent, its score under every rule set. A form with
    mistakes is answered 400 with each mistake beside its field."""
    entered = "winner" in request.GET
    form = HandForm(request.GET if entered else None)
    columns = score_hand(form.hand()) if entered and form.is_valid() else None
    for column in columns or ():
        # A hand the books cannot read (a loser's tiles too few, say): the reason also beside its field.
        if column.field in form.fields and not form.has_error(column.field):
            form.add_error(column.field, column.errors[0])
    return render(request, "calculator/calculator.html", {
        "form": form, "columns": columns, "palette": palette("conventional"),
        "example": urlencode(form_data(EXAMPLE), doseq=True),
    }, status=400 if entered and form.errors and columns is None else 200)
