"""The group's totals (docs/casinos.md): for an inspector or a manager given several casinos, each
casino's line over the gaming days asked for, and their sum.

A casino's line:

- **jogos**: its current jogos of the days (a jogo counts at its current revision, as everywhere
  in the audit);
- **commission due**: Art. 8 as the engine gives it for each jogo's record (`ledger.checked`),
  beside the commission the pit recorded;
- **commission counted**: what the counters counted in the days' commission boxes, the count of
  record of each box counted (`casino.count.services.count_of_record`); a box not counted yet
  counts nothing, and how many there are is on the line, so that a difference they explain is
  read as such;
- **difference**: counted − due;
- **open flags** on the days' jogos, and **open variance cases** of the days' boxes.

A person given one casino sees his casino's line only, and the total is that line. The lines are
the casinos he is given, and only those (`access.casinos_of`): a casino he is not given is in
neither a line nor the total.

Reads: the jogos re-scored (one streamed query, bounded as every page that re-scores jogos is:
`ledger.check_page_range`), and five more queries whatever the number of casinos and days.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, QuerySet, Subquery

from casino.count.models import Box, Case
from casino.count.selectors import counts_with_figures
from casino.count.services import count_of_record
from casino.pit.models import Casino, Flag

from .ledger import Days, checked, flagged_jogo


@dataclass
class CasinoLine:
    """One casino's figures over the days; the group's total when `casino` is None."""

    casino: Casino | None
    jogos: int = 0
    commission_recorded: int = 0
    commission_due: int = 0
    counted: int = 0
    boxes_counted: int = 0
    boxes_not_counted: int = 0
    open_flags: int = 0
    open_cases: int = 0

    @property
    def difference(self) -> int:
        """What the boxes held against what the regulation gives: positive, more counted."""
        return self.counted - self.commission_due

    def __iadd__(self, other: CasinoLine) -> CasinoLine:
        for name in ("jogos", "commission_recorded", "commission_due", "counted", "boxes_counted",
                     "boxes_not_counted", "open_flags", "open_cases"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


@dataclass
class GroupTotals:
    days: Days
    lines: list[CasinoLine]
    total: CasinoLine = field(default_factory=lambda: CasinoLine(None))


def group_totals(days: Days, casinos: QuerySet[Casino]) -> GroupTotals:
    """Each of `casinos` (a person's), by name, with its figures over the days, and their sum.
    The caller bounds the days (`check_page_range`)."""
    lines = {casino.pk: CasinoLine(casino) for casino in casinos.order_by("name")}
    for item in checked(days, casinos=list(lines)):
        line = lines[item.casino_id]
        line.jogos += 1
        line.commission_recorded += item.row.commission
        line.commission_due += item.commission_due
    boxes = (Box.objects.filter(casino__in=list(lines), gaming_day__range=(days.first, days.last))
             .prefetch_related(Prefetch("count_set", queryset=counts_with_figures())))
    for box in boxes:
        record = count_of_record(sorted(box.count_set.all(), key=lambda count: count.attempt))
        line = lines[box.casino_id]
        if record is None:
            line.boxes_not_counted += 1
        else:
            line.boxes_counted += 1
            line.counted += record.counted
    open_flags = (Flag.objects.filter(resolved_at__isnull=True, table__casino__in=list(lines))
                  .annotate(gaming_day=Subquery(flagged_jogo().values("gaming_day")[:1]))
                  .filter(gaming_day__range=(days.first, days.last))
                  .values("table__casino").annotate(open=Count("pk")).order_by())
    for row in open_flags:
        lines[row["table__casino"]].open_flags = row["open"]
    open_cases = (Case.objects.filter(box__casino__in=list(lines), box__gaming_day__range=(days.first, days.last))
                  .exclude(state=Case.RESOLVED).values("box__casino").annotate(open=Count("pk")).order_by())
    for row in open_cases:
        lines[row["box__casino"]].open_cases = row["open"]
    totals = GroupTotals(days, list(lines.values()))
    for line in totals.lines:
        totals.total += line
    return totals
