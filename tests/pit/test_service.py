"""The recording service: jogos validated by the engine, settled, carried from jogo to jogo,
the table's progress of Art. 3, money movements and refusals."""
import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from casino.pit import days, errors, selectors, services
from casino.pit.models import Jogo, Movement, Refusal
from tests.builders.pit import DRAW, NOON, next_record, record_next, seat, staff, table, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def pit():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    return people, t1, game


def test_art_7_a_won_jogo_is_stored_with_its_settlement_and_the_capital_after_it(pit):
    people, t1, game = pit
    jogo = record_next(game, people["dealer"])

    # South (chair 1) wins a chicken hand at 25/50: the banker East pays 2 × 25, West and North
    # 25 each (Art. 7, I-6); the house takes 10 from the winner (Art. 8).
    assert (jogo.number, jogo.position, jogo.revision, jogo.seq) == (1, 1, 0, 5)  # 4 opening buy-ins first
    assert (jogo.result, jogo.fan, jogo.commission, jogo.winner_chair) == ("win", 0, 10, 1)
    assert jogo.outcome["payments"] == [{"from": "W", "to": "S", "amount": 25}, {"from": "N", "to": "S", "amount": 25},
                                        {"from": "E", "to": "S", "amount": 50}]
    assert jogo.capital_before == [5000, 3000, 2000, 4000]
    assert jogo.capital_after == [4950, 3090, 1975, 3975]
    assert jogo.recorded_by == people["dealer"]
    assert jogo.gaming_day == dt.date(2026, 11, 21)


def test_each_players_capital_carries_to_the_next_jogo_and_a_stale_capital_is_refused(pit):
    people, t1, game = pit
    stale = next_record(game)
    record_next(game, people["dealer"])

    # The bank passed to chair 1 (Art. 3): chair 1 is now East with 3090.
    assert next_record(game)["capital"] == {"E": 3090, "S": 1975, "W": 3975, "N": 4950}
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"], record=stale, at=NOON)
    codes = {(p.code, p.article, p.field) for p in refused.value.problems}
    assert ("capital", "9(a)(4)", "capital.E") in codes
    assert Jogo.objects.count() == 1


def test_a_jogo_breaking_the_regulation_is_refused_with_every_error_and_the_attempt_is_logged(pit):
    people, t1, game = pit
    bad = next_record(game, stake=50, round_wind="S", hand={"concealed": "345m678p234s99m11p", "winning_tile": "2p"})

    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"], record=bad, at=NOON)

    codes = {(p.code, p.article) for p in refused.value.problems}
    assert ("table_stake", "8") in codes
    assert ("round_wind", "3") in codes
    assert "not_a_winning_hand" in {p.code for p in refused.value.problems}
    assert Jogo.objects.count() == 0
    logged = Refusal.objects.get()
    assert logged.record == bad and logged.attempted_by == people["dealer"]
    assert {e["code"] for e in logged.errors} == {p.code for p in refused.value.problems}


def test_a_malformed_record_is_refused_naming_the_field(pit):
    people, t1, game = pit
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"],
                             record=next_record(game, hand={"concealed": "12x", "winning_tile": "1p"}))
    problem, = refused.value.problems
    assert problem.code == "malformed_record" and problem.field == "hand.concealed"


def test_art_3_the_bank_stays_on_a_banker_win_a_draw_and_a_false_win_and_passes_on_another_win(pit):
    people, t1, game = pit
    assert selectors.standing(game).progress.banker == 0
    record_next(game, people["dealer"], winner="E", discarder="W")  # banker wins: keeps the bank
    assert selectors.standing(game).progress.banker == 0
    record_next(game, people["dealer"], **DRAW)  # I-1
    record_next(game, people["dealer"], result="false_win", winner=None, discarder=None, hand=None, declared_fan=None,
           false_win={"seat": "N"})  # I-1
    assert selectors.standing(game).progress.banker == 0
    record_next(game, people["dealer"])  # South wins: the bank passes to the player on the right
    state = selectors.standing(game).progress
    assert (state.banker, state.seats) == (1, {"E": 1, "S": 2, "W": 3, "N": 0})


def test_i_2_after_the_north_round_the_game_is_complete_and_a_17th_jogo_is_refused(pit):
    people, t1, game = pit
    winds = []
    for _ in range(16):
        winds.append(selectors.standing(game).progress.round_wind)
        record_next(game, people["dealer"], declared_fan=None)
    game.refresh_from_db()

    assert winds == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    assert game.ended_at is not None
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    assert refused.value.problems[0].code == "no_game"


def test_a_retried_post_with_the_same_idempotency_key_records_one_jogo(pit):
    people, t1, game = pit
    body = next_record(game)
    first, created = services.record_jogo(table=t1, user=people["dealer"], record=body, idempotency_key="k-1", at=NOON)
    again, created_again = services.record_jogo(table=t1, user=people["dealer"], record=body, idempotency_key="k-1",
                                                at=NOON)

    assert (created, created_again) == (True, False)
    assert again.pk == first.pk and Jogo.objects.count() == 1
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), idempotency_key="k-1")
    assert refused.value.conflict and refused.value.problems[0].code == "idempotency_key"


def test_an_idempotency_key_belongs_to_its_table_and_a_jogo_without_a_key_is_never_a_retry(pit):
    people, t1, game = pit
    t2_game = seat(type(t1).objects.get(number="T2"), people["other_dealer"])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    second, created = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    keyed, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW),
                                    idempotency_key="k-1", at=NOON)
    elsewhere, created_elsewhere = services.record_jogo(table=t2_game.table, user=people["other_dealer"],
                                                       record=next_record(t2_game, **DRAW), idempotency_key="k-1",
                                                       at=NOON)

    assert created and second.number == 2 and keyed.number == 3
    assert created_elsewhere and (elsewhere.table, elsewhere.number) == (t2_game.table, 1)


def test_buy_ins_and_cash_outs_are_movements_and_change_the_capital_of_the_next_jogo(pit):
    people, t1, game = pit
    services.move_money(game=game, user=people["dealer"], chair=2, kind=Movement.BUY_IN, amount=500, at=NOON)
    services.move_money(game=game, user=people["dealer"], chair=3, kind=Movement.CASH_OUT, amount=1000, at=NOON)

    assert selectors.standing(game).capital == [5000, 3000, 2500, 3000]
    assert next_record(game)["capital"] == {"E": 5000, "S": 3000, "W": 2500, "N": 3000}
    with pytest.raises(errors.Refused) as refused:
        services.move_money(game=game, user=people["dealer"], chair=3, kind=Movement.CASH_OUT, amount=3001)
    assert refused.value.problems[0].field == "amount"
    assert Movement.objects.count() == 6  # 4 opening buy-ins + 2


def test_ledger_rows_are_never_changed_or_deleted_by_the_application(pit):
    people, t1, game = pit
    jogo = record_next(game, people["dealer"])
    jogo.commission = 0
    with pytest.raises(ValidationError):
        jogo.save()
    with pytest.raises(ValidationError):
        jogo.delete()


def test_gaming_days_start_at_six_in_the_morning_macau_time(settings):
    macau = timezone.get_fixed_timezone(8 * 60)
    assert days.gaming_day(dt.datetime(2026, 11, 22, 5, 59, tzinfo=macau)) == dt.date(2026, 11, 21)
    assert days.gaming_day(dt.datetime(2026, 11, 22, 6, 0, tzinfo=macau)) == dt.date(2026, 11, 22)
    settings.GAMING_DAY_STARTS = "04:30"
    assert days.gaming_day(dt.datetime(2026, 11, 22, 4, 45, tzinfo=macau)) == dt.date(2026, 11, 22)


def test_art_3_the_conventional_game_seats_exactly_four_and_the_banker_must_be_seated():
    dealer = user("d", "dealer")
    t = table(staff=[dealer])
    with pytest.raises(errors.Refused) as refused:
        seat(t, dealer, capital=[5000, 3000, None, 4000])
    assert (refused.value.problems[0].code, refused.value.problems[0].article) == ("seats", "3")
    with pytest.raises(errors.Refused) as refused:
        services.start_game(table=t, user=dealer, players=[{"chair": c, "name": "p", "capital": 100} for c in range(4)],
                           first_banker=5)
    assert refused.value.problems[0].code == "banker_absent"


def test_simplified_table_with_three_players_records_the_seat_winds_of_the_occupied_chairs():
    dealer = user("d", "dealer")
    t = table(variant="simplified", stake=100, staff=[dealer])
    game = seat(t, dealer, capital=[5000, None, 3000, 4000])  # chair 1, to the banker's right, empty
    assert selectors.standing(game).progress.seats == {"E": 0, "W": 2, "N": 3}

    jogo, _ = services.record_jogo(table=t, user=dealer, record=next_record(
        game, winner="W", discarder="N", hand={"concealed": "1m2m3m5p", "winning_tile": "5p"}), at=NOON)

    # 0 fán at 100/200 (simplified): banker pays 200, North 100; commission 20 (Art. 8(b)).
    assert jogo.capital_after == [4800, None, 3280, 3900]
    assert selectors.standing(game).progress.seats == {"E": 2, "S": 3, "W": 0}  # chair 1 (now North) is empty
