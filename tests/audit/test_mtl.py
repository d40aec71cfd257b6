"""The multiple-transaction log of a gaming day (casino rule C-2, DICJ Instruction n.º 1/2016):
every movement of each player across tables with its running total, the players by their larger
total, identification without the document's number; its page, CSV and XLSX, for inspectors and
managers only."""
import csv
import io

import pytest
from openpyxl import load_workbook

from casino.audit.mtl import multiple_transaction_log
from casino.pit.models import DocumentRead
from tests.builders.audit import DAY
from tests.builders.pit import patron

from .money import buy_in, cash_out, lei, minutes, people_and_tables, seat_patron

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]


def two_tables():
    """Mr Lei (identified) buys in 300,000 at T1 at 12:00, 150,000 at T2 at 12:30, 50,000 more at T1
    at 13:00 (his buy-ins reach the threshold, 500,000) and cashes out 20,000 at T2 at 13:10; "Ana Lei
    T1", beside him at T1 and known by her name only, buys in 80,000 at 12:45. Ms Wong is a player of
    the casino with no movement that day."""
    people, t1, t2 = people_and_tables()
    mr_lei = lei(t1.casino)
    ms_wong = patron(t1.casino, "Wong Mei Ling")
    game1 = seat_patron(t1, people["supervisor"], mr_lei, 300_000, at=minutes(0))
    game2 = seat_patron(t2, people["supervisor"], mr_lei, 150_000, at=minutes(30))
    buy_in(game1, people["supervisor"], 50_000, at=minutes(60))
    cash_out(game2, people["supervisor"], 20_000, at=minutes(70))
    buy_in(game1, people["supervisor"], 80_000, chair=1, at=minutes(45))
    return people, t1, t2, mr_lei, ms_wong


def test_c2_the_log_adds_a_players_movements_across_two_tables_in_the_order_recorded():
    people, t1, t2, mr_lei, ms_wong = two_tables()

    log = multiple_transaction_log(DAY)

    first = log.players[0]
    assert (first.name, first.identified, first.buy_ins, first.cash_outs) == ("Lei Chi Wai", True, 500_000, 20_000)
    assert [(line.table, line.kind, line.amount, line.running, line.reached, line.supervisor)
            for line in first.lines] == [
        ("T1", "buy_in", 300_000, 300_000, False, "supervisor"),
        ("T2", "buy_in", 150_000, 450_000, False, "supervisor"),
        ("T1", "buy_in", 50_000, 500_000, True, "supervisor"),
        ("T2", "cash_out", 20_000, 20_000, False, "supervisor"),
    ]
    assert first.buy_ins_reached and not first.cash_outs_reached and first.reached
    assert (first.document_type_label, first.document_country) == ("Macau resident identity card", "MO")


def test_c2_players_are_sorted_by_their_larger_total_and_one_short_of_the_threshold_is_not_reached():
    people, t1, t2, mr_lei, ms_wong = two_tables()

    log = multiple_transaction_log(DAY, t1.casino)

    assert [(player.name, player.larger) for player in log.players] == [
        ("Lei Chi Wai", 500_000), ("Ana Lei T1", 85_000), ("Ana Lei T2", 5000), ("Bruno Sá T1", 5000),
        ("Bruno Sá T2", 5000), ("Chan Tai Man T1", 5000), ("Chan Tai Man T2", 5000)]
    assert not log.players[1].reached and not log.players[1].identified
    assert [player.name for player in log.at_least(10)] == ["Lei Chi Wai", "Ana Lei T1"]  # 50,000 or more
    assert ms_wong.pk not in {player.patron_id for player in log.players}  # no movement: not in the log


def test_c2_a_day_without_movements_has_an_empty_log():
    people_and_tables()

    assert multiple_transaction_log(DAY).players == ()


def test_c2_the_csv_holds_every_movement_with_time_table_supervisor_and_running_total_but_no_document_number(client):
    people, t1, t2, mr_lei, ms_wong = two_tables()
    client.force_login(people["inspector"])

    response = client.get("/audit/mtl/export/?format=csv&day=2026-11-21")

    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert response["Content-Disposition"] == 'attachment; filename="multiple-transaction-log-2026-11-21.csv"'
    assert rows[0][:13] == ["gaming day", "player", "identified", "document type", "document country",
                            "time (Macau)", "table", "chair", "kind", "amount", "supervisor",
                            "running total of its direction", "threshold reached"]
    assert rows[1:5] == [
        ["2026-11-21", "Lei Chi Wai", "yes", "Macau resident identity card", "MO", "12:00:00", "T1", "1", "buy-in",
         "300000", "supervisor", "300000", "no", "500000", "20000"],
        ["2026-11-21", "Lei Chi Wai", "yes", "Macau resident identity card", "MO", "12:30:00", "T2", "1", "buy-in",
         "150000", "supervisor", "450000", "no", "500000", "20000"],
        ["2026-11-21", "Lei Chi Wai", "yes", "Macau resident identity card", "MO", "13:00:00", "T1", "1", "buy-in",
         "50000", "supervisor", "500000", "yes", "500000", "20000"],
        ["2026-11-21", "Lei Chi Wai", "yes", "Macau resident identity card", "MO", "13:10:00", "T2", "1", "cash-out",
         "20000", "supervisor", "20000", "no", "500000", "20000"],
    ]
    assert rows[5][1:3] == ["Ana Lei T1", "no"] and len(rows) == 1 + 4 + 2 + 5
    assert mr_lei.document_number not in response.content.decode()
    assert DocumentRead.objects.count() == 0


def test_c2_the_xlsx_holds_the_movements_and_each_players_totals_in_the_readers_language(client):
    people, t1, t2, mr_lei, ms_wong = two_tables()
    client.force_login(people["manager"])

    response = client.get("/audit/mtl/export/?format=xlsx&day=2026-11-21&casino=%d" % t1.casino.pk,
                          HTTP_ACCEPT_LANGUAGE="en")

    book = load_workbook(io.BytesIO(response.content))
    movements, players = book.worksheets
    rows = list(movements.iter_rows(values_only=True))
    assert rows[3][1] == "Lei Chi Wai" and rows[3][6:13] == ("T1", 1, "buy-in", 50000, "supervisor", 500000, "yes")
    assert list(players.iter_rows(values_only=True))[1] == (
        "Lei Chi Wai", "yes", "Macau resident identity card", "MO", 500000, 20000, "yes", 4)


def test_the_log_page_shows_each_player_his_movements_and_the_mark_where_the_threshold_is_reached(client):
    people, t1, t2, mr_lei, ms_wong = two_tables()
    client.force_login(people["inspector"])

    page = client.get("/audit/mtl/?day=2026-11-21").content.decode()

    assert page.index("Lei Chi Wai") < page.index("Ana Lei T1")
    assert "Identified: Macau resident identity card, issued by MO" in page
    assert page.count('class="buy_in reached"') == 1 and "Not identified (known by name only)" in page
    assert mr_lei.document_number not in page


@pytest.mark.parametrize("role", ["dealer", "supervisor"])
@pytest.mark.parametrize("url", ["/audit/mtl/?day=2026-11-21", "/audit/mtl/export/?format=csv&day=2026-11-21",
                                 "/audit/mtl/export/?format=xlsx&day=2026-11-21"])
def test_pit_staff_may_not_read_the_log(client, role, url):
    people, t1, t2 = people_and_tables()
    client.force_login(people[role])

    assert client.get(url).status_code == 403


@pytest.mark.parametrize("role", ["inspector", "manager"])
def test_inspectors_and_managers_read_the_log_and_the_audit_links_to_it(client, role):
    people, t1, t2 = people_and_tables()
    client.force_login(people[role])

    assert client.get("/audit/mtl/").status_code == 200
    assert "/audit/mtl/" in client.get("/audit/").content.decode()


def test_a_bad_day_or_format_is_refused_with_the_field_named(client):
    people, t1, t2 = people_and_tables()
    client.force_login(people["inspector"])

    bad_day = client.get("/audit/mtl/?day=21-11-2026")
    bad_format = client.get("/audit/mtl/export/?format=pdf&day=2026-11-21")

    assert bad_day.status_code == 400 and "Gaming day: not a date; write it as YYYY-MM-DD." in bad_day.content.decode()
    assert bad_format.status_code == 400 and "format: csv or xlsx" in bad_format.content.decode()


def test_anonymous_visitors_are_sent_to_the_login(client):
    response = client.get("/audit/mtl/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
