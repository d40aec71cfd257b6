"""The live floor's receiver of the pit's and the count's `table_event` (casino/pit/signals.py):
every event at a table reaches the open floor views once its transaction commits (live.py)."""
from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import receiver

from casino.pit.signals import table_event

from . import live


@receiver(table_event, dispatch_uid="floor.live")
def tell_the_floor(sender, *, event: str, table, **kwargs) -> None:
    """A rolled-back change tells nobody; `robust`: a failure after the commit is logged, never the
    request's (live.publish catches its own, this is the second guard)."""
    transaction.on_commit(partial(live.publish, event, table.pk), robust=True)
