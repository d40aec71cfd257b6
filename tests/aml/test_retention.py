"""A player under a case keeps his personal data past the retention period (casino/aml/receivers.py
answers the pit's `keep_personal_data`): while the case is in progress, and for
PATRON_RETENTION_DAYS after its escalation; a case decided "no report" keeps nobody."""
import datetime as dt

import pytest

from casino.aml import cases
from casino.aml.receivers import kept_patrons
from casino.pit.signals import keep_personal_data
from tests.aml.builders import NOON, cast, escalated, opened, player

pytestmark = pytest.mark.django_db


def kept(patrons) -> set[int]:
    answers = keep_personal_data.send(sender=None, patrons=list(patrons))
    return set().union(*(answer for _, answer in answers))


def test_a_player_under_a_case_in_progress_is_kept_and_another_is_not():
    people, t1, _ = cast()
    who, case = opened(people, t1)
    free = player(t1.casino, people["supervisor"], name="Lee")
    assert kept([who.pk, free.pk]) == {who.pk}
    cases.decide(case=case, user=people["inspector"], report=True, note="structuring")
    assert kept([who.pk, free.pk]) == {who.pk}


def test_a_case_decided_no_report_keeps_nobody():
    people, t1, _ = cast()
    who, case = opened(people, t1)
    cases.decide(case=case, user=people["inspector"], report=False, note="nothing odd")
    assert kept([who.pk]) == set()


def test_an_escalated_case_keeps_its_player_for_the_retention_period_after_the_escalation(settings):
    settings.PATRON_RETENTION_DAYS = 5 * 366
    people, t1, _ = cast()
    who, case = escalated(people, t1)
    escalated_at = case.events.get(kind="escalated").recorded_at
    assert escalated_at == NOON + dt.timedelta(hours=2)
    assert kept_patrons([who.pk], now=escalated_at + dt.timedelta(days=5 * 366 - 1)) == {who.pk}
    assert kept_patrons([who.pk], now=escalated_at + dt.timedelta(days=5 * 366 + 1)) == set()


def test_the_pit_s_anonymisation_spares_a_player_under_a_case_and_then_takes_him(settings):
    """Both players were last seen (recorded) long ago; the one under a case in progress keeps his
    data, and loses it once his case is closed without a report."""
    from django.utils import timezone

    from casino.pit.models import Patron
    from casino.pit.patrons import anonymise_expired

    settings.PATRON_RETENTION_DAYS = 30
    people, t1, _ = cast()
    who, case = opened(people, t1)
    free = player(t1.casino, people["supervisor"], name="Lee")
    long_ago = timezone.now() - dt.timedelta(days=31)
    Patron.objects.filter(pk__in=[who.pk, free.pk]).update(created_at=long_ago)

    assert anonymise_expired() == 1
    who.refresh_from_db(), free.refresh_from_db()
    assert (who.name, who.anonymised_at is None) == ("Chan Tai Man", True)
    assert (free.name, free.anonymised_at is None) == ("", False)

    cases.decide(case=case, user=people["inspector"], report=False, note="nothing odd")
    assert anonymise_expired() == 1
    who.refresh_from_db()
    assert who.anonymised_at is not None
    from casino.aml.verify import breaks

    assert breaks().found == []  # his case's chain is intact: it named him by id only
