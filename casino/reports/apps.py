from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    """Managers' reports: the daily report (PDF) and closing a gaming day."""

    name = "casino.reports"
    label = "reports"
    verbose_name = _("Reports")
