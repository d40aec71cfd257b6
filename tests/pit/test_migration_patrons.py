"""Migration pit/0016 on a database whose players were free text: each casino's name becomes one
patron; a name seated twice in one game, which the pit allowed then, becomes two patrons, so that
no game has one patron in two chairs; the ledger's chains still check."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.builders.pit import NOON

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_free_text_players_become_patrons():
    apps = _migrate([("pit", "0015_table_area")])
    User = apps.get_model("auth", "User")
    Casino, Table = apps.get_model("pit", "Casino"), apps.get_model("pit", "Table")
    Game, Player = apps.get_model("pit", "Game"), apps.get_model("pit", "Player")
    dealer = User.objects.create(username="old_dealer")
    casino = Casino.objects.create(name="Casino of old")
    table = Table.objects.create(casino=casino, number="OLD-1", variant="conventional", stake=25)
    first = Game.objects.create(table=table, first_banker=0, started_at=NOON, started_by=dealer)
    second = Game.objects.create(table=table, first_banker=0, started_at=NOON.replace(hour=14), started_by=dealer)
    for game, names in ((first, ["Lei", "Lei", "Chan", "Wong"]), (second, ["Lei", "Chan", "Ho", "Wong"])):
        for chair, name in enumerate(names):
            Player.objects.create(game=game, chair=chair, name=name)

    executor = MigrationExecutor(connection)
    _migrate(executor.loader.graph.leaf_nodes())

    from casino.pit.models import Patron, Player as Seat

    seats = {(seat.game_id, seat.chair): seat.patron for seat in Seat.objects.select_related("patron")}
    assert seats[first.pk, 0] != seats[first.pk, 1]  # one name, two chairs of one game: two patrons
    assert {seats[first.pk, 0].name, seats[first.pk, 1].name} == {"Lei"}
    assert seats[second.pk, 0] == seats[first.pk, 0]  # the first Lei plays on in the next game
    assert seats[second.pk, 1] == seats[first.pk, 2]  # Chan
    assert Patron.objects.filter(casino__name="Casino of old").count() == 5  # Lei ×2, Chan, Wong, Ho
    assert all(patron.created_by.username == "old_dealer" for patron in Patron.objects.all())
