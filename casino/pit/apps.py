from django.apps import AppConfig
from django.core import checks
from django.db.models.signals import post_migrate


class PitConfig(AppConfig):
    """The pit: tables, games, the jogo ledger, amendments, and the people who work them."""

    name = "casino.pit"
    verbose_name = "Pit"

    def ready(self):
        # After every migrate, and after the flush that ends a transactional test, the roles
        # hold exactly their permissions, whichever migration added the last of them.
        post_migrate.connect(_sync_groups, sender=self, dispatch_uid="pit-sync-groups")
        # TABLE_MINIMUM_CAPITAL may only lower C-1's default minimum capital (checks.py).
        from .checks import check_minimum_capital

        checks.register(check_minimum_capital)


def _sync_groups(**kwargs):
    from .roles import sync_groups

    sync_groups()
