"""The chain's canonical JSON: msgspec writes exactly what `json.dumps` with sorted keys, no
spaces and non-ASCII kept writes, so a row hashed one way checks the other way."""
import datetime as dt
import json

import pytest
from hypothesis import given, strategies as st

from casino.pit.chain import _plain, canonical
from casino.pit.models import Movement

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@given(JSON)
def test_the_canonical_json_is_what_json_dumps_writes_with_sorted_keys(value):
    from casino.pit.chain import _encode
    assert _encode(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_a_time_reads_the_same_aware_or_as_a_raw_sqlite_cursor_gives_it():
    aware = dt.datetime(2026, 11, 23, 9, 8, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert _plain(aware) == _plain(dt.datetime(2026, 11, 23, 1, 8)) == "2026-11-23T01:08:00+00:00"


def test_a_movement_hashes_from_its_values_in_a_fixed_order():
    values = [3, 1, dt.datetime(2026, 11, 23, 1, 8, tzinfo=dt.UTC), 7, dt.date(2026, 11, 22), 5, 2, "buy_in", 100, 0]
    assert canonical(Movement, values) == (
        b'{"after_jogos":0,"amount":100,"chair":2,"game_id":5,"gaming_day":"2026-11-22",'
        b'"kind":"buy_in","recorded_at":"2026-11-23T01:08:00+00:00","recorded_by_id":7,"seq":1,'
        b'"table_id":3,"type":"Movement"}')


@pytest.mark.parametrize("text", ["2026-09-30 23:00:00+00", "2026-09-30 23:02:09.6+00", "2026-09-30 23:02:09.000001+00",
                                  "2026-09-30 23:02:09.123456+00", "2026-10-01 07:02:09.25+08"])
def test_verify_reads_postgresqls_text_of_a_time_as_the_chain_writes_the_time(text):
    from casino.pit.verify import _utc_text
    assert _utc_text(text) == _plain(dt.datetime.fromisoformat(text))
