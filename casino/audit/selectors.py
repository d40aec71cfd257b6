"""What the inspector reads: small selector functions over the pit's ledger. Nothing here
writes; every money figure is re-computed by the engine (`recheck.py`) beside the stored one.

Only a jogo's current revision (its highest) counts for the commission; the amendments that
led to it are in the exception queue.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Max, Min, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KeyTransform
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from casino.pit.chain import row_hash
from casino.pit.models import Amendment, Flag, FlagComment, Game, Jogo, Movement, Player, Refusal, Table, superseded
from casino.pit.days import day_bounds, gaming_day
from casino.reports.selectors import seat_player
from casino.pit.selectors import refusal_problems
from casino.terms.vocabulary import (article_name, fan_item_name, localise, revision_reason, round_name,
                                     rule_set_label)
from regulation.rotation import Progress
from regulation.rules import RuleSet
from regulation.seats import SEATS
from regulation.tiles import tiles_code

from casino.pit.recheck import COLUMNS, Difference, Stored, compare, stored

# --- Gaming days ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Days:
    """A gaming day, or a range of them (both ends included)."""

    first: dt.date
    last: dt.date

    @property
    def single(self) -> bool:
        return self.first == self.last

    def __str__(self) -> str:
        return self.first.isoformat() if self.single else f"{self.first.isoformat()} – {self.last.isoformat()}"

    @property
    def query(self) -> str:
        return f"from={self.first.isoformat()}&to={self.last.isoformat()}"


class BadDays(ValueError):
    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


def parse_days(params) -> Days:
    """`day=YYYY-MM-DD`, or `from=` and `to=` (either alone is one day)."""
    values = {}
    for name in ("day", "from", "to"):
        text = (params.get(name) or "").strip()
        if text:
            try:
                values[name] = dt.date.fromisoformat(text)
            except ValueError:
                raise BadDays(name, _("not a date (YYYY-MM-DD): %(text)s") % {"text": text}) from None
    if "day" in values:
        return Days(values["day"], values["day"])
    first, last = values.get("from"), values.get("to")
    if first is None and last is None:
        raise BadDays("day", _("choose a gaming day, or a range from … to …"))
    first, last = first or last, last or first
    if last < first:
        raise BadDays("to", _("the range ends before it starts"))
    return Days(first, last)


def check_page_range(days: Days) -> None:
    """A page re-scores every jogo of its range while the inspector waits. So that no page takes
    more than about 2 s, a range holding more ledger rows than AUDIT_PAGE_MAX_JOGOS is refused
    (BadDays on `to`, or on `day`), pointing to the export and to audit_recompute, which stream."""
    limit = settings.AUDIT_PAGE_MAX_JOGOS
    rows = Jogo.objects.filter(gaming_day__range=(days.first, days.last)).count()
    if rows > limit:
        raise BadDays("day" if days.single else "to", ngettext(
            "these gaming days hold %(rows)s jogo, more than a page re-checks at once (%(limit)s): choose fewer "
            "days, or download the export, which holds them all",
            "these gaming days hold %(rows)s jogos, more than a page re-checks at once (%(limit)s): choose fewer "
            "days, or download the export, which holds them all", rows) % {"rows": rows, "limit": limit})


# --- The current revisions -----------------------------------------------------------------------


def current_revisions(days: Days) -> QuerySet[Jogo]:
    """The jogos of the gaming days, each at its current (highest) revision, in ledger order."""
    return (Jogo.objects.filter(gaming_day__range=(days.first, days.last))
            .filter(~superseded()).order_by("table__casino__name", "table__number", "number"))


@dataclass(frozen=True)
class Checked:
    """A current jogo, its table, and what the engine says of it."""

    row: Stored
    table_id: int
    table: str
    variant: str
    stake: int
    gaming_day: dt.date
    kind: str
    seq: int
    hash: str
    commission_due: int  # Art. 8 as the engine gives it for the record
    won: bool  # a valid won jogo, by the engine
    differences: list[Difference]
    rules: RuleSet | None  # the rule set that scored it; None when the engine knows it not


def checked(days: Days) -> Iterator[Checked]:
    """Every current jogo of the days, re-scored by the engine."""
    rows = current_revisions(days).values_list(*COLUMNS, "table_id", "table__number", "table__variant",
                                               "table__stake", "gaming_day", "kind", "seq", "hash")
    size = len(COLUMNS)
    for values in rows.iterator(chunk_size=2000):
        row = Stored(*values[:size])
        table_id, table, variant, stake, day, kind, seq, hash_ = values[size:]
        result, found = compare(row)
        won = result is not None and result.valid and result.jogo.result == "win"
        yield Checked(row, table_id, table, variant, stake, day, kind, seq, hash_,
                      result.settlement.commission if result is not None else 0, won,
                      [Difference(table, row.game_id, row.number, row.revision, row.id, *item) for item in found],
                      _rules_of(row))


def _rules_of(row: Stored) -> RuleSet | None:
    try:
        return row.rules
    except LookupError:
        return None


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
        return f"{self.stake}/{2 * self.stake}" if self.stake else ""

    rules: RuleSet | None = None  # the rule set that scored the line's jogos

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


def commission_audit(days: Days) -> CommissionAudit:
    """Per table and per tier, each under the rule set that scored its jogos (a table that changed
    rule set in the days has a line for each): won jogos and commission, recorded and
    re-computed, and every difference between a current jogo's stored figures and the engine's."""
    tables: dict[tuple, CommissionLine] = {}
    tiers: dict[tuple, CommissionLine] = {}
    total = CommissionLine(_("All tables"))
    found: list[Difference] = []
    for item in checked(days):
        rule_set = (item.row.rule_set_code, item.row.rule_set_version)
        line = tables.get((item.table_id, *rule_set))
        if line is None:
            line = tables[item.table_id, *rule_set] = CommissionLine(item.table, item.variant, item.stake,
                                                                     rules=item.rules)
        tier = tiers.get((*rule_set, item.variant, item.stake))
        if tier is None:
            tier = tiers[(*rule_set, item.variant, item.stake)] = CommissionLine("", item.variant, item.stake,
                                                                                 rules=item.rules)
        for target in (line, tier, total):
            target.add(item)
        found += item.differences
    ordered_tiers = [tiers[key] for key in sorted(tiers)]
    return CommissionAudit(days, list(tables.values()), ordered_tiers, total, found)


# --- Exception queue -----------------------------------------------------------------------------

KINDS = {
    "fan_mismatch": gettext_lazy("declared grade differs from the computed one"),
    "amendment": gettext_lazy("amendment"),
    "pay_all": gettext_lazy("pay-all"),
    "false_win": gettext_lazy("false win"),
    "capped": gettext_lazy("capital cap bound"),
    "sequence_gap": gettext_lazy("sequence gap"),
    "rotation": gettext_lazy("rotation anomaly"),
    "flag": gettext_lazy("inspector's flag"),
    "difference": gettext_lazy("differs from the engine"),
    "refusal": gettext_lazy("refused record"),
}
ARTICLES = {"fan_mismatch": "6", "amendment": "", "pay_all": "10", "false_win": "10(a)(7)–(8), 10(b)(3)",
            "capped": "9(a)(4), 9(b)(3)", "sequence_gap": "", "rotation": "3", "flag": "", "difference": "",
            "refusal": ""}


@dataclass(frozen=True)
class Entry:
    """One line of the exception queue, linking to a jogo (`jogo_id`)."""

    kind: str
    table: str
    number: int | None
    revision: int
    jogo_id: int | None
    gaming_day: dt.date | None
    detail: str
    open: bool = False  # an inspector's flag nobody has resolved yet

    @property
    def kind_label(self) -> str:
        return str(KINDS[self.kind])

    @property
    def article(self) -> str:
        return ARTICLES[self.kind]


def exceptions(days: Days, kind: str | None = None) -> list[Entry]:
    """The exception queue of the days: every kind, or one."""
    wanted = [kind] if kind else list(KINDS)
    entries: list[Entry] = []
    games = _Games(days)  # read once for the two kinds that replay whole games
    for name in wanted:
        entries += _FINDERS[name](games) if name in _REPLAYS else _FINDERS[name](days)
    return sorted(entries, key=lambda e: (e.gaming_day or dt.date.min, e.table, e.number or 0, e.kind))


def count_by_kind(entries: list[Entry]) -> list[tuple[str, str, int]]:
    """(kind, its label, how many entries) for every kind, in the queue's order of kinds."""
    counts = defaultdict(int)
    for entry in entries:
        counts[entry.kind] += 1
    return [(name, str(label), counts[name]) for name, label in KINDS.items()]


def _entry(kind: str, row: Jogo, detail: str) -> Entry:
    return Entry(kind, row.table.number, row.number, row.revision, row.pk, row.gaming_day, detail)


def _current_with(days: Days, **filters) -> QuerySet[Jogo]:
    return current_revisions(days).filter(**filters).select_related("table")


def _with_players(rows: QuerySet[Jogo]) -> QuerySet[Jogo]:
    return rows.select_related("game").prefetch_related("game__players")


def _player(row: Jogo, seat: str | None) -> str:
    """The seat wind and the player who sat there in this jogo: "West · Mr Lei"."""
    if not seat:
        return "?"
    return seat_player(seat, row.banker_chair, {p.chair: p.name for p in row.game.players.all()})


def _fan_mismatches(days: Days) -> list[Entry]:
    return [_entry("fan_mismatch", row, _("declared %(declared)s fán, computed %(computed)s") % {
        "declared": _none(row.declared_fan), "computed": _none(row.fan)})
        for row in _current_with(days, fan_mismatch=True)]


def _pay_alls(days: Days) -> list[Entry]:
    entries = []
    for row in _with_players(_current_with(days, pay_all=True)):
        pay_all = row.record.get("pay_all") or {}
        entries.append(_entry("pay_all", row, _("%(article)s: %(player)s pays for the losers") % {
            "article": article_name(pay_all.get("article") or "10"), "player": _player(row, pay_all.get("seat"))}))
    return entries


def _false_wins(days: Days) -> list[Entry]:
    entries = []
    for row in _with_players(_current_with(days, result="false_win")):
        offender = (row.record.get("false_win") or {}).get("seat")
        entries.append(_entry("false_win", row, _("%(player)s declared a win without a valid hand (jogo nulo)") % {
            "player": _player(row, offender)}))
    return entries


def _capped(days: Days) -> list[Entry]:
    entries = []
    for row in _with_players(_current_with(days, capped=True)):
        winner = row.record.get("winner")
        entries.append(_entry("capped", row, _("the winner, %(player)s, receives at most his capital at stake, "
                                               "%(cap)s") % {"player": _player(row, winner),
                                                             "cap": row.record["capital"].get(winner)}))
    return entries


def _amendments(days: Days) -> list[Entry]:
    entries = []
    for amendment in (Amendment.objects.filter(jogo__gaming_day__range=(days.first, days.last))
                      .select_related("jogo__table", "proposed_by", "decided_by").order_by("proposed_at")):
        row = amendment.jogo
        detail = _("%(state)s: proposed by %(maker)s, %(decision)s; reason: %(reason)s") % {
            "state": amendment.get_state_display(), "maker": amendment.proposed_by.get_username(),
            "decision": (_("decided by %(checker)s") % {"checker": amendment.decided_by.get_username()})
            if amendment.decided_by else _("not yet decided"),
            "reason": revision_reason(amendment.reason)}
        entries.append(Entry("amendment", row.table.number, row.number, row.revision,
                             amendment.revision_id or row.pk, row.gaming_day, detail))
    return entries


def _flags(days: Days) -> list[Entry]:
    rows = {(row.table_id, row.number): row for row in _current_with(days)
            .filter(table__in=Flag.objects.values("table"))
            .only("id", "table__number", "number", "revision", "gaming_day")}
    entries = []
    for flag in Flag.objects.filter(table__in={key[0] for key in rows}).select_related("raised_by", "resolved_by"):
        row = rows.get((flag.table_id, flag.number))
        if row is not None:
            state = (_("open") if flag.is_open else _("resolved by %(who)s: %(resolution)s") % {
                "who": flag.resolved_by.get_username(), "resolution": flag.resolution})
            entries.append(Entry("flag", row.table.number, row.number, row.revision, row.pk, row.gaming_day,
                                 _("%(who)s: %(note)s (%(state)s)") % {
                                     "who": flag.raised_by.get_username(), "note": flag.note, "state": state},
                                 open=flag.is_open))
    return entries


def _refusals(days: Days) -> list[Entry]:
    """Records the pit refused during the days: kept, never in the ledger; each with the second
    person's confirmation, or that it has none yet."""
    start, end = day_bounds(days.first)[0], day_bounds(days.last)[1]
    entries = []
    for refusal in (Refusal.objects.filter(attempted_at__gte=start, attempted_at__lt=end)
                    .select_related("table", "attempted_by", "confirmation__confirmed_by").order_by("attempted_at")):
        reasons = "; ".join(localise(problem) for problem in refusal_problems(refusal))
        confirmation = getattr(refusal, "confirmation", None)
        state = (_("confirmed by %(who)s: %(note)s") % {"who": confirmation.confirmed_by.get_username(),
                                                        "note": confirmation.note}
                 if confirmation else _("not yet confirmed"))
        entries.append(Entry("refusal", refusal.table.number, None, 0, None, gaming_day(refusal.attempted_at),
                             _("%(time)s, %(who)s: %(reasons)s") % {
                                 "time": timezone.localtime(refusal.attempted_at).strftime("%H:%M"),
                                 "who": refusal.attempted_by.get_username(), "reasons": reasons}
                             + f" ({state})"))
    return entries


# The ledger's columns as the queue names them to people (recheck.py compares them by name).
FIELD_LABELS = {
    "result": gettext_lazy("result"), "round_wind": gettext_lazy("round wind"),
    "winner_chair": gettext_lazy("winner's chair"), "fan": gettext_lazy("grade (fán)"),
    "declared_fan": gettext_lazy("declared grade"), "fan_mismatch": gettext_lazy("declared grade differs"),
    "commission": gettext_lazy("commission"), "capped": gettext_lazy("capital cap bound"),
    "pay_all": gettext_lazy("pay-all"), "capital_before": gettext_lazy("capital before, chairs 1–4"),
    "capital_after": gettext_lazy("capital after, chairs 1–4"), "record": gettext_lazy("record"),
    "outcome": gettext_lazy("the engine's stored output"), "rule_set": gettext_lazy("rule set"),
}


def _field_label(name: str) -> str:
    if name.startswith("outcome."):  # one part of the stored output, by its name in JOGO-FORMAT
        return _("the engine's stored output (%(part)s)") % {"part": name.removeprefix("outcome.")}
    return str(FIELD_LABELS.get(name, name))


def _value(value, field: str) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    if field == "winner_chair" and isinstance(value, int):
        return str(value + 1)  # chairs as people count them
    if isinstance(value, list):
        return ", ".join("—" if amount is None else str(amount) for amount in value)
    return str(value)


def _differences(days: Days) -> list[Entry]:
    entries = []
    for item in checked(days):
        if item.differences:
            detail = "; ".join(_("%(field)s recorded %(recorded)s, the engine gives %(recomputed)s") % {
                "field": _field_label(d.field), "recorded": _value(d.recorded, d.field),
                "recomputed": _value(d.recomputed, d.field)} for d in item.differences)
            entries.append(Entry("difference", item.table, item.row.number, item.row.revision, item.row.id,
                                 item.gaming_day, detail))
    return entries


class _Games:
    """The games with a current jogo in the days, each with all its current jogos in order: read
    on first use, once for every kind that needs them. Only plain columns are read (no record),
    and of the outcome only whether the bank moved after the jogo."""

    def __init__(self, days: Days):
        self.days = days
        self._by_game: dict[int, list[Jogo]] | None = None

    @property
    def by_game(self) -> dict[int, list[Jogo]]:
        if self._by_game is None:
            days = self.days
            games = Jogo.objects.filter(gaming_day__range=(days.first, days.last)).values("game")
            rows = (Jogo.objects.filter(game__in=games).filter(~superseded()).select_related("table")
                    .only("id", "table__number", "game", "number", "position", "revision", "banker_chair",
                          "round_wind", "result", "winner_chair", "gaming_day")
                    .annotate(banker_moves=KeyTransform("banker_moves", KeyTransform("next", "outcome")))
                    .order_by("game", "position"))
            self._by_game = defaultdict(list)
            for row in rows:
                self._by_game[row.game_id].append(row)
        return self._by_game


def _in(days: Days, row: Jogo) -> bool:
    return days.first <= row.gaming_day <= days.last


def _rotation(games: _Games) -> list[Entry]:
    """Replay each game's current revisions (Art. 3): I-1 the bank moves when the engine's
    outcome says so (under the jogo's rule set; by default only when a non-banker wins); I-2
    the round wind advances when the bank returns to the first banker."""
    days, by_game = games.days, games.by_game
    chairs: dict[int, list[int]] = defaultdict(list)
    names: dict[int, dict[int, str]] = defaultdict(dict)
    for game_id, chair, name in Player.objects.filter(game__in=by_game).values_list("game", "chair", "name"):
        chairs[game_id].append(chair)
        names[game_id][chair] = name
    first_bankers = dict(Game.objects.filter(pk__in=by_game).values_list("pk", "first_banker"))
    entries = []
    for game_id, rows in by_game.items():
        state = Progress.start(chairs=chairs[game_id], banker=first_bankers[game_id])
        for row in rows:
            problems = []
            if state.complete:
                problems.append(_("played after the North round ended the game (I-2)"))
            else:
                if row.banker_chair != state.banker:
                    problems.append(_("banker %(recorded)s in chair %(recorded_chair)s; the game's progress gives "
                                      "%(expected)s in chair %(expected_chair)s (I-1)") % {
                        "recorded": names[game_id].get(row.banker_chair, "?"), "recorded_chair": row.banker_chair + 1,
                        "expected": names[game_id].get(state.banker, "?"), "expected_chair": state.banker + 1})
                if row.round_wind != state.round_wind:
                    problems.append(_("played in the %(recorded)s; the game's progress gives the %(expected)s "
                                      "(I-2)") % {"recorded": round_name(row.round_wind),
                                                  "expected": round_name(state.round_wind)})
            if problems and _in(days, row):
                entries.append(_entry("rotation", row, "; ".join(problems)))
            if not state.complete:  # I-1, as the engine said when it scored the jogo (its outcome's "next")
                state = state.after(banker_moves=bool(row.banker_moves))
    return entries


def _missing(present: set[int], low: int, high: int) -> list[tuple[int, int]]:
    """The runs of integers in low..high that are not in `present`."""
    runs, start = [], None
    for value in range(low, high + 1):
        if value in present:
            if start is not None:
                runs.append((start, value - 1))
                start = None
        elif start is None:
            start = value
    if start is not None:
        runs.append((start, high))
    return runs


def _run(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def _sequence_gaps(games: _Games) -> list[Entry]:
    """Jogos of a game not numbered 1..n in play order; table jogo numbers and ledger seq
    (jogos and movements together) with a hole in or at the edges of the days."""
    days, entries = games.days, []
    for rows in games.by_game.values():
        positions = [row.position for row in rows]
        for index, row in enumerate(rows):
            expected_number = rows[0].number + index
            if row.position != index + 1 or row.number != expected_number:
                if _in(days, row):
                    entries.append(_entry("sequence_gap", row, _(
                        "place %(position)s, jogo %(number)s in its game; expected place %(expected_position)s, "
                        "jogo %(expected_number)s (game's places: %(positions)s)") % {
                        "position": row.position, "number": row.number, "expected_position": index + 1,
                        "expected_number": expected_number, "positions": ", ".join(map(str, positions))}))
                break
    span = (days.first, days.last)
    tables = Table.objects.filter(pk__in=Jogo.objects.filter(gaming_day__range=span).values("table"))
    for table in tables:
        jogos = Jogo.objects.filter(table=table)
        movements = Movement.objects.filter(table=table)
        numbers = set(jogos.filter(gaming_day__range=span).values_list("number", flat=True))
        before = jogos.filter(gaming_day__lt=days.first).aggregate(n=Max("number"))["n"] or 0
        after = jogos.filter(gaming_day__gt=days.last).aggregate(n=Min("number"))["n"] or table.jogos_recorded + 1
        seqs = set(jogos.filter(gaming_day__range=span).values_list("seq", flat=True))
        seqs |= set(movements.filter(gaming_day__range=span).values_list("seq", flat=True))
        seq_before = max(jogos.filter(gaming_day__lt=days.first).aggregate(n=Max("seq"))["n"] or 0,
                         movements.filter(gaming_day__lt=days.first).aggregate(n=Max("seq"))["n"] or 0)
        seq_after = min(jogos.filter(gaming_day__gt=days.last).aggregate(n=Min("seq"))["n"] or table.ledger_seq + 1,
                        movements.filter(gaming_day__gt=days.last).aggregate(n=Min("seq"))["n"] or table.ledger_seq + 1)
        for first, last in _missing(numbers, before + 1, max(numbers | {after - 1})):
            row = jogos.filter(number__gt=last).select_related("table").order_by("number", "-revision").first() \
                or jogos.filter(number__lt=first).select_related("table").order_by("-number", "-revision").first()
            entries.append(Entry("sequence_gap", table.number, row.number if row else None, row.revision if row else 0,
                                 row.pk if row else None, row.gaming_day if row else days.first,
                                 _("the table's jogo number %(missing)s is missing") % {"missing": _run(first, last)}))
        for first, last in _missing(seqs, seq_before + 1, max(seqs | {seq_after - 1})):
            row = jogos.filter(seq__gt=last).select_related("table").order_by("seq").first() \
                or jogos.filter(seq__lt=first).select_related("table").order_by("-seq").first()
            entries.append(Entry("sequence_gap", table.number, row.number if row else None, row.revision if row else 0,
                                 row.pk if row else None, row.gaming_day if row else days.first,
                                 _("ledger seq %(missing)s is missing from the table's chain") % {
                                     "missing": _run(first, last)}))
    return entries


def _none(value) -> str:
    return "—" if value is None else str(value)


_FINDERS = {"fan_mismatch": _fan_mismatches, "amendment": _amendments, "pay_all": _pay_alls,
            "false_win": _false_wins, "capped": _capped, "sequence_gap": _sequence_gaps, "rotation": _rotation,
            "flag": _flags, "difference": _differences, "refusal": _refusals}
_REPLAYS = {"sequence_gap", "rotation"}


# --- Inspectors' flags ---------------------------------------------------------------------------


def flags_with_jogo() -> QuerySet[Flag]:
    """Flags with their people, their table, how many comments, and the current revision of the
    flagged jogo (`jogo_id`, `gaming_day`) for the link to it."""
    current = Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number")).order_by("-revision")
    return (Flag.objects.select_related("table", "raised_by", "resolved_by")
            .annotate(jogo_id=Subquery(current.values("pk")[:1]), gaming_day=Subquery(current.values("gaming_day")[:1]),
                      comment_count=Count("comments")))


def open_flag_count() -> int:
    """Flags nobody has resolved yet, of every day."""
    return Flag.objects.filter(resolved_at__isnull=True).count()


def flag_list(*, resolved: bool = False) -> list[Flag]:
    """The open flags, oldest first (the queue to work through); or the resolved ones, latest first."""
    if resolved:
        return list(flags_with_jogo().filter(resolved_at__isnull=False).order_by("-resolved_at"))
    return list(flags_with_jogo().filter(resolved_at__isnull=True).order_by("raised_at"))


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
    decided: list  # readings.Decided: the readings whose other alternative would change its outcome


def explain(jogo: Jogo) -> Explanation:
    """Everything an inspector needs to follow one jogo from its record to the money, and the
    readings of the regulation that decided it, with the outcome under the other reading."""
    import json

    from .readings import decisions

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
    players = {p.chair: p.name for p in jogo.game.players.all()}
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
    rules = _rules_of(stored(jogo))
    return Explanation(jogo, revisions[-1], json.dumps(jogo.record, indent=2, ensure_ascii=False), result, found,
                       sets, pair, items, raw, rules.max_fan[variant] if rules else None, chairs, payments, revisions,
                       amendments, flags, row_hash(jogo) == jogo.hash, rules, decisions(result, rules))
