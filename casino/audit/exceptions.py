"""The exception kinds of a gaming day, each found one way: what the audit's exception queue lists,
and what the daily report counts and lists in its appendix.

A kind is one entry of `KINDS`: its code, the article of the Portaria it concerns, how it is
found and how the queue describes one. Its name in people's words is
`casino.terms.vocabulary.exception_kind_name`. A kind is found in one of two ways:

- **a mark on the jogo's row** (`marked`, a filter on the ledger's columns, which the pit sets
  when it records the jogo): a current revision that bears it is one. The marked kinds are
  found together, in one query, whatever their number;
- **a finder of its own** (`find`), for what is not a mark: an amendment, a flag, a refused
  record, a replay of the games (rotation, sequence gaps), a re-score by the engine, a seat's
  capital after a jogo, a player's cash over the day.

A kind names the control it comes from (`control`, one of the floor's controls, worded by
`casino.terms.vocabulary.alert_control_name`): an alert of the floor and the exception it leaves
name the same control.

A finder reads what says which jogos, amendments, flags or refusals are exceptions. The facts a
marked jogo's words are made from (its record, banker and players) are read afterwards,
together, and only for the entries shown (`read_facts`): the daily report lists its first
hundred, not the thousands a long day may hold.
"""
from __future__ import annotations

import datetime as dt
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, reduce

from django.db.models import BooleanField, ExpressionWrapper, F, Max, Min, Q, QuerySet, Subquery
from django.db.models.fields.json import KeyTransform
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.pit import cash
from casino.pit.capital import minimum_capital
from casino.pit.days import day_bounds, gaming_day
from casino.pit.models import (
    Amendment,
    Casino,
    Flag,
    Game,
    Jogo,
    Movement,
    MovementRefusal,
    Patron,
    Player,
    Refusal,
    Table,
    superseded,
)
from casino.pit.selectors import refusal_problems
from casino.terms.vocabulary import (
    alert_control_name,
    article_name,
    exception_kind_name,
    ledger_column_name,
    localise,
    person_name,
    revision_reason,
    round_name,
    seat_player,
)
from regulation.rotation import Progress

from .ledger import Casinos, Days, checked, current_revisions, flagged_jogo, in_casinos
from .mtl import player_name


class Scope:
    """What the finders look at: gaming days, at one casino's tables (the daily report's), at
    those of `casinos` (a person's, on the audit's pages), or at every casino's. The games the
    replaying kinds need are read once, on first use (`games`)."""

    def __init__(self, days: Days, casino: Casino | None = None, *, casinos: Casinos = None):
        self.days = days
        self.casino = casino
        self.casinos = casinos

    def of(self, rows: QuerySet, path: str = "table__casino") -> QuerySet:
        """The rows at the scope's casinos: `path` leads from a row to its casino."""
        rows = in_casinos(rows, self.casinos, path)
        return rows if self.casino is None else rows.filter(**{path: self.casino})

    def rows(self) -> QuerySet[Jogo]:
        """Every ledger row (every revision) of the scope's jogos."""
        return self.of(Jogo.objects.filter(gaming_day__range=(self.days.first, self.days.last)))

    def current(self) -> QuerySet[Jogo]:
        """The scope's jogos at their current revision."""
        return current_revisions(self.days, casino=self.casino, casinos=self.casinos)

    def holds(self, row: Jogo) -> bool:
        return self.days.first <= row.gaming_day <= self.days.last

    @cached_property
    def games(self) -> dict[int, list[Jogo]]:
        """The games with a jogo in the scope, each with all its current jogos in play order (of
        every day: a game may run past the end of a gaming day). Only plain columns are read (no
        record), and of the outcome only whether the bank moved after the jogo."""
        rows = (Jogo.objects.filter(game__in=self.rows().values("game")).filter(~superseded())
                .select_related("table")
                .only("id", "table__number", "game", "number", "position", "revision", "banker_chair",
                      "round_wind", "result", "winner_chair", "gaming_day")
                .annotate(banker_moves=KeyTransform("banker_moves", KeyTransform("next", "outcome")))
                .order_by("game", "position"))
        by_game: dict[int, list[Jogo]] = defaultdict(list)
        for row in rows:
            by_game[row.game_id].append(row)
        return by_game


@dataclass(frozen=True)
class Entry:
    """One exception: its kind, the jogo it concerns (`jogo_id`: None for a refused record, which
    never reached the ledger) and the facts its words are made from, so that they are made when
    read, in the reader's language."""

    kind: str
    table: str
    number: int | None
    revision: int
    jogo_id: int | None
    gaming_day: dt.date | None
    facts: dict = field(default_factory=dict, compare=False)
    open: bool = False  # an inspector's flag nobody has resolved yet

    @property
    def kind_label(self) -> str:
        return exception_kind_name(self.kind)

    @property
    def article(self) -> str:
        return KINDS[self.kind].article

    @property
    def control(self) -> str:
        """The control the kind comes from, in words ("capital at stake"); "" for a kind without one."""
        return KINDS[self.kind].control_label

    @property
    def detail(self) -> str:
        """The queue's words for it."""
        return KINDS[self.kind].describe(self.facts)


@dataclass(frozen=True)
class Kind:
    """A kind of exception: `marked` (a filter on the ledger's columns) or `find` (its own finder)
    says how it is found, never both."""

    code: str
    describe: Callable[[dict], str]  # the queue's words for one, from its facts
    article: str = ""  # the Portaria's article it concerns, as `article_name` cites it
    control: str = ""  # the control it comes from (a code of the floor's controls); "" for none
    marked: Q | None = None
    find: Callable[[Scope], list[Entry]] | None = None

    def __post_init__(self) -> None:
        if (self.marked is None) == (self.find is None):
            raise ValueError(f"the exception kind {self.code} is found by a mark or by a finder, one of them")

    @property
    def control_label(self) -> str:
        return alert_control_name(self.control) if self.control else ""


# --- How each kind is found ---------------------------------------------------------------------


def _marked(scope: Scope, kinds: list[Kind]) -> list[Entry]:
    """The scope's current jogos that bear the kinds' marks, in ledger order, an entry for each
    mark a jogo bears: one query for all the kinds."""
    if not kinds:
        return []
    bears = {f"marked_{kind.code}": ExpressionWrapper(kind.marked, output_field=BooleanField()) for kind in kinds}
    rows = (scope.current().filter(reduce(operator.or_, (kind.marked for kind in kinds)))
            .annotate(**bears).values("pk", "table__number", "number", "revision", "gaming_day", *bears))
    return [Entry(kind.code, row["table__number"], row["number"], row["revision"], row["pk"], row["gaming_day"])
            for row in rows for kind in kinds if row[f"marked_{kind.code}"]]


def _amendments(scope: Scope) -> list[Entry]:
    """Every amendment proposed to a jogo of the scope, in the order proposed: pending, approved
    (the entry links to the revision it made) or rejected."""
    amendments = scope.of(Amendment.objects.filter(jogo__gaming_day__range=(scope.days.first, scope.days.last)),
                          "jogo__table__casino")
    return [Entry("amendment", amendment.jogo.table.number, amendment.jogo.number, amendment.jogo.revision,
                  amendment.revision_id or amendment.jogo_id, amendment.jogo.gaming_day, {"amendment": amendment})
            for amendment in (amendments.select_related("jogo__table", "proposed_by", "decided_by")
                              .order_by("proposed_at", "pk"))]


def _flags(scope: Scope) -> list[Entry]:
    """Inspectors' flags on the scope's jogos, open or resolved, in the order raised. A flag
    names a table and a jogo number: it links to the jogo's current revision, whose gaming day
    places it."""
    flags = Flag.objects.annotate(jogo_id=Subquery(flagged_jogo().values("pk")[:1]),
                                  jogo_revision=Subquery(flagged_jogo().values("revision")[:1]),
                                  gaming_day=Subquery(flagged_jogo().values("gaming_day")[:1]))
    flags = scope.of(flags.filter(gaming_day__range=(scope.days.first, scope.days.last)))
    return [Entry("flag", flag.table.number, flag.number, flag.jogo_revision, flag.jogo_id, flag.gaming_day,
                  {"flag": flag}, open=flag.is_open)
            for flag in flags.select_related("table", "raised_by", "resolved_by").order_by("raised_at", "pk")]


def _refusals(scope: Scope) -> list[Entry]:
    """Records the pit refused during the days, in the order attempted: kept, never in the
    ledger; each with the second person's confirmation, or that it has none yet."""
    start, end = day_bounds(scope.days.first)[0], day_bounds(scope.days.last)[1]
    refusals = scope.of(Refusal.objects.filter(attempted_at__gte=start, attempted_at__lt=end))
    return [Entry("refusal", refusal.table.number, None, 0, None, gaming_day(refusal.attempted_at),
                  {"refusal": refusal})
            for refusal in (refusals.select_related("table", "attempted_by", "confirmation__confirmed_by")
                            .order_by("attempted_at", "pk"))]


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


def _differences(scope: Scope) -> list[Entry]:
    """The current jogos whose stored figures are not what the engine gives for their record."""
    entries = []
    for item in checked(scope.days, casino=scope.casino, casinos=scope.casinos):
        if item.differences:
            detail = "; ".join(_("%(field)s recorded %(recorded)s, the engine gives %(recomputed)s") % {
                "field": ledger_column_name(d.field), "recorded": _value(d.recorded, d.field),
                "recomputed": _value(d.recomputed, d.field)} for d in item.differences)
            entries.append(Entry("difference", item.table, item.row.number, item.row.revision, item.row.id,
                                 item.gaming_day, {"detail": detail}))
    return entries


def _replayed(kind: str, row: Jogo, detail: str) -> Entry:
    return Entry(kind, row.table.number, row.number, row.revision, row.pk, row.gaming_day, {"detail": detail})


def _rotation(scope: Scope) -> list[Entry]:
    """Replay each game's current revisions (Art. 3): I-1 the bank moves when the engine's
    outcome says so (under the jogo's rule set; by default only when a non-banker wins); I-2
    the round wind advances when the bank returns to the first banker."""
    by_game = scope.games
    chairs: dict[int, list[int]] = defaultdict(list)
    names: dict[int, dict[int, str]] = defaultdict(dict)
    for game_id, chair, name in Player.objects.filter(game__in=by_game).values_list("game", "chair", "patron__name"):
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
            if problems and scope.holds(row):
                entries.append(_replayed("rotation", row, "; ".join(problems)))
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


def _sequence_gaps(scope: Scope) -> list[Entry]:
    """Jogos of a game not numbered 1..n in play order; table jogo numbers and ledger seq
    (jogos and movements together) with a hole in or at the edges of the days."""
    days, entries = scope.days, []
    for rows in scope.games.values():
        positions = [row.position for row in rows]
        for index, row in enumerate(rows):
            expected_number = rows[0].number + index
            if row.position != index + 1 or row.number != expected_number:
                if scope.holds(row):
                    entries.append(_replayed("sequence_gap", row, _(
                        "place %(position)s, jogo %(number)s in its game; expected place %(expected_position)s, "
                        "jogo %(expected_number)s (game's places: %(positions)s)") % {
                        "position": row.position, "number": row.number, "expected_position": index + 1,
                        "expected_number": expected_number, "positions": ", ".join(map(str, positions))}))
                break
    span = (days.first, days.last)
    for table in Table.objects.filter(pk__in=scope.rows().values("table")):
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
                                 {"detail": _("the table's jogo number %(missing)s is missing") % {
                                     "missing": _run(first, last)}}))
        for first, last in _missing(seqs, seq_before + 1, max(seqs | {seq_after - 1})):
            row = jogos.filter(seq__gt=last).select_related("table").order_by("seq").first() \
                or jogos.filter(seq__lt=first).select_related("table").order_by("-seq").first()
            entries.append(Entry("sequence_gap", table.number, row.number if row else None, row.revision if row else 0,
                                 row.pk if row else None, row.gaming_day if row else days.first,
                                 {"detail": _("ledger seq %(missing)s is missing from the table's chain") % {
                                     "missing": _run(first, last)}}))
    return entries


def _names(game_ids) -> dict[int, dict[int, str]]:
    """The players' names of the games, by game and chair (0–3): one query."""
    names: dict[int, dict[int, str]] = defaultdict(dict)
    seats = Player.objects.filter(game__in=game_ids).values_list("game", "chair", "patron__name")
    for game_id, chair, name in seats:
        names[game_id][chair] = name
    return names


def _capital(scope: Scope) -> list[Entry]:
    """C-1 after each current jogo of the scope: the seats its settlement left below zero (a
    `capital_below_zero` entry) and those left below the table's minimum for as many players
    (`capital_below_minimum`), each seat with its chair, capital, the minimum and the player. A
    seat below zero is an entry of that kind only. Two queries."""
    rows = list(scope.current().select_related("table").only(
        "id", "number", "revision", "gaming_day", "game", "capital_after", "rule_set_code", "rule_set_version",
        "table__number", "table__variant", "table__stake"))
    minimums: dict[tuple[int, int, str, int], int] = {}
    short: list[tuple[Jogo, str, list[dict]]] = []
    for row in rows:
        seated = [(chair, amount) for chair, amount in enumerate(row.capital_after) if amount is not None]
        key = (row.table_id, len(seated), row.rule_set_code, row.rule_set_version)
        if key not in minimums:  # under the rule set that scored the jogo, as the audit judges it
            minimums[key] = minimum_capital(row.table, len(seated), row.rules)
        minimum = minimums[key]
        below = {"capital_below_zero": [], "capital_below_minimum": []}
        for chair, amount in seated:
            if amount < 0:
                below["capital_below_zero"].append((chair, amount))
            elif amount < minimum:
                below["capital_below_minimum"].append((chair, amount))
        short += [(row, kind, [{"chair": chair, "capital": amount, "minimum": minimum} for chair, amount in seats])
                  for kind, seats in below.items() if seats]
    names = _names({row.game_id for row, __, __ in short})
    return [Entry(kind, row.table.number, row.number, row.revision, row.pk, row.gaming_day,
                  {"seats": [{**seat, "player": names[row.game_id].get(seat["chair"], "")} for seat in seats]})
            for row, kind, seats in short]


def _large_transactions(scope: Scope) -> list[Entry]:
    """Casino rule C-2 (DICJ Instruction n.º 1/2016): each movement of the days that brought its
    player's total of its direction over the gaming day (buy-ins, or cash-outs, at every table) to
    the threshold or beyond, in the order recorded; then each movement the pit refused and kept
    because the player was not identified. A player's identification is as it stands now."""
    limit = cash.threshold()
    movements = scope.of(Movement.objects.filter(gaming_day__range=(scope.days.first, scope.days.last),
                                                 patron__isnull=False))
    refused = scope.of(MovementRefusal.objects.filter(gaming_day__range=(scope.days.first, scope.days.last)))
    movements = list(movements.select_related("table", "patron", "recorded_by").order_by("recorded_at", "table_id",
                                                                                          "seq"))
    running = cash.running_totals(movements)
    entries = [Entry("large_transaction", movement.table.number, None, 0, None, movement.gaming_day, {
        "player": player_name(movement.patron), "identified": movement.patron.identified, "kind": movement.kind,
        "amount": movement.amount, "total": running[movement.pk], "threshold": limit,
        "at": movement.recorded_at, "by": movement.recorded_by}) for movement in movements
        if running[movement.pk] >= limit]
    for refusal in refused.select_related("table", "patron", "attempted_by").order_by("attempted_at", "pk"):
        if any(error.get("code") == "identification_needed" for error in refusal.errors):
            entries.append(Entry("large_transaction", refusal.table.number, None, 0, None, refusal.gaming_day, {
                "player": player_name(refusal.patron) if refusal.patron else "", "refusal": refusal}))
    return entries


def _structuring(scope: Scope) -> list[Entry]:
    """Casino rule C-2: a player's movements of one direction over a gaming day, each below the
    threshold, that reach it together (`casino.pit.cash.structuring`), with the tables they were
    made at. Three queries (and one more per casino beyond the first, at several casinos: a
    player is a player of one casino, so each casino's patterns are found apart)."""
    span = (scope.days.first, scope.days.last)
    if scope.casino is None and scope.casinos is not None:
        patterns = [pattern for casino in in_casinos(Casino.objects.order_by("pk"), scope.casinos, "pk")
                    for pattern in cash.structuring(span, casino)]
    else:
        patterns = cash.structuring(span, scope.casino)
    if not patterns:
        return []
    patrons = {patron.pk: patron for patron in Patron.objects.filter(pk__in={p.patron_id for p in patterns})}
    tables: dict[tuple, set[str]] = defaultdict(set)
    for patron, day, kind, table in (Movement.objects.filter(
            patron__in=patrons, gaming_day__range=(scope.days.first, scope.days.last), amount__lt=cash.threshold())
            .values_list("patron", "gaming_day", "kind", "table__number").distinct()):
        tables[(patron, day, kind)].add(table)
    return [Entry("structuring", ", ".join(sorted(tables[(p.patron_id, p.day, p.kind)])), None, 0, None, p.day, {
        "player": player_name(patrons[p.patron_id]), "kind": p.kind, "count": p.count, "total": p.total,
        "largest": p.largest, "threshold": cash.threshold()}) for p in patterns]


def _same_player(name: str) -> str:
    return " ".join(name.split()).casefold()


def _duplicate_players(scope: Scope) -> list[Entry]:
    """Games seated during the days with one player in two chairs: the same player record, or
    two players of the same name (games seated before players were people could; an anonymised
    player's empty name matches nothing). One query."""
    start, end = day_bounds(scope.days.first)[0], day_bounds(scope.days.last)[1]
    players = scope.of(Player.objects.filter(game__started_at__gte=start, game__started_at__lt=end),
                       "game__table__casino")
    by_game: dict[int, list[dict]] = defaultdict(list)
    for row in (players.values("game", "game__table__number", "game__started_at", "chair", "patron",
                               name=F("patron__name")).order_by("game", "chair")):
        by_game[row["game"]].append(row)
    entries = []
    for seats in by_game.values():
        same: dict[object, list[dict]] = defaultdict(list)
        for seat in seats:
            for key in {("patron", seat["patron"]), ("name", _same_player(seat["name"]))}:
                if key[1]:
                    same[key].append(seat)
        twice = {tuple(seat["chair"] for seat in chairs): chairs for chairs in same.values() if len(chairs) > 1}
        for chairs in twice.values():
            first = chairs[0]
            entries.append(Entry("duplicate_player", first["game__table__number"], None, 0, None,
                                 gaming_day(first["game__started_at"]),
                                 {"player": first["name"], "chairs": [seat["chair"] + 1 for seat in chairs]}))
    return entries


# --- How the queue describes each kind ------------------------------------------------------------


def player(facts: dict, seat: str | None) -> str:
    """The seat wind of a marked jogo and the player who sat there: "West · Mr Lei"."""
    return seat_player(seat, banker_chair=facts["banker_chair"], names=facts["names"])


def _none(value) -> str:
    return "—" if value is None else str(value)


def _fan_mismatch(facts: dict) -> str:
    return _("declared %(declared)s fán, computed %(computed)s") % {
        "declared": _none(facts["declared_fan"]), "computed": _none(facts["fan"])}


def _pay_all(facts: dict) -> str:
    pay_all = facts["record"].get("pay_all") or {}
    return _("%(article)s: %(player)s pays for the losers") % {
        "article": article_name(pay_all.get("article") or "10"), "player": player(facts, pay_all.get("seat"))}


def _false_win(facts: dict) -> str:
    offender = (facts["record"].get("false_win") or {}).get("seat")
    return _("%(player)s declared a win without a valid hand (jogo nulo)") % {"player": player(facts, offender)}


def _capped(facts: dict) -> str:
    winner = facts["record"].get("winner")
    return _("the winner, %(player)s, receives at most his capital at stake, %(cap)s") % {
        "player": player(facts, winner), "cap": facts["record"]["capital"].get(winner)}


def _amendment(facts: dict) -> str:
    amendment = facts["amendment"]
    return _("%(state)s: proposed by %(maker)s, %(decision)s; reason: %(reason)s") % {
        "state": amendment.get_state_display(), "maker": person_name(amendment.proposed_by),
        "decision": (_("decided by %(checker)s") % {"checker": person_name(amendment.decided_by)})
        if amendment.decided_by else _("not yet decided"),
        "reason": revision_reason(amendment.reason)}


def _flag(facts: dict) -> str:
    flag = facts["flag"]
    state = (_("open") if flag.is_open else _("resolved by %(who)s: %(resolution)s") % {
        "who": person_name(flag.resolved_by), "resolution": flag.resolution})
    return _("%(who)s: %(note)s (%(state)s)") % {"who": person_name(flag.raised_by), "note": flag.note,
                                                  "state": state}


def _refusal(facts: dict) -> str:
    refusal = facts["refusal"]
    reasons = "; ".join(localise(problem) for problem in refusal_problems(refusal))
    confirmation = getattr(refusal, "confirmation", None)
    state = (_("confirmed by %(who)s: %(note)s") % {"who": person_name(confirmation.confirmed_by),
                                                    "note": confirmation.note}
             if confirmation else _("not yet confirmed"))
    return _("%(time)s, %(who)s: %(reasons)s") % {
        "time": timezone.localtime(refusal.attempted_at).strftime("%H:%M"),
        "who": person_name(refusal.attempted_by), "reasons": reasons} + f" ({state})"


def _short_seats(facts: dict, words: str) -> str:
    return "; ".join(words % {"chair": seat["chair"] + 1, "player": seat["player"] or "—", "capital": seat["capital"],
                              "minimum": seat["minimum"], "missing": seat["minimum"] - seat["capital"]}
                     for seat in facts["seats"])


def _capital_below_minimum(facts: dict) -> str:
    return _short_seats(facts, _("chair %(chair)s, %(player)s: a capital of %(capital)s after the jogo, below the "
                                 "table's minimum of %(minimum)s (casino rule C-1); %(missing)s missing"))


def _capital_below_zero(facts: dict) -> str:
    return _short_seats(facts, _("chair %(chair)s, %(player)s: a capital of %(capital)s after the jogo, below zero "
                                 "(casino rule C-1, minimum %(minimum)s)"))


def _direction(kind: str) -> str:
    """A direction's day total, as the large-transaction control counts it."""
    return _("buy-ins") if kind == Movement.BUY_IN else _("cash-outs")


def _large_transaction(facts: dict) -> str:
    refusal = facts.get("refusal")
    if refusal is not None:
        return _("%(player)s: refused and kept at %(time)s, attempted by %(who)s: %(reasons)s") % {
            "player": facts["player"] or "—", "time": timezone.localtime(refusal.attempted_at).strftime("%H:%M"),
            "who": person_name(refusal.attempted_by),
            "reasons": "; ".join(localise(problem) for problem in refusal_problems(refusal))}
    return _("%(player)s: %(movement)s of %(amount)s at %(time)s (supervisor: %(who)s); the day's %(direction)s "
             "reach %(total)s, at or above the threshold of %(threshold)s (DICJ Instruction n.º 1/2016); "
             "%(identification)s") % {
        "player": facts["player"], "movement": dict(Movement.KINDS)[facts["kind"]], "amount": facts["amount"],
        "time": timezone.localtime(facts["at"]).strftime("%H:%M"), "who": person_name(facts["by"]),
        "direction": _direction(facts["kind"]), "total": facts["total"], "threshold": facts["threshold"],
        "identification": _("identified") if facts["identified"] else _("not identified")}


def _structuring_words(facts: dict) -> str:
    return _("%(player)s: %(count)s %(direction)s, each below the threshold of %(threshold)s (the largest "
             "%(largest)s), total %(total)s over the gaming day (DICJ Instruction n.º 1/2016)") % {
        "player": facts["player"], "count": facts["count"], "direction": _direction(facts["kind"]),
        "threshold": facts["threshold"], "largest": facts["largest"], "total": facts["total"]}


def _duplicate_player(facts: dict) -> str:
    return _("%(player)s is seated in chairs %(chairs)s of one game") % {
        "player": facts["player"] or "—", "chairs": ", ".join(map(str, facts["chairs"]))}


def _grade_not_declared(facts: dict) -> str:
    return _("%(player)s won; the jogo was saved with no declared grade (the engine computed %(fan)s fán)") % {
        "player": player(facts, facts["record"].get("winner")), "fan": _none(facts["fan"])}


def _as_found(facts: dict) -> str:
    """A kind whose finder worked its words out as it found it (a replay, a re-score)."""
    return facts["detail"]


# --- The kinds ----------------------------------------------------------------------------------

# In the queue's order. A new kind is a line here and its name in casino.terms.vocabulary.
KINDS: dict[str, Kind] = {kind.code: kind for kind in (
    Kind("fan_mismatch", article="6", control="declared_grade", marked=Q(fan_mismatch=True), describe=_fan_mismatch),
    Kind("grade_not_declared", article="6", control="declared_grade", marked=Q(result="win", declared_fan=None),
         describe=_grade_not_declared),
    Kind("amendment", control="maker_checker", find=_amendments, describe=_amendment),
    Kind("pay_all", article="10", marked=Q(pay_all=True), describe=_pay_all),
    Kind("false_win", article="10(a)(7)–(8), 10(b)(3)", marked=Q(result="false_win"), describe=_false_win),
    Kind("capped", article="9(a)(4), 9(b)(3)", marked=Q(capped=True), describe=_capped),
    Kind("capital_below_minimum", control="minimum_capital", find=_capital, describe=_capital_below_minimum),
    Kind("capital_below_zero", control="minimum_capital", find=_capital, describe=_capital_below_zero),
    Kind("sequence_gap", control="ledger", find=_sequence_gaps, describe=_as_found),
    Kind("rotation", article="3", find=_rotation, describe=_as_found),
    Kind("duplicate_player", article="3", control="seating", find=_duplicate_players, describe=_duplicate_player),
    Kind("flag", control="inspection", find=_flags, describe=_flag),
    Kind("difference", find=_differences, describe=_as_found),
    Kind("refusal", control="refusals", find=_refusals, describe=_refusal),
    Kind("large_transaction", control="large_transactions", find=_large_transactions, describe=_large_transaction),
    Kind("structuring", control="large_transactions", find=_structuring, describe=_structuring_words),
)}


def find(scope: Scope, kinds: Iterable[str] = KINDS) -> list[Entry]:
    """The scope's exceptions of the kinds named (every kind by default): the marked jogos first,
    then each finder's, in the order of KINDS. The facts of the marked jogos are not read yet
    (`read_facts`)."""
    named = set(kinds)
    if named - KINDS.keys():
        raise KeyError(f"no such kind of exception: {', '.join(sorted(named - KINDS.keys()))}")
    wanted = [kind for code, kind in KINDS.items() if code in named]
    entries = _marked(scope, [kind for kind in wanted if kind.marked is not None])
    for finder in dict.fromkeys(kind.find for kind in wanted if kind.find is not None):  # a finder may find two kinds
        entries += [entry for entry in finder(scope) if entry.kind in named]
    return entries


def read_facts(entries: Iterable[Entry]) -> None:
    """Fill in the facts of the entries of marked kinds: each jogo's record, banker, grade as
    declared and as computed, and its players' names by chair. One query; none when no entry is
    of a marked kind."""
    marked = [entry for entry in entries if KINDS[entry.kind].marked is not None]
    if not marked:
        return
    read: dict[int, dict] = {}
    for row in (Jogo.objects.filter(pk__in={entry.jogo_id for entry in marked})
                .values("pk", "banker_chair", "record", "fan", "declared_fan", "game__players__chair",
                        "game__players__patron__name")):
        facts = read.setdefault(row["pk"], {"banker_chair": row["banker_chair"], "record": row["record"],
                                            "fan": row["fan"], "declared_fan": row["declared_fan"], "names": {}})
        facts["names"][row["game__players__chair"]] = row["game__players__patron__name"]
    for entry in marked:
        entry.facts.update(read[entry.jogo_id])


# --- The audit's exception queue ------------------------------------------------------------------


def exceptions(days: Days, kind: str | None = None, *, casinos: Casinos = None) -> list[Entry]:
    """The exception queue of the days, at the tables of `casinos` (a person's; every casino's
    when None): every kind, or one; by gaming day, table and jogo."""
    entries = find(Scope(days, casinos=casinos), [kind] if kind else KINDS)
    read_facts(entries)
    return sorted(entries, key=lambda e: (e.gaming_day or dt.date.min, e.table, e.number or 0, e.kind))


def kind_choices() -> list[tuple[str, str]]:
    """(code, name) of every kind, in the queue's order."""
    return [(code, exception_kind_name(code)) for code in KINDS]


def count_by_kind(entries: list[Entry]) -> list[tuple[str, str, int]]:
    """(kind, its name, how many entries) for every kind, in the queue's order."""
    counts: dict[str, int] = defaultdict(int)
    for entry in entries:
        counts[entry.kind] += 1
    return [(code, name, counts[code]) for code, name in kind_choices()]
