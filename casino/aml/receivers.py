"""What the aml app answers the pit (casino/pit/signals.py)."""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.dispatch import receiver
from django.utils import timezone

from casino.pit.signals import keep_personal_data

from .models import SuspicionCase, SuspicionEvent


def kept_patrons(patrons, now: dt.datetime | None = None) -> set[int]:
    """Of `patrons` (ids), those whose personal data a case still needs: a case not closed (the
    inspector still identifies the player), or escalated to the financial intelligence office
    less than PATRON_RETENTION_DAYS ago (the GIF may ask about its report, and its file names
    him). A case decided "no report" keeps nobody once decided."""
    ids = set(patrons)
    since = (now or timezone.now()) - dt.timedelta(days=settings.PATRON_RETENTION_DAYS)
    in_progress = SuspicionCase.objects.filter(patron__in=ids, state__in=SuspicionCase.IN_PROGRESS)
    escalated = SuspicionEvent.objects.filter(case__patron__in=ids, kind=SuspicionEvent.ESCALATED,
                                              recorded_at__gte=since)
    return (set(in_progress.values_list("patron_id", flat=True))
            | set(escalated.values_list("case__patron_id", flat=True)))


@receiver(keep_personal_data, dispatch_uid="aml-keeps-players-under-a-case")
def keep_players_under_a_case(sender, patrons, **kwargs) -> set[int]:
    return kept_patrons(patrons)
