from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AmlConfig(AppConfig):
    """Suspicious-transaction cases on players, chained, and their report for the financial
    intelligence office (docs/aml.md)."""

    name = "casino.aml"
    label = "aml"
    verbose_name = _("Suspicious transactions")

    def ready(self):
        from casino.pit.heads import OTHER_ANCHORS
        from casino.pit.verify import OTHER_CHECKS

        from . import receivers  # noqa: F401  (players under a case keep their personal data)
        from .heads import ANCHOR
        from .verify import breaks

        if breaks not in OTHER_CHECKS:
            OTHER_CHECKS.append(breaks)  # verify_ledger checks the cases' chains too
        if ANCHOR.section not in {anchor.section for anchor in OTHER_ANCHORS}:
            OTHER_ANCHORS.append(ANCHOR)  # ledger_heads saves their heads too
