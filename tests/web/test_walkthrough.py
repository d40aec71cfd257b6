"""What a walkthrough on a fresh `make run` found (issue 24 §6), fixed: a forbidden page in the
person's language with the site's menu and the view's reason; the trend page's hours are hours
with jogos; closing a table, deciding a correction, escalating or resolving a case and resolving
a flag ask first; a stale correction says so, is not offered for approval, is not counted, and
only its proposer redoes it; people are named by their full names."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse

from casino.api_errors import forbidden
from casino.audit.trends import TrendFigures, table_trend
from casino.count import cases
from casino.pit import corrections, demo, services
from casino.pit.errors import Refused
from casino.pit.models import Amendment, Flag, Jogo
from casino.terms.vocabulary import localise
from tests.builders.cases import correct_to_a_draw, short_case
from tests.builders.pit import NOON, record_next, seat, staff
from tests.builders.reports import pdf_text, record_at

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode()


def as_user(client, person, language="en"):
    client.force_login(person)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    return client


@pytest.fixture
def played():
    """The pit's cast; T1 with a game of three jogos recorded by its dealer (South wins each)."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    rows = [record_next(game, people["dealer"]) for _ in range(3)]
    return people, t1, t2, game, rows


# --- A forbidden page ----------------------------------------------------------------------------

def test_a_forbidden_page_has_the_menu_and_the_views_reason_in_the_persons_language(client, played):
    people, t1, *_ = played
    response = as_user(client, people["other_dealer"], "pt").get(reverse("pit:table", args=[t1.pk]))
    assert response.status_code == 403
    html = page(response)
    assert "Não permitido" in html and "Não está afecto à mesa T1." in html
    assert 'class="top"' in html and reverse("pit:tables") in html  # the site's menu
    assert "403 Forbidden" not in html


def test_a_forbidden_page_without_a_reason_gives_the_roles(client, played):
    people, *_ = played
    response = as_user(client, people["dealer"], "zh-hant").get(reverse("audit:index"))
    assert response.status_code == 403
    assert "不允許" in page(response) and "閣下之職務不容許此操作。" in page(response)


def test_a_forbidden_api_request_keeps_the_apis_error_shape():
    request = RequestFactory().get("/api/v1/tables/1/")
    response = forbidden(request, PermissionDenied("You are not assigned to table T1."))
    assert response.status_code == 403 and response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"errors": [{"code": "permission_denied", "article": None,
                                           "message": "You are not assigned to table T1."}]}


# --- Hours with jogos on the trend page ---------------------------------------------------------

def test_an_idle_open_game_is_not_play_only_hours_with_jogos_count(played):
    people, t1, *_ = played  # the fixture's jogos: three at noon, in the 12:00 hour
    services.end_game(game=t1.games.get(), user=people["supervisor"], at=NOON)
    game = seat(t1, people["dealer"], at=NOON + dt.timedelta(hours=1))  # open at 13:00, idle until 15:10
    record_at(game, demo.DRAW, NOON + dt.timedelta(hours=3, minutes=10), people["dealer"])
    record_at(game, demo.DRAW, NOON + dt.timedelta(hours=3, minutes=50), people["dealer"])
    today = table_trend(t1, NOON.date()).today
    assert today.hours == 2  # 12:00–12:59 and 15:00–15:59; not 13:00 to 15:50
    assert today.jogos == 5 and today.per_hour == today.commission / 2
    assert TrendFigures(commission=30, jogos=3, hours=0).per_hour is None


def test_the_trend_page_says_what_it_counts_and_the_audit_and_tables_link_to_it(client, played):
    people, t1, *_ = played
    trend = reverse("audit:trend", args=[t1.pk])
    html = page(as_user(client, people["inspector"]).get(trend, {"day": "2026-11-21"}))
    assert "Hours with jogos: the clock hours (Macau time" in html and "a game left open with no jogo counts" in html
    assert f'href="{trend}?day=2026-11-21"' in page(client.get(reverse("audit:commission"), {"day": "2026-11-21"}))
    assert f'href="{trend}"' in page(client.get(reverse("pit:tables")))
    assert "audit/tables" not in page(as_user(client, people["dealer"]).get(reverse("pit:tables")))


# --- Asking first --------------------------------------------------------------------------------

def asks(response, question: str) -> bool:
    html = page(response)
    return (response.status_code == 200 and question in html and 'name="confirmed" value="yes"' in html
            and 'class="confirm"' in html)


def test_closing_a_table_asks_first(client, played):
    people, t1, _t2, game, _rows = played
    services.end_game(game=game, user=people["supervisor"])
    url = reverse("pit:close_table", args=[t1.pk])
    response = as_user(client, people["supervisor"]).post(url)
    t1.refresh_from_db()
    assert asks(response, "Close table T1?") and t1.is_open
    assert f'href="{reverse("pit:table", args=[t1.pk])}"' in page(response)  # the way back
    client.post(url, {"confirmed": "yes"})
    t1.refresh_from_db()
    assert not t1.is_open


@pytest.mark.parametrize("action, question, state", [
    ("approve", "Approve the correction of jogo 1, table T1?", Amendment.APPROVED),
    ("reject", "Reject the correction of jogo 1, table T1?", Amendment.REJECTED)])
def test_deciding_a_correction_asks_first_and_keeps_the_reason(client, played, action, question, state):
    people, t1, _t2, game, (first, *_) = played
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="West discarded",
                                          record={**first.record, "discarder": "N"})
    url = reverse("pit:correction", args=[amendment.pk])
    response = as_user(client, people["manager"]).post(url, {"action": action, "reason": "camera 3"})
    amendment.refresh_from_db()
    assert asks(response, question) and amendment.state == Amendment.PENDING
    assert f'name="action" value="{action}"' in page(response) and 'name="reason" value="camera 3"' in page(response)
    client.post(url, {"action": action, "reason": "camera 3", "confirmed": "yes"})
    amendment.refresh_from_db()
    assert (amendment.state, amendment.decision_reason) == (state, "camera 3")


@pytest.mark.parametrize("step, who, question, state", [
    ("escalate", "inspector", "to the regulator?", "escalated"), ("resolve", "manager", "Resolve case", "resolved")])
def test_escalating_or_resolving_a_case_asks_first(client, step, who, question, state):
    people, _t1, case = short_case()
    url = reverse("count:case_step", args=[case.pk, step])
    response = as_user(client, people[who]).post(url, {"note": "the fill slips"})
    case.refresh_from_db()
    assert asks(response, question) and case.state == "open" and case.events.count() == 1
    assert "the fill slips" in page(response)
    client.post(url, {"note": "the fill slips", "confirmed": "yes"})
    case.refresh_from_db()
    assert case.state == state


def test_a_note_on_a_case_is_not_asked_about(client):
    people, _t1, case = short_case()
    response = as_user(client, people["inspector"]).post(reverse("count:case_step", args=[case.pk, "note"]),
                                                         {"note": "asked"})
    assert response.status_code == 302 and case.events.count() == 2


def test_resolving_a_flag_asks_first(client, played):
    people, _t1, _t2, _game, (first, *_) = played
    flag = services.flag(jogo=first, user=people["inspector"], note="14 tiles?")
    url = reverse("audit:resolve", args=[flag.pk])
    response = as_user(client, people["manager"]).post(url, {"note": "13 tiles on camera"})
    assert asks(response, "Resolve the flag on jogo 1, table T1?") and Flag.objects.get().is_open
    client.post(url, {"note": "13 tiles on camera", "confirmed": "yes"})
    assert Flag.objects.get().resolution == "13 tiles on camera"


# --- A stale correction ----------------------------------------------------------------------------

@pytest.fixture
def stale(played):
    """Two corrections of jogo 1 by two supervisors; the manager approves the first: the second
    corrects revision 0, which no longer stands."""
    people, t1, _t2, game, (first, *_) = played
    approved = services.propose_amendment(jogo=first, user=people["supervisor"], reason="North discarded",
                                          record={**first.record, "discarder": "N"})
    later = services.propose_amendment(jogo=first, user=people["supervisor2"], reason="East discarded",
                                       record={**first.record, "discarder": "E"})
    approved = services.decide_amendment(amendment=approved, user=people["manager"], approve=True)
    return people, t1, approved, later


def test_a_stale_correction_says_which_approved_correction_made_it_so(stale):
    people, t1, approved, later = stale
    why = corrections.staleness(later)
    assert why.by == approved and why.revision == approved.revision and why.current == approved.revision
    assert corrections.staleness(approved) is None


def test_a_stale_correction_is_not_offered_for_approval_and_not_counted(client, stale):
    people, t1, approved, later = stale
    html = page(as_user(client, people["manager"]).get(reverse("pit:correction", args=[later.pk])))
    assert "Stale" in html and f"correction {approved.pk} of jogo 1, approved by manager" in html
    assert 'value="approve"' not in html and 'value="reject"' in html
    assert corrections.awaiting_count(people["manager"]) == 0
    listed = page(client.get(reverse("pit:corrections")))
    assert "Stale corrections" in listed and "No correction is waiting for a decision." in listed
    assert 'class="badge count"' not in listed


def test_approving_a_stale_correction_is_refused_at_once(client, stale):
    people, t1, approved, later = stale
    response = as_user(client, people["manager"]).post(reverse("pit:correction", args=[later.pk]),
                                                       {"action": "approve", "reason": ""})
    later.refresh_from_db()
    assert response.status_code == 409 and later.state == Amendment.PENDING


def test_only_the_proposer_redoes_a_stale_correction_from_the_current_revision(client, stale):
    people, t1, approved, later = stale
    redo = f'{reverse("pit:propose_correction", args=[approved.revision.pk])}?redo={later.pk}'
    assert redo in page(as_user(client, people["supervisor2"]).get(reverse("pit:correction", args=[later.pk])))
    form = page(client.get(redo))
    assert "East discarded" in form  # the reason, ready to propose again
    assert redo not in page(as_user(client, people["supervisor"]).get(reverse("pit:correction", args=[later.pk])))
    assert client.get(redo).status_code == 403
    assert "Only the person who proposed it may redo it" in page(client.get(reverse("pit:correction",
                                                                                       args=[later.pk])))


def test_a_correction_made_stale_by_a_carried_revision_names_the_correction_that_carried_it(played):
    people, t1, _t2, game, (first, second, _third) = played
    pending = services.propose_amendment(jogo=second, user=people["supervisor2"], reason="North discarded",
                                         record={**second.record, "discarder": "N"})
    approved = correct_to_a_draw(first, people["supervisor"], people["manager"])
    why = corrections.staleness(pending)
    assert why.by == approved and why.revision.kind == Jogo.CARRIED and why.revision.number == 2


# --- Full names ------------------------------------------------------------------------------------

def named(people):
    for key, (first, last) in {"dealer": ("Ana", "Lei"), "supervisor": ("Bruno", "Chan"),
                               "supervisor2": ("Carla", "Ho"), "manager": ("Dora", "Wong"),
                               "inspector": ("Edu", "Lam"), "counter1": ("Fai", "Ng"),
                               "counter2": ("Gil", "Sou")}.items():
        if key in people:
            people[key].first_name, people[key].last_name = first, last
            people[key].save()


def test_people_are_named_by_their_full_names_on_the_main_pages(client, played):
    people, t1, _t2, game, (first, *_) = played
    named(people)
    receipt = page(as_user(client, people["dealer"]).get(reverse("pit:receipt", args=[first.pk])))
    assert "Ana Lei" in receipt and 'class="who">Ana Lei<' in receipt
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="North discarded",
                                          record={**first.record, "discarder": "N"})
    flag = services.flag(jogo=first, user=people["inspector"], note="14 tiles?")
    assert "Bruno Chan" in page(as_user(client, people["manager"]).get(reverse("pit:corrections")))
    assert "Edu Lam" in page(client.get(reverse("audit:flag", args=[flag.pk])))
    audit_jogo = page(client.get(reverse("audit:jogo", args=[first.pk])))
    assert "Ana Lei" in audit_jogo and "Bruno Chan" in audit_jogo
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)
    assert "decided by Carla Ho" in page(client.get(reverse("pit:correction", args=[amendment.pk])))
    assert "Ana Lei" in page(as_user(client, people["supervisor"]).get(reverse("pit:game_summary", args=[game.pk])))


def test_the_case_page_and_its_pdf_name_people_by_their_full_names(client):
    people, _t1, case = short_case()
    named(people)
    cases.escalate(case=case, user=people["inspector"], note="large")
    html = page(as_user(client, people["manager"]).get(reverse("count:case", args=[case.pk])))
    assert "Fai Ng" in html and "Gil Sou" in html and "Edu Lam" in html
    text = pdf_text(client.get(reverse("count:case_pdf", args=[case.pk, "en"])).content)
    assert "Fai Ng" in text and "Gil Sou" in text and "Edu Lam" in text
    assert "counter1" not in text


def test_a_service_s_refusal_names_the_person_by_full_name(played):
    people, _t1, _t2, _game, (first, *_) = played
    named(people)
    flag = services.flag(jogo=first, user=people["inspector"], note="14 tiles?")
    services.resolve_flag(flag=flag, user=people["manager"], note="fine")
    with pytest.raises(Refused) as refused:
        services.resolve_flag(flag=Flag.objects.get(), user=people["manager"], note="again")
    assert "already resolved by Dora Wong on" in localise(refused.value.problems[0])

