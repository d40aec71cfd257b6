import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

REPO = Path(__file__).resolve().parents[2]


def test_home_page_names_the_product(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Mah-Jong table audit — Portaria n.º 135/91/M" in response.content.decode()


def test_healthz_answers_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db
def test_database_backend_matches_database_url():
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"

    assert connection.vendor == expected


@pytest.mark.parametrize(
    "missing, present",
    [
        ("DJANGO_SECRET_KEY", {"DJANGO_ALLOWED_HOSTS": "audit.example"}),
        ("DJANGO_ALLOWED_HOSTS", {"DJANGO_SECRET_KEY": "s3cret"}),
    ],
)
def test_production_mode_refuses_to_start_without(missing, present):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(present, DJANGO_DEBUG="0", DJANGO_SETTINGS_MODULE="casino.settings")

    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr
