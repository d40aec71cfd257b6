"""The daily report reads a fixed number of queries, however many jogos the day holds."""
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.pit import demo, services
from casino.pit.models import Casino, Jogo
from casino.pit.services import close_day, reopen_day
from casino.reports.pdf import report_html
from casino.reports.selectors import daily_summary
from tests.builders.pit import table, user
from tests.builders.reports import at, draws

pytestmark = pytest.mark.django_db

SMALL, LARGE = dt.date(2026, 11, 21), dt.date(2026, 11, 22)


def queries_for(casino: Casino, day: dt.date) -> int:
    with CaptureQueriesContext(connection) as captured:
        report_html(daily_summary(casino, day), language="en")
    return len(captured)


def test_a_day_of_many_jogos_takes_as_many_queries_as_a_day_of_two():
    dealer, manager = user("dealer", "dealer"), user("manager", "manager")
    tables = [table(f"Q{n}", stake=25) for n in range(4)]
    casino = tables[0].casino
    draws(tables[0], 2, dealer, at(0))  # SMALL: 2 jogos at one table
    for index, each in enumerate(tables):  # LARGE: 4 tables, 60 jogos, flags, an amendment
        draws(each, 15, dealer, at(24 + index))
    for row in Jogo.objects.filter(gaming_day=LARGE)[:5]:
        services.flag(jogo=row, user=manager, note="look", at=at(30))
    third = Jogo.objects.get(table=tables[1], number=3)
    amendment = services.propose_amendment(jogo=third, user=dealer,
                                           record={**third.record, **demo.CHICKEN, "result": "win"},
                                          reason="South won", at=at(31))
    services.decide_amendment(amendment=amendment, user=manager, approve=True,
                              at=at(31))  # carries capital to jogos 4–15
    for day in (SMALL, LARGE):
        close_day(casino=casino, day=day, user=manager, override_reason="boxes counted later", at=at(60))
        reopen_day(casino=casino, day=day, user=manager, reason="recount", at=at(61))

    small, large = queries_for(casino, SMALL), queries_for(casino, LARGE)

    assert Jogo.objects.filter(gaming_day=LARGE).count() == 60 + 13  # an amended and 12 carried revisions
    assert daily_summary(casino, LARGE).totals.jogos == 60
    assert small == large
    # One of them: each table's ledger head at the end of the day (sign-off); one, the heads of the
    # day's boxes (their cases' are read only when there are boxes); two, the commission boxes'
    # reconciliation (the jogos' sums by table-shift, the boxes: none were counted here). Six, the
    # money's exceptions (each seat's capital after each jogo; the day's movements and its refused
    # ones; the structuring patterns; the games' seats, for a player in two chairs) and the
    # multiple-transaction log (the day's movements with their players).
    assert large <= 17
