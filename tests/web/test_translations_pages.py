"""The main pages in Portuguese and Traditional Chinese carry no raw code, no English word and
no chair numbered from 0: what a person reads is in his language (issue 14 §5).

Each page is rendered by Django's test client in the language chosen by the language cookie,
and its visible text is read as a person reads it. Left out: the portable record and codes an
inspector copies (<pre>, <code>), the keys pressed (<kbd>), the language menu (each language in
its own name), the user name in the header, and what people typed (player names, a supervisor's
reason).
"""
from __future__ import annotations

import re

import pytest

from casino.pit import errors, services
from casino.pit.models import Jogo
from tests.builders.audit import DAY, plant, record_next
from tests.builders.pit import NOON, on_rotation, staff
from tests.builders.words import NAMES, REASON, page, read, wrong_words

pytestmark = pytest.mark.django_db

@pytest.fixture
def casino():
    """T1's gaming day: a win, a draw, a false win, a pay-all and a misdeclared grade, with
    named players; the first jogo amended (so later jogos carry the capital), a row whose
    stored figures are not the engine's, and a refused attempt."""
    from casino.pit.demo import FALSE_WIN, PAY_ALL
    from tests.builders.audit import MISDECLARED
    from tests.builders.pit import DRAW

    people, t1, _ = staff()
    on_rotation(t1, people["dealer"], NOON)
    game = services.start_game(table=t1, user=people["dealer"], witness=people["supervisor"], first_banker=0,
                               at=NOON, players=[
        {"chair": chair, "name": name, "capital": amount}
        for chair, (name, amount) in enumerate(zip(NAMES, [5000, 3000, 2000, 4000]))])
    rows = [record_next(game, people["dealer"], **fields)
            for fields in ({}, DRAW, {**FALSE_WIN, "winner": None, "discarder": None, "hand": None},
                           {**PAY_ALL}, MISDECLARED)]
    amendment = services.propose_amendment(jogo=rows[0], user=people["supervisor"], reason=REASON,
                                          record={**rows[0].record, "winner": "N", "discarder": "W"})
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)
    carried = Jogo.objects.filter(table=t1, kind=Jogo.CARRIED).first()
    plant(game, people["dealer"], commission=20, fan_mismatch=True)  # differs from the engine
    with pytest.raises(errors.Refused):  # a refused attempt, which a supervisor may confirm
        services.record_jogo(table=t1, user=people["dealer"], record={**rows[1].record, "stake": 30}, at=NOON)
    return people, t1, rows, carried


def pages(casino):
    people, t1, rows, carried = casino
    day = f"day={DAY.isoformat()}"
    dealer, inspector, manager = people["dealer"], people["inspector"], people["manager"]
    return {
        "tables": (dealer, "/pit/", None),
        "table with a game": (dealer, f"/pit/tables/{t1.pk}/", None),
        "refused save": (dealer, f"/pit/tables/{t1.pk}/jogo", {
            "result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11x",
            "winning_tile": "1p", "meld_kind_0": "chow", "meld_tiles_0": "235s", "action": "save"}),
        "receipt": (dealer, f"/pit/jogos/{carried.pk}/", None),
        "audit index": (inspector, f"/audit/?{day}", None),
        "commission": (inspector, f"/audit/commission/?{day}", None),
        "exceptions": (inspector, f"/audit/exceptions/?{day}", None),
        "explained jogo": (inspector, f"/audit/jogos/{rows[3].pk}/", None),
        "explained carried jogo": (inspector, f"/audit/jogos/{carried.pk}/", None),
        "reports index": (manager, f"/reports/?{day}", None),
        "table trend": (inspector, f"/audit/tables/{t1.pk}/trend/?{day}", None),
        "every number accounted for": (inspector, f"/audit/accounted/?{day}", None),
        "refused attempts": (people["supervisor"], f"/pit/refusals/?{day}", None),
    }


NAMES_OF_PAGES = ["tables", "table with a game", "refused save", "receipt", "audit index", "commission",
                  "exceptions", "explained jogo", "explained carried jogo", "reports index", "table trend",
                  "every number accounted for", "refused attempts"]


@pytest.mark.parametrize("language", ["pt", "zh-hant"])
@pytest.mark.parametrize("name", NAMES_OF_PAGES)
def test_a_main_page_has_no_raw_code_and_no_english_word(client, casino, language, name):
    person, url, data = pages(casino)[name]
    texts = read(page(client, person, language, url, data))
    assert len(texts) > 10
    assert wrong_words(texts, language) == []


def test_the_checker_finds_what_it_looks_for():
    """The words this test refuses are found when they are there."""
    for text in ["conventional", "Resultado: win", "chow 123m", "Comissão (Art. 8)", "和局", "Banker's chair 0",
                 "hand.concealed: x", "hand.melds[0] é", "4, E (Art. 3)", "capital carried from the amendment"]:
        assert wrong_words([text], "pt") == [text], text
    assert wrong_words(["條文 10(a)(7)"], "zh-hant") == ["條文 10(a)(7)"]
    assert wrong_words(["Art. 8.º", "Art. 10.º(a)(1)", "第十條(甲)(1)"], "pt") == []
    assert wrong_words(["第十條(甲)(1)", "限紅 25/50（第八條）"], "zh-hant") == []


def test_the_explained_jogo_numbers_chairs_from_1_and_names_seats_and_rounds(client, casino):
    people, t1, rows, carried = casino
    text = " | ".join(read(page(client, people["inspector"], "pt", f"/audit/jogos/{rows[3].pk}/")))
    # Jogo 4 as first recorded: South won jogo 1, so the bank had passed to the second chair.
    assert "Cadeira do banqueiro, vento da roda | 2, roda Este («t'ông hin») (Art. 3.º)" in text
    assert "capital transportado da rectificação do jogo 1" in " | ".join(
        read(page(client, people["inspector"], "pt", f"/audit/jogos/{carried.pk}/")))



@pytest.mark.parametrize("language", ["pt", "zh-hant"])
def test_the_daily_report_has_no_raw_code_and_no_english_word(casino, language):
    from casino.reports.pdf import report_html
    from casino.reports.selectors import daily_summary

    people, t1, rows, carried = casino
    texts = read(report_html(daily_summary(t1.casino, DAY), language=language))
    # The rule set's identifier follows its title, which is in the report's language; the
    # software version names its commit.
    texts = [re.sub(r"\d+\.\d+\.\d+ \([\w-]+\)", "", text.replace("[portaria-135-91-M]", "")) for text in texts]
    assert len(texts) > 10
    assert wrong_words(texts, language) == []
