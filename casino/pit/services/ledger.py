"""Writing a table's ledger: the one place a row is appended to a table's chain and the table's
stored projection of its game in progress is moved (`selectors.standing` reads it). Every
writer of the ledger (recording, amendments) holds the table's lock (`locked_table`) first.
"""
from __future__ import annotations

from typing import Any

from casino.chain import GENESIS
from regulation.rotation import Progress

from ..chain import row_hash
from ..models import Game, LedgerRow, Table


def locked_table(table: Table) -> Table:
    """The table's row, with its game in progress, locked until the transaction ends: one writer
    per table at a time, so sequence numbers stay gapless and no balance update is lost."""
    return Table.objects.select_for_update(of=("self",)).select_related("game").get(pk=table.pk)


def projection(game: Game | None, state: Progress | None = None, jogos: int = 0,
               amounts: list[int | None] | None = None) -> dict[str, Any]:
    """The table's fields that say where its game in progress stands; empty for no game (none
    seated, or the game just completed, I-2)."""
    if game is None or state.complete:
        return {"game": None, "game_jogos": 0, "game_banker": None, "game_round_wind": "", "game_capital": []}
    return {"game": game, "game_jogos": jogos, "game_banker": state.banker, "game_round_wind": state.round_wind,
            "game_capital": list(amounts)}


def move_projection(table: Table, moves: dict[str, Any]) -> None:
    """Set the table's fields `moves` (its head, its projection), on the row and on the copy."""
    for name, value in moves.items():
        setattr(table, name, value)
    Table.objects.filter(pk=table.pk).update(**moves)


def append_row(table: Table, row: LedgerRow, *, jogo: bool = False, moves: dict[str, Any] | None = None) -> None:
    """Add a row at the end of the table's chain and move the table's head; `moves` are more of
    the table's fields (the projection) set in the same UPDATE."""
    row.table = table
    row.seq = table.ledger_seq + 1
    row.prev_hash = table.ledger_head or GENESIS
    row.hash = row_hash(row)
    row.save()
    table.ledger_seq, table.ledger_head = row.seq, row.hash
    if jogo and row.revision == 0:
        table.jogos_recorded += 1
    move_projection(table, {"ledger_seq": table.ledger_seq, "ledger_head": table.ledger_head,
                            "jogos_recorded": table.jogos_recorded, **(moves or {})})
