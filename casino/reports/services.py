"""Closing and reopening a casino's gaming day: each one transaction, each logged."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.pit.models import Casino, Table
from casino.pit.service import gaming_day, refuse

from .models import DayEvent, GamingDay


def _locked_day(casino: Casino, day: dt.date) -> GamingDay:
    """The day's state row, created open if need be, locked until the transaction ends. Every
    table of the casino is locked first (in one order, as the recording service locks one), so
    no jogo or amendment is half-way through its transaction when the day changes state."""
    list(Table.objects.select_for_update().filter(casino=casino).order_by("pk").values_list("pk", flat=True))
    GamingDay.objects.get_or_create(casino=casino, day=day)
    return GamingDay.objects.select_for_update().get(casino=casino, day=day)


def close_day(casino: Casino, day: dt.date, user, note: str = "", *, at: dt.datetime | None = None) -> GamingDay:
    """A manager closes a gaming day after review: from then on the pit refuses new jogos of
    that day and amendments of its jogos, until the day is reopened with a reason."""
    at = at or timezone.now()
    if day >= gaming_day(at):
        raise refuse("day_not_over", None, gettext_noop("The gaming day {day} is not over yet; a day is closed "
                                                        "after it ends."), "gaming_day", day=day.isoformat())
    with transaction.atomic():
        state = _locked_day(casino, day)
        if state.closed:
            raise refuse("day_closed", None, gettext_noop("The gaming day {day} is already closed."), "gaming_day",
                         conflict=True, day=day.isoformat())
        state.closed = True
        state.save(update_fields=["closed"])
        DayEvent.objects.create(gaming_day=state, action=DayEvent.CLOSED, by=user, at=at, reason=note.strip())
        return state


def reopen_day(casino: Casino, day: dt.date, user, reason: str, *, at: dt.datetime | None = None) -> GamingDay:
    """Reopen a closed gaming day, so that its jogos may be amended; the reason is required."""
    at = at or timezone.now()
    if not reason or not reason.strip():
        raise refuse("reason", None, gettext_noop("Reopening a gaming day states its reason."), "reason")
    with transaction.atomic():
        state = _locked_day(casino, day)
        if not state.closed:
            raise refuse("day_open", None, gettext_noop("The gaming day {day} is open; only a closed day is "
                                                        "reopened."), "gaming_day", conflict=True, day=day.isoformat())
        state.closed = False
        state.save(update_fields=["closed"])
        DayEvent.objects.create(gaming_day=state, action=DayEvent.REOPENED, by=user, at=at, reason=reason.strip())
        return state
