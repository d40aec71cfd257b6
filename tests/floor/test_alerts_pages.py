"""The alerts' page, /floor/alerts/, and the top bar's counter: who sees which alerts, each citing
its article or control and linking to the record behind it; acknowledging on screen; the
counter's one query; the words in the three languages."""
from __future__ import annotations

import datetime as dt

import pytest
from django.test import RequestFactory

from casino.floor import alerts
from casino.floor.context_processors import open_alerts
from casino.floor.models import Alert
from casino.pit import services
from casino.pit.roles import SUPERVISOR
from tests.builders.alerts import floor_at_noon
from tests.builders.pit import NOON, record_next, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor():
    people, t1, t2, game = floor_at_noon()
    jogo = record_next(game, people["dealer"], declared_fan=None, at=NOON)
    return people, t1, jogo


def test_a_supervisor_reads_the_alerts_of_his_tables_with_their_source_and_links(client, floor):
    people, t1, jogo = floor
    client.force_login(people["supervisor"])
    page = client.get("/floor/alerts/").content.decode()
    assert "Win with no declared grade" in page and "Table T1, jogo 1: a win saved with no declared grade." in page
    assert "Art. 6 · declared grade check" in page
    assert f'href="/pit/jogos/{jogo.pk}/"' in page
    assert 'action="/floor/alerts/' in page  # the acknowledge form


@pytest.mark.parametrize("role, status", [("dealer", 403), ("supervisor", 200), ("inspector", 200), ("manager", 200)])
def test_who_opens_the_alerts_page(client, floor, role, status):
    people, t1, jogo = floor
    client.force_login(people[role])
    assert client.get("/floor/alerts/").status_code == status


def test_a_supervisor_of_other_tables_sees_none_of_these(client, floor):
    stranger = user("stranger", SUPERVISOR)
    client.force_login(stranger)
    page = client.get("/floor/alerts/").content.decode()
    assert "No alert." in page


def test_acknowledging_on_screen_keeps_who_when_and_the_note_and_shows_them(client, floor):
    people, t1, jogo = floor
    client.force_login(people["supervisor"])
    alert = Alert.objects.get()
    response = client.post(f"/floor/alerts/{alert.pk}/acknowledge", {"note": "asked the dealer",
                                                                      "back": "/floor/alerts/?state=all"})
    assert response.status_code == 302 and response["Location"] == "/floor/alerts/?state=all"
    alert.refresh_from_db()
    assert (alert.acknowledged_by, alert.acknowledgement) == (people["supervisor"], "asked the dealer")
    page = client.get("/floor/alerts/?state=acknowledged").content.decode()
    assert "Acknowledged by supervisor at" in page and "asked the dealer" in page


def test_acknowledging_without_a_note_shows_the_form_again(client, floor):
    people, t1, jogo = floor
    client.force_login(people["supervisor"])
    alert = Alert.objects.get()
    response = client.post(f"/floor/alerts/{alert.pk}/acknowledge", {"note": ""})
    assert response.status_code == 400
    assert Alert.objects.get().acknowledged_at is None


def test_an_escalated_alert_offers_no_form_to_a_supervisor_and_says_why(client, floor):
    people, t1, jogo = floor
    alerts.tick(now=NOON + dt.timedelta(hours=1))
    client.force_login(people["supervisor"])
    alert = Alert.objects.get(rule="grade_not_declared")
    page = client.get("/floor/alerts/?rule=grade_not_declared").content.decode()
    assert "Escalated to the managers at" in page and f'/floor/alerts/{alert.pk}/acknowledge' not in page
    response = client.post(f"/floor/alerts/{alert.pk}/acknowledge", {"note": "seen"})
    assert response.status_code == 403


def test_the_filters_choose_state_table_and_rule(client, floor):
    people, t1, jogo = floor
    client.force_login(people["manager"])
    alerts.acknowledge(alert=Alert.objects.get(), user=people["manager"], note="seen")
    assert "No alert." in client.get("/floor/alerts/").content.decode()
    assert "seen" in client.get(f"/floor/alerts/?state=acknowledged&table={t1.pk}").content.decode()
    assert "No alert." in client.get("/floor/alerts/?state=all&rule=pay_all").content.decode()


def test_a_supervisor_reads_an_inspectors_flag_on_his_table(client, floor):
    """§3: supervisors see inspectors' flags on their tables: the flag's alert links to the
    table's history, which shows the flag."""
    people, t1, jogo = floor
    services.flag(jogo=jogo, user=people["inspector"], note="the discard looks wrong", at=NOON)
    client.force_login(people["supervisor"])
    page = client.get("/floor/alerts/?rule=flag_open").content.decode()
    assert "Table T1, jogo 1: an inspector flagged it." in page
    link = f"/pit/tables/{t1.pk}/history?day=2026-11-21&amp;number=1"
    assert link in page
    history = client.get(link.replace("&amp;", "&"))
    assert history.status_code == 200 and "the discard looks wrong" in history.content.decode()


def test_the_top_bar_counts_the_open_alerts_in_one_query(client, floor, django_assert_num_queries):
    people, t1, jogo = floor
    request = RequestFactory().get("/")
    request.user = people["supervisor"]
    request.user.has_perm("floor.view_alert")  # the permissions, read once for every page
    with django_assert_num_queries(1):
        counts = dict(open_alerts(request)["open_alerts"])
    assert counts == {"show": True, "open": 1, "escalated": 0}
    client.force_login(people["supervisor"])
    assert 'class="alerts-nav"' in client.get("/floor/alerts/").content.decode()


def test_the_top_bar_shows_no_alerts_to_whom_may_not_act_on_them(client, floor):
    people, t1, jogo = floor
    client.force_login(people["dealer"])
    assert 'class="alerts-nav"' not in client.get("/pit/").content.decode()


@pytest.mark.parametrize("language, words", [("pt", "Jogo ganho sem graduação anunciada"),
                                             ("zh-hant", "胡牌未宣佈番數")])
def test_the_page_speaks_the_readers_language(client, floor, language, words):
    people, t1, jogo = floor
    client.force_login(people["supervisor"])
    page = client.get("/floor/alerts/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page
