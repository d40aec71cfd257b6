"""The floor's WebSocket under ASGI (casino/asgi.py names this module as Django names its URLconf):
`/ws/floor/` (consumers.py), for a person signed in by the session (Channels' own
AuthMiddlewareStack) or by an API token (`TokenAuthMiddleware`, REST framework's own lookup).

A browser always says where the page that opens a socket came from (Origin): a page of another
site is refused (`SameOrigin`), as Django's CSRF check refuses its forms. A client that is not a
browser sends no Origin, and signs in with its token."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.routing import URLRouter
from channels.security.websocket import WebsocketDenier
from django.urls import path
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .consumers import FloorConsumer

websocket_urlpatterns = [path("ws/floor/", FloorConsumer.as_asgi())]


def token_of(scope) -> str | None:
    """The API token the client gives: `Authorization: Token <key>`, as the REST API takes it, or
    `?token=<key>` for a client that cannot set a header on a WebSocket."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            keyword, _space, key = value.decode("latin1").partition(" ")
            if keyword == TokenAuthentication.keyword and key.strip():
                return key.strip()
    found = parse_qs(scope.get("query_string", b"").decode("latin1")).get("token")
    return found[0] if found else None


@database_sync_to_async
def token_user(key: str):
    """The token's user, looked up by REST framework itself (an unknown key or an inactive user
    is nobody)."""
    from django.contrib.auth.models import AnonymousUser

    try:
        return TokenAuthentication().authenticate_credentials(key)[0]
    except AuthenticationFailed:
        return AnonymousUser()


class TokenAuthMiddleware(BaseMiddleware):
    """A socket that gives a token is that token's user, whatever session cookie it carries."""

    async def __call__(self, scope, receive, send):
        key = token_of(scope)
        if key is not None:
            scope = dict(scope, user=await token_user(key))
        return await super().__call__(scope, receive, send)


class SameOrigin:
    """Refuse a socket opened by a page of another site: its Origin names a host other than the
    one the socket was opened on."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        origin, host = headers.get(b"origin"), headers.get(b"host", b"").decode("latin1")
        if origin is not None and urlparse(origin.decode("latin1")).netloc != host:
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


application = SameOrigin(AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns))))
