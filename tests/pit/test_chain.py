"""The ledger's chain: the fields of a ledger row its hash covers, in a fixed order (how a row
is hashed is tests/test_chain.py's), and verify's reading of PostgreSQL's times."""
import datetime as dt

import pytest

from casino.chain import plain
from casino.pit.chain import canonical
from casino.pit.models import Movement


def test_a_movement_hashes_from_its_values_in_a_fixed_order():
    values = [3, 1, dt.datetime(2026, 11, 23, 1, 8, tzinfo=dt.UTC), 7, dt.date(2026, 11, 22), 5, 2, "buy_in", 100, 0]
    assert canonical(Movement, [*values, 9]) == (
        b'{"after_jogos":0,"amount":100,"chair":2,"game_id":5,"gaming_day":"2026-11-22",'
        b'"kind":"buy_in","patron_id":9,"recorded_at":"2026-11-23T01:08:00+00:00","recorded_by_id":7,"seq":1,'
        b'"table_id":3,"type":"Movement"}')
    # A movement recorded before players were people names none, and hashes as it always did.
    assert canonical(Movement, [*values, None]) == (
        b'{"after_jogos":0,"amount":100,"chair":2,"game_id":5,"gaming_day":"2026-11-22",'
        b'"kind":"buy_in","recorded_at":"2026-11-23T01:08:00+00:00","recorded_by_id":7,"seq":1,'
        b'"table_id":3,"type":"Movement"}')


@pytest.mark.parametrize("text", ["2026-09-30 23:00:00+00", "2026-09-30 23:02:09.6+00", "2026-09-30 23:02:09.000001+00",
                                  "2026-09-30 23:02:09.123456+00", "2026-10-01 07:02:09.25+08"])
def test_verify_reads_postgresqls_text_of_a_time_as_the_chain_writes_the_time(text):
    from casino.pit.verify import _utc_text
    assert _utc_text(text) == plain(dt.datetime.fromisoformat(text))
