"""The managers' pages: a day's state and figures, the PDF download, closing and reopening,
each against the roles."""
import pytest
from django.test import Client
from django.urls import reverse

from casino.pit import demo, errors, services
from casino.pit.models import DayEvent, GamingDay, Jogo
from tests.builders.reports import DAY, pdf_text

pytestmark = pytest.mark.django_db

INDEX = f"/reports/?casino={{casino}}&day={DAY.isoformat()}"


def client_for(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_the_index_shows_the_days_figures_and_state_to_a_manager(day):
    response = client_for(day.people["manager"]).get(INDEX.format(casino=day.casino.pk))

    page = response.content.decode()
    assert response.status_code == 200
    assert reverse("reports:index") == "/reports/"
    assert "Casino Lisboa · 2026-11-21" in page and 'class="day-state">open<' in page
    assert reverse("reports:download", args=[day.casino.pk, DAY]) in page
    assert reverse("reports:close", args=[day.casino.pk, DAY]) in page  # the manager may close it


def test_an_inspector_sees_the_report_but_may_not_close_the_day(day):
    inspector = client_for(day.people["inspector"])

    page = inspector.get(INDEX.format(casino=day.casino.pk)).content.decode()
    assert reverse("reports:close", args=[day.casino.pk, DAY]) not in page
    assert inspector.get(reverse("reports:download", args=[day.casino.pk, DAY])).status_code == 200
    assert inspector.post(reverse("reports:close", args=[day.casino.pk, DAY])).status_code == 403


def test_a_manager_downloads_the_pdf_in_his_language(day):
    manager = client_for(day.people["manager"])
    manager.post("/i18n/setlang/", {"language": "zh-hant", "next": "/reports/"})

    response = manager.get(reverse("reports:download", args=[day.casino.pk, DAY]))

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="daily-report-2026-11-21-zh-hant.pdf"'
    assert "娛樂場合計 2 9 2 2 2 2 1 1 1 90" in pdf_text(response.content)


@pytest.mark.parametrize("route", ["index", "download", "close", "reopen"])
def test_a_dealer_is_forbidden_every_reports_page(day, route):
    dealer = client_for(day.people["dealer"])
    url = reverse(f"reports:{route}", args=[] if route == "index" else [day.casino.pk, DAY])

    response = dealer.post(url, {"reason": "x"}) if route in ("close", "reopen") else dealer.get(url)

    assert response.status_code == 403


def test_anonymous_visitors_are_sent_to_the_login(day):
    response = Client().get(reverse("reports:download", args=[day.casino.pk, DAY]))

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_manager_closes_and_reopens_the_day_from_the_page_and_both_are_logged(day):
    manager = client_for(day.people["manager"])
    close_url, reopen_url = (reverse(f"reports:{name}", args=[day.casino.pk, DAY]) for name in ("close", "reopen"))

    assert manager.get(close_url).status_code == 405  # POST only
    # Its boxes are not counted: the manager closes it all the same, with a reason (issue 21).
    response = manager.post(close_url, {"note": "Reviewed", "confirm": "on", "override_reason": "Counted tomorrow"},
                            follow=True)
    assert "The gaming day 2026-11-21 is closed." in response.content.decode()
    assert 'class="day-state">closed<' in response.content.decode()
    second = Jogo.objects.filter(table=day.r2, number=1).get()
    with pytest.raises(errors.Refused):
        services.propose_amendment(jogo=second, user=day.people["supervisor"], reason="again",
                                  record={**second.record, **demo.CHICKEN, "result": "win"})

    refused = manager.post(reopen_url, {"reason": ""}, follow=True)
    assert "Reopening a gaming day states its reason." in refused.content.decode()
    assert GamingDay.objects.get().closed
    response = manager.post(reopen_url, {"reason": "Late correction of R2"}, follow=True)
    page = response.content.decode()
    assert "The gaming day 2026-11-21 is open again." in page and "Late correction of R2" in page
    assert [(e.action, e.reason) for e in DayEvent.objects.order_by("pk")] == [
        ("closed", "Reviewed"), ("reopened", "Late correction of R2")]


def test_closing_needs_the_csrf_token(day):
    manager = Client(enforce_csrf_checks=True)
    manager.force_login(day.people["manager"])

    response = manager.post(reverse("reports:close", args=[day.casino.pk, DAY]), {"note": ""})

    assert response.status_code == 403
    assert not GamingDay.objects.exists()


def test_the_index_in_chinese_and_portuguese(day):
    manager = client_for(day.people["manager"])
    for language, words in (("zh-hant", ["每日報表", "關閉本日", "娛樂場合計"]),
                            ("pt", ["Relatórios diários", "Fechar o dia", "Total do casino"])):
        manager.post("/i18n/setlang/", {"language": language, "next": "/reports/"})
        page = manager.get(INDEX.format(casino=day.casino.pk)).content.decode()
        for word in words:
            assert word in page, (language, word)
