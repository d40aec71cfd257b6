"""Nothing silent (issue 13 §3): one structured line per request on standard error (time, level,
request id, user, method, path, status, duration), every unhandled exception logged with its
traceback under the same request id, and X-Request-ID taken from the request or made, and
echoed."""
from __future__ import annotations

import json
import logging

import pytest
from django.test import Client
from django.urls import path

from casino.middleware import JsonFormatter, RequestIdFilter
from casino.urls import urlpatterns as site_urls
from tests.builders.pit import user


def boom(request):
    raise RuntimeError("the bug under test")


urlpatterns = [*site_urls, path("boom", boom)]  # the site, plus a page that fails


def lines(caplog, logger: str = "casino.request") -> list[dict]:
    """The records of `logger`, formatted as the site writes them to standard error."""
    formatter, add_id = JsonFormatter(), RequestIdFilter()
    found = []
    for record in caplog.records:
        if record.name == logger:
            if not hasattr(record, "request_id"):
                add_id.filter(record)
            found.append(json.loads(formatter.format(record)))
    return found


@pytest.fixture
def dealer(db):
    return user("dealer", "dealer")


def test_each_request_is_one_json_line_with_the_fields(dealer, caplog):
    caplog.set_level(logging.INFO)
    client = Client()
    client.force_login(dealer)
    response = client.get("/api/v1/tables/?page=1")

    line, = lines(caplog)
    assert set(line) >= {"time", "level", "request_id", "user", "method", "path", "status", "duration_ms"}
    assert (line["level"], line["user"], line["method"], line["path"], line["status"]) == \
        ("INFO", "dealer", "GET", "/api/v1/tables/", 200)
    assert line["request_id"] == response["X-Request-ID"] and len(line["request_id"]) == 32
    assert line["time"].endswith("+00:00") and line["duration_ms"] >= 0


def test_a_token_users_request_is_logged_with_his_name_and_a_4xx_as_a_warning(dealer, caplog):
    from rest_framework.authtoken.models import Token

    caplog.set_level(logging.INFO)
    key = Token.objects.create(user=dealer).key
    Client().get("/api/v1/jogos/", HTTP_AUTHORIZATION=f"Token {key}")
    Client().get("/api/v1/jogos/")
    known, anonymous = lines(caplog)
    assert (known["user"], known["status"], known["level"]) == ("dealer", 200, "INFO")
    assert (anonymous["user"], anonymous["status"], anonymous["level"]) == (None, 403, "WARNING")


def test_a_request_id_is_taken_from_the_request_and_echoed(db, caplog):
    caplog.set_level(logging.INFO)
    response = Client().get("/healthz", HTTP_X_REQUEST_ID="proxy-7f3a.42")
    assert response["X-Request-ID"] == "proxy-7f3a.42"
    assert lines(caplog)[0]["request_id"] == "proxy-7f3a.42"


@pytest.mark.parametrize("given", ["", "x" * 101, "two words", "bad\nline", "<script>"])
def test_a_request_id_that_is_not_a_plain_token_is_replaced(db, given):
    response = Client().get("/healthz", HTTP_X_REQUEST_ID=given)
    assert response["X-Request-ID"] != given and len(response["X-Request-ID"]) == 32


def test_two_requests_get_two_ids(db):
    assert Client().get("/healthz")["X-Request-ID"] != Client().get("/healthz")["X-Request-ID"]


@pytest.mark.urls(__name__)
def test_an_unhandled_exception_is_logged_with_its_traceback_under_the_request_id(db, caplog):
    caplog.set_level(logging.INFO)
    client = Client(raise_request_exception=False)
    response = client.get("/boom", HTTP_X_REQUEST_ID="req-500")
    assert response.status_code == 500 and response["X-Request-ID"] == "req-500"

    error, = lines(caplog, "django.request")
    assert error["level"] == "ERROR" and error["request_id"] == "req-500"
    assert "Traceback" in error["traceback"] and "the bug under test" in error["traceback"]
    request_line, = lines(caplog)
    assert (request_line["status"], request_line["level"], request_line["request_id"]) == (500, "ERROR", "req-500")


def test_the_site_logs_to_standard_error_as_json(settings):
    handler = settings.LOGGING["handlers"]["stderr"]
    assert handler["class"] == "casino.middleware.StderrHandler" and handler["formatter"] == "json"
    assert settings.LOGGING["root"]["handlers"] == ["stderr"]
    assert settings.MIDDLEWARE[0] == "casino.middleware.RequestLogMiddleware"


def test_a_running_site_writes_the_request_line_to_standard_error():
    """As deployed: a process of the site, its standard error read as it is."""
    import subprocess
    import sys
    from pathlib import Path

    script = "from django.test import Client; Client(HTTP_HOST='localhost').get('/healthz', HTTP_X_REQUEST_ID='sub-1')"
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert done.returncode == 0, done.stderr
    logged = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    line, = [entry for entry in logged if entry["logger"] == "casino.request"]
    assert (line["request_id"], line["path"], line["status"]) == ("sub-1", "/healthz", 200)
    assert "sub-1" not in done.stdout  # the log is not mixed into standard output
