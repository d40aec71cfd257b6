"""The count room's screens and the case's PDF in Portuguese and Traditional Chinese carry no
English word and no raw code (the checker of tests/web/test_translations_pages.py), and say what
they say in the person's language."""
from __future__ import annotations

import re

import pytest

from casino.count import cases, services
from casino.count.pdf import case_html
from casino.count.selectors import case_file
from casino.pit.models import Jogo
from tests.builders.cases import correct_to_a_draw, short_case
from tests.builders.count import NOON
from tests.builders.words import page, read, wrong_words

pytestmark = pytest.mark.django_db

PERSONS = {"pt": "Rui Lopes", "zh-hant": "陳大文"}  # what people typed is shown as typed


@pytest.fixture
def worked():
    """A case reopened by a correction and escalated, with a recount; a rotation entry."""
    people, t1, case = short_case()
    cases.mark_explained(case=case, user=people["inspector"], note="Rui Lopes")
    correct_to_a_draw(Jogo.objects.get(table=t1, number=1, revision=0), people["supervisor"], people["manager"])
    cases.escalate(case=case, user=people["inspector"], note="陳大文")
    services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    return people, t1, case


# The PDF's languages, each named in itself (as the language menu names them).
OWN_NAMES = {"Português", "English", "繁體中文"}


def clean(texts: list[str]) -> list[str]:
    return [text.replace("Rui Lopes", "").replace("陳大文", "").replace("counter1", "").replace("counter2", "")
            for text in texts if text not in OWN_NAMES]


@pytest.mark.parametrize("language", ["pt", "zh-hant"])
@pytest.mark.parametrize("who, url", [("manager", "/count/cases/{case}/"), ("inspector", "/count/cases/?state=all"),
                                      ("supervisor", "/count/rotation/?day=2026-11-21"),
                                      ("supervisor", "/count/rotation/draft?day=2026-11-21&shift=2"),
                                      ("manager", "/reports/?casino={casino}&day=2026-11-21")])
def test_the_count_room_s_screens_have_no_english_word(client, worked, language, who, url):
    people, t1, case = worked
    texts = clean(read(page(client, people[who], language, url.format(case=case.pk, casino=t1.casino_id))))
    assert len(texts) > 10
    assert wrong_words(texts, language) == []


@pytest.mark.parametrize("language, words", [("pt", ["Reaberto após uma rectificação", "Remetido à entidade reguladora",
                                                     "remetido à entidade reguladora", "a menos"]),
                                             ("zh-hant", ["因更正而重開", "已上報監管機構", "多出"])])
def test_the_case_s_pdf_page_is_in_the_regulator_s_language(worked, language, words):
    people, t1, case = worked
    html = case_html(case_file(case), language=language)
    for word in words:
        assert word in html
    # The software version names its commit.
    texts = [re.sub(r"\d+\.\d+\.\d+ \([\w-]+\)", "", text) for text in clean(read(html))]
    assert wrong_words(texts, language) == []
