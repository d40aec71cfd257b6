"""The floor's screens through Django's test client: buy-in and cash-out with each chair's
capital before and after, opening and closing a table, the end-of-game summary, the table's
history and day summary, and the refused attempts; each against every role, with figures
worked by hand.

The game of every test (tests/builders/pit.py): a conventional 25/50 table, Player 0–3 in chairs 1–4
with 5000, 3000, 2000, 4000; chair 1 (Player 0) is the first banker. A chicken hand (0 fán) is
one share of X = 25 from each other player, double to or from the banker (Art. 7), and the
commission at 25/50 is 10 per won jogo, from the winner (Art. 8).
"""
from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.pit import days, errors, selectors, services
from casino.pit.models import Flag, Jogo, Movement, Refusal
from tests.builders.pit import DRAW, NOON, next_record, seat, table

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)


def played(people):
    """The game of the summary, worked by hand:

    12:10 jogo 1: South (chair 2) wins a chicken hand on West's discard; East (chair 1, banker)
          pays 50, West and North 25 each; South receives 100 − 10 commission = +90.
          Capital 4950, 3090, 1975, 3975. The bank passes to chair 2 (Art. 3).
    12:20 jogo 2: a draw (流局); nobody pays, the bank stays.
    12:30 chair 3 buys in 500 (2475); chair 4 cashes out 1000 (2975).
    12:40 jogo 3: South, now chair 3, wins a chicken hand on West's (chair 4) discard; East
          (chair 2, banker) pays 50, chair 4 and chair 1 pay 25 each; chair 3 nets +90.
          Capital 4925, 3040, 2565, 2950.
    13:40 the supervisor ends the game: 1 h 30 after it was seated at 12:10.
    """
    staff_, t1, _ = people
    dealer, supervisor = staff_["dealer"], staff_["supervisor"]
    game = seat(t1, dealer, at=NOON + 10 * MINUTE)
    services.record_jogo(table=t1, user=dealer, record=next_record(game), at=NOON + 10 * MINUTE)
    services.record_jogo(table=t1, user=dealer, record=next_record(game, **DRAW), at=NOON + 20 * MINUTE)
    services.move_money(game=game, user=supervisor, chair=2, kind=Movement.BUY_IN, amount=500, at=NOON + 30 * MINUTE)
    services.move_money(game=game, user=supervisor, chair=3, kind=Movement.CASH_OUT, amount=1000, at=NOON + 30 * MINUTE)
    services.record_jogo(table=t1, user=dealer, record=next_record(game), at=NOON + 40 * MINUTE)
    return game


def as_(client, person):
    client.force_login(person)
    return client


# --- Buy-in and cash-out -------------------------------------------------------------------------

def test_a_supervisor_records_a_buy_in_and_sees_each_chairs_capital_before_and_after(client, people):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    as_(client, staff_["supervisor"])
    page = client.get(reverse("pit:money", args=[t1.pk])).content.decode()
    assert "Chair 3 · West · Player 2" in page  # chairs 1–4, the seat wind and the player

    response = client.post(reverse("pit:money", args=[t1.pk]), {"chair": "2", "kind": "buy_in", "amount": "500"})
    assert response.status_code == 302
    movement = Movement.objects.get(game=game, kind=Movement.BUY_IN, amount=500)
    assert movement.recorded_by == staff_["supervisor"] and movement.chair == 2
    assert selectors.standing(game).capital == [5000, 3000, 2500, 4000]

    page = client.get(response["Location"]).content.decode()
    assert "Buy-in of 500 recorded for chair 3" in page
    receipt = page.split('class="grid around"')[1].split("</table>")[0]
    # Chair 3 moved from 2000 to 2500; the others stand as they were.
    assert '<td class="num before">2000</td><td class="num after">2500</td>' in receipt
    assert '<td class="num before">5000</td><td class="num after">5000</td>' in receipt


def test_capital_around_a_cash_out_after_jogos_follows_the_ledger(people):
    game = played(people)
    cash_out = Movement.objects.get(game=game, kind=Movement.CASH_OUT)
    # After jogo 2 (4950, 3090, 1975, 3975) and chair 3's buy-in of 500 before it.
    assert selectors.capital_around(cash_out) == ([4950, 3090, 2475, 3975], [4950, 3090, 2475, 2975])


def test_a_cash_out_larger_than_the_capital_is_refused_naming_the_chair_1_to_4_and_the_article(client, people):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    as_(client, staff_["supervisor"])
    response = client.post(reverse("pit:money", args=[t1.pk]), {"chair": "2", "kind": "cash_out", "amount": "2001"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Chair 3 has 2000 at stake; a cash-out of 2001 is more than that." in page
    assert 'name="amount"' in page and 'aria-invalid="true"' in page
    assert Movement.objects.filter(game=game).count() == 4  # the opening buy-ins only


def test_an_amount_that_is_not_a_whole_positive_number_is_refused_by_the_form(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    as_(client, staff_["supervisor"])
    for amount in ("0", "12.5", ""):
        response = client.post(reverse("pit:money", args=[t1.pk]), {"chair": "1", "kind": "buy_in", "amount": amount})
        assert response.status_code == 400
    assert Movement.objects.count() == 4


def test_money_moves_only_at_a_game_in_progress(client, people):
    staff_, t1, _ = people
    as_(client, staff_["supervisor"])
    response = client.get(reverse("pit:money", args=[t1.pk]), follow=True)
    assert "Table T1 has no game in progress." in response.content.decode()


@pytest.mark.parametrize("who, status", [("supervisor", 200), ("supervisor2", 200), ("dealer", 403),
                                         ("other_dealer", 403), ("inspector", 403), ("manager", 403)])
def test_only_the_tables_supervisors_record_buy_ins_and_cash_outs(client, people, who, status):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    as_(client, staff_[who])
    assert client.get(reverse("pit:money", args=[t1.pk])).status_code == status
    response = client.post(reverse("pit:money", args=[t1.pk]), {"chair": "0", "kind": "buy_in", "amount": "100"})
    assert response.status_code == (302 if status == 200 else 403)
    assert Movement.objects.count() == (5 if status == 200 else 4)


def test_a_supervisor_of_another_table_cannot_move_money_here(client, people):
    staff_, t1, t2 = people
    seat(t2, staff_["other_dealer"])
    as_(client, staff_["supervisor"])
    assert client.post(reverse("pit:money", args=[t2.pk]),
                       {"chair": "0", "kind": "buy_in", "amount": "100"}).status_code == 403


def test_an_anonymous_visitor_is_sent_to_log_in_from_every_floor_page(client, people):
    _, t1, _ = people
    for url in (reverse("pit:money", args=[t1.pk]), reverse("pit:history", args=[t1.pk]),
                reverse("pit:day_summary", args=[t1.pk]), reverse("pit:refusals")):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# --- Opening and closing a table -----------------------------------------------------------------

def test_a_supervisor_closes_and_opens_his_table(client, people):
    staff_, t1, _ = people
    as_(client, staff_["supervisor"])
    response = client.post(reverse("pit:close_table", args=[t1.pk]), {"confirmed": "yes"}, follow=True)
    t1.refresh_from_db()
    assert not t1.is_open and "Table T1 is closed." in response.content.decode()
    assert "Open the table" in response.content.decode()
    client.post(reverse("pit:open_table", args=[t1.pk]))
    t1.refresh_from_db()
    assert t1.is_open


def test_a_table_with_a_game_in_progress_is_not_closed(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    as_(client, staff_["supervisor"])
    response = client.post(reverse("pit:close_table", args=[t1.pk]), follow=True)
    t1.refresh_from_db()
    assert t1.is_open
    assert "Table T1 has a game in progress; end it before closing the table." in response.content.decode()


@pytest.mark.parametrize("who", ["dealer", "other_dealer", "inspector", "manager"])
def test_only_supervisors_open_and_close_tables(client, people, who):
    staff_, t1, _ = people
    as_(client, staff_[who])
    assert client.post(reverse("pit:close_table", args=[t1.pk])).status_code == 403
    t1.refresh_from_db()
    assert t1.is_open
    if who in ("inspector", "manager"):  # they see the table's state, without the button
        page = client.get(reverse("pit:table", args=[t1.pk])).content.decode()
        assert "Close the table" not in page


# --- The end of a game ---------------------------------------------------------------------------

def test_ending_a_game_leads_to_its_summary_worked_by_hand(client, people):
    staff_, t1, _ = people
    game = played(people)
    services.end_game(game=game, user=staff_["supervisor"], at=NOON + 100 * MINUTE)
    summary = selectors.game_summary(game)
    assert [(p.chair, p.start, p.bought_in, p.cashed_out, p.net, p.end, p.won) for p in summary.players] == [
        (0, 5000, 0, 0, -75, 4925, 0),
        (1, 3000, 0, 0, +40, 3040, 1),
        (2, 2000, 500, 0, +65, 2565, 1),
        (3, 4000, 0, 1000, -50, 2950, 0),
    ]
    assert (summary.jogos, summary.wins, summary.draws, summary.commission) == (3, 2, 1, 20)
    assert [p.seat for p in summary.players] == ["E", "S", "W", "N"]  # chair 1 was the first banker
    assert summary.duration == dt.timedelta(minutes=90) and summary.hours_minutes == "1:30"
    # Money is conserved: the players' net results and the commission sum to zero.
    assert sum(p.net for p in summary.players) + summary.commission == 0
    # What the ledger says each chair has now is the summary's capital at end.
    assert selectors.standing(game).capital == [p.end for p in summary.players]


def test_the_end_game_button_ends_the_game_and_shows_the_printable_summary(client, people):
    staff_, t1, _ = people
    game = played(people)
    as_(client, staff_["dealer"])
    response = client.post(reverse("pit:end", args=[t1.pk]))
    assert response["Location"] == reverse("pit:game_summary", args=[game.pk])
    page = client.get(response["Location"]).content.decode()
    assert "End of game · table T1" in page
    assert '<td class="num net">+65</td><td class="num end">2565</td>' in page
    assert '<dd class="commission">20</dd>' in page and "<td>Carla</td>" not in page
    assert "<td>P***** 2</td><td>West</td>" in page  # chair 3 sat as West, in people's words (masked: a dealer)
    assert 'class="no-print actions"' in page and "<button type=\"button\" data-print>" in page


def test_a_summary_amended_jogos_count_once_at_their_current_revision(people):
    staff_, t1, _ = people
    game = played(people)
    third = Jogo.objects.get(table=t1, number=3)
    amendment = services.propose_amendment(jogo=third, user=staff_["supervisor"],
                                           record={**third.record, "discarder": "N"},
                                          reason="the discard was North's")
    services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True)
    summary = selectors.game_summary(game)
    assert (summary.jogos, summary.commission) == (3, 20)
    assert [p.end for p in summary.players] == [4925, 3040, 2565, 2950]


@pytest.mark.parametrize("who, status", [("dealer", 200), ("supervisor", 200), ("inspector", 200),
                                         ("manager", 200), ("other_dealer", 403)])
def test_who_reads_a_game_summary(client, people, who, status):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    as_(client, staff_[who])
    assert client.get(reverse("pit:game_summary", args=[game.pk])).status_code == status


def test_the_game_summary_reads_three_queries_whatever_the_number_of_jogos(people, django_assert_num_queries):
    game = played(people)
    with django_assert_num_queries(3):
        selectors.game_summary(game)
    staff_, t1, _ = people
    for minute in range(50, 56):
        services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game, **DRAW),
                             at=NOON + minute * MINUTE)
    with django_assert_num_queries(3):
        selectors.game_summary(game)


# --- The table's history -------------------------------------------------------------------------

def test_the_history_of_the_day_shows_each_jogo_with_winner_payments_commission_flags_and_revision(client, people):
    staff_, t1, _ = people
    played(people)
    Flag.objects.create(table=t1, number=1, note="check the discard", raised_by=staff_["inspector"],
                        raised_at=NOON + 50 * MINUTE)
    third = Jogo.objects.get(table=t1, number=3)
    amendment = services.propose_amendment(jogo=third, user=staff_["supervisor"],
                                           record={**third.record, "discarder": "N"},
                                          reason="the discard was North's")
    services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True, at=NOON + 60 * MINUTE)

    rows = selectors.table_history(t1, day=dt.date(2026, 11, 21))
    assert [(row.jogo.number, row.jogo.revision) for row in rows] == [(1, 0), (2, 0), (3, 1)]
    # Each jogo at the time it was first recorded, though jogo 3 was amended later.
    assert [row.time for row in rows] == [NOON + 10 * MINUTE, NOON + 20 * MINUTE, NOON + 40 * MINUTE]
    first = rows[0]
    assert first.winner == "South · Player 1"
    assert [(p.payer, p.payee, p.amount) for p in first.payments] == [
        ("West · Player 2", "South · Player 1", 25), ("North · Player 3", "South · Player 1", 25),
        ("East · Player 0", "South · Player 1", 50)]
    assert [flag.note for flag in first.flags] == ["check the discard"]

    as_(client, staff_["supervisor"])
    page = client.get(reverse("pit:history", args=[t1.pk]), {"day": "2026-11-21"}).content.decode()
    assert "South · Player 1" in page and "East · Player 0 → South · Player 1 50" in page
    as_(client, staff_["dealer"])  # a dealer reads the players' names masked (casino/pit/privacy.py)
    page = client.get(reverse("pit:history", args=[t1.pk]), {"day": "2026-11-21"}).content.decode()
    assert "South · P***** 1" in page and "East · P***** 0 → South · P***** 1 50" in page
    assert "Player 1" not in page
    assert "check the discard (inspector)" in page
    assert '<td class="revision">1 · amended</td>' in page
    assert page.count('<tr data-number="') == 3


def test_finding_a_jogo_by_its_number_shows_every_revision(client, people):
    staff_, t1, _ = people
    played(people)
    third = Jogo.objects.get(table=t1, number=3)
    amendment = services.propose_amendment(jogo=third, user=staff_["supervisor"],
                                           record={**third.record, "discarder": "N"},
                                          reason="the discard was North's")
    amendment = services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True)
    as_(client, staff_["inspector"])
    page = client.get(reverse("pit:history", args=[t1.pk]), {"number": "3"}).content.decode()
    assert "Jogo 3: every revision" in page
    assert page.count('<tr data-number="3"') == 2 and '<tr data-number="1"' not in page
    assert [row.time for row in selectors.table_history(t1, number=3)] == [NOON + 40 * MINUTE, amendment.decided_at]
    page = client.get(reverse("pit:history", args=[t1.pk]), {"number": "99"}).content.decode()
    assert "Table T1 has no jogo 99." in page


def test_a_history_asked_with_a_date_that_is_no_date_says_so(client, people):
    staff_, t1, _ = people
    as_(client, staff_["dealer"])
    response = client.get(reverse("pit:history", args=[t1.pk]), {"day": "21/13/2026"})
    assert response.status_code == 400 and "not a date; write it as YYYY-MM-DD." in response.content.decode()


@pytest.mark.parametrize("who, status", [("dealer", 200), ("supervisor", 200), ("inspector", 200),
                                         ("manager", 200), ("other_dealer", 403)])
def test_who_reads_a_tables_history_and_day_summary(client, people, who, status):
    staff_, t1, _ = people
    as_(client, staff_[who])
    assert client.get(reverse("pit:history", args=[t1.pk])).status_code == status
    assert client.get(reverse("pit:day_summary", args=[t1.pk])).status_code == status


def test_the_history_reads_three_queries_whatever_the_number_of_jogos(people, django_assert_num_queries):
    staff_, t1, _ = people
    game = played(people)
    with django_assert_num_queries(3):
        selectors.table_history(t1, day=dt.date(2026, 11, 21))
    for minute in range(50, 56):
        services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=NOON + minute * MINUTE)
    with django_assert_num_queries(3):
        assert len(selectors.table_history(t1, day=dt.date(2026, 11, 21))) == 9


# --- The day summary -----------------------------------------------------------------------------

def test_the_day_summary_of_a_table_worked_by_hand(client, people):
    staff_, t1, _ = people
    played(people)
    figures = selectors.table_day(t1, dt.date(2026, 11, 21))
    assert (figures.jogos, figures.wins, figures.draws, figures.commission) == (3, 2, 1, 20)
    assert [(p.chair, p.jogos, p.won, p.net) for p in figures.players] == [
        (0, 3, 0, -75), (1, 3, 1, +40), (2, 3, 1, +65), (3, 3, 0, -50)]
    as_(client, staff_["dealer"])
    page = client.get(reverse("pit:day_summary", args=[t1.pk]), {"day": "2026-11-21"}).content.decode()
    assert '<dd class="commission">20</dd>' in page and '<td class="num net">+65</td>' in page
    assert "<button type=\"button\" data-print>" in page  # static/casino.js prints


def test_a_time_range_of_the_day_counts_the_jogos_first_recorded_in_it(people):
    staff_, t1, _ = people
    played(people)
    # 12:30–13:00: only jogo 3 (12:40): chair 3 nets +90, chair 2 pays 50 as banker.
    figures = selectors.table_day(t1, dt.date(2026, 11, 21), start=dt.time(12, 30), end=dt.time(13, 0))
    assert (figures.jogos, figures.commission) == (1, 10)
    assert [(p.chair, p.net) for p in figures.players] == [(0, -25), (1, -50), (2, +90), (3, -25)]


def test_a_range_past_midnight_stays_in_the_gaming_day_that_started_at_six(people):
    staff_, t1, _ = people
    game = played(people)
    services.end_game(game=game, user=staff_["dealer"], at=NOON + 100 * MINUTE)
    night = NOON + dt.timedelta(hours=14, minutes=30)  # 02:30 on 22 November, gaming day 21 November
    late = seat(t1, staff_["dealer"], at=night)
    services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(late), at=night + 10 * MINUTE)
    figures = selectors.table_day(t1, dt.date(2026, 11, 21), start=dt.time(23, 0), end=dt.time(6, 0))
    assert (figures.jogos, figures.commission) == (1, 10)
    assert [p.game for p in figures.players] == [late] * 4
    assert selectors.table_day(t1, dt.date(2026, 11, 21)).jogos == 4
    assert selectors.table_day(t1, dt.date(2026, 11, 22)).jogos == 0


def test_a_jogo_amended_later_counts_at_the_time_it_was_first_recorded(people):
    staff_, t1, _ = people
    played(people)
    third = Jogo.objects.get(table=t1, number=3)
    amendment = services.propose_amendment(jogo=third, user=staff_["supervisor"],
                                           record={**third.record, "discarder": "N"},
                                          reason="the discard was North's", at=NOON + 5 * 60 * MINUTE)
    services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True, at=NOON + 5 * 60 * MINUTE)
    figures = selectors.table_day(t1, dt.date(2026, 11, 21), start=dt.time(12, 30), end=dt.time(13, 0))
    assert (figures.jogos, figures.commission) == (1, 10)


def test_the_day_summary_reads_two_queries_whatever_the_number_of_jogos(people, django_assert_num_queries):
    staff_, t1, _ = people
    game = played(people)
    with django_assert_num_queries(2):
        selectors.table_day(t1, dt.date(2026, 11, 21))
    for minute in range(50, 56):
        services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=NOON + minute * MINUTE)
    with django_assert_num_queries(2):
        assert selectors.table_day(t1, dt.date(2026, 11, 21)).jogos == 9


# --- Refused attempts ----------------------------------------------------------------------------

def refused_at(at_table, by, at):
    game = selectors.open_game(at_table) or seat(at_table, by, at=at)
    bad = next_record(game, hand={"concealed": "345m678p234s99m12p", "winning_tile": "1p"})
    with pytest.raises(errors.Refused):
        services.record_jogo(table=at_table, user=by, record=bad, at=at)


def test_the_refusals_list_shows_every_refused_attempt_with_its_errors_in_the_readers_language(client, people):
    staff_, t1, _ = people
    refused_at(t1, staff_["dealer"], NOON)
    refusal = Refusal.objects.get()
    assert refusal.errors[0]["template"] and refusal.errors[0]["article"] == "4(a)"
    as_(client, staff_["supervisor"])
    page = client.get(reverse("pit:refusals"), {"day": "2026-11-21"}).content.decode()
    # The stored English message, its count said in the singular or plural (ngettext).
    assert refusal.errors[0]["message"] == ("Art. 4(a): 34599m112678p234s with 0 meld(s) does not form 4 sets "
                                            "and a pair.")
    assert "Art. 4(a): 34599m112678p234s with 0 melds does not form 4 sets and a pair." in page
    assert "dealer" in page and "Won · South" in page
    page = client.get(reverse("pit:refusals"), {"day": "2026-11-21"}, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert refusal.errors[0]["message"] not in page and "Art. 4.º(a)" in page


def test_a_supervisor_sees_the_refusals_of_his_tables_only_and_of_the_day_asked(client, people):
    staff_, t1, t2 = people
    refused_at(t1, staff_["dealer"], NOON)
    refused_at(t2, staff_["other_dealer"], NOON)
    refused_at(t1, staff_["dealer"], NOON + dt.timedelta(days=1))
    as_(client, staff_["supervisor"])
    page = client.get(reverse("pit:refusals"), {"day": "2026-11-21"}).content.decode()
    assert page.count('<ul class="problems">') == 1 and "other_dealer" not in page
    response = client.get(reverse("pit:refusals"), {"day": "2026-11-21", "table": t2.pk})
    assert response.status_code == 400 and '<ul class="problems">' not in response.content.decode()
    as_(client, staff_["manager"])
    page = client.get(reverse("pit:refusals"), {"day": "2026-11-21"}).content.decode()
    assert page.count('<ul class="problems">') == 2
    page = client.get(reverse("pit:refusals"), {"day": "2026-11-21", "table": t2.pk}).content.decode()
    assert page.count('<ul class="problems">') == 1 and "other_dealer" in page


@pytest.mark.parametrize("who, status", [("supervisor", 200), ("inspector", 200), ("manager", 200),
                                         ("dealer", 403), ("other_dealer", 403)])
def test_who_reads_the_refusals(client, people, who, status):
    staff_, _, _ = people
    as_(client, staff_[who])
    response = client.get(reverse("pit:refusals"))
    assert response.status_code == status
    if status == 200:
        assert "No refused attempt." in response.content.decode()


def test_the_refusals_are_read_in_one_query(people, django_assert_num_queries):
    staff_, t1, _ = people
    for hour in range(3):
        refused_at(t1, staff_["dealer"], NOON + hour * 60 * MINUTE)
    tables = staff_["dealer"].tables.all()
    with django_assert_num_queries(1):
        assert len(list(selectors.refusals(tables, day=dt.date(2026, 11, 21)))) == 3


@pytest.mark.parametrize("language, words", [
    ("pt", ["Fim da partida · mesa T1", "Comissão", "Resultado líquido", "Vento do lugar no início", "Oeste"]),
    ("zh-hant", ["牌局結束 · 第T1枱", "抽水", "淨輸贏", "開局時門風"]),
])
def test_the_end_of_game_summary_reads_in_portuguese_and_chinese(client, people, language, words):
    staff_, t1, _ = people
    game = played(people)
    services.end_game(game=game, user=staff_["supervisor"], at=NOON + 100 * MINUTE)
    as_(client, staff_["dealer"])
    page = client.get(reverse("pit:game_summary", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page


@pytest.mark.parametrize("language", ["pt", "zh-hant", "en"])
def test_every_floor_page_reads_in_each_language_with_no_english_left_in_its_headings(client, people, language):
    staff_, t1, _ = people
    game = played(people)
    refused_at(t1, staff_["dealer"], NOON + 50 * MINUTE)
    as_(client, staff_["supervisor"])
    pages = [reverse("pit:money", args=[t1.pk]), reverse("pit:history", args=[t1.pk]) + "?day=2026-11-21",
             reverse("pit:day_summary", args=[t1.pk]) + "?day=2026-11-21",
             reverse("pit:game_summary", args=[game.pk]), reverse("pit:refusals") + "?day=2026-11-21"]
    english = ["Buy-in and cash-out", "History · table", "Day summary · table", "Game in progress · table",
               "Refused attempts"]
    for url, heading in zip(pages, english):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        assert (heading in response.content.decode()) == (language == "en")


def test_a_time_is_read_on_the_24_hour_clock_and_the_form_shows_the_day_it_lists(client, people):
    staff_, t1, _ = people
    played(people)
    as_(client, staff_["dealer"])
    response = client.get(reverse("pit:day_summary", args=[t1.pk]), {"start": "12:30", "end": "13:00"})
    assert 'value="12:30"' in response.content.decode() and f'value="{days.gaming_day(timezone.now())}"' in \
        response.content.decode()
    response = client.get(reverse("pit:day_summary", args=[t1.pk]),
                          {"day": "2026-11-21", "start": "12:30", "end": "1:00 PM"})
    assert response.status_code == 400 and "Enter a valid time." in response.content.decode()


def test_a_period_that_ends_before_it_starts_is_refused_naming_the_field(client, people):
    staff_, t1, _ = people
    as_(client, staff_["dealer"])
    response = client.get(reverse("pit:day_summary", args=[t1.pk]),
                          {"day": "2026-11-21", "start": "14:00", "end": "10:00"})
    assert response.status_code == 400
    assert "To: The period ends before it starts: the gaming day starts at 06:00." in response.content.decode()
    # 23:00 to 04:00 runs past midnight within the gaming day, and 06:00 closes it.
    for start, end in (("23:00", "04:00"), ("12:00", "06:00")):
        assert client.get(reverse("pit:day_summary", args=[t1.pk]),
                          {"day": "2026-11-21", "start": start, "end": end}).status_code == 200


def test_capital_around_reads_two_queries(people, django_assert_num_queries):
    game = played(people)
    for movement in Movement.objects.filter(game=game):
        with django_assert_num_queries(2):
            selectors.capital_around(movement)


def test_a_simplified_game_with_an_empty_chair_is_summed_up_over_its_three_players(client, people):
    staff_, _, _ = people
    t = table("S1", variant="simplified", stake=100, staff=[staff_["dealer"], staff_["supervisor"]])
    game = seat(t, staff_["dealer"], capital=[5000, None, 3000, 4000])  # chair 2 empty
    # West (chair 3) wins 0 fán at 100/200 on North's discard: the banker (chair 1) pays 200,
    # North (chair 4) 100; commission 20 (Art. 8(b)): chair 3 nets +280.
    services.record_jogo(table=t, user=staff_["dealer"], record=next_record(
        game, winner="W", discarder="N", hand={"concealed": "1m2m3m5p", "winning_tile": "5p"}), at=NOON)
    services.move_money(game=game, user=staff_["supervisor"], chair=3, kind=Movement.BUY_IN, amount=100, at=NOON)
    summary = selectors.game_summary(game)
    assert [(p.chair, p.seat, p.net, p.end) for p in summary.players] == [
        (0, "E", -200, 4800), (2, "W", +280, 3280), (3, "N", -100, 4000)]
    figures = selectors.table_day(t, dt.date(2026, 11, 21))
    assert [(p.chair, p.net) for p in figures.players] == [(0, -200), (2, +280), (3, -100)]
    buy_in = Movement.objects.get(game=game, after_jogos=1)
    assert selectors.capital_around(buy_in) == ([4800, None, 3280, 3900], [4800, None, 3280, 4000])
    as_(client, staff_["supervisor"])
    page = client.get(reverse("pit:money", args=[t.pk])).content.decode()
    # West won, so the bank passed to chair 3 (Art. 3): chair 4 now sits South; chair 2 is not offered.
    assert "Chair 2 ·" not in page and "Chair 4 · South · Player 3" in page
