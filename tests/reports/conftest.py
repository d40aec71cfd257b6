"""The fixtures of the reports' tests."""
import pytest


@pytest.fixture
def day():
    """The known day of tests/builders/reports.py, its figures worked out by hand."""
    from tests.builders.reports import known_day

    return known_day()
