"""Every number accounted for, end to end in headless Chromium: a refused attempt is an open
item on the inspector's accounting page until a supervisor of the table, a second person,
confirms it with a note on the refusals page; then the day has no open item.
"""
from __future__ import annotations

import pytest

from casino.pit import errors, services
from casino.pit.models import Refusal, RefusalConfirmation
from tests.browser.screen import Screen, as_user, submit
from tests.builders.pit import DRAW, NOON, next_record, seat, staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]

DAY = NOON.date().isoformat()


@pytest.fixture
def refused():
    """T1 on 2026-11-21: three draws recorded, and one attempt the dealer typed at a wrong stake."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    for _ in range(3):
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    with pytest.raises(errors.Refused):
        services.record_jogo(table=t1, user=people["dealer"], record={**next_record(game, **DRAW), "stake": 30},
                             at=NOON)
    return people, Refusal.objects.get()


def test_a_refused_attempt_is_an_open_item_until_a_supervisor_confirms_it(screen: Screen, refused):
    people, refusal = refused
    as_user(screen, "inspector")
    screen.open(f"/audit/accounted/?day={DAY}")
    screen.wait_for(".open-items", "1 open item.")
    assert screen.text("table.numbers tbody tr td.gaps") == "none"  # a refused attempt takes no number
    assert screen.text("table.refusals tbody tr .open-item") == "not yet confirmed"

    as_user(screen, "supervisor")
    screen.open(f"/pit/refusals/?day={DAY}")
    screen.wait_for("form.confirm-refusal button", "Confirm")
    screen.find("form.confirm-refusal textarea").send_keys("Stake mistyped as 30; jogo 4 recorded at 25.")
    submit(screen, "form.confirm-refusal button")
    screen.wait_for("td.confirmation", "Confirmed by supervisor")
    assert "Stake mistyped as 30" in screen.text("td.confirmation")
    assert RefusalConfirmation.objects.get().confirmed_by == people["supervisor"]

    as_user(screen, "inspector")
    screen.open(f"/audit/accounted/?day={DAY}")
    screen.wait_for(".open-items.ok", "No open item: every number is accounted for.")
    assert screen.text("table.refusals tbody tr td:last-child") == \
        "supervisor: Stake mistyped as 30; jogo 4 recorded at 25."


def test_nobody_is_offered_to_confirm_his_own_refused_attempt(screen: Screen, refused):
    people, by_the_dealer = refused
    game = by_the_dealer.table.games.get()
    with pytest.raises(errors.Refused):
        services.record_jogo(table=game.table, user=people["supervisor"],
                             record={**next_record(game, **DRAW), "stake": 30}, at=NOON)
    as_user(screen, "supervisor")
    screen.open(f"/pit/refusals/?day={DAY}")
    screen.wait_for("table.refusals tbody", "not yet confirmed")
    rows = {row.find_element("css selector", "td:nth-child(3)").text: row
            for row in screen.driver.find_elements("css selector", "table.refusals tbody tr")}
    assert set(rows) == {"dealer", "supervisor"}
    assert rows["dealer"].find_elements("css selector", "form.confirm-refusal")
    assert not rows["supervisor"].find_elements("css selector", "form.confirm-refusal")
    assert rows["supervisor"].find_element("css selector", ".open-item").text == "not yet confirmed"
