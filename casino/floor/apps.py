from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    name = "casino.floor"
    label = "floor"
    verbose_name = _("The floor")

    def ready(self) -> None:
        from . import alert_receivers, live_receivers  # noqa: F401 (they connect the signals)
