"""docs/translators.md holds: the Portuguese is spelt one way (the norm before the 1990
agreement, as the Portaria is), and the Chinese says each thing with one term."""
from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(ROOT.glob("casino/*/locale/*/LC_MESSAGES/django.po"))


def translations(language: str) -> list[tuple[str, str]]:
    found = []
    for path in (p for p in CATALOGUES if p.parts[-3] == language):
        for entry in polib.pofile(str(path)):
            for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                if text:
                    found.append((entry.msgid, text))
    return found


# The 1990 forms of words the catalogues use, each with the form they keep.
PORTUGUESE_1990 = {"ação": "acção", "ações": "acções", "correção": "correcção", "correções": "correcções",
                   "retificação": "rectificação", "retificações": "rectificações", "exceção": "excepção",
                   "exceções": "excepções", "atual": "actual", "ativo": "activo", "ativa": "activa",
                   "exatamente": "exactamente", "exato": "exacto", "inspetor": "inspector",
                   "inspetores": "inspectores", "inspeção": "inspecção", "infrator": "infractor",
                   "adota": "adopta", "adotada": "adoptada", "inatividade": "inactividade",
                   "atividade": "actividade", "afeto": "afecto"}


def test_the_portuguese_is_spelt_as_before_the_1990_agreement():
    words = {word.lower() for _msgid, text in translations("pt") for word in re.findall(r"\w+", text)}
    assert {word: PORTUGUESE_1990[word] for word in words & set(PORTUGUESE_1990)} == {}


@pytest.mark.parametrize("avoided", ["錢箱", "每日報告", "更次"])  # 佣金箱, 每日報表, 班次 instead
def test_the_chinese_says_each_thing_one_way(avoided):
    assert [msgid for msgid, text in translations("zh_Hant") if avoided in text] == []


def test_a_shift_is_numbered_with_its_own_word():
    assert [msgid for msgid, text in translations("zh_Hant") if re.search(r"第%\(shift\)s更|第\{shift\}更", text)] == []


def test_the_portuguese_cites_articles_one_way():
    """As article_name writes them: "Art. 10.º(a)(1)", never "art. 10.º, a), 1)"."""
    cited = [text for _msgid, text in translations("pt")
             if re.search(r"\bart\. \d", text) or re.search(r"\d\.º, [a-z]\)", text)]
    assert cited == []
