"""What a box shows, and to whom: the blind count. A counter sees neither the expected figure
nor the other counter's total while the box is being counted; once both have signed the same
total he sees counted, expected and variance. When the two totals differ the expected figure
stays hidden, so that the recount is blind too. Inspectors and managers, who do not count, see
every figure. Shared by the count screen and the API."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from .models import Box, Count

WAITING, COUNTING, DISAGREED, COUNTED = "waiting", "counting", "disagreed", "counted"
STATES = [WAITING, COUNTING, DISAGREED, COUNTED]


@dataclass(frozen=True)
class BoxView:
    box: Box
    state: str
    attempt: int | None  # the latest count's attempt (1 the count, 2.. recounts); None before any
    signed_by: tuple[str, ...]  # usernames, in the order they signed
    totals: tuple[int, ...] | None  # each counter's total, shown once both signed
    expected: int | None
    counted: int | None
    variance: int | None

    @property
    def figures_shown(self) -> bool:
        return self.expected is not None


def sees_expected_early(user) -> bool:
    """Those who do not count see every figure at once; a counter only after the count."""
    return not user.has_perm("count.count_box")


def with_latest_counts(boxes):
    """`boxes` (a queryset) with each box's counts, signatures and expected changes, in a fixed
    number of queries."""
    return boxes.select_related("table__casino").prefetch_related(
        Prefetch("count_set", queryset=Count.objects.order_by("attempt").prefetch_related(
            "signatures__recorded_by", "changes")))


def view(box: Box, user) -> BoxView:
    counts = list(box.count_set.all())
    latest = counts[-1] if counts else None
    if latest is None:
        state = WAITING
    elif not latest.complete:
        state = COUNTING
    else:
        state = COUNTED if latest.agreed else DISAGREED
    shown = latest is not None and (state == COUNTED or sees_expected_early(user))
    signed = tuple(s.recorded_by.get_username() for s in latest.signed) if latest else ()
    totals = tuple(s.counted for s in latest.signed) if latest and (latest.complete or sees_expected_early(user)) \
        else None
    return BoxView(box=box, state=state, attempt=latest.attempt if latest else None, signed_by=signed,
                   totals=totals, expected=latest.expected_now if shown else None,
                   counted=latest.counted if latest else None,
                   variance=latest.variance if shown else None)
