"""The inspector's pages: they render for those who may read every table (pit.view_all_tables:
inspectors and managers) and refuse pit staff with 403; a flag is raised from the jogo page."""
import pytest

from casino.pit.models import Flag
from tests.builders.audit import plant

pytestmark = pytest.mark.django_db

PAGES = ["/audit/", "/audit/?day=2026-11-21", "/audit/?from=2026-11-20&to=2026-11-21",
         "/audit/commission/?day=2026-11-21", "/audit/exceptions/?day=2026-11-21",
         "/audit/exceptions/?day=2026-11-21&kind=pay_all", "/audit/jogos/{jogo}/",
         "/audit/export/?format=csv&day=2026-11-21", "/audit/export/?format=xlsx&day=2026-11-21",
         "/audit/export/?format=jsonl&from=2026-11-21&to=2026-11-21"]


def client_as(client, person):
    client.force_login(person)
    return client


@pytest.mark.parametrize("role", ["inspector", "manager"])
@pytest.mark.parametrize("page", PAGES)
def test_inspectors_and_managers_read_every_audit_page(client, day, role, page):
    people, t1, game, rows = day
    response = client_as(client, people[role]).get(page.format(jogo=rows[3].pk))
    assert response.status_code == 200


@pytest.mark.parametrize("role", ["dealer", "supervisor"])
@pytest.mark.parametrize("page", PAGES)
def test_pit_staff_are_refused_the_audit_pages(client, day, role, page):
    people, t1, game, rows = day
    response = client_as(client, people[role]).get(page.format(jogo=rows[3].pk))
    assert response.status_code == 403


def test_anonymous_visitors_are_sent_to_the_login(client, day):
    response = client.get("/audit/commission/?day=2026-11-21")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_commission_page_shows_the_figures_and_the_planted_difference(client, day):
    people, t1, game, rows = day
    planted = plant(game, people["dealer"], commission=20)

    page = client_as(client, people["inspector"]).get("/audit/commission/?day=2026-11-21").content.decode()

    assert "1 difference between the ledger and the engine" in page
    assert f'href="/audit/jogos/{planted.pk}/"' in page
    assert "<code>commission</code></td><td>20</td><td>10</td>" in page


def test_the_exception_queue_filters_by_kind_and_links_each_entry_to_its_jogo(client, day):
    people, t1, game, rows = day
    inspector = client_as(client, people["inspector"])

    everything = inspector.get("/audit/exceptions/?day=2026-11-21").content.decode()
    pay_alls = inspector.get("/audit/exceptions/?day=2026-11-21&kind=pay_all").content.decode()

    assert "kind-false_win" in everything and "kind-pay_all" in everything
    assert "kind-pay_all" in pay_alls and "kind-false_win" not in pay_alls
    assert f'href="/audit/jogos/{rows[3].pk}/"' in pay_alls


def test_the_jogo_page_explains_the_grade_the_money_and_the_ledger(client, day):
    people, t1, game, rows = day
    pay_all = rows[3]

    page = client_as(client, people["inspector"]).get(f"/audit/jogos/{pay_all.pk}/").content.decode()

    assert "pure_one_suit" in page and "Art. 6(a)(3)" in page  # the item with its article
    assert "<code>123p</code>" in page and "<code>99p</code>" in page  # the decomposition
    assert pay_all.hash in page and "matches the row" in page
    assert "Every stored figure is the engine's." in page
    assert "Commission (Art. 8, I-8): 10 per the regulation; 10 recorded." in page


def test_an_unreadable_day_is_a_400_naming_the_field(client, day):
    people, t1, game, rows = day
    response = client_as(client, people["inspector"]).get("/audit/commission/?from=2026-13-01")
    assert response.status_code == 400 and "from: not a date" in response.content.decode()


def test_an_inspector_raises_a_flag_from_the_jogo_page(client, day):
    people, t1, game, rows = day
    inspector = client_as(client, people["inspector"])

    response = inspector.post(f"/audit/jogos/{rows[0].pk}/", {"note": "hand too short on the video"})

    assert response.status_code == 302
    flag = Flag.objects.get()
    assert (flag.table, flag.number, flag.raised_by, flag.note) == (t1, 1, people["inspector"],
                                                                    "hand too short on the video")
    assert "hand too short on the video" in inspector.get(f"/audit/jogos/{rows[0].pk}/").content.decode()


def test_a_manager_reads_but_may_not_flag(client, day):
    people, t1, game, rows = day
    response = client_as(client, people["manager"]).post(f"/audit/jogos/{rows[0].pk}/", {"note": "x"})
    assert response.status_code == 403 and not Flag.objects.exists()


def test_the_pages_speak_portuguese_and_chinese(client, day):
    people, t1, game, rows = day
    inspector = client_as(client, people["inspector"])
    for language, words in (("pt", "Auditoria das comissões"), ("zh-hant", "抽水稽核")):
        client.cookies["django_language"] = language
        assert words in inspector.get("/audit/commission/?day=2026-11-21").content.decode()


@pytest.mark.parametrize("page", ["commission", "exceptions"])
def test_a_page_refuses_more_days_than_it_re_checks_at_once_and_says_where_to_go(client, day, settings, page):
    """A page re-scores its range in the request, so a range of more ledger rows than
    AUDIT_PAGE_MAX_JOGOS is refused on its field; the export still holds them all."""
    people, t1, game, rows = day
    inspector = client_as(client, people["inspector"])
    held = len(rows)
    settings.AUDIT_PAGE_MAX_JOGOS = held
    assert inspector.get(f"/audit/{page}/?from=2026-11-20&to=2026-11-21").status_code == 200
    settings.AUDIT_PAGE_MAX_JOGOS = held - 1
    refused = inspector.get(f"/audit/{page}/?from=2026-11-20&to=2026-11-21")
    text = refused.content.decode()
    assert refused.status_code == 400
    assert f"to: these gaming days hold {held} jogos, more than a page re-checks at once ({held - 1})" in text
    assert inspector.get("/audit/export/?format=csv&from=2026-11-20&to=2026-11-21").status_code == 200
