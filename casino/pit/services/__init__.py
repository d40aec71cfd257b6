"""The pit's writes, by activity. Each takes keyword arguments only, the person acting as `user`,
and is one transaction: it either does all it says or raises `Refused` (errors.py) having written
nothing to the ledger (a refused jogo is kept in `Refusal`, so inspectors see the attempt).

- `recording`: seating a game, recording a jogo (and previewing one), buy-ins and cash-outs,
  ending a game; opening and closing a table, changing its rule set. The casino's money rules
  hold there: a seat's minimum and maximum capital (C-1), the large-transaction threshold (C-2;
  a movement refused under it is kept in `MovementRefusal`);
- `amendments`: proposing, previewing and deciding a correction of a jogo (maker/checker);
- `closing`: closing and reopening a casino's gaming day;
- `oversight`: the inspectors' flags, and the confirmations of refused attempts;
- `ledger`: what the ledger's writers share: the table's lock, appending a row to its chain,
  moving the table's stored projection of its game.

The reads are in `selectors.py`; scoring a record as the ledger row it would be, in `scoring.py`.
"""
from .amendments import Correction, decide_amendment, preview_amendment, propose_amendment
from .closing import CLOSE_GAMING_DAY, close_day, refuse_if_day_closed, reopen_day
from .oversight import comment_on_flag, confirm_refusal, flag, resolve_flag
from .recording import (
                        Preview,
                        change_rule_set,
                        close_table,
                        end_game,
                        move_money,
                        next_jogo,
                        open_table,
                        preview_jogo,
                        record_jogo,
                        start_game,
)

__all__ = ["CLOSE_GAMING_DAY", "Correction", "Preview", "change_rule_set", "close_day", "close_table",
           "comment_on_flag", "confirm_refusal", "decide_amendment", "end_game", "flag", "move_money", "next_jogo",
           "open_table", "preview_amendment", "preview_jogo", "propose_amendment", "record_jogo",
           "refuse_if_day_closed", "reopen_day", "resolve_flag", "start_game"]
