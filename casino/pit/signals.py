"""What the pit tells other apps, which it never imports (imports run regulation <- pit <- count,
audit, reports).

`correction_approved` is sent with `amendment`, inside the transaction that approved it (its
revision in the ledger, `decided_by` and `decided_at` set): a receiver's writes commit or roll
back with the approval.

`day_closing` is sent with `casino` and `day` by `services.close_day`, inside its transaction,
once every table of the casino is locked (no jogo is half-way recorded). Each receiver answers
with a list of the `errors.Problem`s that hold the day open (the count: each commission box not
yet counted), or an empty list. The day closes when none holds it, or when a manager states why
it closes all the same; the close event then keeps the problems it covered.

`day_closed` is sent with `event` (the `DayEvent` that closed the day) by `services.close_day`,
inside its transaction, once the close event is written: what a receiver stores (the reports: the
day's report as printed) commits or rolls back with the close.
"""
from django.dispatch import Signal

correction_approved = Signal()
day_closing = Signal()
day_closed = Signal()
