"""The blind count's holes (issue 21): a gaming day is not closed while a box of it was never
counted, unless a manager states the reason, which the day's close event keeps and the daily
report prints beside each box it covers; and the report's casino total compares expected with
counted over the boxes counted, the boxes not yet counted apart."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from casino.count import services
from casino.count.selectors import uncounted_boxes
from casino.pit.errors import Refused
from casino.pit.models import DayEvent, GamingDay
from casino.pit.services import close_day
from casino.reports.pdf import daily_report_pdf, report_html
from casino.reports.selectors import daily_summary
from tests.builders.count import DAY, NEXT_MORNING, PASSWORD, cast, play_shifts
from tests.builders.reports import pdf_text

pytestmark = pytest.mark.django_db

CLOSE_API = "/api/v1/gaming-days/close/"
REASON = "The box of T2 went to the vault sealed; counted on Monday"


def count(people, at_table, shift: int, first: int, second: int | None = None):
    """The box of `at_table`'s `shift` of DAY signed by counter1 and counter2 (with `second`,
    a total that differs)."""
    box = services.box_for(table=at_table, gaming_day=DAY, shift=shift)
    for counter, amount in ((people["counter1"], first), (people["counter2"], first if second is None else second)):
        services.sign_count(box=box, user=counter, password=PASSWORD, counted=amount, at=NEXT_MORNING)


@pytest.fixture
def day_with_uncounted_boxes():
    """T1 recorded a winning jogo (commission 10) in shifts 1 and 2 of DAY, T2 one in shift 1.
    T1's first box is counted; its second was counted by two counters who disagree; nobody has
    asked for T2's box yet (it has no row)."""
    people, t1, t2 = cast()
    play_shifts(t1, people["dealer"], hours=(7, 15))
    play_shifts(t2, people["other_dealer"], hours=(8,))
    count(people, t1, 1, 10)
    count(people, t1, 2, 10, 12)
    return people, t1, t2


def client_for(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def api_for(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


# --- which boxes are not counted ----------------------------------------------------------------

def test_a_box_is_uncounted_until_two_counters_sign_the_same_total_even_without_its_row(day_with_uncounted_boxes):
    people, t1, t2 = day_with_uncounted_boxes

    found = uncounted_boxes(t1.casino, DAY)

    assert [(box.table, box.shift, box.box is None) for box in found] == [("T1", 2, False), ("T2", 1, True)]
    assert [(box.starts, box.ends) for box in found] == [("14:00", "22:00"), ("06:00", "14:00")]
    assert uncounted_boxes(t1.casino, DAY.replace(day=20)) == []


# --- closing the day ----------------------------------------------------------------------------

def test_closing_a_day_with_an_uncounted_box_is_refused_naming_each_box(day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes

    with pytest.raises(Refused) as refused:
        close_day(casino=t1.casino, day=DAY, user=people["manager"], at=NEXT_MORNING)

    problems = refused.value.problems
    assert refused.value.conflict
    assert [(p.code, p.field) for p in problems] == [("box_not_counted", None), ("box_not_counted", None),
                                                     ("override_reason", "override_reason")]
    assert problems[0].message == ("Box: the box of table T1, shift 2 (14:00–22:00) is not counted yet; a gaming "
                                   "day is closed once its boxes are counted.")
    assert "table T2, shift 1 (06:00–14:00)" in problems[1].message
    assert problems[2].message == ("Reason for closing anyway: to close the gaming day 2026-11-21 all the same, a "
                                   "manager states the reason.")
    assert not GamingDay.objects.filter(closed=True).exists() and not DayEvent.objects.exists()


def test_a_manager_closes_it_anyway_by_stating_the_reason_which_the_close_event_keeps(day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes

    state = close_day(casino=t1.casino, day=DAY, user=people["manager"], note="Reviewed",
                      override_reason=f"  {REASON}  ", at=NEXT_MORNING)

    event = DayEvent.objects.get()
    assert state.closed and (event.reason, event.override_reason) == ("Reviewed", REASON)
    assert [(held["code"], held["params"]["table"], held["params"]["shift"]) for held in event.overridden] == [
        ("box_not_counted", "T1", 2), ("box_not_counted", "T2", 1)]
    event.override_reason = "something else"
    with pytest.raises(ValidationError):  # the close event is append-only, like the ledger
        event.save()


@pytest.mark.parametrize("who", ["inspector", "supervisor"])
def test_nobody_but_a_manager_closes_a_day_over_an_uncounted_box(day_with_uncounted_boxes, who):
    people, t1, _ = day_with_uncounted_boxes

    with pytest.raises(Refused) as refused:
        close_day(casino=t1.casino, day=DAY, user=people[who], override_reason=REASON, at=NEXT_MORNING)
    assert [p.code for p in refused.value.problems][-1] == "override_by_manager"
    url = reverse("reports:close", args=[t1.casino.pk, DAY])
    assert client_for(people[who]).post(url, {"confirm": "on", "override_reason": REASON}).status_code == 403
    response = api_for(people[who]).post(CLOSE_API, {"casino": t1.casino.pk, "day": DAY.isoformat(),
                                                     "override_reason": REASON}, format="json")
    assert response.status_code == 403
    assert not GamingDay.objects.filter(closed=True).exists() and not DayEvent.objects.exists()


def test_a_day_whose_boxes_are_all_counted_closes_as_before():
    people, t1, t2 = cast()
    play_shifts(t1, people["dealer"], hours=(7, 15))
    play_shifts(t2, people["other_dealer"], hours=(8,))
    for at_table, shift in ((t1, 1), (t1, 2), (t2, 1)):
        count(people, at_table, shift, 10)

    close_day(casino=t1.casino, day=DAY, user=people["manager"], note="Reviewed", at=NEXT_MORNING)

    event = DayEvent.objects.get()
    assert GamingDay.objects.get().closed and (event.reason, event.override_reason, event.overridden) == (
        "Reviewed", "", [])
    assert daily_summary(t1.casino, DAY).closed_uncounted == []


def test_the_page_refuses_naming_the_boxes_in_the_managers_language_then_closes_with_the_reason(
        day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes
    manager = client_for(people["manager"])
    url = reverse("reports:close", args=[t1.casino.pk, DAY])

    page = manager.post(url, {"confirm": "on"}, follow=True).content.decode()
    assert "Box: the box of table T1, shift 2 (14:00–22:00) is not counted yet" in page
    assert "the box of table T2, shift 1 (06:00–14:00) is not counted yet" in page
    assert 'name="override_reason"' in page
    manager.post("/i18n/setlang/", {"language": "pt", "next": "/reports/"})
    page = manager.post(url, {"confirm": "on"}, follow=True).content.decode()
    assert "Caixa: a caixa da mesa T1, turno 2 (14:00–22:00), ainda não está contada" in page
    assert not GamingDay.objects.filter(closed=True).exists()

    page = manager.post(url, {"confirm": "on", "override_reason": REASON}, follow=True).content.decode()
    assert "O dia de jogo 2026-11-21 está fechado." in page
    assert DayEvent.objects.get().override_reason == REASON


def test_the_api_refuses_with_409_naming_the_boxes_then_closes_with_the_reason(day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes
    manager = api_for(people["manager"])
    body = {"casino": t1.casino.pk, "day": DAY.isoformat()}

    response = manager.post(CLOSE_API, body, format="json")
    assert response.status_code == 409
    errors = response.json()["errors"]
    assert [(error["code"], error.get("field")) for error in errors] == [
        ("box_not_counted", None), ("box_not_counted", None), ("override_reason", "override_reason")]
    assert "table T2, shift 1 (06:00–14:00)" in errors[1]["message"]
    assert not GamingDay.objects.filter(closed=True).exists()

    response = manager.post(CLOSE_API, {**body, "override_reason": REASON}, format="json")
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["closed"], data["override_reason"], [held["params"]["shift"] for held in data["overridden"]]) == (
        True, REASON, [2, 1])
    assert manager.post(CLOSE_API, body, format="json").status_code == 409  # closed already


# --- the daily report ---------------------------------------------------------------------------

def test_the_daily_report_prints_the_reason_beside_each_box_it_covers(day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes
    close_day(casino=t1.casino, day=DAY, user=people["manager"], override_reason=REASON, at=NEXT_MORNING)

    summary = daily_summary(t1.casino, DAY)
    assert [(box.table, box.shift, box.counted, box.reason, box.by) for box in summary.closed_uncounted] == [
        ("T1", 2, None, REASON, "manager"), ("T2", 1, None, REASON, "manager")]
    text = pdf_text(daily_report_pdf(t1.casino, DAY, language="en"))
    assert "Boxes not counted when the day was closed" in text
    assert f"T1 2 not counted {REASON}" in text and f"T2 1 not counted {REASON}" in text
    page = client_for(people["manager"]).get(f"/reports/?casino={t1.casino.pk}&day={DAY}").content.decode()
    assert "Boxes not counted when the day was closed" in page and page.count(REASON) >= 2
    chinese = pdf_text(daily_report_pdf(t1.casino, DAY, language="zh-hant"))
    assert "關閉本日時未點算的佣金箱" in chinese


# --- the casino total: like with like -----------------------------------------------------------

def test_the_casino_total_compares_the_counted_boxes_only_and_shows_the_uncounted_apart(day_with_uncounted_boxes):
    people, t1, _ = day_with_uncounted_boxes

    summary = daily_summary(t1.casino, DAY)

    totals = summary.box_totals
    assert (totals.counted_boxes, totals.expected, totals.counted, totals.over, totals.short) == (1, 10, 10, 0, 0)
    assert (totals.uncounted_boxes, totals.uncounted_expected) == (2, 20)
    text = pdf_text(report_pdf := daily_report_pdf(t1.casino, DAY, language="en"))
    assert report_pdf and "Casino total 1 box counted Expected 10 Counted 10" in text
    assert "2 boxes not counted Expected 20" in text
    html = report_html(summary, language="pt")
    assert "1 caixa contada" in html and "2 caixas por contar" in html
    page = client_for(people["manager"]).get(f"/reports/?casino={t1.casino.pk}&day={DAY}").content.decode()
    assert "1 box counted" in page and "2 boxes not counted" in page
