"""Why the pit refuses a request: one error type for every refusal, in the engine's shape.

`Refused` carries one or more `Problem`s, each a code, the article it applies (if any), a message
a pit supervisor understands and, for a form or an API client, the field it concerns. The API
answers a `Refused` in one place (casino/api_errors.py); the pages say its messages again in the
reader's language (casino.terms.vocabulary.localise).
"""
from __future__ import annotations

import json

from regulation.errors import Breach

# One error type for the engine's breaches and the pit's refusals: a `Problem` is a
# `regulation.Breach` (code, article, message, and the `template` and `params` that make the
# message again in another language, casino.terms.vocabulary.localise), with the request's
# `field` it concerns when there is one. Words in `params` are English, to translate too.
Problem = Breach


def stored(problem: Problem) -> dict:
    """`as_dict` with what makes the message again in another language, for `Refusal`: the
    template and params, when they are plain JSON values."""
    data = problem.as_dict()
    if problem.template:
        try:
            json.dumps(problem.params)
        except (TypeError, ValueError):
            return data
        data.update(template=problem.template, params=problem.params)
    return data


class Refused(Exception):
    def __init__(self, *problems: Problem, conflict: bool = False):
        self.problems = problems
        self.conflict = conflict  # the request clashes with the ledger's state (HTTP 409)
        super().__init__("; ".join(p.message for p in problems))


def capital_article(variant: str) -> str:
    """The article of the capital at stake: Art. 9(a)(4) conventional, 9(b)(3) simplified."""
    return "9(a)(4)" if variant == "conventional" else "9(b)(3)"


def chair_number(chair):
    """A chair as people number it, 1–4 (the ledger and the API keep 0–3)."""
    return chair + 1 if isinstance(chair, int) and not isinstance(chair, bool) else chair


def refuse(*, code: str, template: str, article: str | None = None, field: str | None = None,
           conflict: bool = False, cite: bool = False, **params: object) -> Refused:
    """A refusal with one problem: its `code`, the article it applies (if any), the English
    `template` of its message (marked with gettext_noop, its `{names}` filled from `params`), the
    request's `field` it concerns, and whether it clashes with the ledger's state (`conflict`:
    HTTP 409). `cite` begins the message with the article ("Art. 3: ...")."""
    return Refused(Problem.of(code, article, template, field, cite=cite, **params), conflict=conflict)
