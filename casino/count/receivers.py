"""The count's answers to what the pit tells it (casino/pit/signals.py)."""
from django.dispatch import receiver

from casino.pit.signals import correction_approved


@receiver(correction_approved, dispatch_uid="count-correction-approved")
def _correction_approved(sender, amendment, **kwargs):
    from .services import correction_approved as move_counted_boxes

    move_counted_boxes(amendment=amendment)
