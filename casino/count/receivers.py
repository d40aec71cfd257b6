"""The count's answers to what the pit tells it (casino/pit/signals.py)."""
from django.dispatch import receiver
from django.utils.translation import gettext_noop

from casino.pit.errors import Problem
from casino.pit.signals import correction_approved, day_closing, may_record


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


OFF_ROTATION = "off_rotation"
# The casino's internal control of the rotation log (the count's rule, not an article of the
# Portaria): who deals at a table is who the supervisors put on its rotation.
OFF_ROTATION_MESSAGE = gettext_noop(
    "Table: the rotation log does not have {who} dealing at table {table} at {time}; a dealer records only while "
    "the rotation has him on the table (the casino's internal control of the rotation log). Ask the supervisor to "
    "put you on the table's rotation.")


@receiver(may_record, dispatch_uid="count-may-record")
def _may_record(sender, table, user, at, **kwargs) -> list[Problem]:
    """The rotation decides who deals where: a dealer records at a table only while an entry of
    the rotation log has him dealing there at `at`. A supervisor records where the log has him
    (dealing or supervising) or at a table he is assigned to, covering it (the floor's alerts say
    so: a jogo recorded off the rotation)."""
    from casino.pit import days
    from casino.terms.vocabulary import person_name

    from .models import Rotation
    from .rotation import holding

    entries = holding(at).filter(table=table, person=user)
    if user.has_perm("pit.open_close_table"):
        if entries.exists() or table.staff.filter(pk=user.pk).exists():
            return []
    elif entries.filter(duty=Rotation.DEALER).exists():
        return []
    return [Problem.of(OFF_ROTATION, None, OFF_ROTATION_MESSAGE, "table", who=person_name(user), table=table.number,
                       time=days.minute(at))]
