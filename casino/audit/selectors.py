"""What the inspector reads: small selector functions over the pit's ledger (read through
`ledger.py`). Nothing here writes; every money figure is re-computed by the engine
(`casino.pit.recheck`) beside the stored one.

Only a jogo's current revision (its highest) counts for the commission; the amendments that
led to it are in the exception queue (`exceptions.py`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.db.models import Count, QuerySet, Subquery
from django.utils.translation import gettext as _

from casino.pit.chain import row_hash
from casino.pit.models import Amendment, Flag, FlagComment, Jogo
from casino.pit.recheck import Difference, compare, stored
from casino.terms.vocabulary import fan_item_name, rule_set_label, tier_label
from regulation.rules import RuleSet
from regulation.seats import SEATS
from regulation.tiles import tiles_code

from .ledger import Casinos, Checked, Days, checked, flagged_jogo, in_casinos, rules_of
from .readings import Decided, decisions

# --- Commission audit (Art. 8) -------------------------------------------------------------------


@dataclass
class CommissionLine:
    """Won jogos and commission at one table (or a tier, or all): as recorded and as the
    regulation gives them (Art. 8: a fixed commission per won jogo by tier, I-8)."""

    label: str
    variant: str = ""
    stake: int = 0
    won_recorded: int = 0
    commission_recorded: int = 0
    won_due: int = 0
    commission_due: int = 0
    jogos: int = 0

    @property
    def tier(self) -> str:
        return tier_label(self.stake)

    rules: RuleSet | None = None  # the rule set that scored the line's jogos
    table_id: int | None = None  # a table's line: its trend page is linked

    @property
    def rate(self) -> int | None:
        """The commission per won jogo at this tier (Art. 8), under the line's rule set."""
        if not self.stake or self.rules is None:
            return None
        return self.rules.commission[self.variant].get(self.stake)

    @property
    def rule_set(self) -> str:
        return rule_set_label(self.rules.code, self.rules.version) if self.rules else ""

    @property
    def difference(self) -> int:
        return self.commission_recorded - self.commission_due

    def add(self, item: Checked) -> None:
        self.jogos += 1
        self.won_recorded += item.row.result == "win"
        self.commission_recorded += item.row.commission
        self.won_due += item.won
        self.commission_due += item.commission_due


@dataclass
class CommissionAudit:
    days: Days
    tables: list[CommissionLine]
    tiers: list[CommissionLine]
    total: CommissionLine
    differences: list[Difference] = field(default_factory=list)


def commission_audit(days: Days, *, casinos: Casinos = None) -> CommissionAudit:
    """Per table and per tier, each under the rule set that scored its jogos (a table that changed
    rule set in the days has a line for each): won jogos and commission, recorded and
    re-computed, and every difference between a current jogo's stored figures and the engine's.
    At the tables of `casinos` (a person's; every casino's when None)."""
    tables: dict[tuple, CommissionLine] = {}
    tiers: dict[tuple, CommissionLine] = {}
    total = CommissionLine(_("All tables"))
    found: list[Difference] = []
    for item in checked(days, casinos=casinos):
        rule_set = (item.row.rule_set_code, item.row.rule_set_version)
        line = tables.get((item.table_id, *rule_set))
        if line is None:
            line = tables[item.table_id, *rule_set] = CommissionLine(item.table, item.variant, item.stake,
                                                                     rules=item.rules, table_id=item.table_id)
        tier = tiers.get((*rule_set, item.variant, item.stake))
        if tier is None:
            tier = tiers[(*rule_set, item.variant, item.stake)] = CommissionLine("", item.variant, item.stake,
                                                                                 rules=item.rules)
        for target in (line, tier, total):
            target.add(item)
        found += item.differences
    ordered_tiers = [tiers[key] for key in sorted(tiers)]
    return CommissionAudit(days, list(tables.values()), ordered_tiers, total, found)


# --- Inspectors' flags ---------------------------------------------------------------------------


def flags_with_jogo(casinos: Casinos = None) -> QuerySet[Flag]:
    """Flags at the tables of `casinos` (a person's; every casino's when None) with their people,
    their table, how many comments, and the current revision of the flagged jogo (`jogo_id`,
    `gaming_day`) for the link to it."""
    return (in_casinos(Flag.objects.all(), casinos).select_related("table", "raised_by", "resolved_by")
            .annotate(jogo_id=Subquery(flagged_jogo().values("pk")[:1]),
                      gaming_day=Subquery(flagged_jogo().values("gaming_day")[:1]), comment_count=Count("comments")))


def open_flag_count(casinos: Casinos = None) -> int:
    """Flags nobody has resolved yet, of every day, at the tables of `casinos`."""
    return in_casinos(Flag.objects.filter(resolved_at__isnull=True), casinos).count()


def flag_list(*, resolved: bool = False, casinos: Casinos = None) -> list[Flag]:
    """The open flags at the tables of `casinos`, oldest first (the queue to work through); or the
    resolved ones, latest first."""
    if resolved:
        return list(flags_with_jogo(casinos).filter(resolved_at__isnull=False).order_by("-resolved_at"))
    return list(flags_with_jogo(casinos).filter(resolved_at__isnull=True).order_by("raised_at"))


@dataclass(frozen=True)
class FlagThread:
    flag: Flag
    comments: list[FlagComment]


def flag_thread(flag: Flag) -> FlagThread:
    """A flag and its comments, oldest first."""
    return FlagThread(flag, list(flag.comments.select_related("written_by").order_by("written_at", "pk")))


# --- A jogo explained ----------------------------------------------------------------------------


@dataclass
class Explanation:
    jogo: Jogo
    current: Jogo
    record_json: str
    result: object  # regulation.Result, None when the record cannot be read
    differences: list[tuple[str, object, object]]
    sets: list[dict]
    pair: str | None
    items: list[dict]
    raw_fan: int | None
    max_fan: int | None
    chairs: list[dict]
    payments: list[dict]
    revisions: list[Jogo]
    amendments: list[Amendment]
    flags: list[Flag]
    hash_intact: bool
    rules: RuleSet | None  # the rule set that scored the jogo; None when the engine knows it not
    decided: list[Decided]  # the readings whose other alternative would change its outcome


def explain(jogo: Jogo) -> Explanation:
    """Everything an inspector needs to follow one jogo from its record to the money, and the
    readings of the regulation that decided it, with the outcome under the other reading."""
    result, found = compare(stored(jogo))
    sets, pair, items, raw = [], None, [], None
    if result is not None and result.grade is not None:
        shape = result.grade.shape
        for tile_set in shape.sets:
            tiles = ((tile_set.tile, tile_set.tile + 1, tile_set.tile + 2) if tile_set.kind == "chow"
                     else (tile_set.tile,) * (4 if tile_set.kind == "kong" else 3))
            sets.append({"kind": tile_set.kind, "tiles": tiles_code(tiles), "exposed": tile_set.exposed,
                         "declared": tile_set.declared})
        pair = tiles_code((shape.pair, shape.pair))  # thirteen orphans: its duplicated tile
        for item in result.grade.items:  # named as the pit names them (casino.terms.vocabulary)
            items.append({"code": item.code, "fan": item.fan, "article": item.article,
                          "name": fan_item_name(item.code)})
        raw = result.grade.raw
    progress = jogo.progress
    players = {p.chair: p.name for p in jogo.game.players.select_related("patron")}
    net = result.settlement.net if result is not None else {}
    dues = result.settlement.dues if result is not None else {}
    chairs = []
    for chair in range(4):
        before = jogo.capital_before[chair]
        if before is None:
            continue
        seat = progress.seat_of(chair)
        chairs.append({"chair": chair, "seat": seat, "player": players.get(chair, ""), "before": before,
                       "net": net.get(seat, 0), "due": dues.get(seat), "after": jogo.capital_after[chair]})
    chairs.sort(key=lambda c: SEATS.index(c["seat"]))
    payments = [{"from": p.payer, "to": p.payee, "amount": p.amount}
                for p in (result.settlement.payments if result is not None else ())]
    revisions = list(Jogo.objects.filter(table=jogo.table_id, number=jogo.number)
                     .select_related("recorded_by", "approved_by").order_by("revision"))
    amendments = list(Amendment.objects.filter(jogo__in=revisions)
                      .select_related("proposed_by", "decided_by", "jogo", "revision").order_by("proposed_at"))
    flags = list(Flag.objects.filter(table=jogo.table_id, number=jogo.number)
                 .select_related("raised_by", "resolved_by").annotate(comment_count=Count("comments")))
    variant = jogo.table.variant
    rules = rules_of(stored(jogo))
    return Explanation(jogo, revisions[-1], json.dumps(jogo.record, indent=2, ensure_ascii=False), result, found,
                       sets, pair, items, raw, rules.max_fan[variant] if rules else None, chairs, payments, revisions,
                       amendments, flags, row_hash(jogo) == jogo.hash, rules, decisions(result, rules))
