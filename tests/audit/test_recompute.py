"""`manage.py audit_recompute`: the whole ledger (or some gaming days) re-scored by the engine;
exit 0 when every stored figure is the engine's, 1 naming each difference."""
import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.builders.audit import plant, varied_day
from tests.builders.pit import NOON

pytestmark = pytest.mark.django_db


def recompute(*args) -> str:
    out = StringIO()
    call_command("audit_recompute", "--workers", "1", "--no-progress", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_a_clean_ledger_exits_0_with_its_totals():
    varied_day()

    out = recompute()

    assert "5 ledger rows re-scored (5 current jogos, 3 won)" in out
    assert "commission recorded 30, per the regulation (Art. 8) 30; 0 difference(s)" in out


def test_a_planted_difference_is_named_and_exits_1():
    people, t1, game, rows = varied_day()
    planted = plant(game, people["dealer"], commission=20)
    out = StringIO()

    with pytest.raises(CommandError) as failed:
        call_command("audit_recompute", "--workers", "1", "--no-progress", stdout=out)

    assert failed.value.returncode == 1
    lines = [line for line in out.getvalue().splitlines() if line.startswith("DIFFERENCE")]
    assert lines == [f"DIFFERENCE table T1, game {game.pk}, jogo {planted.number} (id {planted.pk}): "
                     "commission recorded 20, recomputed 10"]


def test_from_and_to_limit_the_re_audit_to_those_gaming_days():
    people, t1, game, rows = varied_day()
    plant(game, people["dealer"], at=NOON + dt.timedelta(days=1), commission=20)

    assert "0 difference(s)" in recompute("--from", "2026-11-21", "--to", "2026-11-21")
    with pytest.raises(CommandError):
        recompute("--from", "2026-11-22")


def test_every_revision_is_re_scored_and_only_the_current_counts_for_the_commission():
    from casino.pit import services
    people, t1, game, rows = varied_day()
    amendment = services.propose_amendment(jogo=rows[0], user=people["supervisor"], reason="camera review",
                                          record={**rows[0].record, "winner": "W", "discarder": "N"})
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)

    out = recompute()

    assert "ledger rows re-scored (5 current jogos, 3 won)" in out and "0 difference(s)" in out
    assert int(out.split(" ledger rows")[0].split()[-1]) > 5


def test_an_unreadable_date_names_the_option():
    with pytest.raises(CommandError, match="--from: not a date"):
        recompute("--from", "21/11/2026")


@pytest.mark.parametrize("stored, field", [
    ({"fan": 2}, "fan"), ({"declared_fan": 1}, "declared_fan"), ({"fan_mismatch": True}, "fan_mismatch"),
    ({"capped": True}, "capped"), ({"pay_all": True}, "pay_all"), ({"winner_chair": 3}, "winner_chair"),
    ({"result": "draw"}, "result"), ({"round_wind": "S"}, "round_wind"),
    ({"capital_after": [5000, 3000, 2000, 4000]}, "capital_after"),
    ({"capital_before": [5000, 3000, 2000, 4001]}, "capital_before"),
])
def test_each_stored_figure_is_checked_against_the_engine(stored, field):
    people, t1, game, rows = varied_day()
    planted = plant(game, people["dealer"], **stored)
    out = StringIO()

    with pytest.raises(CommandError):
        call_command("audit_recompute", "--workers", "1", "--no-progress", stdout=out)

    found = [line for line in out.getvalue().splitlines() if line.startswith("DIFFERENCE")]
    assert len(found) == 1 and f"jogo {planted.number} (id {planted.pk}): {field} recorded" in found[0]
