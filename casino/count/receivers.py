"""The count's answers to what the pit tells it (casino/pit/signals.py)."""
from django.dispatch import receiver
from django.utils.translation import gettext_noop

from casino.pit.errors import Problem
from casino.pit.signals import correction_approved, day_closing


@receiver(correction_approved, dispatch_uid="count-correction-approved")
def _correction_approved(sender, amendment, **kwargs):
    from .services import correction_approved as move_counted_boxes

    move_counted_boxes(amendment=amendment)


@receiver(day_closing, dispatch_uid="count-day-closing")
def _day_closing(sender, casino, day, **kwargs) -> list[Problem]:
    """Each commission box of the day not yet counted holds its closing (selectors.uncounted_boxes)."""
    from .selectors import BOX_NOT_COUNTED, uncounted_boxes

    return [Problem.of(BOX_NOT_COUNTED, None,
                       gettext_noop("Box: the box of table {table}, shift {shift} ({starts}–{ends}) is not counted "
                                    "yet; a gaming day is closed once its boxes are counted."),
                       table=box.table, shift=box.shift, starts=box.starts, ends=box.ends)
            for box in uncounted_boxes(casino, day)]
