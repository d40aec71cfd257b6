"""The ledger's guarantees: amendments (maker/checker) that recompute balances forward, the
hash chain and `verify_ledger`, the database's refusal to change ledger rows (PostgreSQL), and
gapless numbering under concurrent recording (PostgreSQL)."""
import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections, transaction

from casino.pit import errors, scoring, selectors, services
from casino.pit.models import Amendment, Jogo, Movement, Table
from casino.pit.services import ledger
from tests.builders.ledger import behind_the_applications_back, on_postgresql
from tests.builders.pit import DRAW, NOON, next_record, seat, staff


@pytest.fixture
def played(db):
    """Three jogos: South wins, a draw, then the new banker wins with a self-drawn dragon pong."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    rows = [services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **fields), at=NOON)[0]
            for fields in ({}, DRAW, {"winner": "E", "discarder": None, "declared_fan": 1,
                                      "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}})]
    return people, t1, game, rows


def verify() -> str:
    from io import StringIO
    out = StringIO()
    call_command("verify_ledger", stdout=out, stderr=out)
    return out.getvalue()


def test_an_amendment_adds_a_revision_and_recomputes_the_balances_from_it_forward(played):
    people, t1, game, (first, draw, third) = played
    # The dealer recorded West as discarder; it was North. Same fán, so the figures of jogo 1
    # do not change, but say the winner was really West (chair 2) on North's discard.
    corrected = {**first.record, "winner": "W", "discarder": "N"}
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], record=corrected,
                                          reason="Wrong winner keyed; camera review 12:05", at=NOON)

    with pytest.raises(errors.Refused) as own:
        services.decide_amendment(amendment=amendment, user=people["supervisor"], approve=True)
    assert own.value.problems[0].code == "own_amendment"
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True, at=NOON)

    revisions = list(Jogo.objects.filter(table=t1, number=1).order_by("revision"))
    assert [r.revision for r in revisions] == [0, 1]
    assert revisions[0].capital_after == [4950, 3090, 1975, 3975]  # the original stays readable
    # West (chair 2) wins a chicken hand: East pays 50, South and North 25 each; commission 10.
    assert revisions[1].capital_after == [4950, 2975, 2090, 3975]
    assert (revisions[1].kind, revisions[1].reason, revisions[1].recorded_by, revisions[1].approved_by) == (
        Jogo.AMENDED, "Wrong winner keyed; camera review 12:05", people["supervisor"], people["supervisor2"])
    # Jogos 2 and 3 were played with the seats they had; their capital is carried forward.
    carried = {r.number: r for r in selectors.current_jogos(game)}
    assert carried[2].kind == carried[3].kind == Jogo.CARRIED
    assert carried[2].capital_before == [4950, 2975, 2090, 3975]
    assert carried[3].record["capital"] == {"E": 2975, "S": 2090, "W": 3975, "N": 4950}
    # Jogo 3: the banker (chair 1) self-draws a red dragon pong, 1 fán: 2X = 50 doubled from
    # each of three losers = 300, less commission 10.
    assert carried[3].capital_after == [4850, 3265, 1990, 3875]
    assert selectors.standing(game).capital == [4850, 3265, 1990, 3875]
    assert "intact" in verify()


def test_an_amendment_is_checked_by_the_engine_when_proposed(played):
    people, t1, game, (first, *_) = played
    with pytest.raises(errors.Refused) as refused:
        services.propose_amendment(jogo=first, user=people["supervisor"], reason="typo",
                                  record={**first.record, "hand": {"concealed": "345m678p234s99m11p",
                                                                   "winning_tile": "9p"}})
    assert "not_a_winning_hand" in {p.code for p in refused.value.problems}
    assert not Amendment.objects.exists()
    with pytest.raises(errors.Refused) as refused:
        services.propose_amendment(jogo=first, user=people["supervisor"], reason="  ", record=first.record)
    assert refused.value.problems[0].field == "reason"


def test_a_rejected_amendment_changes_nothing_and_cannot_be_decided_twice(played):
    people, t1, game, (first, *_) = played
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="r",
                                          record={**first.record, "discarder": "N"})
    with pytest.raises(errors.Refused) as refused:
        services.decide_amendment(amendment=amendment, user=people["manager"], approve=False, reason=" ")
    assert refused.value.problems[0].field == "reason"
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=False,
                              reason="the camera shows West")
    amendment.refresh_from_db()
    assert (amendment.state, amendment.decision_reason) == (Amendment.REJECTED, "the camera shows West")
    assert Jogo.objects.filter(number=1).count() == 1
    with pytest.raises(errors.Refused) as refused:
        services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)
    assert refused.value.problems[0].code == "decided"


def test_a_correction_identical_to_the_recorded_jogo_is_refused_however_it_is_written(played):
    people, t1, game, (first, draw, third) = played
    rewritten = {**first.record, "hand": {"concealed": "99m543m11p876p432s", "winning_tile": "1p"},
                 "capital": {seat: str(amount) for seat, amount in first.record["capital"].items()}}
    for row, same in ((first, first.record), (first, rewritten),
                      (third, {**third.record, "conditions": [], "conduct": [], "claimants": []})):
        with pytest.raises(errors.Refused) as refused:
            services.propose_amendment(jogo=row, user=people["supervisor"], reason="r", record=same)
        assert refused.value.problems[0].code == "identical"
    assert not Amendment.objects.exists()
    # Only the declared grade changes: the record differs (no longer a mismatch), a real correction.
    assert services.propose_amendment(jogo=third, user=people["supervisor"], reason="announced 1 fán",
                                     record={**third.record, "declared_fan": 0})


def test_a_correction_preview_lists_the_later_jogos_it_carries_and_writes_nothing(played):
    people, t1, game, (first, draw, third) = played
    seqs = list(Jogo.objects.values_list("seq", flat=True))
    correction = services.preview_amendment(jogo=first, record={**first.record, "winner": "W", "discarder": "N"})
    assert correction.amended.capital_after == [4950, 2975, 2090, 3975]
    assert [(before.number, after.kind) for before, after in correction.carried] == [(2, Jogo.CARRIED),
                                                                                    (3, Jogo.CARRIED)]
    assert correction.carried[-1][1].capital_after == [4850, 3265, 1990, 3875]
    assert list(Jogo.objects.values_list("seq", flat=True)) == seqs and not Amendment.objects.exists()


def test_a_correction_leaving_negative_capital_is_refused_when_proposed(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 100, 2000, 4000])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game),
                                    at=NOON)  # South: 100 → 190
    services.move_money(game=game, user=people["dealer"], chair=1, kind=Movement.CASH_OUT, amount=190)
    with pytest.raises(errors.Refused) as refused:
        services.propose_amendment(jogo=first, user=people["supervisor"], reason="it was a draw",
                                  record={**first.record, **DRAW})
    assert refused.value.problems[0].code == "capital"
    assert not Amendment.objects.exists()


def test_verify_ledger_passes_an_intact_ledger(played):
    assert "ledger intact: 2 table(s) checked" in verify()


def test_verify_ledger_names_the_row_changed_directly_in_the_database(played):
    people, t1, game, (first, draw, third) = played
    behind_the_applications_back("UPDATE pit_jogo SET commission = 0 WHERE id = %s", [third.pk])

    with pytest.raises(CommandError) as failed:
        verify()
    assert f"table T1 (Casino Lisboa), jogo 3 (ledger seq 7, id {third.pk})" in str(failed.value)
    assert "changed after recording" in str(failed.value)


def test_verify_ledger_catches_a_changed_row_whose_hash_was_recomputed(played):
    """A row given a new hash (as if recomputed after an edit) breaks its own check and the next
    row's link to it."""
    people, t1, game, (first, draw, third) = played
    behind_the_applications_back("UPDATE pit_jogo SET hash = %s WHERE id = %s", ["f" * 64, draw.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert "jogo 2 (ledger seq 6" in str(failed.value)


def test_verify_ledger_catches_a_deleted_row(played):
    people, t1, game, (first, draw, third) = played
    behind_the_applications_back("DELETE FROM pit_jogo WHERE id = %s", [draw.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert "ledger seq 6 is missing" in str(failed.value)


@on_postgresql
@pytest.mark.parametrize("statement", ["UPDATE pit_jogo SET commission = 0", "DELETE FROM pit_jogo",
                                       "TRUNCATE pit_jogo CASCADE", "UPDATE pit_movement SET amount = 1",
                                       "DELETE FROM pit_movement", "TRUNCATE pit_movement CASCADE"])
def test_postgresql_itself_refuses_to_change_the_ledger(played, statement):
    from django.db.utils import DatabaseError
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # check the test's own inserts now, not at commit
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert Jogo.objects.count() == 3 and Movement.objects.count() == 4


@on_postgresql
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_concurrent_recording_keeps_numbers_gapless_and_loses_no_update():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])

    # Twelve draws, each posted twice (a retried request) from different threads at once.
    draws = [(next_record(game, **DRAW), f"draw-{i}") for i in range(12)]
    outcomes = race(t1, people["dealer"], draws + draws)
    created = {key: number for kind, key, number in outcomes if kind == "created"}
    retried = {key: number for kind, key, number in outcomes if kind == "retry"}
    assert sorted(created.values()) == list(range(1, 13))  # gapless, no number twice
    assert created == retried  # every retry got the jogo its first post made, no duplicate

    # Six dealers race to record the same win, each with the capital he read before it.
    outcomes = race(t1, people["dealer"], [(next_record(game), None)] * 6)
    assert sorted(kind for kind, *_ in outcomes) == ["created"] + ["refused"] * 5
    assert all(codes == ["capital"] * 4 for kind, _, codes in outcomes if kind == "refused")
    # The one win moved the money once: no lost or doubled balance update.
    assert selectors.standing(game).capital == [4950, 3090, 1975, 3975]
    assert Jogo.objects.filter(table=t1).count() == Table.objects.get(pk=t1.pk).jogos_recorded == 13
    assert "intact" in verify()


def race(table, dealer, posts):
    """Post every (record, idempotency key) from its own thread and connection, all at once."""
    outcomes, barrier = [], threading.Barrier(len(posts))

    def post(body, key):
        try:
            barrier.wait()
            try:
                jogo, created = services.record_jogo(table=Table.objects.get(pk=table.pk), user=dealer, record=body,
                                                    idempotency_key=key)
                outcomes.append(("created" if created else "retry", key, jogo.number))
            except errors.Refused as refused:
                outcomes.append(("refused", key, [p.code for p in refused.problems]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=args) for args in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == len(posts)
    return outcomes


def test_an_amendment_that_would_leave_a_player_with_negative_capital_is_refused(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 100, 2000, 4000])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game),
                                    at=NOON)  # South: 100 → 190
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="it was a draw",
                                          record={**first.record, **DRAW})
    services.move_money(game=game, user=people["dealer"], chair=1, kind=Movement.CASH_OUT,
                        amount=190)  # after proposing

    with pytest.raises(errors.Refused) as refused:
        services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)

    assert refused.value.problems[0].code == "capital"
    assert selectors.standing(game).capital == [4950, 0, 1975, 3975]
    assert Jogo.objects.filter(number=1).count() == 1


def test_i_2_an_amendment_that_completes_the_north_round_ends_the_game(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    for _ in range(15):
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    last, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    game.refresh_from_db()
    assert game.ended_at is None
    amendment = services.propose_amendment(jogo=last, user=people["supervisor"], reason="South won",
                                          record={**next_record(game), "capital": last.record["capital"]})
    services.decide_amendment(amendment=amendment, user=people["manager"], approve=True)

    game.refresh_from_db()
    assert game.ended_at is not None and selectors.standing(game).progress.complete
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game))
    assert refused.value.problems[0].code == "no_game"


def test_verify_ledger_catches_a_well_chained_row_with_invented_capital(played):
    """Someone with the application's database login appends a correctly hashed jogo whose
    capital does not follow from the jogos and movements before it."""
    people, t1, game, rows = played
    now = selectors.standing(game)
    state, amounts = now.progress, now.capital
    amounts[1] += 100_000
    record = next_record(game, **DRAW) | {"capital": {s: amounts[c] for s, c in state.seats.items()}}
    parsed, result = scoring.scored(t1, state, amounts, record)
    with transaction.atomic():
        table = ledger.locked_table(t1)
        ledger.append_row(table, scoring.jogo_row(state, amounts, record, parsed, result, game=game, number=4,
                                                  position=4, recorded_at=NOON, recorded_by=people["dealer"],
                                                  gaming_day=NOON.date()), jogo=True)
    with pytest.raises(CommandError) as failed:
        verify()
    assert "jogo 4" in str(failed.value) and "capital before" in str(failed.value)


@on_postgresql
def test_postgresql_refuses_to_change_who_sat_where(played):
    from django.db.utils import DatabaseError
    people, t1, game, rows = played
    for statement in ("UPDATE pit_game SET first_banker = 2", "UPDATE pit_player SET chair = 3 WHERE chair = 0",
                      "DELETE FROM pit_player"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pit_game SET ended_at = now()")  # ending a game is allowed
