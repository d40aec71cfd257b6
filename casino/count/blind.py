"""What a box shows, and to whom: the blind count. Shared by the count screen and the API.

A counter sees neither the expected figure nor the other counter's total while a count is
being signed. Once both have signed the same total, the two who signed it see counted, expected
and variance of that count, and nobody else who counts does: a counter sees the figures of the
counts he signed that agreed, never another's. When the two totals differ the expected figure
stays hidden, so that the recount is blind too. Inspectors and managers, who do not count, see
every figure of every count, and the box's figures of record (services.count_of_record).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from .models import Box, Count, Decision
from .services import count_of_record, is_open, recount_approved

WAITING, COUNTING, DISAGREED, ABANDONED, RECOUNT_APPROVED, COUNTED = (
    "waiting", "counting", "disagreed", "abandoned", "recount_approved", "counted")
STATES = [WAITING, COUNTING, DISAGREED, ABANDONED, RECOUNT_APPROVED, COUNTED]
# The states in which a counter has something to do: sign, or start a recount.
TO_COUNT = {WAITING, COUNTING, DISAGREED, ABANDONED, RECOUNT_APPROVED}


@dataclass(frozen=True)
class CountView:
    """One count of a box as its reader may see it."""

    count: Count
    signed_by: tuple[str, ...]  # full names, in the order they signed
    totals: tuple[int, ...] | None  # each counter's total, once both signed
    expected: int | None
    counted: int | None
    variance: int | None
    of_record: bool
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class BoxView:
    box: Box
    state: str
    attempt: int | None  # the count a signature now signs: the open count's, or the next
    latest: CountView | None  # the latest count
    shown: CountView | None  # the count whose figures the reader sees: of record, or (a counter) his own
    counts: tuple[CountView, ...]  # every count, for those who see every figure; empty for a counter
    signers: frozenset[int]  # who signed the latest count (user ids)

    @property
    def figures_shown(self) -> bool:
        return self.shown is not None

    @property
    def expected(self) -> int | None:
        return self.shown.expected if self.shown else None

    @property
    def counted(self) -> int | None:
        return self.shown.counted if self.shown else None

    @property
    def variance(self) -> int | None:
        return self.shown.variance if self.shown else None

    @property
    def signed_by(self) -> tuple[str, ...]:
        return self.latest.signed_by if self.latest else ()

    @property
    def totals(self) -> tuple[int, ...] | None:
        return self.latest.totals if self.latest else None

    @property
    def to_count(self) -> bool:
        return self.state in TO_COUNT


def sees_expected_early(user) -> bool:
    """Those who do not count see every figure at once; a counter only his own agreed counts'."""
    return not user.has_perm("count.count_box")


def visible_to(user, views: list[BoxView]) -> list[BoxView]:
    """What a reader is shown of a list of boxes: a counter, the boxes with counting still to do
    and those he counted; everyone else, every box."""
    if sees_expected_early(user):
        return views
    return [v for v in views if v.to_count or v.shown is not None]


def with_latest_counts(boxes):
    """`boxes` (a queryset) with each box's counts, signatures, decisions and expected changes,
    in a fixed number of queries."""
    return boxes.select_related("table__casino").prefetch_related(
        Prefetch("count_set", queryset=Count.objects.order_by("attempt").prefetch_related(
            "signatures__recorded_by", "changes", "decisions")))


def name(person) -> str:
    return person.get_full_name() or person.get_username()


def _count_view(count: Count, *, figures: bool, totals: bool, of_record: bool) -> CountView:
    signed = count.signed
    return CountView(count=count, signed_by=tuple(name(s.recorded_by) for s in signed),
                     totals=tuple(s.counted for s in signed) if totals else None,
                     expected=count.expected_now if figures else None,
                     counted=count.counted if figures else None,
                     variance=count.variance if figures else None, of_record=of_record,
                     decisions=tuple(sorted(count.decisions.all(), key=lambda d: d.seq)))


def _state(latest: Count | None) -> str:
    if latest is None:
        return WAITING
    if is_open(latest):
        return COUNTING
    if latest.abandoned:
        return ABANDONED
    if not latest.agreed:
        return DISAGREED
    return RECOUNT_APPROVED if recount_approved(latest) else COUNTED


def view(box: Box, user) -> BoxView:
    counts = sorted(box.count_set.all(), key=lambda c: c.attempt)
    latest = counts[-1] if counts else None
    record = count_of_record(counts)
    state = _state(latest)
    attempt = None if latest is None else (latest.attempt if state == COUNTING else latest.attempt + 1)
    if sees_expected_early(user):
        every = tuple(_count_view(c, figures=True, totals=True, of_record=c == record) for c in counts)
        latest_view = every[-1] if every else None
        shown = next((v for v in every if v.of_record), latest_view)
        return BoxView(box, state, attempt or 1, latest_view, shown, every,
                       frozenset(s.recorded_by_id for s in latest.signed) if latest else frozenset())
    own = [c for c in counts if c.agreed and any(s.recorded_by_id == user.pk for s in c.signed)]
    shown = _count_view(own[-1], figures=True, totals=True, of_record=own[-1] == record) if own else None
    latest_view = None
    if latest is not None:
        mine = latest in own
        latest_view = shown if mine else _count_view(latest, figures=False, totals=latest.complete and not
                                                     latest.agreed, of_record=False)
    return BoxView(box, state, attempt or 1, latest_view, shown, (),
                   frozenset(s.recorded_by_id for s in latest.signed) if latest else frozenset())
