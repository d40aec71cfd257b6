"""A suspicious-transaction case on a player (DICJ Instruction n.º 1/2016: a casino reports
suspicious transactions to the financial intelligence office, GIF) and the chain of its events.

One chain per case, as the count's variance cases (casino/count/models.py `Case`): the case row
carries its chain's head (`ledger_seq`, `ledger_head`) and its `state`, which move only with a
new event (casino/aml/chain.py; on PostgreSQL the database refuses any other change, migration
0001). The player is named by his `Patron` id only: his personal data stays in the pit's
`Patron` row, outside every hashed row, so that anonymising him later breaks no chain
(docs/aml.md). Notes are an inspector's words about what he saw; they do not repeat the
player's identity, which the case carries.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from casino.append_only import AppendOnly
from casino.pit.models import Casino, Patron


class SuspicionCase(models.Model):
    """A suspicious-transaction case on one player, about his cash on one gaming day.

    open → report (an inspector decided the case is reported) → escalated (a manager sent it to
    the GIF; its PDF is the report); or open → no report (an inspector decided it is not
    suspicious after all: the case is closed). Notes are added in any state."""

    OPEN, REPORT, NO_REPORT, ESCALATED = "open", "report", "no_report", "escalated"
    STATES = [(OPEN, pgettext_lazy("suspicious-transaction case", "open")),
              (REPORT, pgettext_lazy("suspicious-transaction case", "decided: to be reported")),
              (NO_REPORT, pgettext_lazy("suspicious-transaction case", "decided: not reported (closed)")),
              (ESCALATED, pgettext_lazy("suspicious-transaction case",
                                        "escalated to the financial intelligence office"))]
    IN_PROGRESS = (OPEN, REPORT)  # a case not closed: the player has at most one (constraint below)

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="suspicion_cases")
    gaming_day = models.DateField(help_text=_("the gaming day of the player's cash the case is about"))
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=10, choices=STATES, default=OPEN, editable=False)
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)

    class Meta:
        ordering = ["-opened_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["patron"], condition=models.Q(state__in=["open", "report"]),
                                               name="one_case_in_progress_per_player")]
        permissions = [("work_suspicioncase", "Can open suspicious-transaction cases, add notes and decide them"),
                       ("escalate_suspicioncase",
                        "Can escalate a suspicious-transaction case to the financial intelligence office")]

    def __str__(self) -> str:
        return f"suspicious-transaction case {self.pk} (player {self.patron_id})"

    @property
    def escalated(self) -> bool:
        return self.state == self.ESCALATED


class SuspicionEvent(AppendOnly):
    """One step of a case: opened (with the grounds, and the movements it concerns), a note, the
    decision (its `state` says which: report or no report), escalated. `state` is the case's
    state after it. Chained: casino/aml/chain.py."""

    OPENED, NOTE, DECIDED, ESCALATED = "opened", "note", "decided", "escalated"
    KINDS = [(OPENED, pgettext_lazy("suspicious-transaction case", "opened")),
             (NOTE, pgettext_lazy("suspicious-transaction case", "note")),
             (DECIDED, pgettext_lazy("suspicious-transaction case", "decided")),
             (ESCALATED, pgettext_lazy("suspicious-transaction case",
                                       "escalated to the financial intelligence office"))]
    INSTEAD = "a correction is a new note"

    case = models.ForeignKey(SuspicionCase, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=KINDS)
    state = models.CharField(max_length=10, choices=SuspicionCase.STATES)
    note = models.TextField()
    # The pit's movements the step concerns, by id (the opening names them): ids, no personal data.
    movements = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["case", "seq"]
        constraints = [models.UniqueConstraint(fields=["case", "seq"], name="suspicion_event_seq_per_case")]

    def __str__(self) -> str:
        return f"{self.kind} ({self.case})"
