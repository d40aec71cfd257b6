"""What the pit tells other apps, which it never imports (imports run regulation <- pit <- count,
audit, reports).

`correction_approved` is sent with `amendment`, inside the transaction that approved it (its
revision in the ledger, `decided_by` and `decided_at` set): a receiver's writes commit or roll
back with the approval.
"""
from django.dispatch import Signal

correction_approved = Signal()
