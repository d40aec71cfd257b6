from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    """The inspector's part: the commission audit (Art. 8), the exception queue, a jogo
    explained, exports for offline re-checking, and the bulk re-audit of the ledger."""

    name = "casino.audit"
    label = "audit"
    verbose_name = _("Audit")
