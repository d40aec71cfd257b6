"""A recorded jogo's receipt as people read it: the pay-all (包輸, «suportar a perda») with its
article, the false win's offender (詐糊), times on the 24-hour clock in Macau time in every
language, and, for those who may audit, the way to the jogo explained (issue 14 §3, §4)."""
from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from casino.pit import selectors, services
from casino.reports.pdf import report_html
from casino.reports.selectors import daily_summary
from tests.builders.pit import BIG_THREE_DRAGONS_PAY_ALL, NOON, on_rotation, seat

pytestmark = pytest.mark.django_db

# 09:08 UTC is 17:08 in Macau (UTC+8, no summer time).
UTC_0908 = dt.datetime(2026, 11, 23, 9, 8, tzinfo=dt.timezone.utc)

FALSE_WIN_BY_NORTH = {"result": "false_win", "winner": None, "discarder": None, "hand": None, "declared_fan": None,
                      "false_win": {"seat": "N"}}
# The form as the dealer's screen posts it: South's chicken hand on West's discard (0 fán).
CHICKEN = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p", "winning_tile": "1p",
           "declared_fan": "0"}


def recorded(people, fields: dict, at: dt.datetime = NOON):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    on_rotation(t1, staff_["dealer"], at)
    record = {**selectors.record_header(game), **fields}
    jogo, created = services.record_jogo(table=t1, user=staff_["dealer"], record=record, at=at)
    assert created
    return jogo


def receipt_page(client, user, jogo, language="en", **query) -> str:
    client.force_login(user)
    response = client.get(reverse("pit:receipt", args=[jogo.pk]), query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def table_page_with_receipt(client, user, jogo, language="en") -> str:
    client.force_login(user)
    response = client.get(reverse("pit:table", args=[jogo.table_id]), {"receipt": jogo.pk},
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_art_10a3_a_pay_all_receipt_names_包輸_the_liable_player_and_the_article_in_chinese(client, people):
    jogo = recorded(people, BIG_THREE_DRAGONS_PAY_ALL)
    page = receipt_page(client, people[0]["dealer"], jogo, "zh-hant")
    assert "包輸" in page and "北位 · P***** 3" in page  # a dealer reads names masked
    assert "第十條(甲)(3)：" in page  # the article cited as Chinese writes it


def test_art_10a3_a_pay_all_receipt_says_suportar_a_perda_with_its_article_in_portuguese(client, people):
    jogo = recorded(people, BIG_THREE_DRAGONS_PAY_ALL)
    page = receipt_page(client, people[0]["dealer"], jogo, "pt")
    assert "Suportar a perda (包輸)" in page and "Norte · P***** 3" in page
    assert "Art. 10.º(a)(3)" in page


def test_the_receipt_on_the_dealers_table_screen_names_the_pay_all_too(client, people):
    jogo = recorded(people, BIG_THREE_DRAGONS_PAY_ALL)
    page = table_page_with_receipt(client, people[0]["dealer"], jogo)
    assert "Pay-all (包輸): liable player</strong> North · P***** 3" in page
    assert "Art. 10(a)(3)" in page


def test_a_receipt_without_a_penalty_names_neither_包輸_nor_詐糊(client, people):
    jogo = recorded(people, {"result": "draw", "winner": None, "discarder": None, "hand": None,
                             "declared_fan": None})
    page = receipt_page(client, people[0]["dealer"], jogo)
    assert 'class="penalty' not in page


def test_art_10a8_a_false_win_receipt_names_the_offender_and_詐糊(client, people):
    jogo = recorded(people, FALSE_WIN_BY_NORTH)
    page = receipt_page(client, people[0]["dealer"], jogo)
    assert "False win (詐糊): offender</strong> North · P***** 3" in page
    assert "Art. 10(a)(7)–(8)" in page
    chinese = receipt_page(client, people[0]["dealer"], jogo, "zh-hant")
    assert "詐糊者</strong> 北位 · P***** 3" in chinese


@pytest.mark.parametrize("language, written", [
    ("en", "23 Nov 2026, 17:08"),
    ("pt", "23 de Novembro de 2026, 17:08"),
    ("zh-hant", "2026年11月23日 17:08"),
])
def test_a_receipt_shows_the_time_in_macau_on_the_24_hour_clock_in_the_pages_language(client, people, language,
                                                                                      written):
    jogo = recorded(people, FALSE_WIN_BY_NORTH, at=UTC_0908)
    page = receipt_page(client, people[0]["dealer"], jogo, language)
    assert written in page
    assert "9:08" not in page and "p.m." not in page and "a.m." not in page


def test_the_audit_page_of_a_jogo_shows_the_same_macau_time(client, people):
    jogo = recorded(people, FALSE_WIN_BY_NORTH, at=UTC_0908)
    client.force_login(people[0]["inspector"])
    page = client.get(reverse("audit:jogo", args=[jogo.pk])).content.decode()
    assert "2026-11-23 17:08" in page


@pytest.mark.parametrize("language", ["en", "pt", "zh-hant"])
def test_the_daily_reports_time_of_making_is_macau_time_on_the_24_hour_clock(people, language):
    jogo = recorded(people, FALSE_WIN_BY_NORTH, at=UTC_0908)
    html = report_html(daily_summary(jogo.table.casino, jogo.gaming_day), language=language, generated_at=UTC_0908)
    assert "2026-11-23 17:08:00" in html


@pytest.mark.parametrize("role", ["inspector", "manager"])
def test_those_who_may_audit_follow_a_receipt_to_the_jogo_explained(client, people, role):
    jogo = recorded(people, BIG_THREE_DRAGONS_PAY_ALL)
    explained = reverse("audit:jogo", args=[jogo.pk])
    assert f'href="{explained}"' in receipt_page(client, people[0][role], jogo)
    assert f'href="{explained}"' in table_page_with_receipt(client, people[0][role], jogo)
    assert client.get(explained).status_code == 200


@pytest.mark.parametrize("role", ["dealer", "supervisor"])
def test_pit_staff_get_no_link_to_the_audit(client, people, role):
    jogo = recorded(people, BIG_THREE_DRAGONS_PAY_ALL)
    explained = reverse("audit:jogo", args=[jogo.pk])
    assert explained not in receipt_page(client, people[0][role], jogo)
    assert explained not in table_page_with_receipt(client, people[0][role], jogo)


def test_the_receipt_page_sets_the_paper_when_asked_for_80_mm_or_a4(client, people):
    jogo = recorded(people, FALSE_WIN_BY_NORTH)
    dealer = people[0]["dealer"]
    assert "@page { size: 80mm 297mm" in receipt_page(client, dealer, jogo, paper="80mm")
    assert "@page { size: A4; }" in receipt_page(client, dealer, jogo, paper="a4")
    plain = receipt_page(client, dealer, jogo)
    assert "@page" not in plain and 'href="?paper=80mm"' in plain



def verdict_bar(page: str) -> str:
    start = page.index('id="verdict-bar"')
    return page[start:page.index("</p>", start)]


def test_the_verdict_bar_of_a_preview_without_the_script_gives_verdict_grade_and_total_paid(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    client.force_login(staff_["dealer"])
    # A chicken hand by South on West's discard at 25/50: East pays 50, West and North 25 each.
    page = client.post(reverse("pit:jogo", args=[t1.pk]), {**CHICKEN, "action": "preview"}).content.decode()
    bar = verdict_bar(page)
    assert "Valid" in bar and "<b>0 fán</b>" in bar and "Total paid <b>100</b>" in bar
    broken = client.post(reverse("pit:jogo", args=[t1.pk]), {**CHICKEN, "discarder": "S", "action": "preview"})
    assert "Cannot be saved" in verdict_bar(broken.content.decode())


def test_the_live_preview_carries_the_bars_verdict_for_the_script(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    client.force_login(staff_["dealer"])
    fragment = client.post(reverse("pit:preview", args=[t1.pk]), CHICKEN, HTTP_ACCEPT_LANGUAGE="zh-hant")
    source = fragment.content.decode().split('<template class="verdict-source">')[1]
    assert "有效" in source and "付款合計 <b>100</b>" in source
