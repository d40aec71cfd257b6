"""Acknowledging an alert on screen, in headless Chromium: a supervisor sees the top bar count an
open alert, opens the alerts, writes what he did and acknowledges it; the alert then shows who
acknowledged it and when, and the count is gone.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/alerts.png.
"""
from __future__ import annotations

import pytest

from casino.floor.models import Alert
from tests.browser.screen import as_user, shot, submit
from tests.builders.alerts import floor_at_noon
from tests.builders.pit import NOON, record_next

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_a_supervisor_acknowledges_an_alert_with_a_note_and_the_count_goes_down(screen):
    people, t1, t2, game = floor_at_noon()
    jogo = record_next(game, people["dealer"], declared_fan=None, at=NOON)
    alert = Alert.objects.get()

    as_user(screen, "supervisor")
    screen.open("/pit/")
    screen.wait_for("header.top .alerts-nav .badge", "1")
    submit(screen, "header.top .alerts-nav")
    screen.wait_for(f"#alert-{alert.pk} .message", "Table T1, jogo 1: a win saved with no declared grade.")
    assert screen.text(f"#alert-{alert.pk} .cite") == "Art. 6 · declared grade check"
    assert screen.find(f"#alert-{alert.pk} .links a").get_attribute("href").endswith(f"/pit/jogos/{jogo.pk}/")
    shot(screen, "alerts")

    screen.type("note", "Asked the dealer: South declared no grade; the receipt was reprinted.")
    submit(screen, f"#alert-{alert.pk} form.acknowledge button")
    screen.wait_for(".messages", "Alert acknowledged.")
    assert screen.driver.find_elements("css selector", "header.top .alerts-nav .badge") == []
    assert "No alert." in screen.text(".alert-list")

    screen.open("/floor/alerts/?state=acknowledged")
    screen.wait_for(f"#alert-{alert.pk} .acknowledged", "Acknowledged by supervisor at")
    assert screen.text(f"#alert-{alert.pk} .acknowledgement") == (
        "Asked the dealer: South declared no grade; the receipt was reprinted.")
    alert.refresh_from_db()
    assert alert.acknowledged_by == people["supervisor"]
