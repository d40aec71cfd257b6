"""The daily report and the money at the table (issue 25): it counts the new kinds of exception,
each with its control, and its appendix holds the day's multiple-transaction log (casino rule C-2,
DICJ Instruction n.º 1/2016): the players whose buy-ins or cash-outs reached 10% of the threshold,
or every player on a day of 20 players or fewer. The stored report, printed as the day closes,
holds it too."""
import datetime as dt
import re

import pytest

from casino.pit import services
from casino.reports.models import StoredReport
from casino.reports.pdf import daily_report_pdf, report_html
from casino.reports.selectors import MTL_EVERY_PLAYER, daily_summary
from tests.audit.money import buy_in, lei, minutes, people_and_tables, seat_patron
from tests.builders.audit import DAY
from tests.builders.pit import record_next, seat
from tests.builders.reports import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]


def money_day():
    """Mr Lei (identified) buys in 250,000 at T1 and 200,000 at T2, then 50,000 more at T1: his
    buy-ins reach the threshold (500,000) by three movements each below it (structuring). At T1,
    after he leaves, a game whose West ends its first jogo at 595, below the minimum of 600, in a
    win saved with no declared grade."""
    people, t1, t2 = people_and_tables()
    player = lei(t1.casino)
    game1 = seat_patron(t1, people["supervisor"], player, 250_000, at=minutes(0))
    game2 = seat_patron(t2, people["supervisor"], player, 200_000, at=minutes(30))
    buy_in(game1, people["supervisor"], 50_000, at=minutes(60))
    for game in (game1, game2):
        services.end_game(game=game, user=people["supervisor"], at=minutes(70))
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 620, 4000], at=minutes(80))
    record_next(game, people["dealer"], at=minutes(90), declared_fan=None)
    services.end_game(game=game, user=people["supervisor"], at=minutes(95))
    return people, t1, t2


def counted(summary) -> dict[str, int]:
    return {line.kind: line.count for line in summary.exceptions.counted}


def test_the_report_counts_the_money_exceptions_of_the_day_each_with_its_control():
    people, t1, t2 = money_day()

    summary = daily_summary(t1.casino, DAY)
    html = report_html(summary, language="en")

    assert counted(summary) == {"grade_not_declared": 1, "capital_below_minimum": 1, "capital_below_zero": 0,
                                "duplicate_player": 0, "large_transaction": 1, "structuring": 1}
    row = re.search(r'<tr class="kind-large_transaction"><td>(.*?)</td><td class="n">(\d+)</td>', html)
    assert row.groups() == ("Large transaction — casino rule C-2 (large transactions, DICJ Instruction n.º 1/2016)",
                            "1")
    assert '<tr class="kind-capital_below_minimum"><td>Capital below the minimum — casino rule C-1 (minimum ' \
           'capital)</td><td class="n">1</td>' in html


def test_the_appendix_lists_the_jogo_below_the_minimum_and_the_win_with_no_declared_grade():
    people, t1, t2 = money_day()

    html = report_html(daily_summary(t1.casino, DAY), language="en")

    assert "T1 · 1 — Win with no declared grade: South · Player 1 won; the jogo was saved with no declared " \
           "grade (the engine computed 0 fán)" in html
    assert "T1 · 1 — Capital below the minimum: chair 3, Player 2: a capital of 595 after the jogo, below the " \
           "table&#x27;s minimum of 600 (casino rule C-1); 5 missing" in html


def test_the_appendix_holds_the_days_multiple_transaction_log_with_running_totals_across_tables():
    people, t1, t2 = money_day()

    text = pdf_text(daily_report_pdf(t1.casino, DAY, language="en"))

    log = text[text.index("Appendix: multiple-transaction log"):]
    assert "Lei Chi Wai — identified: Macau resident identity card, issued by MO" in log
    assert re.search(r"12:00:00 T1 1 buy-in 250000 supervisor 250000 "
                     r"12:30:00 T2 1 buy-in 200000 supervisor 450000 "
                     r"13:00:00 T1 1 buy-in 50000 supervisor 500000 \* "
                     r"Buy-ins of the day — threshold reached 500000", log)
    assert "Player 2 — not identified (known by name only)" in log  # 11 players: every one is listed


def test_a_busy_day_lists_only_the_players_who_reached_a_tenth_of_the_threshold(settings):
    people, t1, t2 = money_day()
    for index in range(MTL_EVERY_PLAYER):  # more players than the appendix lists in full, each with 5,000
        game = seat(t2 if index % 2 else t1, people["supervisor"], at=minutes(100 + index))
        services.end_game(game=game, user=people["supervisor"], at=minutes(100 + index))

    summary = daily_summary(t1.casino, DAY)
    html = report_html(summary, language="en")

    assert [player.name for player in summary.mtl_listed] == ["Lei Chi Wai"]
    assert summary.mtl_not_listed == len(summary.mtl.players) - 1 > MTL_EVERY_PLAYER
    assert f"… and {summary.mtl_not_listed} more players below 10% of the threshold, not listed here" in html


def test_the_report_stored_as_the_day_closes_holds_the_multiple_transaction_log():
    people, t1, t2 = money_day()

    services.close_day(casino=t1.casino, day=DAY, user=people["manager"], override_reason="counted tomorrow",
                       at=minutes(0) + dt.timedelta(days=1))

    stored = StoredReport.objects.get(language="en")
    text = pdf_text(bytes(stored.pdf))
    assert "Appendix: multiple-transaction log" in text and "Lei Chi Wai" in text


def test_the_managers_page_links_to_the_days_multiple_transaction_log(client):
    people, t1, t2 = people_and_tables()
    client.force_login(people["manager"])

    page = client.get(f"/reports/?casino={t1.casino.pk}&day=2026-11-21").content.decode()

    assert f'href="/audit/mtl/?day=2026-11-21&amp;casino={t1.casino.pk}"' in page
