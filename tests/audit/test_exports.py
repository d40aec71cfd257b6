"""Exports of a day or a range: the portable records (JSONL) round-trip through the scorer
`python -m regulation score --jsonl` to the stored outcomes; CSV and XLSX carry the figures."""
import csv
import io
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from openpyxl import load_workbook

from casino.audit.ledger import Days, current_revisions
from casino.pit import services
from tests.builders.audit import DAY, plant, record_next, varied_day
from tests.builders.pit import seat

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def inspector(client):
    def get(people, url):
        client.force_login(people["inspector"])
        response = client.get(url)
        assert response.status_code == 200
        return b"".join(response.streaming_content) if response.streaming else response.content
    return get


def a_busy_day():
    """The varied day, an amended jogo, and a capped win at a second table."""
    people, t1, game, rows = varied_day()
    amendment = services.propose_amendment(jogo=rows[4], user=people["supervisor"], reason="the dealer announced 0 fán",
                                          record={**rows[4].record, "declared_fan": 0})
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)
    from tests.builders.pit import table
    t3 = table("T3", stake=100)
    other = seat(t3, people["dealer"], capital=[5000, 150, 2000, 4000])
    record_next(other, people["dealer"])
    return people, t1, game


def test_exported_portable_records_round_trip_through_the_scorer(inspector, tmp_path):
    people, t1, game = a_busy_day()
    exported = inspector(people, "/audit/export/?format=jsonl&day=2026-11-21")
    path = tmp_path / "jogos.jsonl"
    path.write_bytes(exported)

    scored = subprocess.run([sys.executable, "-m", "regulation", "score", "--jsonl", str(path)], cwd=REPO,
                            capture_output=True, check=False)

    assert scored.returncode == 0, scored.stderr
    outputs = [msgspec.json.decode(line) for line in scored.stdout.splitlines()]
    stored = [row.outcome for row in current_revisions(Days(DAY, DAY))]
    assert len(outputs) == len(stored) == 6  # five at T1 (one of them amended), one at T3
    assert outputs == stored


def test_the_csv_has_a_row_per_current_jogo_with_the_recorded_and_the_regulations_commission(inspector):
    people, t1, game = a_busy_day()
    planted = plant(game, people["dealer"], commission=20)

    rows = list(csv.DictReader(io.StringIO(inspector(people, "/audit/export/?format=csv&day=2026-11-21")
                                            .decode())))

    assert len(rows) == 7
    by_jogo = {(r["table"], int(r["jogo"])): r for r in rows}
    assert by_jogo["T1", planted.number]["commission recorded"] == "20"
    assert by_jogo["T1", planted.number]["commission per Art. 8"] == "10"
    assert by_jogo["T1", 5]["revision"] == "1" and by_jogo["T1", 5]["kind"] == "amended"
    assert by_jogo["T3", 1]["cap bound"] == "1" and by_jogo["T3", 1]["tier X (of X/2X)"] == "100"
    assert sum(int(r["commission per Art. 8"]) for r in rows) == 80  # 4 wins at T1 × 10, 1 at T3 × 40
    assert by_jogo["T1", 1]["ledger hash"] == game.jogos.get(number=1).hash


def test_the_xlsx_has_the_jogos_the_commission_audit_and_the_differences(inspector):
    people, t1, game = a_busy_day()
    planted = plant(game, people["dealer"], commission=20)

    book = load_workbook(io.BytesIO(inspector(people, "/audit/export/?format=xlsx&from=2026-11-21&to=2026-11-21")))

    assert book.sheetnames == ["Jogos", "Commission", "Differences"]
    jogos = list(book["Jogos"].values)
    assert len(jogos) == 1 + 7
    commission = {row[0]: row for row in book["Commission"].values}
    # table, variant, tier X, rate, jogos, won recorded, commission recorded, won per engine, per regulation, diff,
    # and the rule set that scored the jogos
    assert commission["T1"][2:] == (25, 10, 6, 4, 50, 4, 40, 10, "portaria-135-91-M", 1)
    assert commission["T3"][2:] == (100, 40, 1, 1, 40, 1, 40, 0, "portaria-135-91-M", 1)
    assert commission["All tables"][6:] == (90, 5, 80, 10, None, None)
    differences = list(book["Differences"].values)
    assert differences[1:] == [("T1", game.pk, planted.number, 0, "commission", 20, 10)]
