"""The case screens under /aml/ (casino/aml/views.py): who reaches each page and step, opening a
case on a player from his day's movements, the decision and the escalation asked first, and the
PDF of an escalated case for the financial intelligence office."""
from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from casino.aml.models import SuspicionCase
from casino.pit import services
from casino.pit.models import DocumentRead, Movement
from tests.aml.builders import NOON, cast, escalated, opened, player
from tests.builders.pit import seat
from tests.builders.reports import pdf_text

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dealer", "supervisor", "counter1", "inspector", "manager"]
READERS = {"inspector", "manager"}


def client_for(people, role) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(people[role])
    return client


@pytest.fixture
def world():
    people, t1, t2 = cast()
    who, case = escalated(people, t1)
    _, in_progress = opened(people, t1)
    return {"people": people, "t1": t1, "who": who, "case": case, "open": in_progress}


# (name, method, path, body, roles allowed, status when allowed)
PAGES = [
    ("list", "get", "/aml/", None, READERS, 200),
    ("list escalated", "get", "/aml/?state=escalated", None, READERS, 200),
    ("open form", "get", "/aml/open/{patron}/", None, READERS, 200),
    ("open", "post", "/aml/open/{patron}/", {"gaming_day": "2026-11-21", "note": "Large cash, no play."},
     READERS, 302),
    ("case", "get", "/aml/{case}/", None, READERS, 200),
    ("note", "post", "/aml/{open}/note", {"note": "Video asked for."}, READERS, 302),
    ("decide", "post", "/aml/{open}/report", {"note": "Structuring.", "confirmed": "yes"}, READERS, 302),
    ("close", "post", "/aml/{open}/no_report", {"note": "Nothing odd.", "confirmed": "yes"}, READERS, 302),
    ("escalate", "post", "/aml/{report}/escalate", {"note": "Sent.", "confirmed": "yes"}, {"manager"}, 302),
    ("pdf", "get", "/aml/{case}/en.pdf", None, READERS, 200),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,method,path,body,allowed,ok", PAGES, ids=[p[0] for p in PAGES])
def test_permission_matrix(world, role, name, method, path, body, allowed, ok):
    people = world["people"]
    fresh = player(world["t1"].casino, people["supervisor"], name="Lee Siu Lung")
    report = world["open"]
    if name == "escalate":
        from casino.aml import cases

        cases.decide(case=report, user=people["inspector"], report=True, note="structuring")
    before = (SuspicionCase.objects.count(), sum(c.ledger_seq for c in SuspicionCase.objects.all()))
    url = path.format(patron=fresh.pk, case=world["case"].pk, open=world["open"].pk, report=report.pk)
    response = getattr(client_for(people, role), method)(url, body or {})
    if role in allowed:
        assert response.status_code == ok, response.content[:500]
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        if role == "anonymous":
            assert response["Location"].startswith("/accounts/login/") or "login" in response["Location"]
        assert (SuspicionCase.objects.count(), sum(c.ledger_seq for c in SuspicionCase.objects.all())) == before


def test_the_menu_shows_the_cases_to_inspectors_and_managers_only(world):
    for role in ("dealer", "supervisor", "counter1", "inspector", "manager"):
        page = client_for(world["people"], role).get("/calculator/").content.decode()
        assert ('href="/aml/"' in page) == (role in READERS), role


def _play_a_day(people, t1):
    """A game at T1 whose chair 1 is a known player, with two buy-ins of his after the seating one."""
    game = seat(t1, people["supervisor"])
    chair = game.players.get(chair=1)
    for minutes, amount in ((10, 90_000), (20, 95_000)):
        services.move_money(game=game, user=people["supervisor"], chair=1, kind=Movement.BUY_IN, amount=amount,
                            at=NOON + dt.timedelta(minutes=minutes))
    return chair.patron


def test_an_inspector_opens_a_case_from_the_player_s_day_and_a_manager_escalates_it():
    people, t1, _ = cast()
    who = _play_a_day(people, t1)
    movements = list(Movement.objects.filter(patron=who).order_by("recorded_at"))
    assert [m.amount for m in movements] == [3000, 90_000, 95_000]
    inspector, manager = client_for(people, "inspector"), client_for(people, "manager")

    form = inspector.get(f"/aml/open/{who.pk}/").content.decode()
    assert 'value="2026-11-21"' in form and f'value="{movements[2].pk}"' in form  # his latest day by default
    response = inspector.post(f"/aml/open/{who.pk}/", {"gaming_day": "2026-11-21",
                                                       "note": "Two buy-ins in ten minutes.",
                                                       "movements": [movements[1].pk, movements[2].pk]})
    case = SuspicionCase.objects.get(patron=who)
    assert response.status_code == 302 and response["Location"] == f"/aml/{case.pk}/"
    assert case.events.get().movements == [movements[1].pk, movements[2].pk]

    page = inspector.get(f"/aml/{case.pk}/").content.decode()
    assert page.count('class="movement concerned"') == 2 and page.count('class="movement"') == 1
    assert ">188000<" in page  # the running total of his buy-ins after the third
    assert "step-escalate" not in page and "step-report" in page

    asked = inspector.post(f"/aml/{case.pk}/report", {"note": "Amounts just below the threshold."})
    assert asked.status_code == 200 and "Decide that case" in asked.content.decode()
    assert case.events.count() == 1  # asking wrote nothing
    assert inspector.post(f"/aml/{case.pk}/report", {"note": "Amounts just below the threshold.",
                                                     "confirmed": "yes"}).status_code == 302
    assert "step-escalate" in manager.get(f"/aml/{case.pk}/").content.decode()
    assert manager.post(f"/aml/{case.pk}/escalate", {"note": "Sent by the GIF's form.",
                                                     "confirmed": "yes"}).status_code == 302
    case.refresh_from_db()
    assert case.state == SuspicionCase.ESCALATED
    assert "/en.pdf" in manager.get(f"/aml/{case.pk}/").content.decode()


def test_a_step_refused_shows_the_page_again_with_the_reason(world):
    people = world["people"]
    case = world["case"]  # escalated already
    response = client_for(people, "manager").post(f"/aml/{case.pk}/report", {"note": "again", "confirmed": "yes"})
    assert response.status_code == 409
    assert "Only an open case is decided; this case is escalated to the financial intelligence office." in (
        response.content.decode())


def test_opening_a_second_case_in_progress_is_refused_on_the_page(world):
    people = world["people"]
    who = world["open"].patron
    response = client_for(people, "inspector").post(f"/aml/open/{who.pk}/", {"gaming_day": "2026-11-21",
                                                                             "note": "again"})
    assert response.status_code == 409
    assert f"This player already has case {world['open'].pk} in progress" in response.content.decode()


def test_only_an_escalated_case_prints(world):
    client = client_for(world["people"], "manager")
    assert client.get(f"/aml/{world['open'].pk}/en.pdf").status_code == 404
    assert client.get(f"/aml/{world['case'].pk}/xx.pdf").status_code == 404


def test_the_pdf_holds_the_identity_the_notes_and_the_decision_and_its_read_is_logged(world):
    people, who, case = world["people"], world["who"], world["case"]
    response = client_for(people, "manager").get(f"/aml/{case.pk}/en.pdf")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    for words in (f"Suspicious-transaction case {case.pk}", "Report to the financial intelligence office (GIF)",
                  "Chan Tai Man", who.document_number, "Macau resident identity card", "1970-01-02",
                  "Five buy-ins of 99,000 within an hour, at two tables.", "The player left after the fifth buy-in.",
                  "Amounts kept just below the threshold.", "decided: to be reported",
                  "Sent to the GIF by its secure form.", "2026-11-21"):
        assert words in text, words
    read = DocumentRead.objects.get(patron=who)
    assert (read.read_by, read.purpose) == (people["manager"], "suspicious-transaction case PDF")


def test_the_case_page_masks_the_document_number_and_logs_no_read(world):
    page = client_for(world["people"], "inspector").get(f"/aml/{world['case'].pk}/").content.decode()
    number = world["who"].document_number
    assert "Chan Tai Man" in page and number not in page and "*" * (len(number) - 3) + number[-3:] in page
    assert not DocumentRead.objects.exists()


def test_the_pdf_is_printed_in_the_reader_s_language_when_catalogues_are_compiled(world):
    from django.utils import translation

    with translation.override("zh-hant"):
        compiled = translation.gettext("Report to the financial intelligence office (GIF)") != (
            "Report to the financial intelligence office (GIF)")
    if not compiled:
        pytest.skip("the aml catalogues are not compiled (the lead compiles them)")
    text = pdf_text(client_for(world["people"], "manager").get(f"/aml/{world['case'].pk}/zh-hant.pdf").content)
    assert "金融情報辦公室" in text and "Report to the financial intelligence office" not in text
    assert world["who"].document_number in text


def test_an_unknown_step_is_a_404_and_a_step_is_never_a_get(world):
    client = client_for(world["people"], "manager")
    assert client.post(f"/aml/{world['open'].pk}/resolve", {"note": "x"}).status_code == 404
    assert client.get(f"/aml/{world['open'].pk}/note").status_code == 405
    assert client.post("/aml/999999/note", {"note": "x"}).status_code == 404
    assert world["open"].events.count() == 1
