"""Five identical draws posted at once without an Idempotency-Key: each names the
jogo it records (Jogo-Number), so one is recorded and four get a 409. Threads race on the table's
row lock, each with its own connection: PostgreSQL, with committed data (a transactional test)."""
import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from casino.pit.models import Jogo
from tests.builders.pit import DRAW, next_record, seat, staff


@pytest.mark.skipif(connection.vendor != "postgresql", reason="threads racing on the table's row lock: PostgreSQL")
@pytest.mark.usefixtures("groups_restored_afterwards", "flush_ledger_afterwards")
def test_five_identical_draws_posted_at_once_without_a_key_make_one_jogo():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    draw = next_record(game, **DRAW)
    statuses, barrier = [], threading.Barrier(5)

    def post():
        try:
            dealer = APIClient()
            dealer.force_authenticate(people["dealer"])
            barrier.wait()
            statuses.append(dealer.post(f"/api/v1/tables/{t1.pk}/jogos/", draw, format="json",
                                        HTTP_JOGO_NUMBER="1").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409, 409, 409, 409]
    assert Jogo.objects.filter(table=t1).count() == 1
