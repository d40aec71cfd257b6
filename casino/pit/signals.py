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

# `may_record` is sent with `table`, `user` and `at` by `services.start_game` and
# `services.record_jogo`, under the table's lock, before anything is written. Each receiver
# answers with a list of the `errors.Problem`s that refuse the person at that table at that
# moment (the count: a dealer the rotation log does not have on the table), or an empty list.
may_record = Signal()

# `keep_personal_data` is sent with `patrons` (a list of patron ids about to be anonymised, their
# retention period over) by `patrons.anonymise_expired`, inside its transaction. Each receiver
# answers with the set of those ids whose personal data must be kept all the same (the aml app:
# players under an open suspicious-transaction case), or an empty set.
keep_personal_data = Signal()

# `table_event` is sent once something happened at a table, inside the transaction that wrote it
# (a receiver that tells the world waits with `transaction.on_commit`), with:
# - `event`: what happened, one of EVENTS;
# - `table`: the `Table`;
# - `subject`: the row that records it (a `Jogo`, `Movement`, `MovementRefusal`, `Game`, `Refusal`, `Flag`,
#   `Amendment`; the count's `Rotation`, `Box`, `Case`), or None for a table opened or closed;
# - `user`: who did it (None when nobody did, as a game ended by its North round);
# - `at`: when.
# The count sends it too, with the count's events. Receivers: the floor's alerts and live view.
table_event = Signal()

EVENTS = (
    "game_started", "game_ended", "jogo_recorded", "jogo_refused", "money_moved", "movement_refused", "table_opened",
    "table_closed", "rule_set_changed", "correction_proposed", "correction_decided", "flag_raised",
    "flag_resolved",
    # sent by the count
    "rotation_changed", "box_counted", "case_opened", "case_reopened", "case_closed",
)


def happened(event: str, *, table, subject=None, user=None, at=None) -> None:
    """Send `table_event` (above) for `event` at `table`."""
    assert event in EVENTS, event
    table_event.send(sender=type(subject) if subject is not None else type(table), event=event, table=table,
                     subject=subject, user=user, at=at)
