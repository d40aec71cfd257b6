"""The alerts' receivers of the pit's and the count's `table_event` (casino/pit/signals.py): each
event's rules (rules.of_event) raise and clear alerts inside the transaction that recorded it.

Imported by FloorConfig.ready, which also makes `verify_ledger` check the alert chains
(verify.py) and `ledger_heads` save their heads (alert_heads.py)."""
from django.dispatch import receiver

from casino.pit.heads import OTHER_ANCHORS
from casino.pit.signals import table_event
from casino.pit.verify import OTHER_CHECKS

from . import alerts, rules
from .alert_heads import ANCHOR
from .verify import breaks


@receiver(table_event, dispatch_uid="floor-alerts")
def _table_event(sender, event, table, subject=None, user=None, at=None, **kwargs) -> None:
    from django.utils import timezone

    at = at or timezone.now()
    raised, ended = rules.of_event(event, table=table, subject=subject, user=user, at=at)
    if raised or ended:
        alerts.write(table.casino_id, raised, ended, at=at)


if breaks not in OTHER_CHECKS:
    OTHER_CHECKS.append(breaks)  # verify_ledger checks the alert chains too
if ANCHOR.section not in {anchor.section for anchor in OTHER_ANCHORS}:
    OTHER_ANCHORS.append(ANCHOR)  # ledger_heads saves their heads too
