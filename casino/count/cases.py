"""The life of a variance case after the count opened it: notes, explained, escalated to the
regulator, resolved. Each is one new event in the case's chain (chain.append_case_event), in one
transaction under the case's row lock; nothing of an earlier event ever changes.

Who: inspectors and managers write notes, mark a case explained and escalate it
(count.work_case); only a manager resolves it (count.resolve_case). NIGC's guidance asks that
every investigation be documented: each step says what was found or why, in its note.

The states a step may start from:

    note       any state (the case keeps its state)
    explained  open
    escalated  open or explained
    resolved   open, explained or escalated

A resolved case opens again only by itself, when an approved correction moves its box's variance
beyond the thresholds again (the count's receivers record "reopened").
"""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.utils.translation import gettext_noop

from casino.pit.errors import refuse
from casino.pit.signals import happened

from .chain import append_case_event
from .models import Case, CaseEvent

WORK, RESOLVE = "count.work_case", "count.resolve_case"

# The state each step leaves the case in, and the states it may start from.
STEPS = {
    CaseEvent.EXPLAINED: (Case.EXPLAINED, {Case.OPEN}),
    CaseEvent.ESCALATED: (Case.ESCALATED, {Case.OPEN, Case.EXPLAINED}),
    CaseEvent.RESOLVED: (Case.RESOLVED, {Case.OPEN, Case.EXPLAINED, Case.ESCALATED}),
}
# What the note of each step must say, when it says nothing.
NOTE_NEEDED = {
    CaseEvent.NOTE: gettext_noop("A note says something: write it first."),
    CaseEvent.EXPLAINED: gettext_noop("Marking a case explained says what explains the variance."),
    CaseEvent.ESCALATED: gettext_noop("Escalating a case to the regulator says why."),
    CaseEvent.RESOLVED: gettext_noop("Resolving a case says what was found and done."),
}
# A state in a message: the same words as Case.STATES (translated when the message is shown).
STATE_WORDS = {Case.OPEN: gettext_noop("open"), Case.EXPLAINED: gettext_noop("explained"),
               Case.ESCALATED: gettext_noop("escalated to the regulator"), Case.RESOLVED: gettext_noop("resolved")}
# Why a step is refused from a state, in people's words.
WRONG_STATE = {
    CaseEvent.EXPLAINED: gettext_noop("Only an open case is marked explained; this case is {state}."),
    CaseEvent.ESCALATED: gettext_noop("Only an open or explained case is escalated; this case is {state}."),
    CaseEvent.RESOLVED: gettext_noop("This case is already resolved."),
}


def _step(*, case: Case, user: User, kind: str, note: str, permission: str, at: dt.datetime | None) -> CaseEvent:
    note = (note or "").strip()
    if not user.has_perm(permission):
        if permission == RESOLVE:
            raise refuse(code="not_manager", conflict=True,
                         template=gettext_noop("Only a manager resolves a variance case."))
        raise refuse(code="not_inspector", conflict=True,
                     template=gettext_noop("Only an inspector or a manager works on a variance case."))
    if not note:
        raise refuse(code="note", template=NOTE_NEEDED[kind], field="note")
    locked = Case.objects.select_for_update().get(pk=case.pk)
    state = locked.state
    if kind in STEPS:
        state, starts_from = STEPS[kind]
        if locked.state not in starts_from:
            raise refuse(code="case_state", template=WRONG_STATE[kind], field="state", conflict=True,
                         state=STATE_WORDS[locked.state])
    event = append_case_event(case=locked, kind=kind, state=state, recorded_by=user, note=note, at=at)
    if kind == CaseEvent.RESOLVED:
        happened("case_closed", table=locked.box.table, subject=locked, user=user, at=event.recorded_at)
    case.state, case.ledger_seq, case.ledger_head = locked.state, locked.ledger_seq, locked.ledger_head
    return event


@transaction.atomic
def add_note(*, case: Case, user: User, note: str, at: dt.datetime | None = None) -> CaseEvent:
    """An inspector's or a manager's note on a case, in any state: the state stays."""
    return _step(case=case, user=user, kind=CaseEvent.NOTE, note=note, permission=WORK, at=at)


@transaction.atomic
def mark_explained(*, case: Case, user: User, note: str, at: dt.datetime | None = None) -> CaseEvent:
    """An open case is explained: the note says by what (a miscount, a correction...)."""
    return _step(case=case, user=user, kind=CaseEvent.EXPLAINED, note=note, permission=WORK, at=at)


@transaction.atomic
def escalate(*, case: Case, user: User, note: str, at: dt.datetime | None = None) -> CaseEvent:
    """An open or explained case goes to the regulator (its PDF is printed for it), saying why."""
    return _step(case=case, user=user, kind=CaseEvent.ESCALATED, note=note, permission=WORK, at=at)


@transaction.atomic
def resolve(*, case: Case, user: User, note: str, at: dt.datetime | None = None) -> CaseEvent:
    """A manager resolves a case that is not resolved yet, saying what was found and done."""
    return _step(case=case, user=user, kind=CaseEvent.RESOLVED, note=note, permission=RESOLVE, at=at)
