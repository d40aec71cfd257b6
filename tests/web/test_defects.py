"""The defects of the first tour (issue 14 §5), through Django's test client and the services:
the language switch after a refused save, one chair numbering (1–4) wherever a person reads a
chair, errors beside their field in the person's words, the rule set in each edition's
language, and an XLSX export whose figures are numbers, one column per chair."""
from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from casino.pit import errors, services
from casino.reports.pdf import report_html
from casino.reports.selectors import daily_summary
from tests.builders.audit import DAY, varied_day
from tests.builders.pit import next_record, seat, staff

pytestmark = pytest.mark.django_db

BAD_TILES = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11x",
             "winning_tile": "1p", "declared_fan": "0", "action": "save"}


@pytest.fixture
def at_table(client):
    people, t1, t2 = staff()
    seat(t1, people["dealer"])
    client.force_login(people["dealer"])
    return client, t1


def in_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


# --- the language switch --------------------------------------------------------------------------

def test_after_a_refused_save_the_language_switch_lands_on_the_tables_page(at_table):
    client, t1 = at_table
    refused = client.post(reverse("pit:jogo", args=[t1.pk]), BAD_TILES)
    assert refused.status_code == 400
    table_page = reverse("pit:table", args=[t1.pk])
    assert re.search(rf'name="next" value="{re.escape(table_page)}"', refused.content.decode())

    switched = client.post(reverse("set_language"), {"language": "pt", "next": table_page})

    assert switched.status_code == 302 and switched["Location"] == table_page
    page = client.get(switched["Location"])
    assert page.status_code == 200 and "Registar o jogo" in page.content.decode()


def test_reading_the_post_only_address_of_a_jogo_shows_the_table(at_table):
    client, t1 = at_table
    response = client.get(reverse("pit:jogo", args=[t1.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("pit:table", args=[t1.pk])


def test_a_page_read_with_get_keeps_its_own_address_for_the_language_switch(at_table):
    client, t1 = at_table
    page = client.get(reverse("pit:tables") + "?x=1").content.decode()
    assert 'name="next" value="/pit/?x=1"' in page


# --- errors beside their field --------------------------------------------------------------------

def field_tag(page: str, name: str) -> str:
    found = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert found, name
    return found[0]


def test_a_refused_save_marks_and_focuses_the_field_with_the_message_beside_it(at_table):
    client, t1 = at_table
    page = in_language(client, "zh-hant").post(reverse("pit:jogo", args=[t1.pk]), BAD_TILES).content.decode()

    concealed = field_tag(page, "concealed")
    assert 'aria-invalid="true"' in concealed and "autofocus" in concealed
    assert 'aria-describedby="id_concealed_error concealed-help"' in concealed
    note = re.search(r'<span class="error field-error" id="id_concealed_error"[^>]*>([^<]*)</span>', page)
    assert note and note[1].startswith("「x」不屬於牌的記法")
    assert "hand.concealed" not in page and "RULES.md" not in page
    assert 'aria-invalid' not in field_tag(page, "winning_tile")


def test_a_meld_that_is_not_its_kind_is_marked_on_that_melds_tiles_in_peoples_words(at_table):
    client, t1 = at_table
    data = {**BAD_TILES, "concealed": "345m678p99m11p", "meld_kind_0": "chow", "meld_tiles_0": "235s"}
    page = in_language(client, "pt").post(reverse("pit:jogo", args=[t1.pk]), data).content.decode()

    tiles = field_tag(page, "meld_tiles_0")
    assert 'aria-invalid="true"' in tiles and "autofocus" in tiles
    assert "o conjunto 1 é declarado sequência" in page
    assert "hand.melds" not in page and "melds[0]" not in page


def test_an_incomplete_form_focuses_its_first_invalid_field(at_table):
    client, t1 = at_table
    page = client.post(reverse("pit:jogo", args=[t1.pk]), {**BAD_TILES, "result": "nonsense"}).content.decode()
    radios = re.findall(r'<input[^>]*name="result"[^>]*>', page)
    assert radios and all('aria-invalid="true"' in radio for radio in radios)
    assert "autofocus" in radios[0]


def test_the_pay_all_article_choices_are_cited_and_described_in_the_persons_language(at_table):
    client, t1 = at_table
    page = in_language(client, "zh-hant").get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert re.search(r'<option value="10\(a\)\(1\)">第十條\(甲\)\(1\) · [^<]+</option>', page)
    assert "(Art. 8)" not in page and "Art. 10(a)" not in page


# --- one chair numbering ---------------------------------------------------------------------------

def test_the_seating_error_numbers_chairs_as_the_form_does(at_table):
    dealer, t3 = staff_table()
    with pytest.raises(errors.Refused) as refused:
        services.start_game(table=t3, user=dealer, first_banker=0, players=[{"chair": 0, "name": "A", "capital": 100}])
    assert refused.value.problems[0].message == (
        "Art. 3: the simplified game is played by 2 to 4 players, one per chair 1–4.")
    with translation.override("pt"):
        from casino.terms.vocabulary import localise
        assert localise(refused.value.problems[0]).endswith("um por cadeira 1–4.")


def staff_table():
    """The dealer, and an empty simplified table."""
    from django.contrib.auth.models import User

    from tests.builders.pit import table
    dealer = User.objects.get(username="dealer")
    return dealer, table("T3", variant="simplified", stake=100, staff=[dealer])  # on its rotation today


def test_an_empty_first_bankers_chair_is_named_by_its_number_from_1(at_table):
    dealer, t3 = staff_table()
    with pytest.raises(errors.Refused) as refused:
        services.start_game(table=t3, user=dealer, first_banker=3, players=[
            {"chair": 0, "name": "A", "capital": 100}, {"chair": 1, "name": "B", "capital": 100}])
    assert refused.value.problems[0].message == "Art. 3: the first banker's chair 4 is empty."


def test_a_capital_that_is_not_the_ledgers_names_the_seat_and_its_chair_from_1(at_table):
    client, t1 = at_table
    game = t1.games.get()
    record = next_record(game)
    record["capital"]["N"] += 420  # North sits in chair 4 (index 3)
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=game.started_by, record=record)
    (problem,) = refused.value.problems
    assert problem.message == "Art. 9(a)(4): North (chair 4) has 4000 at stake; the record says 4420."
    with translation.override("pt"):
        from casino.terms.vocabulary import localise
        assert localise(problem) == "Art. 9.º(a)(4): Norte (cadeira 4) tem 4000 de capital em jogo; o registo diz 4420."


def test_a_cash_out_names_the_chair_from_1(at_table):
    client, t1 = at_table
    game = t1.games.get()
    with pytest.raises(errors.Refused) as refused:
        services.move_money(game=game, user=game.started_by, chair=1, kind="cash_out", amount=999999)
    assert refused.value.problems[0].message.startswith("Chair 2 has 3000 at stake")


def test_the_explained_jogo_numbers_chairs_from_1(client):
    people, t1, game, rows = varied_day()
    client.force_login(people["inspector"])
    page = client.get(f"/audit/jogos/{rows[0].pk}/").content.decode()
    # Jogo 1: the first banker is chair 1 (index 0), East round; the chairs are listed as 1–4.
    assert re.search(r"<dd>1, East round \(Art\. 3\)</dd>", page)
    chairs = re.findall(r'<th scope="row">(\w+)</th><td class="num">(\d)</td>', page)
    assert chairs == [("East", "1"), ("South", "2"), ("West", "3"), ("North", "4")]


# --- the exports -------------------------------------------------------------------------------------

def export(client, people, kind):
    client.force_login(people["inspector"])
    response = client.get(f"/audit/export/?format={kind}&day={DAY.isoformat()}")
    assert response.status_code == 200
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_the_xlsx_figures_are_numbers_with_one_column_per_chair(client):
    people, t1, game, rows = varied_day()
    book = load_workbook(io.BytesIO(export(client, people, "xlsx")))
    header, *lines = list(book["Jogos"].values)
    columns = {name: index for index, name in enumerate(header)}
    for when in ("before", "after"):
        assert [name for name in header if name.startswith(f"capital {when}")] == [
            f"capital {when}, chair {chair}" for chair in (1, 2, 3, 4)]
    first = lines[0]
    assert [first[columns[f"capital before, chair {chair}"]] for chair in (1, 2, 3, 4)] == [5000, 3000, 2000, 4000]
    assert [first[columns[f"capital after, chair {chair}"]] for chair in (1, 2, 3, 4)] == [4950, 3090, 1975, 3975]
    assert first[columns["winner's chair"]] == 2  # South, seated in the second chair, won jogo 1
    assert first[columns["tier X (of X/2X)"]] == 25
    text_columns = {"table", "variant", "kind", "result", "ledger hash", "rule set"}
    for line in lines:
        for name, value in zip(header, line):
            if name == "gaming day":
                assert isinstance(value, dt.datetime) and value.date() == DAY
            elif name not in text_columns:
                assert value is None or isinstance(value, int), (name, value)
    draw = lines[1]
    assert draw[columns["winner's chair"]] is None and draw[columns["fán"]] is None
    commission = list(book["Commission"].values)
    assert all(isinstance(value, int) for value in commission[1][2:-2])
    assert commission[1][-2:] == ("portaria-135-91-M", 1)  # the rule set that scored the line's jogos


def test_the_csv_numbers_the_winners_chair_from_1_and_has_a_column_per_chair(client):
    people, t1, game, rows = varied_day()
    lines = list(csv.DictReader(io.StringIO(export(client, people, "csv").decode())))
    assert lines[0]["winner's chair"] == "2" and lines[1]["winner's chair"] == ""
    assert [lines[0][f"capital before, chair {chair}"] for chair in (1, 2, 3, 4)] == ["5000", "3000", "2000", "4000"]
    assert lines[0]["gaming day"] == DAY.isoformat()


# --- the daily report's rule set -------------------------------------------------------------------------

@pytest.mark.parametrize("language, title, version", [
    ("en", "Portaria No. 135/91/M (Official Rules of the Game of Mah-Jong)", "version 1"),
    ("pt", "Portaria n.º 135/91/M (Regulamento Oficial do Jogo de Mah-Jong)", "versão 1"),
    ("zh-hant", "第135/91/M號訓令（麻雀法定博彩規則）", "第 1 版"),
])
def test_the_daily_reports_rule_set_is_named_in_the_editions_language(language, title, version):
    people, t1, game, rows = varied_day()
    html = report_html(daily_summary(t1.casino, DAY), language=language)
    assert f"<dd>{title} [<code>portaria-135-91-M</code>{', ' if language != 'zh-hant' else ' '}{version}]</dd>" in html
