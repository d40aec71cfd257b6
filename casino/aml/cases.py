"""The life of a suspicious-transaction case (docs/aml.md): opened on a player, notes, the
decision, the escalation to the financial intelligence office (GIF). Each is one new event in
the case's chain (chain.append_event), in one transaction under the case's row lock; nothing of
an earlier event ever changes.

Who: inspectors and managers open a case, write notes and decide it (aml.work_suspicioncase), as
issue 25 asks ("inspectors can open a case, with notes and a decision"); only a manager escalates
a case decided "report" to the GIF (aml.escalate_suspicioncase): the report leaves the casino
under a second person's eyes.

The states a step may start from:

    note       any state (the case keeps its state)
    decided    open (→ report, or → no report, which closes the case)
    escalated  report

A player has at most one case in progress (open, or decided "report" and not yet escalated); a
closed or escalated case stays as it is, and new facts open a new case.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.pit import days
from casino.pit.errors import refuse
from casino.pit.models import Movement, Patron

from .chain import append_event
from .models import SuspicionCase, SuspicionEvent

VIEW, WORK, ESCALATE = "aml.view_suspicioncase", "aml.work_suspicioncase", "aml.escalate_suspicioncase"

# The state each step leaves the case in (a decision: report or no report), and where it starts.
STARTS_FROM = {SuspicionEvent.DECIDED: {SuspicionCase.OPEN}, SuspicionEvent.ESCALATED: {SuspicionCase.REPORT}}
NOTE_NEEDED = {
    SuspicionEvent.OPENED: gettext_noop("Opening a case says what looks suspicious: write the grounds first."),
    SuspicionEvent.NOTE: gettext_noop("A note says something: write it first."),
    SuspicionEvent.DECIDED: gettext_noop("A decision says why the case is reported or not."),
    SuspicionEvent.ESCALATED: gettext_noop("Escalating a case to the financial intelligence office says what is "
                                           "sent and how."),
}
# A state in a message: the same words as SuspicionCase.STATES (translated when the message is shown).
STATE_WORDS = {SuspicionCase.OPEN: gettext_noop("open"), SuspicionCase.REPORT: gettext_noop("decided: to be reported"),
               SuspicionCase.NO_REPORT: gettext_noop("decided: not reported (closed)"),
               SuspicionCase.ESCALATED: gettext_noop("escalated to the financial intelligence office")}
WRONG_STATE = {
    SuspicionEvent.DECIDED: gettext_noop("Only an open case is decided; this case is {state}."),
    SuspicionEvent.ESCALATED: gettext_noop("Only a case decided \"to be reported\" is escalated to the financial "
                                           "intelligence office; this case is {state}."),
}


def _may(user: User, permission: str) -> None:
    if user.has_perm(permission):
        return
    if permission == ESCALATE:
        raise refuse(code="not_manager", template=gettext_noop(
            "Only a manager escalates a suspicious-transaction case to the financial intelligence office."))
    raise refuse(code="not_inspector", template=gettext_noop(
        "Only an inspector or a manager works on suspicious-transaction cases."))


def _note(kind: str, note: str | None) -> str:
    note = (note or "").strip()
    if not note:
        raise refuse(code="note", template=NOTE_NEEDED[kind], field="note")
    return note


def _movements(patron: Patron, day: dt.date, ids: Iterable[int]) -> list[int]:
    """The ids, each a movement of the player on that gaming day."""
    wanted = sorted(set(ids))
    found = set(Movement.objects.filter(pk__in=wanted, patron=patron, gaming_day=day).values_list("pk", flat=True))
    strangers = [pk for pk in wanted if pk not in found]
    if strangers:
        raise refuse(code="movements", field="movements", template=gettext_noop(
            "Movement {movements} is not a buy-in or cash-out of this player on gaming day {day}."),
            movements=", ".join(map(str, strangers)), day=day.isoformat())
    return wanted


@transaction.atomic
def open_case(*, patron: Patron, user: User, note: str, gaming_day: dt.date | None = None,
              movements: Iterable[int] = (), at: dt.datetime | None = None) -> SuspicionCase:
    """A new case on `patron` about his cash on `gaming_day` (the gaming day of `at` when not
    given), saying why (`note`) and, if the inspector names them, which of that day's movements
    it concerns. Refused while the player has a case in progress."""
    _may(user, WORK)
    note = _note(SuspicionEvent.OPENED, note)
    at = at or timezone.now()
    day = gaming_day or days.gaming_day(at)
    patron = Patron.objects.select_for_update().get(pk=patron.pk)  # two inspectors at once: one case
    if patron.anonymised_at is not None:
        raise refuse(code="anonymised", field="patron", conflict=True, template=gettext_noop(
            "This player's personal data was anonymised: a case needs a player who can be identified."))
    in_progress = SuspicionCase.objects.filter(patron=patron, state__in=SuspicionCase.IN_PROGRESS).first()
    if in_progress is not None:
        raise refuse(code="case_in_progress", field="patron", conflict=True, template=gettext_noop(
            "This player already has case {case} in progress: add a note to it."), case=in_progress.pk)
    concerned = _movements(patron, day, movements)
    case = SuspicionCase.objects.create(casino_id=patron.casino_id, patron=patron, gaming_day=day, opened_at=at,
                                        opened_by=user)
    append_event(case=case, kind=SuspicionEvent.OPENED, state=SuspicionCase.OPEN, recorded_by=user, note=note,
                 movements=concerned, at=at)
    return case


def _step(*, case: SuspicionCase, user: User, kind: str, state: str | None, note: str, permission: str,
          at: dt.datetime | None) -> SuspicionEvent:
    _may(user, permission)
    note = _note(kind, note)
    locked = SuspicionCase.objects.select_for_update().get(pk=case.pk)
    if kind in STARTS_FROM and locked.state not in STARTS_FROM[kind]:
        raise refuse(code="case_state", field="state", conflict=True, template=WRONG_STATE[kind],
                     state=STATE_WORDS[locked.state])
    event = append_event(case=locked, kind=kind, state=state or locked.state, recorded_by=user, note=note, at=at)
    case.state, case.ledger_seq, case.ledger_head = locked.state, locked.ledger_seq, locked.ledger_head
    return event


@transaction.atomic
def add_note(*, case: SuspicionCase, user: User, note: str, at: dt.datetime | None = None) -> SuspicionEvent:
    """An inspector's or a manager's note, in any state (a closed case's too: the GIF's answer,
    say); the state stays."""
    return _step(case=case, user=user, kind=SuspicionEvent.NOTE, state=None, note=note, permission=WORK, at=at)


@transaction.atomic
def decide(*, case: SuspicionCase, user: User, report: bool, note: str,
           at: dt.datetime | None = None) -> SuspicionEvent:
    """An open case is decided: to be reported to the GIF (a manager then escalates it), or not
    reported, which closes it. The note says why."""
    state = SuspicionCase.REPORT if report else SuspicionCase.NO_REPORT
    return _step(case=case, user=user, kind=SuspicionEvent.DECIDED, state=state, note=note, permission=WORK, at=at)


@transaction.atomic
def escalate(*, case: SuspicionCase, user: User, note: str, at: dt.datetime | None = None) -> SuspicionEvent:
    """A manager sends a case decided "report" to the GIF; its PDF is the report sent."""
    return _step(case=case, user=user, kind=SuspicionEvent.ESCALATED, state=SuspicionCase.ESCALATED, note=note,
                 permission=ESCALATE, at=at)
