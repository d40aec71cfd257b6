"""The register of readings: every point where the regulation leaves a question open
or where its two texts differ, the reading each rule set adopts, and how many jogos of a period
each point decided; and "a jogo explained" beside the recorded outcome shows the outcome under
the other reading.

The day of tests/builders/audit.py decides two points: I-1 (does a drawn or void jogo move the bank?)
decides the draw and the false win, and I-6 (the share at the tier X/2X) decides the false win
and the pay-all."""
from __future__ import annotations

import pytest
from django.utils.html import escape

from casino.audit.ledger import Days
from casino.audit.readings import LISTED, register
from casino.audit.selectors import explain
from regulation.readings import READINGS
from regulation.rules import RULE_SETS
from tests.builders.audit import DAY, NEXT_DAY

pytestmark = pytest.mark.django_db

PAGE = "/audit/readings/"


def as_person(client, person):
    client.force_login(person)
    return client


def decided(points) -> dict[str, list[int]]:
    return {point.reading.code: [link.number for link in point.jogos] for point in points if point.decided}


# --- The selectors -------------------------------------------------------------------------------


def test_the_register_lists_every_reading_and_the_alternative_each_rule_set_adopts():
    points = register(None)

    assert [point.reading.code for point in points] == [reading.code for reading in READINGS]
    kan_kan = next(point for point in points if point.reading.code == "I-4")
    assert [(rules.label, alternative.name) for rules, alternative in kan_kan.adopted] == [
        ("portaria-135-91-M v1", "portuguese"), ("portaria-135-91-M-zh v1", "chinese")]
    assert all(len(point.adopted) == len(RULE_SETS) for point in points)
    assert all(point.decided == 0 and point.jogos == [] for point in points)


def test_the_register_counts_the_jogos_each_point_decided_in_the_period(day):
    people, t1, game, rows = day

    points = register(Days(DAY, DAY))

    assert decided(points) == {"I-1": [2, 3], "I-6": [3, 4]}
    i_1 = next(point for point in points if point.reading.code == "I-1")
    assert [link.jogo_id for link in i_1.jogos] == [rows[1].pk, rows[2].pk]
    assert decided(register(Days(NEXT_DAY, NEXT_DAY))) == {}


def test_the_register_lists_at_most_so_many_links_and_counts_the_rest(day, monkeypatch):
    monkeypatch.setattr("casino.audit.readings.LISTED", 1)

    i_1 = next(point for point in register(Days(DAY, DAY)) if point.reading.code == "I-1")

    assert (i_1.decided, len(i_1.jogos), i_1.not_listed) == (2, 1, 1)
    assert LISTED == 50


def test_a_jogo_explained_names_the_readings_that_decided_it_with_the_other_outcome(day):
    people, t1, game, (chicken, draw, false_win, pay_all, misdeclared) = day

    assert explain(chicken).decided == []
    (bank,) = explain(draw).decided
    assert (bank.reading.code, bank.adopted.name, bank.other.name) == ("I-1", "bank_stays", "bank_passes")
    assert (bank.recorded.banker_moves, bank.otherwise.banker_moves) == (False, True)
    (share,) = explain(pay_all).decided
    assert (share.reading.code, share.recorded.grade, share.otherwise.grade) == ("I-6", 2, 2)
    assert share.recorded.commission == share.otherwise.commission == pay_all.commission
    recorded_total = sum(amount for _, _, amount in share.recorded.payments)
    assert recorded_total == sum(pay_all.outcome["net"][seat] for seat in pay_all.outcome["net"]
                                 if pay_all.outcome["net"][seat] > 0) + pay_all.commission
    assert share.recorded.payments != share.otherwise.payments


# --- The pages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["inspector", "manager"])
@pytest.mark.parametrize("query", ["", "?from=2026-11-21&to=2026-11-21", "?day=2026-11-21"])
def test_inspectors_and_managers_read_the_register(client, day, role, query):
    people, t1, game, rows = day
    assert as_person(client, people[role]).get(PAGE + query).status_code == 200


@pytest.mark.parametrize("role", ["dealer", "supervisor", "other_dealer"])
def test_pit_staff_are_refused_the_register(client, day, role):
    people, t1, game, rows = day
    assert as_person(client, people[role]).get(PAGE).status_code == 403


def test_anonymous_visitors_are_sent_to_the_login_from_the_register(client, day):
    response = client.get(PAGE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_register_page_shows_the_words_the_readings_and_links_to_the_jogos_decided(client, day):
    people, t1, game, rows = day

    page = as_person(client, people["inspector"]).get(PAGE + "?from=2026-11-21&to=2026-11-21").content.decode()

    i_4 = next(reading for reading in READINGS if reading.code == "I-4")
    assert 'id="I-4"' in page and i_4.question in page
    assert f'lang="pt" class="words-pt">«{i_4.pt}»' in page
    assert f'lang="zh-Hant" class="words-zh">「{i_4.zh}」' in page
    assert "2 jogos decided by this point." in page
    assert f'href="/audit/jogos/{rows[3].pk}/"' in page
    assert page.count("0 jogos decided by this point.") == len(READINGS) - 2


def test_the_register_without_a_period_counts_nothing(client, day):
    people, t1, game, rows = day
    page = as_person(client, people["inspector"]).get(PAGE).content.decode()
    assert "decided by this point" not in page and 'id="I-1"' in page


@pytest.mark.parametrize("query,field", [("?from=2026-13-01", "from"), ("?from=2026-11-22&to=2026-11-21", "to")])
def test_a_bad_period_is_refused_naming_the_field(client, day, query, field):
    people, t1, game, rows = day
    response = as_person(client, people["manager"]).get(PAGE + query)
    assert response.status_code == 400
    assert f"{field}: " in response.content.decode()


def test_the_register_refuses_more_jogos_than_a_page_re_checks_at_once(client, day, settings):
    people, t1, game, rows = day
    settings.AUDIT_PAGE_MAX_JOGOS = len(rows) - 1

    response = as_person(client, people["inspector"]).get(PAGE + "?from=2026-11-20&to=2026-11-21")

    assert response.status_code == 400
    assert f"these gaming days hold {len(rows)} jogos" in response.content.decode()


def test_the_jogo_page_shows_the_outcome_under_the_other_reading_beside_the_recorded_one(client, day):
    people, t1, game, (chicken, draw, false_win, pay_all, misdeclared) = day
    inspector = as_person(client, people["inspector"])

    page = inspector.get(f"/audit/jogos/{pay_all.pk}/").content.decode()
    assert 'id="decided-I-6"' in page and '<a href="/audit/readings/#I-6">I-6</a>' in page
    assert "As recorded" in page and "Under the other reading" in page
    # Each alternative by its description, its code only in an attribute for machines.
    assert 'data-alternative="doubling"' in page and 'data-alternative="tier_bounds"' in page
    assert "X is the share of a chicken hand and every fán doubles it" in page and "<code>doubling</code>" not in page

    page = inspector.get(f"/audit/jogos/{chicken.pk}/").content.decode()
    assert "No reading decided this jogo" in page
    assert "Scored under the rule set <code>portaria-135-91-M</code>, version 1" in page


@pytest.mark.parametrize("language,words", [("pt", "Registo das interpretações"), ("zh-hant", "解釋登記冊")])
def test_the_register_speaks_portuguese_and_chinese(client, day, language, words):
    people, t1, game, rows = day
    client.cookies["django_language"] = language
    assert words in as_person(client, people["inspector"]).get(PAGE).content.decode()


@pytest.mark.parametrize("language,question,adopted", [
    ("en", "Are honours that score only together, as small four winds, worth fán",
     "Yes: honours that together make small four winds"),
    ("pt", "Para o «wân iat sêk» (mistura dum grupo), valem «fán» os trunfos ou ventos",
     "Sim: trunfos ou ventos que juntos fazem pedras ventos («siu sei hei»)"),
    ("zh-hant", "字牌各擱單獨無番、合組成小四喜等方有番者", "是：字牌合組成小四喜或小三元即為有番"),
])
def test_i18_the_register_shows_its_question_and_alternatives_in_each_language(client, day, language, question,
                                                                               adopted):
    people, t1, game, rows = day
    client.cookies["django_language"] = language
    page = as_person(client, people["inspector"]).get(PAGE).content.decode()

    section = page.split('id="I-18"', 1)[1].split("</section>", 1)[0]
    assert escape(question) in section and escape(adopted) in section
    assert 'class="words-pt">«pedras trunfos ou pedras ventos sem valerem «fán»' in section
    assert "無番之門風牌" in section and "小四喜，三擱及一對門風牌" in section
