from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountConfig(AppConfig):
    """The count room: shifts, the rotation log, each table-shift's commission box, its blind
    count by two counters, the variance and its cases."""

    name = "casino.count"
    label = "count"
    verbose_name = _("Count")

    def ready(self):
        from . import receivers  # noqa: F401  (a correction approved in the pit moves a counted box)
