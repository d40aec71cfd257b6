"""What the aml tests share: the cast (the pit's people, T1 and T2, and a counter), a player,
and a case on him."""
from __future__ import annotations

import datetime as dt
import itertools

from django.utils import timezone

from casino.aml import cases
from casino.pit.models import Patron
from tests.builders.count import cast as count_cast
from tests.builders.pit import NOON

DAY = dt.date(2026, 11, 21)  # the gaming day of NOON
_numbers = itertools.count(1234567)


def cast():
    """dealer, supervisor, supervisor2, other_dealer, inspector, manager, counter1–3; T1, T2."""
    return count_cast()


def player(casino, by, name="Chan Tai Man", identified=True) -> Patron:
    """A player of `casino`, identified by a Macau identity card unless `identified` is false."""
    now = timezone.now()
    document = ({"document_type": Patron.MACAU_ID, "document_number": f"{next(_numbers)}(8)", "document_country": "MO",
                 "date_of_birth": dt.date(1970, 1, 2), "nationality": "MO"} if identified else {})
    return Patron.objects.create(casino=casino, name=name, created_at=now, created_by=by, changed_at=now,
                                 changed_by=by, **document)


def opened(people, t1, *, note="Five buy-ins of 99,000 within an hour, at two tables.", at=NOON, movements=()):
    """A case on a new identified player of T1's casino, opened by the inspector: (player, case)."""
    who = player(t1.casino, people["supervisor"])
    return who, cases.open_case(patron=who, user=people["inspector"], note=note, gaming_day=DAY, at=at,
                                movements=movements)


def escalated(people, t1):
    """A case opened, noted, decided "report" by the inspector and escalated by the manager."""
    who, case = opened(people, t1)
    cases.add_note(case=case, user=people["inspector"], note="The player left after the fifth buy-in.",
                   at=NOON + dt.timedelta(minutes=30))
    cases.decide(case=case, user=people["inspector"], report=True, note="Amounts kept just below the threshold.",
                 at=NOON + dt.timedelta(hours=1))
    cases.escalate(case=case, user=people["manager"], note="Sent to the GIF by its secure form.",
                   at=NOON + dt.timedelta(hours=2))
    return who, case
