"""The exception queue: each kind appears, and each entry links to its jogo."""
import datetime as dt

import pytest
from django.db.models import Q

from casino.audit.exceptions import Kind, count_by_kind, exceptions
from casino.audit.ledger import Days
from casino.pit import errors, selectors, services
from casino.pit.demo import FALSE_WIN, PAY_ALL
from casino.pit.models import Casino, Table
from casino.pit.roles import INSPECTOR
from casino.reports.selectors import APPENDIX_ORDER, daily_summary
from tests.builders.audit import DAY, plant, record_next, varied_day
from tests.builders.pit import DRAW, NOON, seat, staff, user

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
    amendment = services.propose_amendment(jogo=rows[1], user=people["supervisor"], reason="camera review 12:05",
                                          record={**rows[1].record, "declared_fan": 0})
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)
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
    capped = record_next(game, people["dealer"])  # South wins 100 in dues, receives 80

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
    first = record_next(game, people["dealer"])  # South wins: the bank passes to chair 1 (Art. 3)
    second = record_next(game, people["dealer"], **DRAW)  # played with chair 1 as banker
    # The amendment says the banker (East) won jogo 1 after all: the bank should have stayed at
    # chair 0 (I-1), but jogo 2 keeps the seats it was played with.
    corrected = {**first.record, "winner": "E", "discarder": "W"}
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], record=corrected,
                                           reason="the banker won")
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)

    entry, = exceptions(TODAY, "rotation")

    assert entry.number == second.number and entry.revision == 1
    # Chairs as people count them, 1–4, with the players' names.
    assert "banker Player 1 in chair 2; the game's progress gives Player 0 in chair 1 (I-1)" in entry.detail


def test_a_flag_raised_by_an_inspector_is_queued():
    people, t1, game, rows = varied_day()
    services.flag(jogo=rows[0], user=people["inspector"], note="winner's hand looks short on the video")

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


def test_a_refused_record_of_the_day_is_queued_with_who_tried_and_why():
    people, t1, game, rows = varied_day()
    with pytest.raises(errors.Refused):
        services.record_jogo(table=t1, user=people["dealer"],
                             record={**selectors.record_header(game), **DRAW, "stake": 50},
                            at=NOON.replace(hour=13))
    with pytest.raises(errors.Refused):  # the next gaming day: not in this day's queue
        services.record_jogo(table=t1, user=people["dealer"],
                             record={**selectors.record_header(game), **DRAW, "stake": 50},
                            at=NOON + dt.timedelta(days=1))

    entry, = exceptions(TODAY, "refusal")

    assert (entry.table, entry.number, entry.jogo_id, entry.gaming_day) == ("T1", None, None, DAY)
    assert entry.detail.startswith("13:00, dealer: ") and "Art. 8" in entry.detail and "25/50" in entry.detail
    assert entry.detail.endswith(" (not yet confirmed)")
    assert "refusal" in kinds(exceptions(TODAY))

    services.confirm_refusal(refusal=t1.refusals.earliest("attempted_at"), user=people["supervisor"],
                            note="stake mistyped")
    entry, = exceptions(TODAY, "refusal")
    assert entry.detail.endswith(" (confirmed by supervisor: stake mistyped)")


def test_the_queue_names_players_not_seat_letters():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 80, 2000, 4000])
    record_next(game, people["dealer"])  # South (Player 1) wins, capped at his 80; the bank passes to chair 1
    record_next(game, people["dealer"], **PAY_ALL)  # banker now Player 1; West (Player 3) pays for the losers
    # South won again: the bank is at chair 2, so North is chair 1's Player 1.
    record_next(game, people["dealer"], **{**FALSE_WIN, "winner": None, "discarder": None, "hand": None})

    texts = {entry.kind: entry.detail for entry in exceptions(TODAY)}

    assert texts["capped"] == "the winner, South · Player 1, receives at most his capital at stake, 80"
    assert texts["pay_all"] == "Art. 10(a)(1): West · Player 3 pays for the losers"
    assert texts["false_win"] == "North · Player 1 declared a win without a valid hand (jogo nulo)"


def test_the_queue_page_counts_each_kind_and_names_the_players(client):
    people, t1, game, rows = varied_day()
    client.force_login(people["inspector"])

    page = client.get("/audit/exceptions/?day=2026-11-21&kind=pay_all").content.decode()

    counts = {kind: count for kind, label, count in count_by_kind(exceptions(TODAY))}
    assert [(kind, count) for kind, label, count in count_by_kind(exceptions(TODAY)) if count] == [
        ("fan_mismatch", 1), ("pay_all", 1), ("false_win", 1)]
    assert len(counts) == 16  # every kind, those with none too
    assert 'class="count-false_win"' in page and "?kind=false_win&amp;from=2026-11-21" in page
    assert "West · Player 3 pays for the losers" in page and " W pays" not in page  # the bank is at chair 1


def test_the_audit_opens_on_the_latest_gaming_day_with_activity(client):
    people, t1, game, rows = varied_day()  # jogos on 2026-11-21
    client.force_login(people["inspector"])
    assert 'value="2026-11-21"' in client.get("/audit/").content.decode()
    assert "Gaming days 2026-11-21" in client.get("/audit/").content.decode()

    with pytest.raises(errors.Refused):  # a refused record two days on is activity too
        services.record_jogo(table=t1, user=people["dealer"],
                             record={**selectors.record_header(game), **DRAW, "stake": 50},
                            at=NOON + dt.timedelta(days=2))

    assert "Gaming days 2026-11-23" in client.get("/audit/").content.decode()


def test_the_audit_of_an_empty_database_asks_for_a_day(client):
    client.force_login(user("inspector", INSPECTOR))

    page = client.get("/audit/").content.decode()

    assert "One gaming day" in page and "Gaming days" not in page and "0 open flags" in page


def test_a_difference_names_the_figure_in_peoples_words_with_chairs_1_to_4():
    people, t1, game, rows = varied_day()
    planted = plant(game, people["dealer"], capped=True, winner_chair=3)  # South, chair 0 (1 to people), won

    entry, = exceptions(TODAY, "difference")

    assert entry.jogo_id == planted.pk
    assert "winner's chair recorded 4, the engine gives 1" in entry.detail
    assert "capital cap bound recorded yes, the engine gives no" in entry.detail
    assert "winner_chair" not in entry.detail and "True" not in entry.detail


def test_the_daily_report_counts_and_lists_what_the_queue_finds_at_its_casino():
    """One finder per kind: the report's appendix holds the queue's entries of the kinds it lists,
    at its own casino only; its counts are the queue's."""
    people, t1, game, rows = varied_day()
    services.flag(jogo=rows[0], user=people["inspector"], note="winner's hand looks short on the video")
    amendment = services.propose_amendment(jogo=rows[1], user=people["supervisor"], reason="camera review",
                                           record={**rows[1].record, "declared_fan": 0})
    with pytest.raises(errors.Refused):
        services.record_jogo(table=t1, user=people["dealer"],
                             record={**selectors.record_header(game), **DRAW, "stake": 50}, at=NOON.replace(hour=13))
    elsewhere = Casino.objects.create(name="Casino Macau")
    Table.objects.filter(number="T2").update(casino=elsewhere)
    t2 = Table.objects.get(number="T2")
    record_next(seat(t2, people["other_dealer"]), people["other_dealer"], **PAY_ALL)

    queue = exceptions(TODAY)
    report = daily_summary(t1.casino, DAY).exceptions

    listed = {(line.table, line.number, line.kind) for line in report.jogos}
    assert listed == {(e.table, e.number, e.kind) for e in queue if e.table == "T1" and e.kind in APPENDIX_ORDER}
    assert {kind for _table, _number, kind in listed} == {"fan_mismatch", "pay_all", "false_win", "flag", "amendment"}
    assert [e.kind for e in queue if e.table == "T2"] == ["pay_all"]
    assert (report.pay_alls, report.false_wins, report.fan_mismatches, report.flags, report.amendments,
            report.amendments_pending, report.refusals) == (1, 1, 1, 1, 1, 1, 1)
    assert [refusal.pk for refusal in report.refused] == [e.facts["refusal"].pk for e in queue if e.kind == "refusal"]
    assert amendment.state == amendment.PENDING


def test_a_kind_is_found_by_a_mark_or_by_a_finder_never_both():
    with pytest.raises(ValueError):
        Kind("twice", describe=str, marked=Q(capped=True), find=lambda scope: [])
    with pytest.raises(ValueError):
        Kind("never", describe=str)
