"""The hash chain over each table's ledger rows (jogos and movements together): which fields of
each row its hash covers. How a row is hashed is `casino.chain`'s, the same for every chain.
"""
from __future__ import annotations

from casino.chain import Chain

from .models import Jogo, Movement

COMMON = ("table_id", "seq", "recorded_at", "recorded_by_id", "gaming_day")
CONTENT = {
    Movement: COMMON + ("game_id", "chair", "kind", "amount", "after_jogos", "patron_id"),
    Jogo: COMMON + ("game_id", "number", "position", "revision", "kind", "reason", "approved_by_id",
                    "idempotency_key", "banker_chair", "round_wind", "record", "outcome", "result",
                    "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped",
                    "pay_all", "capital_before", "capital_after", "rule_set_code", "rule_set_version"),
}
# The rule set a jogo was scored under, and a movement's patron, entered the hash after rows were
# first hashed.
LEDGER = Chain(CONTENT, added={Jogo: {"rule_set_code": "portaria-135-91-M", "rule_set_version": 1},
                               Movement: {"patron_id": None}})

canonical, row_hash = LEDGER.canonical, LEDGER.row_hash
