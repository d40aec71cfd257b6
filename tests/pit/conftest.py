"""The fixtures of the pit's tests."""
import pytest


@pytest.fixture
def dealer(client, people):
    """A test client signed in as T1's dealer."""
    client.force_login(people[0]["dealer"])
    return client
