"""The dealer's table screen and its receipts as pages (issue 23 §1, §3), through Django's test
client: the pay-all article chosen by its number and a few words with its full text beside it,
the keys shown in every language, receipts that name the winner and the discarder and list the
grade's items, a superseded receipt's way to the current revision, and the printable receipt
without a link to itself."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from casino.pit import selectors, services
from casino.pit.demo import DRAGON_SELF_DRAWN, PAY_ALL
from casino.terms.vocabulary import article_name, fan_item_name, pay_all_article_text
from tests.builders.pit import NOON, next_record, seat

pytestmark = pytest.mark.django_db


def page(client, user, url: str, language: str = "en", **query) -> str:
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def recorded(people, fields: dict):
    staff_, t1, _ = people
    game = selectors.open_game(t1) or seat(t1, staff_["dealer"])
    jogo, _ = services.record_jogo(table=t1, user=staff_["dealer"], at=NOON,
                                   record={**selectors.record_header(game), "result": "win", **fields})
    return jogo


# --- §1: the pay-all article fits a tablet ---------------------------------------------------------

@pytest.mark.parametrize("language, words", [
    ("en", "pure one suit, 4th set"), ("pt", "«ch'êng iat sêk», 4.º conjunto"), ("zh-hant", "清一色十二章")])
def test_art_10_the_pay_all_article_is_chosen_by_its_number_and_a_few_words_its_full_text_under_it(
        client, people, language, words):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    with translation.override(language):
        article, text = article_name("10(a)(2)"), pay_all_article_text("10(a)(2)")
    html = page(client, staff_["dealer"], reverse("pit:table", args=[t1.pk]), language)
    options = [unescape(option) for option in re.findall(r'<option value="10\([ab]\)\(\d\)">([^<]+)</option>', html)]
    assert len(options) == 6 and max(len(option) for option in options) <= 48
    assert f"{article} · {words}" in options
    # Every article's full text is in the page, each shown only once chosen (none is yet).
    assert f'<span data-article="10(a)(2)" hidden>{text}</span>' in html.replace("&#x27;", "'")
    chosen = client.post(reverse("pit:jogo", args=[t1.pk]), {
        "action": "preview", "result": "win", "winner": "S", "discarder": "W", "pay_all_seat": "W",
        "pay_all_article": "10(a)(2)"}).content.decode().replace("&#x27;", "'")
    assert f'<span data-article="10(a)(2)">{text}</span>' in chosen


# --- §3: the keys, shown ---------------------------------------------------------------------------

@pytest.mark.parametrize("language, words", [
    ("en", ["In a choice of seat, press the seat's key:", "<kbd data-seat-key=\"W\">W</kbd> West",
            "none (self-drawn)"]),
    ("pt", ["Numa escolha de lugar, prima a tecla do lugar:", "<kbd data-seat-key=\"W\">O</kbd> Oeste",
            "nenhum (tirada pelo próprio)"]),
    ("zh-hant", ["選擇位置時，按該位置的鍵：", "<kbd data-seat-key=\"W\">W</kbd> 西位", "無（自摸）"]),
])
def test_the_keys_of_the_result_winner_discarder_grade_and_save_are_shown_in_every_language(
        client, people, language, words):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    html = page(client, staff_["dealer"], reverse("pit:table", args=[t1.pk]), language).replace("&#x27;", "'")
    for key, reaches in [("R", 'name="result"'), ("W", 'name="winner"'), ("D", 'name="discarder"'),
                         ("G", 'name="declared_fan"'), ("S", 'value="save"')]:
        assert f"<kbd>Alt+{key}</kbd>" in html
        assert re.search(rf'aria-keyshortcuts="Alt\+{key}"[^>]*>|<[^>]*{reaches}[^>]*aria-keyshortcuts="Alt\+{key}"',
                         html), key
    for word in words:
        assert word in html
    assert "accesskey" not in html  # one way to a key: the page's own, shown beside it


# --- §3: receipts --------------------------------------------------------------------------------

# The dealer reads the players' names masked ("Player 1" → "P***** 1", casino/pit/privacy.py).
@pytest.mark.parametrize("language, winner, discarder", [
    ("en", "<strong>Winner</strong> South · P***** 1", "<strong>Discarder</strong> West · P***** 2"),
    ("zh-hant", "<strong>食糊者</strong> 南位 · P***** 1", "<strong>出冲者</strong> 西位 · P***** 2"),
])
def test_a_receipt_names_the_winner_and_the_discarder_and_lists_the_grades_items(client, people, language, winner,
                                                                                 discarder):
    jogo = recorded(people, PAY_ALL)  # South's pure one suit on West's discard, West paying for all
    (only,) = jogo.outcome["items"]  # Art. 6(a)(2): pure one suit, 2 fán
    with translation.override(language):
        item = f"<td>{fan_item_name(only['code'])}</td><td>{article_name(only['article'])}</td>"
    dealer = people[0]["dealer"]
    for html in (page(client, dealer, reverse("pit:receipt", args=[jogo.pk]), language),
                 page(client, dealer, reverse("pit:table", args=[jogo.table_id]), language, receipt=jogo.pk)):
        receipt = html[html.index('class="card receipt"'):].replace("&#x27;", "'")
        assert winner in receipt and discarder in receipt
        assert item.replace("&#x27;", "'") in receipt


def test_a_self_drawn_receipt_says_so_and_a_chicken_hand_has_no_item(client, people):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    self_drawn = recorded(people, DRAGON_SELF_DRAWN)  # East self-draws a pong of red dragons: 1 fán
    html = page(client, staff_["dealer"], reverse("pit:receipt", args=[self_drawn.pk]), "pt")
    with translation.override("pt"):
        assert f"<strong>{gettext('Discarder')}</strong> {gettext('Self-drawn')}" in html
    chicken, _ = services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=NOON)
    html = page(client, staff_["dealer"], reverse("pit:receipt", args=[chicken.pk]))
    assert "Chicken hand (雞糊): no item, 0 fán" in html


def test_a_superseded_receipt_links_to_the_current_revision(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    first = recorded(people, PAY_ALL)
    amendment = services.propose_amendment(jogo=first, user=staff_["supervisor"], reason="camera 12:05",
                                           record={**first.record, "pay_all": None})
    services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True)
    current = current_revision(first)
    html = page(client, staff_["dealer"], reverse("pit:receipt", args=[first.pk]))
    assert "This revision has been superseded by an amendment." in html
    assert f'<a href="{reverse("pit:receipt", args=[current.pk])}">The current revision is 1.</a>' in html
    assert "superseded" not in page(client, staff_["dealer"], reverse("pit:receipt", args=[current.pk]))


def current_revision(jogo):
    from casino.pit.models import Jogo

    return Jogo.objects.filter(table=jogo.table, number=jogo.number).order_by("-revision").first()


def test_the_printable_receipt_does_not_link_to_itself_and_the_tables_receipt_links_to_it(client, people):
    jogo = recorded(people, PAY_ALL)
    dealer = people[0]["dealer"]
    own = reverse("pit:receipt", args=[jogo.pk])
    printable = page(client, dealer, own)
    assert f'href="{own}"' not in printable and "Printable receipt" not in printable
    assert f'href="{own}"' in page(client, dealer, reverse("pit:table", args=[jogo.table_id]), receipt=jogo.pk)
    inspector = page(client, people[0]["inspector"], own)  # the way to the audit stays
    assert f'href="{reverse("audit:jogo", args=[jogo.pk])}"' in inspector and f'href="{own}"' not in inspector
