"""The demo day's count (casino/count/demo.py), as the committed fixture holds it."""
from io import StringIO

import pytest
from django.core.management import call_command

from casino.count.models import Box, Case, Count

pytestmark = pytest.mark.django_db


def test_the_demo_day_has_boxes_over_short_and_exact_and_an_open_case():
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("verify_ledger", stdout=out)
    assert "ledger intact" in out.getvalue()
    counts = {c.box.table.number: c for c in Count.objects.select_related("box__table")
              .prefetch_related("signatures", "changes")}
    assert {number: c.variance for number, c in counts.items()} == {"C-01": 4, "S-01": 0, "C-03": -500}
    assert all(c.agreed and len({s.recorded_by_id for s in c.signed}) == 2 for c in counts.values())
    case = Case.objects.get()
    assert (case.box.table.number, case.state) == ("C-03", "open")
    assert set(Box.objects.exclude(pk__in=[c.box_id for c in counts.values()])
               .values_list("table__number", flat=True)) == {"C-02", "S-02"}
