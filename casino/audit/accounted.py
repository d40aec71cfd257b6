"""Every number accounted for, for one gaming day: each table's jogo numbers and ledger positions
with any gap, its refusals and amendments, and every voided or abandoned attempt with who, why
and a second person's confirmation.

What a "voided or abandoned attempt" is here:

- **a refused record** (`Refusal`): somebody tried to record a jogo and the service refused it.
  It never takes a jogo number nor a ledger position, so it never explains a gap; the refusal
  keeps who and why (the service's errors). The second person is a supervisor of the table who
  confirms it with a note (`RefusalConfirmation`); until then it is an open item;
- **a rejected amendment**: a correction proposed and turned down. The proposer says why; the
  second person is the one who rejected it, with his reason (maker/checker). A pending one is an
  open item;
- **a game ended before its North round** (Art. 3: the players may leave): ended by a person
  (`Game.ended_by`), whereas a game whose North round ends is ended by the service. Listed with
  who ended it and how many jogos it had; the ledger keeps no reason for it.

A false win is not among them: it is a jogo (nulo) with its own number in the ledger.

Reads: a fixed number of queries (at most fourteen) whatever the number of tables and jogos.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Q

from casino.pit.days import day_bounds
from casino.pit.models import Amendment, Game, Jogo, Movement, Refusal, Table

from .ledger import Casinos, in_casinos


@dataclass(frozen=True)
class Run:
    """A run of consecutive numbers, first to last."""

    first: int
    last: int

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def runs(present: set[int], low: int, high: int) -> tuple[list[Run], list[Run]]:
    """The runs of low..high that are in `present`, and those that are missing."""
    held: list[Run] = []
    missing: list[Run] = []
    start, inside = None, None
    for value in range(low, high + 1):
        now = value in present
        if start is None or now != inside:
            if start is not None:
                (held if inside else missing).append(Run(start, value - 1))
            start, inside = value, now
    if start is not None:
        (held if inside else missing).append(Run(start, high))
    return held, missing


@dataclass
class TableAccount:
    """One table's numbers on the day."""

    table: Table
    numbers: set[int] = field(default_factory=set)
    seqs: set[int] = field(default_factory=set)
    revisions: int = 0  # ledger rows that are a later revision of a jogo
    number_before: int = 0  # the table's last jogo number before the day
    number_after: int | None = None  # its first after the day (None: none yet)
    seq_before: int = 0
    seq_after: int | None = None
    held_elsewhere: set[int] = field(default_factory=set)  # positions of other days' rows amid the day's
    refusals: list[Refusal] = field(default_factory=list)
    amendments: list[Amendment] = field(default_factory=list)

    def _expected(self, present: set[int], before: int, after: int | None) -> tuple[list[Run], list[Run]]:
        """From the number after `before` to the last present one, or to just before `after`."""
        high = max(present | {(after - 1) if after is not None else before})
        return runs(present, before + 1, high)

    @property
    def number_runs(self) -> list[Run]:
        return self._expected(self.numbers, self.number_before, self.number_after)[0]

    @property
    def number_gaps(self) -> list[Run]:
        return self._expected(self.numbers, self.number_before, self.number_after)[1]

    @property
    def seq_runs(self) -> list[Run]:
        """The day's own ledger positions, as runs."""
        if not self.seqs:
            return []
        return runs(self.seqs, min(self.seqs), max(self.seqs))[0]

    @property
    def seq_gaps(self) -> list[Run]:
        """Positions no row of any day holds, from after the last held before the day's first to
        before the first held after the day's last."""
        if not self.seqs:
            return []
        return runs(self.seqs | self.held_elsewhere, self.seq_before + 1, self.seq_after - 1)[1]


@dataclass
class DayAccount:
    day: dt.date
    tables: list[TableAccount]
    refusals: list[Refusal]
    rejected: list[Amendment]
    pending: list[Amendment]
    games_ended_early: list[Game]

    @property
    def unconfirmed_refusals(self) -> list[Refusal]:
        return [refusal for refusal in self.refusals if not hasattr(refusal, "confirmation")]

    @property
    def gaps(self) -> int:
        return sum(len(table.number_gaps) + len(table.seq_gaps) for table in self.tables)

    @property
    def open_items(self) -> int:
        return len(self.unconfirmed_refusals) + len(self.pending) + self.gaps


def day_account(day: dt.date, *, casinos: Casinos = None) -> DayAccount:
    """The day's accounting at every table (of `casinos`, a person's; of every casino when None)
    with a ledger row or a refused attempt that day."""
    start, end = day_bounds(day)
    refusals = list(in_casinos(Refusal.objects.filter(attempted_at__gte=start, attempted_at__lt=end), casinos)
                    .select_related("table", "attempted_by", "confirmation__confirmed_by")
                    .order_by("attempted_at", "pk"))
    amendments = list(in_casinos(Amendment.objects.filter(jogo__gaming_day=day), casinos, "jogo__table__casino")
                      .select_related("jogo__table", "proposed_by", "decided_by").order_by("proposed_at", "pk"))
    jogo_rows = list(in_casinos(Jogo.objects.filter(gaming_day=day), casinos)
                     .values_list("table_id", "number", "seq", "revision"))
    movement_seqs = list(in_casinos(Movement.objects.filter(gaming_day=day), casinos).values_list("table_id", "seq"))
    accounts: dict[int, TableAccount] = {}
    table_ids = ({row[0] for row in jogo_rows} | {row[0] for row in movement_seqs}
                 | {refusal.table_id for refusal in refusals})
    for table in Table.objects.filter(pk__in=table_ids).select_related("casino").order_by("casino__name", "number"):
        accounts[table.pk] = TableAccount(table)
    for table_id, number, seq, revision in jogo_rows:
        account = accounts[table_id]
        account.numbers.add(number)
        account.seqs.add(seq)
        account.revisions += revision > 0
    for table_id, seq in movement_seqs:
        accounts[table_id].seqs.add(seq)
    _edges(accounts, day)
    _positions(accounts, day)
    for refusal in refusals:
        accounts[refusal.table_id].refusals.append(refusal)
    for amendment in amendments:
        accounts[amendment.jogo.table_id].amendments.append(amendment)
    ended_early = list(in_casinos(Game.objects.filter(ended_at__gte=start, ended_at__lt=end, ended_by__isnull=False),
                                  casinos)
                       .select_related("table", "ended_by")
                       .annotate(jogos_played=Count("jogos", filter=Q(jogos__revision=0)))
                       .order_by("ended_at", "pk"))
    return DayAccount(day, list(accounts.values()), refusals,
                      [a for a in amendments if a.state == Amendment.REJECTED],
                      [a for a in amendments if a.state == Amendment.PENDING], ended_early)


def _edges(accounts: dict[int, TableAccount], day: dt.date) -> None:
    """Each table's last jogo number before the day and first after it (two queries), so that a
    gap at either edge of the day shows."""
    tables = list(accounts)
    for earlier in (True, False):
        rows = Jogo.objects.filter(table__in=tables)
        rows = rows.filter(gaming_day__lt=day) if earlier else rows.filter(gaming_day__gt=day)
        for row in rows.values("table_id").annotate(number=(Max if earlier else Min)("number")).order_by():
            setattr(accounts[row["table_id"]], "number_before" if earlier else "number_after", row["number"])
    for account in accounts.values():
        if account.number_after is None:  # nothing recorded since: the table's next number
            account.number_after = account.table.jogos_recorded + 1


def _positions(accounts: dict[int, TableAccount], day: dt.date) -> None:
    """Ledger positions are one chain per table across days, and an amendment's revision keeps
    its jogo's gaming day but takes the next free position, so a day's positions interleave with
    other days'. A position is missing only when no row of any day holds it: between the day's
    first and last positions, and out to the nearest held positions either side (four to six
    queries: rows of other days held there, and the nearest held before and after)."""
    spans = {pk: (min(a.seqs), max(a.seqs)) for pk, a in accounts.items() if a.seqs}
    if not spans:
        return
    for model in (Jogo, Movement):
        rows = model.objects.exclude(gaming_day=day)
        inside = Q()
        before = Q()
        after = Q()
        for pk, (low, high) in spans.items():
            inside |= Q(table_id=pk, seq__range=(low, high))
            before |= Q(table_id=pk, seq__lt=low)
            after |= Q(table_id=pk, seq__gt=high)
        for table_id, seq in rows.filter(inside).values_list("table_id", "seq"):
            accounts[table_id].held_elsewhere.add(seq)
        for row in model.objects.filter(before).values("table_id").annotate(seq=Max("seq")).order_by():
            account = accounts[row["table_id"]]
            account.seq_before = max(account.seq_before, row["seq"])
        for row in model.objects.filter(after).values("table_id").annotate(seq=Min("seq")).order_by():
            account = accounts[row["table_id"]]
            account.seq_after = min(filter(None, (account.seq_after, row["seq"])))
    for account in accounts.values():
        if account.seq_after is None:  # nothing held after: up to the table's head, or the day's last
            account.seq_after = max(account.table.ledger_seq, *account.seqs) + 1
