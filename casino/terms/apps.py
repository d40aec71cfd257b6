from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TermsConfig(AppConfig):
    """The vocabulary of Portaria 135/91/M in Portuguese, Chinese and English, and the
    engine's messages translated (its catalogues live in locale/)."""

    name = "casino.terms"
    verbose_name = _("Vocabulary")
