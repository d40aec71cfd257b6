"""Production settings and login throttling."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.pit import user

REPO = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_in_production_mode():
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 64 + "production-only-secret-value",
           "DJANGO_ALLOWED_HOSTS": "mahjong.example.mo"}
    run = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                         cwd=REPO, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


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
    from tests.pit import staff
    people, t1, t2 = staff()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(people["supervisor"])
    response = client.post(f"/api/v1/tables/{t1.pk}/close/")
    assert response.status_code == 403 and "CSRF" in response.json()["errors"][0]["message"]
    assert Table.objects.get(pk=t1.pk).is_open
