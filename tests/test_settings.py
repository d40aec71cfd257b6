"""The settings read from the environment (casino/settings.py), each case imported in a fresh
process: production unless DJANGO_DEBUG=1, never with the development key, and HSTS's two
domain-wide flags off unless set."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRODUCTION = {"DJANGO_SECRET_KEY": "a-real-looking-secret-" + "k3y" * 16, "DJANGO_ALLOWED_HOSTS": "mahjong.example.mo"}
READ = ["DEBUG", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
        "SECURE_SSL_REDIRECT", "SILENCED_SYSTEM_CHECKS"]


def run(code: str, environment: dict[str, str]) -> subprocess.CompletedProcess:
    """`code` in a fresh Python with the settings module and only `environment` of Django's own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(environment, DJANGO_SETTINGS_MODULE="casino.settings")
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True)


def settings_with(**environment: str) -> dict:
    done = run("import json; from django.conf import settings; "
               f"print(json.dumps({{name: getattr(settings, name, None) for name in {READ!r}}}))", environment)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def refusal_with(**environment: str) -> str:
    done = run("from django.conf import settings; settings.DEBUG", environment)
    assert done.returncode != 0, done.stdout
    return done.stderr.strip().splitlines()[-1]


def test_debug_is_off_unless_set_to_1():
    assert settings_with(**PRODUCTION)["DEBUG"] is False
    assert settings_with(**PRODUCTION, DJANGO_DEBUG="0")["DEBUG"] is False
    assert settings_with(**PRODUCTION, DJANGO_DEBUG="")["DEBUG"] is False
    assert settings_with(DJANGO_DEBUG="1")["DEBUG"] is True


def test_with_debug_unset_the_site_needs_a_secret_key_of_its_own():
    assert "DJANGO_SECRET_KEY must be set" in refusal_with(DJANGO_ALLOWED_HOSTS="mahjong.example.mo")


def test_the_development_key_is_refused_in_production_even_when_set_on_purpose():
    development = settings_with(DJANGO_DEBUG="1")  # the key a developer's machine runs with
    key = run("from django.conf import settings; print(settings.SECRET_KEY)", {"DJANGO_DEBUG": "1"}).stdout.strip()
    assert development["DEBUG"] and key.startswith("django-insecure-")

    refused = refusal_with(DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="mahjong.example.mo")
    assert "ImproperlyConfigured" in refused and "built-in development key" in refused
    refused = refusal_with(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="mahjong.example.mo")
    assert "built-in development key" in refused


def test_hsts_preload_and_include_subdomains_are_off_unless_set():
    default = settings_with(**PRODUCTION)
    assert default["SECURE_HSTS_SECONDS"] == 31536000 and default["SECURE_SSL_REDIRECT"] is True
    assert default["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False and default["SECURE_HSTS_PRELOAD"] is False
    # check --deploy's warnings of exactly those two choices are silenced, and no other
    assert sorted(default["SILENCED_SYSTEM_CHECKS"]) == ["security.W005", "security.W021"]

    chosen = settings_with(**PRODUCTION, DJANGO_HSTS_PRELOAD="1", DJANGO_HSTS_INCLUDE_SUBDOMAINS="1")
    assert chosen["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and chosen["SECURE_HSTS_PRELOAD"] is True
    assert chosen["SILENCED_SYSTEM_CHECKS"] == []
    only_subdomains = settings_with(**PRODUCTION, DJANGO_HSTS_INCLUDE_SUBDOMAINS="1")
    assert only_subdomains["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and only_subdomains["SECURE_HSTS_PRELOAD"] is False
    assert only_subdomains["SILENCED_SYSTEM_CHECKS"] == ["security.W021"]


def test_check_deploy_passes_in_production_with_or_without_the_hsts_flags():
    for flags in ({}, {"DJANGO_HSTS_PRELOAD": "1", "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1"}):
        done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=REPO,
                              env={**{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
                                   **PRODUCTION, **flags}, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "no issues" in done.stdout
