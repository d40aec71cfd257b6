from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CountConfig(AppConfig):
    """The count room: shifts, the rotation log, each table-shift's commission box, its blind
    count by two counters, the variance and its cases."""

    name = "casino.count"
    label = "count"
    verbose_name = _("Count")

    def ready(self):
        from casino.pit import demo as pit_demo
        from casino.pit.heads import OTHER_ANCHORS
        from casino.pit.verify import OTHER_CHECKS

        from . import receivers  # noqa: F401  (a correction approved in the pit moves a counted box)
        from .heads import ANCHORS
        from .verify import breaks

        if breaks not in OTHER_CHECKS:
            OTHER_CHECKS.append(breaks)  # verify_ledger checks the count's chains too
        for anchor in ANCHORS:
            if anchor.section not in {a.section for a in OTHER_ANCHORS}:
                OTHER_ANCHORS.append(anchor)  # ledger_heads saves the count's heads too
        if not any(label == self.label for label, _step in pit_demo.STEPS):
            from .demo import build

            pit_demo.STEPS.append((self.label, build))  # the demo day's boxes are counted
