"""The count room's part of the demo day (casino/pit/demo.py): two counters, and after the
shift ends the boxes of three tables counted by both: one over within the thresholds (C-01,
4 over 210), one exact (S-01) and one short beyond them (C-03, 500 short of 800), which opens a
case; the boxes of C-02 and S-02 wait for their count."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from casino.pit import demo as pit_demo
from casino.pit.demo import PASSWORD
from casino.pit.models import Table
from casino.pit.roles import COUNTER

from . import services, shifts

COUNTERS = [("counter", "Fátima", "Counter"), ("counter2", "Gil", "Counter")]
COUNTED_AT = dt.datetime(2026, 11, 21, 22, 30)  # after the demo day's second shift (14:00–22:00)
# table: counted minus expected
VARIANCES = {"C-01": 4, "S-01": 0, "C-03": -500}


def on_rotation(*, table: Table, person, duty: str, at: dt.datetime, by) -> dt.datetime:
    """The pit demo's staffing step: `person` on `table`'s rotation from the start of the shift
    running at `at`, recorded by `by`; when the entry starts."""
    starts = shifts.shift_bounds(*shifts.shift_of(at))[0]
    services.rotation_start(table=table, person=person, duty=duty, starts_at=starts, user=by, at=at)
    return starts


if on_rotation not in pit_demo.STAFFING:  # registered once, when the count's AppConfig imports this module
    pit_demo.STAFFING.append(on_rotation)


@transaction.atomic
def build() -> None:
    counters = []
    for username, first, last in COUNTERS:
        person = User.objects.create_user(username, password=PASSWORD, first_name=first, last_name=last)
        person.groups.add(Group.objects.get(name=COUNTER))
        counters.append(person)
    at = timezone.make_aware(COUNTED_AT)
    boxes = {box.table.number: box for box in services.boxes_ready(now=at)}
    for number, variance in VARIANCES.items():
        box = boxes[number]
        counted = services.expected_commission(box) + variance
        for person in counters:
            services.sign_count(box=box, user=person, password=PASSWORD, counted=counted, at=at)
    assert set(boxes) == {table.number for table in Table.objects.all()}
