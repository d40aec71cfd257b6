"""The fixtures of the audit's tests."""
import pytest


@pytest.fixture
def day():
    """T1's gaming day 2026-11-21 (tests/builders/audit.py's `varied_day`): a chicken win, a draw,
    a false win, a pay-all and a misdeclared grade."""
    from tests.builders.audit import varied_day

    return varied_day()
