"""What a person reads on a page, and the words that must not be there: a raw code, an English
word on a Portuguese or Chinese page, a seat as a bare letter, an article cited in another
language's style. The pages' translation tests of every part read pages with these."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from django.conf import settings

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


USERNAMES = re.compile(r"\b(supervisor2|supervisor|dealer|inspector|manager)\b")  # tests/builders/pit.py's staff


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


def page(client, person, language: str, url: str, data: dict | None = None) -> str:
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(url, data) if data is not None else client.get(url)
    assert response.status_code in (200, 400), (url, response.status_code)
    return response.content.decode()
