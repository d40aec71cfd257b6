"""Each closed day's daily report is printed once, as the day closes, and stored: every later
download is that file, byte for byte, with the SHA-256 shown beside it. Reopening and closing
again stores a new version and keeps the old one. An open day's report is printed on demand and
says PROVISIONAL on every page."""
import hashlib
import io

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from casino.pit import errors, services
from casino.pit.models import DayEvent, GamingDay, Jogo
from casino.reports import archive
from casino.reports.models import StoredReport
from casino.reports.pdf import daily_report_pdf
from tests.builders.reports import DAY, at, pdf_text

pytestmark = pytest.mark.django_db

UNCOUNTED = "The commission boxes are counted tomorrow"  # the known day's boxes are not counted
# What a report printed on demand says atop every page, in each language (the catalogues').
PROVISIONAL = {"en": "PROVISIONAL: the gaming day is open", "pt": "PROVISÓRIO: o dia de jogo está aberto",
               "zh-hant": "臨時報表：博彩日尚未關閉"}
REPRINT = {"en": "Printed now from the ledger: not the report stored when the gaming day closed.",
           "pt": "Impresso agora a partir do registo", "zh-hant": "此報表為即時按帳冊列印"}


def close(day, hours: float = 24) -> DayEvent:
    services.close_day(casino=day.casino, day=DAY, user=day.people["manager"], override_reason=UNCOUNTED,
                       at=at(hours))
    return DayEvent.objects.filter(action=DayEvent.CLOSED).latest("at", "pk")


def client_for(person, language: str = "en") -> Client:
    client = Client()
    client.force_login(person)
    client.post("/i18n/setlang/", {"language": language, "next": "/reports/"})
    return client


def download(client: Client, day, **query):
    return client.get(reverse("reports:download", args=[day.casino.pk, DAY]), query)


def index(client: Client, day) -> str:
    return client.get(f"/reports/?casino={day.casino.pk}&day={DAY.isoformat()}").content.decode()


def pages(pdf: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]


def test_closing_a_day_stores_its_report_in_each_language_with_its_sha256(day):
    event = close(day)

    stored = {report.language: report for report in StoredReport.objects.filter(event=event)}
    assert sorted(stored) == ["en", "pt", "zh-hant"]
    for report in stored.values():
        assert report.sha256 == hashlib.sha256(bytes(report.pdf)).hexdigest()
    english = pdf_text(bytes(stored["en"].pdf))
    assert "State of the day closed" in english and "Casino total 2 9 2 2 2 2 1 1 1 90" in english
    assert f"closed manager Reason for closing anyway: {UNCOUNTED}" in english  # its own close, in the sign-off
    assert "娛樂場合計 2 9 2 2 2 2 1 1 1 90" in pdf_text(bytes(stored["zh-hant"].pdf))
    assert "Total do casino 2 9 2 2 2 2 1 1 1 90" in pdf_text(bytes(stored["pt"].pdf))


def test_a_closed_days_download_is_the_stored_file_and_its_sha256_is_shown_beside_it(day):
    event = close(day)
    services.flag(jogo=Jogo.objects.filter(table=day.r2).first(), user=day.people["inspector"], note="Late look",
                  at=at(25))  # printed now, the report would count two flags
    words = {"en": "SHA-256 of the report as closed", "pt": "SHA-256 do relatório tal como foi fechado",
             "zh-hant": "關閉時所存報表的 SHA-256"}

    for language, shown in words.items():
        manager = client_for(day.people["manager"], language)
        response = download(manager, day)

        stored = StoredReport.objects.get(event=event, language=language)
        assert response.content == bytes(stored.pdf)
        assert hashlib.sha256(response.content).hexdigest() == stored.sha256
        assert response["ETag"] == f'"{stored.sha256}"'
        assert response["Content-Disposition"] == f'attachment; filename="daily-report-2026-11-21-{language}.pdf"'
        page = index(manager, day)
        assert f'<code class="hash sha256">{stored.sha256}</code>' in page and shown in page
    assert "Inspectors' flags 1" in pdf_text(bytes(StoredReport.objects.get(event=event, language="en").pdf))
    assert "Inspectors' flags 2" in pdf_text(daily_report_pdf(day.casino, DAY, language="en"))


def test_reopening_and_closing_again_keeps_both_versions_and_serves_the_latest(day):
    manager = client_for(day.people["manager"])
    first = close(day)
    services.reopen_day(casino=day.casino, day=DAY, user=day.people["manager"], reason="Camera review", at=at(25))

    while_open = download(manager, day)
    assert "ETag" not in while_open and PROVISIONAL["en"] in pdf_text(while_open.content)
    assert download(manager, day, version=1).content == bytes(StoredReport.objects.get(event=first, language="en").pdf)

    second = close(day, hours=26)
    one, two = (StoredReport.objects.get(event=event, language="en") for event in (first, second))
    assert StoredReport.objects.count() == 6 and one.sha256 != two.sha256
    assert download(manager, day).content == bytes(two.pdf)
    assert download(manager, day, version=2).content == bytes(two.pdf)
    earlier = download(manager, day, version=1)
    assert earlier.content == bytes(one.pdf)
    assert earlier["Content-Disposition"] == 'attachment; filename="daily-report-2026-11-21-en-close-1.pdf"'
    assert "reopened manager Camera review" in pdf_text(bytes(two.pdf))
    assert "Camera review" not in pdf_text(bytes(one.pdf))
    for version in ("3", "0", "x"):
        assert download(manager, day, version=version).status_code == 404
    page = index(manager, day)
    rows = page.split('class="grid stored-reports"')[1].split("</table>")[0]
    assert rows.index(one.sha256) < rows.index(two.sha256)
    assert "2026-11-22 12:00" in rows and "2026-11-22 14:00" in rows and rows.count("manager") == 2
    assert "?version=1" in rows and "?version=2" in rows


def test_an_open_days_report_says_provisional_on_every_page_and_a_closed_days_does_not(day):
    printed = {language: pages(daily_report_pdf(day.casino, DAY, language=language)) for language in PROVISIONAL}
    event = close(day)

    for language, mark in PROVISIONAL.items():
        stored = pages(bytes(StoredReport.objects.get(event=event, language=language).pdf))
        assert len(printed[language]) >= 3 and len(stored) >= 3  # the appendix starts a page of its own
        assert all(mark in page for page in printed[language]), language
        assert not any(mark in page or REPRINT[language] in page for page in stored), language


def test_a_day_closed_before_reports_were_stored_is_printed_on_demand_and_says_so(day):
    """Nobody signed a stored report for it: its download is printed now, marked on every page,
    and nothing is stored in its close's name after the fact."""
    state = GamingDay.objects.create(casino=day.casino, day=DAY, closed=True)
    DayEvent.objects.create(gaming_day=state, action=DayEvent.CLOSED, by=day.people["manager"], at=at(24))
    manager = client_for(day.people["manager"])

    response = download(manager, day)

    assert response.status_code == 200 and "ETag" not in response
    assert all(REPRINT["en"] in page for page in pages(response.content))
    assert not StoredReport.objects.exists()
    page = index(manager, day)
    assert "No report was stored when this day closed" in page
    assert "none stored: closed before reports were stored" in page


def test_a_failing_render_rolls_back_the_close_and_says_why(day, monkeypatch):
    printed = []

    def render_pdf(html: str) -> bytes:
        if printed:  # the first language is printed; the second fails
            raise OSError("cannot load the font Noto Sans CJK TC")
        printed.append(html)
        return b"%PDF-1.7 first"

    monkeypatch.setattr(archive, "render_pdf", render_pdf)

    with pytest.raises(errors.Refused) as refused:
        close(day)

    assert [problem.code for problem in refused.value.problems] == ["report_not_stored"]
    assert "could not be printed, so the gaming day stays open: OSError: cannot load the font" in str(refused.value)
    assert not GamingDay.objects.filter(closed=True).exists()
    assert not DayEvent.objects.exists() and not StoredReport.objects.exists()
    printed.clear()
    response = client_for(day.people["manager"]).post(
        reverse("reports:close", args=[day.casino.pk, DAY]),
        {"confirm": "on", "override_reason": UNCOUNTED}, follow=True)
    assert "could not be printed, so the gaming day stays open" in response.content.decode()
    assert not GamingDay.objects.filter(closed=True).exists()


def test_a_stored_report_is_never_changed_nor_deleted(day):
    report = StoredReport.objects.filter(event=close(day)).first()

    report.pdf = b"%PDF forged"
    with pytest.raises(ValidationError):
        report.save()
    with pytest.raises(ValidationError):
        report.delete()
    if connection.vendor == "postgresql":  # the database refuses whoever asks
        for statement in ("UPDATE reports_storedreport SET sha256 = 'x'", "DELETE FROM reports_storedreport"):
            with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as c:
                c.execute(statement)
    assert StoredReport.objects.get(pk=report.pk).sha256 == hashlib.sha256(bytes(
        StoredReport.objects.get(pk=report.pk).pdf)).hexdigest()


def test_the_command_writes_a_closed_days_stored_report(day, tmp_path):
    from django.core.management import call_command

    event = close(day)
    out = tmp_path / "day.pdf"

    call_command("daily_report", "--date", DAY.isoformat(), "--out", str(out), "--lang", "pt", stdout=io.StringIO())

    assert out.read_bytes() == bytes(StoredReport.objects.get(event=event, language="pt").pdf)
