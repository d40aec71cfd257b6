"""The trend and accounting pages: the dashboard's list of tables outside their band, a table's trend
page, the day's accounting, and the supervisor's confirmation of a refused attempt; each against
every role (dealer, supervisor, inspector, manager)."""
from __future__ import annotations

import pytest

from casino.pit import errors, selectors, services
from casino.pit.models import Refusal, RefusalConfirmation
from tests.builders.pit import next_record, staff, user
from tests.builders.trends import history, noon, play

pytestmark = pytest.mark.django_db

ROLES = ["dealer", "supervisor", "inspector", "manager"]
READS = {"dealer": 403, "supervisor": 403, "inspector": 200, "manager": 200}


@pytest.fixture
def floor():
    """T1 played a week of wins and then, on 2026-11-08, four draws (below its band); a refused
    attempt by the dealer on that day."""
    people, t1, t2 = staff()
    day = history(t1, people["dealer"])
    play(t1, people["dealer"], day, "DDDD")
    game = selectors.open_game(t1)
    with pytest.raises(errors.Refused):
        services.record_jogo(table=t1, user=people["dealer"], record={**next_record(game), "stake": 30}, at=noon(day))
    return people, t1, t2, day, Refusal.objects.get()


def page_as(client, person, url):
    client.force_login(person)
    return client.get(url)


@pytest.mark.parametrize("role", ROLES)
def test_the_trend_page_and_the_days_accounting_are_the_auditors(client, floor, role):
    people, t1, t2, day, refusal = floor
    for url in (f"/audit/tables/{t1.pk}/trend/?day={day}", f"/audit/tables/{t1.pk}/trend/",
                f"/audit/accounted/?day={day}", "/audit/accounted/"):
        assert page_as(client, people[role], url).status_code == READS[role], url


def test_the_pages_send_a_visitor_to_log_in(client, floor):
    people, t1, t2, day, refusal = floor
    for url in (f"/audit/tables/{t1.pk}/trend/", "/audit/accounted/"):
        assert client.get(url)["Location"].startswith("/accounts/login/")


def test_the_dashboard_lists_the_table_below_its_band_with_a_link_to_its_trend(client, floor):
    people, t1, t2, day, refusal = floor
    page = page_as(client, people["inspector"], f"/audit/?day={day}").content.decode()

    assert "Tables outside their expected band on 2026-11-08" in page
    assert f'href="/audit/tables/{t1.pk}/trend/?day=2026-11-08">T1</a>' in page
    assert "below" in page and "4.41 – 11.31" in page


def test_the_dashboard_says_so_when_every_table_is_within_its_band(client, floor):
    people, t1, t2, day, refusal = floor
    page = page_as(client, people["inspector"], "/audit/?day=2026-11-07").content.decode()

    assert "Every table that played is within its band, or has no band yet." in page


def test_the_trend_page_shows_day_month_and_year_and_the_chart_with_its_band(client, floor):
    people, t1, t2, day, refusal = floor
    page = page_as(client, people["manager"], f"/audit/tables/{t1.pk}/trend/?day={day}").content.decode()

    assert "Below the expected band" in page
    assert "Month to date" in page and "Year to date" in page
    assert '<rect class="band"' in page and page.count("<rect") == 1 + 8  # the band and eight days of play
    assert page.count('fill="#b03a2e"') == 1  # the day judged, below its band


def test_the_trend_page_refuses_a_day_that_is_not_a_date(client, floor):
    people, t1, t2, day, refusal = floor
    response = page_as(client, people["inspector"], f"/audit/tables/{t1.pk}/trend/?day=yesterday")
    assert response.status_code == 400


def test_the_trend_page_of_a_table_that_does_not_exist_is_404(client, floor):
    people, t1, t2, day, refusal = floor
    assert page_as(client, people["inspector"], "/audit/tables/9999/trend/").status_code == 404


def test_the_accounting_page_shows_the_unconfirmed_refusal_as_an_open_item(client, floor):
    people, t1, t2, day, refusal = floor
    page = page_as(client, people["inspector"], f"/audit/accounted/?day={day}").content.decode()

    assert "1 open item." in page and "not yet confirmed" in page
    assert "Art. 8" in page  # why: the service's reason, in the reader's words


# --- Confirming a refused attempt ------------------------------------------------------------------

CONFIRMS = {"dealer": 403, "supervisor": 302, "inspector": 403, "manager": 403}


@pytest.mark.parametrize("role", ROLES)
def test_only_a_supervisor_of_the_table_confirms_a_refused_attempt(client, floor, role):
    people, t1, t2, day, refusal = floor
    client.force_login(people[role])

    response = client.post(f"/pit/refusals/{refusal.pk}/confirm", {"note": "stake mistyped"})

    assert response.status_code == CONFIRMS[role]
    assert RefusalConfirmation.objects.filter(refusal=refusal).exists() == (role == "supervisor")


def test_a_supervisor_of_another_table_may_not_confirm(client, floor):
    people, t1, t2, day, refusal = floor
    client.force_login(user("elsewhere", "supervisor"))

    assert client.post(f"/pit/refusals/{refusal.pk}/confirm", {"note": "seen"}).status_code == 403
    assert not RefusalConfirmation.objects.exists()


def test_the_refusals_screen_offers_the_confirmation_and_then_shows_who_confirmed(client, floor):
    people, t1, t2, day, refusal = floor
    client.force_login(people["supervisor"])
    url = f"/pit/refusals/?day={day}"
    assert 'class="confirm-refusal"' in client.get(url).content.decode()

    response = client.post(f"/pit/refusals/{refusal.pk}/confirm", {"note": "stake mistyped"}, follow=True)

    page = response.content.decode()
    assert "Refused attempt confirmed." in page
    assert "Confirmed by supervisor" in page and "stake mistyped" in page
    assert 'class="confirm-refusal"' not in page


def test_a_confirmation_without_a_note_is_refused_with_the_reason(client, floor):
    people, t1, t2, day, refusal = floor
    client.force_login(people["supervisor"])

    page = client.post(f"/pit/refusals/{refusal.pk}/confirm", {"note": ""}, follow=True).content.decode()

    assert "A confirmation says why the attempt was abandoned." in page
    assert not RefusalConfirmation.objects.exists()


def test_dealers_do_not_read_the_refused_attempts(client, floor):
    people, t1, t2, day, refusal = floor
    client.force_login(people["dealer"])
    assert client.get(f"/pit/refusals/?day={day}").status_code == 403
