"""The counter's screens through Django's test client: the boxes ready to count, the blind count
form signed with the password, the figures once both agree, the recount, and who may see them."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from casino.count.models import Count, Signature
from tests.builders.count import PASSWORD, box_played_yesterday, cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready(settings):
    """T1 played yesterday at this hour (commission 20): its box is ready to count."""
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    people, t1, t2 = cast()
    return people, box_played_yesterday(t1, people["dealer"])


def as_user(client, person, language="en"):
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def sign(client, box, counted, password=PASSWORD, attempt=1, **chips):
    """Sign count `attempt` of the box, as the form does (it carries the count it was shown)."""
    return client.post(reverse("counting:box", args=[box.pk]),
                       {"attempt": attempt, "counted": counted, "password": password, **chips})


def test_a_counter_lands_on_the_boxes_to_count(client, ready):
    people, box = ready
    response = as_user(client, people["counter1"]).get("/", follow=True)
    assert response.redirect_chain[-1][0] == reverse("counting:boxes")
    assert f'data-box="{box.pk}"' in response.content.decode()


@pytest.mark.parametrize("role,status", [("counter1", 200), ("inspector", 200), ("manager", 200), ("dealer", 403),
                                         ("supervisor", 403)])
def test_who_may_see_the_boxes(client, ready, role, status):
    people, box = ready
    as_user(client, people[role])
    assert client.get(reverse("counting:boxes")).status_code == status
    assert client.get(reverse("counting:box", args=[box.pk])).status_code == status


@pytest.mark.parametrize("role", ["inspector", "manager", "dealer", "supervisor"])
def test_only_counters_count(client, ready, role):
    people, box = ready
    response = sign(as_user(client, people[role]), box, 20)
    assert response.status_code == 403 and not Signature.objects.exists()


def test_the_blind_count_shows_the_figures_only_once_both_have_signed(client, ready):
    people, box = ready
    response = sign(as_user(client, people["counter1"]), box, 18, chip_0=5, quantity_0=2, chip_1=1, quantity_1=8)
    assert response.status_code == 302
    page = client.get(reverse("counting:box", args=[box.pk])).content.decode()
    assert "You have signed this count" in page and 'class="num expected"' not in page and ">20<" not in page
    page = as_user(client, people["counter2"]).get(reverse("counting:box", args=[box.pk])).content.decode()
    assert 'name="sign"' in page and 'class="num expected"' not in page
    sign(client, box, 18)
    page = client.get(reverse("counting:box", args=[box.pk])).content.decode()
    assert '<td class="num counted">18</td>' in page and '<td class="num expected">20</td>' in page
    assert '<td class="num variance">-2</td>' in page
    assert 'name="recount"' not in page  # once the counters agreed, a recount is a manager's to approve
    assert Signature.objects.order_by("seq").first().denominations == {"1": 8, "5": 2}


def test_a_refused_count_is_shown_in_the_counters_language_and_nothing_is_signed(client, ready):
    people, box = ready
    response = sign(as_user(client, people["counter1"], "pt"), box, 20, password="wrong")
    assert response.status_code == 400 and "Palavra-passe" in response.content.decode()
    response = sign(client, box, -3)
    assert response.status_code == 400 and "nunca é negativo" in response.content.decode()
    response = sign(as_user(client, people["counter1"], "zh-hant"), box, 20, chip_0=5, quantity_0=3)
    # The chips listed come to 15, not the 20 counted: said once, in the list of problems.
    assert response.status_code == 400
    assert ('<li class="error" data-code="denominations">按面值的籌碼：所列籌碼合計15，而非點算金額20。</li>'
            in response.content.decode())
    assert not Signature.objects.exists()


def test_a_recount_from_the_screen_keeps_the_first_count(client, ready):
    people, box = ready
    sign(as_user(client, people["counter1"]), box, 20)
    sign(as_user(client, people["counter2"]), box, 25)
    page = client.get(reverse("counting:box", args=[box.pk])).content.decode()
    assert "the two totals differ" in page and 'class="num expected"' not in page and "20 · 25" in page
    assert client.post(reverse("counting:recount", args=[box.pk]), {"reason": ""}).status_code == 400
    response = client.post(reverse("counting:recount", args=[box.pk]), {"reason": "the totals differed"})
    assert response.status_code == 302
    assert [c.reason for c in Count.objects.order_by("attempt")] == ["", "the totals differed"]
    assert 'name="sign"' in client.get(reverse("counting:box", args=[box.pk])).content.decode()


@pytest.mark.parametrize("language", ["pt", "zh-hant"])
def test_the_counters_screens_have_no_english_word(client, ready, language):
    from tests.builders.words import page, read, wrong_words

    people, box = ready
    sign(as_user(client, people["counter1"], language), box, 15)
    being_counted = page(client, people["counter2"], language, reverse("counting:box", args=[box.pk]))
    refused = page(client, people["counter2"], language, reverse("counting:box", args=[box.pk]),
                   {"attempt": 1, "counted": "-1", "password": PASSWORD})
    sign(as_user(client, people["counter2"], language), box, 15)
    for html in (being_counted, refused, page(client, people["counter1"], language, reverse("counting:boxes")),
                 page(client, people["counter1"], language, reverse("counting:box", args=[box.pk]))):
        texts = [text.replace("counter1", "").replace("counter2", "") for text in read(html)]
        assert len(texts) > 10
        assert wrong_words(texts, language) == []
