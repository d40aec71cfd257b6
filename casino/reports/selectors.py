"""What the daily report reads: the figures of one casino's gaming day, each aggregated by the
database, so that the number of queries is fixed whatever the number of jogos.

Only current revisions count: a jogo's latest revision (see the `current` filter of the API).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, fields, replace

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce, ExtractHour
from django.utils.translation import gettext as _

from casino.audit.exceptions import KINDS, Entry, Scope, find, player, read_facts
from casino.audit.ledger import Days
from casino.audit.mtl import Log, PlayerLog, multiple_transaction_log
from casino.count.heads import box_heads, case_heads
from casino.count.models import Box, Case
from casino.count.selectors import BOX_NOT_COUNTED, BoxLine, Reconciliation, reconciliation
from casino.pit.days import day_bounds, hours_of_the_day
from casino.pit.heads import Head, heads
from casino.pit.models import Amendment, Casino, DayEvent, GamingDay, Jogo, Refusal, superseded
from casino.pit.selectors import first_recorded
from casino.terms.vocabulary import article_name, exception_kind_name, person_name, rule_set_title, tier_label
from regulation.rules import DEFAULT, RULE_SETS, RuleSet, rule_set

# 0, 1, 2 fán (Art. 6, I-5): every grade a shipped rule set can give.
GRADES = range(max(max(rules.max_fan.values()) for rules in RULE_SETS) + 1)
# The appendix lists at most this many jogos, and as many refused records: a usual day has far
# fewer, and a PDF of thousands of lines would take minutes to lay out. Beyond it the report
# says how many more there are; the audit's exception queue lists every one.
APPENDIX_LIMIT = 100
# The appendix's multiple-transaction log lists the players whose day total of either direction
# reached MTL_SHARE per cent of the large-transaction threshold (50,000 of MOP 500,000), the ones
# that matter to DICJ Instruction n.º 1/2016; on a day with MTL_EVERY_PLAYER players or fewer it
# lists every one. Beyond that the report says how many more there are; the audit's log lists all.
MTL_SHARE = 10
MTL_EVERY_PLAYER = 20
# The kinds of exception counted in a row of their own, below the fixed rows of the report's table
# of exceptions, each with the control it comes from.
COUNTED_KINDS = ("grade_not_declared", "capital_below_minimum", "capital_below_zero", "duplicate_player",
                 "large_transaction", "structuring")


def current_jogos_of_day(casino: Casino, day: dt.date) -> QuerySet[Jogo]:
    """The casino's jogos of the gaming day, each at its current (highest) revision."""
    return Jogo.objects.filter(table__casino=casino, gaming_day=day).filter(~superseded())


@dataclass(frozen=True)
class DayFigures:
    """The counts and commission of a table's gaming day, or of the whole casino's."""

    games: int = 0
    jogos: int = 0
    wins_by_grade: tuple[int, ...] = tuple(0 for _ in GRADES)
    draws: int = 0
    false_wins: int = 0
    pay_alls: int = 0
    capped: int = 0
    fan_mismatches: int = 0
    commission: int = 0

    @property
    def wins(self) -> int:
        return sum(self.wins_by_grade)

    def __add__(self, other: DayFigures) -> DayFigures:
        """Field by field; the wins of each grade, grade by grade."""
        return DayFigures(**{name: _plus(getattr(self, name), getattr(other, name)) for name in _FIGURES})


_FIGURES = tuple(figure.name for figure in fields(DayFigures))


def _plus(one: int | tuple[int, ...], other: int | tuple[int, ...]) -> int | tuple[int, ...]:
    if isinstance(one, tuple):
        return tuple(a + b for a, b in zip(one, other, strict=True))
    return one + other


@dataclass(frozen=True)
class TableLine:
    """A table's line of the report: its day under one rule set (a table whose rule set changed
    during the day has a line for each)."""

    number: str
    variant: str
    stake: int
    figures: DayFigures
    rule_set_code: str = DEFAULT.code
    rule_set_version: int = DEFAULT.version

    @property
    def rules(self) -> RuleSet:
        """The rule set that scored this line's jogos."""
        return rule_set(self.rule_set_code, self.rule_set_version)

    @property
    def tier(self) -> str:
        """Art. 8 «modalidade de aposta» X/2X."""
        return tier_label(self.stake)

    @property
    def rate(self) -> int:
        """Art. 8: the commission per won jogo at this table's tier, under the rule set that scored
        its jogos."""
        return self.rules.commission_for(self.variant, self.stake)


@dataclass(frozen=True)
class TierLine:
    """Art. 8: the commission of one stake tier: wins × the tier's rate."""

    variant: str
    stake: int
    rate: int
    tables: int = 0
    wins: int = 0
    commission: int = 0
    rules: RuleSet | None = None  # named when the day's jogos were scored under several rule sets

    @property
    def tier(self) -> str:
        return tier_label(self.stake)


@dataclass(frozen=True)
class Exceptions:
    """How many of each kind of exception the day shows (the kinds and their finders:
    `casino.audit.exceptions`)."""

    fan_mismatches: int
    amendments: int
    amendments_pending: int
    pay_alls: int
    false_wins: int
    capped: int
    flags: int
    refusals: int
    counted: tuple[KindCount, ...] = ()  # the COUNTED_KINDS, in that order
    jogos: tuple[AppendixLine, ...] = ()  # the jogos behind the exceptions, by table and number
    refused: tuple[Refusal, ...] = ()  # the refused records, in the order they were attempted

    @property
    def jogos_listed(self) -> tuple[AppendixLine, ...]:
        return self.jogos[:APPENDIX_LIMIT]

    @property
    def jogos_not_listed(self) -> int:
        return max(0, len(self.jogos) - APPENDIX_LIMIT)

    @property
    def refused_listed(self) -> tuple[Refusal, ...]:
        return self.refused[:APPENDIX_LIMIT]

    @property
    def refused_not_listed(self) -> int:
        return max(0, len(self.refused) - APPENDIX_LIMIT)


@dataclass(frozen=True)
class KindCount:
    """How many exceptions of a kind the day shows; its name and control in the report's language."""

    kind: str
    count: int

    @property
    def kind_label(self) -> str:
        return exception_kind_name(self.kind)

    @property
    def control(self) -> str:
        return KINDS[self.kind].control_label


@dataclass(frozen=True)
class AppendixLine:
    """One line of the report's appendix: a jogo behind an exception and what happened. The
    words are made when read (`what`), so that the report's language applies."""

    table: str
    number: int
    kind: str  # one of APPENDIX_ORDER
    facts: dict

    @property
    def kind_label(self) -> str:
        return exception_kind_name(self.kind)

    @property
    def what(self) -> str:
        return _WHAT[self.kind](self.facts)


def _amendment_text(facts: dict) -> str:
    amendment = facts["amendment"]
    if amendment.state == Amendment.PENDING:
        return _("amendment pending, proposed by %(maker)s: %(reason)s") % {
            "maker": person_name(amendment.proposed_by), "reason": amendment.reason}
    words = {"maker": person_name(amendment.proposed_by), "checker": person_name(amendment.decided_by),
             "reason": amendment.reason}
    if amendment.state == Amendment.APPROVED:
        return _("amended, proposed by %(maker)s and approved by %(checker)s: %(reason)s") % words
    return _("amendment proposed by %(maker)s, rejected by %(checker)s: %(reason)s") % words


def _flag_text(facts: dict) -> str:
    flag = facts["flag"]
    words = {"who": person_name(flag.raised_by), "note": flag.note}
    if flag.is_open:
        return _("flagged by %(who)s: %(note)s (open)") % words
    return _("flagged by %(who)s: %(note)s; resolved by %(resolver)s: %(resolution)s") % {
        **words, "resolver": person_name(flag.resolved_by), "resolution": flag.resolution}


# The report's own words for each kind of exception its appendix lists, in the appendix's order
# for the lines of one jogo; the audit's exception queue lists every kind, in its words.
_WHAT = {
    "fan_mismatch": lambda facts: _("declared %(declared)s fán, the grade is %(fan)s fán (Art. 6)") % {
        "declared": facts["record"].get("declared_fan"), "fan": facts["fan"]},
    "amendment": _amendment_text,
    "pay_all": lambda facts: _("%(article)s: %(player)s bears the loss of the others (pay-all)") % {
        "article": article_name((facts["record"].get("pay_all") or {}).get("article", "10")),
        "player": player(facts, (facts["record"].get("pay_all") or {}).get("seat"))},
    "false_win": lambda facts: _("%(player)s declared a win without a valid hand: a false win, the jogo is void "
                                 "(Art. 10)") % {
        "player": player(facts, (facts["record"].get("false_win") or {}).get("seat"))},
    "capped": lambda facts: _("the winner, %(player)s, receives at most his capital at stake, %(cap)s "
                              "(Art. 9)") % {
        "player": player(facts, facts["record"].get("winner")),
        "cap": (facts["record"].get("capital") or {}).get(facts["record"].get("winner"))},
    "flag": _flag_text,
    # The audit's words: C-1 and the declared grade have no report words of their own.
    "grade_not_declared": KINDS["grade_not_declared"].describe,
    "capital_below_minimum": KINDS["capital_below_minimum"].describe,
    "capital_below_zero": KINDS["capital_below_zero"].describe,
}
APPENDIX_ORDER = list(_WHAT)


@dataclass(frozen=True)
class BoxTotals:
    """The casino's commission boxes of the day, like with like: expected against counted over the
    boxes counted only (a box still being counted has no counted figure to set against its
    expected one); the boxes not counted yet apart, with their expected commission."""

    counted_boxes: int = 0
    expected: int = 0
    counted: int = 0
    over: int = 0  # the overages and the shortages, each summed apart: never netted (art. 70)
    short: int = 0
    open_cases: int = 0
    uncounted_boxes: int = 0
    uncounted_expected: int = 0


def box_totals(day: Reconciliation) -> BoxTotals:
    """The casino total of the day's reconciliation (no query). A box is counted when its latest
    count agrees, as its line shows it."""
    counted = [line for line in day.lines if line.counted is not None]
    waiting = [line for line in day.lines if line.counted is None]
    return BoxTotals(counted_boxes=len(counted), expected=sum(line.expected for line in counted),
                     counted=sum(line.counted for line in counted), over=day.over, short=day.short,
                     open_cases=day.open_cases, uncounted_boxes=len(waiting),
                     uncounted_expected=sum(line.expected for line in waiting))


@dataclass(frozen=True)
class ClosedUncounted:
    """A box not yet counted when a manager closed the day all the same: his reason, and how the
    box stands now (`line`: None when it has neither jogos nor a box any more)."""

    table: str
    shift: int
    reason: str
    by: str
    at: dt.datetime
    line: BoxLine | None = None

    @property
    def counted(self) -> int | None:
        return self.line.counted if self.line else None


def closed_uncounted(events: list[DayEvent], day: Reconciliation) -> list[ClosedUncounted]:
    """Each box that a close of the day covered with the manager's reason (`DayEvent.overridden`,
    the count's problems `BOX_NOT_COUNTED`), in the order of the closes; no query."""
    lines = {(line.table, line.shift): line for line in day.lines}
    found = []
    for event in events:
        if event.action != DayEvent.CLOSED:
            continue
        by = person_name(event.by)
        for held in event.overridden:
            params = held.get("params") or {}
            if held.get("code") == BOX_NOT_COUNTED and "table" in params and "shift" in params:
                key = (params["table"], params["shift"])
                found.append(ClosedUncounted(*key, event.override_reason, by, event.at, lines.get(key)))
    return found


@dataclass(frozen=True)
class DailySummary:
    casino: Casino
    day: dt.date
    tables: list[TableLine]
    totals: DayFigures
    tiers: list[TierLine]
    exceptions: Exceptions
    commission_by_hour: list[tuple[int, int]]
    state: GamingDay | None
    events: list[DayEvent] = field(default_factory=list)
    # Each table's ledger head at the end of the day: printed on the signed report, it anchors
    # the hash chains outside the database.
    heads: list[Head] = field(default_factory=list)
    # The heads of the day's count chains as they stand when printed (counting goes on after
    # the day ends): each box's (table, shift, seq, hash) and each of their cases'.
    count_heads: list[CountHead] = field(default_factory=list)
    # Each table-shift's commission box: expected, counted, variance and its case.
    reconciliation: Reconciliation = field(default_factory=Reconciliation)
    # The day's multiple-transaction log (casino rule C-2), of which the appendix lists `mtl_listed`.
    mtl: Log | None = None

    @property
    def mtl_listed(self) -> tuple[PlayerLog, ...]:
        """The players the appendix lists: see MTL_SHARE."""
        if self.mtl is None:
            return ()
        if len(self.mtl.players) <= MTL_EVERY_PLAYER:
            return self.mtl.players
        return self.mtl.at_least(MTL_SHARE)

    @property
    def mtl_not_listed(self) -> int:
        return len(self.mtl.players) - len(self.mtl_listed) if self.mtl else 0

    @property
    def empty(self) -> bool:
        return not self.tables

    @property
    def box_totals(self) -> BoxTotals:
        return box_totals(self.reconciliation)

    @property
    def closed_uncounted(self) -> list[ClosedUncounted]:
        """The boxes not yet counted when the day was closed, each with the manager's reason."""
        return closed_uncounted(self.events, self.reconciliation)

    @property
    def closed(self) -> bool:
        return bool(self.state and self.state.closed)

    @property
    def rule_sets(self) -> list[tuple[str, RuleSet]]:
        """The rule sets that scored the day's jogos, each with its title in the active language;
        the default rule set on a day without jogos."""
        scored = [rule_set(code, version) for code, version in rule_sets(self.tables)] or [DEFAULT]
        return [(rule_set_title(rules.code, rules.title), rules) for rules in scored]

    @property
    def several_rule_sets(self) -> bool:
        return len(rule_sets(self.tables)) > 1


def table_figures(casino: Casino, day: dt.date) -> list[TableLine]:
    """One row per table that played that day, aggregated in one query."""
    grades = {f"win_{grade}": Count("pk", filter=Q(result="win", fan=grade)) for grade in GRADES}
    rows = (current_jogos_of_day(casino, day)
            .values("table_id", "table__number", "table__variant", "table__stake", "rule_set_code", "rule_set_version")
            .annotate(**COUNTED, **grades)
            .order_by("table__number", "rule_set_code", "rule_set_version"))
    return [TableLine(row["table__number"], row["table__variant"], row["table__stake"],
                      DayFigures(**{name: row[name] for name in COUNTED},
                                 wins_by_grade=tuple(row[f"win_{grade}"] for grade in GRADES)),
                      row["rule_set_code"], row["rule_set_version"])
            for row in rows]


# How the ledger counts each of `DayFigures`' figures (but the wins of each grade), by its name: a
# new figure is a field of `DayFigures` and a line here.
COUNTED = {
    "games": Count("game", distinct=True),
    "jogos": Count("pk"),
    "draws": Count("pk", filter=Q(result="draw")),
    "false_wins": Count("pk", filter=Q(result="false_win")),
    "pay_alls": Count("pk", filter=Q(pay_all=True)),
    "capped": Count("pk", filter=Q(capped=True)),
    "fan_mismatches": Count("pk", filter=Q(fan_mismatch=True)),
    "commission": Coalesce(Sum("commission"), 0),
}


def tier_lines(tables: list[TableLine]) -> list[TierLine]:
    """Art. 8: commission by stake tier under each rule set, from the table rows (no query)."""
    lines: dict[tuple[str, int, str, int], TierLine] = {}
    several = len(rule_sets(tables)) > 1
    for table in tables:
        key = (table.variant, table.stake, table.rule_set_code, table.rule_set_version)
        line = lines.get(key) or TierLine(variant=table.variant, stake=table.stake, rate=table.rate,
                                          rules=table.rules if several else None)
        lines[key] = replace(line, tables=line.tables + 1, wins=line.wins + table.figures.wins,
                             commission=line.commission + table.figures.commission)
    return [lines[key] for key in sorted(lines)]


def rule_sets(tables: list[TableLine]) -> list[tuple[str, int]]:
    """The rule sets (code, version) that scored the day's jogos."""
    return sorted({(table.rule_set_code, table.rule_set_version) for table in tables})


def commission_by_hour(casino: Casino, day: dt.date) -> list[tuple[int, int]]:
    """The commission of the day's won jogos by the Macau clock hour they were played (an amended
    jogo counts at the hour of its first revision), for every hour of the gaming day."""
    rows = (current_jogos_of_day(casino, day).filter(commission__gt=0)
            .annotate(played_at=first_recorded())
            .annotate(hour=ExtractHour("played_at"))
            .values("hour").annotate(commission=Sum("commission")).order_by("hour"))
    amounts = {row["hour"]: row["commission"] for row in rows}
    return [(hour, amounts.get(hour, 0)) for hour in hours_of_the_day()]


def exceptions(casino: Casino, day: dt.date) -> Exceptions:
    """The day's exceptions at the casino, found as the audit's exception queue finds them: how
    many of each kind; the appendix's lines, the jogos behind the kinds it lists (`_WHAT`), by
    table, number and kind; and the records refused during the day, in the order attempted. Only
    the lines the appendix lists read their jogo's record and players (one query more), not the
    thousands a long day may hold."""
    kinds = dict.fromkeys((*APPENDIX_ORDER, "refusal", *COUNTED_KINDS))
    found = find(Scope(Days(day, day), casino), kinds)
    of_kind: dict[str, list[Entry]] = {kind: [] for kind in kinds}
    for entry in found:
        of_kind[entry.kind].append(entry)
    listed = sorted((entry for entry in found if entry.kind in _WHAT),
                    key=lambda entry: (entry.table, entry.number, APPENDIX_ORDER.index(entry.kind)))
    read_facts(listed[:APPENDIX_LIMIT])
    amendments = [entry.facts["amendment"] for entry in of_kind["amendment"]]
    pending = sum(amendment.state == Amendment.PENDING for amendment in amendments)
    return Exceptions(fan_mismatches=len(of_kind["fan_mismatch"]), amendments=len(amendments),
                      amendments_pending=pending, pay_alls=len(of_kind["pay_all"]),
                      false_wins=len(of_kind["false_win"]), capped=len(of_kind["capped"]), flags=len(of_kind["flag"]),
                      refusals=len(of_kind["refusal"]),
                      counted=tuple(KindCount(kind, len(of_kind[kind])) for kind in COUNTED_KINDS),
                      jogos=tuple(AppendixLine(entry.table, entry.number, entry.kind, entry.facts) for entry in listed),
                      refused=tuple(entry.facts["refusal"] for entry in of_kind["refusal"]))


def day_state(casino: Casino, day: dt.date) -> tuple[GamingDay | None, list[DayEvent]]:
    """Whether the day is closed, and every close and reopen, oldest first."""
    events = list(DayEvent.objects.filter(gaming_day__casino=casino, gaming_day__day=day)
                  .select_related("gaming_day", "by").order_by("at", "pk"))
    state = events[-1].gaming_day if events else None
    return state, events


def daily_summary(casino: Casino, day: dt.date) -> DailySummary:
    tables = table_figures(casino, day)
    totals = sum((table.figures for table in tables), DayFigures())
    state, events = day_state(casino, day)
    return DailySummary(casino=casino, day=day, tables=tables, totals=totals, tiers=tier_lines(tables),
                        exceptions=exceptions(casino, day), commission_by_hour=commission_by_hour(casino, day),
                        state=state, events=events, heads=ledger_heads(casino, day),
                        count_heads=count_heads(casino, day),
                        reconciliation=reconciliation(casino, day), mtl=multiple_transaction_log(day, casino))


@dataclass(frozen=True)
class CountHead:
    """The head of one of the day's count chains: a box's, or its case's."""

    table: str
    shift: int
    case: bool  # the box's variance case, not the box
    seq: int
    hash: str


def count_heads(casino: Casino, day: dt.date) -> list[CountHead]:
    """Each of the day's boxes' chain heads, and each of their cases', read from the rows (two
    queries whatever the number of boxes)."""
    boxes = Box.objects.filter(casino=casino, gaming_day=day)
    saved = box_heads(boxes)
    found = [CountHead(e["table"], e["shift"], False, e["seq"], e["hash"]) for e in saved]
    where = {e["box_id"]: (e["table"], e["shift"]) for e in saved}
    if where:
        found += [CountHead(*where[e["box_id"]], True, e["seq"], e["hash"])
                  for e in case_heads(Case.objects.filter(box__in=list(where))) if e["box_id"] in where]
    return sorted(found, key=lambda h: (h.table, h.shift, h.case))


def ledger_heads(casino: Casino, day: dt.date) -> list[Head]:
    """Each of the casino's tables' last ledger row recorded before the gaming day ended: the same
    figures whenever the report is printed, once the day is over."""
    return heads(casino.tables.order_by("number"), before=day_bounds(day)[1])


def default_casino(casinos: QuerySet[Casino] | None = None) -> Casino | None:
    """The casino when there is one (of the database, or of `casinos`, a person's); None when
    there are several, or none. The daily_report command, which has no person, names a casino
    with --casino unless the database holds only one."""
    found = list((Casino.objects.all() if casinos is None else casinos).order_by("pk")[:2])
    return found[0] if len(found) == 1 else None
