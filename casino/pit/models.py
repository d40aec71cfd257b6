"""What the pit records: casinos, tables, games (partidas), jogos and money movements.

`Jogo` and `Movement` are the ledger: rows are only ever added (the application refuses to
save an existing row or delete one, `casino.append_only`; on PostgreSQL the database refuses UPDATE, DELETE and
TRUNCATE, see migration 0002). Each table's ledger rows form one hash chain (`chain.py`):
`seq` numbers them 1, 2, 3, ... without gaps and `hash` covers the row and the previous hash.
A correction is a new revision of a jogo (`Amendment`), never an edit.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _

from casino.append_only import AppendOnly, SetOnce
from regulation.errors import RegulationError
from regulation.record import MAX_AMOUNT
from regulation.rotation import Progress
from regulation.rules import DEFAULT, RuleSet, rule_set
from regulation.tiles import CONVENTIONAL, SIMPLIFIED

VARIANTS = [(CONVENTIONAL, _("conventional (136 tiles)")), (SIMPLIFIED, _("simplified (112 tiles)"))]
CHAIRS = range(4)


class Casino(models.Model):
    """One casino of the installation. A person's roles apply at the casinos he is given
    (`staff`; `access.casinos_of`): a dealer at one casino sees nothing of another, an inspector
    given several sees each and the group's totals (docs/casinos.md)."""

    name = models.CharField(max_length=100, unique=True)
    staff = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="casinos",
                                   help_text=_("the people whose roles apply at this casino"))

    def __str__(self) -> str:
        return self.name


# The rule set a table runs under, or that scored a jogo, is a code and a version of
# `regulation.rules` (an amendment of the regulation is a new rule set, or a new version).

def rule_set_code_field(**options) -> models.CharField:
    return models.CharField(max_length=60, help_text=_("the rule set's code, e.g. portaria-135-91-M"), **options)


def rule_set_version_field(**options) -> models.PositiveSmallIntegerField:
    return models.PositiveSmallIntegerField(help_text=_("the rule set's version"), **options)


class Table(models.Model):
    """A Mah-Jong table: its variant and stake tier X/2X (Art. 8) are fixed. It runs under a
    named, versioned rule set; changing it applies to the jogos recorded after the change, each
    jogo keeping the rule set that scored it."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(max_length=20)
    variant = models.CharField(max_length=12, choices=VARIANTS)
    stake = models.PositiveIntegerField(help_text=_("X of the tier X/2X (Art. 8)"))
    is_open = models.BooleanField(default=True)
    # Where the table stands on the floor ("Pit A", "VIP 2"): the floor view groups and filters by it.
    area = models.CharField(max_length=40, blank=True, help_text=_("the pit or area of the floor the table stands in"))
    rule_set_code = rule_set_code_field(default=DEFAULT.code)
    rule_set_version = rule_set_version_field(default=DEFAULT.version)
    staff = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="tables",
                                   help_text=_("pit staff assigned to this table"))
    # The head of this table's ledger chain. Not part of the ledger itself: the service moves it
    # under the table's row lock, and verify_ledger checks it against the last row.
    ledger_seq = models.PositiveIntegerField(default=0, editable=False)
    ledger_head = models.CharField(max_length=64, default="", editable=False)
    jogos_recorded = models.PositiveIntegerField(default=0, editable=False)
    # Where the game in progress stands (Art. 3): its jogos so far, banker, round wind and each
    # chair's capital at stake. A projection of the ledger, moved by the service in the same
    # transaction as each row it appends, so that recording reads one row instead of replaying
    # the game; verify_ledger replays every game and checks it. Empty between games.
    game = models.ForeignKey("Game", on_delete=models.PROTECT, related_name="+", null=True, blank=True,
                             editable=False)
    game_jogos = models.PositiveIntegerField(default=0, editable=False)
    game_banker = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    game_round_wind = models.CharField(max_length=1, blank=True, editable=False)
    game_capital = models.JSONField(default=list, blank=True, editable=False,
                                    help_text=_("capital per chair [0..3] now; null = empty"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["casino", "number"], name="table_number_per_casino"),
        ]
        ordering = ["casino", "number"]
        permissions = [("view_all_tables", "Can see every table, not only assigned ones"),
                       ("open_close_table", "Can open and close assigned tables"),
                       ("change_rule_set", "Can change the rule set of assigned tables between games")]

    def __str__(self) -> str:
        return f"{self.casino} table {self.number} ({self.variant} {self.stake}/{2 * self.stake})"

    @property
    def rules(self) -> RuleSet:
        """The rule set the table's next jogo is scored under."""
        return rule_set(self.rule_set_code, self.rule_set_version)

    def clean(self) -> None:
        """Art. 8: the table runs at a tier of its variant, under the rule set it names (the
        tiers are the rule set's, so they are checked here and by the service, not by the
        database, which would pin one rule set's tiers)."""
        super().clean()
        problem = tier_problem(self.rule_set_code, self.rule_set_version, self.variant, self.stake)
        if problem:
            raise ValidationError({problem[0]: problem[1]})
        if self.pk and self.game_id:  # a game is played under one rule set
            stored = Table.objects.filter(pk=self.pk).values_list("rule_set_code", "rule_set_version").first()
            if stored and stored != (self.rule_set_code, self.rule_set_version):
                raise ValidationError({"rule_set_code": _("Table %(table)s has a game in progress; end it before "
                                                          "changing the rule set.") % {"table": self.number}})


def tier_problem(code: str, version: int | None, variant: str, stake: int | None) -> tuple[str, str] | None:
    """(field, message) when `stake` is not a tier X/2X of `variant` under the rule set (Art. 8),
    or when there is no such rule set; None when the table may run so."""
    try:
        rules = rule_set(code, version)
    except (LookupError, RegulationError):
        return "rule_set_code", _("There is no rule set %(code)s version %(version)s.") % {
            "code": code, "version": version}
    if variant in rules.commission and stake is not None and stake not in rules.tiers(variant):
        return "stake", _("Art. 8: %(stake)s/%(double)s is not a tier of the %(variant)s variant under the rule set "
                          "%(code)s version %(version)s.") % {"stake": stake, "double": 2 * stake, "variant": variant,
                                                              "code": code, "version": version}
    return None


class Game(models.Model):
    """A partida: the players seated at a table from the first jogo to the end of the North
    round (Art. 3, I-2) or until they leave."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games")
    first_banker = models.PositiveSmallIntegerField(help_text=_("chair of the first banker (0–3)"))
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        permissions = [("record_at_table", "Can open games, record jogos and movements at assigned tables")]

    def __str__(self) -> str:
        return f"game {self.pk} at {self.table}"

    def start(self) -> Progress:
        return Progress.start(chairs=[s.chair for s in self.players.all()], banker=self.first_banker)


class Patron(models.Model):
    """A person who plays at the casino's tables: what the screens call a player (`Player` is
    his seat in one game). A name alone will do until his cash over a gaming day reaches the
    large-transaction threshold (DICJ Instruction n.º 1/2016); then he is identified by an
    identity document (type, number, issuing country), date of birth and nationality.

    Personal data lives here and nowhere in the ledger: a chained row names a player by this
    row's id only (`Movement.patron`), so that anonymising him once PATRON_RETENTION_DAYS have
    passed (`casino/pit/patrons.py`) changes no hashed row (docs/money.md says why). Who may read
    what is `casino/pit/privacy.py`; each change is a `PatronChange`, each read of a document
    number a `DocumentRead`."""

    PASSPORT, MACAU_ID, HONG_KONG_ID, MAINLAND_ID, MAINLAND_PERMIT = (
        "passport", "macau_id", "hong_kong_id", "mainland_id", "mainland_permit")
    DOCUMENT_TYPES = [
        (PASSPORT, _("passport")),
        (MACAU_ID, _("Macau resident identity card")),
        (HONG_KONG_ID, _("Hong Kong identity card")),
        (MAINLAND_ID, _("mainland China resident identity card")),
        (MAINLAND_PERMIT, _("mainland travel permit to Hong Kong and Macau")),
    ]

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="patrons")
    name = models.CharField(max_length=100)
    document_type = models.CharField(max_length=20, choices=DOCUMENT_TYPES, blank=True)
    document_number = models.CharField(max_length=30, blank=True)
    document_country = models.CharField(max_length=2, blank=True, help_text=_("ISO 3166-1 alpha-2 code"))
    date_of_birth = models.DateField(null=True, blank=True)
    nationality = models.CharField(max_length=2, blank=True, help_text=_("ISO 3166-1 alpha-2 code"))
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    anonymised_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["casino", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "document_type", "document_country", "document_number"],
                                    condition=~models.Q(document_number=""), name="one_patron_per_document"),
        ]
        permissions = [("view_personal_data", "Can see players' names, identity documents and dates of birth"),
                       ("identify_patron", "Can record a player's identity document")]

    def __str__(self) -> str:
        return f"player {self.pk}"

    # What identifies a player for a large transaction (DICJ Instruction n.º 1/2016), field by field.
    IDENTIFICATION = ("document_type", "document_number", "document_country", "date_of_birth", "nationality")

    @property
    def missing_identification(self) -> list[str]:
        """The fields of IDENTIFICATION he has not given yet, in that order; empty when he is
        identified. (Whether a document number is well formed for its type is checked when it is
        recorded, casino/pit/documents.py.)"""
        return [name for name in self.IDENTIFICATION if getattr(self, name) in (None, "")]

    @property
    def identified(self) -> bool:
        return not self.missing_identification


class PatronChange(AppendOnly):
    """One creation or change of a player's record: who, when, and which fields (their names,
    never their values: the log outlives the personal data it would otherwise copy)."""

    CREATED, CHANGED, ANONYMISED = "created", "changed", "anonymised"
    ACTIONS = [(CREATED, _("created")), (CHANGED, _("changed")), (ANONYMISED, _("anonymised"))]

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="changes")
    action = models.CharField(max_length=10, choices=ACTIONS)
    fields = models.JSONField(default=list)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True,
                           blank=True, help_text=_("empty for the scheduled anonymisation"))

    class Meta:
        ordering = ["patron", "at", "pk"]


class DocumentRead(AppendOnly):
    """One read of a player's identity document number by a person: where it was shown to whom,
    and when. Written by `casino/pit/privacy.py` whenever a page, an export or the API shows it."""

    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="document_reads")
    read_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    read_at = models.DateTimeField()
    purpose = models.CharField(max_length=40, help_text=_("the page, export or API route that showed it"))

    class Meta:
        ordering = ["-read_at", "-pk"]


class Player(models.Model):
    """A player in one chair of a game: the patron seated there (never changed: on PostgreSQL the
    database refuses it, migration 0002). His capital is never stored here: it is the sum of his
    movements and of the jogos' settlements (see `Jogo.capital_after`). His name is the patron's
    (`name`; in a query, `patron__name`), so that personal data lives in one place."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="players")
    chair = models.PositiveSmallIntegerField()
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "chair"], name="one_player_per_chair"),
                       models.UniqueConstraint(fields=["game", "patron"], name="one_chair_per_player")]
        ordering = ["game", "chair"]

    def __str__(self) -> str:
        return f"player {self.patron_id} (chair {self.chair})"

    @property
    def name(self) -> str:
        """The patron's name, or "anonymised player 12" once his personal data is gone (read
        `patron` with the seat: `select_related("patron")`)."""
        if self.patron.anonymised_at is not None:
            return gettext("anonymised player %(id)s") % {"id": self.patron_id}
        return self.patron.name


class LedgerRow(AppendOnly):
    """The fields every ledger row carries; see `chain.py` for the hash."""

    INSTEAD = "a correction is an amendment"

    table = models.ForeignKey(Table, on_delete=models.PROTECT)
    seq = models.PositiveIntegerField(help_text=_("position in the table's ledger chain, from 1, no gaps"))
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(db_index=True)

    class Meta:
        abstract = True


class Movement(LedgerRow):
    """Money a player brings to or takes from the table during a game: a buy-in (the opening
    capital is the first) or a cash-out. Capital is never edited, only moved."""

    BUY_IN, CASH_OUT = "buy_in", "cash_out"
    KINDS = [(BUY_IN, _("buy-in")), (CASH_OUT, _("cash-out"))]

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="movements")
    chair = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=KINDS)
    amount = models.PositiveBigIntegerField(help_text=_("whole currency units"))
    after_jogos = models.PositiveIntegerField(help_text=_("jogos of the game played before this movement"))
    # Whose cash it is: the patron seated in the chair, by id only (personal data stays out of the
    # chain). Empty on movements recorded before players were people.
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="movements", null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="movement_seq_per_table"),
            # One amount limit at every door: the engine reads no amount above MAX_AMOUNT (record.py),
            # so a larger buy-in would leave the table unable to record.
            models.CheckConstraint(condition=models.Q(amount__gte=1, amount__lte=MAX_AMOUNT),
                                   name="movement_amount_within_limit"),
        ]
        ordering = ["table", "seq"]
        indexes = [models.Index(fields=["patron", "gaming_day"])]
        # Cash crosses the table in front of the supervisor: he records it, and the ledger names him.
        permissions = [("move_money", "Can record buy-ins and cash-outs at assigned tables")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} chair {self.chair}, game {self.game_id}"

    @property
    def signed_amount(self) -> int:
        return self.amount if self.kind == self.BUY_IN else -self.amount


def superseded() -> models.Exists:
    """True for a jogo revision that a later revision of the same jogo supersedes: filter with
    `~superseded()` for each jogo as it stands (its current, highest revision). Every revision
    keeps its jogo's gaming day (services/amendments.py), so the day is in the match too: on
    PostgreSQL the search stays in the day's monthly partition (docs/ledger.md)."""
    return models.Exists(Jogo.objects.filter(table=models.OuterRef("table"), number=models.OuterRef("number"),
                                             gaming_day=models.OuterRef("gaming_day"),
                                             revision__gt=models.OuterRef("revision")))


class Jogo(LedgerRow):
    """One revision of one jogo (hand). Revision 0 is what the dealer recorded; each approved
    amendment, and each jogo whose capital an amendment changed, adds a revision. The current
    revision of a jogo is its highest."""

    RECORDED, AMENDED, CARRIED = "recorded", "amended", "carried"
    KINDS = [(RECORDED, _("recorded at the table")), (AMENDED, _("amended")),
             (CARRIED, _("capital carried from an amended jogo"))]

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="jogos")
    number = models.PositiveIntegerField(help_text=_("the table's jogo sequence number, from 1, no gaps"))
    position = models.PositiveIntegerField(help_text=_("the jogo's place in its game, from 1"))
    revision = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=8, choices=KINDS, default=RECORDED)
    reason = models.TextField(blank=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    null=True, blank=True)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    # Who played as what (Art. 3), as the table's progress gave it.
    banker_chair = models.PositiveSmallIntegerField()
    round_wind = models.CharField(max_length=1)
    # The portable record (docs/record-format.md) and the engine's output for it.
    record = models.JSONField()
    outcome = models.JSONField()
    # The figures inspectors filter and total on, taken from the outcome.
    result = models.CharField(max_length=10, db_index=True)
    winner_chair = models.PositiveSmallIntegerField(null=True, blank=True)
    fan = models.PositiveSmallIntegerField(null=True, blank=True)
    declared_fan = models.PositiveSmallIntegerField(null=True, blank=True)
    fan_mismatch = models.BooleanField(default=False)
    commission = models.PositiveIntegerField(default=0)
    capped = models.BooleanField(default=False)
    pay_all = models.BooleanField(default=False)
    capital_before = models.JSONField(help_text=_("capital per chair [0..3] when the jogo starts; null = empty"))
    capital_after = models.JSONField(help_text=_("capital per chair after the jogo's settlement"))
    # The rule set that scored this revision: the audit re-scores it under the same one, whatever
    # the table runs under now.
    rule_set_code = rule_set_code_field()
    rule_set_version = rule_set_version_field()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="jogo_seq_per_table"),
            models.UniqueConstraint(fields=["table", "number", "revision"], name="one_revision_number"),
            models.UniqueConstraint(fields=["table", "idempotency_key"], name="idempotency_key_per_table",
                                    condition=models.Q(idempotency_key__isnull=False)),
        ]
        ordering = ["table", "number", "revision"]
        indexes = [models.Index(fields=["game", "position"])]
        permissions = [("flag_jogo", "Can flag jogos for inspection")]

    def __str__(self) -> str:
        suffix = f" rev. {self.revision}" if self.revision else ""
        return f"jogo {self.number}{suffix} at {self.table}"

    @property
    def rules(self) -> RuleSet:
        """The rule set that scored this revision."""
        return rule_set(self.rule_set_code, self.rule_set_version)

    @property
    def progress(self) -> Progress:
        """The table's progress as this jogo was played."""
        chairs = tuple(chair for chair, capital in enumerate(self.capital_before) if capital is not None)
        return Progress(chairs, self.game.first_banker, self.banker_chair, self.round_wind)


class Amendment(models.Model):
    """A correction of a jogo, proposed by a supervisor with a reason and approved by a second
    person (maker/checker). Approval adds the new revision to the ledger."""

    PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
    STATES = [(PENDING, _("pending")), (APPROVED, _("approved")), (REJECTED, _("rejected"))]

    jogo = models.ForeignKey(Jogo, on_delete=models.PROTECT, related_name="amendments",
                             help_text=_("the revision being corrected"))
    record = models.JSONField(help_text=_("the corrected portable record"))
    reason = models.TextField()
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=STATES, default=PENDING)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, help_text=_("why the second person approved or rejected it"))
    revision = models.ForeignKey(Jogo, on_delete=models.PROTECT, related_name="+", null=True, blank=True,
                                 help_text=_("the ledger revision the approval added"))

    class Meta:
        ordering = ["-proposed_at"]
        permissions = [("propose_amendment", "Can propose amendments at assigned tables"),
                       ("approve_amendment", "Can approve or reject another person's amendment")]


class Refusal(models.Model):
    """A jogo the service refused, kept so that inspectors see every attempt."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="refusals")
    attempted_at = models.DateTimeField()
    attempted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    record = models.JSONField()
    errors = models.JSONField()

    class Meta:
        ordering = ["-attempted_at"]
        permissions = [("confirm_refusal", "Can confirm another person's refused attempt at assigned tables")]


class MovementRefusal(AppendOnly):
    """A buy-in or cash-out the service refused (the large-transaction threshold reached by a
    player not identified, above all), kept so that inspectors see every attempt."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="movement_refusals")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    chair = models.PositiveSmallIntegerField(null=True, blank=True)
    patron = models.ForeignKey(Patron, on_delete=models.PROTECT, related_name="refused_movements", null=True,
                               blank=True)
    kind = models.CharField(max_length=8, blank=True)
    amount = models.BigIntegerField(null=True, blank=True)
    attempted_at = models.DateTimeField()
    attempted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(db_index=True)
    errors = models.JSONField()

    class Meta:
        ordering = ["-attempted_at", "-pk"]


class RefusalConfirmation(AppendOnly):
    """A supervisor's confirmation of a refused attempt: a second person saw what was refused
    and says why it was abandoned (the attempt was wrong, and the jogo was recorded right after,
    or not played). One per refusal, by someone other than the person who attempted it (the
    service checks); never changed nor deleted (and on PostgreSQL the database refuses too,
    migration 0011). A refusal without one is an open item of its day's accounting."""

    refusal = models.OneToOneField(Refusal, on_delete=models.PROTECT, related_name="confirmation")
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    confirmed_at = models.DateTimeField()
    note = models.TextField(help_text=_("what the second person saw: why the attempt was abandoned"))

    class Meta:
        ordering = ["confirmed_at"]


class Flag(SetOnce):
    """An inspector's flag on a jogo, for the exception queue. Others comment on it
    (`FlagComment`, one new row each); a person other than the one who raised it resolves it,
    once, with a note. A flag is open until then. Nothing else of a flag ever changes, and no
    flag is deleted: the service sets the resolution, this model refuses any other change."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="flags")
    number = models.PositiveIntegerField(help_text=_("the jogo's sequence number at the table"))
    note = models.TextField()
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    raised_at = models.DateTimeField()
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(blank=True, help_text=_("what the person resolving the flag found"))

    SET_ONCE = ("resolved_by_id", "resolved_at", "resolution")
    INSTEAD = "resolve it"

    class Meta:
        ordering = ["-raised_at"]
        permissions = [("resolve_flag", "Can resolve a flag another person raised")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(resolved_by__isnull=True, resolved_at__isnull=True, resolution="")
                | (models.Q(resolved_by__isnull=False, resolved_at__isnull=False) & ~models.Q(resolution="")),
                name="flag_resolved_by_someone_at_a_time_with_a_note"),
            models.CheckConstraint(condition=~models.Q(resolved_by=models.F("raised_by")),
                                   name="flag_resolved_by_another_person"),
        ]

    def __str__(self) -> str:
        return f"flag {self.pk} on jogo {self.number} at table {self.table_id}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class FlagComment(AppendOnly):
    """A comment on a flag, by anyone who audits (the one who raised it too). Append-only."""

    flag = models.ForeignKey(Flag, on_delete=models.PROTECT, related_name="comments")
    note = models.TextField()
    written_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    written_at = models.DateTimeField()

    INSTEAD = "write another comment"

    class Meta:
        ordering = ["flag", "written_at", "pk"]


# --- Gaming days ---------------------------------------------------------------------------------
# A casino's gaming day as the managers close and reopen it, and the log of both. When a day
# starts and ends is `days.py`; the day's figures are never stored here (the daily report reads
# them from the ledger). What is stored is whether the day is closed, and every close and reopen.

class GamingDay(models.Model):
    """The state of one casino's gaming day: open (the default, also when no row exists) or
    closed by a manager after review. A closed day takes no new jogo and no amendment."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="gaming_days")
    day = models.DateField()
    closed = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["casino", "day"], name="one_state_per_casino_day")]
        ordering = ["casino", "-day"]
        db_table = "reports_gamingday"  # its name from when the reports app held it (triggers, data)
        permissions = [("view_daily_report", "Can see and download the daily report"),
                       ("close_gaming_day", "Can close and reopen a gaming day")]

    def __str__(self) -> str:
        return f"{self.casino} {self.day} ({'closed' if self.closed else 'open'})"


class DayEvent(AppendOnly):
    """One close or reopen of a gaming day: who, when and why. Append-only, like the ledger.

    A day is closed while something still holds it (a commission box not yet counted, say:
    services.close_day asks the other apps) only by a manager who states why: the close event
    keeps his `override_reason` and, in `overridden`, each problem it covered as the refusal gave
    it (code, message, and the template and params that say it again in another language). Both
    are empty on a close that nothing held, and on a reopening."""

    CLOSED, REOPENED = "closed", "reopened"
    ACTIONS = [(CLOSED, _("closed")), (REOPENED, _("reopened"))]
    INSTEAD = "close or reopen the day again"

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="events")
    action = models.CharField(max_length=8, choices=ACTIONS)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    reason = models.TextField(blank=True, help_text=_("required to reopen; an optional note on closing"))
    override_reason = models.TextField(blank=True, help_text=_("why a manager closed the day although something "
                                                                "still held it"))
    overridden = models.JSONField(default=list, blank=True, help_text=_("what held the day when it was closed "
                                                                         "anyway, as the refusal said it"))

    class Meta:
        ordering = ["gaming_day", "at", "pk"]
        db_table = "reports_dayevent"

    def __str__(self) -> str:
        return f"{self.gaming_day.day} {self.action} by {self.by} at {self.at:%Y-%m-%d %H:%M}"
