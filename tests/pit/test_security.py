"""Logins throttled, the token endpoint rate-limited, session writes held to their CSRF token.
(The production settings: tests/test_settings.py.)"""
import pytest
from rest_framework.test import APIClient

from tests.builders.pit import user


@pytest.mark.django_db
def test_repeated_failed_logins_lock_the_account_out(client):
    user("dealer", "dealer")
    statuses = [client.post("/admin/login/", {"username": "dealer", "password": "wrong"}).status_code
                for _ in range(5)]
    assert statuses == [200] * 4 + [429]  # the form again, with an error; the fifth failure locks
    response = client.post("/admin/login/", {"username": "dealer", "password": "correct horse battery"})
    assert response.status_code == 429  # locked out even with the right password


@pytest.mark.django_db
def test_the_token_endpoint_is_rate_limited(settings):
    from django.core.cache import cache
    cache.clear()
    statuses = [APIClient().post("/api/v1/auth/token/", {"username": f"nobody{i}", "password": "x"}).status_code
                for i in range(11)]
    assert statuses == [400] * 10 + [429]  # 10 a minute from one address


@pytest.mark.django_db
def test_a_session_authenticated_write_without_the_csrf_token_is_refused():
    from casino.pit.models import Table
    from tests.builders.pit import staff
    people, t1, t2 = staff()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(people["supervisor"])
    response = client.post(f"/api/v1/tables/{t1.pk}/close/")
    assert response.status_code == 403 and "CSRF" in response.json()["errors"][0]["message"]
    assert Table.objects.get(pk=t1.pk).is_open
