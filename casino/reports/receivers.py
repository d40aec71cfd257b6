"""The reports' answers to what the pit tells them (casino/pit/signals.py)."""
import logging

from django.dispatch import receiver
from django.utils.translation import gettext_noop

from casino.pit.errors import refuse
from casino.pit.models import DayEvent
from casino.pit.signals import day_closed

from .archive import store

logger = logging.getLogger(__name__)


@receiver(day_closed, dispatch_uid="reports-day-closed")
def _day_closed(sender, event: DayEvent, **kwargs) -> None:
    """The day's report is printed and stored as the day closes, inside the close's transaction
    (`archive.store`): a day whose report cannot be printed does not close, and the manager is
    told why. Whatever made printing fail (fonts or Pango missing, say) is logged in full."""
    try:
        store(event=event)
    except Exception as error:  # noqa: BLE001 (any failure: the close is refused and says why)
        logger.exception("the daily report of %s could not be stored as it closed", event.gaming_day)
        raise refuse(code="report_not_stored", field="gaming_day", conflict=True,
                     template=gettext_noop("The daily report of {day} could not be printed, so the gaming day stays "
                                           "open: {error}"), day=event.gaming_day.day.isoformat(),
                     error=f"{type(error).__name__}: {error}") from error
