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
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.utils import translation

from casino.pit import errors, services
from casino.pit.models import Jogo
from tests.audit import DAY, plant, record_next
from tests.pit import NOON, staff

pytestmark = pytest.mark.django_db

NAMES = ["陳大文", "Ana Sousa", "李小玲", "Rui Lopes"]
REASON = "vídeo 03:12 / 錄影 03:12"  # what the supervisor typed: shown as typed

# Record values and field paths that must never reach a person.
RAW = re.compile(r"\b(conventional|simplified|win|draw|false_win|chow|pong|kong|recorded|carried|amended|"
                 r"pay_all|winner|discarder|hand\.\w+|melds\[\d\]|capital\.\w|chair 0)\b|\(Art\. \d+\)|和局")
# English words of the interface, which Portuguese and Chinese pages translate.
ENGLISH = re.compile(r"\b(the|and|of|with|per|Table|Tables|Chair|Winner|Banker|Commission|Receipt|Round|"
                     r"Player|Result|Save|Preview|Gaming day|Exception|Audit|Daily|Reports?|Rule set|"
                     r"Portaria No\.|capital carried|pays for|tier|East|South|West|North|Meld|tiles)\b")
# A seat wind or a round written as its letter alone ("E", "4, E (Art. 3)").
LETTER = re.compile(r"(?:^|[\s,(])[ESWN](?:$|[\s,)])")
# Portuguese cites "Art. 10.º(a)(1)", Chinese 第十條(甲)(1): an article without its ordinal, or
# a bare "10(a)(7)", is the English style.
PT_CITATION = re.compile(r"\b[Aa]rt\. \d+(?!\d*\.º)")
BARE_ARTICLE = re.compile(r"\b\d+\([ab]\)")


USERNAMES = re.compile(r"\b(supervisor2|supervisor|dealer|inspector|manager)\b")  # tests/pit.py's staff


class Reader(HTMLParser):
    """The text a person reads on a page, one string per text node."""

    SKIP = {"script", "style", "pre", "code", "select", "kbd"}  # kbd: a key to press (E, Alt+S), not a word

    def __init__(self):
        super().__init__()
        self.texts, self.skipping = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.SKIP or attrs.get("class") == "who" or attrs.get("id") == "language":
            self.skipping.append(tag)
            return
        if tag == "input" and attrs.get("value") and attrs.get("type") in ("submit", "button"):
            self.texts.append(attrs["value"])
        for name in ("title", "aria-label", "placeholder"):
            if attrs.get(name):
                self.texts.append(attrs[name])

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append(" ".join(data.split()))


def read(html: str) -> list[str]:
    reader = Reader()
    reader.feed(html)
    texts = []
    for text in reader.texts:
        for words in [*NAMES, REASON, "Casino Lisboa"]:
            text = text.replace(words, "")
        texts.append(USERNAMES.sub("", text))
    return texts


def wrong_words(texts: list[str], language: str) -> list[str]:
    found = []
    for text in texts:
        if RAW.search(text) or ENGLISH.search(text) or LETTER.search(text) or BARE_ARTICLE.search(text):
            found.append(text)
        elif language == "pt" and PT_CITATION.search(text):
            found.append(text)
        elif language == "zh-hant" and re.search(r"\bArt\b|[A-Za-z]{4,}", text.replace("Mah-Jong", "")
                                                 .replace("JSONL", "").replace("XLSX", "")):
            found.append(text)
    return found


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request in another language leaves it active in this thread: later tests read English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def casino():
    """T1's gaming day: a win, a draw, a false win, a pay-all and a misdeclared grade, with
    named players; the first jogo amended (so later jogos carry the capital), a row whose
    stored figures are not the engine's, and a refused attempt."""
    from casino.pit.demo import FALSE_WIN, PAY_ALL
    from tests.audit import MISDECLARED
    from tests.pit import DRAW

    people, t1, _ = staff()
    game = services.start_game(table=t1, user=people["dealer"], first_banker=0, at=NOON, players=[
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


def page(client, person, language: str, url: str, data: dict | None = None) -> str:
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(url, data) if data is not None else client.get(url)
    assert response.status_code in (200, 400), (url, response.status_code)
    return response.content.decode()


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
