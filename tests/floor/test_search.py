"""The one search box (casino/floor/search.py, /floor/search/): a jogo by table and number, a
ledger row by hash prefix, a player by name, a box, a case; each hit links to its page, and
each person finds only what his role and his tables let him see."""
from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from casino.count.models import Count
from casino.floor import alerts, rules
from casino.floor.search import find
from casino.pit.models import Jogo, Movement
from casino.pit.roles import SUPERVISOR
from tests.builders.cases import correct_to_a_draw, short_case
from tests.builders.count import DAY
from tests.builders.pit import record_next, seat, staff, user

pytestmark = pytest.mark.django_db


def urls(hits) -> list[str]:
    return [hit.url for hit in hits]


def played():
    """The pit's cast; T1 with a game of two jogos recorded by its dealer."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    first, second = record_next(game, people["dealer"]), record_next(game, people["dealer"])
    return people, t1, t2, first, second


@pytest.mark.parametrize("query", ["T1 2", "T1#2", "T1/2", "t1 #2", "  T1   2 "])
def test_a_jogo_is_found_by_its_table_and_number_in_each_spelling(query):
    people, _t1, _t2, _first, second = played()
    assert urls(find(people["dealer"], query)) == [reverse("pit:receipt", args=[second.pk])]


def test_a_corrected_jogo_is_found_as_it_stands_its_latest_revision():
    people, _t1, _t2, first, _second = played()
    correct_to_a_draw(first, people["supervisor"], people["manager"])
    latest = Jogo.objects.filter(table=first.table, number=first.number).order_by("-revision").first()
    assert latest.revision > 0
    assert urls(find(people["inspector"], "T1 1")) == [reverse("pit:receipt", args=[latest.pk])]


def test_a_dealer_finds_only_his_own_tables_jogos():
    people, _t1, _t2, first, _second = played()
    assert find(people["other_dealer"], "T1 1") == []
    assert find(people["other_dealer"], first.hash[:8]) == []
    assert find(people["other_dealer"], "Player 1") == []
    assert find(people["dealer"], "T1 1") != []


def test_a_jogo_row_is_found_by_the_first_six_characters_of_its_hash_and_not_by_five():
    people, _t1, _t2, first, _second = played()
    assert reverse("pit:receipt", args=[first.pk]) in urls(find(people["inspector"], first.hash[:6].upper()))
    assert reverse("pit:receipt", args=[first.pk]) not in urls(find(people["inspector"], first.hash[:5]))


def test_a_movement_is_found_by_its_hash_and_opens_its_game():
    people, _t1, _t2, first, _second = played()
    buy_in = Movement.objects.filter(game=first.game).first()
    hits = find(people["supervisor"], buy_in.hash[:10])
    assert urls(hits) == [reverse("pit:game_summary", args=[first.game_id])]
    assert "5000" in hits[0].label and "chair 1" in hits[0].label  # chairs are numbered 1–4 for people


def test_a_player_is_found_by_part_of_his_name_by_those_who_may_read_it():
    """Inspectors and managers read every player's name, a supervisor those seated at his tables
    (casino.pit.privacy); a dealer reads none, so he finds none. A hit opens the player's page."""
    people, _t1, t2, first, _second = played()
    player = first.game.players.get(chair=2).patron
    for reader in ("inspector", "manager", "supervisor"):
        hits = find(people[reader], "layer 2")
        assert [hit.label for hit in hits] == ["Player 2"], reader
        assert hits[0].url == reverse("pit:patron", args=[player.pk]) and hits[0].detail == "not identified"
    assert find(people["dealer"], "layer 2") == []
    stranger = user("stranger", SUPERVISOR)
    t2.staff.add(stranger)
    assert find(stranger, "layer 2") == []  # a supervisor of T2 only


def test_a_table_is_found_by_its_number():
    people, t1, _t2, _first, _second = played()
    assert reverse("pit:table", args=[t1.pk]) in urls(find(people["supervisor"], "t1"))
    assert find(people["other_dealer"], "T1") == []


def test_a_box_and_a_case_are_found_by_number_and_by_table_and_day_in_any_language():
    people, t1, case = short_case()
    box_page, case_page = reverse("counting:box", args=[case.box_id]), reverse("count:case", args=[case.pk])
    assert urls(find(people["inspector"], f"T1 {DAY.isoformat()}")) == [box_page]
    for query in (f"box {case.box_id}", f"Caixa {case.box_id}", f"佣金箱 #{case.box_id}"):
        assert urls(find(people["counter1"], query)) == [box_page]
    for query in (f"case {case.pk}", f"caso {case.pk}", f"個案 {case.pk}"):
        assert urls(find(people["manager"], query)) == [case_page]
    assert set(urls(find(people["inspector"], f"#{case.pk}"))) >= {case_page}


def test_boxes_and_cases_are_found_only_by_those_who_may_read_them():
    people, t1, case = short_case()
    assert find(people["dealer"], f"T1 {DAY.isoformat()}") == []
    assert find(people["supervisor"], f"box {case.box_id}") == []
    assert find(people["counter1"], f"case {case.pk}") == []  # a counter counts boxes; cases are not his


def test_count_and_case_rows_are_found_by_their_hash():
    people, t1, case = short_case()
    count = Count.objects.filter(box=case.box).first()
    event = case.events.first()
    assert reverse("counting:box", args=[case.box_id]) in urls(find(people["counter1"], count.hash[:12]))
    assert reverse("count:case", args=[case.pk]) in urls(find(people["inspector"], event.hash[:12]))
    assert find(people["dealer"], count.hash[:12]) == []


# --- The page and the box in the top bar -------------------------------------------------------

def test_the_search_page_links_each_hit_to_its_page(client):
    people, _t1, _t2, _first, second = played()
    client.force_login(people["dealer"])
    page = client.get(reverse("floor:search"), {"q": "T1/2"}).content.decode()
    assert f'href="{reverse("pit:receipt", args=[second.pk])}"' in page
    assert "Jogo 2 at table T1" in page


def test_the_search_page_speaks_the_person_s_language(client):
    people, _t1, _t2, _first, _second = played()
    client.force_login(people["dealer"])
    page = client.get(reverse("floor:search"), {"q": "T1 2"}, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert "Jogo 2 na mesa T1" in page and "Pesquisar" in page
    page = client.get(reverse("floor:search"), {"q": "nobody here"}, HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "找不到" in page


def test_a_search_that_finds_nothing_says_so(client):
    people, *_ = played()
    client.force_login(people["other_dealer"])
    page = client.get(reverse("floor:search"), {"q": "T1 1"}).content.decode()
    assert "Nothing found for" in page


def test_the_top_bar_carries_the_search_box_for_staff_only(client):
    people, *_ = played()
    client.force_login(people["dealer"])
    assert f'action="{reverse("floor:search")}"' in client.get(reverse("pit:tables")).content.decode()
    client.logout()
    assert f'action="{reverse("floor:search")}"' not in client.get(reverse("home")).content.decode()


def test_the_search_page_is_for_signed_in_staff(client):
    people, *_ = played()
    assert client.get(reverse("floor:search"), {"q": "T1 1"}).status_code == 302  # to the login page
    client.force_login(user("visitor", None))
    assert client.get(reverse("floor:search"), {"q": "T1 1"}).status_code == 403


# --- Alerts ------------------------------------------------------------------------------------

def raised_alert(table):
    """A pay-all alert at `table`, written through the alerts' own writer."""
    with transaction.atomic():
        made, _cleared = alerts.write(table.casino_id, [rules.Raise(rule=rules.PAY_ALL, table_id=table.pk,
                                                                    key=rules.table_key(table.pk))], [],
                                      at=timezone.now())
    return made[0]


def test_an_alert_is_found_by_its_number_and_its_hash_by_those_who_see_its_table():
    people, t1, _t2 = staff()
    alert = raised_alert(t1)
    elsewhere = user("supervisor_t2", SUPERVISOR)
    for who, query in (("supervisor", f"alert {alert.pk}"), ("inspector", f"alerta #{alert.pk}"),
                       ("manager", alert.hash[:8])):
        hits = find(people[who], query)
        assert [hit.kind for hit in hits] == ["Alert"], (who, query)
        assert hits[0].url.endswith(f"#alert-{alert.pk}") and hits[0].url.startswith(reverse("floor:alerts"))
        assert "pay-all" in hits[0].label.lower() or "pay all" in hits[0].label.lower()
    assert find(elsewhere, f"alert {alert.pk}") == []
    assert find(people["dealer"], f"alert {alert.pk}") == []  # dealers have no alerts to act on
