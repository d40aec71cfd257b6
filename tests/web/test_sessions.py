"""Sessions on the pit's shared terminals (issue 21): a session lasts one shift from its login,
ends once idle past SESSION_IDLE_SECONDS (casino/middleware.py), and every signed-in page loads
static/idle.js, which sends an idle browser to the login page; the API's token clients have no
session to end."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.utils import translation
from rest_framework.authtoken.models import Token

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery"
LOGGED_OUT = "You were logged out after a period of inactivity. Log in again to continue."


def configured(**environment) -> tuple[int, int]:
    """SESSION_COOKIE_AGE and SESSION_IDLE_SECONDS as the settings read them from `environment`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DJANGO_") and k not in ("SHIFTS", "GAMING_DAY_STARTS")}
    env.update(environment, DJANGO_DEBUG="1", DJANGO_SETTINGS_MODULE="casino.settings")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                               "print(settings.SESSION_COOKIE_AGE, settings.SESSION_IDLE_SECONDS)"],
        cwd=REPO, env=env, capture_output=True, text=True, check=True)
    age, idle = result.stdout.split()
    return int(age), int(idle)


@pytest.mark.parametrize("environment, expected", [
    # The casino's three shifts of 8 hours; a quarter of an hour idle on a pit terminal.
    ({}, (8 * 3600, 15 * 60)),
    # Shifts of 4, 12 and 8 hours: a session lasts the longest of them.
    ({"SHIFTS": "06:00,10:00,22:00"}, (12 * 3600, 15 * 60)),
    ({"DJANGO_SESSION_SECONDS": "3600", "DJANGO_SESSION_IDLE_SECONDS": "300"}, (3600, 300)),
])
def test_a_session_lasts_a_shift_and_ends_after_a_quarter_hour_idle_unless_configured(environment, expected):
    assert configured(**environment) == expected


def went_idle(client, seconds: float) -> None:
    """As if the session's last request had come `seconds` earlier than it did."""
    from casino.middleware import LAST_SEEN

    session = client.session
    session[LAST_SEEN] -= seconds
    session.save()


def test_a_session_idle_past_the_limit_ends_and_the_login_page_says_why(client, people, settings):
    client.force_login(people[0]["dealer"])
    assert client.get("/pit/").status_code == 200
    went_idle(client, settings.SESSION_IDLE_SECONDS)

    response = client.get("/pit/", follow=True)

    assert response.redirect_chain == [("/accounts/login/?next=/pit/", 302)]
    assert LOGGED_OUT in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_session_used_within_the_limit_goes_on(client, people, settings):
    client.force_login(people[0]["dealer"])
    client.get("/pit/")
    went_idle(client, settings.SESSION_IDLE_SECONDS - 5)
    assert client.get("/pit/").status_code == 200
    # Each request starts the idle time again.
    went_idle(client, settings.SESSION_IDLE_SECONDS - 5)
    assert client.get("/pit/").status_code == 200


def test_a_session_ends_its_length_after_the_login_however_busy(client, people, settings):
    settings.SESSION_COOKIE_AGE = 8 * 3600
    response = client.post("/accounts/login/", {"username": "dealer", "password": PASSWORD})
    assert response.status_code == 302
    row = Session.objects.get(session_key=client.session.session_key)
    assert (row.expire_date - client.session.get_expiry_date()).total_seconds() == 0

    client.get("/pit/")
    client.get("/pit/")

    assert Session.objects.get(session_key=row.session_key).expire_date == row.expire_date


def test_signed_in_pages_load_the_idle_script_with_the_limit_and_the_login_page(client, people, settings):
    settings.SESSION_IDLE_SECONDS = 600
    assert "idle.js" not in client.get("/accounts/login/").content.decode()

    client.force_login(people[0]["dealer"])
    page = client.get("/pit/").content.decode()

    assert '<script src="/static/idle.js" data-idle-seconds="600" data-login-url="/accounts/login/" ' \
           'data-keep-alive-url="/healthz" defer></script>' in page


def test_a_token_client_has_no_session_to_end(client, people):
    token = Token.objects.create(user=people[0]["dealer"])

    response = client.get("/api/v1/tables/", HTTP_AUTHORIZATION=f"Token {token.key}")

    assert response.status_code == 200
    assert "sessionid" not in response.cookies and not Session.objects.exists()


@pytest.mark.parametrize("language, text", [
    ("pt", "A sessão foi terminada por inactividade. Entre de novo para continuar."),
    ("zh-hant", "因閒置過久，已自動登出。請重新登入以繼續。"),
])
def test_the_login_page_says_why_in_each_language(language, text):
    with translation.override(language):
        assert translation.gettext(LOGGED_OUT) == text
