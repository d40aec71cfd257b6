"""A refusal turned into a page, in one place (casino/refusals.py): on a form, each problem beside
its field and all of them for the page's list, 400 or 409 as the API says it; for a button with
no form, each problem as a message and back. And no web view answers a refusal its own way."""
from __future__ import annotations

import ast
from functools import partial
from pathlib import Path

from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.http import HttpResponse
from django.test import RequestFactory

from casino.pit.errors import Problem, Refused
from casino.refusals import refused_action, refused_form

ROOT = Path(__file__).resolve().parents[2]


class NoteForm(forms.Form):
    note = forms.CharField()
    ends = forms.CharField(required=False)


def problem(code: str, message: str, field: str | None = None) -> Problem:
    return Problem.of(code, None, message, field)


def page(*, problems=(), status=200):
    """A page function as the views have them: what it was given, in the response."""
    response = HttpResponse(status=status)
    response.problems = problems
    return response


def test_a_refused_form_has_each_problem_beside_its_field_and_every_problem_for_the_page():
    form = NoteForm({"note": "seen", "ends": ""})
    assert form.is_valid()
    on_note = problem("note_short", "Say what was seen.", "note")
    on_state = problem("case_resolved", "The case is resolved.")

    response = refused_form(Refused(on_note, on_state), page, form)

    assert response.status_code == 400
    assert response.problems == (on_note, on_state)
    assert form.errors == {"note": ["Say what was seen."]}  # the case's state is not the form's


def test_a_refusal_that_clashes_with_the_ledger_is_a_409():
    refused = Refused(problem("day_closed", "The gaming day 2026-11-21 is closed."), conflict=True)
    assert refused_form(refused, page).status_code == 409


def test_a_field_shows_its_first_problem_and_a_field_the_form_names_otherwise_is_found():
    form = NoteForm({"note": "seen", "ends": "03:00"})
    form.is_valid()
    first, second = problem("a", "First.", "note"), problem("b", "Second.", "note")
    end = problem("rotation_end", "End: a rotation entry ends after it starts.", "ends_at")

    refused_form(Refused(first, second, end), page, form,
                 field=lambda found: "ends" if found.field == "ends_at" else found.field)

    assert form.errors == {"note": ["First."], "ends": ["End: a rotation entry ends after it starts."]}


def test_the_page_gets_the_bound_form_it_was_given():
    form = NoteForm({"note": ""})
    response = refused_form(Refused(problem("x", "No.")), partial(lambda form, **shown: page(**shown), form), form)
    assert response.status_code == 400 and response.problems[0].message == "No."


def test_a_refused_action_says_each_problem_and_goes_back():
    request = RequestFactory().post("/pit/tables/1/open")
    request.session = {}
    request._messages = FallbackStorage(request)
    refused = Refused(problem("table_open", "Table T1 is already open."), problem("other", "Something else."))

    response = refused_action(request, refused, "/pit/tables/1/")

    assert (response.status_code, response["Location"]) == (302, "/pit/tables/1/")
    assert [str(message) for message in get_messages(request)] == ["Table T1 is already open.", "Something else."]
    assert all(message.level_tag == "error" for message in get_messages(request))


# The previews: they show what saving would meet, as the preview itself, not as a refused write.
PREVIEWS = {"casino.pit.views:_preview_context", "casino.pit.views:preview",
            "casino.pit.correction_views:_comparison", "casino.pit.correction_views:_proposed"}


def _web_views(root: Path) -> list[Path]:
    return sorted(root.glob("casino/**/*views.py"))


def _answered_own_way(root: Path) -> set[str]:
    """module:function of each `except Refused` in a web view that calls neither helper."""
    found = set()
    for path in _web_views(root):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for handler in ast.walk(function):
                if not (isinstance(handler, ast.ExceptHandler) and handler.type is not None
                        and "Refused" in ast.unparse(handler.type)):
                    continue
                called = {ast.unparse(node.func) for node in ast.walk(handler) if isinstance(node, ast.Call)}
                if not called & {"refused_form", "refused_action"}:
                    found.add(f"{module}:{function.name}")
    return found


def test_every_web_view_answers_a_refusal_with_one_of_the_two():
    """Each `except Refused` of a web view answers with `refused_form` or `refused_action`; only
    the previews show the problems themselves."""
    assert {".".join(path.relative_to(ROOT).with_suffix("").parts) for path in _web_views(ROOT)} >= {
        "casino.pit.views", "casino.pit.floor_views", "casino.pit.correction_views", "casino.count.box_views",
        "casino.count.case_views", "casino.count.rotation_views", "casino.audit.views", "casino.reports.views"}
    assert _answered_own_way(ROOT) == PREVIEWS


def test_the_check_sees_a_refusal_answered_another_way(tmp_path):
    (tmp_path / "casino" / "x").mkdir(parents=True)
    (tmp_path / "casino" / "x" / "views.py").write_text(
        "def mine(request):\n    try:\n        pass\n    except errors.Refused as refused:\n"
        "        messages.error(request, 'no')\n\n\n"
        "def stock(request):\n    try:\n        pass\n    except Refused as refused:\n"
        "        return refused_form(refused, page)\n")
    assert _answered_own_way(tmp_path) == {"casino.x.views:mine"}
