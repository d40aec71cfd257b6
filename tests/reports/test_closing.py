"""Closing a gaming day: a manager closes it after review; its jogos then take no amendment and
the day no new jogo until a manager reopens it with a reason; both are logged."""
import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from casino.pit import demo, errors, selectors, services
from casino.pit.models import Amendment, DayEvent, GamingDay, Jogo, Refusal
from casino.pit.services import close_day, reopen_day
from tests.builders.pit import on_rotation, seat, table, user
from tests.builders.reports import DAY, at, record_at

pytestmark = pytest.mark.django_db

# The box of the day is not counted in these tests: a manager closes the day all the same, with a
# reason (tests/reports/test_uncounted_boxes.py).
UNCOUNTED = "The commission box is counted tomorrow"


@pytest.fixture
def r1_with_a_win():
    people = {"dealer": user("dealer", "dealer"), "supervisor": user("supervisor", "supervisor"),
              "manager": user("manager", "manager")}
    r1 = table("R1", stake=25)
    game = seat(r1, people["dealer"], at=at(0))
    jogo = record_at(game, demo.CHICKEN, at(0.1), people["dealer"])
    return people, r1, game, jogo


def corrected(jogo: Jogo) -> dict:
    return {**jogo.record, "winner": "W", "discarder": "N"}


def codes(refused) -> set[tuple[str, str | None]]:
    return {(problem.code, problem.field) for problem in refused.value.problems}


def test_close_refuse_an_amendment_reopen_with_a_reason_then_amend_and_both_are_logged(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win

    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, note="Reviewed", at=at(24))
    with pytest.raises(errors.Refused) as refused:
        services.propose_amendment(jogo=jogo, user=people["supervisor"], record=corrected(jogo), reason="West won",
                                   at=at(25))
    assert codes(refused) == {("day_closed", "gaming_day")}
    assert "2026-11-21 is closed" in str(refused.value)

    reopen_day(casino=r1.casino, day=DAY, user=people["manager"], reason="Camera review: jogo 1 was West's", at=at(26))
    amendment = services.propose_amendment(jogo=jogo, user=people["supervisor"], record=corrected(jogo),
                                           reason="West won",
                                          at=at(27))
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=True, at=at(27))

    assert Amendment.objects.get().state == Amendment.APPROVED
    log = [(e.action, e.by.username, e.at, e.reason) for e in DayEvent.objects.order_by("at")]
    assert log == [("closed", "manager", at(24), "Reviewed"),
                   ("reopened", "manager", at(26), "Camera review: jogo 1 was West's")]
    assert GamingDay.objects.get().closed is False


def test_a_pending_amendment_is_not_approved_while_its_day_is_closed_but_may_be_rejected(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    first = services.propose_amendment(jogo=jogo, user=people["supervisor"], record=corrected(jogo), reason="West won",
                                      at=at(1))
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))

    with pytest.raises(errors.Refused) as refused:
        services.decide_amendment(amendment=first, user=people["manager"], approve=True, at=at(25))

    assert codes(refused) == {("day_closed", "gaming_day")}
    assert Jogo.objects.count() == 1  # nothing reached the ledger
    assert services.decide_amendment(amendment=first, user=people["manager"], approve=False, reason="West did not win",
                                   at=at(25)).state == Amendment.REJECTED


def test_a_closed_day_takes_no_new_jogo_and_the_attempt_is_kept(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))

    with pytest.raises(errors.Refused) as refused:  # 05:00 on the 22nd still belongs to DAY
        services.record_jogo(table=r1, user=people["dealer"],
                             record=selectors.record_header(game) | {"result": "win", **demo.CHICKEN},
                            at=at(17))
    assert codes(refused) == {("day_closed", "gaming_day")}
    assert Refusal.objects.get().errors[0]["code"] == "day_closed"

    # 06:00 on the 22nd starts the next gaming day, which is open.
    on_rotation(r1, people["dealer"], at(18))
    row, created = services.record_jogo(table=r1, user=people["dealer"],
                                       record=selectors.record_header(game) | {"result": "win", **demo.CHICKEN},
                                       at=at(18))
    assert created and row.gaming_day == dt.date(2026, 11, 22)


def test_a_retry_with_its_key_gets_its_jogo_after_the_day_closed_but_a_new_key_is_refused(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    body = selectors.record_header(game) | {"result": "win", **demo.CHICKEN}
    first, _ = services.record_jogo(table=r1, user=people["dealer"], record=body, idempotency_key="k-2", at=at(0.2))
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))

    again, created = services.record_jogo(table=r1, user=people["dealer"], record=body, idempotency_key="k-2",
                                          at=at(17))
    assert (again.pk, created) == (first.pk, False)
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=r1, user=people["dealer"],
                             record=selectors.record_header(game) | {"result": "win", **demo.CHICKEN},
                            idempotency_key="k-3", at=at(17))
    assert codes(refused) == {("day_closed", "gaming_day")}


def test_refuse_if_day_closed_looks_at_the_tables_casino_and_the_day_only(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    elsewhere = table("X1", stake=25)  # another table of R1's casino
    other_casino = type(r1.casino).objects.create(name="Casino Outro")
    foreign = type(r1).objects.create(casino=other_casino, number="F1", variant="conventional", stake=25)
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))

    with pytest.raises(errors.Refused):
        services.refuse_if_day_closed(elsewhere, DAY)
    services.refuse_if_day_closed(r1, DAY + dt.timedelta(days=1))
    services.refuse_if_day_closed(foreign, DAY)


def test_reopening_needs_a_reason_and_a_closed_day(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win

    with pytest.raises(errors.Refused) as refused:
        reopen_day(casino=r1.casino, day=DAY, user=people["manager"], reason="x", at=at(24))
    assert codes(refused) == {("day_open", "gaming_day")}
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))
    with pytest.raises(errors.Refused) as refused:
        reopen_day(casino=r1.casino, day=DAY, user=people["manager"], reason="   ", at=at(25))
    assert codes(refused) == {("reason", "reason")}
    assert GamingDay.objects.get().closed is True
    assert DayEvent.objects.count() == 1


def test_a_day_is_closed_once_and_only_after_it_ends(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win

    with pytest.raises(errors.Refused) as refused:  # 05:59 on the 22nd: DAY is still running
        close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(17.98))
    assert codes(refused) == {("day_not_over", "gaming_day")}
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(18))
    with pytest.raises(errors.Refused) as refused:
        close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(19))
    assert codes(refused) == {("day_closed", "gaming_day")}
    assert DayEvent.objects.count() == 1


def test_the_day_log_is_append_only(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))
    event = DayEvent.objects.get()

    event.reason = "changed"
    with pytest.raises(ValidationError):
        event.save()
    with pytest.raises(ValidationError):
        event.delete()


def test_the_api_answers_409_day_closed_to_an_amendment_of_a_closed_day(r1_with_a_win):
    people, r1, game, jogo = r1_with_a_win
    r1.staff.add(people["supervisor"])
    close_day(casino=r1.casino, day=DAY, user=people["manager"], override_reason=UNCOUNTED, at=at(24))
    client = APIClient()
    client.force_authenticate(people["supervisor"])

    response = client.post("/api/v1/amendments/", {"jogo": jogo.pk, "reason": "West won", "record": corrected(jogo)},
                           format="json")

    assert response.status_code == 409
    assert response.json()["errors"] == [{"code": "day_closed", "article": None, "field": "gaming_day",
                                          "message": "The gaming day 2026-11-21 is closed; a manager must reopen "
                                                     "it, with a reason, before its jogos change."}]
