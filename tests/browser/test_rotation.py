"""The rotation on screen in a real headless Chromium: a supervisor relieves a dealer at his
table in one step; a dealer the rotation no longer has on his table is refused, and his screen
says why."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from selenium.webdriver.support.select import Select

from casino.count import services
from casino.count.models import Rotation
from casino.pit.models import Jogo
from tests.browser.screen import Screen, submit
from tests.builders.pit import seat, staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def _a_minute_ago_on_the_log(entry: Rotation) -> dt.datetime:
    """A moment of today's gaming day after the entry started and not after now, to the minute."""
    moment = max(timezone.now() - dt.timedelta(minutes=1), entry.starts_at + dt.timedelta(minutes=1))
    return timezone.localtime(moment).replace(second=0, microsecond=0)


def test_a_supervisor_relieves_a_dealer_in_one_step(screen: Screen):
    people, t1, _ = staff()
    people["dealer"].first_name, people["dealer"].last_name = "Ana", "Dealer"
    people["dealer"].save()
    entry = Rotation.objects.get(table=t1, person=people["dealer"])  # the builder's: today, from the day's start
    relief_at = _a_minute_ago_on_the_log(entry)
    screen.log_in("supervisor")
    screen.open("/count/rotation/")
    screen.wait_for(f"tr[data-entry='{entry.pk}'].open-entry .person", "Ana Dealer")
    Select(screen.find(f"#relieve_{entry.pk}_relief-person")).select_by_value(str(people["supervisor2"].pk))
    screen.find(f"#relieve_{entry.pk}_relief-at").send_keys(relief_at.strftime("%H:%M"))
    submit(screen, f"tr[data-entry='{entry.pk}'] form.relieve-entry button")
    screen.wait_for(".messages", f"relieved Ana Dealer at table T1 at {relief_at:%H:%M}")

    entry.refresh_from_db()
    made = Rotation.objects.get(table=t1, person=people["supervisor2"])
    assert entry.ends_at == made.starts_at == relief_at
    assert (made.duty, made.recorded_by, entry.ended_by) == ("dealer", people["supervisor"], people["supervisor"])
    screen.wait_for(f"tr[data-entry='{made.pk}'].open-entry .person", "supervisor2")
    assert screen.text(f"tr[data-entry='{entry.pk}'] .until").startswith(f"{relief_at:%Y-%m-%d %H:%M}")


def test_a_dealer_off_the_rotation_sees_his_recording_refused(screen: Screen):
    people, t1, _ = staff()
    entry = Rotation.objects.get(table=t1, person=people["dealer"])
    seat(t1, people["dealer"], at=entry.starts_at + dt.timedelta(minutes=1))
    services.rotation_close(entry=entry, ends_at=_a_minute_ago_on_the_log(entry), user=people["supervisor"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "345m678p234s99m11p")
    screen.type("winning_tile", "1p")
    submit(screen, 'button[value="save"]')
    screen.wait_for("main", "the rotation log does not have dealer dealing at table T1")
    assert "internal control of the rotation log" in screen.text("main")
    assert t1.refusals.filter(attempted_by=people["dealer"]).exists()
    assert not Jogo.objects.filter(table=t1).exists()
