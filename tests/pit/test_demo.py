"""The demo casino of fixtures/demo.json: made by the real service, complete, and intact."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from casino.pit import demo
from casino.pit.management.commands.demo import FIXTURE
from casino.pit.models import Amendment, Game, Jogo, Refusal, Table

pytestmark = pytest.mark.django_db


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
    assert current.filter(pay_all=True).exists() and current.filter(capped=True).exists()
    assert current.filter(fan_mismatch=True).exists()
    assert Amendment.objects.get().state == Amendment.APPROVED and current.filter(kind=Jogo.AMENDED).exists()
    assert Refusal.objects.exists()
    assert {t.variant for t in Table.objects.all()} == {"conventional", "simplified"}
    assert Game.objects.filter(ended_at__isnull=False).exists()  # a whole game, through the North round


def test_the_committed_fixture_loads_with_an_intact_ledger():
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("verify_ledger", stdout=out)
    assert "loaded demo.json" in out.getvalue() and "ledger intact: 5 table(s) checked" in out.getvalue()
    assert Jogo.objects.count() == len(fixture_ledger())


def test_the_committed_fixture_is_what_the_service_records():
    """If this fails, the service changed: regenerate the fixture with
    `manage.py demo --build --dump fixtures/demo.json` on an empty database."""
    demo.build()
    assert built_ledger() == fixture_ledger()
