"""The checks of docs/rules.md §7 one record can show: Art. 3 (seats), Art. 8 (tiers), Art. 5(a)(1)–(2)
(heavenly, earthly), the conditions of the win, Art. 9 conduct, Art. 5(a)(6)/(b)(5) claim
priority, the declared grade, the drawn jogo and whether the bank moves (Art. 3, I-1).
"""
import pytest

from tests.builders.jogos import CHICKEN, scored

# A chicken hand whose winning 4s completes a chow: the winner holds no other 4s.
ON_A_SINGLE_TILE = {"concealed": "345m678p111p99m23s", "winning_tile": "4s"}
# A chicken hand with a concealed kong of 1s (345m 678p 111p 1111s 99m).
ONE_KONG = {"concealed": "345m678p99m11p", "winning_tile": "1p",
            "melds": [{"kind": "kong", "tiles": "1111s", "exposed": False}]}
TWO_KONGS = {"concealed": "345m99m11p", "winning_tile": "1p",
             "melds": [{"kind": "kong", "tiles": "1111s", "exposed": False},
                       {"kind": "kong", "tiles": "6666p", "exposed": True}]}
WITH_AN_EXPOSED_CHOW = {"concealed": "678p234s99m11p", "winning_tile": "1p",
                        "melds": [{"kind": "chow", "tiles": "345m", "exposed": True}]}
SIMPLE_CHICKEN = {"concealed": "789s1p", "winning_tile": "1p"}
SIMPLE_KONG = {"concealed": "9s", "winning_tile": "9s", "melds": [{"kind": "kong", "tiles": "5555p", "exposed": True}]}

FOUR = {"E": 5000, "S": 5000, "W": 5000, "N": 5000}


def jogo(**fields):
    """Score a conventional won jogo: South wins a chicken hand on West's discard, unless told."""
    fields.setdefault("capital", FOUR)
    return scored(**fields)


def simplified(**fields):
    fields.setdefault("stake", 100)
    fields.setdefault("hand", SIMPLE_CHICKEN)
    return jogo(variant="simplified", **fields)


def draw(**fields):
    return jogo(result="draw", winner=None, discarder=None, hand=None, **fields)


def breaches(result):
    for breach in result.breaches:
        assert breach.message.startswith(f"Art. {breach.article}: ")
    return {(b.code, b.article) for b in result.breaches}


def assert_void(result):
    """The jogo breaks the regulation: invalid, no grade, and nothing moves (Art. 9, 10)."""
    assert not result.valid
    assert result.fan is None
    assert result.settlement.payments == ()
    assert result.settlement.commission == 0
    assert set(result.settlement.net.values()) == {0}
    out = result.as_dict()
    assert out["valid"] is False
    assert {(e["code"], e["article"]) for e in out["errors"]} == breaches(result)


# --- Art. 3: who is seated ------------------------------------------------------------------


def test_art_3a_conventional_needs_exactly_four_players():
    result = draw(capital={"E": 5000, "S": 5000, "W": 5000})

    assert breaches(result) == {("seats", "3(a)")}
    assert_void(result)


def test_art_3a_the_banker_always_sits_east():
    result = draw(capital={"S": 5000, "W": 5000, "N": 5000})

    assert breaches(result) == {("banker_absent", "3(a)"), ("seats", "3(a)")}


@pytest.mark.parametrize("capital", [{"E": 5000, "S": 5000}, {"E": 5000, "W": 5000, "N": 5000}, dict(FOUR)])
def test_art_3b_simplified_is_played_by_two_to_four_players(capital):
    assert simplified(result="draw", winner=None, discarder=None, hand=None, capital=capital).valid


def test_art_3b_simplified_needs_a_second_player():
    result = simplified(result="draw", winner=None, discarder=None, hand=None, capital={"E": 5000})

    assert breaches(result) == {("seats", "3(b)")}


def test_art_3b_simplified_without_the_banker_is_refused():
    result = simplified(result="draw", winner=None, discarder=None, hand=None, capital={"S": 5000, "W": 5000})

    assert breaches(result) == {("banker_absent", "3(b)")}


@pytest.mark.parametrize(
    "fields",
    [
        {"winner": "W", "discarder": "E"},
        {"winner": "S", "discarder": "N"},
        {"winner": "S", "discarder": "E", "claimants": ["W"]},
        {"winner": "S", "discarder": "E", "conduct": [{"seat": "N", "kind": "saw_tiles"}]},
    ],
)
def test_art_3b_every_seat_named_must_be_seated(fields):
    result = simplified(capital={"E": 5000, "S": 5000}, **fields)

    assert ("seat_not_seated", "3(b)") in breaches(result)
    assert_void(result)


# --- Art. 8: the stake is a tier of the variant ----------------------------------------------


@pytest.mark.parametrize(
    "variant, stake, hand",
    [
        ("conventional", 30, CHICKEN),  # no such tier
        ("conventional", 20000, CHICKEN),  # a simplified tier only
        ("simplified", 25, SIMPLE_CHICKEN),  # a conventional tier only
        ("simplified", 50, SIMPLE_CHICKEN),  # a conventional tier only
    ],
)
def test_art_8_stake_must_be_a_tier_of_the_variant(variant, stake, hand):
    result = jogo(variant=variant, stake=stake, hand=hand)

    assert breaches(result) == {("stake_not_a_tier", "8")}
    assert_void(result)


@pytest.mark.parametrize("variant, stake, hand", [("conventional", 10000, CHICKEN),
                                                   ("simplified", 30000, SIMPLE_CHICKEN),
                                                   ("simplified", 100, SIMPLE_CHICKEN), ("conventional", 25, CHICKEN)])
def test_art_8_the_ends_of_each_tier_table_are_tiers(variant, stake, hand):
    assert jogo(variant=variant, stake=stake, hand=hand, capital={s: 10**6 for s in "ESWN"}).valid


# --- Art. 5(a)(1)–(2), (b)(1)–(2): heavenly and earthly wins --------------------------------


def test_art_5a1_heavenly_win_is_the_bankers_with_dealt_tiles():
    result = jogo(winner="E", discarder=None, conditions=["heavenly"])

    assert result.valid
    assert result.fan == 2
    assert "heavenly" in {item.code for item in result.grade.items}


def test_art_5a1_heavenly_win_is_the_banker_alone():
    result = jogo(winner="S", discarder=None, conditions=["heavenly"])

    assert breaches(result) == {("heavenly", "5(a)(1)")}
    assert_void(result)


def test_art_5a1_heavenly_win_has_no_discard():
    result = jogo(winner="E", discarder="S", conditions=["heavenly"])

    assert breaches(result) == {("heavenly", "5(a)(1)")}


def test_art_5a1_heavenly_win_has_no_melds():
    result = jogo(winner="E", discarder=None, hand=WITH_AN_EXPOSED_CHOW, conditions=["heavenly"])

    assert breaches(result) == {("heavenly", "5(a)(1)")}


def test_art_5a1_heavenly_win_has_no_concealed_kong_either():
    result = jogo(winner="E", discarder=None, hand=ONE_KONG, conditions=["heavenly"])

    assert breaches(result) == {("heavenly", "5(a)(1)")}


def test_art_5b1_simplified_heavenly_win_is_the_banker_alone():
    assert simplified(winner="E", discarder=None, conditions=["heavenly"]).valid
    assert breaches(simplified(winner="S", discarder=None, conditions=["heavenly"])) == {("heavenly", "5(b)(1)")}


def test_art_5a2_earthly_win_is_a_non_banker_on_the_bankers_first_discard():
    result = jogo(winner="S", discarder="E", conditions=["earthly"])

    assert result.valid
    assert result.fan == 2


@pytest.mark.parametrize(
    "winner, discarder",
    [("E", None), ("S", "W"), ("S", None)],
    ids=["banker", "another-discarder", "self-drawn"],
)
def test_art_5a2_earthly_win_needs_the_bankers_discard(winner, discarder):
    result = jogo(winner=winner, discarder=discarder, conditions=["earthly"])

    assert breaches(result) == {("earthly", "5(a)(2)")}


def test_art_5a2_earthly_win_has_no_melds():
    result = jogo(winner="S", discarder="E", hand=WITH_AN_EXPOSED_CHOW, conditions=["earthly"])

    assert breaches(result) == {("earthly", "5(a)(2)")}


def test_art_5b2_simplified_earthly_win():
    assert simplified(winner="N", discarder="E", conditions=["earthly"]).valid
    assert breaches(simplified(winner="N", discarder="W", conditions=["earthly"])) == {("earthly", "5(b)(2)")}


# --- The conditions recorded fit the win (docs/rules.md §7) ---------------------------------------


def test_art_5a1_heavenly_and_earthly_together_conflict():
    result = jogo(winner="E", discarder=None, conditions=["heavenly", "earthly"])

    assert ("conditions_conflict", "5(a)(1)") in breaches(result)
    assert_void(result)


@pytest.mark.parametrize(
    "winner, discarder, conditions",
    [("E", None, ["heavenly", "last_tile"]), ("S", "E", ["earthly", "last_tile"])],
)
def test_art_5a1_a_natural_win_goes_with_no_other_condition(winner, discarder, conditions):
    result = jogo(winner=winner, discarder=discarder, conditions=conditions)

    assert breaches(result) == {("conditions_conflict", "5(a)(1)")}


def test_art_5b1_simplified_natural_win_goes_with_no_other_condition():
    result = simplified(winner="E", discarder=None, conditions=["heavenly", "last_tile"])

    assert breaches(result) == {("conditions_conflict", "5(b)(1)")}


def test_art_4a_the_winner_cannot_win_on_his_own_discard():
    result = jogo(winner="S", discarder="S")

    assert breaches(result) == {("discarder_is_winner", "4(a)")}


def test_art_6a2_robbing_a_kong_is_won_on_another_players_tile():
    assert jogo(hand=ON_A_SINGLE_TILE, conditions=["robbing_kong"]).valid
    result = jogo(hand=ON_A_SINGLE_TILE, discarder=None, conditions=["robbing_kong"])

    assert breaches(result) == {("robbing_kong", "6(a)(2)")}


def test_art_6a2_robbing_a_kong_the_winner_holds_no_other_copy():
    # The kong maker held three 1p; the winner, already holding two more, would make five.
    result = jogo(hand=CHICKEN, conditions=["robbing_kong"])

    assert breaches(result) == {("robbing_kong", "6(a)(2)")}


def test_art_6a2_kong_replacement_is_self_drawn_with_a_kong():
    assert jogo(hand=ONE_KONG, discarder=None, conditions=["kong_replacement"]).valid
    assert breaches(jogo(hand=ONE_KONG, conditions=["kong_replacement"])) == {("kong_replacement", "6(a)(2)")}
    assert breaches(jogo(discarder=None, conditions=["kong_replacement"])) == {("kong_replacement", "6(a)(2)")}


def test_art_6a3_kong_upon_kong_needs_two_kongs():
    assert jogo(hand=TWO_KONGS, discarder=None, conditions=["kong_upon_kong"]).valid
    result = jogo(hand=ONE_KONG, discarder=None, conditions=["kong_upon_kong"])

    assert breaches(result) == {("kong_upon_kong", "6(a)(3)")}


def test_art_5b4_simplified_kong_replacement_needs_a_kong():
    assert simplified(hand=SIMPLE_KONG, winner="S", discarder=None, conditions=["kong_replacement"]).valid
    result = simplified(winner="S", discarder=None, conditions=["kong_replacement"])

    assert breaches(result) == {("kong_replacement", "5(b)(4)")}


# --- Art. 9: conduct recorded against a seat -------------------------------------------------


def test_art_9a2_a_player_who_declined_a_pong_cannot_win():
    result = jogo(conduct=[{"seat": "S", "kind": "declined_pong"}])

    assert breaches(result) == {("winner_declined_pong", "9(a)(2)")}
    assert_void(result)


def test_art_9a2_another_players_declined_pong_does_not_touch_the_win():
    assert jogo(conduct=[{"seat": "N", "kind": "declined_pong"}]).valid


def test_art_5b3_no_pong_is_called_in_the_simplified_game():
    result = simplified(winner="S", discarder="W", conduct=[{"seat": "N", "kind": "declined_pong"}])

    assert breaches(result) == {("declined_pong_simplified", "5(b)(3)")}


def test_art_9a3_a_player_who_saw_tiles_cannot_win_with_a_kong():
    result = jogo(hand=ONE_KONG, conduct=[{"seat": "S", "kind": "saw_tiles"}])

    assert breaches(result) == {("saw_tiles_kong", "9(a)(3)")}


def test_art_9a3_a_player_who_saw_tiles_may_still_win_without_a_kong():
    assert jogo(conduct=[{"seat": "S", "kind": "saw_tiles"}]).valid


def test_art_9a3_a_player_who_saw_tiles_could_not_make_the_kong_that_was_robbed():
    result = jogo(hand=ON_A_SINGLE_TILE, conditions=["robbing_kong"], conduct=[{"seat": "W", "kind": "saw_tiles"}])

    assert breaches(result) == {("saw_tiles_kong", "9(a)(3)")}


def test_art_9b2_simplified_a_player_who_saw_tiles_cannot_win_with_a_kong():
    result = simplified(hand=SIMPLE_KONG, winner="S", discarder="W", conduct=[{"seat": "S", "kind": "saw_tiles"}])

    assert breaches(result) == {("saw_tiles_kong", "9(b)(2)")}


# --- Art. 5(a)(6), (b)(5): the first claimant after the discarder wins -----------------------


def test_art_5a6_a_claimant_nearer_the_discarder_wins_instead():
    # East discards; South and West both claim. South is first after East.
    result = jogo(winner="W", discarder="E", claimants=["S"])

    assert breaches(result) == {("claim_priority", "5(a)(6)")}
    assert_void(result)


def test_art_5a6_the_winner_nearer_the_discarder_keeps_the_win():
    assert jogo(winner="S", discarder="E", claimants=["W", "N"]).valid


def test_art_5a6_turn_order_wraps_round_past_north():
    # West discards: turn order after West is N, E, S.
    assert breaches(jogo(winner="S", discarder="W", claimants=["N"])) == {("claim_priority", "5(a)(6)")}
    assert breaches(jogo(winner="S", discarder="N", claimants=["E"])) == {("claim_priority", "5(a)(6)")}
    assert jogo(winner="N", discarder="W", claimants=["E", "S"]).valid


def test_art_5a6_a_claimant_barred_by_a_declined_pong_has_no_claim():
    result = jogo(winner="W", discarder="E", claimants=["S"], conduct=[{"seat": "S", "kind": "declined_pong"}])

    assert result.valid


def test_art_5a6_a_self_drawn_win_has_no_competing_claims():
    assert breaches(jogo(discarder=None, claimants=["N"])) == {("claim_priority", "5(a)(6)")}


def test_art_5a6_claimants_are_other_players():
    assert breaches(jogo(claimants=["S"])) == {("claim_priority", "5(a)(6)")}
    assert breaches(jogo(claimants=["W"])) == {("claim_priority", "5(a)(6)")}


def test_art_5b5_simplified_priority_skips_an_empty_seat():
    # South is not seated: after East come West, then North.
    result = simplified(capital={"E": 5000, "W": 5000, "N": 5000}, winner="N", discarder="E", claimants=["W"])

    assert breaches(result) == {("claim_priority", "5(b)(5)")}


# --- The declared grade, the drawn jogo, the bank ---------------------------------------------


def test_fan_mismatch_is_flagged_and_settles_on_the_computed_grade():
    result = jogo(stake=25, declared_fan=2)

    # Chicken: fan 0, share 25 (not the announced 2 fán's 100): S nets 100 − 10 = 90.
    assert result.valid
    assert result.fan == 0
    assert result.fan_mismatch is True
    assert result.settlement.net == {"E": -50, "S": 90, "W": -25, "N": -25}
    out = result.as_dict()
    assert (out["declared_fan"], out["fan"], out["fan_mismatch"]) == (2, 0, True)


@pytest.mark.parametrize("declared", [0, None])
def test_no_fan_mismatch_when_the_dealer_agrees_or_is_silent(declared):
    assert jogo(declared_fan=declared).fan_mismatch is False


def test_drawn_jogo_is_valid_and_nothing_moves():
    result = draw(stake=100)

    assert result.valid
    assert result.fan is None
    assert result.fan_mismatch is False
    assert result.settlement.payments == ()
    assert result.settlement.commission == 0
    assert result.settlement.net == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert result.banker_moves is False


def test_drawn_simplified_jogo_nets_only_the_seated_seats():
    result = simplified(result="draw", winner=None, discarder=None, hand=None,
                        capital={"E": 5000, "S": 5000, "N": 5000})

    assert result.settlement.net == {"E": 0, "S": 0, "N": 0}


def test_art_3_the_bank_passes_when_another_player_wins():
    assert jogo(winner="S").banker_moves is True
    assert jogo(winner="N", discarder="E").as_dict()["next"] == {"banker_moves": True}


def test_art_3_the_banker_keeps_the_bank_while_he_wins():
    assert jogo(winner="E", discarder="S").banker_moves is False


def test_i1_a_drawn_or_void_jogo_keeps_the_bank():
    assert draw().banker_moves is False
    false_win = jogo(result="false_win", winner=None, discarder=None, hand=None, false_win={"seat": "S"})
    assert false_win.banker_moves is False


def test_art_3b_simplified_bank_passes_when_another_player_wins():
    assert simplified(capital={"E": 5000, "N": 5000}, winner="N", discarder="E").banker_moves is True
    assert simplified(capital={"E": 5000, "N": 5000}, winner="E", discarder="N").banker_moves is False
