"""How every chain hashes a row (casino/chain.py): msgspec writes exactly what `json.dumps`
with sorted keys, no spaces and non-ASCII kept writes, so a row hashed one way checks the other
way; a time reads the same however the database gives it; and a field added after rows were
first hashed leaves their hashes as they were."""
import datetime as dt
import hashlib
import json

from hypothesis import given, strategies as st

from casino.chain import GENESIS, _encode, chained_hash, plain
from casino.count.chain import COUNT_CHAINS
from casino.count.models import Count, Signature
from casino.pit.chain import LEDGER
from casino.pit.models import Jogo

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@given(JSON)
def test_the_canonical_json_is_what_json_dumps_writes_with_sorted_keys(value):
    assert _encode(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def test_a_time_reads_the_same_aware_or_as_a_raw_sqlite_cursor_gives_it():
    aware = dt.datetime(2026, 11, 23, 9, 8, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert plain(aware) == plain(dt.datetime(2026, 11, 23, 1, 8)) == "2026-11-23T01:08:00+00:00"
    assert plain(dt.date(2026, 11, 22)) == "2026-11-22" and plain("2026-11-22") == "2026-11-22"


def test_a_rows_hash_is_the_sha256_of_the_previous_hash_and_its_content():
    assert chained_hash(GENESIS, b"{}") == hashlib.sha256(GENESIS.encode() + b"{}").hexdigest()


def test_a_field_added_later_enters_the_hash_only_when_it_differs_from_what_earlier_rows_have():
    at = dt.datetime(2026, 11, 23, 1, 8, tzinfo=dt.UTC)
    earlier = COUNT_CHAINS.canonical(Count, [4, 1, at, 7, 1, 20, "", ""])
    assert earlier == (b'{"attempt":1,"box_id":4,"expected":20,"reason":"","recorded_at":"2026-11-23T01:08:00+00:00",'
                       b'"recorded_by_id":7,"seq":1,"type":"Count"}')
    assert b'"salt":"ab"' in COUNT_CHAINS.canonical(Count, [4, 1, at, 7, 1, 20, "", "ab"])
    signed = COUNT_CHAINS.canonical(Signature, [4, 2, at, 7, 9, 20, {}, ""])
    assert b"idempotency_key" not in signed and b'"denominations":{}' in signed
    assert COUNT_CHAINS.canonical(Signature, [4, 2, at, 7, 9, 20, {}, "k1"]).count(b'"idempotency_key":"k1"') == 1


def test_a_jogo_of_the_first_rule_set_hashes_without_it_and_of_a_later_version_with_that_version():
    fields = LEDGER.content_fields[Jogo]
    values = {name: None for name in fields} | {"recorded_at": dt.datetime(2026, 11, 23, 1, 8, tzinfo=dt.UTC),
                                                "gaming_day": dt.date(2026, 11, 22)}
    first = LEDGER.canonical(Jogo, [values[name] for name in fields[:-2]] + ["portaria-135-91-M", 1])
    later = LEDGER.canonical(Jogo, [values[name] for name in fields[:-2]] + ["portaria-135-91-M", 2])
    assert b"rule_set" not in first
    assert b'"rule_set_code"' not in later and b'"rule_set_version":2' in later
