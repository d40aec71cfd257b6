"""What the pit reads: where a game stands (its progress and each chair's capital), a game's
end-of-game summary, a table's history of a gaming day, the refused attempts, and a table's day
summary. The writes are in `services/`.

Each selector reads a fixed number of queries whatever the number of jogos, and counts each
jogo at its current (highest) revision only (`models.superseded()`).
"""
from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from casino.terms.vocabulary import seat_player
from regulation.rotation import Progress

from .days import day_bounds, period
from .errors import Problem
from .models import Flag, Game, Jogo, Movement, Player, Refusal, Table, superseded

# --- Reading the state of a game -----------------------------------------------------------------

def current_jogos(game: Game) -> list[Jogo]:
    """The game's jogos in order, each at its current (highest) revision."""
    return list(Jogo.objects.filter(game=game).filter(~superseded()).order_by("position"))


def current_revision(row: Jogo) -> Jogo:
    """The jogo's current (highest) revision."""
    return Jogo.objects.filter(table=row.table_id, number=row.number).order_by("-revision").first()


def last_jogo(game: Game) -> Jogo | None:
    """The game's last jogo at its highest revision."""
    return Jogo.objects.filter(game=game).select_related("game").order_by("-position", "-revision").first()


# Where a game stands has two readers: `standing`, the table's stored projection, for the
# screens and the recording service; and `replayed`, worked out from the ledger's rows, for the
# ledger's checks, an amendment, and a game the table no longer projects.

@dataclass(frozen=True)
class Standing:
    """Where a game stands: who plays its next jogo as what (Art. 3: banker, seat winds, round
    wind) and each chair's capital at stake (None for an empty chair)."""

    progress: Progress
    capital: list[int | None]


def standing(game: Game, *, table: Table | None = None) -> Standing:
    """Where the game stands now, as its table's stored projection says: the table's `game`,
    `game_banker`, `game_round_wind` and `game_capital`.

    The projection has one writer, `services.ledger` (`append_row`, `move_projection`), which
    moves it in the same transaction as each ledger row it appends, under the table's lock;
    `verify_ledger` replays every game and checks it.

    - `table`, the game's table as just read (the recording service's locked row, a list of
      tables), is read from without a query when it projects this game; otherwise the table is
      read again (one query), never a copy cached before the last write.
    - A game the table does not project (ended by hand or by its North round, I-2) has no
      stored standing: it stands where the ledger's replay leaves it (`replayed`)."""
    if table is None or table.game_id != game.pk:
        table = Table.objects.get(pk=game.table_id)
    if table.game_id != game.pk:
        return replayed(game)
    chairs = tuple(chair for chair, amount in enumerate(table.game_capital) if amount is not None)
    return Standing(Progress(chairs, game.first_banker, table.game_banker, table.game_round_wind),
                    list(table.game_capital))


def replayed(game: Game) -> Standing:
    """Where the game stands after its last jogo, worked out from the ledger's rows (Art. 3, I-1,
    I-2): the last jogo's progress moved on by its outcome, and its capital after, with the
    buy-ins and cash-outs made since. A game without a jogo stands where its players sat down."""
    last = last_jogo(game)
    if last is None:
        progress, position = game.start(), 0
        amounts: list[int | None] = [None] * 4
        for chair in game.players.values_list("chair", flat=True):
            amounts[chair] = 0
    else:
        progress, position = last.progress.after(banker_moves=last.outcome["next"]["banker_moves"]), last.position
        amounts = list(last.capital_after)
    moves = _moves(Movement.objects.filter(game=game, after_jogos=position).order_by("seq"))
    return Standing(progress, with_movements(amounts, moves))


def tables_with_open_games(tables: QuerySet[Table]) -> QuerySet[Table]:
    """`tables`, each read with its game in progress and the game's players (`open_game` then
    asks no query), for a list of tables that shows each one's next jogo."""
    return tables.prefetch_related(Prefetch("games", to_attr="open_games",
                                            queryset=Game.objects.filter(ended_at__isnull=True)
                                            .prefetch_related("players__patron")))


def capitals(games: list[Game]) -> dict[int, list[int | None]]:
    """`standing(game).capital` of each of `games` (their players prefetched), read at once for
    a page of games: three queries whatever their number. The game a table projects reads the
    projection; any other, the ledger."""
    found = dict(Table.objects.filter(game__in=games).values_list("game_id", "game_capital"))
    ended = [game for game in games if game.pk not in found]
    last: dict[int, tuple[int, list]] = {}
    for game_id, position, after in (Jogo.objects.filter(game__in=ended).order_by("game", "position", "revision")
                                     .values_list("game_id", "position", "capital_after")):
        last[game_id] = (position, after)  # the highest position at its highest revision comes last
    moved = defaultdict(list)
    for movement in Movement.objects.filter(game__in=ended).only("game", "after_jogos", "chair", "kind", "amount") \
            .order_by("seq"):
        moved[movement.game_id, movement.after_jogos].append(movement)
    for game in ended:
        position, amounts = last.get(game.pk, (0, None))
        if amounts is None:
            amounts = [None] * 4
            for player in game.players.all():
                amounts[player.chair] = 0
        found[game.pk] = with_movements(amounts, _moves(moved[game.pk, position]))
    return {game.pk: list(found[game.pk]) for game in games}


def with_movements(amounts: list[int | None], movements: Iterable[tuple[int, int]]) -> list[int | None]:
    """Each chair's capital at stake (a copy of `amounts`) after the buy-ins and cash-outs
    `movements`, each a chair and its signed amount. The service, these selectors and the
    ledger's verifier all carry capital over movements here."""
    amounts = list(amounts)
    for chair, amount in movements:
        amounts[chair] += amount
    return amounts


def _moves(movements: Iterable[Movement]) -> Iterator[tuple[int, int]]:
    return ((movement.chair, movement.signed_amount) for movement in movements)


def record_header(game: Game) -> dict:
    """What the ledger fixes of the game's next portable record: variant, stake, round wind and
    each seated seat's capital at stake."""
    now = standing(game)
    return {"variant": game.table.variant, "stake": game.table.stake, "round_wind": now.progress.round_wind,
            "capital": {seat: now.capital[chair] for seat, chair in now.progress.seats.items()}}


def open_game(table: Table) -> Game | None:
    """The table's game in progress, if any (read with the table by `tables_with_open_games`)."""
    if hasattr(table, "open_games"):
        return table.open_games[0] if table.open_games else None
    return table.games.filter(ended_at__isnull=True).first()


# --- The end of a game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerResult:
    """One chair's game: capital at the start (his opening buy-in) and at the end, what he
    brought or took away between jogos, his jogos won and his net result from the jogos (after
    commission): end = start + buy-ins − cash-outs + net."""

    chair: int
    name: str
    seat: str  # his seat wind at the game's first jogo (the first banker is East, Art. 3)
    start: int
    bought_in: int
    cashed_out: int
    end: int
    won: int
    net: int


@dataclass(frozen=True)
class GameSummary:
    game: Game
    players: list[PlayerResult]
    jogos: int
    wins: int
    draws: int
    false_wins: int
    commission: int
    duration: dt.timedelta
    movements: list[Movement]

    @property
    def hours_minutes(self) -> str:
        """The duration in hours and minutes, "1:05"."""
        minutes = int(self.duration.total_seconds()) // 60
        return f"{minutes // 60}:{minutes % 60:02d}"


def game_summary(game: Game, *, now: dt.datetime | None = None, seat_name=str) -> GameSummary:
    """The end-of-game summary; a game still in progress is summed up to now (duration to `now`).
    `seat_name` names a seat wind in the reader's language. Three queries: players, current
    jogos, movements."""
    players = list(Player.objects.filter(game=game).select_related("patron").order_by("chair"))
    seated = Progress.start(chairs=[player.chair for player in players], banker=game.first_banker)
    jogos = list(Jogo.objects.filter(game=game).filter(~superseded()).order_by("position")
                 .only("result", "winner_chair", "commission", "capital_before", "capital_after"))
    movements = list(Movement.objects.filter(game=game).order_by("seq"))
    start, bought, cashed = defaultdict(int), defaultdict(int), defaultdict(int)
    for movement in movements:
        if movement.kind == Movement.BUY_IN and movement.after_jogos == 0 and movement.chair not in start:
            start[movement.chair] = movement.amount  # the capital he sat down with: Art. 9(a)(4), 9(b)(3)
        elif movement.kind == Movement.BUY_IN:
            bought[movement.chair] += movement.amount
        else:
            cashed[movement.chair] += movement.amount
    results = []
    for player in players:
        chair = player.chair
        net = sum(row.capital_after[chair] - row.capital_before[chair] for row in jogos)
        won = sum(1 for row in jogos if row.result == "win" and row.winner_chair == chair)
        results.append(PlayerResult(chair, player.name, seat_name(seated.seat_of(chair)), start[chair],
                                    bought[chair], cashed[chair],
                                    start[chair] + bought[chair] - cashed[chair] + net, won, net))
    ended = game.ended_at or now or timezone.now()
    return GameSummary(game=game, players=results, jogos=len(jogos),
                       wins=sum(1 for row in jogos if row.result == "win"),
                       draws=sum(1 for row in jogos if row.result == "draw"),
                       false_wins=sum(1 for row in jogos if row.result == "false_win"),
                       commission=sum(row.commission for row in jogos), duration=ended - game.started_at,
                       movements=movements)


# --- Money moved ---------------------------------------------------------------------------------

def capital_around(movement: Movement) -> tuple[list[int | None], list[int | None]]:
    """Each chair's capital just before and just after a buy-in or cash-out: the game's jogos
    before it at their current revision, then the movements made before it between the same
    jogos. None for an empty chair. Two queries."""
    if movement.after_jogos:
        row = (Jogo.objects.filter(game=movement.game_id, position=movement.after_jogos)
               .order_by("-revision").only("capital_after").first())
        before = list(row.capital_after)
    else:
        before = [None] * 4
        for chair in Player.objects.filter(game=movement.game_id).values_list("chair", flat=True):
            before[chair] = 0
    for earlier in Movement.objects.filter(game=movement.game_id, after_jogos=movement.after_jogos,
                                           seq__lt=movement.seq).order_by("seq"):
        before[earlier.chair] += earlier.signed_amount
    after = list(before)
    after[movement.chair] += movement.signed_amount
    return before, after


# --- A table's history ---------------------------------------------------------------------------

def first_recorded() -> Subquery:
    """When a jogo revision's jogo was first recorded (its revision 0): the hour and the shift it
    counts in, however later corrections were recorded. Unordered: the one row is found by its
    index, without the join to the tables that the model's ordering would add."""
    return Subquery(Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number"), revision=0)
                    .order_by().values("recorded_at")[:1])


@dataclass(frozen=True)
class HistoryPayment:
    """A payment of a jogo as the table's history shows it: between seats named with their
    players, in the reader's language."""

    payer: str  # "East · Ana"
    payee: str
    amount: int


@dataclass(frozen=True)
class HistoryRow:
    jogo: Jogo
    time: dt.datetime  # when the jogo was first recorded; in a jogo's revisions, when each was
    winner: str  # "South · Bruno", or "" for a draw
    offender: str  # the false win's offender
    payments: list[HistoryPayment]
    flags: list[Flag]


def table_history(table: Table, *, day: dt.date | None = None, number: int | None = None,
                  shown: Callable[[str], str] = str) -> list[HistoryRow]:
    """The table's jogos of a gaming day, each at its current revision, in number order; or,
    with `number`, every revision of that one jogo whatever its day. Seats are named in the
    reader's language, players as `shown` gives their names (masked for a dealer, privacy.py).
    Three queries: jogos, players, flags."""
    rows = Jogo.objects.filter(table=table).annotate(first_recorded=first_recorded())
    if number is not None:
        rows = rows.filter(number=number).order_by("revision")
    else:
        rows = rows.filter(gaming_day=day).filter(~superseded()).order_by("number")
    rows = list(rows.select_related("game", "recorded_by"))
    games = {row.game_id for row in rows}
    names = defaultdict(dict)
    for player in Player.objects.filter(game_id__in=games).select_related("patron"):
        names[player.game_id][player.chair] = shown(player.name)
    flags = defaultdict(list)
    for flag in Flag.objects.filter(table=table, number__in={row.number for row in rows}).order_by("raised_at"):
        flags[flag.number].append(flag)
    history = []
    for row in rows:
        record = row.record

        def who(seat: str | None, row: Jogo = row) -> str:
            return seat_player(seat, banker_chair=row.banker_chair, names=names[row.game_id])

        history.append(HistoryRow(
            jogo=row, time=row.recorded_at if number is not None else row.first_recorded,
            winner=who(record.get("winner") if row.result == "win" else None),
            offender=who((record.get("false_win") or {}).get("seat")),
            payments=[HistoryPayment(who(p["from"]), who(p["to"]), p["amount"])
                      for p in row.outcome.get("payments", [])],
            flags=flags.get(row.number, [])))
    return history


# --- Refused attempts ----------------------------------------------------------------------------

def refusals(tables: QuerySet[Table], *, day: dt.date | None = None, table: Table | None = None) -> QuerySet[Refusal]:
    """The refused attempts at `tables` (those the reader may see), newest first, of one gaming
    day and one table when given, each with its confirmation if a second person gave one. One query."""
    rows = Refusal.objects.filter(table__in=tables).select_related("table", "attempted_by",
                                                                   "confirmation__confirmed_by")
    if day is not None:
        start, end = day_bounds(day)
        rows = rows.filter(attempted_at__gte=start, attempted_at__lt=end)
    if table is not None:
        rows = rows.filter(table=table)
    return rows.order_by("-attempted_at", "-pk")


def refusal_problems(refusal: Refusal) -> list[Problem]:
    """A refusal's errors as the service gave them, to say again in the reader's language (an
    error stored without its template reads as it was stored, in English)."""
    return [Problem(error.get("code", ""), error.get("article"), error.get("message", ""), error.get("template") or "",
                    error.get("params") or {}, error.get("field")) for error in refusal.errors]


# --- A table's day -------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerDay:
    game: Game
    chair: int
    name: str
    jogos: int  # jogos of the period he played
    won: int
    net: int


@dataclass(frozen=True)
class TableDaySummary:
    """A table's gaming day, or a period of it, as its day page sums it up."""

    table: Table
    day: dt.date
    start: dt.datetime
    end: dt.datetime
    jogos: int
    wins: int
    draws: int
    false_wins: int
    commission: int
    players: list[PlayerDay] = field(default_factory=list)


def table_day(table: Table, day: dt.date, *, start: dt.time | None = None,
              end: dt.time | None = None) -> TableDaySummary:
    """A table's gaming day (or the part of it between `start` and `end`, Macau time; `end`
    before `start` runs past midnight): its jogos, commission, and each player's net from the
    jogos, per game. A jogo counts at its current revision, at the moment it was first recorded.
    Two queries: jogos, players."""
    first, last = period(day, start=start, end=end)
    rows = list(Jogo.objects.filter(table=table, gaming_day=day).filter(~superseded())
                .annotate(first_recorded=first_recorded())
                .filter(first_recorded__gte=first, first_recorded__lt=last)
                .select_related("game").order_by("number")
                .only("result", "winner_chair", "commission", "capital_before", "capital_after", "game",
                      "number"))
    seated = Player.objects.filter(game_id__in={row.game_id for row in rows}).select_related("patron")
    names = {(p.game_id, p.chair): p.name for p in seated}
    games = {row.game_id: row.game for row in rows}
    played, won, net = Counter(), Counter(), Counter()  # per (game, chair)
    for row in rows:
        for chair, before in enumerate(row.capital_before):
            if before is None:
                continue  # an empty chair
            key = (row.game_id, chair)
            played[key] += 1
            won[key] += int(row.result == "win" and row.winner_chair == chair)
            net[key] += row.capital_after[chair] - before
    order = sorted(played, key=lambda key: (games[key[0]].started_at, key[1]))
    return TableDaySummary(
        table=table, day=day, start=first, end=last, jogos=len(rows),
        wins=sum(1 for row in rows if row.result == "win"), draws=sum(1 for row in rows if row.result == "draw"),
        false_wins=sum(1 for row in rows if row.result == "false_win"),
        commission=sum(row.commission for row in rows),
        players=[PlayerDay(games[game_id], chair, names[(game_id, chair)], played[(game_id, chair)],
                           won[(game_id, chair)], net[(game_id, chair)]) for game_id, chair in order])
