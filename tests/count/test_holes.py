"""The blind count's controls hold against what a counter, a race or a database owner can do:
the expected figure cannot be worked out from anything a counter receives; a case's state moves
only with an event; the count's chains are anchored by their saved heads; no box is forgotten;
a recount is neither a race nor a second look; the rotation log is kept through the API; the
signing password is throttled like the login."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino.count import blind, services
from casino.count.models import Box, Case, CaseEvent, Count, Decision, Rotation, Signature
from casino.count.verify import breaks
from casino.pit.heads import departures, snapshot
from casino.pit.models import Table
from casino.pit.roles import COUNTER
from tests.builders.count import PASSWORD, box_played_yesterday, cast, count_by_two, play
from tests.builders.ledger import behind_the_applications_back, on_postgresql
from tests.builders.pit import NOON, user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def thresholds(settings):
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2


@pytest.fixture
def ready():
    """T1's box of yesterday (expected 20), ready to count; four counters."""
    people, t1, t2 = cast()
    people["counter4"] = user("counter4", COUNTER)
    return people, box_played_yesterday(t1, people["dealer"]), t1


def api(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def sign_url(the_box) -> str:
    return f"/api/v1/count/boxes/{the_box.pk}/count/"


# --- 1. Nothing a counter receives gives the expected figure away ---------------------------------

def _json(data: dict) -> bytes:
    """The canonical JSON of a chained row, as the README publishes it (sorted keys, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _chained(prev: str, data: dict) -> str:
    return hashlib.sha256(prev.encode() + _json(data)).hexdigest()


def _guess_expected(count_fields: dict, *, count_hash: str | None = None, signature: dict | None = None,
                    most: int = 5000) -> int | None:
    """Try every expected figure up to `most` against a count row's hash, or against the hash of
    the signature that follows it: what a counter can do with a hash he received."""
    for guess in range(most + 1):
        candidate = _chained("0" * 64, {**count_fields, "expected": guess, "type": "Count"})
        if count_hash is not None and candidate == count_hash:
            return guess
        if signature is not None and _chained(candidate, signature["content"]) == signature["hash"]:
            return guess
    return None


def test_the_expected_figure_cannot_be_brute_forced_from_a_first_signature(ready):
    people, the_box, t1 = ready
    counter = people["counter1"]
    answer = api(counter).post(sign_url(the_box), {"count": 1, "counted": 18, "password": PASSWORD}, format="json")
    assert answer.status_code == 201
    shown = api(counter).get(f"/api/v1/count/boxes/{the_box.pk}/").json()
    assert shown["expected"] is None
    # Everything in the count row but its expected figure is known to the counter (his own id,
    # the box, seq 1, the time he signed, attempt 1, no reason); the test even gives him the
    # exact time the row was recorded.
    count = Count.objects.get(box=the_box)
    known = {"box_id": the_box.pk, "seq": 1, "recorded_at": count.recorded_at.astimezone(dt.UTC).isoformat(),
             "recorded_by_id": counter.pk, "attempt": 1, "reason": ""}
    body = answer.json()
    signature = {"hash": body["hash"], "content": {
        "box_id": the_box.pk, "seq": 2, "recorded_at": dt.datetime.fromisoformat(body["recorded_at"])
        .astimezone(dt.UTC).isoformat(), "recorded_by_id": counter.pk, "count_id": count.pk, "counted": 18,
        "denominations": {}, "type": "Signature"}}
    assert _guess_expected(known, signature=signature) is None
    assert "salt" not in json.dumps(body) and "salt" not in json.dumps(shown)


def test_the_expected_figure_cannot_be_brute_forced_from_a_recount_answer(ready):
    people, the_box, t1 = ready
    count_by_two(the_box, people["counter1"], people["counter2"], 18, second_counted=19, at=timezone.now())
    answer = api(people["counter3"]).post(f"/api/v1/count/boxes/{the_box.pk}/recount/",
                                          {"reason": "the totals differ"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    count = Count.objects.get(pk=body["id"])
    known = {"box_id": the_box.pk, "seq": count.seq, "recorded_at": count.recorded_at.astimezone(dt.UTC).isoformat(),
             "recorded_by_id": people["counter3"].pk, "attempt": 2, "reason": "the totals differ"}
    prev = Signature.objects.filter(box=the_box).order_by("-seq").first().hash
    assert count.prev_hash == prev
    found = next((guess for guess in range(5001)
                  if _chained(prev, {**known, "expected": guess, "type": "Count"}) == body["hash"]), None)
    assert found is None


# --- 2. A case's state moves only with an event -------------------------------------------------------

@pytest.fixture
def short(ready):
    """The box counted 15 of 20 beyond thresholds of 1 unit: its case open."""
    people, the_box, t1 = ready
    count_by_two(the_box, people["counter1"], people["counter2"], 5, at=timezone.now())
    return people, the_box, t1


@on_postgresql
def test_postgresql_refuses_a_case_state_changed_without_an_event(short):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE count_case SET state = 'resolved'")
    assert Case.objects.get().state == "open"


def test_verify_ledger_finds_a_case_state_its_events_do_not_give(short):
    behind_the_applications_back("UPDATE count_case SET state = 'resolved'")
    assert any("its state is 'resolved', but its last event left it 'open'" in found for found in breaks().found)


def test_verify_ledger_finds_a_case_opened_by_another_count_or_at_another_time(short):
    people, the_box, t1 = short
    behind_the_applications_back("UPDATE count_case SET opened_at = %s", [NOON])
    assert any("its opening is not its first event's" in found for found in breaks().found)


# --- 3. The count's chains are anchored -------------------------------------------------------------

def heads_file(tmp_path) -> str:
    path = tmp_path / "heads.json"
    call_command("ledger_heads", "--out", str(path), stderr=StringIO())
    return str(path)


def verify(*args) -> str:
    out = StringIO()
    call_command("verify_ledger", *args, stdout=out, stderr=out)
    return out.getvalue()


def _last_row_sql(model, the_box) -> tuple[str, list]:
    return f"DELETE FROM {model._meta.db_table} WHERE box_id = %s AND seq = %s", [the_box.pk, the_box.ledger_seq]


def _rehash_box_as(the_box, counted: int) -> None:
    """What a database owner would do to make the short box exact: change both totals, re-hash
    the chain from there, move the head."""
    from casino.count.chain import row_hash

    prev = None
    rows = sorted([*Count.objects.filter(box=the_box), *Signature.objects.filter(box=the_box)], key=lambda r: r.seq)
    for row in rows:
        if prev is not None:
            row.prev_hash = prev
        if isinstance(row, Signature):
            row.counted = counted
        row.hash = row_hash(row)
        prev = row.hash
        table = row._meta.db_table
        extra = ", counted = %s" if isinstance(row, Signature) else ""
        params = [row.prev_hash, row.hash] + ([counted] if extra else []) + [row.pk]
        behind_the_applications_back(f"UPDATE {table} SET prev_hash = %s, hash = %s{extra} WHERE id = %s", params)
    behind_the_applications_back("UPDATE count_box SET ledger_head = %s WHERE id = %s", [prev, the_box.pk])


def _delete_cases():
    """Delete every case and its events; the floor's alerts that name a case (a case opened
    raises one) let go of it first, as the foreign key asks of whoever deletes it."""
    behind_the_applications_back("UPDATE floor_alert SET case_id = NULL WHERE case_id IS NOT NULL")
    behind_the_applications_back("DELETE FROM count_caseevent")
    behind_the_applications_back("DELETE FROM count_case")


TAMPERINGS = {
    # cutting the end of a box's chain (its second signature) and rewinding its head
    "box chain cut": lambda b, c: (
        _delete_cases(),
        behind_the_applications_back(*_last_row_sql(Signature, b)),
        behind_the_applications_back("UPDATE count_box SET ledger_seq = ledger_seq - 1, ledger_head = %s WHERE id = %s",
                                      [Signature.objects.filter(box=b).order_by("seq").first().hash, b.pk])),
    "case deleted": lambda b, c: _delete_cases(),
    "box's whole count deleted": lambda b, c: (
        _delete_cases(),
        behind_the_applications_back("DELETE FROM count_signature"),
        behind_the_applications_back("DELETE FROM count_count"),
        behind_the_applications_back("UPDATE count_box SET ledger_seq = 0, ledger_head = ''")),
    "case's last event deleted": lambda b, c: (
        behind_the_applications_back("DELETE FROM count_caseevent WHERE case_id = %s AND seq = %s",
                                      [c.pk, c.ledger_seq]),
        behind_the_applications_back("UPDATE count_case SET ledger_seq = ledger_seq - 1, ledger_head = %s, "
                                      "state = 'open'",
                                      [CaseEvent.objects.get(case=c, seq=c.ledger_seq - 1).hash])),
    "short box re-hashed as exact, case deleted": lambda b, c: (
        _delete_cases(),
        _rehash_box_as(b, 20)),
}


@pytest.mark.parametrize("tampering", TAMPERINGS)
def test_verify_ledger_with_saved_heads_catches_each_tampering_of_the_count(short, tmp_path, tampering):
    people, the_box, t1 = short
    case = Case.objects.get()
    from casino.count import cases
    cases.add_note(case=case, user=people["inspector"], note="camera 3 reviewed")  # a case of two events
    the_box.refresh_from_db()
    case.refresh_from_db()
    saved = heads_file(tmp_path)
    assert "ledger intact" in verify("--heads", saved)
    TAMPERINGS[tampering](the_box, case)
    with pytest.raises(CommandError):
        verify("--heads", saved)


def test_the_heads_file_holds_the_boxes_cases_and_rotation_logs(short):
    people, the_box, t1 = short
    services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    saved = snapshot(timezone.now())
    the_box.refresh_from_db()
    case = Case.objects.get()
    assert saved["format"] == "ledger-heads/2"
    assert [(e["box_id"], e["seq"], e["hash"]) for e in saved["boxes"]] == [
        (the_box.pk, the_box.ledger_seq, the_box.ledger_head)]
    assert [(e["case_id"], e["seq"], e["hash"]) for e in saved["cases"]] == [(case.pk, 1, case.ledger_head)]
    # the last row: this entry (the builders put the dealers on the rotation before it)
    last = Rotation.objects.latest("seq").seq
    assert [(e["casino"], e["seq"]) for e in saved["rotation"]] == [(t1.casino.name, last)]
    assert departures(saved) == []


def test_a_heads_file_of_the_first_format_is_still_read(short):
    saved = snapshot(timezone.now())
    old = {"format": "ledger-heads/1", "taken_at": saved["taken_at"], "tables": saved["tables"]}
    assert departures(old) == []


def test_a_rewritten_rotation_log_breaks_its_saved_head(ready, tmp_path):
    people, the_box, t1 = ready
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    saved = heads_file(tmp_path)
    # Someone takes the dealer off the log: the entry deleted and the log rewound.
    behind_the_applications_back("DELETE FROM count_rotation WHERE id = %s", [entry.pk])
    behind_the_applications_back("UPDATE count_rotationlog SET ledger_seq = 0, ledger_head = ''")
    with pytest.raises(CommandError) as failed:
        verify("--heads", saved)
    # the entry is the log's last row (the builders put the dealers on the rotation before it)
    assert (f"rotation log of {t1.casino.name}, saved head at ledger seq {entry.seq}: that row no longer exists"
            in str(failed.value))


def test_a_rotation_entry_changed_or_its_end_moved_breaks_the_rotation_chain(ready):
    people, the_box, t1 = ready
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(hours=1), user=people["supervisor"])
    assert breaks().found == []
    behind_the_applications_back("UPDATE count_rotation SET ends_at = %s WHERE id = %s",
                                 [NOON + dt.timedelta(hours=3), entry.pk])
    assert any("its end is not the end recorded in the chain" in found for found in breaks().found)
    behind_the_applications_back("UPDATE count_rotation SET person_id = %s WHERE id = %s",
                                 [people["counter1"].pk, entry.pk])
    assert any("its content does not match its hash" in found for found in breaks().found)


def test_every_box_beyond_the_thresholds_has_a_case(short):
    _delete_cases()
    assert any("beyond the thresholds, but the box has no case" in found for found in breaks().found)


def test_verify_ledger_counts_the_boxes_cases_and_rotation_entries_it_checked(short):
    people, the_box, t1 = short
    services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    out = verify()
    # this entry and those the builders made to put the dealers on the rotation
    assert f"1 count box(es), 1 variance case(s), {Rotation.objects.count()} rotation entry(ies)" in out
    assert Rotation.objects.count() > 1


@on_postgresql
@pytest.mark.parametrize("statement", [
    "UPDATE count_box SET ledger_seq = ledger_seq - 1", "UPDATE count_box SET ledger_head = ''",
    "UPDATE count_case SET ledger_seq = ledger_seq - 1", "UPDATE count_rotation SET ends_at = now()",
    "DELETE FROM count_decision", "UPDATE count_decision SET reason = 'x'", "DELETE FROM count_rotationend",
    "UPDATE count_rotationlog SET ledger_seq = 0"])
def test_postgresql_refuses_to_move_a_head_or_end_an_entry_outside_the_chain(short, statement):
    people, the_box, t1 = short
    services.approve_recount(box=the_box, user=people["manager"], reason="the seal was broken")
    for starts in (NOON, NOON + dt.timedelta(hours=2)):
        entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=starts,
                                        user=people["supervisor"])
    services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(hours=3), user=people["supervisor"])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)


# --- 4. No box is forgotten ---------------------------------------------------------------------

def test_an_uncounted_box_stays_on_the_list_however_old(ready, client):
    people, the_box, t1 = ready
    t2 = Table.objects.get(number="T2")
    old = play(t2, people["other_dealer"], jogos=1, at=timezone.now() - dt.timedelta(days=9))
    old_day, old_shift = services.shifts.shift_of(old[0].recorded_at)
    listed = api(people["counter1"]).get("/api/v1/count/boxes/").json()
    assert [(b["gaming_day"], b["table"]) for b in listed][0] == (old_day.isoformat(), "T2")  # oldest first
    assert the_box.pk in [b["id"] for b in listed]
    by_day = api(people["counter1"]).get(f"/api/v1/count/boxes/?gaming_day={old_day}").json()
    assert [(b["shift"], b["state"]) for b in by_day] == [(old_shift, "waiting")]
    client.force_login(people["counter1"])
    page = client.get(reverse("counting:boxes")).content.decode()
    old_box = Box.objects.get(gaming_day=old_day)
    assert f'data-box="{old_box.pk}"' in page and f'data-box="{the_box.pk}"' in page


# --- 6. A recount is not a race ---------------------------------------------------------------------

def test_no_recount_while_a_count_waits_for_its_second_signature(ready):
    people, the_box, t1 = ready
    services.sign_count(box=the_box, user=people["counter1"], password=PASSWORD, counted=20)
    response = api(people["counter2"]).post(f"/api/v1/count/boxes/{the_box.pk}/recount/", {"reason": "why not"},
                                            format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "count_open"
    response = api(people["counter2"]).post(f"/api/v1/count/boxes/{the_box.pk}/recount/",
                                            {"reason": "why not", "abandon": True}, format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "not_first_signer"
    assert Count.objects.filter(box=the_box).count() == 1
    response = api(people["counter1"]).post(f"/api/v1/count/boxes/{the_box.pk}/recount/",
                                            {"reason": "I dropped a chip", "abandon": True}, format="json")
    assert response.status_code == 201 and response.json()["attempt"] == 2
    assert [(d.kind, d.reason) for d in Decision.objects.all()] == [("abandoned", "I dropped a chip")]
    view = blind.view(blind.with_latest_counts(Box.objects.filter(pk=the_box.pk)).get(), people["inspector"])
    assert (view.state, [v.count.abandoned for v in view.counts]) == ("counting", [True, False])


def test_a_signature_for_a_count_that_moved_on_is_a_conflict(ready):
    people, the_box, t1 = ready
    services.sign_count(box=the_box, user=people["counter1"], password=PASSWORD, counted=20, attempt=1)
    services.recount(box=the_box, user=people["counter1"], reason="I dropped a chip", abandon=True)
    # counter 2 read the box at count 1 and signs it: his signature does not land in count 2.
    response = api(people["counter2"]).post(sign_url(the_box), {"count": 1, "counted": 20, "password": PASSWORD},
                                            format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "count_moved_on"
    assert "count 2" in response.json()["errors"][0]["message"]
    assert not Signature.objects.filter(box=the_box, recorded_by=people["counter2"]).exists()


def test_a_signature_retried_with_its_idempotency_key_is_the_first(ready):
    people, the_box, t1 = ready
    client = api(people["counter1"])
    body = {"count": 1, "counted": 20, "password": PASSWORD}
    first = client.post(sign_url(the_box), body, format="json", HTTP_IDEMPOTENCY_KEY="sig-1")
    again = client.post(sign_url(the_box), body, format="json", HTTP_IDEMPOTENCY_KEY="sig-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    assert Signature.objects.filter(box=the_box).count() == 1
    other = api(people["counter2"]).post(sign_url(the_box), body, format="json", HTTP_IDEMPOTENCY_KEY="sig-1")
    assert other.status_code == 409 and Signature.objects.filter(box=the_box).count() == 1


# --- 7. A recount after an agreed count is blind, approved, and does not rewrite the record --------

def test_a_recount_after_an_agreed_count_needs_a_manager_and_fresh_counters(ready, client):
    people, the_box, t1 = ready
    count_by_two(the_box, people["counter1"], people["counter2"], 20, at=timezone.now())  # exact: seen by both
    for who in ("counter1", "counter3"):
        response = api(people[who]).post(f"/api/v1/count/boxes/{the_box.pk}/recount/", {"reason": "once more"},
                                         format="json")
        assert response.status_code == 409 and response.json()["errors"][0]["code"] == "recount_needs_approval"
    assert api(people["inspector"]).post(f"/api/v1/count/boxes/{the_box.pk}/approve-recount/", {"reason": "x"},
                                         format="json").status_code == 403
    response = api(people["manager"]).post(f"/api/v1/count/boxes/{the_box.pk}/approve-recount/",
                                           {"reason": "the seal was broken"}, format="json")
    assert response.status_code == 201
    assert api(people["counter1"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()["state"] == "recount_approved"
    # Those who saw the figure cannot sign the recount.
    response = api(people["counter2"]).post(sign_url(the_box), {"count": 2, "counted": 15, "password": PASSWORD},
                                            format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "seen_expected"
    for who in ("counter3", "counter4"):
        assert api(people[who]).post(sign_url(the_box), {"count": 2, "counted": 15, "password": PASSWORD},
                                     format="json").status_code == 201
    # Every count keeps its figures; the first agreed count stays of record, with no case.
    box_data = api(people["inspector"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()
    assert [(c["attempt"], c["counted"], c["variance"], c["of_record"]) for c in box_data["counts"]] == [
        (1, 20, 0, True), (2, 15, -5, False)]
    assert (box_data["variance"], Case.objects.exists()) == (0, False)
    assert Count.objects.get(box=the_box, attempt=2).reason == "the seal was broken"
    # The new counters see their own count's figures; the first counters still see theirs.
    assert api(people["counter3"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()["variance"] == -5
    assert api(people["counter1"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()["variance"] == 0


def test_a_manager_accepting_a_recount_moves_the_figure_of_record_and_the_case_follows(ready, client):
    people, the_box, t1 = ready
    count_by_two(the_box, people["counter1"], people["counter2"], 5, at=timezone.now())  # 15 short: a case
    services.approve_recount(box=the_box, user=people["manager"], reason="the seal was broken")
    count_by_two(the_box, people["counter3"], people["counter4"], 20, at=timezone.now())
    case = Case.objects.get()
    assert [e.kind for e in case.events.order_by("seq")] == ["opened"]  # the recount alone changes nothing
    response = api(people["manager"]).post(f"/api/v1/count/boxes/{the_box.pk}/accept-recount/",
                                           {"count": 2, "reason": "the chips were found in the drop"}, format="json")
    assert response.status_code == 201
    case.refresh_from_db()
    assert [(e.kind, e.variance) for e in case.events.order_by("seq")] == [("opened", -15), ("recounted", 0)]
    assert case.state == "open"  # a person closes it, with what was found
    client.force_login(people["manager"])
    page = client.get(reverse("counting:box", args=[the_box.pk])).content.decode()
    assert '<td class="num variance">0</td>' in page
    assert "The variance is beyond the thresholds" not in page  # never beside a variance that contradicts it
    assert "the case an earlier figure opened is open" in page
    assert "the chips were found in the drop" in page  # the reason, kept and shown


def test_the_walkthrough_cannot_recount_its_way_to_the_figure(ready):
    """50/50 against 50, then 45/45, then 50/50 by the same two: refused at the first recount."""
    people, the_box, t1 = ready
    count_by_two(the_box, people["counter1"], people["counter2"], 20, at=timezone.now())
    with pytest.raises(services.Refused):
        services.recount(box=the_box, user=people["counter1"], reason="again")
    assert Count.objects.filter(box=the_box).count() == 1 and not Case.objects.exists()


# --- 8. The rotation log through the API ----------------------------------------------------------

def test_a_counter_put_on_the_rotation_through_the_api_may_not_count_that_box(ready):
    people, the_box, t1 = ready
    starts = the_box.starts_at + dt.timedelta(hours=1)
    response = api(people["supervisor"]).post("/api/v1/count/rotation/", {
        "table": t1.pk, "person": people["counter1"].pk, "duty": "dealer", "starts_at": starts.isoformat()},
        format="json")
    assert response.status_code == 201, response.content
    listed = api(people["supervisor"]).get(f"/api/v1/count/rotation/?day={the_box.gaming_day}").json()
    # first the dealer's own entry, which the builder made for him to record the box's jogos
    assert [(e["person"], e["duty"]) for e in listed] == [("dealer", "dealer"), ("counter1", "dealer")]
    response = api(people["counter1"]).post(sign_url(the_box), {"count": 1, "counted": 20, "password": PASSWORD},
                                            format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "not_independent"
    closed = api(people["supervisor"]).post(f"/api/v1/count/rotation/{listed[1]['id']}/close/",
                                            {"ends_at": (starts + dt.timedelta(hours=1)).isoformat()}, format="json")
    assert closed.status_code == 200 and closed.json()["ends_at"] is not None


def test_the_rotation_api_keeps_the_forms_rules(ready):
    people, the_box, t1 = ready
    supervisor = api(people["supervisor"])
    future = timezone.now() + dt.timedelta(hours=2)
    response = supervisor.post("/api/v1/count/rotation/", {"table": t1.pk, "person": people["dealer"].pk,
                                                            "starts_at": future.isoformat()}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "rotation_future"
    response = supervisor.post("/api/v1/count/rotation/", {
        "table": t1.pk, "person": people["dealer"].pk, "starts_at": NOON.isoformat(), "gaming_day": "2026-11-20"},
        format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "rotation_day"
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    response = supervisor.post(f"/api/v1/count/rotation/{entry.pk}/close/",
                               {"ends_at": (NOON + dt.timedelta(days=1)).isoformat()}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "rotation_day"
    response = api(people["other_dealer"]).post("/api/v1/count/rotation/", {
        "table": t1.pk, "person": people["dealer"].pk, "starts_at": NOON.isoformat()}, format="json")
    assert response.status_code == 403
    written = Rotation.objects.filter(recorded_by=people["supervisor"])
    assert written.count() == 1 and written.get().ends_at is None


# --- 9. The signing password is throttled like the login ------------------------------------------

def test_wrong_signing_passwords_lock_out_signing_and_logging_in(ready, client):
    people, the_box, t1 = ready
    counter = api(people["counter1"])
    for _ in range(5):
        response = counter.post(sign_url(the_box), {"count": 1, "counted": 20, "password": "guess"}, format="json")
        assert response.status_code == 400 and response.json()["errors"][0]["field"] == "password"
    response = counter.post(sign_url(the_box), {"count": 1, "counted": 20, "password": PASSWORD}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "locked_out"
    assert not Signature.objects.exists()
    response = client.post(reverse("login"), {"username": "counter1", "password": PASSWORD})
    assert response.status_code != 302  # the login is locked too


# --- Low: what the count's API takes, and what a counter sees --------------------------------------

@pytest.mark.parametrize("counted", ["1_000", "١٠", "+5", 1.0, "5 ", True])
def test_a_counted_amount_is_a_whole_number_as_the_record_format_writes_it(ready, counted):
    people, the_box, t1 = ready
    response = api(people["counter1"]).post(sign_url(the_box), {"count": 1, "counted": counted, "password": PASSWORD},
                                            format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "counted"
    assert not Signature.objects.exists()


def test_a_counted_amount_may_be_a_string_of_digits(ready):
    people, the_box, t1 = ready
    response = api(people["counter1"]).post(sign_url(the_box), {"count": 1, "counted": "20", "password": PASSWORD},
                                            format="json")
    assert response.status_code == 201 and response.json()["counted"] == 20


def test_a_body_with_an_unknown_key_is_refused(ready):
    people, the_box, t1 = ready
    response = api(people["counter1"]).post(sign_url(the_box), {"count": 1, "counted": 20, "password": PASSWORD,
                                                                "expected": 20}, format="json")
    assert response.status_code == 400 and not Signature.objects.exists()


def test_a_reason_or_a_note_has_the_forms_limit(short):
    people, the_box, t1 = short
    case = Case.objects.get()
    response = api(people["inspector"]).post(f"/api/v1/count/cases/{case.pk}/notes/", {"note": "x" * 1_000_000},
                                             format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "note"
    response = api(people["manager"]).post(f"/api/v1/count/boxes/{the_box.pk}/approve-recount/",
                                           {"reason": "x" * 1_000_000}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "reason"
    assert CaseEvent.objects.count() == 1 and not Decision.objects.exists()


def test_a_counter_sees_the_figures_of_the_boxes_he_counted_only(short):
    people, the_box, t1 = short
    mine = api(people["counter1"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()
    assert (mine["expected"], mine["variance"]) == (20, -15)
    theirs = api(people["counter3"]).get(f"/api/v1/count/boxes/{the_box.pk}/").json()
    assert (theirs["expected"], theirs["counted"], theirs["variance"], theirs["counts"]) == (None, None, None, [])
    assert the_box.pk not in [b["id"] for b in api(people["counter3"]).get("/api/v1/count/boxes/").json()]
    assert the_box.pk in [b["id"] for b in api(people["counter1"]).get("/api/v1/count/boxes/").json()]
