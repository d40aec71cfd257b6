"""The alerts that wait for a person: what a rule (rules.py) saw at a table, when, and what
became of it: acknowledged by a person with a note, escalated to the managers when nobody did
in time, cleared when the condition ended.

An alert is never changed, except that it is acknowledged, escalated and cleared once each
(`SET_ONCE`); each of these is also an `AlertEvent` in the casino's alert chain, whose time and
author the alert's fields repeat for the readers (as the count's `RotationEnd` repeats a
rotation entry's end). Alerts and their events form one hash chain per casino (`AlertLog`,
`casino.chain`); `verify_ledger` re-hashes it (verify.py), `ledger_heads` saves its head
(alert_heads.py). On PostgreSQL the database refuses any other change, and every DELETE
(migration 0002).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnly, SetOnce
from casino.count.models import Box, Case, Rotation
from casino.pit.models import Amendment, Casino, Flag, Jogo, Movement, Refusal, Table


class AlertLog(models.Model):
    """The head of a casino's alert chain: its alerts and their events, in `seq` order."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="alert_log")
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)

    def __str__(self) -> str:
        return f"alert log of {self.casino}"


class AlertQuerySet(models.QuerySet):
    def open(self) -> AlertQuerySet:
        """Alerts nobody has acknowledged and whose condition has not ended."""
        return self.filter(acknowledged_at__isnull=True, cleared_at__isnull=True)

    def acknowledged(self) -> AlertQuerySet:
        return self.filter(acknowledged_at__isnull=False)

    def cleared(self) -> AlertQuerySet:
        return self.filter(cleared_at__isnull=False)

    def standing(self) -> AlertQuerySet:
        """Alerts whose condition has not ended, acknowledged or not: a rule raises no second
        alert for the same condition (`key`) while one stands."""
        return self.filter(cleared_at__isnull=True)


SUBJECT = {"on_delete": models.DO_NOTHING, "related_name": "+", "null": True, "blank": True}


class Alert(SetOnce):
    """What a rule saw: its code (`rule`, rules.py), how grave (`severity`), where and when, the
    words' figures (`params`) and the record behind it (one of the subject links). `key` is
    what makes two alerts of a rule the same condition (e.g. the table, or the jogo)."""

    INFO, WARNING, CRITICAL = "info", "warning", "critical"
    SEVERITIES = [(INFO, _("information")), (WARNING, _("warning")), (CRITICAL, _("critical"))]

    rule = models.CharField(max_length=40, db_index=True)
    severity = models.CharField(max_length=8, choices=SEVERITIES)
    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="alerts")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="alerts", null=True, blank=True)
    gaming_day = models.DateField(db_index=True)
    raised_at = models.DateTimeField(db_index=True)
    key = models.CharField(max_length=200)
    params = models.JSONField(default=dict, blank=True)
    # The record behind the alert, where there is one, by id: no database constraint, so that an
    # alert never holds up what the record's own guards and verify_ledger decide about it.
    jogo = models.ForeignKey(Jogo, db_constraint=False, **SUBJECT)
    movement = models.ForeignKey(Movement, db_constraint=False, **SUBJECT)
    refusal = models.ForeignKey(Refusal, db_constraint=False, **SUBJECT)
    amendment = models.ForeignKey(Amendment, db_constraint=False, **SUBJECT)
    flag = models.ForeignKey(Flag, db_constraint=False, **SUBJECT)
    box = models.ForeignKey(Box, db_constraint=False, **SUBJECT)
    case = models.ForeignKey(Case, db_constraint=False, **SUBJECT)
    rotation = models.ForeignKey(Rotation, db_constraint=False, **SUBJECT)
    # Set once each, as the alert's events in the chain say.
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                        null=True, blank=True)
    acknowledgement = models.TextField(blank=True, help_text=_("what the person who acknowledged it wrote"))
    escalated_at = models.DateTimeField(null=True, blank=True)
    cleared_at = models.DateTimeField(null=True, blank=True)
    # The casino's alert chain.
    log = models.ForeignKey(AlertLog, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField(help_text=_("position in the casino's alert chain, from 1, no gaps"))
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    SET_ONCE = ("acknowledged_at", "acknowledged_by_id", "acknowledgement", "escalated_at", "cleared_at")
    INSTEAD = "acknowledge it"

    objects = AlertQuerySet.as_manager()

    class Meta:
        ordering = ["-raised_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["log", "seq"], name="alert_seq_per_log"),
            models.UniqueConstraint(fields=["casino", "rule", "key"], condition=models.Q(cleared_at__isnull=True),
                                    name="one_standing_alert_per_condition"),
            models.CheckConstraint(condition=models.Q(acknowledged_at__isnull=True, acknowledged_by__isnull=True,
                                                      acknowledgement="")
                                   | (models.Q(acknowledged_at__isnull=False, acknowledged_by__isnull=False)
                                      & ~models.Q(acknowledgement="")),
                                   name="alert_acknowledged_by_someone_at_a_time_with_a_note"),
        ]
        indexes = [models.Index(fields=["casino", "acknowledged_at", "cleared_at"], name="alert_state")]
        permissions = [("acknowledge_alert", "Can acknowledge alerts (at assigned tables, or every table)"),
                       ("acknowledge_escalated_alert", "Can acknowledge alerts escalated to the managers")]

    def __str__(self) -> str:
        return f"alert {self.pk} {self.rule} ({self.key})"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None and self.cleared_at is None

    @property
    def state(self) -> str:
        """"open", "acknowledged" or "cleared" (an acknowledged alert whose condition ended is cleared)."""
        if self.cleared_at is not None:
            return "cleared"
        return "acknowledged" if self.acknowledged_at is not None else "open"


class AlertEvent(AppendOnly):
    """An alert acknowledged (by a person, with his note), escalated or cleared (by nobody: the
    rules saw it), in the casino's alert chain."""

    ACKNOWLEDGED, ESCALATED, CLEARED = "acknowledged", "escalated", "cleared"
    KINDS = [(ACKNOWLEDGED, _("acknowledged")), (ESCALATED, _("escalated")), (CLEARED, _("cleared"))]

    alert = models.ForeignKey(Alert, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=12, choices=KINDS)
    note = models.TextField(blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    null=True, blank=True)
    log = models.ForeignKey(AlertLog, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["log", "seq"]
        constraints = [models.UniqueConstraint(fields=["log", "seq"], name="alert_event_seq_per_log"),
                       models.UniqueConstraint(fields=["alert", "kind"], name="one_alert_event_of_a_kind")]

    def __str__(self) -> str:
        return f"{self.kind} ({self.alert})"
