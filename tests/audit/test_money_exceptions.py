"""The exception queue's kinds of issue 25 (docs/audit.md): a capital below the table's minimum
(casino rule C-1) or below zero, a movement at or above the large-transaction threshold and a
movement refused for want of identification (C-2, DICJ Instruction n.º 1/2016), structuring, one
player in two chairs, a won jogo saved with no declared grade. Each is found, a near miss is not,
and each names its control."""
import pytest

from casino.audit.exceptions import KINDS, count_by_kind, exceptions
from casino.audit.ledger import Days
from casino.pit import errors
from casino.pit.models import MovementRefusal, Patron
from casino.terms.vocabulary import alert_control_name
from tests.builders.audit import DAY
from tests.builders.pit import DRAW, record_next, seat, staff

from .money import buy_in, lei, minutes, people_and_tables, seat_patron

pytestmark = pytest.mark.django_db

TODAY = Days(DAY, DAY)
# The builder's jogo: South (chair 1) wins a chicken hand on West's discard at 25/50: East (the
# banker, chair 0) pays 50, West (chair 2) and North (chair 3) 25 each (Art. 7).
WEST_LOSES = 25


def of_kind(kind):
    return exceptions(TODAY, kind)


@pytest.mark.money_rules
def test_c1_a_seat_left_below_the_tables_minimum_is_queued_with_chair_capital_minimum_and_player():
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 620, 4000])  # 25/50, 4 players: minimum 600
    jogo = record_next(game, people["dealer"])

    entry, = of_kind("capital_below_minimum")

    assert (entry.jogo_id, entry.table, entry.number) == (jogo.pk, "T1", 1)
    assert entry.detail == ("chair 3, Player 2: a capital of 595 after the jogo, below the table's minimum of 600 "
                            "(casino rule C-1); 5 missing")
    assert entry.control == alert_control_name("minimum_capital") == "casino rule C-1 (minimum capital)"
    assert of_kind("capital_below_zero") == []


@pytest.mark.money_rules
def test_c1_a_seat_left_exactly_at_the_minimum_is_no_exception():
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 600 + WEST_LOSES, 4000])
    record_next(game, people["dealer"])

    assert of_kind("capital_below_minimum") == [] and of_kind("capital_below_zero") == []


@pytest.mark.money_rules
def test_c1_a_capital_below_zero_under_a_lower_minimum_is_queued_as_below_zero_only(settings):
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 10}}
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 20, 4000])
    jogo = record_next(game, people["dealer"])

    entry, = of_kind("capital_below_zero")

    assert entry.jogo_id == jogo.pk and jogo.capital_after[2] == -5
    assert entry.detail == "chair 3, Player 2: a capital of -5 after the jogo, below zero (casino rule C-1, minimum 10)"
    assert of_kind("capital_below_minimum") == []


@pytest.mark.money_rules
def test_c1_a_seat_left_at_zero_is_below_the_minimum_not_below_zero(settings):
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 10}}
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"], capital=[5000, 3000, WEST_LOSES, 4000])
    record_next(game, people["dealer"])

    assert of_kind("capital_below_zero") == []
    assert "a capital of 0 after the jogo" in of_kind("capital_below_minimum")[0].detail


def test_art_6_a_win_saved_with_no_declared_grade_is_queued_and_a_declared_one_or_a_draw_is_not():
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"])
    record_next(game, people["dealer"])  # declared 0 fán
    record_next(game, people["dealer"], **DRAW)  # nobody won: no grade to declare
    undeclared = record_next(game, people["dealer"], declared_fan=None)

    entry, = of_kind("grade_not_declared")

    assert entry.jogo_id == undeclared.pk and entry.article == "6" and entry.control == "declared grade check"
    assert "· Player" in entry.detail and "no declared grade" in entry.detail and "0 fán" in entry.detail


def test_art_3_one_name_in_two_chairs_of_a_game_is_queued_and_one_player_at_two_tables_is_not():
    people, t1, t2 = people_and_tables()
    game = seat(t1, people["supervisor"])
    # A game seated before players were people could hold one name twice: as two players of that name.
    Patron.objects.filter(seats__game=game, seats__chair=2).update(name="player 0 ")
    player = lei(t1.casino)
    seat_patron(t2, people["supervisor"], player, 5000)  # Mr Lei plays at T2 as well: one chair of each game

    entry, = of_kind("duplicate_player")

    assert (entry.table, entry.gaming_day, entry.jogo_id) == ("T1", DAY, None)
    assert entry.detail == "Player 0 is seated in chairs 1, 3 of one game" and entry.control == "seating of a game"


@pytest.mark.money_rules
def test_c2_a_buy_in_bringing_the_days_buy_ins_across_two_tables_to_the_threshold_is_queued():
    people, t1, t2 = people_and_tables()
    player = lei(t1.casino)
    game1 = seat_patron(t1, people["supervisor"], player, 300_000, at=minutes(0))
    seat_patron(t2, people["supervisor"], player, 150_000, at=minutes(30))
    buy_in(game1, people["supervisor"], 50_000, at=minutes(60))

    entry, = of_kind("large_transaction")

    assert (entry.table, entry.jogo_id, entry.gaming_day) == ("T1", None, DAY)
    assert entry.detail == ("Lei Chi Wai: buy-in of 50000 at 13:00 (supervisor: supervisor); the day's buy-ins reach "
                            "500000, at or above the threshold of 500000 (DICJ Instruction n.º 1/2016); identified")
    assert entry.control == alert_control_name("large_transactions")
    assert "C-2" in entry.control


@pytest.mark.money_rules
def test_c2_buy_ins_one_short_of_the_threshold_are_no_large_transaction_nor_structuring():
    people, t1, t2 = people_and_tables()
    player = lei(t1.casino)
    game1 = seat_patron(t1, people["supervisor"], player, 300_000, at=minutes(0))
    seat_patron(t2, people["supervisor"], player, 150_000, at=minutes(30))
    buy_in(game1, people["supervisor"], 49_999, at=minutes(60))

    assert of_kind("large_transaction") == [] and of_kind("structuring") == []


@pytest.mark.money_rules
def test_c2_a_buy_in_refused_for_want_of_identification_is_kept_and_queued():
    people, t1, t2 = people_and_tables()
    player = lei(t1.casino, identified=False)
    game = seat_patron(t1, people["supervisor"], player, 300_000, at=minutes(0))
    with pytest.raises(errors.Refused):
        buy_in(game, people["supervisor"], 200_000, at=minutes(10))

    entry, = of_kind("large_transaction")

    assert MovementRefusal.objects.count() == 1
    assert entry.facts["refusal"] == MovementRefusal.objects.get()
    assert entry.detail.startswith("Lei Chi Wai: refused and kept at 12:10, attempted by supervisor: ")


@pytest.mark.money_rules
def test_c2_movements_each_below_the_threshold_that_reach_it_together_are_structuring():
    people, t1, t2 = people_and_tables()
    player = lei(t1.casino)
    game1 = seat_patron(t1, people["supervisor"], player, 250_000, at=minutes(0))
    seat_patron(t2, people["supervisor"], player, 200_000, at=minutes(30))
    buy_in(game1, people["supervisor"], 50_000, at=minutes(60))

    entry, = of_kind("structuring")

    assert (entry.table, entry.gaming_day) == ("T1, T2", DAY)
    assert entry.detail == ("Lei Chi Wai: 3 buy-ins, each below the threshold of 500000 (the largest 250000), total "
                            "500000 over the gaming day (DICJ Instruction n.º 1/2016)")


def test_every_kind_names_its_control_or_none_and_the_counts_hold_every_kind():
    assert {code for code, kind in KINDS.items() if kind.control} >= {
        "capital_below_minimum", "capital_below_zero", "large_transaction", "structuring", "duplicate_player",
        "grade_not_declared"}
    assert [code for code, __, count in count_by_kind([])] == list(KINDS)


@pytest.mark.money_rules
def test_the_exception_queue_page_shows_the_new_kinds_with_their_control(client):
    people, t1, t2 = staff()
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 620, 4000])
    record_next(game, people["dealer"], declared_fan=None)
    client.force_login(people["inspector"])

    page = client.get("/audit/exceptions/?day=2026-11-21").content.decode()

    assert page.count('<tr class="kind-capital_below_minimum">') == 1
    assert page.count('<tr class="kind-grade_not_declared">') == 1
    assert '<td class="control">casino rule C-1 (minimum capital)</td>' in page
    assert '<td class="control">declared grade check</td>' in page


def test_whoever_reads_the_queue_may_see_the_players_names_it_shows_in_full():
    from casino.pit.roles import ROLES

    readers = [role for role, perms in ROLES.items() if "pit.view_all_tables" in perms]

    assert readers and all("pit.view_personal_data" in ROLES[role] for role in readers)
