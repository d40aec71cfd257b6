"""The demo casino of fixtures/demo.json: made by the real service, complete, and intact, under
the money rules the project ships (docs/rules.md §11): `make run` has no other settings."""
import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from casino.floor.models import Alert
from casino.pit import demo
from casino.pit.capital import minimum_capital
from casino.pit.management.commands.demo import FIXTURE
from casino.pit.models import Amendment, Game, Jogo, Movement, Patron, Refusal, Table

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]


def built_ledger():
    return [(j.table.number, j.number, j.revision, j.kind, j.outcome, j.capital_after)
            for j in Jogo.objects.select_related("table").order_by("table__number", "seq")]


def fixture_ledger():
    rows = json.loads(FIXTURE.read_text())
    tables = {row["pk"]: row["fields"]["number"] for row in rows if row["model"] == "pit.table"}
    jogos = sorted((row["fields"] for row in rows if row["model"] == "pit.jogo"),
                   key=lambda j: (tables[j["table"]], j["seq"]))
    return [(tables[j["table"]], j["number"], j["revision"], j["kind"], j["outcome"], j["capital_after"])
            for j in jogos]


def test_the_demo_day_shows_every_kind_of_jogo():
    demo.build()
    current = Jogo.objects.all()
    assert {0, 1, 2} <= set(current.filter(result="win").values_list("fan", flat=True))
    assert current.filter(result="draw").exists() and current.filter(result="false_win").exists()
    assert current.filter(pay_all=True).exists()
    assert current.filter(fan_mismatch=True).exists()
    assert Amendment.objects.get().state == Amendment.APPROVED and current.filter(kind=Jogo.AMENDED).exists()
    assert Refusal.objects.exists()
    assert {t.variant for t in Table.objects.all()} == {"conventional", "simplified"}
    assert Game.objects.filter(ended_at__isnull=False).exists()  # a whole game, through the North round


def test_the_demo_day_seats_every_player_with_the_minimum_witnessed_by_a_supervisor():
    demo.build()
    for game in Game.objects.select_related("table").prefetch_related("players"):
        seating = Movement.objects.filter(game=game, after_jogos=0, kind=Movement.BUY_IN)
        least = minimum_capital(game.table, game.players.count())
        assert all(m.amount >= least and m.recorded_by.username == "supervisor" and m.patron_id for m in seating)
    chan = Patron.objects.get(name="Mr Chan")
    assert chan.seats.count() == 2  # the same player, seated again by name


def test_the_committed_fixture_loads_with_an_intact_ledger():
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("verify_ledger", stdout=out)
    assert "loaded demo.json" in out.getvalue() and "ledger intact: 7 table(s) checked" in out.getvalue()
    assert Jogo.objects.filter(gaming_day=dt.date(2026, 11, 21), table__casino__name=demo.MACAU).count() == len(
        fixture_ledger())


@pytest.mark.casinos
def test_the_demo_is_a_group_of_two_casinos_each_person_given_where_he_works():
    """Issue 26 §4: the demo's second casino has its own people and a played day; the inspector and
    the manager are given both, and see the group's tables; a dealer sees his casino's only."""
    from django.contrib.auth.models import User

    from casino.pit.access import visible_tables

    call_command("demo", stdout=StringIO())
    given = {person.username: sorted(casino.name for casino in person.casinos.all())
             for person in User.objects.prefetch_related("casinos")}
    assert given == {**{name: [demo.MACAU] for name in ("dealer", "dealer2", "supervisor", "counter", "counter2")},
                     "dealer3": [demo.TAIPA], "supervisor2": [demo.TAIPA],
                     "inspector": [demo.MACAU, demo.TAIPA], "manager": [demo.MACAU, demo.TAIPA]}
    taipa = Jogo.objects.filter(table__casino__name=demo.TAIPA, gaming_day=dt.date(2026, 11, 21))
    assert taipa.count() == 9 and set(taipa.values_list("table__number", flat=True)) == {"T-01", "T-02"}
    people = {person.username: person for person in User.objects.all()}
    assert {t.number for t in visible_tables(people["inspector"])} == {"C-01", "C-02", "C-03", "S-01", "S-02",
                                                                       "T-01", "T-02"}
    assert {t.number for t in visible_tables(people["dealer3"])} == {"T-01", "T-02"}
    assert not visible_tables(people["dealer"]).filter(casino__name=demo.TAIPA).exists()


def test_the_demo_records_today_s_floor_up_to_now_and_lists_every_account():
    out = StringIO()
    before = timezone.now()
    call_command("demo", stdout=out)
    today = Jogo.objects.filter(recorded_at__gt=before - dt.timedelta(days=1)).exclude(gaming_day=dt.date(2026, 11, 21))
    assert today.exists() and all(j.recorded_at <= timezone.now() for j in today)
    assert today.filter(pay_all=True).exists() and today.filter(result="false_win").exists()
    assert today.filter(fan_mismatch=True).exists()
    assert today.filter(recorded_by__username="supervisor", table__number="C-02").exists()  # covering
    assert Refusal.objects.filter(table__number="C-01", attempted_at__gt=before - dt.timedelta(days=1)).count() == 3
    # C-2: Mr Chan, identified, buys in 500,000; Mr Leong's three buy-ins below it at C-03 and C-02
    # make 510,000, and he is identified before the one that reaches it.
    chan, leong = Patron.objects.get(name="Mr Chan"), Patron.objects.get(name="Mr Leong")
    assert chan.identified and Movement.objects.filter(patron=chan, amount__gte=500_000).exists()
    assert leong.identified and leong.document_number == "K12345678"
    bought = Movement.objects.filter(patron=leong, kind=Movement.BUY_IN).select_related("table").order_by("seq")
    assert sorted((m.table.number, m.amount) for m in bought) == [
        ("C-02", 160_000), ("C-03", 150_000), ("C-03", 200_000)]
    assert len({m.gaming_day for m in bought}) == 1
    assert Alert.objects.get(rule="structuring").params | {} == {
        "table": "C-02", "chair": 1, "kind": "buy_in", "amount": 160_000, "total": 510_000, "threshold": 500_000,
        "patron": leong.pk, "count": 3, "largest": 200_000}
    assert set(Alert.objects.filter(rule="large_transaction").values_list("params__patron", flat=True)) == {
        chan.pk, leong.pk}
    assert set(Table.objects.filter(is_open=True).values_list("number", flat=True)) == {"C-01", "C-02", "S-01"}
    assert Game.objects.filter(ended_at__isnull=True).count() == 3
    listed = out.getvalue()
    for username, role in [("counter", "counter"), ("counter2", "counter"), ("dealer", "dealer"),
                           ("supervisor", "supervisor"), ("inspector", "inspector"), ("manager", "manager")]:
        assert any(line.split()[0] == username and line.split()[-1] == role
                   for line in listed.splitlines() if line.startswith("  "))
    assert "'mahjong-demo'" in listed


def test_the_committed_fixture_is_what_the_service_records():
    """If this fails, the service changed: regenerate the fixture with
    `manage.py demo --build --dump fixtures/demo.json` on an empty database."""
    demo.build()
    assert built_ledger() == fixture_ledger()
