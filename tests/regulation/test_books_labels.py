"""Every code a book result can carry has an English label, and every reading of the register
names its book, its default and the book's own words."""
import re
from pathlib import Path

from regulation.books import BOOK_READINGS, BOOKS, LABELS

SOURCE = Path(__file__).resolve().parents[2] / "regulation" / "books"
CODE = re.compile(r'(?:Item|LimitHand|BookError)\("([a-z_]+)"|\("([a-z_]+)", \d+, |\("([a-z_]+)", (?:not |record|no_)')


def codes_in_source():
    found = set()
    for path in set(SOURCE.glob("*.py")) - {SOURCE / "record.py"}:
        for match in CODE.finditer(path.read_text()):
            found.add(next(group for group in match.groups() if group))
    for kind in ("flower", "season"):
        found |= {f"own_{kind}", f"opener_{kind}", f"{kind}_bouquet", f"{kind}_set", kind}
    found |= {f"{state}_{kind}" for state in ("exposed", "concealed") for kind in ("pong", "kong")}
    found |= {"pair", "three_wind_pongs", "winds_and_dragons", "serpent", "malformed_record"}
    return found


def test_every_code_has_an_english_label():
    missing = codes_in_source() - set(LABELS)
    assert not missing


def test_every_reading_names_a_book_its_default_and_the_book_words():
    books = {b.code: b for b in BOOKS}
    for reading in BOOK_READINGS:
        assert reading.book in books
        assert reading.words and reading.question and reading.section
        names = [a.name for a in reading.alternatives]
        assert len(names) >= 2 and reading.default in names
        assert reading.alternative(reading.default).implemented
        assert books[reading.book].readings[reading.code] == reading.default


def test_each_book_adopts_reading_1_except_s_a2():
    for reading in BOOK_READINGS:
        expected = 1 if reading.code == "S-A2" else 0
        assert reading.default == reading.alternatives[expected].name, reading.code


def test_every_reading_of_the_digest_is_in_the_register():
    codes = {r.code for r in BOOK_READINGS}
    assert codes == ({f"S-A{n}" for n in range(1, 17)} | {f"E-A{n}" for n in range(1, 11)}
                     | {f"P-A{n}" for n in range(1, 15)})


def test_every_label_and_reading_is_translated_into_portuguese_and_chinese():
    import polib

    from regulation.books import BOOKS

    wanted = set(LABELS.values()) | {b.title for b in BOOKS}
    for reading in BOOK_READINGS:
        wanted |= {reading.question, *(a.description for a in reading.alternatives)}
    for language in ("pt", "zh_Hant"):
        path = SOURCE.parent.parent / "casino/terms/locale" / language / "LC_MESSAGES/django.po"
        catalogue = {e.msgid: e for e in polib.pofile(str(path))}
        untranslated = [text for text in wanted
                        if text not in catalogue or not catalogue[text].msgstr or catalogue[text].fuzzy]
        assert untranslated == [], language
