"""Every number accounted for: a gaming day's jogo numbers and ledger positions per
table with any gap, its refusals and amendments, and every voided or abandoned attempt with who,
why and a second person's confirmation."""
from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction

from casino.audit.accounted import Run, day_account, runs
from casino.pit import demo, errors, services
from casino.pit.models import Refusal, RefusalConfirmation
from tests.builders.audit import plant
from tests.builders.pit import DRAW, NOON, next_record, on_rotation, seat, staff, table
from tests.builders.reports import draws

DAY = NOON.date()
WIN = {"result": "win", **demo.CHICKEN}
LATER = NOON + dt.timedelta(days=1)


def test_runs_split_a_range_into_what_is_held_and_what_is_missing():
    assert runs({1, 2, 3, 6, 9}, 1, 10) == ([Run(1, 3), Run(6, 6), Run(9, 9)], [Run(4, 5), Run(7, 8), Run(10, 10)])
    assert runs(set(), 1, 0) == ([], [])
    assert str(Run(4, 5)) == "4–5" and str(Run(7, 7)) == "7"


pytestmark = pytest.mark.django_db


def recorded(game, by, count, at=NOON, **fields):
    on_rotation(game.table, by, at)
    return [services.record_jogo(table=game.table, user=by, record=next_record(game, **fields),
                                 at=at)[0] for _ in range(count)]


def refuse(at_table, game, by, at=NOON) -> Refusal:
    with pytest.raises(errors.Refused):
        services.record_jogo(table=at_table, user=by, record={**next_record(game), "stake": 30}, at=at)
    return Refusal.objects.latest("pk")


@pytest.fixture
def day_of_draws():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])  # four buy-ins: ledger positions 1–4
    rows = recorded(game, people["dealer"], 3, **DRAW)  # jogos 1–3, positions 5–7
    return people, t1, t2, game, rows


def test_a_clean_day_lists_each_tables_numbers_and_positions_without_a_gap(day_of_draws):
    account = day_account(DAY)

    t1, = account.tables
    assert (t1.number_runs, t1.seq_runs) == ([Run(1, 3)], [Run(1, 7)])
    assert (t1.number_gaps, t1.seq_gaps) == ([], [])
    assert account.open_items == 0


def test_a_jogo_number_and_a_ledger_position_missing_are_gaps_and_open_items(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    plant(game, people["dealer"], fields=DRAW, number=5, seq=9, position=5)  # 4 and position 8 never written

    t1, = day_account(DAY).tables

    assert t1.number_runs == [Run(1, 3), Run(5, 5)] and t1.number_gaps == [Run(4, 4)]
    assert t1.seq_gaps == [Run(8, 8)]
    assert day_account(DAY).open_items == 2


def test_a_gap_at_the_end_of_the_day_shows_against_the_next_day(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    plant(game, people["dealer"], at=LATER, fields=DRAW, number=5, seq=9, position=5)

    t1, = day_account(DAY).tables

    assert t1.number_gaps == [Run(4, 4)] and t1.seq_gaps == [Run(8, 8)]


def test_an_amendment_made_the_next_day_keeps_its_day_and_leaves_no_gap_on_either_day(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    recorded(game, people["dealer"], 2, at=LATER, **DRAW)  # jogos 4–5, positions 8–9, on the 22nd
    amendment = services.propose_amendment(jogo=rows[0], user=people["supervisor"], record={**rows[0].record, **WIN},
                                          reason="checked the camera", at=LATER)
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True, at=LATER)

    first, second = day_account(DAY), day_account(DAY + dt.timedelta(days=1))

    assert first.tables[0].revisions >= 1 and first.tables[0].seq_gaps == [] and first.tables[0].number_gaps == []
    assert second.tables[0].seq_gaps == [] and second.tables[0].number_runs == [Run(4, 5)]
    assert first.open_items == 0 and second.open_items == 0


def test_a_refused_attempt_is_an_open_item_until_a_second_person_confirms_it(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    refusal = refuse(t1, game, people["dealer"])

    account = day_account(DAY)
    assert account.unconfirmed_refusals == [refusal] and account.open_items == 1
    assert account.tables[0].refusals == [refusal] and account.tables[0].number_gaps == []  # takes no number

    services.confirm_refusal(refusal=refusal, user=people["supervisor"], note="stake mistyped; jogo 4 recorded right")

    account = day_account(DAY)
    assert account.unconfirmed_refusals == [] and account.open_items == 0
    assert account.refusals[0].confirmation.confirmed_by == people["supervisor"]


def test_rejected_amendments_show_both_people_and_pending_ones_are_open_items(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    rejected = services.propose_amendment(jogo=rows[0], user=people["supervisor"], record={**rows[0].record, **WIN},
                                         reason="a win, not a draw?", at=NOON)
    services.decide_amendment(amendment=rejected, user=people["supervisor2"], approve=False,
                              reason="the camera shows a draw", at=NOON)
    pending = services.propose_amendment(jogo=rows[1], user=people["supervisor"], record={**rows[1].record, **WIN},
                                        reason="check the wall", at=NOON)

    account = day_account(DAY)

    assert account.rejected == [rejected] and account.rejected[0].decided_by == people["supervisor2"]
    assert account.pending == [pending] and account.open_items == 1
    assert len(account.tables[0].amendments) == 2


def test_a_game_ended_by_a_person_before_its_north_round_is_listed_with_who_and_its_jogos(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    services.end_game(game=game, user=people["supervisor"], at=NOON + dt.timedelta(hours=1))
    still_playing = seat(t2, people["other_dealer"])
    recorded(still_playing, people["other_dealer"], 1, **DRAW)

    ended, = day_account(DAY).games_ended_early

    assert (ended.pk, ended.ended_by, ended.jogos_played) == (game.pk, people["supervisor"], 3)


def test_the_account_of_a_day_takes_a_fixed_number_of_queries(day_of_draws, django_assert_max_num_queries):
    people, t1, t2, game, rows = day_of_draws
    refuse(t1, game, people["dealer"])
    with django_assert_max_num_queries(14) as few:
        day_account(DAY)
    for number in ("T3", "T4", "T5"):
        draws(table(number), 3, people["dealer"], NOON)
    refuse(t2, seat(t2, people["other_dealer"]), people["other_dealer"])
    with django_assert_max_num_queries(14) as many:
        account = day_account(DAY)
    assert len(account.tables) == 5
    assert len(many.captured_queries) == len(few.captured_queries)


# --- The second person's confirmation of a refused attempt -----------------------------------------


def test_nobody_confirms_his_own_refused_attempt(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    refusal = refuse(t1, game, people["supervisor"])

    with pytest.raises(errors.Refused) as refused:
        services.confirm_refusal(refusal=refusal, user=people["supervisor"], note="my mistake")

    assert refused.value.problems[0].code == "own_refusal"
    assert not RefusalConfirmation.objects.exists()


def test_a_refused_attempt_is_confirmed_once(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    refusal = refuse(t1, game, people["dealer"])
    services.confirm_refusal(refusal=refusal, user=people["supervisor"], note="stake mistyped")

    with pytest.raises(errors.Refused) as refused:
        services.confirm_refusal(refusal=refusal, user=people["supervisor2"], note="seen too")

    assert refused.value.conflict and refused.value.problems[0].code == "refusal_confirmed"
    assert RefusalConfirmation.objects.get().note == "stake mistyped"


def test_a_confirmation_says_why_the_attempt_was_abandoned(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    refusal = refuse(t1, game, people["dealer"])

    with pytest.raises(errors.Refused) as refused:
        services.confirm_refusal(refusal=refusal, user=people["supervisor"], note="   ")

    assert refused.value.problems[0].field == "note"
    assert not RefusalConfirmation.objects.exists()


def test_a_confirmation_is_never_changed_nor_deleted(day_of_draws):
    people, t1, t2, game, rows = day_of_draws
    confirmation = services.confirm_refusal(refusal=refuse(t1, game, people["dealer"]), user=people["supervisor"],
                                           note="stake mistyped")
    confirmation.note = "edited"
    with pytest.raises(ValidationError):
        confirmation.save()
    with pytest.raises(ValidationError):
        confirmation.delete()
    if connection.vendor == "postgresql":
        for sql in ("UPDATE pit_refusalconfirmation SET note = 'edited'", "DELETE FROM pit_refusalconfirmation"):
            with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
                cur.execute(sql)
    assert RefusalConfirmation.objects.get().note == "stake mistyped"
