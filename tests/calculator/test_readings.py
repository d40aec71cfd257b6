"""The register of readings (/audit/readings/) shows, book by book, the points where a classical
rule book is ambiguous, garbled or contradicts itself (issue 15): the code, the book's section,
its own words, the question, the alternatives and the default."""
from __future__ import annotations

import pytest
from django.conf import settings
from django.utils.html import escape

from casino.audit.readings import book_register
from casino.pit.roles import INSPECTOR, MANAGER
from regulation import books
from regulation.books import BOOK_READINGS
from tests.builders.pit import user

pytestmark = pytest.mark.django_db
PAGE = "/audit/readings/"


def test_the_register_has_a_section_per_book_with_its_points_in_order():
    sections = book_register()
    assert [section.rules.code for section in sections] == [b.code for b in books.BOOKS]
    for section in sections:
        assert [point.reading.code for point in section.points] == [
            reading.code for reading in BOOK_READINGS if reading.book == section.rules.code]
        for point in section.points:
            defaults = [alternative.name for alternative, default in point.alternatives if default]
            assert defaults == [point.reading.default]
    assert sum(len(section.points) for section in sections) == len(BOOK_READINGS)


@pytest.mark.parametrize("role", [INSPECTOR, MANAGER])
def test_the_register_page_shows_every_books_reading_with_its_words_and_default(client, role):
    client.force_login(user("someone", role))
    html = client.get(PAGE).content.decode()
    for book in books.BOOKS:
        assert f'id="book-{book.code}"' in html
    for reading in BOOK_READINGS:
        section = html.split(f'<article class="reading book-reading" id="{reading.code}"', 1)[1].split("</article>")[0]
        assert escape(reading.section) in section
        assert escape(reading.words) in section
        assert escape(reading.question) in section
        for alternative in reading.alternatives:  # by its description; its code only for machines
            assert f'data-alternative="{alternative.name}"' in section and f"<code>{alternative.name}<" not in section
            assert escape(alternative.description) in section
        default_row = section.split(f'<tr data-alternative="{reading.default}" class="default">', 1)[1]
        default_row = default_row.split("</tr>")[0]
        assert "adopted by default" in default_row
        assert section.count('class="default"') == 1


def test_the_serralheiro_point_on_a_wind_pong_reads_in_portuguese_with_the_books_own_words(client):
    client.force_login(user("inspector", INSPECTOR))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt"
    html = client.get(PAGE).content.decode()
    section = html.split('id="S-A1"', 1)[1].split("</article>")[0]
    assert 'lang="pt"' in section and "Ventos (próprio, abridor, banqueiro)" in section
    assert "Os livros de regras clássicos" in html
