"""The suspicious-transaction cases' API routes, mounted at /api/v1/aml/ (casino/api_urls.py)."""
from django.urls import include, path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("cases", api.CaseViewSet, basename="suspicioncase")

urlpatterns = [path("", include(router.urls))]
