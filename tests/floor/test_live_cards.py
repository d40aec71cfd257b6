"""The floor's cards (casino/floor/cards.py): what each table's card says, read for the whole
floor in a fixed number of queries."""
from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.count import services as count_services
from casino.floor import cards
from casino.pit import services
from casino.pit.models import Jogo, Table
from tests.builders.count import DRAGON, moment, play_shifts
from tests.builders.pit import NOON, record_next, seat, staff, table

pytestmark = pytest.mark.django_db
MINUTE = dt.timedelta(minutes=1)


def card_of(number: str, at=NOON + 30 * MINUTE) -> dict:
    return cards.cards(Table.objects.filter(number=number), at=at)[0]


def test_a_card_shows_the_game_its_seats_the_people_on_duty_and_the_shift_so_far():
    people, t1, _ = staff()
    t1.area = "Pit A"
    t1.save()
    game = seat(t1, people["dealer"], at=NOON)
    record_next(game, people["dealer"], at=NOON + 5 * MINUTE, **DRAGON)  # South wins 1 fán on West's discard
    count_services.rotation_start(table=t1, person=people["supervisor"], duty="supervisor",
                                  starts_at=NOON, user=people["supervisor"], at=NOON)
    people["dealer"].first_name, people["dealer"].last_name = "Ana", "Lopes"
    people["dealer"].save()
    t1.refresh_from_db()

    card = card_of("T1")

    assert card["number"] == "T1" and card["area"] == "Pit A" and card["open"] is True
    assert card["game"]["id"] == game.pk and card["next_jogo"] == 2
    assert card["game"]["round_wind"] == "E" and card["game"]["banker"] == 1  # the banker lost: it moves on (Art. 3)
    assert [(seat["chair"], seat["player"], seat["capital"]) for seat in card["game"]["seats"]] == [
        (chair, f"Player {chair}", capital) for chair, capital in enumerate(t1.game_capital)]
    assert card["dealers"] == ["Ana Lopes"] and card["supervisors"] == ["supervisor"]
    assert card["last_jogo_at"] == "12:05"
    assert card["shift"]["jogos"] == 1 and card["shift"]["commission"] == Jogo.objects.get(table=t1).commission > 0
    assert (card["alerts"], card["corrections"], card["flags"]) == (0, 0, 0)
    assert card["box"] == {"state": cards.IN_PLAY, "shift": card["shift"]["number"]}


@pytest.mark.money_rules
def test_c1_a_seat_below_the_minimum_says_by_how_much_and_a_top_up_ends_it():
    """C-1's default at 25/50 is 600: West (chair 3 to people) pays 25 and holds 575."""
    people, t1, _ = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 600, 4000], at=NOON)
    record_next(game, people["dealer"], at=NOON + MINUTE)
    seats = card_of("T1")["game"]["seats"]
    assert card_of("T1")["game"]["minimum"] == 600
    assert [(seat["below"], seat["missing"]) for seat in seats] == [(None, 0), (None, 0), ("minimum", 25), (None, 0)]
    services.move_money(game=game, user=people["supervisor"], chair=2, kind="buy_in", amount=25, at=NOON + 2 * MINUTE)
    assert [seat["below"] for seat in card_of("T1")["game"]["seats"]] == [None] * 4


def test_c1_a_seat_below_zero_says_so():
    people, t1, _ = staff()  # no minimum (tests/conftest.py): West's 10 cannot cover 25
    game = seat(t1, people["dealer"], capital=[5000, 3000, 10, 4000], at=NOON)
    record_next(game, people["dealer"], at=NOON + MINUTE)
    assert card_of("T1")["game"]["seats"][2] | {} == {"chair": 2, "player": "Player 2", "capital": -15,
                                                      "below": "zero", "missing": 15}


def test_players_names_on_a_card_are_masked_for_whoever_may_not_read_them():
    """A card travels to every floor view; each person is shown the names his role reads
    (casino.pit.privacy): inspectors and managers all, a supervisor at his tables, else masked."""
    people, t1, t2 = staff()
    seat(t1, people["dealer"], at=NOON)
    found = cards.cards(Table.objects.filter(number="T1"), at=NOON)

    def names(reader) -> list[str]:
        return [seat["player"] for seat in cards.for_person(found, **cards.reader(reader))[0]["game"]["seats"]]

    assert names(people["inspector"]) == names(people["manager"]) == names(people["supervisor"]) == [
        "Player 0", "Player 1", "Player 2", "Player 3"]
    assert names(people["dealer"]) == ["P***** 0", "P***** 1", "P***** 2", "P***** 3"]
    t2.staff.add(supervisor_elsewhere := people["supervisor2"])
    t1.staff.remove(supervisor_elsewhere)
    assert names(supervisor_elsewhere)[0] == "P***** 0"
    assert found[0]["game"]["seats"][0]["player"] == "Player 0"  # the card itself is left as it is


def test_a_closed_table_without_a_game_has_no_game_nobody_on_duty_and_no_box():
    people, _, t2 = staff()
    services.close_table(table=t2, user=people["supervisor"], at=NOON)

    card = card_of("T2")

    assert card["open"] is False and card["game"] is None and card["next_jogo"] == 1
    assert card["dealers"] == [] and card["supervisors"] == [] and card["last_jogo_at"] is None
    assert card["box"] == {"state": cards.NO_BOX}


def test_a_card_counts_the_tables_open_flags_and_pending_corrections():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"], at=NOON)
    jogo = record_next(game, people["dealer"], at=NOON + MINUTE)
    services.flag(jogo=jogo, user=people["inspector"], note="Look at the discard", at=NOON + 2 * MINUTE)
    services.propose_amendment(jogo=jogo, user=people["supervisor"], record={**jogo.record, "discarder": "N"},
                               reason="The discard was North's", at=NOON + 3 * MINUTE)

    card = card_of("T1")

    assert (card["flags"], card["corrections"]) == (1, 1)


def test_an_earlier_shifts_box_waits_for_the_count_on_the_card():
    people, t1, _ = staff()
    play_shifts(t1, people["dealer"], hours=(7, 15))  # a jogo in shifts 1 and 2 of the day

    card = card_of("T1", at=moment(15, 30))

    assert card["box"] == {"state": cards.NOT_COUNTED, "shifts": [1]}
    assert (card["shift"]["number"], card["shift"]["jogos"]) == (2, 1)


def test_reading_forty_cards_takes_as_many_queries_as_reading_two():
    people, t1, t2 = staff()
    for at_table in (t1, t2):
        record_next(seat(at_table, people["dealer"] if at_table == t1 else people["other_dealer"]),
                    people["dealer"] if at_table == t1 else people["other_dealer"])

    def queries() -> int:
        with CaptureQueriesContext(connection) as done:
            found = cards.cards(cards.floor_tables(Table.objects.all()), at=NOON + 30 * MINUTE)
        return len(found), len(done.captured_queries)

    two = queries()
    for n in range(3, 41):
        made = table(f"T{n}", staff=[people["dealer"]])
        if n % 3 == 0:
            record_next(seat(made, people["dealer"]), people["dealer"])

    assert two[0] == 2
    assert queries() == (40, two[1])
    assert two[1] <= 14


def test_the_floors_filters_narrow_by_area_tier_and_variant():
    table("A1").__class__.objects.filter(number="A1").update(area="Pit A")
    table("A2", stake=50).__class__.objects.filter(number="A2").update(area="Pit A")
    table("B1", variant="simplified", stake=10).__class__.objects.filter(number="B1").update(area="Pit B")

    def numbers(**filters) -> list[str]:
        return [t.number for t in cards.floor_tables(Table.objects.all(), **filters)]

    assert numbers() == ["A1", "A2", "B1"]
    assert numbers(area="Pit A") == ["A1", "A2"]
    assert numbers(stake=50) == ["A2"]
    assert numbers(variant="simplified") == ["B1"]


def test_events_sent_together_are_one_message_each_with_the_cards_read_once():
    from casino.floor import live

    people, t1, t2 = staff()

    with CaptureQueriesContext(connection) as done:
        made = live.messages([("jogo_recorded", t1.pk), ("money_moved", t1.pk), ("alerts_changed", None),
                              ("table_closed", 999_999)])

    assert [(m["event"], m["table"], [card["number"] for card in m["cards"]]) for m in made] == [
        ("jogo_recorded", t1.pk, ["T1"]), ("money_moved", t1.pk, ["T1"]), ("alerts_changed", None, ["T1", "T2"]),
        ("table_closed", 999_999, [])]
    assert all(m["type"] == live.MESSAGE for m in made)
    assert len(done.captured_queries) <= 14
