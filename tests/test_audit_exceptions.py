"""The exception queue: each kind appears, and each entry links to its jogo."""
import pytest

from casino.audit.selectors import Days, exceptions
from casino.pit import service
from tests.audit import DAY, plant, record, varied_day
from tests.pit import DRAW, seat, staff

pytestmark = pytest.mark.django_db

TODAY = Days(DAY, DAY)


def kinds(entries) -> set[str]:
    return {entry.kind for entry in entries}


def test_art_6_a_declared_grade_that_differs_from_the_computed_one_is_queued():
    people, t1, game, rows = varied_day()

    entry, = exceptions(TODAY, "fan_mismatch")

    assert (entry.jogo_id, entry.number, entry.table) == (rows[4].pk, 5, "T1")
    assert "declared 2 fán, computed 0" in entry.detail


def test_an_amendment_is_queued_with_who_proposed_who_decided_and_why():
    people, t1, game, rows = varied_day()
    amendment = service.propose_amendment(rows[1], people["supervisor"], reason="camera review 12:05",
                                          record={**rows[1].record, "declared_fan": None})
    service.decide_amendment(amendment, people["supervisor2"], approve=True)
    amendment.refresh_from_db()

    entry, = exceptions(TODAY, "amendment")

    assert entry.jogo_id == amendment.revision_id and entry.number == 2
    assert all(word in entry.detail for word in ("supervisor", "supervisor2", "camera review 12:05", "approved"))


def test_art_10_a_pay_all_is_queued():
    people, t1, game, rows = varied_day()

    entry, = exceptions(TODAY, "pay_all")

    assert entry.jogo_id == rows[3].pk and "10(a)(1)" in entry.detail


def test_art_10_a_false_win_is_queued():
    people, t1, game, rows = varied_day()

    entry, = exceptions(TODAY, "false_win")

    assert entry.jogo_id == rows[2].pk and "N" in entry.detail


def test_art_9_a_4_a_win_where_the_capital_cap_bound_is_queued():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 80, 2000, 4000])  # South (chair 1) has 80 at stake
    capped = record(game, people["dealer"])  # South wins 100 in dues, receives 80

    entry, = exceptions(TODAY, "capped")

    assert entry.jogo_id == capped.pk and "80" in entry.detail


def test_a_gap_in_the_jogo_numbers_and_the_ledger_sequence_is_queued():
    people, t1, game, rows = varied_day()
    # A row arrives one place, one number and one ledger position too far on: 6 and seq 10 are missing.
    last = rows[-1]
    planted = plant(game, people["dealer"], number=last.number + 2, position=last.position + 2, seq=last.seq + 2)

    entries = exceptions(TODAY, "sequence_gap")

    details = {entry.detail for entry in entries}
    assert any("jogo number 6 is missing" in d for d in details)
    assert any(f"ledger seq {last.seq + 1} is missing" in d for d in details)
    assert any(f"place {last.position + 2}" in d for d in details)
    assert {entry.jogo_id for entry in entries} == {planted.pk}


def test_art_3_a_banker_that_the_games_progress_does_not_give_is_a_rotation_anomaly():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    first = record(game, people["dealer"])  # South wins: the bank passes to chair 1 (Art. 3)
    second = record(game, people["dealer"], **DRAW)  # played with chair 1 as banker
    # The amendment says the banker (East) won jogo 1 after all: the bank should have stayed at
    # chair 0 (I-1), but jogo 2 keeps the seats it was played with.
    corrected = {**first.record, "winner": "E", "discarder": "W"}
    amendment = service.propose_amendment(first, people["supervisor"], record=corrected, reason="the banker won")
    service.decide_amendment(amendment, people["supervisor2"], approve=True)

    entry, = exceptions(TODAY, "rotation")

    assert entry.number == second.number and entry.revision == 1
    assert "banker in chair 2; the game's progress gives chair 1" in entry.detail


def test_a_flag_raised_by_an_inspector_is_queued():
    people, t1, game, rows = varied_day()
    service.flag(rows[0], people["inspector"], note="winner's hand looks short on the video")

    entry, = exceptions(TODAY, "flag")

    assert entry.jogo_id == rows[0].pk
    assert "inspector" in entry.detail and "short on the video" in entry.detail


def test_a_row_whose_stored_figures_are_not_the_engines_is_queued():
    people, t1, game, rows = varied_day()
    planted = plant(game, people["dealer"], commission=20)

    entry, = exceptions(TODAY, "difference")

    assert entry.jogo_id == planted.pk and "commission recorded 20, the engine gives 10" in entry.detail


def test_the_whole_queue_has_every_kind_found_and_a_clean_day_has_only_the_ordinary_ones():
    people, t1, game, rows = varied_day()

    assert kinds(exceptions(TODAY)) == {"fan_mismatch", "pay_all", "false_win"}
    assert all(entry.jogo_id for entry in exceptions(TODAY))
