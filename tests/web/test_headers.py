"""Security headers on every response (issue 13 §10): a Content-Security-Policy that allows no
inline script, Referrer-Policy, X-Content-Type-Options and frame denial; and no page or template
with an inline script or an on* handler, which that policy would silently break. The browser
test (tests/browser/test_headers.py) opens the pages whose scripts matter and checks that they
work under the policy."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.builders.pit import seat, staff

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
ON_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";") if part.strip()]
    return {words[0]: words[1:] for words in directives}


def check_headers(response) -> None:
    csp = policy(response)
    assert csp["script-src"] == ["'self'"], csp  # no 'unsafe-inline', no 'unsafe-eval', no other site
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'self'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.fixture
def world(db):
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    return {"people": people, "t1": t1, "game": game}


PAGES = ["/", "/accounts/login/", "/pit/", "/pit/tables/{t1}/", "/audit/", "/reports/", "/api/v1/",
         "/api/v1/tables/", "/api/v1/docs/", "/api/v1/docs/?script=", "/api/v1/redoc/", "/api/v1/schema/",
         "/admin/login/", "/no-such-page/", "/api/v1/no-such-thing/", "/healthz"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("who", ["anonymous", "dealer", "manager"])
def test_every_response_has_the_security_headers_and_no_inline_script(world, path, who):
    client = Client()
    if who != "anonymous":
        client.force_login(world["people"][who])
    response = client.get(path.format(t1=world["t1"].pk), HTTP_ACCEPT="text/html")
    check_headers(response)
    assert response["X-Request-ID"]
    if response["Content-Type"].startswith("text/html"):
        page = response.content.decode()
        assert not INLINE_SCRIPT.search(page), INLINE_SCRIPT.search(page).group(0)
        assert not ON_HANDLER.search(page), ON_HANDLER.search(page).group(0)


def test_no_template_has_an_inline_script_or_an_on_handler():
    templates = [path for folder in [ROOT / "templates", *ROOT.glob("casino/*/templates")]
                 for path in folder.rglob("*.html")]
    assert len(templates) > 10
    for path in templates:
        text = path.read_text()
        assert not INLINE_SCRIPT.search(text), (path, INLINE_SCRIPT.search(text).group(0))
        assert not ON_HANDLER.search(text), (path, ON_HANDLER.search(text).group(0))


def test_the_policy_is_the_setting():
    assert settings.CONTENT_SECURITY_POLICY["script-src"] == ["'self'"]
