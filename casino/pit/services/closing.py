"""Closing and reopening a casino's gaming day: a manager closes it after review, and a closed
day takes no new jogo and no amendment until a manager reopens it, with a reason. When a day
starts and ends is `days.py`'s.
"""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from ..days import gaming_day
from ..errors import Problem, Refused, refuse, stored
from ..models import Casino, DayEvent, GamingDay, Table
from ..signals import day_closed, day_closing

CLOSE_GAMING_DAY = "pit.close_gaming_day"  # a manager's (roles.py)


def refuse_if_day_closed(table: Table, day: dt.date) -> None:
    """A gaming day its casino's manager has closed (`close_day`) takes no new jogo and no
    amendment until a manager reopens it, with a reason."""
    if GamingDay.objects.filter(casino_id=table.casino_id, day=day, closed=True).exists():
        raise day_closed_refusal(day)


def day_closed_refusal(day: dt.date) -> Refused:
    """The refusal of a change to the closed gaming day `day`."""
    return refuse(code="day_closed", field="gaming_day", conflict=True,
                  template=gettext_noop("The gaming day {day} is closed; a manager must reopen it, with a reason, "
                                        "before its jogos change."), day=day.isoformat())


def _locked_day(casino: Casino, day: dt.date) -> GamingDay:
    """The day's state row, created open if need be, locked until the transaction ends. Every
    table of the casino is locked first (in one order, as the recording service locks one), so
    no jogo or amendment is half-way through its transaction when the day changes state."""
    list(Table.objects.select_for_update().filter(casino=casino).order_by("pk").values_list("pk", flat=True))
    GamingDay.objects.get_or_create(casino=casino, day=day)
    return GamingDay.objects.select_for_update().get(casino=casino, day=day)


def close_day(*, casino: Casino, day: dt.date, user: User, note: str = "", override_reason: str = "",
              at: dt.datetime | None = None) -> GamingDay:
    """A manager closes a gaming day after review: from then on the pit refuses new jogos of
    that day and amendments of its jogos, until the day is reopened with a reason.

    The other apps say what still holds the day (`signals.day_closing`; the count: each
    commission box not yet counted). A held day is refused, naming each problem, unless a
    manager states why he closes it all the same (`override_reason`, ignored when nothing holds
    the day): the close event keeps his reason and the problems it covers (`DayEvent`)."""
    at = at or timezone.now()
    if day >= gaming_day(at):
        raise refuse(code="day_not_over", field="gaming_day",
                     template=gettext_noop("The gaming day {day} is not over yet; a day is closed after it ends."),
                     day=day.isoformat())
    reason = (override_reason or "").strip()
    with transaction.atomic():
        state = _locked_day(casino, day)
        if state.closed:
            raise refuse(code="day_closed", field="gaming_day", conflict=True,
                         template=gettext_noop("The gaming day {day} is already closed."), day=day.isoformat())
        held = [problem for _receiver, problems in day_closing.send(sender=GamingDay, casino=casino, day=day)
                for problem in problems or ()]
        if held and not reason:
            raise Refused(*held, Problem.of(
                "override_reason", None, gettext_noop("Reason for closing anyway: to close the gaming day {day} all "
                                                      "the same, a manager states the reason."),
                "override_reason", day=day.isoformat()), conflict=True)
        if held and not user.has_perm(CLOSE_GAMING_DAY):
            raise Refused(*held, Problem.of(
                "override_by_manager", None, gettext_noop("Reason for closing anyway: only a manager closes a gaming "
                                                          "day all the same."), "override_reason"), conflict=True)
        state.closed = True
        state.save(update_fields=["closed"])
        event = DayEvent.objects.create(gaming_day=state, action=DayEvent.CLOSED, by=user, at=at,
                                        reason=note.strip(), override_reason=reason if held else "",
                                        overridden=[stored(p) for p in held])
        day_closed.send(sender=GamingDay, event=event)
        return state


def reopen_day(*, casino: Casino, day: dt.date, user: User, reason: str, at: dt.datetime | None = None) -> GamingDay:
    """Reopen a closed gaming day, so that its jogos may be amended; the reason is required."""
    at = at or timezone.now()
    if not reason or not reason.strip():
        raise refuse(code="reason", template=gettext_noop("Reopening a gaming day states its reason."), field="reason")
    with transaction.atomic():
        state = _locked_day(casino, day)
        if not state.closed:
            raise refuse(code="day_open", field="gaming_day", conflict=True,
                         template=gettext_noop("The gaming day {day} is open; only a closed day is reopened."),
                         day=day.isoformat())
        state.closed = False
        state.save(update_fields=["closed"])
        DayEvent.objects.create(gaming_day=state, action=DayEvent.REOPENED, by=user, at=at, reason=reason.strip())
        return state
