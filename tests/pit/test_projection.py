"""Each table's projection of its game in progress: recording reads one row
instead of replaying the game, the projection moves in the same transaction as the ledger, and
verify_ledger replays every game and checks it."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.pit import services
from casino.pit.models import Movement, Table
from tests.builders.pit import DRAW, NOON, next_record, seat, staff


def projection(table: Table) -> tuple:
    table = Table.objects.get(pk=table.pk)
    return table.game_id, table.game_jogos, table.game_banker, table.game_round_wind, table.game_capital


def verify() -> str:
    out = StringIO()
    call_command("verify_ledger", "--no-progress", stdout=out, stderr=out)
    return out.getvalue()


def test_the_projection_follows_seating_jogos_movements_and_the_end_of_the_game(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], first_banker=2)
    assert projection(t1) == (game.pk, 0, 2, "E", [5000, 3000, 2000, 4000])
    # Chair 2 is East; South (chair 3) wins a chicken hand on West's (chair 0) discard: the bank
    # passes to chair 3 (Art. 3, I-1). East pays 50, West and North 25; commission 10.
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    assert projection(t1) == (game.pk, 1, 3, "E", [4975, 2975, 1950, 4090])
    services.move_money(game=game, user=people["dealer"], chair=1, kind=Movement.BUY_IN, amount=25, at=NOON)
    assert projection(t1)[4] == [4975, 3000, 1950, 4090]
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)  # the bank stays
    assert projection(t1)[:4] == (game.pk, 2, 3, "E")
    assert "ledger intact" in verify()
    services.end_game(game=game, user=people["supervisor"])
    assert projection(t1) == (None, 0, None, "", [])
    assert "ledger intact" in verify()


def test_i_2_the_game_that_completes_the_north_round_leaves_the_projection(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    for _ in range(16):  # South wins each time: the bank goes round four times
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    assert projection(t1) == (None, 0, None, "", [])
    assert "ledger intact" in verify()


def test_an_approved_amendment_carries_into_the_projection(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="it was a draw",
                                          record={**first.record, **DRAW}, at=NOON)
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True, at=NOON)
    # Two draws: nobody paid, the bank never moved.
    # Later jogos keep the seats they were played with: jogo 2 was played with chair 1 as banker.
    assert projection(t1) == (game.pk, 2, 1, "E", [5000, 3000, 2000, 4000])
    assert "ledger intact" in verify()


def test_recording_a_jogo_reads_the_projection_in_a_fixed_number_of_queries(db):
    """Six statements whatever the game's length: lock the table (with its projection), look
    the idempotency key and the gaming day's state up (one query), ask the rotation whether the
    dealer is on the table (the count's `may_record`), insert the jogo, move the head and the
    projection; and the floor's alerts read once what the jogo may raise. (SQLite's BEGIN and
    COMMIT are not counted.)"""
    from django.test.utils import CaptureQueriesContext
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    counts = []
    for number in range(1, 9):
        record = next_record(game)
        with CaptureQueriesContext(connection) as queries:
            services.record_jogo(table=t1, user=people["dealer"], record=record, idempotency_key=f"key-{number}",
                                 at=NOON)
        counts.append(len([q for q in queries.captured_queries
                           if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]))
    assert counts == [6] * 8


def test_verify_ledger_catches_a_projection_that_the_ledger_does_not_give(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    with connection.cursor() as cursor:  # the application's own login can write the table row
        cursor.execute("UPDATE pit_table SET game_capital = %s WHERE id = %s", ['[4950, 3190, 1975, 9975]', t1.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert "table T1 (Casino Lisboa), the table's game in progress: its projection says game_capital" in \
        str(failed.value)
    assert "the ledger's rows give [4950, 3090, 1975, 3975]" in str(failed.value)


def test_verify_ledger_catches_a_table_that_lost_its_game_in_progress(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pit_table SET game_id = NULL WHERE id = %s", [t1.pk])
    with pytest.raises(CommandError, match=f"the table names game None; the games not ended are \\[{game.pk}\\]"):
        verify()
