"""What the count room records: who worked at which table when (the rotation log), the
commission box of each table-shift, its counts and the counters' signatures, and the variance
cases.

Counts, signatures, changes of a count's expected figure, decisions on a count and case events
are append-only and hash-chained like the pit's ledger (chain.py): a box's rows form one chain
(`Box.ledger_seq`, `Box.ledger_head`), a case's events another (`Case.ledger_seq`,
`Case.ledger_head`), and each casino's rotation log a third (`RotationLog`). The models refuse
to change or delete them; on PostgreSQL the database refuses too (migrations 0002 and 0004).

A count's expected figure is hidden from the counters until they agree, but every other field of
a count row is known to them: the rows that hold an expected figure (`Count`, `ExpectedChange`)
carry a random `salt` that enters their hash and is never shown, so that no hash a counter sees
lets him try values until one matches (docs: "The count", "What is anchored").
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from casino.append_only import AppendOnly, SetOnce
from casino.pit.models import Amendment, Casino, Table


class RotationLog(models.Model):
    """The head of a casino's rotation log chain: its entries and their ends, in `seq` order."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="rotation_log")
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)

    def __str__(self) -> str:
        return f"rotation log of {self.casino}"


class Rotation(SetOnce):
    """Who dealt, or supervised, at a table from when to when, as a supervisor recorded it. An
    entry is never changed, except that it is closed once with its end (a `RotationEnd` in the
    casino's rotation chain, whose time and author `ends_at` and `ended_by` repeat for the
    readers); a mistaken entry is closed and a right one recorded."""

    DEALER, SUPERVISOR = "dealer", "supervisor"
    DUTIES = [(DEALER, _("dealt")), (SUPERVISOR, _("supervised"))]

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rotations")
    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rotations")
    duty = models.CharField(max_length=10, choices=DUTIES, default=DEALER)
    gaming_day = models.DateField(db_index=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 null=True, blank=True)
    log = models.ForeignKey(RotationLog, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField(help_text=_("position in the casino's rotation chain, from 1, no gaps"))
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    SET_ONCE = ("ends_at", "ended_by_id")
    INSTEAD = "close it"

    class Meta:
        ordering = ["table", "starts_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_at__isnull=True)
                                   | models.Q(ends_at__gt=models.F("starts_at")),
                                   name="rotation_ends_after_it_starts"),
            models.UniqueConstraint(fields=["log", "seq"], name="rotation_seq_per_log"),
        ]

    def __str__(self) -> str:
        return f"{self.person} {self.duty} at {self.table} from {self.starts_at}"


class RotationEnd(AppendOnly):
    """The end of a rotation entry, in the casino's rotation chain."""

    entry = models.OneToOneField(Rotation, on_delete=models.PROTECT, related_name="end")
    ends_at = models.DateTimeField()
    log = models.ForeignKey(RotationLog, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["log", "seq"], name="rotation_end_seq_per_log")]


class Box(models.Model):
    """The commission box of one table-shift. Its jogos are those whose first revision was
    recorded between `starts_at` and `ends_at`; a later correction stays in its jogo's box."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="boxes")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="boxes")
    gaming_day = models.DateField(db_index=True)
    shift = models.PositiveSmallIntegerField(help_text=_("the shift of the gaming day, from 1"))
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # The head of the box's chain of counts, signatures and expected changes: moved by the
    # service under the box's row lock; verify_ledger checks it against the last row.
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)

    class Meta:
        ordering = ["gaming_day", "shift", "table"]
        verbose_name_plural = "boxes"
        constraints = [models.UniqueConstraint(fields=["table", "gaming_day", "shift"], name="one_box_per_table_shift")]
        permissions = [("count_box", "Can count commission boxes and sign counts"),
                       ("decide_recount", "Can approve a recount of an agreed count and accept a recount")]

    def __str__(self) -> str:
        return f"box of table {self.table.number}, {self.gaming_day} shift {self.shift}"


class BoxScan(models.Model):
    """How far the jogos have been read to make the boxes of ended table-shifts
    (services.make_boxes): every first revision up to `last_jogo_id` has its box. One row."""

    last_jogo_id = models.BigIntegerField(default=0)


class BoxRow(AppendOnly):
    """The fields of every row of a box's chain; see chain.py for the hash."""

    box = models.ForeignKey(Box, on_delete=models.PROTECT)
    seq = models.PositiveIntegerField(help_text=_("position in the box's chain, from 1, no gaps"))
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        abstract = True


class Count(BoxRow):
    """One count of a box: attempt 1 is the count, 2 and more recounts, each with its reason.
    `expected` is the box's expected commission when the count opened, hidden from the counters
    until both have signed. `recorded_by` opened it."""

    attempt = models.PositiveSmallIntegerField()
    expected = models.PositiveBigIntegerField(help_text=_("whole currency units"))
    reason = models.TextField(blank=True, help_text=_("why the box is counted again (a recount)"))
    salt = models.CharField(max_length=32, default="", editable=False, help_text=_("never shown: see the module"))

    class Meta:
        ordering = ["box", "attempt"]
        constraints = [
            models.UniqueConstraint(fields=["box", "seq"], name="count_seq_per_box"),
            models.UniqueConstraint(fields=["box", "attempt"], name="one_count_per_attempt"),
            models.CheckConstraint(condition=models.Q(attempt=1) | ~models.Q(reason=""),
                                   name="a_recount_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"count {self.attempt} of {self.box}"

    # What the count came to, read from its signatures and expected changes (prefetch
    # "signatures" and "changes" to read many counts in a fixed number of queries).

    @property
    def signed(self) -> list[Signature]:
        return sorted(self.signatures.all(), key=lambda s: s.seq)

    @property
    def complete(self) -> bool:
        """Both counters have signed (whether or not their totals agree)."""
        return len(self.signed) >= 2

    @property
    def agreed(self) -> bool:
        """Both counters signed the same total: the box is counted."""
        signed = self.signed
        return len(signed) >= 2 and signed[0].counted == signed[1].counted

    @property
    def abandoned(self) -> bool:
        """Its first signer gave it up before the second signature (prefetch "decisions")."""
        return any(d.kind == Decision.ABANDONED for d in self.decisions.all())

    @property
    def counted(self) -> int | None:
        """The counted total once both counters signed it alike; None before, or if they differ."""
        return self.signed[0].counted if self.agreed else None

    @property
    def expected_now(self) -> int:
        """The expected commission: as fixed when the count opened, or as a correction approved
        later changed it."""
        changes = sorted(self.changes.all(), key=lambda c: c.seq)
        return changes[-1].expected if changes else self.expected

    @property
    def variance(self) -> int | None:
        """Counted − expected (positive: over, negative: short); None until the box is counted."""
        return None if self.counted is None else self.counted - self.expected_now


class Signature(BoxRow):
    """A counter's counted total of a count, signed by confirming his password; optionally by
    chip denomination ({"1000": 3, ...}: chips of each value)."""

    count = models.ForeignKey(Count, on_delete=models.PROTECT, related_name="signatures")
    counted = models.PositiveBigIntegerField(help_text=_("whole currency units"))
    denominations = models.JSONField(default=dict, blank=True)
    idempotency_key = models.CharField(max_length=100, default="", blank=True)

    class Meta:
        ordering = ["count", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["box", "seq"], name="signature_seq_per_box"),
            models.UniqueConstraint(fields=["count", "recorded_by"], name="one_signature_per_counter"),
            models.UniqueConstraint(fields=["box", "idempotency_key"], condition=~models.Q(idempotency_key=""),
                                    name="one_signature_per_idempotency_key"),
        ]


class ExpectedChange(BoxRow):
    """A count's expected commission changed by a correction approved after it opened."""

    count = models.ForeignKey(Count, on_delete=models.PROTECT, related_name="changes")
    expected = models.PositiveBigIntegerField(help_text=_("whole currency units"))
    amendment = models.ForeignKey(Amendment, on_delete=models.PROTECT, related_name="+")
    salt = models.CharField(max_length=32, default="", editable=False, help_text=_("never shown: see the module"))

    class Meta:
        ordering = ["count", "seq"]
        constraints = [models.UniqueConstraint(fields=["box", "seq"], name="expected_change_seq_per_box")]


class Decision(BoxRow):
    """What was decided about a count, with its reason: its first signer abandoned it before the
    second signature (so that the box may be recounted); a manager approved a recount after it
    agreed; a manager accepted a recount as the box's figure of record."""

    ABANDONED, RECOUNT_APPROVED, RECOUNT_ACCEPTED = "abandoned", "approved", "accepted"
    KINDS = [(ABANDONED, _("abandoned by its first signer")), (RECOUNT_APPROVED, _("recount approved")),
             (RECOUNT_ACCEPTED, _("recount accepted as the figure of record"))]

    count = models.ForeignKey(Count, on_delete=models.PROTECT, related_name="decisions")
    kind = models.CharField(max_length=10, choices=KINDS)
    reason = models.TextField()

    class Meta:
        ordering = ["count", "seq"]
        constraints = [models.UniqueConstraint(fields=["box", "seq"], name="decision_seq_per_box"),
                       models.UniqueConstraint(fields=["count", "kind"], name="one_decision_of_a_kind_per_count")]


class Case(models.Model):
    """A variance case of a box: opened automatically when its variance of record is beyond the
    thresholds. Its life is the chain of its events (`CaseEvent`); `state` is where the last
    event left it, moved only together with a new event (on PostgreSQL the database refuses any
    other change, migration 0004; `verify_ledger` checks it everywhere)."""

    OPEN, EXPLAINED, ESCALATED, RESOLVED = "open", "explained", "escalated", "resolved"
    # A case's words have their own context: Portuguese says a case (o processo) is "aberto" and
    # "resolvido" where a flag (a sinalização) is "aberta" and "resolvida".
    STATES = [(OPEN, pgettext_lazy("variance case", "open")), (EXPLAINED, pgettext_lazy("variance case", "explained")),
              (ESCALATED, pgettext_lazy("variance case", "escalated to the regulator")),
              (RESOLVED, pgettext_lazy("variance case", "resolved"))]

    box = models.OneToOneField(Box, on_delete=models.PROTECT, related_name="case")
    count = models.ForeignKey(Count, on_delete=models.PROTECT, related_name="+",
                              help_text=_("the count that opened it"))
    opened_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=STATES, default=OPEN, editable=False)
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)

    class Meta:
        ordering = ["-opened_at"]
        permissions = [("work_case", "Can add notes to variance cases, mark them explained and escalate them"),
                       ("resolve_case", "Can resolve variance cases")]

    def __str__(self) -> str:
        return f"case {self.pk} ({self.box})"


class CaseEvent(AppendOnly):
    """One step of a case: opened, reopened (with the variance that did it), a note, explained,
    escalated or resolved. `state` is the case's state after it."""

    OPENED, REOPENED, RECOUNTED, NOTE, EXPLAINED, ESCALATED, RESOLVED = (
        "opened", "reopened", "recounted", "note", "explained", "escalated", "resolved")
    KINDS = [(OPENED, pgettext_lazy("variance case", "opened")), (REOPENED, pgettext_lazy("variance case", "reopened")),
             (RECOUNTED, pgettext_lazy("variance case", "variance changed")),
             (NOTE, pgettext_lazy("variance case", "note")),
             (EXPLAINED, pgettext_lazy("variance case", "explained")),
             (ESCALATED, pgettext_lazy("variance case", "escalated to the regulator")),
             (RESOLVED, pgettext_lazy("variance case", "resolved"))]

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=KINDS)
    state = models.CharField(max_length=10, choices=Case.STATES)
    note = models.TextField(blank=True)
    # The box's figures when the event was recorded (null for a note or a change of state).
    expected = models.PositiveBigIntegerField(null=True, blank=True)
    counted = models.PositiveBigIntegerField(null=True, blank=True)
    variance = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["case", "seq"]
        constraints = [models.UniqueConstraint(fields=["case", "seq"], name="case_event_seq_per_case")]

    def __str__(self) -> str:
        return f"{self.kind} ({self.case})"
