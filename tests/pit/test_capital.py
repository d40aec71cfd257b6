"""A seat's capital (the casino's rule C-1, docs/rules.md §11): the table's minimum worked out by
hand, seating within the minimum and the seat maximum, one player per game, the witness of the
seating buy-ins, the jogo refused while a seat is short, and a capital below zero recorded when a
lower minimum lets it happen. Run under the money settings the project ships (`money_rules`)."""
import pytest
from django.test import override_settings

from casino.pit import errors, services
from casino.pit.capital import default_minimum, minimum_capital
from casino.pit.checks import check_minimum_capital
from casino.pit.models import Casino, Game, Jogo, Movement, MovementRefusal, Patron, PatronChange, Player, Refusal
from casino.pit.roles import SUPERVISOR
from tests.builders.pit import NOON, next_record, on_rotation, patron, record_next, seat, staff, table, user

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]


def written() -> tuple[int, ...]:
    """What a seating writes, counted: games, seats, players, their change log, buy-ins, kept refusals."""
    return tuple(model.objects.count() for model in (Game, Player, Patron, PatronChange, Movement, MovementRefusal))


def by_name(capital: list[int]) -> list[dict]:
    return [{"chair": chair, "name": f"Player {chair}", "capital": amount} for chair, amount in enumerate(capital)]


def refused(**seating) -> errors.Refused:
    with pytest.raises(errors.Refused) as caught:
        services.start_game(**seating)
    return caught.value


@pytest.fixture
def people():
    people, t1, _t2 = staff()
    return people, t1


# --- The default minimum, worked out by hand ---------------------------------------------------------
# The most one seat can be made to pay in one jogo: a pay-all (Art. 10) on the banker's win at the
# grade cap. The top share is X × 2^cap (I-6: every fán doubles X); the banker pays and receives
# double (Art. 7); the liable seat pays every loser's due.

def test_c1_the_conventional_minimum_is_a_pay_all_on_the_bankers_win_at_two_fan(people):
    # Conventional, cap 2 fán (Art. 6(a)(3)). At 25/50: the share is 25 × 2² = 100, each of the
    # three losers owes the banker 2 × 100 = 200, and the liable seat pays all three: 600.
    assert minimum_capital(table("C25", "conventional", 25)) == 3 * 2 * 25 * 2**2 == 600
    # At 1000/2000: 1000 × 2² = 4,000; doubled 8,000; three of them, 24,000.
    assert minimum_capital(table("C1000", "conventional", 1000)) == 3 * 2 * 1000 * 2**2 == 24_000


def test_c1_the_simplified_minimum_counts_the_players_seated(people):
    # Simplified, cap 1 fán (Art. 6(b), I-5). At 100/200 the share is 100 × 2 = 200, the banker's
    # double 400; the liable seat pays for each other loser: 3 × 400 = 1,200 with four players,
    # 2 × 400 = 800 with three, and 400 with two (the one loser pays his own).
    s100 = table("S100", "simplified", 100)
    assert [minimum_capital(s100, players) for players in (4, 3, 2)] == [1_200, 800, 400]
    # At 5000/10000: 5000 × 2 = 10,000, doubled 20,000: 60,000, 40,000 and 20,000.
    s5000 = table("S5000", "simplified", 5000)
    assert [minimum_capital(s5000, players) for players in (4, 3, 2)] == [60_000, 40_000, 20_000]


def test_c1_a_casino_may_set_a_lower_minimum_and_never_a_higher_one(people, settings):
    c25 = table("C25", "conventional", 25)
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 300}}
    assert minimum_capital(c25) == 300 and default_minimum(c25) == 600
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 900}}
    assert minimum_capital(c25) == 600  # the default still holds
    assert [error.id for error in check_minimum_capital()] == ["pit.E005"]


@pytest.mark.parametrize("setting,code,words", [
    ({"conventional": {25: 601}}, "pit.E005", "conventional tier 25/50 a minimum of 601, above the default of 600"),
    ({"simplified": {25: 10}}, "pit.E003", "simplified tier 25/50, which is not a tier"),
    ({"mahjong": {25: 10}}, "pit.E002", "'mahjong'"),
    ({"conventional": {50: 0}}, "pit.E004", "conventional tier 50/100 a minimum of 0"),
    ({"conventional": {50: "300"}}, "pit.E004", "conventional tier 50/100 a minimum of '300'"),
    ({"conventional": [25, 300]}, "pit.E001", "not a mapping"),
])
def test_c1_the_system_check_refuses_a_minimum_the_casino_may_not_set_naming_the_tier(setting, code, words):
    with override_settings(TABLE_MINIMUM_CAPITAL=setting):
        found = check_minimum_capital()
    assert [error.id for error in found] == [code]
    assert words in found[0].msg


def test_c1_the_shipped_setting_and_lower_minimums_pass_the_check():
    assert check_minimum_capital() == []
    with override_settings(TABLE_MINIMUM_CAPITAL={"conventional": {25: 600, 1000: 1}, "simplified": {100: 400}}):
        assert check_minimum_capital() == []


# --- Seating ------------------------------------------------------------------------------------------

def test_c1_seating_below_the_minimum_is_refused_naming_the_chair_and_what_it_lacks(people):
    p, t1 = people
    before = written()
    problems = refused(table=t1, user=p["supervisor"], players=by_name([600, 599, 600, 10]), first_banker=0,
                       at=NOON).problems

    assert [(x.code, x.field, x.article) for x in problems] == [
        ("capital_below_minimum", "players[1].capital", None), ("capital_below_minimum", "players[3].capital", None)]
    assert problems[0].message == ("Casino rule C-1 (minimum capital): chair 2 sits down with 599, 1 short of the "
                                   "table's minimum of 600.")
    assert problems[1].params == {"chair": 4, "capital": 10, "missing": 590, "minimum": 600}
    assert written() == before


def test_c1_seating_at_the_minimum_and_at_the_seat_maximum_is_allowed(people, settings):
    p, t1 = people
    settings.SEAT_MAXIMUM_CAPITAL = 5_000
    game = services.start_game(table=t1, user=p["supervisor"], players=by_name([600, 5_000, 600, 600]),
                               first_banker=0, at=NOON)
    assert list(game.movements.order_by("chair").values_list("amount", flat=True)) == [600, 5_000, 600, 600]


def test_c1_seating_above_the_seat_maximum_is_refused(people, settings):
    p, t1 = people
    settings.SEAT_MAXIMUM_CAPITAL = 5_000
    before = written()
    problem, = refused(table=t1, user=p["supervisor"], players=by_name([600, 5_001, 600, 600]), first_banker=0,
                       at=NOON).problems
    assert (problem.code, problem.field) == ("capital_above_maximum", "players[1].capital")
    assert problem.message == ("Casino rule C-1 (maximum capital): chair 2 sits down with 5001; a seat holds at most "
                               "5000.")
    assert written() == before


def test_c1_the_minimum_of_a_simplified_game_is_the_one_for_as_many_players_as_sit(people):
    p, _t1 = people
    s100 = table("S1", "simplified", 100, staff=[p["supervisor"]])
    three = [{"chair": c, "name": f"P{c}", "capital": 800} for c in range(3)]
    three[2]["capital"] = 799
    problem, = refused(table=s100, user=p["supervisor"], players=three, first_banker=0, at=NOON).problems
    assert problem.params["minimum"] == 800 and problem.params["missing"] == 1
    three[2]["capital"] = 800
    assert services.start_game(table=s100, user=p["supervisor"], players=three, first_banker=0, at=NOON)


@pytest.mark.parametrize("capital", [600.0, "600", True, None, -600], ids=repr)
def test_a_capital_not_a_positive_whole_number_is_refused_by_the_service(people, capital):
    p, t1 = people
    players = by_name([600] * 4)
    players[2]["capital"] = capital
    problem, = refused(table=t1, user=p["supervisor"], players=players, first_banker=0, at=NOON).problems
    assert (problem.code, problem.field, problem.article) == ("capital", "players[2].capital", "9(a)(4)")


def test_one_player_sits_in_one_chair_of_a_game(people):
    p, t1 = people
    ana = patron(t1.casino, "Ana")
    before = written()
    same_patron = [{"chair": 0, "patron": ana.pk, "capital": 600}, {"chair": 1, "name": "Bo", "capital": 600},
                   {"chair": 2, "patron": ana.pk, "capital": 600}, {"chair": 3, "name": "Cy", "capital": 600}]
    problem, = refused(table=t1, user=p["supervisor"], players=same_patron, first_banker=0, at=NOON).problems
    assert (problem.code, problem.field) == ("duplicate_player", "players")
    assert problem.message == "Chairs 1 and 3 seat the same player; a player sits in one chair of a game."

    same_name = by_name([600] * 4)
    same_name[3]["name"] = "  player   1 "  # the same new name, spaces and case aside
    problem, = refused(table=t1, user=p["supervisor"], players=same_name, first_banker=0, at=NOON).problems
    assert (problem.code, problem.params) == ("duplicate_player", {"first": 2, "second": 4})
    assert written() == before


def test_a_player_is_picked_from_the_casinos_players_or_made_from_a_name(people):
    p, t1 = people
    ana = patron(t1.casino, "Ana")
    players = [{"chair": 0, "patron": ana.pk, "capital": 600}] + by_name([600] * 4)[1:]
    game = services.start_game(table=t1, user=p["supervisor"], players=players, first_banker=0, at=NOON)

    seats = {player.chair: player.patron for player in game.players.select_related("patron")}
    assert seats[0] == ana and seats[1].name == "Player 1" and seats[1].casino == t1.casino
    assert seats[1].created_by == p["supervisor"] and not seats[1].identified
    assert PatronChange.objects.get(patron=seats[1]).action == PatronChange.CREATED
    assert {m.chair: m.patron_id for m in game.movements.all()} == {c: s.pk for c, s in seats.items()}
    assert not PatronChange.objects.filter(patron=ana).exists()  # picked, not changed


def test_an_unknown_player_another_casinos_or_an_empty_name_is_refused_naming_the_chair(people):
    p, t1 = people
    other = patron(Casino.objects.create(name="Casino Oceanus"), "Dee")
    players = [{"chair": 0, "patron": other.pk, "capital": 600}, {"chair": 1, "patron": 10**9, "capital": 600},
               {"chair": 2, "name": "   ", "capital": 600}, {"chair": 3, "name": "Cy", "capital": 600}]
    before = written()
    problems = refused(table=t1, user=p["supervisor"], players=players, first_banker=0, at=NOON).problems
    assert [(x.code, x.field) for x in problems] == [("patron", "players[0].patron"), ("patron", "players[1].patron"),
                                                     ("name", "players[2].name")]
    assert problems[0].message == f"Chair 1: there is no player {other.pk} at this casino."
    assert written() == before


# --- The witness of the seating buy-ins ---------------------------------------------------------------

def test_a_dealer_seats_with_a_supervisor_of_the_table_who_records_the_buy_ins(people):
    p, t1 = people
    on_rotation(t1, p["dealer"], NOON)
    game = services.start_game(table=t1, user=p["dealer"], witness=p["supervisor2"], players=by_name([600] * 4),
                               first_banker=0, at=NOON)
    assert game.started_by == p["dealer"]
    assert {m.recorded_by for m in game.movements.all()} == {p["supervisor2"]}


def test_a_supervisor_seating_is_the_witness_himself(people):
    p, t1 = people
    game = services.start_game(table=t1, user=p["supervisor"], players=by_name([600] * 4), first_banker=0, at=NOON)
    assert {m.recorded_by for m in game.movements.all()} == {p["supervisor"]}


def test_a_dealer_seating_without_a_supervisor_of_the_table_is_refused(people):
    p, t1 = people
    on_rotation(t1, p["dealer"], NOON)
    elsewhere = user("supervisor3", SUPERVISOR)  # a supervisor, not of this table
    before = written()
    for witness, code, words in [(None, "witness_needed", "A supervisor of table T1 witnesses"),
                                 (p["dealer"], "witness", "dealer is not a supervisor assigned to table T1"),
                                 (p["other_dealer"], "witness", "other_dealer is not a supervisor"),
                                 (elsewhere, "witness", "supervisor3 is not a supervisor assigned to table T1")]:
        problem, = refused(table=t1, user=p["dealer"], witness=witness, players=by_name([600] * 4), first_banker=0,
                           at=NOON).problems
        assert (problem.code, problem.field) == (code, "witness") and words in problem.message
    assert written() == before


# --- Before each jogo ---------------------------------------------------------------------------------

def test_c1_the_next_jogo_is_refused_while_a_seat_is_short_and_allowed_after_the_top_up(people):
    p, t1 = people
    game = seat(t1, p["dealer"], capital=[600, 600, 600, 600])
    # South (chair 2) wins a chicken hand on West's discard: the banker East (chair 1) pays 50,
    # West and North (chairs 3 and 4) 25 each (Art. 7, I-6).
    assert record_next(game, p["dealer"]).capital_after == [550, 690, 575, 575]

    record = next_record(game)
    t1.refresh_from_db()  # the table as the screen reads it, with its game
    for attempt in (lambda: services.preview_jogo(table=t1, record=record),
                    lambda: services.record_jogo(table=t1, user=p["dealer"], record=record, at=NOON)):
        with pytest.raises(errors.Refused) as caught:
            attempt()
        assert caught.value.conflict
        assert [(x.code, x.field, x.params["chair"], x.params["missing"]) for x in caught.value.problems] == [
            ("capital_below_minimum", "capital", 1, 50), ("capital_below_minimum", "capital", 3, 25),
            ("capital_below_minimum", "capital", 4, 25)]
    assert caught.value.problems[0].message == (
        "Casino rule C-1 (minimum capital): chair 1 holds 550, 50 short of the table's minimum of 600; a supervisor "
        "records a buy-in, or the game ends, before the next jogo.")
    assert Jogo.objects.count() == 1 and Refusal.objects.count() == 1  # the refused record is kept

    for chair, amount in ((0, 50), (2, 25), (3, 25)):
        services.move_money(game=game, user=p["supervisor"], chair=chair, kind="buy_in", amount=amount, at=NOON)
    assert record_next(game, p["dealer"]).number == 2


def test_c1_a_cash_out_that_leaves_a_seat_short_holds_the_next_jogo(people):
    p, t1 = people
    game = seat(t1, p["dealer"], capital=[600, 1000, 600, 600])
    services.move_money(game=game, user=p["supervisor"], chair=1, kind="cash_out", amount=401, at=NOON)
    with pytest.raises(errors.Refused) as caught:
        services.record_jogo(table=t1, user=p["dealer"], record=next_record(game), at=NOON)
    assert [x.params for x in caught.value.problems] == [{"chair": 2, "capital": 599, "missing": 1, "minimum": 600}]


def test_c1_with_a_lower_minimum_a_capital_goes_below_zero_and_the_jogo_records_it(people, settings):
    p, t1 = people
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 40}}
    game = seat(t1, p["dealer"], capital=[40, 1000, 1000, 1000])
    # The banker East (chair 1, 40) pays South's chicken hand 2 × 25 = 50: he is 10 below zero.
    jogo = record_next(game, p["dealer"])
    assert jogo.capital_after == [-10, 1090, 975, 975]
    with pytest.raises(errors.Refused) as caught:
        services.record_jogo(table=t1, user=p["dealer"], record=next_record(game), at=NOON)
    assert [x.params for x in caught.value.problems] == [{"chair": 1, "capital": -10, "missing": 50, "minimum": 40}]


def test_the_seat_maximum_holds_for_a_buy_in_too(people, settings):
    p, t1 = people
    settings.SEAT_MAXIMUM_CAPITAL = 5_000
    game = seat(t1, p["dealer"], capital=[600, 4_000, 600, 600])
    with pytest.raises(errors.Refused) as caught:
        services.move_money(game=game, user=p["supervisor"], chair=1, kind="buy_in", amount=1_001, at=NOON)
    problem, = caught.value.problems
    assert (problem.code, problem.field) == ("capital_above_maximum", "amount")
    assert problem.message == ("Casino rule C-1 (maximum capital): a buy-in of 1001 would bring chair 2 from 4000 to "
                               "5001; a seat holds at most 5000.")
    assert Movement.objects.count() == 4
    services.move_money(game=game, user=p["supervisor"], chair=1, kind="buy_in", amount=1_000, at=NOON)


def test_a_cash_out_above_the_seats_capital_is_refused_and_nothing_is_written(people):
    p, t1 = people
    game = seat(t1, p["dealer"], capital=[600, 700, 600, 600])
    with pytest.raises(errors.Refused) as caught:
        services.move_money(game=game, user=p["supervisor"], chair=1, kind="cash_out", amount=701, at=NOON)
    problem, = caught.value.problems
    assert (problem.code, problem.field, problem.params["capital"]) == ("amount", "amount", 700)
    assert Movement.objects.count() == 4 and MovementRefusal.objects.count() == 0


@pytest.mark.parametrize("amount", [12.5, 12.0, "12", True, 0, -5, None], ids=repr)
def test_a_movement_of_anything_but_a_positive_whole_number_is_refused(people, amount):
    p, t1 = people
    game = seat(t1, p["dealer"], capital=[600] * 4)
    with pytest.raises(errors.Refused) as caught:
        services.move_money(game=game, user=p["supervisor"], chair=1, kind="buy_in", amount=amount, at=NOON)
    assert [(x.code, x.field) for x in caught.value.problems] == [("amount", "amount")]
    assert Movement.objects.count() == 4
