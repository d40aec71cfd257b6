"""A casino's gaming day as the managers close and reopen it, and the log of both.

The day's figures are never stored here: the daily report reads them from the pit's ledger
(`selectors.py`). What is stored is whether the day is closed, and every close and reopen.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.pit.models import Casino


class GamingDay(models.Model):
    """The state of one casino's gaming day: open (the default, also when no row exists) or
    closed by a manager after review. A closed day takes no new jogo and no amendment."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="gaming_days")
    day = models.DateField()
    closed = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "day"], name="one_state_per_casino_day")]
        ordering = ["casino", "-day"]
        permissions = [("view_daily_report", "Can see and download the daily report"),
                       ("close_gaming_day", "Can close and reopen a gaming day")]

    def __str__(self) -> str:
        return f"{self.casino} {self.day} ({'closed' if self.closed else 'open'})"


class DayEvent(models.Model):
    """One close or reopen of a gaming day: who, when and why. Append-only, like the ledger."""

    CLOSED, REOPENED = "closed", "reopened"
    ACTIONS = [(CLOSED, _("closed")), (REOPENED, _("reopened"))]

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="events")
    action = models.CharField(max_length=8, choices=ACTIONS)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField(blank=True, help_text=_("required to reopen; an optional note on closing"))

    class Meta:
        ordering = ["gaming_day", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.gaming_day.day} {self.action} by {self.by} at {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValidationError(f"day event {self.pk} is never changed: close or reopen the day again")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError(f"day event {self.pk} is never deleted")
