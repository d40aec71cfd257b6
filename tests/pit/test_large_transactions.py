"""Large transactions (the casino's rule C-2, DICJ Instruction n.º 1/2016; docs/rules.md §11): a
player's buy-ins, and apart his cash-outs, over a gaming day at every table, reaching the threshold
(MOP 500,000) need him identified first. The movement that would reach it is refused, the refusal
names what is missing and is kept; once he is identified it passes. Run under the money settings
the project ships (`money_rules`)."""
import datetime as dt

import pytest
from django.utils import timezone

from casino.pit import errors, services
from casino.pit.models import Game, Movement, MovementRefusal, Patron, Table
from casino.pit.signals import table_event
from casino.terms.vocabulary import localise
from tests.builders.pit import NOON, patron, staff, table

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]

EVERYTHING = "identity document type, document number, issuing country, date of birth, nationality"
MINIMUM = 24_000  # C-1 at the conventional tier 1000/2000: 3 × 2 × 1000 × 2² (tests/pit/test_capital.py)


@pytest.fixture
def world():
    """Two conventional 1000/2000 tables of one casino, one supervisor at both; Chan, known by his
    name alone."""
    people, _t1, _t2 = staff()
    sup = people["supervisor"]
    l1, l2 = table("L1", stake=1000, staff=[sup]), table("L2", stake=1000, staff=[sup])
    return {"supervisor": sup, "l1": l1, "l2": l2, "chan": patron(l1.casino, "Chan Tai Man")}


def seat(at_table, by, player: Patron, capital: int, at=NOON) -> Game:
    """`player` in chair 1 with `capital`, three new players at the table's minimum beside him."""
    players = [{"chair": 0, "patron": player.pk, "capital": capital}] + [
        {"chair": chair, "name": f"Neighbour {chair}", "capital": MINIMUM} for chair in (1, 2, 3)]
    return services.start_game(table=at_table, user=by, players=players, first_banker=0, at=at)


def move(game, by, kind: str, amount: int, at=NOON) -> Movement:
    return services.move_money(game=game, user=by, chair=0, kind=kind, amount=amount, at=at)


def refused_move(game, by, kind: str, amount: int, at=NOON) -> errors.Problem:
    with pytest.raises(errors.Refused) as caught:
        move(game, by, kind, amount, at)
    problem, = caught.value.problems
    return problem


def identify(player: Patron) -> None:
    Patron.objects.filter(pk=player.pk).update(document_type=Patron.MACAU_ID, document_number="1234567(8)",
                                               document_country="MO", date_of_birth=dt.date(1970, 1, 1),
                                               nationality="MO")
    player.refresh_from_db()


@pytest.fixture
def told():
    """The pit's events, as the floor hears them: (event, subject)."""
    heard = []

    def hear(sender, event, subject, **kwargs):
        heard.append((event, subject))

    table_event.connect(hear, dispatch_uid="test-large-transactions")
    yield heard
    table_event.disconnect(dispatch_uid="test-large-transactions")


def test_c2_buy_ins_at_two_tables_add_up_and_the_one_reaching_the_threshold_is_refused_and_kept(world, told):
    sup, chan = world["supervisor"], world["chan"]
    first = seat(world["l1"], sup, chan, 300_000)
    services.end_game(game=first, user=sup, at=NOON)  # he moves to L2
    game = seat(world["l2"], sup, chan, 150_000, at=NOON + dt.timedelta(hours=1))
    move(game, sup, "buy_in", 49_999)  # 300,000 + 150,000 + 49,999 = 499,999: below the threshold
    movements, capital = Movement.objects.count(), Table.objects.get(pk=game.table_id).game_capital

    problem = refused_move(game, sup, "buy_in", 1)  # 500,000: the threshold itself

    assert (problem.code, problem.field, problem.article) == ("identification_needed", "patron", None)
    assert problem.message == (
        "DICJ Instruction n.º 1/2016: with this buy-in of 1, the player in chair 1 brings 500000 to the tables this "
        f"gaming day, at or above the large-transaction threshold of 500000; identify the player first (missing: "
        f"{EVERYTHING}).")
    assert localise(problem) == problem.message
    assert Movement.objects.count() == movements
    assert Table.objects.get(pk=game.table_id).game_capital == capital
    kept = MovementRefusal.objects.get()
    assert (kept.table, kept.game, kept.chair, kept.patron, kept.kind, kept.amount, kept.attempted_by) == (
        world["l2"], game, 0, chan, "buy_in", 1, sup)
    assert kept.gaming_day == dt.date(2026, 11, 21)
    assert [error["code"] for error in kept.errors] == ["identification_needed"]
    assert kept.errors[0]["params"]["missing"] == EVERYTHING
    assert ("movement_refused", kept) in told

    identify(chan)
    movement = move(game, sup, "buy_in", 1)
    assert movement.patron == chan and MovementRefusal.objects.count() == 1


def test_c2_the_refusal_names_only_what_is_still_missing(world):
    sup, chan = world["supervisor"], world["chan"]
    Patron.objects.filter(pk=chan.pk).update(document_type=Patron.PASSPORT, document_number="K1234567",
                                             nationality="PT")
    game = seat(world["l1"], sup, chan, 400_000)
    problem = refused_move(game, sup, "buy_in", 100_000)
    assert problem.params["missing"] == "issuing country, date of birth"


def test_c2_cash_outs_are_totalled_apart_from_buy_ins(world):
    sup, chan = world["supervisor"], world["chan"]
    macau = timezone.get_current_timezone()
    night = dt.datetime(2026, 11, 22, 5, 0, tzinfo=macau)  # the gaming day of 21 November
    morning = dt.datetime(2026, 11, 22, 7, 0, tzinfo=macau)  # the gaming day of 22 November
    game = seat(world["l1"], sup, chan, 450_000, at=night)  # 21 November: buy-ins 450,000
    move(game, sup, "buy_in", 450_000, at=morning)  # 22 November: buy-ins 450,000, capital 900,000
    move(game, sup, "cash_out", 300_000, at=morning)  # cash-outs 300,000: in and out are not added up
    move(game, sup, "cash_out", 199_999, at=morning)  # cash-outs 499,999

    problem = refused_move(game, sup, "cash_out", 1, at=morning)  # cash-outs 500,000
    assert problem.message.startswith("DICJ Instruction n.º 1/2016: with this cash-out of 1, the player in chair 1 "
                                      "takes 500000 from the tables this gaming day")
    assert MovementRefusal.objects.get().kind == "cash_out"
    move(game, sup, "buy_in", 49_999, at=morning)  # buy-ins of 22 November 499,999: still below
    assert refused_move(game, sup, "buy_in", 1, at=morning).params["total"] == 500_000


def test_c2_a_new_gaming_day_starts_at_six_in_macau_and_its_totals_from_zero(world):
    sup, chan = world["supervisor"], world["chan"]
    macau = timezone.get_current_timezone()
    night = dt.datetime(2026, 11, 22, 5, 0, tzinfo=macau)  # 05:00: still the gaming day of 21 November
    game = seat(world["l1"], sup, chan, 450_000, at=night)

    problem = refused_move(game, sup, "buy_in", 50_000, at=night + dt.timedelta(minutes=59))  # 05:59
    assert problem.params["total"] == 500_000
    movement = move(game, sup, "buy_in", 50_000, at=night + dt.timedelta(hours=1))  # 06:00: a new gaming day
    assert movement.gaming_day == dt.date(2026, 11, 22)
    assert MovementRefusal.objects.get().gaming_day == dt.date(2026, 11, 21)


def test_c2_a_seating_buy_in_at_the_threshold_needs_the_player_identified(world, told):
    sup, chan, l1 = world["supervisor"], world["chan"], world["l1"]
    counted = (Game.objects.count(), Patron.objects.count(), Movement.objects.count())
    players = [{"chair": 0, "name": "Wong Siu Ming", "capital": 500_000}] + [
        {"chair": chair, "name": f"Neighbour {chair}", "capital": MINIMUM} for chair in (1, 2, 3)]
    with pytest.raises(errors.Refused) as caught:
        services.start_game(table=l1, user=sup, players=players, first_banker=0, at=NOON)

    problem, = caught.value.problems
    assert (problem.code, problem.field) == ("identification_needed", "players[0].patron")
    assert problem.params["missing"] == EVERYTHING
    assert (Game.objects.count(), Patron.objects.count(), Movement.objects.count()) == counted
    kept = MovementRefusal.objects.get()  # kept, with no game and no player record: neither was made
    assert (kept.game, kept.patron, kept.chair, kept.kind, kept.amount) == (None, None, 0, "buy_in", 500_000)
    assert ("movement_refused", kept) in told

    identify(chan)
    game = seat(l1, sup, chan, 500_000)
    assert game.movements.get(chair=0).patron == chan


def test_c2_earlier_buy_ins_of_the_day_count_when_a_player_sits_down(world):
    sup, chan = world["supervisor"], world["chan"]
    first = seat(world["l1"], sup, chan, 450_000)
    services.end_game(game=first, user=sup, at=NOON)
    with pytest.raises(errors.Refused) as caught:
        seat(world["l2"], sup, chan, 50_000)
    assert caught.value.problems[0].params["total"] == 500_000
    assert not world["l2"].games.exists()


def test_c2_an_identified_player_moves_any_amount_and_the_threshold_is_a_setting(world, settings):
    sup, chan = world["supervisor"], world["chan"]
    identify(chan)
    game = seat(world["l1"], sup, chan, 2_000_000)
    move(game, sup, "cash_out", 1_500_000)
    assert MovementRefusal.objects.count() == 0

    settings.LARGE_TRANSACTION_THRESHOLD = 100_000
    other = patron(world["l2"].casino, "Lee")
    problem = refused_move(seat(world["l2"], sup, other, 99_999), sup, "buy_in", 1)
    assert (problem.params["total"], problem.params["threshold"]) == (100_000, 100_000)


def test_c2_the_refusal_is_said_in_the_readers_language_what_is_missing_too(world):
    """Needs the compiled catalogues (casino/terms/locale)."""
    from django.utils import translation

    sup, chan = world["supervisor"], world["chan"]
    problem = refused_move(seat(world["l1"], sup, chan, 400_000), sup, "buy_in", 100_000)
    with translation.override("zh-hant"):
        chinese = localise(problem)
    assert chinese.startswith("博監局第 1/2016 號指引：加上這筆 100000 的買入，第1座玩家")
    assert chinese.endswith("（尚欠：身份證明文件類別、證件號碼、簽發國家、出生日期、國籍）。")
    with translation.override("pt"):
        assert localise(problem).endswith("(falta: tipo de documento de identificação, número do documento, país "
                                          "emissor, data de nascimento, nacionalidade).")
