"""The dealer's screen under the readings of docs/rules.md §9: the broken set of a 10(a)(5) pay-all
(I-12), the commission limited to what the winner receives (I-8), and the refusals of I-14 with
their article, through Django's test client."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from casino.pit.forms import JogoForm, form_field
from casino.pit.models import Jogo
from casino.terms.vocabulary import localise
from regulation import read_record, score
from tests.builders.pit import next_record, seat

pytestmark = pytest.mark.django_db

# South wins 444m 678p 234s 99s with 777p exposed, on West's 4m (the example of I-12).
BROKEN_CHOW = {"result": "win", "winner": "S", "discarder": "W", "concealed": "44m678p234s99s", "winning_tile": "4m",
               "meld_kind_0": "pong", "meld_tiles_0": "777p", "declared_fan": "0",
               "pay_all_seat": "W", "pay_all_article": "10(a)(5)"}


def test_i12_the_dealer_records_a_10a5_pay_all_for_a_broken_chow(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    preview = dealer.post(reverse("pit:preview", args=[t1.pk]), {**BROKEN_CHOW, "pay_all_broken_set": "chow"})
    assert "Valid under Portaria 135/91/M" in preview.content.decode()

    response = dealer.post(reverse("pit:jogo", args=[t1.pk]),
                           {**BROKEN_CHOW, "pay_all_broken_set": "chow", "action": "save", "key": "k1"})

    assert response.status_code == 302
    row = Jogo.objects.get(table=t1)
    assert row.record["pay_all"] == {"seat": "W", "article": "10(a)(5)", "live_tile": False, "broken_set": "chow"}
    # Chicken at 25/50: West pays all the dues, 25 + 25 + 50 = 100 (I-9); South nets 90.
    assert row.outcome["payments"] == [{"from": "W", "to": "S", "amount": 100}]


def test_i12_the_same_hand_under_a_broken_pong_is_refused_with_its_article(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])

    page = dealer.post(reverse("pit:preview", args=[t1.pk]), {**BROKEN_CHOW, "pay_all_broken_set": "pong"}
                       ).content.decode()

    assert "cannot be saved" in page and "Art. 10(a)(5)" in page and "triplet" in page


def test_i12_the_broken_set_goes_into_the_record_only_for_10a5():
    form = JogoForm({**BROKEN_CHOW, "pay_all_article": "10(a)(6)", "pay_all_broken_set": "pong"},
                    seats={"E": "E", "S": "S", "W": "W", "N": "N"}, variant="conventional")
    assert form.is_valid(), form.errors
    assert "broken_set" not in form.record({})["pay_all"]


def test_i12_a_broken_chow_under_another_article_is_shown_on_its_field(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])

    page = dealer.post(reverse("pit:preview", args=[t1.pk]),
                       {**BROKEN_CHOW, "pay_all_article": "10(a)(6)", "pay_all_broken_set": "chow"}).content.decode()

    assert "cannot be saved" in page
    assert "only a pay-all under Art. 10(a)(5) says which set was broken" in page
    assert not Jogo.objects.exists()


def test_i12_an_error_on_the_broken_set_belongs_to_its_form_field():
    assert form_field("pay_all.broken_set") == "pay_all_broken_set"


def test_i12_the_simplified_screen_has_no_broken_set_choice():
    form = JogoForm(seats={"E": "E", "S": "S"}, variant="simplified")
    assert "pay_all_broken_set" not in form.fields


def test_i12_the_broken_set_choice_reads_in_chinese(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    with translation.override("zh-hant"):
        page = dealer.get(reverse("pit:table", args=[t1.pk]), HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "所拆之牌" in page


def test_i8_the_preview_says_the_commission_is_limited_to_what_the_winner_receives(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"], capital=[5000, 5, 2000, 4000])  # South (chair 1) has 5 at stake

    page = dealer.post(reverse("pit:preview", args=[t1.pk]),
                       {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p",
                        "winning_tile": "1p", "declared_fan": "0"}).content.decode()

    # Capped at 5: W 1, N 1, E 3; the commission (10 at 25/50) is the 5 he receives (I-8).
    assert '<dd class="commission">5</dd>' in page
    assert "no more than the winner receives (I-8)" in page


@pytest.mark.parametrize("language, words", [
    ("pt", ["Art. 10.º", "«nulo»", "Norte"]),
    ("zh-hant", ["第十條", "詐糊", "北"]),
    ("en", ["Art. 10(a)(8)", "false win", "North"]),
])
def test_the_false_win_with_a_winning_hand_reads_in_each_language(language, words):
    record = {"variant": "conventional", "stake": 25, "round_wind": "E",
              "capital": {"E": 5000, "S": 5000, "W": 5000, "N": 5000}, "result": "false_win",
              "false_win": {"seat": "N"}, "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}}
    breach, = score(read_record(record)).breaches
    with translation.override(language):
        text = localise(breach)
    for word in words:
        assert word in text, (word, text)


def test_i12_the_api_takes_the_broken_set_in_the_portable_record(people):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    client = APIClient()
    client.force_authenticate(staff_["dealer"])
    record = next_record(game, hand={"concealed": "44m678p234s99s", "winning_tile": "4m",
                                     "melds": [{"kind": "pong", "tiles": "777p", "exposed": True}]},
                         pay_all={"seat": "W", "article": "10(a)(5)", "broken_set": "chow"})

    response = client.post(f"/api/v1/tables/{t1.pk}/jogos/", record, format="json", HTTP_JOGO_NUMBER="1")

    assert response.status_code == 201, response.content
    assert Jogo.objects.get(table=t1).outcome["payments"] == [{"from": "W", "to": "S", "amount": 100}]


def test_i8_the_receipt_says_the_commission_is_limited_to_what_the_winner_received(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"], capital=[5000, 5, 2000, 4000])
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]),
                           {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p",
                            "winning_tile": "1p", "declared_fan": "0", "action": "save", "key": "k8"})
    row = Jogo.objects.get(table=t1)
    assert row.commission == 5

    page = dealer.get(response["Location"]).content.decode()
    assert '<span class="commission">5</span> (no more than the winner receives (I-8))' in page


def test_i8_a_receipt_with_the_full_commission_has_no_such_note(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]),
                           {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p",
                            "winning_tile": "1p", "declared_fan": "0", "action": "save", "key": "k9"})

    page = dealer.get(response["Location"]).content.decode()
    assert '<span class="commission">10</span>' in page
    assert "no more than the winner receives" not in page
