"""The multiple-transaction log of a gaming day (casino rule C-2, DICJ Instruction n.º 1/2016; the
US casinos' log of 31 CFR 1021.311–313): for each player with a buy-in or cash-out that day, at
any table, every movement with its time, table, amount, the supervisor who recorded it and the
running total of its direction; then the player's two totals against the large-transaction
threshold, and how he is identified.

The log is a value (no words, no request): the audit's page and exports and the daily report's
appendix each say it in their reader's language. A player's identification is read as it stands
when the log is read (the document's type and issuing country, never its number).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from casino.pit import cash
from casino.pit.models import Casino, Movement, Patron
from casino.terms.vocabulary import person_name

from .ledger import Casinos, in_casinos


@dataclass(frozen=True)
class Line:
    """One movement of the log: `running` is the player's total of its direction (buy-ins, or
    cash-outs) over the gaming day up to and including it, at every table."""

    at: dt.datetime
    table: str
    chair: int  # 0–3, as the ledger keeps it
    kind: str  # Movement.BUY_IN or Movement.CASH_OUT
    amount: int
    supervisor: str
    running: int
    threshold: int

    @property
    def reached(self) -> bool:
        """The running total is at the threshold or beyond."""
        return self.running >= self.threshold


@dataclass(frozen=True)
class PlayerLog:
    """A player's day: his movements in the order recorded, his two totals, and his
    identification (document type and country; empty for a player known by name only)."""

    patron_id: int
    name: str
    identified: bool
    document_type: str  # a code of Patron.DOCUMENT_TYPES, or ""
    document_country: str  # ISO 3166-1 alpha-2, or ""
    lines: tuple[Line, ...]
    threshold: int

    @property
    def buy_ins(self) -> int:
        return sum(line.amount for line in self.lines if line.kind == Movement.BUY_IN)

    @property
    def cash_outs(self) -> int:
        return sum(line.amount for line in self.lines if line.kind == Movement.CASH_OUT)

    @property
    def larger(self) -> int:
        return max(self.buy_ins, self.cash_outs)

    @property
    def buy_ins_reached(self) -> bool:
        return self.buy_ins >= self.threshold

    @property
    def cash_outs_reached(self) -> bool:
        return self.cash_outs >= self.threshold

    @property
    def reached(self) -> bool:
        """Either total is at the threshold or beyond."""
        return self.larger >= self.threshold

    @property
    def document_type_label(self) -> str:
        return str(dict(Patron.DOCUMENT_TYPES).get(self.document_type, ""))


@dataclass(frozen=True)
class Log:
    day: dt.date
    casino: Casino | None  # None: every casino's tables
    threshold: int
    players: tuple[PlayerLog, ...]  # the larger total first

    def at_least(self, share: int) -> tuple[PlayerLog, ...]:
        """The players whose larger total reaches `share` per cent of the threshold."""
        return tuple(player for player in self.players if player.larger * 100 >= self.threshold * share)


def player_name(patron: Patron) -> str:
    """A player as the audit names him: his name, or "#12", his number, once anonymised."""
    return patron.name or f"#{patron.pk}"


def multiple_transaction_log(day: dt.date, casino: Casino | None = None, *, casinos: Casinos = None) -> Log:
    """The log of gaming day `day` at `casino`'s tables (at those of `casinos`, a person's, when
    None; every casino's when both are None): the players sorted by their larger total, the
    largest first (then by name). One query. Movements recorded before players were people name
    no player and are not in it."""
    limit = cash.threshold()
    movements = list(in_casinos(cash.movements_of_day(day, casino), casinos)
                     .select_related("table", "patron", "recorded_by"))
    running = cash.running_totals(movements)
    by_patron: dict[int, list[Movement]] = defaultdict(list)
    for movement in movements:
        by_patron[movement.patron_id].append(movement)
    players = []
    for rows in by_patron.values():
        patron = rows[0].patron
        players.append(PlayerLog(
            patron.pk, player_name(patron), patron.identified, patron.document_type, patron.document_country,
            tuple(Line(movement.recorded_at, movement.table.number, movement.chair, movement.kind, movement.amount,
                       person_name(movement.recorded_by), running[movement.pk], limit) for movement in rows),
            limit))
    players.sort(key=lambda player: (-player.larger, player.name, player.patron_id))
    return Log(day, casino, limit, tuple(players))
