"""The rotation decides who works where (casino/count/receivers.py, services.py): a dealer records
only while the rotation has him on the table; a supervisor covers his tables; a relief and a
shift's draft write each of their entries in one step."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.count import rotation, services
from casino.count.models import Rotation
from casino.pit import services as pit_services
from casino.pit.errors import Refused
from casino.pit.models import Game, Refusal
from casino.pit.signals import table_event
from tests.builders.pit import NOON, next_record, seat, staff

pytestmark = pytest.mark.django_db

PLAYERS = [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)]


def _events():
    """Every table_event sent while the test runs: (event, subject)."""
    heard = []

    def listen(sender, event, subject=None, **kwargs):
        heard.append((event, subject))

    table_event.connect(listen, weak=False, dispatch_uid="test-rotation-events")
    return heard


@pytest.fixture
def heard():
    found = _events()
    yield found
    table_event.disconnect(dispatch_uid="test-rotation-events")


def test_a_dealer_off_the_rotation_is_refused_and_the_refusal_is_kept():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    entry = Rotation.objects.get(table=t1, person=people["dealer"], gaming_day=NOON.date())
    services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(minutes=30), user=people["supervisor"])
    later = NOON + dt.timedelta(hours=1)
    with pytest.raises(Refused) as refused:
        pit_services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=later)
    problem, = refused.value.problems
    assert (problem.code, problem.field, problem.article) == ("off_rotation", "table", None)
    assert "table T1" in problem.message and "internal control of the rotation log" in problem.message
    kept = Refusal.objects.get(table=t1)
    assert kept.attempted_by == people["dealer"] and kept.errors[0]["code"] == "off_rotation"


def test_a_dealer_on_another_table_s_rotation_may_not_seat_a_game_here():
    people, t1, t2 = staff()
    with pytest.raises(Refused) as refused:
        pit_services.start_game(table=t2, user=people["dealer"], players=PLAYERS, first_banker=0,
                                at=timezone.now())
    assert refused.value.problems[0].code == "off_rotation"
    assert not Game.objects.filter(table=t2).exists()


def test_a_dealer_with_a_supervisor_s_entry_only_is_refused():
    people, t1, t2 = staff()
    at = NOON
    services.rotation_start(table=t2, person=people["dealer"], duty=Rotation.SUPERVISOR,
                            starts_at=at - dt.timedelta(hours=1), user=people["supervisor"])
    with pytest.raises(Refused):
        pit_services.start_game(table=t2, user=people["dealer"], players=PLAYERS, first_banker=0, at=at)


def test_a_supervisor_assigned_to_the_table_covers_it_without_an_entry():
    people, t1, t2 = staff()
    assert not rotation.on_rotation(table=t1, person=people["supervisor"], at=NOON, duty=Rotation.SUPERVISOR)
    game = pit_services.start_game(table=t1, user=people["supervisor"], players=PLAYERS, first_banker=0, at=NOON)
    jogo, _ = pit_services.record_jogo(table=t1, user=people["supervisor"], record=next_record(game), at=NOON)
    assert jogo.recorded_by == people["supervisor"]


def test_a_supervisor_neither_assigned_nor_on_the_rotation_is_refused():
    people, t1, t2 = staff()
    with pytest.raises(Refused) as refused:
        pit_services.start_game(table=t2, user=people["supervisor"], players=PLAYERS, first_banker=0, at=NOON)
    assert refused.value.problems[0].code == "off_rotation"


def test_a_relief_ends_one_entry_and_starts_the_next_at_one_moment(heard):
    people, t1, t2 = staff()
    entry = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=NOON,
                                    user=people["supervisor"])
    relief_at = NOON + dt.timedelta(hours=1)
    made = services.rotation_relieve(entry=entry, person=people["dealer"], relieved_at=relief_at,
                                     user=people["supervisor"])
    entry.refresh_from_db()
    assert entry.ends_at == relief_at == made.starts_at
    assert (made.table, made.duty, made.person, made.gaming_day) == (t1, entry.duty, people["dealer"],
                                                                      entry.gaming_day)
    assert [event for event, subject in heard if subject in (entry, made)] == ["rotation_changed"] * 3
    assert rotation.on_rotation(table=t1, person=people["dealer"], at=relief_at)
    assert not rotation.on_rotation(table=t1, person=people["other_dealer"], at=relief_at)


@pytest.mark.parametrize("when, code", [(dt.timedelta(days=400), "rotation_future"),
                                        (dt.timedelta(days=1), "rotation_day")])
def test_a_relief_in_the_future_or_on_another_day_writes_nothing(when, code):
    people, t1, t2 = staff()
    starts = NOON if code == "rotation_day" else timezone.now() - dt.timedelta(minutes=5)
    entry = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=starts,
                                    user=people["supervisor"])
    with pytest.raises(Refused) as refused:
        services.rotation_relieve(entry=entry, person=people["dealer"], relieved_at=starts + when,
                                  user=people["supervisor"])
    assert refused.value.problems[0].code == code
    entry.refresh_from_db()
    assert entry.ends_at is None and not Rotation.objects.filter(starts_at=starts + when).exists()


def test_a_relief_by_the_same_person_is_refused():
    people, t1, t2 = staff()
    entry = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=NOON,
                                    user=people["supervisor"])
    with pytest.raises(Refused) as refused:
        services.rotation_relieve(entry=entry, person=people["other_dealer"], relieved_at=NOON + dt.timedelta(hours=1),
                                  user=people["supervisor"])
    assert refused.value.problems[0].code == "relief_same_person"


def test_the_next_shift_s_draft_is_the_previous_shift_s_assignments_confirmed_as_changed():
    people, t1, t2 = staff()
    day = NOON.date()  # shift 1 06:00–14:00, shift 2 14:00–22:00
    kept = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=NOON,
                                   user=people["supervisor"])
    ended = services.rotation_start(table=t2, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    services.rotation_close(entry=ended, ends_at=NOON + dt.timedelta(hours=1), user=people["supervisor"])
    covered = services.rotation_start(table=t2, person=people["supervisor2"], duty=Rotation.SUPERVISOR,
                                      starts_at=NOON, user=people["supervisor"])
    draft = services.rotation_draft(casino=t1.casino, gaming_day=day, shift=2)
    lines = [line.entry for line in draft if line.entry.recorded_by == people["supervisor"]]
    assert lines == [kept, covered]  # the entry ended at 13:00 is not in it
    made = services.rotation_confirm(casino=t1.casino, gaming_day=day, shift=2, user=people["supervisor"],
                                     lines=[{"entry": kept, "person": people["dealer"]}])  # covered dropped
    shift_starts = timezone.make_aware(dt.datetime(2026, 11, 21, 14, 0))
    kept.refresh_from_db()
    covered.refresh_from_db()
    assert kept.ends_at == shift_starts and covered.ends_at is None
    assert [(e.table, e.person, e.duty, e.starts_at) for e in made] == [(t1, people["dealer"], "dealer", shift_starts)]
    with pytest.raises(Refused) as refused:  # confirmed once
        services.rotation_confirm(casino=t1.casino, gaming_day=day, shift=2, user=people["supervisor"],
                                  lines=[{"entry": kept, "person": people["dealer"]}])
    assert refused.value.problems[0].code in ("draft_line", "draft_confirmed")


def test_a_shift_not_yet_started_is_not_confirmed():
    people, t1, t2 = staff()
    now = timezone.now()
    day, shift = services.shifts.shift_of(now)
    after = services.shifts.shift_bounds(day, shift)[1]
    next_day, next_shift = services.shifts.shift_of(after)
    draft = services.rotation_draft(casino=t1.casino, gaming_day=next_day, shift=next_shift)
    assert draft  # the dealers the builder put on today's rotation
    with pytest.raises(Refused) as refused:
        services.rotation_confirm(casino=t1.casino, gaming_day=next_day, shift=next_shift, user=people["supervisor"],
                                  lines=[{"entry": draft[0].entry, "person": draft[0].person}])
    assert refused.value.problems[0].code in ("rotation_future", "draft_line")


# --- On screen ---------------------------------------------------------------------------------

@pytest.mark.parametrize("who, status", [("dealer", 403), ("supervisor", 200), ("inspector", 200), ("manager", 200)])
def test_the_draft_is_read_by_supervisors_inspectors_and_managers(client, who, status):
    people, t1, t2 = staff()
    client.force_login(people[who])
    assert client.get(f"/count/rotation/draft?day={NOON.date()}&shift=2").status_code == status


@pytest.mark.parametrize("who, status", [("dealer", 403), ("inspector", 403), ("manager", 403), ("supervisor", 302)])
def test_only_a_supervisor_confirms_a_draft_on_screen(client, who, status):
    people, t1, t2 = staff()
    kept = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=NOON, user=people["supervisor"])
    client.force_login(people[who])
    data = {f"keep_{kept.pk}": "on", f"person_{kept.pk}": people["supervisor2"].pk}
    response = client.post(f"/count/rotation/draft?day={NOON.date()}&shift=2", data)
    assert response.status_code == status
    made = Rotation.objects.filter(person=people["supervisor2"], table=t1)
    assert made.count() == (1 if status == 302 else 0)


def test_a_relief_on_screen_and_a_refused_one_says_why(client):
    people, t1, t2 = staff()
    entry = services.rotation_start(table=t1, person=people["other_dealer"], starts_at=NOON, user=people["supervisor"])
    client.force_login(people["supervisor"])
    response = client.post(f"/count/rotation/{entry.pk}/relieve", {"relief-person": people["other_dealer"].pk,
                                                                   "relief-at": "13:00"})
    assert response.status_code == 400 and "is already on it" in response.content.decode()
    response = client.post(f"/count/rotation/{entry.pk}/relieve", {"relief-person": people["dealer"].pk,
                                                                   "relief-at": "13:00"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert timezone.localtime(entry.ends_at).strftime("%H:%M") == "13:00"
    assert Rotation.objects.get(table=t1, person=people["dealer"], starts_at=entry.ends_at).recorded_by == people[
        "supervisor"]
    client.force_login(people["inspector"])
    assert client.post(f"/count/rotation/{entry.pk}/relieve", {"relief-person": people["dealer"].pk,
                                                                "relief-at": "13:30"}).status_code == 403
