"""Property-based tests of the rules engine (Portaria n.º 135/91/M; docs/rules.md, docs/record-format.md).

The strategies of tests/strategies.py build *legal* won jogos of both variants from the rules
themselves (sets, pairs, melds, seats, conditions that fit the hand), plus draws and false wins. Every
expectation is computed here from docs/rules.md — the tier table of Art. 8, the shares of I-6, the
banker's double of Art. 7, the cap of Art. 9(a)(4) and I-7 — never by calling the engine's
own helpers: the engine is reached through `read_record` and `score` (and its rule set only to
compare its tiers with Art. 8).

Run: HYPOTHESIS_PROFILE=ci .venv/bin/python -m pytest tests/regulation/test_properties.py -q
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction
from math import floor

import pytest
from hypothesis import assume, example, given, strategies as st

from regulation import CURRENT, MalformedRecord, read_record, score
from tests.strategies import (
    BANKER,
    COIN,
    COMMISSION,
    CONVENTIONAL,
    DRAGONS,
    GREEN,
    HONOURS,
    SEATS,
    SIMPLIFIED,
    SIMPLIFIED_KINDS,
    TERMINALS,
    WINDS,
    Case,
    _index,
    ample_capitals,
    any_jogos,
    notation,
    pick,
    small_capitals,
    turn_after,
    void_jogos,
    won_jogos,
)

# --- The regulation's figures the expectations need, restated from docs/rules.md --------------

WIND_TILE = {"E": 27, "S": 28, "W": 29, "N": 30}
MAX_FAN = {CONVENTIONAL: 2, SIMPLIFIED: 1}  # I-5
# Art. 6: the fán and the article of every item, per variant.
ONE_FAN = ("dragon_set", "round_wind_set", "seat_wind_set", "robbing_kong", "kong_replacement",
           "all_pongs", "all_chows", "mixed_one_suit", "last_tile", "small_three_dragons",
           "small_four_winds", "terminals_and_honours")
TWO_FAN = ("heavenly", "earthly", "double_wind_set", "kong_upon_kong", "mixed_one_suit_all_chows",
           "pure_one_suit", "thirteen_orphans", "concealed_pongs", "big_three_dragons",
           "big_four_winds", "pure_terminals", "all_honours")
ITEMS = {
    CONVENTIONAL: {**{code: (1, "6(a)(2)") for code in ONE_FAN}, **{code: (2, "6(a)(3)") for code in TWO_FAN}},
    SIMPLIFIED: {code: (1, "6(b)(2)") for code in ("robbing_kong", "last_tile", "green_winning_tile")},
}
BONUS_ITEMS = {"robbing_kong", "kong_replacement", "last_tile", "terminals_and_honours"}  # I-5, 多算一番
FALSE_WIN_FAN = {CONVENTIONAL: (2, 1), SIMPLIFIED: (1, 1)}  # I-10: (with the banker, between others)


def scored(case: Case):
    return score(read_record(copy.deepcopy(case.record)))


def paid_by(result) -> dict[str, int]:
    paid: dict[str, int] = {}
    for payment in result.settlement.payments:
        paid[payment.payer] = paid.get(payment.payer, 0) + payment.amount
    return paid


def uncapped_dues(case: Case, fan: int) -> dict[str, int]:
    """Art. 7 with I-6: each loser owes X·2^fán, doubled when the banker pays or wins."""
    share = case.stake * 2**fan
    return {seat: share * (2 if BANKER in (seat, case.winner) else 1) for seat in case.seats if seat != case.winner}


def assert_breaches_name_their_article(result) -> None:
    assert result.breaches
    for breach in result.breaches:
        assert breach.code
        assert isinstance(breach.article, str) and breach.article
        assert breach.message.startswith(f"Art. {breach.article}"), breach
    settlement = result.settlement  # docs/record-format.md: a jogo that breaks the regulation settles nothing
    assert settlement.payments == ()
    assert settlement.commission == 0
    assert set(settlement.net.values()) <= {0}


def assert_money_conserved(result) -> None:
    settlement = result.settlement
    assert sum(settlement.net.values()) + settlement.commission == 0
    # And net is what the payments say: each payer down, each payee up, the winner less commission.
    expected = dict.fromkeys(settlement.net, 0)
    for payment in settlement.payments:
        expected[payment.payer] -= payment.amount
        expected[payment.payee] += payment.amount
    if result.jogo.result == "win":
        expected[result.jogo.winner] -= settlement.commission
    assert settlement.net == expected


# --- 1. Legal hands are valid -----------------------------------------------------------------


@given(won_jogos(variant=CONVENTIONAL))
def test_art_4a_every_legal_conventional_hand_is_valid(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert result.breaches == ()
    assert result.fan is not None


@given(won_jogos(variant=SIMPLIFIED))
def test_art_4b_every_legal_simplified_hand_is_valid(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert result.breaches == ()
    assert result.fan is not None


# --- 2. Moving one tile -----------------------------------------------------------------------


@st.composite
def moved_tile_jogos(draw):
    """A legal jogo with one tile of the hand replaced by another kind, removed, or added."""
    case = draw(won_jogos())
    hand = case.hand
    concealed = list(hand.concealed)
    winning = hand.winning
    melds = [list(tiles) for _, tiles, _ in hand.melds]
    ops = ["replace", "add"] + (["remove"] if concealed else []) + (["replace_in_meld"] if melds else [])
    op = pick(draw, ops)
    if op == "replace":
        index = draw(_index(len(concealed) + 1))  # len(concealed): the winning tile
        old = winning if index == len(concealed) else concealed[index]
        kind = pick(draw, [k for k in range(34) if k != old])
        if index == len(concealed):
            winning = kind
        else:
            concealed[index] = kind
    elif op == "remove":
        concealed.pop(draw(_index(len(concealed))))
    elif op == "add":
        concealed.append(draw(_index(34)))
    else:
        meld = pick(draw, melds)
        index = draw(_index(len(meld)))
        meld[index] = pick(draw, [k for k in range(34) if k != meld[index]])
    record = copy.deepcopy(case.record)
    record["hand"]["concealed"] = notation(concealed)
    record["hand"]["winning_tile"] = notation([winning])
    if melds:
        for field, tiles in zip(record["hand"]["melds"], melds):
            field["tiles"] = notation(tiles)
    all_tiles = concealed + [winning] + [t for meld in melds for t in meld]
    return case, record, op, all_tiles


@given(moved_tile_jogos())
def test_art_4_moving_one_tile_keeps_the_hand_valid_or_names_the_article(moved):
    case, record, op, all_tiles = moved
    try:
        result = score(read_record(record))
    except MalformedRecord:
        return

    if result.valid:
        assert_money_conserved(result)
        assert all(p.payee == case.winner for p in result.settlement.payments)
    else:
        assert_breaches_name_their_article(result)
    # A winning hand holds exactly its tiles, never a fifth copy, only its variant's kinds.
    if op in ("add", "remove"):
        assert not result.valid
    if max(all_tiles.count(t) for t in all_tiles) > 4:
        assert not result.valid  # Art. 2
    if case.variant == SIMPLIFIED and not set(all_tiles) <= SIMPLIFIED_KINDS:
        assert not result.valid  # Art. 2(b)


@given(st.sampled_from((CONVENTIONAL, SIMPLIFIED)).flatmap(lambda variant: won_jogos(variant=variant, crowded=True)))
def test_art_2_a_hand_of_sets_with_a_fifth_copy_of_a_kind_is_refused(case):
    result = scored(case)
    tiles = case.hand.tiles
    fifth = max(tiles.count(t) for t in tiles) > 4

    assert result.valid is not fifth, [b.message for b in result.breaches]
    if fifth:
        assert_breaches_name_their_article(result)
        assert any(b.article == ("2(a)" if case.variant == CONVENTIONAL else "2(b)") for b in result.breaches)


@st.composite
def corrupted_jogos(draw):
    """A legal won jogo with one thing recorded that cannot be (docs/rules.md §7): a condition that does
    not fit the win, conduct that bars the win, a stake off the tiers, a seat nobody sits in."""
    case = draw(won_jogos())
    record = copy.deepcopy(case.record)
    kongs = sum(1 for kind, _, _ in case.hand.melds if kind == "kong")
    closed = not case.hand.melds
    conditions = case.conditions
    corruptions = []
    if case.discarder is not None or kongs < 1:
        corruptions.append(("condition", "kong_replacement"))  # Art. 6(a)(2): self-drawn, with a kong
    if case.discarder is not None or kongs < 2:
        corruptions.append(("condition", "kong_upon_kong"))  # Art. 6(a)(3): self-drawn, two kongs
    if case.discarder is None:
        corruptions.append(("condition", "robbing_kong"))  # won on another player's kong tile
    if case.winner != BANKER or case.discarder is not None or not closed or conditions - {"heavenly"}:
        corruptions.append(("condition", "heavenly"))  # Art. 5(a)(1): the banker's dealt tiles only
    if case.winner == BANKER or case.discarder != BANKER or not closed or conditions - {"earthly"}:
        corruptions.append(("condition", "earthly"))  # Art. 5(a)(2): on the banker's first discard
    if case.variant == CONVENTIONAL:
        corruptions.append(("conduct", {"seat": case.winner, "kind": "declined_pong"}))  # Art. 9(a)(2)
    else:
        corruptions.append(("conduct", {"seat": BANKER, "kind": "declined_pong"}))  # Art. 5(b)(3): no pong
    if kongs:
        corruptions.append(("conduct", {"seat": case.winner, "kind": "saw_tiles"}))  # Art. 9(a)(3)
    corruptions.append(("stake", pick(draw, [x for x in (1, 25, 75, 100, 150, 30_000, 40_000)
                                              if x not in COMMISSION[case.variant]])))  # Art. 8
    corruptions += [("capital", seat) for seat in SEATS if seat not in case.seats]  # Art. 3(b): not seated
    if case.variant == SIMPLIFIED:
        corruptions.append(("tile", pick(draw, sorted(HONOURS - {GREEN}))))  # Art. 2(b)
    what, value = pick(draw, corruptions)
    if what == "condition":
        record["conditions"] = sorted(set(record.get("conditions") or []) | {value})
    elif what == "conduct":
        record["conduct"] = [c for c in record.get("conduct") or [] if c["seat"] != value["seat"]] + [value]
    elif what == "stake":
        record["stake"] = value
    elif what == "capital":
        record["winner" if draw(COIN) else "discarder"] = value
    else:
        record["hand"]["concealed"] = notation(case.hand.concealed[1:] + (value,))
    return case, record, what


@given(corrupted_jogos())
def test_a_jogo_recording_what_cannot_happen_is_refused_with_its_article(corrupted):
    case, record, what = corrupted
    result = score(read_record(record))

    assert not result.valid, (what, record)
    assert_breaches_name_their_article(result)


# --- 3. Money is conserved ---------------------------------------------------------------------


@given(any_jogos)
def test_money_is_conserved_on_wins_false_wins_and_draws(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert_money_conserved(result)


# --- 4. The banker's ratio ----------------------------------------------------------------------


@given(won_jogos(capitals=ample_capitals, pay_all="never"))
def test_art_7_banker_pays_and_receives_double(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    share = case.stake * 2**result.fan  # I-6
    paid = paid_by(result)
    losers = [s for s in case.seats if s != case.winner]

    assert set(paid) == set(losers)
    if case.winner == BANKER:
        assert all(paid[seat] == 2 * share for seat in losers)
    else:
        assert paid[BANKER] == 2 * share
        for seat in losers:
            if seat != BANKER:
                assert paid[seat] == share
                assert paid[BANKER] == 2 * paid[seat]
    if len(case.seats) == 4:  # Art. 7: the winner's gross is 4 shares, the banker's 6
        assert sum(paid.values()) == (6 if case.winner == BANKER else 4) * share
    assert result.settlement.capped is False


# --- 5. The cap ---------------------------------------------------------------------------------


@given(won_jogos())
def test_art_9a4_winner_never_receives_more_than_his_capital(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    dues = uncapped_dues(case, result.fan)
    total = sum(dues.values())
    cap = case.capital[case.winner]
    paid = paid_by(result)
    receipts = sum(p.amount for p in result.settlement.payments if p.payee == case.winner)

    assert receipts <= cap
    assert receipts == min(cap, total)
    if case.pay_all:  # I-9: the liable seat's due is every loser's due
        dues = {seat: (total if seat == case.pay_all else 0) for seat in dues}
    for seat, amount in paid.items():
        assert 0 < amount <= dues[seat]


@given(won_jogos(capitals=small_capitals, pay_all="never"))
def test_i7_a_binding_cap_is_shared_pro_rata_by_largest_remainder(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    dues = uncapped_dues(case, result.fan)
    total = sum(dues.values())
    cap = case.capital[case.winner]
    assume(total > cap)
    order = turn_after(case.winner, case.seats)  # ties go to the earlier seat after the winner
    exact = {seat: Fraction(dues[seat] * cap, total) for seat in order}
    expected = {seat: floor(exact[seat]) for seat in order}
    leftover = cap - sum(expected.values())
    for seat in sorted(order, key=lambda s: (-(exact[s] - floor(exact[s])), order.index(s)))[:leftover]:
        expected[seat] += 1

    assert {seat: paid_by(result).get(seat, 0) for seat in order} == expected
    assert result.settlement.capped is True


@given(won_jogos(pay_all="prefer"))
def test_art_10_i9_pay_all_liable_seat_pays_every_share_up_to_the_cap(case):
    assume(case.pay_all is not None)
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    total = sum(uncapped_dues(case, result.fan).values())
    expected = min(total, case.capital[case.winner])

    assert paid_by(result) == ({case.pay_all: expected} if expected else {})


# --- 6. Commission ------------------------------------------------------------------------------


@given(any_jogos)
def test_art_8_commission_only_on_a_won_jogo_at_its_tier(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]

    if case.record["result"] == "win":
        received = sum(p.amount for p in result.settlement.payments)
        # I-8: taken from what the winner receives, so never more than that.
        assert result.settlement.commission == min(COMMISSION[case.variant][case.stake], received)
        assert result.settlement.net[case.winner] >= 0
    else:
        assert result.settlement.commission == 0


def test_art_8_the_rule_set_holds_the_regulations_tiers():
    for variant, table in COMMISSION.items():
        assert tuple(CURRENT.tiers(variant)) == tuple(table)
        assert {stake: CURRENT.commission_for(variant, stake) for stake in table} == table


# --- 7. The grade ------------------------------------------------------------------------------


@given(won_jogos())
def test_i5_grade_is_the_capped_combination_of_the_listed_items(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    items = result.as_dict()["items"]
    table = ITEMS[case.variant]

    for item in items:
        assert item["code"] in table, item
        assert (item["fan"], item["article"]) == table[item["code"]], item
    assert 0 <= result.fan <= MAX_FAN[case.variant]
    if case.fan_combination == "additive":
        raw = sum(item["fan"] for item in items)
    else:
        raw = max((i["fan"] for i in items if i["code"] not in BONUS_ITEMS), default=0) \
            + sum(1 for i in items if i["code"] in BONUS_ITEMS)
    assert result.fan == min(raw, MAX_FAN[case.variant])


@given(won_jogos(variant=SIMPLIFIED))
def test_art_6b2_simplified_items_are_robbing_last_tile_and_green(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    expected = [code for code in ("robbing_kong", "last_tile") if code in case.conditions]
    if case.hand.winning == GREEN and "heavenly" not in case.conditions:  # I-13
        expected.append("green_winning_tile")

    assert sorted(i["code"] for i in result.as_dict()["items"]) == sorted(expected)
    assert result.fan == min(1, len(expected))


@given(won_jogos(variant=CONVENTIONAL))
def test_art_6a_situational_items_follow_the_conditions(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    codes = [i["code"] for i in result.as_dict()["items"]]
    conditions = case.conditions

    for code in ("heavenly", "earthly", "robbing_kong", "last_tile", "kong_upon_kong"):
        assert codes.count(code) == (code in conditions), code
    # kong upon kong scores instead of the kong replacement
    assert codes.count("kong_replacement") == ("kong_replacement" in conditions and "kong_upon_kong" not in conditions)


@given(won_jogos(variant=CONVENTIONAL))
def test_art_6a_honour_sets_and_suits_score_their_items(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    codes = [i["code"] for i in result.as_dict()["items"]]
    tiles = case.hand.tiles
    if case.hand.orphans:
        assert "thirteen_orphans" in codes
        return
    assert "thirteen_orphans" not in codes
    dragon_sets = [d for d in sorted(DRAGONS) if tiles.count(d) >= 3]
    wind_sets = [w for w in sorted(WINDS) if tiles.count(w) >= 3]
    pair = case.hand.pair
    all_honours = all(t in HONOURS for t in tiles)
    suits = {t // 9 for t in tiles if t < 27}
    has_honours = any(t in HONOURS for t in tiles)
    seat_wind, round_wind = WIND_TILE[case.winner], WIND_TILE[case.round_wind]

    big_three, big_four = len(dragon_sets) == 3, len(wind_sets) == 4
    assert codes.count("big_three_dragons") == big_three
    assert codes.count("big_four_winds") == big_four
    assert codes.count("small_three_dragons") == (len(dragon_sets) == 2 and pair in DRAGONS)
    assert codes.count("small_four_winds") == (len(wind_sets) == 3 and pair in WINDS)
    assert codes.count("dragon_set") == (0 if big_three or all_honours else len(dragon_sets))
    expected_winds = {"double_wind_set": 0, "round_wind_set": 0, "seat_wind_set": 0}
    if not (big_four or all_honours):
        for wind in wind_sets:
            if wind == round_wind == seat_wind:
                expected_winds["double_wind_set"] += 1
            elif wind == round_wind:
                expected_winds["round_wind_set"] += 1
            elif wind == seat_wind:
                expected_winds["seat_wind_set"] += 1
    assert {code: codes.count(code) for code in expected_winds} == expected_winds
    assert codes.count("all_honours") == all_honours
    assert codes.count("pure_one_suit") == (len(suits) == 1 and not has_honours)
    # I-11: mixed one suit needs honours worth no fán: no dragon set, no seat- or round-wind set;
    # I-18: nor honours that together make small four winds.
    valued_honour_sets = dragon_sets or [w for w in wind_sets if w in (seat_wind, round_wind)] or (
        len(wind_sets) == 3 and pair in WINDS)
    assert codes.count("mixed_one_suit") + codes.count("mixed_one_suit_all_chows") == (
        len(suits) == 1 and has_honours and not valued_honour_sets)
    assert codes.count("pure_terminals") == all(t in TERMINALS for t in tiles)
    only_terminals_honours = all(t in TERMINALS | HONOURS for t in tiles)
    assert codes.count("terminals_and_honours") == (only_terminals_honours and has_honours and bool(suits))


# --- 8. The output ------------------------------------------------------------------------------


def _floats_in(value) -> list:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats_in(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats_in(v)]
    return []


@given(won_jogos())
def test_output_of_a_valid_win_pays_only_the_winner_in_whole_units(case):
    output = score(read_record(copy.deepcopy(case.record))).as_dict()
    assert output["valid"] is True

    assert output["errors"] == []
    payers = [p["from"] for p in output["payments"]]
    assert len(payers) == len(set(payers))
    for payment in output["payments"]:
        assert payment["to"] == case.winner
        assert payment["from"] in case.seats and payment["from"] != case.winner
        assert type(payment["amount"]) is int and payment["amount"] > 0
    assert type(output["commission"]) is int
    assert set(output["net"]) == set(case.seats)
    assert all(type(amount) is int for amount in output["net"].values())
    assert type(output["fan"]) is int
    assert _floats_in(output) == []
    assert json.loads(json.dumps(output)) == output
    declared = case.record.get("declared_fan")
    assert output["fan_mismatch"] is (declared is not None and declared != output["fan"])


@given(any_jogos)
def test_art_3_i1_the_bank_passes_only_when_another_player_wins(case):
    output = scored(case).as_dict()

    assert output["next"]["banker_moves"] is (case.record["result"] == "win" and case.winner != BANKER)


# --- I-10. False wins ---------------------------------------------------------------------------


@given(void_jogos("false_win"))
def test_art_10_i10_false_win_compensates_every_other_player(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    with_banker, between_others = FALSE_WIN_FAN[case.variant]
    expected = {seat: case.stake * 2 ** (with_banker if BANKER in (seat, case.offender) else between_others)
                for seat in case.seats if seat != case.offender}
    received = {p.payee: p.amount for p in result.settlement.payments}

    assert all(p.payer == case.offender for p in result.settlement.payments)
    assert received == expected
    assert result.fan is None


# --- 9. Junk never crashes ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
tile_texts = st.one_of(st.text(alphabet="0123456789mpszMZ \t-x", max_size=24), st.text(max_size=24))
RECORD_FIELDS = ("variant", "stake", "round_wind", "capital", "result", "winner", "discarder", "hand",
                 "conditions", "declared_fan", "conduct", "claimants", "pay_all", "false_win", "rules")
junk_objects = st.dictionaries(st.one_of(st.sampled_from(RECORD_FIELDS), st.text(max_size=8)), json_values, max_size=8)


@st.composite
def junk_records(draw):
    """Any JSON-like value; an object of record fields holding anything; a legal record with one
    field (or one field of its hand, capital, pay-all or offender) replaced by anything; or a legal
    record with a tile field replaced by a random string."""
    how = pick(draw, ["any", "fields", "one_field", "tile_field"])
    if how == "any":
        return draw(json_values)
    if how == "fields":
        return draw(junk_objects)
    record = copy.deepcopy(draw(any_jogos).record)
    if how == "one_field":
        target = record
        path = pick(draw, list(record))
        if path in ("hand", "capital", "pay_all", "false_win") and isinstance(record[path], dict) and draw(COIN):
            target = record[path]
            path = pick(draw, list(target) or [""])
        target[path] = draw(json_values)
        return record
    if "hand" not in record:
        record["hand"] = {"concealed": "", "winning_tile": "1m"}
    hand = record["hand"]
    fields = ["concealed", "winning_tile"] + [f"melds[{i}]" for i in range(len(hand.get("melds", [])))]
    field = pick(draw, fields)
    if field.startswith("melds"):
        hand["melds"][int(field[6:-1])]["tiles"] = draw(tile_texts)
    else:
        hand[field] = draw(tile_texts)
    return record


@given(junk_records())
def test_junk_is_refused_as_malformed_or_scored_never_crashes(junk):
    try:
        jogo = read_record(junk)
    except MalformedRecord as error:
        assert str(error)
        return
    result = score(jogo)
    if not result.valid:
        assert_breaches_name_their_article(result)
    json.dumps(result.as_dict())


# Amounts may be written as decimal strings ("5000", "90.00", docs/record-format.md). Strings that only
# look like numbers (signs, exponents, spaces, long fractions) must be refused as malformed, never
# crash: "1e4300" once raised a bare ValueError (int max str digits) and "1e999999" took ~30 s.
amount_texts = st.builds(
    lambda sign, digits, fraction, exponent, pad: f"{pad}{sign}{digits}{fraction}{exponent}{pad}",
    st.sampled_from(["", "", "-", "+"]),
    st.integers(0, 10**15).map(str),
    st.sampled_from(["", "", ".00", ".5", ".000", "."]),
    st.one_of(st.just(""), st.integers(0, 9_999).map(lambda e: f"e{e}"), st.integers(0, 99).map(lambda e: f"E-{e}")),
    st.sampled_from(["", "", " "]),
)


@given(field=st.sampled_from(["stake", "capital"]), text=amount_texts)
@example(field="stake", text="1e4300")
@example(field="capital", text="1e999999")
def test_amounts_written_as_strings_are_read_whole_or_refused_as_malformed(field, text):
    record = {"variant": CONVENTIONAL, "stake": 25, "round_wind": "E",
              "capital": {seat: 1000 for seat in SEATS}, "result": "draw"}
    if field == "stake":
        record["stake"] = text
    else:
        record["capital"]["S"] = text
    try:
        jogo = read_record(record)
    except MalformedRecord as error:
        assert str(error)
        return
    amount = jogo.stake if field == "stake" else jogo.capital["S"]
    assert type(amount) is int
    assert Decimal(amount) == Decimal(text.strip())  # a whole number of units, read exactly
    assert (1 if field == "stake" else 0) <= amount <= 10**12


def test_an_amount_string_above_the_largest_allowed_is_malformed():
    record = {"variant": CONVENTIONAL, "stake": "1000000000001", "round_wind": "E",
              "capital": {seat: 1000 for seat in SEATS}, "result": "draw"}
    with pytest.raises(MalformedRecord, match="above the most allowed"):
        read_record(record)
