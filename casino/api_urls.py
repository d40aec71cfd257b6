"""The REST API under /api/v1/: its root, the token, the OpenAPI schema and its docs pages, and
each app's routes (casino/pit/api_urls.py, casino/count/api_urls.py).

Every error comes back in one shape, from one handler (casino/api_errors.py); the schema says so
for every operation (casino/api_schema.py).
"""
from __future__ import annotations

from django.shortcuts import render
from django.urls import include, path
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework import status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.routers import APIRootView
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.urlpatterns import format_suffix_patterns

from casino.count import api_urls as count
from casino.parsers import JSONParser
from casino.pit import api_urls as pit
from casino.pit.serializers import TokenInputSerializer


class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (throttled: 10 attempts a minute)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
    parser_classes = [FormParser, MultiPartParser, JSONParser]
    serializer_class = TokenInputSerializer


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema. Its errors are JSON in the one shape, whatever format was asked for."""

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        self.request.accepted_renderer, self.request.accepted_media_type = JSONRenderer(), "application/json"
        return response


class LoginFirst:
    """A docs page asked for by a visitor who is not logged in: a 403 page that says how to log
    in (and comes back here), rather than a bare 403."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return render(request, "api/login.html", {"next": request.get_full_path()},
                          status=status.HTTP_403_FORBIDDEN)
        return super().get(request, *args, **kwargs)


class DocsView(LoginFirst, SpectacularSwaggerSplitView):
    """Swagger UI, its script served as a file of its own (no inline script: Content-Security-Policy)."""


class RedocView(LoginFirst, SpectacularRedocView):
    template_name = "api/redoc.html"


# The root lists every collection of the API: {"tables": ".../api/v1/tables/", ..., "count/boxes": ...}.
ROOT = {prefix: f"{basename}-list" for prefix, _viewset, basename in pit.router.registry} | {
    f"count/{prefix}": f"{basename}-list" for prefix, _viewset, basename in count.router.registry} | {
    "alerts": "alert-list", "aml/cases": "suspicioncase-list"}

urlpatterns = [
    *format_suffix_patterns([path("", APIRootView.as_view(api_root_dict=ROOT), name="api-root")]),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", DocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("count/", include(count)),
    path("alerts/", include("casino.floor.api_urls")),
    path("aml/", include("casino.aml.api_urls")),
    path("", include(pit)),
]
