"""A variance case's life and the rotation log, end to end in headless Chromium: an inspector
notes and escalates a case that a correction reopened, a manager resolves it; a supervisor adds
an entry to the rotation log and closes it.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/variance-case.png.
"""
from __future__ import annotations

import datetime as dt

import pytest
from selenium.webdriver.common.by import By

from casino.count import cases
from casino.count.models import Case, Rotation
from casino.pit.models import Jogo
from tests.browser.screen import Screen, as_user, shot, submit
from tests.builders.cases import correct_to_a_draw, short_case
from tests.builders.count import AFTER

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_a_reopened_case_is_noted_escalated_and_resolved_by_a_manager(screen: Screen):
    people, t1, case = short_case()
    cases.mark_explained(case=case, user=people["inspector"], note="The counters mixed tips into the commission.",
                         at=AFTER + dt.timedelta(minutes=30))
    # The first jogo was in fact a draw: the box now holds 5 more than expected, beyond the
    # percentage threshold again, and the explained case opens again by itself.
    correct_to_a_draw(Jogo.objects.get(table=t1, number=1, revision=0), people["supervisor"], people["manager"],
                      at=AFTER + dt.timedelta(hours=1))

    as_user(screen, "inspector")
    screen.open("/count/cases/")
    screen.wait_for("table.cases tr.case", "reopened")
    submit(screen, "table.cases tr.case a")
    screen.wait_for("h1", "Variance case: table T1, 2026-11-21, shift 1")
    assert "Reopened after a correction" in screen.text(".reopened")
    assert screen.text(".case-state") == "open" and screen.text("dd.variance").startswith("+5")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".step-resolve")  # an inspector does not resolve

    screen.find("#note_note").send_keys("Camera 2 shows the drop at 13:58; asked the pit for the fill slips.")
    submit(screen, ".step-note button")
    screen.wait_for("table.history tr.kind-note", "asked the pit for the fill slips")
    assert "Note added." in screen.text(".messages")

    screen.find("#escalate_note").send_keys("Second variance on this table this week: the DICJ is told.")
    submit(screen, ".step-escalate button")
    screen.wait_for("h1", "to the regulator?")  # it asks first
    submit(screen, "form.confirm button")
    screen.wait_for(".case-state", "escalated to the regulator")
    assert [link.get_attribute("hreflang") for link in screen.driver.find_elements(By.CSS_SELECTOR, "li.pdf a")] == [
        "pt", "zh-hant", "en"]

    as_user(screen, "manager")
    screen.open(f"/count/cases/{case.pk}/")
    screen.wait_for(".step-resolve h2", "Resolve")
    shot(screen, "variance-case")
    screen.find("#resolve_note").send_keys("Fill slips found: the correction explains it; no loss.")
    submit(screen, ".step-resolve button")
    screen.wait_for("h1", f"Resolve case {case.pk}?")  # it asks first
    submit(screen, "form.confirm button")
    screen.wait_for(".case-state", "resolved")
    assert "The case is resolved." in screen.text(".messages")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".step-resolve, .step-escalate, .step-explain")

    history = [row.get_attribute("class")
               for row in screen.driver.find_elements(By.CSS_SELECTOR, "table.history tr.event")]
    assert history == ["event kind-opened", "event kind-explained", "event kind-reopened", "event kind-note",
                       "event kind-escalated", "event kind-resolved"]
    stored = Case.objects.get()
    assert stored.state == Case.RESOLVED and stored.events.last().recorded_by == people["manager"]


def test_a_supervisor_puts_a_dealer_on_the_rotation_log_and_closes_the_entry(screen: Screen):
    people, t1, _ = short_case()
    as_user(screen, "supervisor")
    screen.open("/count/rotation/?day=2026-11-21")
    screen.wait_for("h1 .log-day", "2026-11-21")
    before = set(Rotation.objects.values_list("pk", flat=True))  # the dealer's own, which the builder made
    screen.choose("table", str(t1.pk))
    screen.choose("person", str(people["dealer"].pk))
    screen.choose("duty", "dealer")
    screen.type("starts", "14:00")
    submit(screen, "form.add-entry button")
    screen.wait_for(".messages", "is on the log at table T1 from 14:00")
    entry = Rotation.objects.exclude(pk__in=before).get()
    screen.wait_for(f"tr[data-entry='{entry.pk}'].open-entry .from", "2026-11-21 14:00")
    assert screen.text(f"tr[data-entry='{entry.pk}'] .person") == "dealer"

    ends = screen.find(f"#close_{entry.pk}_ends")
    ends.clear()
    ends.send_keys("22:15")
    submit(screen, f"tr[data-entry='{entry.pk}'] form.close-entry button")
    screen.wait_for(f"tr[data-entry='{entry.pk}'] .until", "2026-11-21 22:15")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, f"tr[data-entry='{entry.pk}'].open-entry")
    assert "is closed" in screen.text(".messages")
    entry.refresh_from_db()
    assert entry.ended_by == people["supervisor"]
