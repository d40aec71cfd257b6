"""The reports app stores one thing of its own: each closed day's daily report as it was printed
when the day closed (`StoredReport`). A gaming day's state and its log of closing and reopening
are the pit's (`casino.pit.models.GamingDay`, `DayEvent`), and the report reads its figures from
the pit's ledger (`selectors.py`)."""
from __future__ import annotations

import hashlib

from django.db import models

from casino.append_only import AppendOnly
from casino.pit.models import DayEvent
from casino.printing import LANGUAGES


class StoredReport(AppendOnly):
    """The daily report of a gaming day in one language, printed once as the day closed, inside
    the close's transaction (`archive.store`): what the manager signed is what the regulator
    downloads, byte for byte, with its SHA-256 to check it by. A day reopened and closed again
    has a report for each of its closes; none is ever changed or deleted (on PostgreSQL the
    database refuses too: migration 0005)."""

    event = models.ForeignKey(DayEvent, on_delete=models.PROTECT, related_name="reports")  # the close that printed it
    language = models.CharField(max_length=8, choices=[(code, code) for code in LANGUAGES])
    pdf = models.BinaryField()
    sha256 = models.CharField(max_length=64)  # of `pdf`, in hexadecimal
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "language"], name="one_report_per_close_and_language")]
        ordering = ["event", "language"]

    def __str__(self) -> str:
        return f"daily report {self.event.gaming_day.day} ({self.language}) closed at {self.event.at:%Y-%m-%d %H:%M}"

    @staticmethod
    def digest(pdf: bytes) -> str:
        return hashlib.sha256(pdf).hexdigest()
