import os

import pytest
from hypothesis import settings

# "ci" is reproducible and thorough; "dev" keeps Hypothesis's defaults but, like "ci",
# no deadline, since a slow first call (imports, database) is not a failure.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=200)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))




@pytest.fixture(autouse=True)
def _test_settings(settings):
    """Tests create many users: the production hasher's deliberate slowness only costs time. The
    cache holds the API's request counts (throttling): each test starts with none."""
    from django.core.cache import cache

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
