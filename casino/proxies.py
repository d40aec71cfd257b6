"""The client's address behind the casino's reverse proxies.

Each proxy appends the address it received the request from to `X-Forwarded-For`, so of that
header only the last `TRUSTED_PROXIES` entries were written by the casino's own proxies; the
rest is whatever the client sent. The client is the entry the first trusted proxy appended.
With no trusted proxy (the default) the header is ignored: the connection's own address is the
client. The login lockout (django-axes) and the API's rate limits (REST framework's
`NUM_PROXIES`, set to the same number) read the address this way.
"""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or with n trusted proxies the n-th entry of
    X-Forwarded-For counted from its end (the first entry when the header has fewer)."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if not proxies or not forwarded:
        return remote
    addresses = forwarded.split(",")
    return addresses[-min(proxies, len(addresses))].strip() or remote
