"""What the case screens, the API and the PDF read of a suspicious-transaction case."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from casino.pit import cash
from casino.pit.access import casinos_of
from casino.pit.models import Movement, MovementRefusal, Patron

from .models import SuspicionCase, SuspicionEvent

# The list's filters: what ?state= shows.
LIST_STATES = {"in_progress": list(SuspicionCase.IN_PROGRESS), "report": [SuspicionCase.REPORT],
               "escalated": [SuspicionCase.ESCALATED], "no_report": [SuspicionCase.NO_REPORT], "all": None}


def cases_of(user) -> QuerySet[SuspicionCase]:
    """The cases of the casinos `user` is given (docs/casinos.md): another casino's case is not
    listed, and not found, as one that does not exist."""
    return SuspicionCase.objects.filter(casino__in=casinos_of(user))


def case_list(user, *, states: list[str] | None = None) -> QuerySet[SuspicionCase]:
    cases = cases_of(user).select_related("patron", "casino", "opened_by")
    if states is not None:
        cases = cases.filter(state__in=states)
    return cases.order_by("-opened_at", "-pk")


def in_progress_count(user) -> int:
    return cases_of(user).filter(state__in=SuspicionCase.IN_PROGRESS).count()


@dataclass(frozen=True)
class DayMovement:
    """One of the player's movements of the day, with its running total (of its direction, over
    the day, at every table) and whether the case names it."""

    movement: Movement
    running_total: int
    concerned: bool


@dataclass(frozen=True)
class CaseFile:
    """Everything a case's page and its PDF show."""

    case: SuspicionCase
    patron: Patron
    events: list[SuspicionEvent]
    movements: list[DayMovement]
    refusals: list[MovementRefusal]
    threshold: int

    @property
    def totals(self) -> dict[str, int]:
        """The day's buy-ins and cash-outs of the player, apart."""
        return {kind: sum(line.movement.amount for line in self.movements if line.movement.kind == kind)
                for kind in cash.DIRECTIONS}

    @property
    def buy_ins(self) -> int:
        return self.totals[Movement.BUY_IN]

    @property
    def cash_outs(self) -> int:
        return self.totals[Movement.CASH_OUT]

    @property
    def decision(self) -> SuspicionEvent | None:
        return next((event for event in self.events if event.kind == SuspicionEvent.DECIDED), None)

    @property
    def escalation(self) -> SuspicionEvent | None:
        return next((event for event in self.events if event.kind == SuspicionEvent.ESCALATED), None)


def day_movements(patron: Patron, day: dt.date) -> list[Movement]:
    """The player's buy-ins and cash-outs of gaming day `day`, at every table, in the order recorded."""
    return list(Movement.objects.filter(patron=patron, gaming_day=day).select_related("table", "recorded_by")
                .order_by("recorded_at", "table_id", "seq"))


def case_file(case: SuspicionCase) -> CaseFile:
    case = SuspicionCase.objects.select_related("patron", "casino", "opened_by").get(pk=case.pk)
    events = list(case.events.select_related("recorded_by").order_by("seq"))
    concerned = {pk for event in events for pk in event.movements}
    movements = day_movements(case.patron, case.gaming_day)
    running = cash.running_totals(movements)
    refusals = list(MovementRefusal.objects.filter(patron=case.patron, gaming_day=case.gaming_day)
                    .select_related("table", "attempted_by").order_by("attempted_at", "pk"))
    return CaseFile(case, case.patron, events,
                    [DayMovement(movement, running[movement.pk], movement.pk in concerned) for movement in movements],
                    refusals, cash.threshold())


def last_day_with_movements(patron: Patron) -> dt.date | None:
    """The player's latest gaming day with a movement, the day a case on him is most likely about."""
    return Movement.objects.filter(patron=patron).order_by("-gaming_day").values_list("gaming_day", flat=True).first()
