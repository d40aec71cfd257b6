"""The audit's re-score of jogos recorded under an earlier reading (docs/rules.md §9.2 and
§9.3): the stored outcome differs from the engine's, and the difference names the reading.

Each jogo is planted in the ledger with the figures the earlier reading gave (tests/builders/audit.py's
`plant`, past the service, as an import of old jogos would arrive)."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.audit.ledger import Days
from casino.audit.readings import register
from casino.pit.recheck import compare, stored
from tests.builders.audit import DAY, next_values, plant
from tests.builders.pit import seat, staff, table

pytestmark = pytest.mark.django_db


def reading_of(row) -> str | None:
    _, found = compare(stored(row))
    named = [recomputed for field, _, recomputed in found if field == "reading"]
    assert len(named) <= 1
    return named[0] if named else None


def fields_of(row) -> set[str]:
    return {field for field, _, _ in compare(stored(row))[1]}


def test_i11_a_jogo_graded_mixed_one_suit_with_a_dragon_pong_names_i11():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    hand = {"hand": {"concealed": "123m456m789m55m77z", "winning_tile": "7z"}, "declared_fan": 2}
    now = next_values(game, people["dealer"], fields=hand)
    earlier = {**now["outcome"], "fan": 2, "fan_mismatch": False,
               "items": [{"code": "dragon_set", "fan": 1, "article": "6(a)(2)"},
                         {"code": "mixed_one_suit", "fan": 1, "article": "6(a)(2)"}]}
    row = plant(game, people["dealer"], fields=hand, outcome=earlier, fan=2, fan_mismatch=False)

    assert reading_of(row) == "I-11 (Art. 6(a)(2))"
    assert {"fan", "outcome.fan", "outcome.items"} <= fields_of(row)


# I-18 (docs/rules.md §9.3): East wins in the East round with 789m, pongs of South, West and
# North (neither his seat's wind nor the round's) and a pair of East: small four winds. Before the
# reading it also scored mixed one suit, 2 fán; now small four winds alone, 1 fán.
SMALL_FOUR_WINDS_ONE_SUIT = {"winner": "E", "discarder": "S", "declared_fan": 2,
                             "hand": {"concealed": "789m222z333z444z1z", "winning_tile": "1z"}}
EACH_SET_ITEMS = [{"code": "small_four_winds", "fan": 1, "article": "6(a)(2)"},
                  {"code": "mixed_one_suit", "fan": 1, "article": "6(a)(2)"}]


def test_i18_a_jogo_graded_mixed_one_suit_beside_small_four_winds_names_i18():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    now = next_values(game, people["dealer"], fields=SMALL_FOUR_WINDS_ONE_SUIT)
    assert [item["code"] for item in now["outcome"]["items"]] == ["small_four_winds"]
    earlier = {**now["outcome"], "fan": 2, "fan_mismatch": False, "items": EACH_SET_ITEMS}
    row = plant(game, people["dealer"], fields=SMALL_FOUR_WINDS_ONE_SUIT, outcome=earlier, fan=2,
                fan_mismatch=False)

    assert reading_of(row) == "I-18 (Art. 6(a)(2))"
    assert {"fan", "outcome.fan", "outcome.items"} <= fields_of(row)


def test_i18_the_register_counts_a_jogo_recorded_before_the_reading_under_i18():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    now = next_values(game, people["dealer"], fields=SMALL_FOUR_WINDS_ONE_SUIT)
    row = plant(game, people["dealer"], fields=SMALL_FOUR_WINDS_ONE_SUIT,
                outcome={**now["outcome"], "fan": 2, "items": EACH_SET_ITEMS}, fan=2, fan_mismatch=False)

    i18 = next(point for point in register(Days(DAY, DAY)) if point.reading.code == "I-18")

    assert [(rules.code, alternative.name) for rules, alternative in i18.adopted] == [
        ("portaria-135-91-M", "honours_together"), ("portaria-135-91-M-zh", "honours_together")]
    assert (i18.decided, [link.jogo_id for link in i18.jogos]) == (1, [row.pk])


def test_i8_a_commission_above_what_the_winner_received_names_i8():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"], capital=[5000, 5, 2000, 4000])  # South has 5 at stake
    now = next_values(game, people["dealer"])
    assert now["commission"] == 5
    earlier_net = {**now["outcome"]["net"], "S": -5}
    row = plant(game, people["dealer"], commission=10,
                outcome={**now["outcome"], "commission": 10, "net": earlier_net},
                capital_after=[now["capital_after"][0], 0, *now["capital_after"][2:]])

    assert reading_of(row) == "I-8 (Art. 8)"


def test_a_wrong_commission_that_is_no_reading_names_none():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    row = plant(game, people["dealer"], commission=20)

    assert fields_of(row) == {"commission"}
    assert reading_of(row) is None


def test_i13_a_heavenly_win_graded_on_its_green_tile_names_i13():
    people, _, _ = staff()
    t3 = table("T3", variant="simplified", stake=100, staff=[people["dealer"]])
    game = seat(t3, people["dealer"], capital=[5000, 5000, None, None])
    hand = {"winner": "E", "discarder": None, "conditions": ["heavenly"],
            "hand": {"concealed": "789s6z", "winning_tile": "6z"}}
    now = next_values(game, people["dealer"], fields=hand)
    earlier = {**now["outcome"], "fan": 1, "items": [{"code": "green_winning_tile", "fan": 1, "article": "6(b)(2)"}]}
    row = plant(game, people["dealer"], fields=hand, outcome=earlier, fan=1)

    assert reading_of(row) == "I-13 (Art. 5(b)(1), 6(b)(2))"


def _refused_now(game, by, fields: dict, now_valid_fields: dict):
    """Plant a jogo whose record is `fields` but whose stored figures are those of the valid
    `now_valid_fields` (what the earlier reading accepted and settled)."""
    values = next_values(game, by, fields=now_valid_fields)
    record = {**values["record"], **fields}
    return plant(game, by, fields=now_valid_fields, record=record)


def test_i14_a_10b1_pay_all_whose_winner_holds_a_green_names_i14():
    people, _, _ = staff()
    t3 = table("T3", variant="simplified", stake=100, staff=[people["dealer"]])
    game = seat(t3, people["dealer"], capital=[5000, 5000, 5000, None])
    holds_green = {"winner": "S", "discarder": "W", "hand": {"concealed": "78s66z", "winning_tile": "9s"},
                   "pay_all": {"seat": "W", "article": "10(b)(1)", "live_tile": False}}
    accepted = {**holds_green, "hand": {"concealed": "78s11p", "winning_tile": "9s"}}
    row = _refused_now(game, people["dealer"], holds_green, accepted)

    assert reading_of(row) == "I-14 (Art. 10(b)(1))"
    assert "outcome.valid" in fields_of(row)


def test_a_false_win_whose_hand_wins_names_its_article():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    void = {"result": "false_win", "winner": None, "discarder": None, "hand": None, "declared_fan": None,
            "false_win": {"seat": "N"}}
    row = _refused_now(game, people["dealer"],
                       {"hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}}, void)

    assert reading_of(row) == "docs/rules.md §6 (Art. 10(a)(8))"


def test_audit_recompute_prints_the_reading_with_the_difference():
    people, t1, _ = staff()
    game = seat(t1, people["dealer"], capital=[5000, 5, 2000, 4000])
    now = next_values(game, people["dealer"])
    row = plant(game, people["dealer"], commission=10, outcome={**now["outcome"], "commission": 10})
    out = StringIO()

    with pytest.raises(CommandError):
        call_command("audit_recompute", "--workers", "1", "--no-progress", stdout=out)

    assert (f"DIFFERENCE table T1, game {game.pk}, jogo {row.number} (id {row.pk}): "
            "reading recorded '—', recomputed 'I-8 (Art. 8)'") in out.getvalue()
