"""A day's (or a range's) current jogos for the inspector to take away: CSV and XLSX with the
figures, and JSONL with the portable records (JOGO-FORMAT.md), one per line in the same order
as the CSV's rows, for `python -m regulation score --jsonl` to re-check offline."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import msgspec
from django.utils.translation import gettext as _
from openpyxl import Workbook

from .selectors import Checked, Days, checked, commission_audit, current_revisions

_encode = msgspec.json.encode


def columns() -> list[str]:
    return [_("gaming day"), _("table"), _("variant"), _("tier"), _("game"), _("jogo"), _("revision"), _("kind"),
            _("result"), _("winner's chair"), _("fán"), _("declared fán"), _("grade mismatch"), _("cap bound"),
            _("pay-all"), _("commission recorded"), _("commission per Art. 8"), _("capital before"),
            _("capital after"), _("ledger seq"), _("ledger hash")]


def _line(item: Checked) -> list:
    row = item.row
    return [item.gaming_day.isoformat(), item.table, item.variant, f"{item.stake}/{2 * item.stake}", row.game_id,
            row.number, row.revision, item.kind, row.result, _blank(row.winner_chair), _blank(row.fan),
            _blank(row.declared_fan), int(bool(row.fan_mismatch)), int(bool(row.capped)), int(bool(row.pay_all)),
            row.commission, item.commission_due, _chairs(row.capital_before), _chairs(row.capital_after), item.seq,
            item.hash]


def _blank(value):
    return "" if value is None else value


def _chairs(value) -> str:
    """Capital per chair 0–3 as `5000 3000 2000 4000`, `-` for an empty chair."""
    if isinstance(value, str):
        value = msgspec.json.decode(value)
    return " ".join("-" if amount is None else str(amount) for amount in value)


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(days: Days) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield writer.writerow(columns())
    for item in checked(days):
        yield writer.writerow(_line(item))


def jsonl_lines(days: Days) -> Iterator[bytes]:
    """The current revisions' portable records, one per line."""
    for record in current_revisions(days).values_list("record", flat=True).iterator(chunk_size=2000):
        yield _encode(record) + b"\n"


def xlsx_bytes(days: Days) -> bytes:
    """A workbook: the jogos, the commission audit per table and per tier, the differences."""
    book = Workbook(write_only=True)
    jogos = book.create_sheet(_("Jogos"))
    jogos.append(columns())
    for item in checked(days):
        jogos.append(_line(item))
    audit = commission_audit(days)
    sheet = book.create_sheet(_("Commission"))
    sheet.append([_("table"), _("variant"), _("tier"), _("commission per won jogo (Art. 8)"), _("jogos"),
                  _("won jogos recorded"), _("commission recorded"), _("won jogos per the engine"),
                  _("commission per the regulation"), _("difference")])
    for line in audit.tables + audit.tiers + [audit.total]:
        sheet.append([line.label or _("tier total"), line.variant, line.tier, line.rate, line.jogos,
                      line.won_recorded, line.commission_recorded, line.won_due, line.commission_due, line.difference])
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
