"""The daily report's appendix (the jogos behind each exception, the refused records), the
managers' page opening on the latest day with activity, and closing a day only once it has
ended, with a confirmation."""
import datetime as dt
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from casino.audit.ledger import latest_active_day
from casino.pit import selectors, services
from casino.pit.days import gaming_day
from casino.pit.models import GamingDay
from casino.reports.pdf import report_html
from casino.reports.selectors import daily_summary
from tests.builders.reports import DAY

pytestmark = pytest.mark.django_db

NEXT_DAY = DAY + dt.timedelta(days=1)


def appendix_lines(html: str) -> list[str]:
    """The appendix's lines of jogos, after its heading line."""
    lines = re.search(r'<div class="exception-jogos">(.*?)</div>', html, re.S).group(1)
    return [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<p>(.*?)</p>", lines, re.S)]


def appendix_rows(html: str, css_class: str) -> list[str]:
    """Each row of the appendix's table as its cells' text joined by " | "."""
    table = re.search(rf'<table class="{css_class}">(.*?)</table>', html, re.S).group(1)
    body = table.split("<tbody>")[1]
    return [" | ".join(re.sub(r"\s+", " ", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S))
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_appendix_lists_the_jogos_behind_each_exception_with_players_named(day):
    day.casino.refresh_from_db()
    html = report_html(daily_summary(day.casino, DAY), language="en")

    assert appendix_lines(html) == [
        "R1 · 1 — Inspector&#x27;s flag: flagged by inspector: Check the camera (open)",
        "R1 · 3 — False win: North · Player 0 declared a win without a valid hand: a false win, the jogo is void "
        "(Art. 10)",
        "R1 · 6 — Pay-all: Art. 10(a)(1): West · Player 0 bears the loss of the others (pay-all)",
        "R1 · 7 — Fán mismatch: declared 2 fán, the grade is 1 fán (Art. 6)",
        "R2 · 1 — Capped win: the winner, South · Player 1, receives at most his capital at stake, 300 (Art. 9)",
        "R2 · 2 — Amendment: amended, proposed by supervisor and approved by manager: Nobody won: the wall was "
        "exhausted",
    ]
    refused, = appendix_rows(html, "refused")
    assert refused.startswith("12:30 | R1 | dealer | Art. 8: table R1 plays at 25/50; the record says 50/100.")


def test_a_refused_record_shows_its_second_persons_confirmation_or_that_it_is_still_open(day):
    html = report_html(daily_summary(day.casino, DAY), language="en")
    refused, = appendix_rows(html, "refused")
    assert refused.endswith(" | not yet confirmed (open item)")

    refusal = day.r1.refusals.get()
    services.confirm_refusal(refusal=refusal, user=day.people["supervisor"], note="stake mistyped, recorded again")

    refused, = appendix_rows(report_html(daily_summary(day.casino, DAY), language="en"), "refused")
    assert refused.endswith(" | supervisor: stake mistyped, recorded again")


def test_a_resolved_flag_and_a_pending_amendment_say_so(day):
    flag = services.flag(jogo=selectors.current_jogos(day.r1.games.get())[1], user=day.people["inspector"], note="Look")
    services.resolve_flag(flag=flag, user=day.people["manager"], note="Fine")
    jogo = selectors.current_jogos(day.r1.games.get())[3]
    corrected = {**jogo.record, "declared_fan": (jogo.record.get("declared_fan") or 0) + 1}
    services.propose_amendment(jogo=jogo, user=day.people["supervisor"], record=corrected, reason="Recount")

    lines = appendix_lines(report_html(daily_summary(day.casino, DAY), language="en"))

    assert "R1 · 2 — Inspector&#x27;s flag: flagged by inspector: Look; resolved by manager: Fine" in lines
    assert "R1 · 4 — Amendment: amendment pending, proposed by supervisor: Recount" in lines


def test_a_day_without_exceptions_says_so_in_the_appendix(day):
    html = report_html(daily_summary(day.casino, NEXT_DAY), language="en")

    assert "No jogo of this day is behind an exception." in html
    assert "No record was refused on this day." in html


def test_the_appendix_in_chinese_uses_the_regulations_terms(day):
    html = report_html(daily_summary(day.casino, DAY), language="zh-hant")

    rows = appendix_lines(html)
    assert any("詐糊" in row and "北" in row and "Player 0" in row for row in rows)
    assert any("包輸" in row and "西" in row for row in rows)


def test_the_appendix_adds_no_query_per_exception(day):
    """A day full of exceptions of every kind reads as many queries as a day with none, and one
    more: the facts of the jogos the appendix lists, read together."""
    def queries(on: dt.date) -> int:
        with CaptureQueriesContext(connection) as captured:
            report_html(daily_summary(day.casino, on), language="en")
        return len(captured)

    assert queries(DAY) == queries(NEXT_DAY) + 1


# --- The managers' page ----------------------------------------------------------------------------

def manager_of(day) -> Client:
    client = Client()
    client.force_login(day.people["manager"])
    return client


def test_the_reports_page_opens_on_the_latest_gaming_day_with_activity(day):
    assert latest_active_day(day.casino) == NEXT_DAY  # R3 plays on the 22nd

    page = manager_of(day).get("/reports/").content.decode()

    assert "Casino Lisboa · 2026-11-22" in page and 'value="2026-11-22"' in page


def test_a_day_that_has_not_ended_is_not_offered_for_closing(day):
    today = gaming_day(timezone.now())
    manager = manager_of(day)

    open_day = manager.get(f"/reports/?casino={day.casino.pk}&day={today.isoformat()}").content.decode()
    ended = manager.get(f"/reports/?casino={day.casino.pk}&day={DAY.isoformat()}").content.decode()

    assert reverse("reports:close", args=[day.casino.pk, today]) not in open_day
    assert "This gaming day has not ended yet" in open_day
    assert reverse("reports:close", args=[day.casino.pk, DAY]) in ended and 'name="confirm"' in ended


def test_closing_asks_for_confirmation(day):
    manager = manager_of(day)
    url = reverse("reports:close", args=[day.casino.pk, DAY])

    response = manager.post(url, {"note": "Reviewed"}, follow=True)

    assert "Closing the day: tick the confirmation first." in response.content.decode()
    assert not GamingDay.objects.filter(closed=True).exists()
    response = manager.post(url, {"note": "Reviewed", "confirm": "on", "override_reason": "Boxes counted tomorrow"},
                            follow=True)  # its boxes are not counted
    assert "The gaming day 2026-11-21 is closed." in response.content.decode()
    assert GamingDay.objects.get().closed


def test_closing_a_day_that_has_not_ended_is_refused_in_the_managers_language(day):
    today = gaming_day(timezone.now())
    manager = manager_of(day)
    manager.post("/i18n/setlang/", {"language": "pt", "next": "/reports/"})

    response = manager.post(reverse("reports:close", args=[day.casino.pk, today]), {"confirm": "on"}, follow=True)

    assert f"O dia de jogo {today.isoformat()} ainda não terminou" in response.content.decode()
    assert not GamingDay.objects.exists()


def test_a_long_appendix_says_how_many_lines_it_leaves_to_the_exception_queue(day, monkeypatch):
    monkeypatch.setattr("casino.reports.selectors.APPENDIX_LIMIT", 2)

    html = report_html(daily_summary(day.casino, DAY), language="en")

    assert len(appendix_lines(html)) == 2
    assert "… and 4 more lines, not listed here: the audit's exception queue for this day lists every one." \
        in re.sub(r"\s+", " ", html)
