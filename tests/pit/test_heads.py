"""Anchoring the ledger's ends: `ledger_heads` saves each table's last seq and
hash outside the database, and `verify_ledger --heads` catches what the chain alone cannot: a
truncated tail with the table's head rewound, and a row changed with the rest re-hashed."""
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.pit import services
from casino.pit.chain import row_hash
from casino.pit.heads import heads
from casino.pit.models import Jogo, Movement, Table
from tests.builders.pit import DRAW, NOON, next_record, seat, staff


@pytest.fixture
def played(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    rows = [services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **fields), at=NOON)[0]
            for fields in ({}, DRAW, DRAW)]
    return people, t1, t2, game, rows


def save_heads(tmp_path) -> str:
    path = tmp_path / "heads.json"
    call_command("ledger_heads", "--out", str(path), stderr=open("/dev/null", "w"))
    return str(path)


def verify(path: str) -> str:
    from io import StringIO
    out = StringIO()
    call_command("verify_ledger", "--heads", path, stdout=out, stderr=out)
    return out.getvalue()


def as_superuser(*statements):
    """Change the database directly with the ledger's triggers off, as its owner could."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        for sql, params in statements:
            cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")


def test_ledger_heads_writes_each_tables_last_seq_and_hash_with_the_time(played, tmp_path):
    people, t1, t2, game, rows = played
    saved = json.loads(open(save_heads(tmp_path)).read())
    assert saved["format"] == "ledger-heads/2" and saved["taken_at"]
    # Seating wrote 4 opening movements (seq 1-4), then 3 jogos: the head is jogo 3 at seq 7.
    assert saved["tables"] == [{"table_id": t1.pk, "casino": "Casino Lisboa", "table": "T1", "seq": 7,
                                "hash": rows[-1].hash}]
    assert Table.objects.get(pk=t1.pk).ledger_seq == 7  # the table's own head agrees
    # T2 has no ledger row yet, so no head.
    assert [head.table.number for head in heads()] == ["T1"]


def test_ledger_heads_never_overwrites_a_saved_file(played, tmp_path):
    path = save_heads(tmp_path)
    with pytest.raises(FileExistsError):
        call_command("ledger_heads", "--out", path)


def test_verify_ledger_passes_when_every_chain_goes_through_its_saved_head_and_grew_since(played, tmp_path):
    people, t1, t2, game, rows = played
    path = save_heads(tmp_path)
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    assert "ledger intact: 2 table(s) checked, each through its head saved at" in verify(path)


def test_verify_ledger_heads_catches_a_truncated_tail_with_the_head_rewound(played, tmp_path):
    people, t1, t2, game, rows = played
    path = save_heads(tmp_path)
    before_last = rows[-2]
    as_superuser(("DELETE FROM pit_jogo WHERE id = %s", [rows[-1].pk]),
                 # The last jogo was a draw: the game's projection only counts one jogo fewer.
                 ("UPDATE pit_table SET ledger_seq = %s, ledger_head = %s, jogos_recorded = 2, game_jogos = 2 "
                  "WHERE id = %s", [before_last.seq, before_last.hash, t1.pk]))
    call_command("verify_ledger", stdout=open("/dev/null", "w"))  # the chain alone still checks
    with pytest.raises(CommandError) as failed:
        verify(path)
    assert "table T1 (Casino Lisboa), saved head at ledger seq 7" in str(failed.value)
    assert "no longer exists" in str(failed.value)


def test_verify_ledger_heads_catches_a_row_changed_and_the_rest_of_the_chain_rehashed(played, tmp_path):
    people, t1, t2, game, rows = played
    path = save_heads(tmp_path)
    # The superuser changes who recorded the second jogo, then re-hashes it and every row after.
    as_superuser(("UPDATE pit_jogo SET recorded_by_id = %s WHERE id = %s", [people["supervisor"].pk, rows[1].pk]))
    previous = Jogo.objects.get(pk=rows[0].pk).hash
    for row in sorted([*Jogo.objects.filter(table=t1, seq__gt=rows[0].seq)], key=lambda r: r.seq):
        row.prev_hash = previous
        row.hash = previous = row_hash(row)
        as_superuser(("UPDATE pit_jogo SET prev_hash = %s, hash = %s WHERE id = %s", [row.prev_hash, row.hash,
                                                                                       row.pk]))
    as_superuser(("UPDATE pit_table SET ledger_head = %s WHERE id = %s", [previous, t1.pk]))
    call_command("verify_ledger", stdout=open("/dev/null", "w"))  # the chain alone still checks
    with pytest.raises(CommandError) as failed:
        verify(path)
    assert "saved head at ledger seq 7" in str(failed.value) and "rewritten" in str(failed.value)


def test_verify_ledger_refuses_a_file_that_is_not_saved_heads(played, tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"tables": []}')
    with pytest.raises(CommandError, match="not a file written by ledger_heads"):
        verify(str(path))
    path.write_text("not json")
    with pytest.raises(CommandError, match="cannot be read"):
        verify(str(path))


def test_a_table_whose_last_row_is_a_movement_has_that_movement_as_head(played):
    people, t1, t2, game, rows = played
    movement = services.move_money(game=game, user=people["dealer"], chair=0, kind=Movement.BUY_IN, amount=100, at=NOON)
    assert [(h.seq, h.hash) for h in heads()] == [(movement.seq, movement.hash)]
