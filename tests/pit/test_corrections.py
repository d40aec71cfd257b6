"""Corrections on screen (maker/checker) through Django's test client: who may propose, see and
decide a correction, the dealer's form filled with the recorded jogo, the recorded and corrected
outcomes side by side with the later jogos carried, and every refusal in the page's language."""
from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse

from casino.pit import selectors, services
from casino.pit.corrections import awaiting_count
from casino.pit.models import Amendment, Jogo, Movement
from casino.pit.services import close_day
from tests.builders.pit import DRAW, NOON, SUPERVISOR, next_record, seat, staff, user

pytestmark = pytest.mark.django_db

CHICKEN = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p", "winning_tile": "1p",
           "declared_fan": "0"}


def form(**fields) -> dict:
    """The correction form as posted: by default the first jogo as recorded (South's chicken
    hand on West's discard)."""
    return {**CHICKEN, **fields}


@pytest.fixture
def played():
    """Three jogos at T1: South wins, a draw, then the new banker self-draws a dragon pong."""
    people, t1, t2 = staff()
    people["supervisor_t2"] = user("supervisor_t2", SUPERVISOR)
    t2.staff.add(people["supervisor_t2"])
    game = seat(t1, people["dealer"])
    rows = [services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **fields), at=NOON)[0]
            for fields in ({}, DRAW, {"winner": "E", "discarder": None, "declared_fan": 1,
                                      "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}})]
    return people, t1, game, rows


def as_user(client, person, language: str = "en"):
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def propose(client, jogo: Jogo, **fields):
    return client.post(reverse("pit:propose_correction", args=[jogo.pk]), {"action": "propose", **fields})


def page(response) -> str:
    return response.content.decode()


# --- Who may do what -------------------------------------------------------------------------------

@pytest.mark.parametrize("who,status", [("supervisor", 200), ("supervisor2", 200), ("supervisor_t2", 403),
                                        ("dealer", 403), ("other_dealer", 403), ("inspector", 403),
                                        ("manager", 403)])
def test_only_a_supervisor_of_the_table_may_propose_a_correction(client, played, who, status):
    people, t1, game, (first, *_) = played
    as_user(client, people[who])
    assert client.get(reverse("pit:propose_correction", args=[first.pk])).status_code == status
    assert client.post(reverse("pit:correction_preview", args=[first.pk]),
                       form(winner="W", discarder="N")).status_code == status
    response = propose(client, first, **form(winner="W", discarder="N"), reason="camera review")
    assert response.status_code == (302 if status == 200 else 403)
    assert Amendment.objects.count() == (1 if status == 200 else 0)


def test_an_anonymous_visitor_is_sent_to_log_in(client, played):
    people, t1, game, (first, *_) = played
    for url in (reverse("pit:propose_correction", args=[first.pk]), reverse("pit:corrections")):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.fixture
def proposed(played):
    people, t1, game, (first, draw, third) = played
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"],
                                           reason="wrong winner keyed; camera 12:05",
                                          record={**first.record, "winner": "W", "discarder": "N"})
    return people, t1, game, (first, draw, third), amendment


@pytest.mark.parametrize("who,status", [("supervisor2", 302), ("manager", 302), ("supervisor_t2", 403),
                                        ("dealer", 403), ("inspector", 403)])
def test_another_supervisor_of_the_table_or_a_manager_decides(client, proposed, who, status):
    people, t1, game, rows, amendment = proposed
    as_user(client, people[who])
    response = client.post(reverse("pit:correction", args=[amendment.pk]),
                           {"action": "reject", "reason": "no", "confirmed": "yes"})
    assert response.status_code == status
    amendment.refresh_from_db()
    assert amendment.state == (Amendment.REJECTED if status == 302 else Amendment.PENDING)


@pytest.mark.parametrize("who,sees", [("supervisor", True), ("supervisor2", True), ("manager", True),
                                      ("inspector", True), ("supervisor_t2", False)])
def test_the_pending_corrections_are_listed_at_the_tables_one_sees(client, proposed, who, sees):
    people, t1, game, rows, amendment = proposed
    as_user(client, people[who])
    listing = page(client.get(reverse("pit:corrections")))
    assert ("wrong winner keyed; camera 12:05" in listing) == sees
    assert client.get(reverse("pit:correction", args=[amendment.pk])).status_code == (200 if sees else 403)


def test_a_dealer_has_no_corrections_pages(client, proposed):
    people, t1, game, rows, amendment = proposed
    as_user(client, people["dealer"])
    assert client.get(reverse("pit:corrections")).status_code == 403
    assert client.get(reverse("pit:correction", args=[amendment.pk])).status_code == 403
    assert "corrections-nav" not in page(client.get(reverse("pit:tables")))


# --- Proposing ---------------------------------------------------------------------------------------

def test_the_receipt_offers_a_correction_to_a_supervisor_only(client, played):
    people, t1, game, (first, *_) = played
    link = reverse("pit:propose_correction", args=[first.pk])
    assert link in page(as_user(client, people["supervisor"]).get(reverse("pit:receipt", args=[first.pk])))
    assert link not in page(as_user(client, people["dealer"]).get(reverse("pit:receipt", args=[first.pk])))


def test_the_form_is_the_dealers_form_filled_with_the_recorded_jogo(client, played):
    people, t1, game, (first, draw, third) = played
    as_user(client, people["supervisor"])
    html = page(client.get(reverse("pit:propose_correction", args=[third.pk])))
    assert 'id="jogo-form"' in html and 'name="concealed"' in html and 'name="reason"' in html
    assert 'value="345m678p234s99m77z"' in html and 'value="7z"' in html
    assert '<option value="E" selected>' in html  # the banker self-drew: winner East, no discarder
    assert '<option value="" selected>Self-drawn</option>' in html
    assert 'value="win" class="" checked' in html or ('value="win"' in html and "checked" in html)


def test_the_preview_sets_the_recorded_and_corrected_outcomes_side_by_side_and_lists_the_carried_jogos(
        client, played):
    people, t1, game, (first, draw, third) = played
    as_user(client, people["supervisor"])
    html = page(client.post(reverse("pit:correction_preview", args=[first.pk]), form(winner="W", discarder="N")))
    assert "Recorded and corrected" in html
    assert "West · Player 2 → South · Player 1: 25" in html  # as recorded
    assert "South · Player 1 → West · Player 2: 25" in html  # as corrected
    assert '<td class="num recorded">3090</td><td class="num corrected">2975</td>' in html  # South's capital
    assert 'data-jogo="2"' in html and 'data-jogo="3"' in html  # both later jogos are carried
    assert Jogo.objects.count() == 3 and not Amendment.objects.exists()  # nothing written


def test_proposing_needs_a_reason_named_in_the_page(client, played):
    people, t1, game, (first, *_) = played
    as_user(client, people["supervisor"])
    response = propose(client, first, **form(winner="W", discarder="N"), reason="")
    assert response.status_code == 400
    assert "Why is the jogo corrected?: This field is required." in page(response)
    assert not Amendment.objects.exists()


def test_a_proposed_correction_waits_for_a_second_person(client, played):
    people, t1, game, (first, *_) = played
    as_user(client, people["supervisor"])
    response = propose(client, first, **form(winner="W", discarder="N"), reason="camera review")
    amendment = Amendment.objects.get()
    assert response["Location"] == reverse("pit:correction", args=[amendment.pk])
    assert (amendment.state, amendment.proposed_by, amendment.record["winner"]) == (
        Amendment.PENDING, people["supervisor"], "W")
    html = page(client.get(response["Location"]))
    assert "a second person must approve or reject it" in html and 'value="approve"' not in html


# --- Refusals, in the page's language -----------------------------------------------------------------

@pytest.mark.parametrize("language,words", [("en", "identical to the recorded jogo 1"),
                                            ("pt", "idêntica ao jogo 1 tal como foi registado"),
                                            ("zh-hant", "與已記錄的第 1 局相同")])
def test_a_correction_identical_to_the_recorded_jogo_is_refused(client, played, language, words):
    people, t1, game, (first, *_) = played
    as_user(client, people["supervisor"], language)
    response = propose(client, first, **form(), reason="nothing")
    assert response.status_code == 400 and words in page(response)
    assert words in page(client.post(reverse("pit:correction_preview", args=[first.pk]), form()))
    assert not Amendment.objects.exists()


@pytest.mark.parametrize("language,words", [("en", "Nobody approves or rejects his own amendment"),
                                            ("pt", "Ninguém aprova nem rejeita a sua própria rectificação")])
def test_nobody_approves_his_own_correction(client, proposed, language, words):
    people, t1, game, rows, amendment = proposed
    assert awaiting_count(people["supervisor"]) == 0  # his own is not counted for him
    as_user(client, people["supervisor"], language)
    response = client.post(reverse("pit:correction", args=[amendment.pk]), {"action": "approve", "reason": ""})
    assert response.status_code == 400 and words in page(response)
    amendment.refresh_from_db()
    assert amendment.state == Amendment.PENDING and Jogo.objects.count() == 3


@pytest.mark.parametrize("language,words", [("en", "A rejection states its reason."),
                                            ("zh-hant", "駁回須說明理由。")])
def test_a_rejection_states_its_reason(client, proposed, language, words):
    people, t1, game, rows, amendment = proposed
    as_user(client, people["manager"], language)
    response = client.post(reverse("pit:correction", args=[amendment.pk]), {"action": "reject", "reason": " "})
    assert response.status_code == 400 and words in page(response)
    client.post(reverse("pit:correction", args=[amendment.pk]),
                {"action": "reject", "reason": "the camera shows South", "confirmed": "yes"})
    amendment.refresh_from_db()
    assert (amendment.state, amendment.decision_reason) == (Amendment.REJECTED, "the camera shows South")
    assert "the camera shows South" in page(client.get(reverse("pit:correction", args=[amendment.pk])))
    assert Jogo.objects.count() == 3


@pytest.mark.parametrize("language,words", [("en", "The gaming day 2026-11-21 is closed"),
                                            ("pt", "O dia de jogo 2026-11-21 está encerrado")])
def test_a_closed_gaming_day_refuses_a_correction_and_its_approval(client, proposed, language, words):
    people, t1, game, (first, draw, third), amendment = proposed
    close_day(casino=t1.casino, day=first.gaming_day, user=people["manager"], override_reason="box counted later",
              at=NOON + dt.timedelta(days=1))
    as_user(client, people["supervisor"], language)
    response = propose(client, third, **form(winner="E", discarder="", concealed="345m678p234s99m77z",
                                             winning_tile="7z", declared_fan="0"), reason="declared 0")
    assert response.status_code == 400 and words in page(response)
    as_user(client, people["supervisor2"], language)
    assert words in page(client.get(reverse("pit:corrections")))  # it can no longer be approved as it stands
    response = client.post(reverse("pit:correction", args=[amendment.pk]), {"action": "approve", "reason": ""})
    assert response.status_code == 409 and words in page(response)
    assert Jogo.objects.count() == 3


@pytest.mark.parametrize("language,words", [("en", "capital before jogo 2 would be negative"),
                                            ("zh-hant", "第 2 局前")])
def test_a_correction_leaving_negative_capital_is_refused(client, language, words):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 100, 2000, 4000])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game),
                                    at=NOON)  # South: 100 → 190
    services.move_money(game=game, user=people["dealer"], chair=1, kind=Movement.CASH_OUT, amount=190)
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    as_user(client, people["supervisor"], language)
    response = propose(client, first, result="draw", reason="it was a draw")
    assert response.status_code == 400 and words in page(response)
    assert not Amendment.objects.exists()


# --- Deciding ----------------------------------------------------------------------------------------

def test_an_approval_shows_the_new_revision_and_every_carried_revision(client, proposed):
    people, t1, game, rows, amendment = proposed
    as_user(client, people["supervisor2"])
    response = client.post(reverse("pit:correction", args=[amendment.pk]),
                           {"action": "approve", "reason": "", "confirmed": "yes"})
    assert response.status_code == 302
    amendment.refresh_from_db()
    assert amendment.state == Amendment.APPROVED and amendment.decided_by == people["supervisor2"]
    html = page(client.get(response["Location"]))
    revisions = {row.number: row for row in selectors.current_jogos(game)}
    assert f'href="/pit/jogos/{amendment.revision.pk}/">Jogo 1, revision 1 (amended)' in html
    for number in (2, 3):
        assert revisions[number].kind == Jogo.CARRIED
        assert f'href="/pit/jogos/{revisions[number].pk}/">Jogo {number}, revision 1 (capital carried)' in html
    assert "Correction approved" in html


def test_the_top_bar_counts_the_corrections_waiting_for_whoever_may_decide(client, proposed, django_assert_num_queries):
    people, t1, game, rows, amendment = proposed
    assert [awaiting_count(people[who]) for who in ("supervisor2", "manager", "supervisor", "supervisor_t2",
                                                    "inspector", "dealer")] == [1, 1, 0, 0, 0, 0]
    checker = people["supervisor2"]
    checker.has_perm("pit.approve_amendment")  # the permissions are read once per request anyway
    with django_assert_num_queries(1):
        awaiting_count(checker)
    as_user(client, checker)
    assert 'aria-label="1 correction waits for your decision">1</span>' in page(client.get(reverse("pit:tables")))
    as_user(client, people["inspector"])
    html = page(client.get(reverse("pit:tables")))
    assert "corrections-nav" in html and "waits for your decision" not in html


def test_a_superseded_revision_points_to_the_current_one(client, proposed):
    people, t1, game, (first, *_), amendment = proposed
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=True)
    amendment.refresh_from_db()
    as_user(client, people["supervisor"])
    assert "Propose a correction" not in page(client.get(reverse("pit:receipt", args=[first.pk])))
    html = page(client.get(reverse("pit:propose_correction", args=[first.pk])))
    assert f'href="{reverse("pit:propose_correction", args=[amendment.revision.pk])}"' in html
    response = propose(client, first, **form(winner="N", discarder="W"), reason="again")
    assert response.status_code == 400 and "is superseded by revision 1" in page(response)


def test_the_api_takes_the_reason_of_a_decision(proposed):
    from rest_framework.test import APIClient

    people, t1, game, rows, amendment = proposed
    api = APIClient()
    api.force_authenticate(people["manager"])
    response = api.post(f"/api/v1/amendments/{amendment.pk}/reject/", {}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "reason"
    response = api.post(f"/api/v1/amendments/{amendment.pk}/reject/", {"reason": "camera shows South"},
                        format="json")
    assert response.status_code == 200
    assert (response.json()["state"], response.json()["decision_reason"]) == ("rejected", "camera shows South")
