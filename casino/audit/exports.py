"""A day's (or a range's) current jogos for the inspector to take away: CSV and XLSX with the
figures, and JSONL with the portable records (docs/record-format.md), one per line in the same order
as the CSV's rows, for `python -m regulation score --jsonl` to re-check offline. And a gaming day's
multiple-transaction log (`mtl.py`), as CSV and XLSX."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import msgspec
from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from casino.pit.models import Movement

from .ledger import Casinos, Checked, Days, checked, current_revisions
from .mtl import Log
from .selectors import commission_audit

_encode = msgspec.json.encode


CHAIRS = range(1, 5)  # chairs as people number them (the ledger keeps 0–3)


def columns() -> list[str]:
    """The jogos' columns: every figure in a column of its own, a chair's capital in one per chair."""
    return [_("gaming day"), _("table"), _("variant"), _("tier X (of X/2X)"), _("game"), _("jogo"), _("revision"),
            _("kind"), _("result"), _("winner's chair"), _("fán"), _("declared fán"), _("grade mismatch"),
            _("cap bound"), _("pay-all"), _("commission recorded"), _("commission per Art. 8"),
            *[_("capital before, chair %(chair)s") % {"chair": chair} for chair in CHAIRS],
            *[_("capital after, chair %(chair)s") % {"chair": chair} for chair in CHAIRS],
            _("ledger seq"), _("ledger hash"), _("rule set"), _("rule set version")]


def _line(item: Checked, blank="") -> list:
    """One jogo's values: numbers as numbers; `blank` where there is none (an empty chair, no winner)."""
    row = item.row

    def value(number):
        return blank if number is None else number

    return [item.gaming_day, item.table, item.variant, item.stake, row.game_id, row.number, row.revision, item.kind,
            row.result, value(None if row.winner_chair is None else row.winner_chair + 1), value(row.fan),
            value(row.declared_fan), int(bool(row.fan_mismatch)), int(bool(row.capped)), int(bool(row.pay_all)),
            row.commission, item.commission_due, *map(value, _chairs(row.capital_before)),
            *map(value, _chairs(row.capital_after)), item.seq, item.hash, row.rule_set_code, row.rule_set_version]


def _chairs(value) -> list[int | None]:
    """Capital per chair (0–3 in the ledger), None for an empty chair."""
    if isinstance(value, str):
        value = msgspec.json.decode(value)
    return list(value)


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(days: Days, *, casinos: Casinos = None) -> Iterator[str]:
    """The jogos of the days at the tables of `casinos` (a person's; every casino's when None)."""
    writer = csv.writer(_Echo())
    yield writer.writerow(columns())
    for item in checked(days, casinos=casinos):
        yield writer.writerow(_line(item))  # the gaming day as YYYY-MM-DD


def jsonl_lines(days: Days, *, casinos: Casinos = None) -> Iterator[bytes]:
    """The current revisions' portable records, one per line, at the tables of `casinos`."""
    for record in current_revisions(days, casinos=casinos).values_list("record", flat=True).iterator(chunk_size=2000):
        yield _encode(record) + b"\n"


def xlsx_bytes(days: Days, *, casinos: Casinos = None) -> bytes:
    """A workbook: the jogos, the commission audit per table and per tier (each under the rule set
    that scored its jogos), the differences."""
    book = Workbook(write_only=True)
    jogos = book.create_sheet(_("Jogos"))
    jogos.append(columns())
    for item in checked(days, casinos=casinos):
        jogos.append(_line(item, blank=None))  # an empty cell where there is no figure
    audit = commission_audit(days, casinos=casinos)
    sheet = book.create_sheet(_("Commission"))
    sheet.append([_("table"), _("variant"), _("tier X (of X/2X)"), _("commission per won jogo (Art. 8)"), _("jogos"),
                  _("won jogos recorded"), _("commission recorded"), _("won jogos per the engine"),
                  _("commission per the regulation"), _("difference"), _("rule set"), _("rule set version")])
    for line in audit.tables + audit.tiers + [audit.total]:
        sheet.append([line.label or _("tier total"), line.variant, line.stake or None, line.rate, line.jogos,
                      line.won_recorded, line.commission_recorded, line.won_due, line.commission_due, line.difference,
                      line.rules.code if line.rules else None, line.rules.version if line.rules else None])
    differences = book.create_sheet(_("Differences"))
    differences.append([_("table"), _("game"), _("jogo"), _("revision"), _("field"), _("recorded"),
                        _("recomputed")])
    for difference in audit.differences:
        differences.append([difference.table, difference.game, difference.number, difference.revision,
                            difference.field, _cell(difference.recorded), _cell(difference.recomputed)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _cell(value):
    if value is None or isinstance(value, (int, str)):
        return value
    return _encode(value).decode()


# --- The multiple-transaction log (mtl.py) ----------------------------------------------------------


def mtl_columns() -> list[str]:
    """The log's columns: a row per movement, the player's identification and totals beside it."""
    return [_("gaming day"), _("player"), _("identified"), _("document type"), _("document country"),
            _("time (Macau)"), _("table"), _("chair"), _("kind"), _("amount"), _("supervisor"),
            _("running total of its direction"), _("threshold reached"), _("player's buy-ins"),
            _("player's cash-outs")]


def _yes(value: bool) -> str:
    return _("yes") if value else _("no")


def mtl_rows(log: Log) -> Iterator[list]:
    """The log's rows, players by their larger total, each player's movements in the order recorded."""
    for player in log.players:
        for line in player.lines:
            yield [log.day, player.name, _yes(player.identified), player.document_type_label,
                   player.document_country, timezone.localtime(line.at).strftime("%H:%M:%S"), line.table,
                   line.chair + 1, str(dict(Movement.KINDS)[line.kind]), line.amount, line.supervisor, line.running,
                   _yes(line.reached), player.buy_ins, player.cash_outs]


def mtl_csv(log: Log) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(mtl_columns())
    writer.writerows(mtl_rows(log))  # the gaming day as YYYY-MM-DD
    return out.getvalue()


def mtl_xlsx(log: Log) -> bytes:
    """A workbook: the log's movements, and a sheet of the players' totals."""
    book = Workbook(write_only=True)
    movements = book.create_sheet(_("Multiple-transaction log"))
    movements.append(mtl_columns())
    for row in mtl_rows(log):
        movements.append(row)
    players = book.create_sheet(_("Players"))
    players.append([_("player"), _("identified"), _("document type"), _("document country"), _("buy-ins"),
                    _("cash-outs"), _("threshold reached"), _("movements")])
    for player in log.players:
        players.append([player.name, _yes(player.identified), player.document_type_label, player.document_country,
                        player.buy_ins, player.cash_outs, _yes(player.reached), len(player.lines)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
