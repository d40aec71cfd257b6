"""Rate limits and the login lockout behind the casino's reverse proxies (issue 13 §7): only the
trusted proxies' entries of X-Forwarded-For are believed, the counts are shared by every worker
process, and a lockout is by username and address together."""
import pytest
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.test import RequestFactory
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from casino.proxies import client_ip
from tests.builders.pit import user

PROXY = "10.0.0.1"  # the casino's own proxy, as the application sees the connection
CASES = [  # (trusted proxies, X-Forwarded-For, the client)
    (0, None, PROXY),
    (0, "203.0.113.9", PROXY),  # no proxy is trusted: the header is the client's own word
    (1, "203.0.113.9", "203.0.113.9"),
    (1, "198.51.100.7, 203.0.113.9", "203.0.113.9"),  # the client wrote the first entry himself
    (2, "198.51.100.7, 203.0.113.9, 10.0.0.2", "203.0.113.9"),
    (2, "203.0.113.9", "203.0.113.9"),  # fewer entries than proxies: the first
    (1, None, PROXY),
]


@pytest.mark.parametrize("trusted, forwarded, client", CASES)
def test_the_client_is_the_entry_the_first_trusted_proxy_wrote(settings, trusted, forwarded, client):
    settings.TRUSTED_PROXIES = trusted
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, **headers)
    assert client_ip(request) == client


@pytest.mark.parametrize("trusted, forwarded, client", CASES)
def test_the_api_rate_limit_reads_the_same_address(settings, trusted, forwarded, client):
    from rest_framework.settings import api_settings
    settings.TRUSTED_PROXIES = trusted
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": trusted}
    api_settings.reload()
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, **headers)
    try:
        assert SimpleRateThrottle.get_ident(SimpleRateThrottle.__new__(SimpleRateThrottle), request) == client
    finally:
        api_settings.reload()


def test_production_settings_make_the_api_count_with_the_trusted_proxies():
    from django.conf import settings
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXIES
    assert settings.AXES_CLIENT_IP_CALLABLE == "casino.proxies.client_ip"


@pytest.mark.django_db
def test_forty_forged_addresses_do_not_escape_the_token_rate_limit(settings):
    """Behind one proxy, a client who writes a new X-Forwarded-For each time is still one client."""
    from rest_framework.settings import api_settings
    settings.TRUSTED_PROXIES = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    api_settings.reload()
    try:
        statuses = [APIClient().post("/api/v1/auth/token/", {"username": f"nobody{i}", "password": "x"},
                                     REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, 203.0.113.9").status_code
                    for i in range(40)]
        assert statuses == [400] * 10 + [429] * 30
        # Another client behind the same proxy is counted on his own.
        other = APIClient().post("/api/v1/auth/token/", {"username": "nobody", "password": "x"},
                                 REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.10")
        assert other.status_code == 400
    finally:
        api_settings.reload()


@pytest.mark.django_db
def test_the_counts_live_in_the_database_so_every_worker_process_shares_them():
    cache = caches["default"]
    assert isinstance(cache, DatabaseCache)
    cache.set("throttle_login_203.0.113.9", [1.0, 2.0], 60)
    # A cache object made afresh from the settings, as another worker process has, sees it.
    fresh = DatabaseCache("casino_cache", {})
    assert fresh.get("throttle_login_203.0.113.9") == [1.0, 2.0]


@pytest.mark.django_db
def test_five_bad_passwords_lock_that_username_from_that_client_only(settings, client):
    """Behind the proxy, one client's failures must not lock the username out for everyone."""
    settings.TRUSTED_PROXIES = 1
    user("dealer", "dealer")
    attacker = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "198.51.100.66"}
    statuses = [client.post("/admin/login/", {"username": "dealer", "password": "wrong"}, **attacker).status_code
                for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    assert client.post("/admin/login/", {"username": "dealer", "password": "correct horse battery"},
                       **attacker).status_code == 429
    from axes.models import AccessAttempt
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["198.51.100.66"]
    # The dealer himself, from his own address behind the same proxy, still logs in.
    from django.test import Client
    response = Client().post("/accounts/login/", {"username": "dealer", "password": "correct horse battery"},
                             REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.20")
    assert response.status_code == 302
