from django.apps import AppConfig


class PitConfig(AppConfig):
    """The pit: tables, games, the jogo ledger, amendments, and the people who work them."""

    name = "casino.pit"
    verbose_name = "Pit"
