"""The floor's alerts of the casino's rule C-2 (DICJ Instruction n.º 1/2016, docs/rules.md §11):
a player's buy-ins, or his cash-outs, over a gaming day at every table reaching the threshold of
500,000; a refused movement of a player not identified; structuring. All under the settings the
project ships (`money_rules`)."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from casino.floor import alert_selectors
from casino.floor.models import Alert
from casino.pit import patrons, services
from casino.pit.errors import Refused
from casino.pit.models import MovementRefusal, Patron
from casino.terms.vocabulary import alert_message
from tests.builders.alerts import rules_raised
from tests.builders.pit import NOON, seat, staff

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]

MINUTE = dt.timedelta(minutes=1)
PASSPORT = {"document_type": Patron.PASSPORT, "document_number": "K12345678", "document_country": "PT",
            "date_of_birth": dt.date(1975, 3, 9), "nationality": "PT"}


def identify(patron: Patron, by) -> Patron:
    return patrons.identify(patron=patron, user=by, **PASSPORT)


@pytest.fixture
def money():
    """T1 and T2 (25/50), the supervisor assigned to both; at T1 a game seated at NOON, its chair 1
    (South) "Player 1" with 3000."""
    people, t1, t2 = staff()
    t2.staff.add(people["supervisor"])
    game = seat(t1, people["supervisor"], capital=[5000, 3000, 2000, 4000])
    player = game.players.get(chair=1).patron
    return people, t1, t2, game, player


def seat_at_t2(t2, supervisor, player: Patron, capital: int):
    return services.start_game(table=t2, user=supervisor, first_banker=0, at=NOON + MINUTE, players=[
        {"chair": 0, "patron": player.pk, "capital": capital}] + [
        {"chair": chair, "name": f"Guest {chair}", "capital": 1000} for chair in (1, 2, 3)])


def test_c2_one_buy_in_at_the_threshold_by_an_identified_player_raises_a_large_transaction(money):
    people, t1, t2, game, player = money
    identify(player, people["supervisor"])
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=496_999,
                        at=NOON + MINUTE)
    assert rules_raised() == []  # 3000 + 496,999: one short of it
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=1,
                        at=NOON + 2 * MINUTE)
    assert "large_transaction" in rules_raised()
    alert = Alert.objects.get(rule="large_transaction")
    assert alert.params == {"table": "T1", "chair": 2, "kind": "buy_in", "amount": 1, "total": 500_000,
                            "threshold": 500_000, "patron": player.pk}
    assert alert.severity == "warning" and alert.movement.amount == 1 and alert.table == t1


def test_c2_a_single_movement_at_the_threshold_is_no_structuring(money):
    people, t1, t2, game, player = money
    identify(player, people["supervisor"])
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=500_000,
                        at=NOON + MINUTE)
    assert rules_raised() == ["large_transaction"]


def test_c2_the_day_total_adds_the_players_buy_ins_at_two_tables(money):
    """3000 at T1's seating, 300,000 at T2's, then 197,000 at T1: 500,000 over the gaming day; each
    below the threshold, so it is structuring too. One alert of each for the player's day."""
    people, t1, t2, game, player = money
    identify(player, people["supervisor"])
    seat_at_t2(t2, people["supervisor"], player, 300_000)
    assert rules_raised() == []
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=197_000,
                        at=NOON + 2 * MINUTE)
    assert rules_raised() == ["large_transaction", "structuring"]
    large, structuring = Alert.objects.order_by("seq")
    assert (large.params["total"], large.table) == (500_000, t1)
    assert (structuring.params["count"], structuring.params["total"], structuring.params["largest"]) == (
        3, 500_000, 300_000)
    assert structuring.key == large.key == f"patron:{player.pk}:day:2026-11-21:buy_in"
    assert alert_message(structuring) == ("Table T1, chair 2: 3 buy-ins of the player this gaming day, each below "
                                          "the large-transaction threshold of 500000, add up to 500000.")
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=10,
                        at=NOON + 3 * MINUTE)
    assert Alert.objects.count() == 2  # the player's day stands already


def test_c2_buy_ins_and_cash_outs_are_counted_apart(money):
    people, t1, t2, game, player = money
    identify(player, people["supervisor"])
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=400_000,
                        at=NOON + MINUTE)
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="cash_out", amount=400_000,
                        at=NOON + 2 * MINUTE)
    assert rules_raised() == []  # 403,000 in, 400,000 out


def test_c2_a_refused_movement_of_a_player_not_identified_raises_the_alert_and_his_identification_adds_none(money):
    people, t1, t2, game, player = money
    with pytest.raises(Refused):
        services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=497_000,
                            at=NOON + MINUTE)
    refusal = MovementRefusal.objects.get()
    alert = Alert.objects.get()
    assert alert.rule == "large_transaction" and alert.params == {
        "table": "T1", "chair": 2, "kind": "buy_in", "amount": 497_000, "total": 500_000, "threshold": 500_000,
        "patron": player.pk, "refused": refusal.pk}
    assert "was refused" in alert_message(alert) and "not identified" in alert_message(alert)
    identify(player, people["supervisor"])
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=497_000,
                        at=NOON + 2 * MINUTE)
    # The same condition: no second large transaction (3000 and 497,000, each below it: structuring).
    assert list(Alert.objects.values_list("rule", flat=True).order_by("seq")) == ["large_transaction", "structuring"]


def test_c2_no_alert_names_a_player_or_his_document_only_his_id(money, client):
    """Alert params are chained and outlive the player's personal data: his id only. The alerts'
    page says his name to an inspector, and links to his page."""
    people, t1, t2, game, player = money
    with pytest.raises(Refused):
        services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=600_000,
                            at=NOON + MINUTE)
    identify(player, people["supervisor"])
    seat_at_t2(t2, people["supervisor"], player, 300_000)
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in", amount=600_000,
                        at=NOON + 2 * MINUTE)
    chained = json.dumps([alert.params for alert in Alert.objects.all()])
    assert Alert.objects.exists() and "Player 1" not in chained and "K12345678" not in chained
    assert alert_selectors.player_names(people["inspector"], list(Alert.objects.all())) == {player.pk: "Player 1"}
    client.force_login(people["inspector"])
    page = client.get("/floor/alerts/?state=all").content.decode()
    assert "Player 1" in page and f"/pit/players/{player.pk}/" in page


def test_c2_a_refused_seating_of_a_new_player_at_the_threshold_raises_its_own_alert(money):
    people, t1, t2, game, player = money
    with pytest.raises(Refused):
        services.start_game(table=t2, user=people["supervisor"], first_banker=0, at=NOON + MINUTE, players=[
            {"chair": 0, "name": "Mr Leong", "capital": 500_000}] + [
            {"chair": chair, "name": f"Guest {chair}", "capital": 1000} for chair in (1, 2, 3)])
    refusal = MovementRefusal.objects.get()
    alert = Alert.objects.get()
    assert (alert.rule, alert.table, alert.key) == ("large_transaction", t2, f"movement_refusal:{refusal.pk}")
    assert alert.params["patron"] is None and alert.params["refused"] == refusal.pk
    assert alert_message(alert).startswith("Table T2, chair 1: a buy-in of 500000 was refused")
