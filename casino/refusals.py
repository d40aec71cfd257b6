"""Every refusal shown on a page, from one place: the web's counterpart of the API's one handler
(casino/api_errors.py).

A service refuses a write with `Refused` (casino/pit/errors.py): one or more problems, each with
its article and, when it has one, the field it is about. A page answers it in one of two ways:

- `refused_form`: the write came from a form. The page is shown again, with what was typed:
  each problem beside the form's field it is about, and every problem listed above the form,
  where it is read even when the refusal took the form away (a case resolved meanwhile, a game
  seated by somebody else). 409 when the refusal clashes with the ledger's state (a closed day,
  a count already signed), else 400: the status the API gives the same refusal.
- `refused_action`: the write was a button with no form of its own (open a table, close a day):
  each problem as a message, and back to the page the button is on, as after success.

Every message is in the reader's language (casino.terms.vocabulary.localise).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from django.contrib import messages
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from casino.pit.errors import Problem, Refused
from casino.terms.vocabulary import localise


def status_of(refused: Refused) -> int:
    """409 when the refusal clashes with the ledger's state, else 400 (as the API answers it)."""
    return 409 if refused.conflict else 400


def own_field(problem: Problem) -> str | None:
    """The form field a problem is about, when the form names its fields as the service does."""
    return problem.field


def put_beside_fields(form: BaseForm | None, problems: Iterable[Problem], *,
                      field: Callable[[Problem], str | None] = own_field) -> None:
    """Each problem beside the form's field it is about (`field` names it), in people's words
    and without the field's name, which the form shows already. A field that has an error keeps
    it: one message per field, the first; the page lists them all."""
    if form is None:
        return
    for problem in problems:
        name = field(problem)
        if name in form.fields and not form.has_error(name):
            form.add_error(name, localise(problem, field=False))


def refused_form(refused: Refused, page: Callable[..., HttpResponse], form: BaseForm | None = None, *,
                 field: Callable[[Problem], str | None] = own_field) -> HttpResponse:
    """The page of the form that was refused, again: `page(problems=..., status=...)` renders it
    (a `functools.partial` of the view's page function, holding the bound form). `form` gets each
    problem beside its field; `problems` are all of them, for the list above the form."""
    put_beside_fields(form, refused.problems, field=field)
    return page(problems=refused.problems, status=status_of(refused))


def refused_action(request: HttpRequest, refused: Refused, to: str, *args, **kwargs) -> HttpResponse:
    """Each problem as an error message, then back to `to` (a URL, or a URL's name with its
    arguments, as `redirect` takes them)."""
    for problem in refused.problems:
        messages.error(request, localise(problem))
    return redirect(to, *args, **kwargs)
