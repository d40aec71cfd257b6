"""The count room's screens for inspectors, managers and supervisors (casino/count/case_views.py,
rotation_views.py): the case list and page, its steps, its PDF for the regulator and the rotation
log, each against every role (dealer, supervisor, inspector, manager, counter, and nobody logged in)."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from casino.count import cases, services
from casino.count.models import Case, Rotation
from casino.pit.models import Jogo, Table
from tests.builders.cases import correct_to_a_draw, short_case
from tests.builders.count import DAY, NOON

pytestmark = pytest.mark.django_db

ROLES = ["dealer", "supervisor", "inspector", "manager", "counter1"]
READERS = {"inspector", "manager"}


def as_user(client, person):
    client.force_login(person)
    return client


@pytest.fixture
def opened():
    return short_case()


# --- The permission matrix -----------------------------------------------------------------------

@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("path", ["/count/cases/", "/count/cases/{pk}/"])
def test_cases_are_read_by_inspectors_and_managers_only(client, opened, who, path):
    people, _, case = opened
    response = as_user(client, people[who]).get(path.format(pk=case.pk))
    assert response.status_code == (200 if who in READERS else 403)


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("step, allowed", [("note", READERS), ("explain", READERS), ("escalate", READERS),
                                           ("resolve", {"manager"})])
def test_each_step_of_a_case_is_taken_only_by_the_roles_that_may(client, opened, who, step, allowed):
    people, _, case = opened
    response = as_user(client, people[who]).post(f"/count/cases/{case.pk}/{step}", {"note": "seen", "confirmed": "yes"})
    assert response.status_code == (302 if who in allowed else 403)
    assert case.events.count() == (2 if who in allowed else 1)


@pytest.mark.parametrize("who", ROLES)
def test_the_escalated_case_s_pdf_is_for_inspectors_and_managers(client, opened, who):
    people, _, case = opened
    cases.escalate(case=case, user=people["inspector"], note="too large")
    response = as_user(client, people[who]).get(f"/count/cases/{case.pk}/en.pdf")
    assert response.status_code == (200 if who in READERS else 403)
    if who in READERS:
        assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")


@pytest.mark.parametrize("who, status", [("dealer", 403), ("supervisor", 200), ("inspector", 200), ("manager", 200),
                                         ("counter1", 403)])
def test_the_rotation_log_is_read_by_supervisors_inspectors_and_managers(client, opened, who, status):
    people, _, _ = opened
    assert as_user(client, people[who]).get(f"/count/rotation/?day={DAY}").status_code == status


@pytest.mark.parametrize("who, status", [("dealer", 403), ("supervisor", 302), ("inspector", 403), ("manager", 403),
                                         ("counter1", 403)])
def test_only_a_supervisor_adds_to_the_rotation_log(client, opened, who, status):
    people, t1, _ = opened
    response = as_user(client, people[who]).post(f"/count/rotation/?day={DAY}", {
        "table": t1.pk, "person": people["dealer"].pk, "duty": "dealer", "starts": "14:00"})
    assert response.status_code == status
    # the dealers' own entries, which the builders made for them to record, aside
    assert Rotation.objects.filter(recorded_by=people["supervisor"]).count() == (1 if status == 302 else 0)


@pytest.mark.parametrize("who, status", [("dealer", 403), ("supervisor", 302), ("inspector", 403), ("manager", 403),
                                         ("counter1", 403)])
def test_only_a_supervisor_closes_an_entry_of_the_rotation_log(client, opened, who, status):
    people, t1, _ = opened
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON,
                                    user=people["supervisor"])
    response = as_user(client, people[who]).post(f"/count/rotation/{entry.pk}/close", {"ends": "16:30"})
    assert response.status_code == status
    entry.refresh_from_db()
    assert (entry.ends_at is not None) == (status == 302)


@pytest.mark.parametrize("path", ["/count/cases/", "/count/cases/1/", "/count/rotation/"])
def test_nobody_logged_in_is_sent_to_the_login_page(client, path):
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# --- What the screens show and do ----------------------------------------------------------------

def test_the_case_page_shows_the_box_its_counts_figures_thresholds_and_history(client, opened, settings):
    people, t1, case = opened
    cases.add_note(case=case, user=people["inspector"], note="Asked for the video.")
    count = case.count
    expected = count.expected
    page = as_user(client, people["manager"]).get(f"/count/cases/{case.pk}/").content.decode()
    assert "Variance case: table T1, 2026-11-21, shift 1" in page
    assert f'<dd class="expected">{expected}</dd>' in page
    assert f'<dd class="counted">{expected - 5}</dd>' in page
    assert "\u22125" in page and "(short)" in page
    assert f"beyond {settings.COUNT_VARIANCE_ABSOLUTE} units or {settings.COUNT_VARIANCE_PERCENT}%" in page
    assert "counter1: " in page and "counter2: " in page
    assert "Asked for the video." in page
    assert 'class="reopened"' not in page
    assert "step-resolve" in page  # a manager may resolve


def test_an_inspector_sees_no_resolve_form_and_a_resolved_case_offers_only_notes(client, opened):
    people, _, case = opened
    page = as_user(client, people["inspector"]).get(f"/count/cases/{case.pk}/").content.decode()
    assert "step-explain" in page and "step-resolve" not in page
    cases.resolve(case=case, user=people["manager"], note="done")
    page = client.get(f"/count/cases/{case.pk}/").content.decode()
    assert "step-note" in page and "step-explain" not in page and "step-escalate" not in page


def test_a_refused_step_shows_the_page_again_with_the_reason_and_writes_nothing(client, opened):
    people, _, case = opened
    cases.escalate(case=case, user=people["inspector"], note="large")
    response = as_user(client, people["inspector"]).post(f"/count/cases/{case.pk}/explain", {"note": "found"})
    assert response.status_code == 409
    assert ("Only an open case is marked explained; this case is escalated to the regulator."
            in response.content.decode())
    response = client.post(f"/count/cases/{case.pk}/note", {"note": ""})
    assert response.status_code == 400
    assert case.events.count() == 2


def test_a_case_reopened_after_a_correction_says_so_on_its_page_and_in_the_list(client, opened):
    people, t1, case = opened
    cases.mark_explained(case=case, user=people["inspector"], note="Tips mixed with commission.")
    # Counted 15 of 20 expected; the first jogo was in fact a draw: 10 expected, 5 over, beyond
    # the percentage threshold again.
    first = Jogo.objects.get(table=t1, number=1, revision=0)
    correct_to_a_draw(first, people["supervisor"], people["manager"])
    case.refresh_from_db()
    assert case.state == Case.OPEN
    page = as_user(client, people["inspector"]).get(f"/count/cases/{case.pk}/").content.decode()
    assert 'class="reopened"' in page and "Reopened after a correction" in page
    assert '<dd class="expected">10</dd>' in page and "+5" in page
    assert "10 after a correction approved on" in page
    listed = client.get("/count/cases/").content.decode()
    assert '<span class="badge">reopened</span>' in listed


# --- The rotation log ----------------------------------------------------------------------------

def test_times_on_the_log_belong_to_the_gaming_day_shown_three_in_the_night_is_the_next_morning(client, opened):
    people, t1, _ = opened
    as_user(client, people["supervisor"]).post(f"/count/rotation/?day={DAY}", {
        "table": t1.pk, "person": people["dealer"].pk, "duty": "dealer", "starts": "03:00"})
    entry = Rotation.objects.get(recorded_by=people["supervisor"])
    assert entry.gaming_day == DAY
    assert timezone.localtime(entry.starts_at) == timezone.make_aware(dt.datetime(2026, 11, 22, 3, 0))
    assert (entry.recorded_by, entry.person, entry.duty) == (people["supervisor"], people["dealer"], "dealer")


def test_a_supervisor_keeps_the_log_of_his_own_tables_only(client, opened):
    people, t1, _ = opened
    t2 = Table.objects.get(number="T2")
    response = as_user(client, people["supervisor"]).post(f"/count/rotation/?day={DAY}", {
        "table": t2.pk, "person": people["other_dealer"].pk, "duty": "dealer", "starts": "09:00"})
    assert response.status_code == 400 and not Rotation.objects.filter(recorded_by=people["supervisor"]).exists()
    page = client.get(f"/count/rotation/?day={DAY}").content.decode()
    tables = page.split('name="table"')[1].split("</select>")[0]
    assert f'<option value="{t1.pk}">T1</option>' in tables and ">T2<" not in tables


def test_the_log_lists_the_day_s_entries_and_an_entry_closed_before_it_starts_is_refused(client, opened):
    people, t1, _ = opened
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON,
                                    user=people["supervisor"])
    services.rotation_start(table=t1, person=people["supervisor2"], duty=Rotation.SUPERVISOR,
                            starts_at=NOON + dt.timedelta(days=1), user=people["supervisor"])  # the next day
    page = as_user(client, people["supervisor"]).get(f"/count/rotation/?day={DAY}").content.decode()
    # this entry and the dealer's own from 06:00, which the builder made for him to record the box's jogos
    assert page.count('class="entry open-entry"') == 2 and "2026-11-21 12:00" in page
    log = page.split('<table class="grid rotation">')[1].split("</table>")[0]
    assert '<td class="person">supervisor2</td>' not in log and '<td class="person">dealer</td>' in log
    response = client.post(f"/count/rotation/{entry.pk}/close", {"ends": "11:00"})
    assert response.status_code == 400
    assert "End: a rotation entry ends after it starts." in response.content.decode()
    entry.refresh_from_db()
    assert entry.ends_at is None
    client.post(f"/count/rotation/{entry.pk}/close", {"ends": "18:30"})
    entry.refresh_from_db()
    assert timezone.localtime(entry.ends_at).strftime("%H:%M") == "18:30" and entry.ended_by == people["supervisor"]
    response = client.post(f"/count/rotation/{entry.pk}/close", {"ends": "19:30"})
    assert response.status_code == 409


def test_the_escalated_case_prints_in_each_language_and_a_case_not_escalated_does_not(client, opened):
    import io

    from pypdf import PdfReader

    people, _, case = opened
    as_user(client, people["inspector"])
    assert client.get(f"/count/cases/{case.pk}/pt.pdf").status_code == 404
    cases.escalate(case=case, user=people["inspector"], note="The shortage repeats.")
    cases.resolve(case=case, user=people["manager"], note="Recovered.")  # escalated once: it still prints
    for language, title in (("pt", "Caso de diferença: mesa T1"), ("zh-hant", "差額個案：T1號枱"),
                            ("en", "Variance case: table T1")):
        response = client.get(f"/count/cases/{case.pk}/{language}.pdf")
        text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
        assert title in text and "The shortage repeats." in text, language
    assert client.get(f"/count/cases/{case.pk}/fr.pdf").status_code == 404
