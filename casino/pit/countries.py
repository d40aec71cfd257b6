"""Countries by their ISO 3166-1 alpha-2 code (a document's issuer, a player's nationality),
named in the reader's language from pycountry's own catalogues (Debian's iso-codes): 'pt' for
Portuguese, 'zh_TW' for Traditional Chinese."""
from __future__ import annotations

import gettext
from functools import cache

import pycountry
from django.utils.translation import get_language

# The project's languages (settings.LANGUAGES) → iso-codes' catalogue of country names.
_CATALOGUE = {"pt": "pt", "zh-hant": "zh_TW"}


@cache
def _names(language: str) -> gettext.NullTranslations:
    catalogue = _CATALOGUE.get(language)
    if catalogue is None:
        return gettext.NullTranslations()
    return gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[catalogue], fallback=True)


@cache
def _codes() -> dict[str, str]:
    """{code: English name}, the common name where ISO's is long ("Taiwan", not "Taiwan,
    Province of China"; "Macao")."""
    return {country.alpha_2: getattr(country, "common_name", country.name) for country in pycountry.countries}


def is_country(code: str) -> bool:
    return code in _codes()


def country_name(code: str) -> str:
    """The country's name in the active language; the code itself for an unknown one ("" for "")."""
    english = _codes().get(code)
    if english is None:
        return code
    return _names((get_language() or "en").lower()).gettext(english)


def country_choices() -> list[tuple[str, str]]:
    """(code, name) of every country, sorted by the name in the active language."""
    return sorted(((code, country_name(code)) for code in _codes()), key=lambda choice: choice[1].casefold())
