from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    """Managers' reports: the daily report (PDF), closing a gaming day, and the report each close
    stores."""

    name = "casino.reports"
    label = "reports"
    verbose_name = _("Reports")

    def ready(self):
        from . import receivers  # noqa: F401  (a day closing in the pit stores its report)
